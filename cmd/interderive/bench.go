package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/driver"
	"github.com/interderive/interderive/internal/plot"
	"github.com/spf13/cobra"
)

func newBenchCmd(stdout, stderr io.Writer) *cobra.Command {
	var dir, only, stages, semantics, ad, plotFile, sizes, cpuProfile string
	var limit time.Duration
	var targets bool
	cmd := &cobra.Command{
		Use:   "bench [flags]",
		Short: "Run the benchmark suite on every stage, or measure the performance targets",
		Long: `Bench runs every program of the suite (testdata/bench/*.in, each parameterised by a
size n) at each of its sizes on every stage and semantics, and prints, per program, a
table of time (the mean of runs repeated for at least 50 ms after a first run that samples
the heap), contractions, contractions per second and
peak heap, then the growth exponent of each stage: k in time ≈ a · contractions^k,
fitted by least squares on the logarithms. A stage stops growing a program once one of
its runs takes longer than --limit, or when its last two runs predict more than 15
times --limit for the next size (the row says "skipped"). A program stating its answer at a size (-- answer)
is checked at that size; a mismatch makes the exit status 1. Fully typed fib is also
run as a Go function, the native baseline. A program with optional annotations runs
fully dynamic and fully typed here; --targets runs all its configurations.

--plot FILE writes a log-log chart of time against size, one line per stage, one panel
per program (SVG).

--targets measures the workbench's performance targets instead, each as ratios within
this run: refocusing (reduction quadratic, the refocused stages linear, the machine
100× faster where reduction takes a second), typed fib against Go, gradual-typing
configurations, space efficiency of merged coercions, and the tape reverse mode
(with --program NAME, only the targets whose name contains it: refocusing, fib,
configurations, space, tape).

--cpuprofile FILE writes a CPU profile of the run (pprof format), for
go tool pprof.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile)
				if err != nil {
					return err
				}
				defer func() {
					if serr := stop(); err == nil {
						err = serr
					}
				}()
			}
			progs, err := driver.LoadBench(dir)
			if err != nil {
				return err
			}
			if targets {
				return runTargets(stdout, stderr, progs, only)
			}
			var charts []plot.Chart
			mismatches := 0
			for _, p := range progs {
				if only != "" && !strings.Contains(p.Name, only) {
					continue
				}
				if sizes != "" {
					p.Sizes = strings.Split(sizes, ",")
				}
				variants, err := benchVariants(p.Lang, semantics, ad)
				if err != nil {
					return err
				}
				stageList := p.Lang.Stages()
				if stages != "" {
					stageList = strings.Split(stages, ",")
					for _, s := range stageList {
						if _, err := driver.CheckStage(p.Lang, s); err != nil {
							return err
						}
					}
				}
				configs := p.Configurations()
				if len(configs) > 1 {
					configs = []driver.Configuration{configs[0], configs[len(configs)-1]}
				}
				for _, cf := range configs {
					name := p.Name
					if len(configs) > 1 {
						name += "[" + cf.Label() + "]"
					}
					for _, variant := range variants {
						chart, bad := benchTable(stdout, cf.Program, name, stageList, variant, limit)
						charts = append(charts, chart)
						mismatches += bad
					}
				}
			}
			if plotFile != "" {
				if err := writePlot(plotFile, charts); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "\nwrote %s\n", plotFile)
			}
			if mismatches > 0 {
				fmt.Fprintf(stderr, "%d benchmark answers differ from the stated ones\n", mismatches)
				return &exitError{exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "testdata/bench", "the suite's directory")
	cmd.Flags().StringVar(&only, "program", "", "run only the programs whose name contains this")
	cmd.Flags().StringVar(&stages, "stage", "", "comma-separated stages (default: every stage)")
	cmd.Flags().StringVar(&sizes, "sizes", "", "comma-separated sizes instead of each program's own")
	cmd.Flags().StringVar(&semantics, "semantics", "all", `cast semantics for the gradual programs, comma-separated, or "all"`)
	cmd.Flags().StringVar(&ad, "ad", "all", `differentiation strategies for the differentiable programs, comma-separated, or "all"`)
	cmd.Flags().DurationVar(&limit, "limit", 2*time.Second, "stop growing a stage's sizes after a run this long")
	cmd.Flags().StringVar(&plotFile, "plot", "", "write a log-log chart of time against size to this SVG file")
	cmd.Flags().BoolVar(&targets, "targets", false, "measure the performance targets instead of running the suite")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	return cmd
}

// benchVariants is the list of variants a flag selects for a language.
func benchVariants(l driver.Language, semantics, ad string) ([]string, error) {
	flag := semantics
	if driver.VariantFlag(l) == "ad" {
		flag = ad
	}
	if flag == "all" {
		return l.Variants(), nil
	}
	var out []string
	for _, v := range strings.Split(flag, ",") {
		v, err := driver.CheckVariant(l, strings.TrimSpace(v))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// benchTable runs one program under one variant on the stages at its sizes, prints the
// table and the exponents, and returns the chart of time against size and the number
// of answers that differ from the program's stated ones.
func benchTable(stdout io.Writer, p driver.BenchProgram, name string, stages []string, variant string, limit time.Duration) (plot.Chart, int) {
	fmt.Fprintf(stdout, "\n%s (%s)\n", name, variant)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "stage\tn\ttime\tcontractions\tcontractions/s\tpeak heap\tanswer\t")
	chart := plot.Chart{Title: name + " (" + variant + ")", XLabel: "n", YLabel: "time"}
	exponents := map[string]float64{}
	mismatches := 0
	for _, stage := range stages {
		var rows []driver.BenchRow
		series := plot.Series{Name: stage}
		for i, size := range p.Sizes {
			if i >= 2 && i < len(p.Sizes) {
				// Extrapolate the last two runs: a stage whose time grows fast (the
				// calculus of closures on long let-chains) would take many times the
				// limit at the next size.
				if est, ok := driver.NextTime(rows[i-2], rows[i-1], size); ok && est > 15*limit {
					fmt.Fprintf(tw, "%s\t%s\t(skipped: about %s)\t\t\t\t\t\n", stage, size, est.Round(time.Second))
					break
				}
			}
			r := driver.RunBench(p, size, stage, variant, interderive.Options{})
			rows = append(rows, r)
			answer := r.Answer
			switch {
			case r.Err != nil:
				answer = "error: " + r.Err.Error()
			case r.Mismatch != "":
				answer += " MISMATCH, want " + r.Mismatch
				mismatches++
			}
			rate := float64(r.Contractions) / r.Time.Seconds()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.3g\t%s\t%s\t\n", stage, size, r.Time.Round(time.Microsecond), r.Contractions, rate, driver.FormatBytes(r.PeakHeap), answer)
			if x, err := strconv.ParseFloat(size, 64); err == nil && r.Err == nil {
				series.Points = append(series.Points, plot.Point{X: x, Y: r.Time.Seconds()})
			}
			if r.Err != nil || r.Time > limit {
				break
			}
		}
		chart.Series = append(chart.Series, series)
		exponents[stage] = driver.GrowthExponent(rows)
	}
	if strings.HasPrefix(name, "fib-typed") {
		series := plot.Series{Name: "native Go"}
		for _, size := range p.Sizes {
			n, _ := strconv.Atoi(size)
			start, reps, sink := time.Now(), 0, 0
			for time.Since(start) < 20*time.Millisecond {
				sink += driver.NativeFib(n)
				reps++
			}
			d := time.Since(start) / time.Duration(reps)
			fmt.Fprintf(tw, "native Go\t%s\t%s\t\t\t\t%d\t\n", size, d.Round(time.Nanosecond), sink/reps)
			series.Points = append(series.Points, plot.Point{X: float64(n), Y: d.Seconds()})
		}
		chart.Series = append(chart.Series, series)
	}
	tw.Flush()
	fmt.Fprint(stdout, "growth exponent (time vs contractions):")
	for _, stage := range stages {
		if k := exponents[stage]; !math.IsNaN(k) {
			fmt.Fprintf(stdout, "  %s %.2f", stage, k)
		}
	}
	fmt.Fprintln(stdout)
	return chart, mismatches
}

func writePlot(file string, charts []plot.Chart) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := plot.WriteSVG(f, 2, charts...); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runTargets measures the targets, printing each run as it goes and a summary.
func runTargets(stdout, stderr io.Writer, progs []driver.BenchProgram, only string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	ts, err := driver.Targets(driver.TargetConfig{Suite: progs, Second: time.Second, Log: stdout, Exe: exe}, only)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "\ntargets:")
	unmet := 0
	for _, t := range ts {
		mark := "met"
		if !t.Met {
			mark, unmet = "NOT MET", unmet+1
		}
		fmt.Fprintf(stdout, "  [%s] %s\n      claim:    %s\n      measured: %s\n", mark, t.Name, t.Bound, t.Measured)
	}
	if unmet > 0 {
		fmt.Fprintf(stderr, "%d of %d targets not met\n", unmet, len(ts))
	}
	return nil
}

// startCPUProfile starts writing a CPU profile to file; stop ends it and closes the
// file.
func startCPUProfile(file string) (stop func() error, err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}
