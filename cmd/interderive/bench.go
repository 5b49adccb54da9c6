package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/driver"
	"github.com/spf13/cobra"
)

func newBenchCmd(stdout, stderr io.Writer) *cobra.Command {
	var dir, only, semantics, ad string
	var limit time.Duration
	cmd := &cobra.Command{
		Use:   "bench [flags]",
		Short: "Run the benchmark suite on every stage and fit each stage's growth",
		Long: `Bench runs every program of the suite (testdata/bench/*.in, each parameterised by a
size n) at each of its sizes on every stage, and prints, per program, a table of time,
contractions, contractions per second and peak heap, then the growth exponent of each
stage: k in time ≈ a · contractions^k, fitted by least squares on the logarithms (the
reduction semantics is quadratic, the refocused stages linear). A stage stops growing
a program once one of its runs takes longer than --limit. Fully typed fib is also run
as a Go function, the native baseline.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			progs, err := driver.LoadBench(dir)
			if err != nil {
				return err
			}
			for _, p := range progs {
				if only != "" && !strings.Contains(p.Name, only) {
					continue
				}
				variant := semantics
				if driver.VariantFlag(p.Lang) == "ad" {
					variant = ad
				}
				fmt.Fprintf(stdout, "\n%s (%s)\n", p.Name, variant)
				tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprintln(tw, "stage\tn\ttime\tcontractions\tcontractions/s\tpeak heap\tanswer\t")
				exponents := map[string]float64{}
				for _, stage := range p.Lang.Stages() {
					var rows []driver.BenchRow
					for _, size := range p.Sizes {
						r := driver.RunBench(p, size, stage, variant, interderive.Options{})
						rows = append(rows, r)
						answer := r.Answer
						if r.Err != nil {
							answer = "error: " + r.Err.Error()
						}
						rate := float64(r.Contractions) / r.Time.Seconds()
						fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.3g\t%s\t%s\t\n", stage, size, r.Time.Round(time.Microsecond), r.Contractions, rate, formatBytes(r.PeakHeap), answer)
						if r.Err != nil || r.Time > limit {
							break
						}
					}
					exponents[stage] = driver.GrowthExponent(rows)
				}
				if strings.HasPrefix(p.Name, "fib-typed") {
					for _, size := range p.Sizes {
						n, _ := strconv.Atoi(size)
						start, reps, sink := time.Now(), 0, 0
						for time.Since(start) < 20*time.Millisecond {
							sink += nativeFib(n)
							reps++
						}
						_ = sink
						fmt.Fprintf(tw, "native Go\t%s\t%s\t\t\t\t%d\t\n", size, (time.Since(start) / time.Duration(reps)).Round(time.Nanosecond), nativeFib(n))
					}
				}
				tw.Flush()
				fmt.Fprint(stdout, "growth exponent (time vs contractions):")
				for _, stage := range p.Lang.Stages() {
					if k := exponents[stage]; !math.IsNaN(k) {
						fmt.Fprintf(stdout, "  %s %.2f", stage, k)
					}
				}
				fmt.Fprintln(stdout)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "testdata/bench", "the suite's directory")
	cmd.Flags().StringVar(&only, "program", "", "run only the programs whose name contains this")
	cmd.Flags().StringVar(&semantics, "semantics", "ed", "cast semantics for the gradual programs")
	cmd.Flags().StringVar(&ad, "ad", "pruned", "differentiation strategy for the differentiable programs")
	cmd.Flags().DurationVar(&limit, "limit", 2*time.Second, "stop growing a stage's sizes after a run this long")
	return cmd
}

// nativeFib is fib written directly in Go: the baseline the interpreters are
// measured against.
func nativeFib(n int) int {
	if n < 2 {
		return n
	}
	return nativeFib(n-1) + nativeFib(n-2)
}

func formatBytes(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
