package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/plot"
	"github.com/interderive/interderive/internal/targets"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

func (a *app) newBenchCmd() *cobra.Command {
	stdout, stderr := a.stdout, a.stderr
	variants := map[string]*string{}
	var defs map[string]*string // the definition flags (--rules FILE.sem), by flag
	var dir, only, stages, plotFile, sizes, cpuProfile string
	var limit time.Duration
	var forTargets, force, asJSON bool
	var format, peerName string
	var peerTimeout time.Duration
	var engine string
	var model, modelRules, modelTerm string
	var fuel int
	var timeout time.Duration
	var budgets budgetFlags
	cmd := &cobra.Command{
		Use:   "bench [flags]",
		Short: "Run the benchmark suite on every stage, or measure the performance targets",
		Long: `Bench runs every program of the suite (testdata/bench/*.in, each parameterised by a
size n) at each of its sizes on every stage of its calculus and every variant (the
variant flags take all or a list), and prints, per program, a
table of time (the mean of runs repeated in 6 rounds of at least 10 ms each, after a
first run that samples the heap; 3 rounds for runs over a second), its spread (half
the range of the rounds' means, relative to the mean), contractions, contractions per
second and peak heap, then the growth exponent of each stage: k in time ≈ a · contractions^k,
fitted by least squares on the logarithms. A stage stops growing a program once one of
its runs takes longer than --limit, or when its last two runs predict more than 15
times --limit for the next size (the row says "skipped"). A program stating its answer at a size (-- answer)
is checked at that size; a mismatch makes the exit status 1. Fully typed fib is also
run as a Go function, the native baseline. A program with optional annotations runs
fully dynamic and fully typed here; --targets runs all its configurations.

A program of a rule file (NAME.term.in, its settings in comments starting with ";":
; sizes: 10, 20) runs in the calculus of its rule file, found as run finds it:
--rules FILE.sem, a "; semantics: FILE.sem" line in the program, or DIR.sem beside
its directory DIR; its table names the file's language and the file. A stage that
does not run the file (it does not qualify for environments) makes no run: its row
says why. A run that fails measured nothing: its row is the error alone.

--plot FILE writes a log-log chart of time against size, one line per stage, one panel
per program (SVG).

--targets measures the workbench's performance targets instead, each as ratios within
this run (with --program, only the targets named):

` + targets.Doc() + `

--program names programs (NAME.EXT, or NAME) or, with --targets, targets, exactly;
an unknown name is an error, as is a suite directory with no program. A bench whose
every run failed is an error too (status 3 when they all stopped at a limit, else 2).

--format gobench prints Go's benchmark format instead, one line per round
(BenchmarkInterderive/program=P/variant=V/stage=S/n=N, in ns/op and
contractions/op), so that
benchstat compares two runs or two builds with confidence intervals:

  interderive bench --format gobench > old.txt   (then, after a change)
  interderive bench --format gobench > new.txt
  go run golang.org/x/perf/cmd/benchstat@latest old.txt new.txt

--format json (or --json) prints one JSON document: the tables, each row's mean,
spread and rounds, the growth exponents, and the counts of runs.

--peer redex compares the stages with PLT Redex models of the same rules
(testdata/bench/redex: the cast calculus, layered, with its four semantics, and its
typed call-by-value fragment), on the programs of the suite that name the sizes
Redex runs them at (-- peer redex: 14): each stage's time, and how many times faster
than each model it is, per size and variant (narrow them with --semantics). Redex
runs under racket; where it is not installed the comparison is skipped, and says so.
An answer that differs from Redex's makes the exit status 1.

--peer redex --model MODEL.rkt imports a Redex model (as import does, writing
nothing) and compares its derived stages with Redex itself on the model's longest
test-->> test (the most contractions): Redex runs the model's relation on it
(testdata/bench/redex/model.rkt; its cache of matches off, so that repetitions match
afresh), each stage the rule file the model translates to. --model-rules FILE.sem
takes a rule file written by hand for the model instead, its corpus the tests;
--model-term FILE.term compares on that program (a model's example) instead.

--cpuprofile FILE writes a CPU profile of the run (pprof format), for
go tool pprof.

--plot and --cpuprofile write new files: an existing one is overwritten only with
--force, and a program of the suite never.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			if asJSON {
				if cmd.Flags().Changed("format") && format != formatJSON {
					return fmt.Errorf("--json and --format %s ask for two formats", interderive.Escape(format))
				}
				format = formatJSON
			}
			if !slices.Contains(benchFormats, format) {
				return fmt.Errorf("unknown format %q in --format (known: %s)", interderive.Escape(format), strings.Join(benchFormats, ", "))
			}
			var peer workbench.Peer
			if peerName != "" {
				if peer, err = workbench.PeerNamed(peerName); err != nil {
					return err
				}
				if forTargets || format != formatTable || plotFile != "" {
					return fmt.Errorf("--peer prints its own comparison: it takes neither --targets, --format nor --plot")
				}
			}
			if model == "" && (modelRules != "" || modelTerm != "") {
				return fmt.Errorf("--model-rules and --model-term go with --model")
			}
			if model != "" {
				if peerName != "redex" {
					return fmt.Errorf("--model compares a Redex model with the stages it derives: it takes --peer redex")
				}
				if fuel < 0 || timeout < 0 {
					return fmt.Errorf("--fuel and --timeout must not be negative")
				}
				if cpuProfile != "" { // the profile of the stages' runs and Redex's wait
					if err := checkOutput(cpuProfile, []string{model}, force); err != nil {
						return err
					}
					stop, err := startCPUProfile(cpuProfile, []string{model}, force)
					if err != nil {
						return err
					}
					defer stop()
				}
				mb := modelBench{model: model, rules: modelRules, term: modelTerm, peer: peer, timeout: peerTimeout}
				if err := interderive.CheckEngine(engine); err != nil {
					return err
				}
				return a.benchModel(stdout, stderr, dir, mb, budgets.apply(interderive.Options{Fuel: fuel, Timeout: timeout, Engine: engine}))
			}
			if forTargets && format != formatTable {
				return fmt.Errorf("--targets prints its own report: --format %s applies to the suite only", format)
			}
			if fuel < 0 || timeout < 0 {
				return fmt.Errorf("--fuel and --timeout must not be negative")
			}
			// Every run of the suite holds the budgets, as run's do: a program (a
			// rule file's, say) that loops or explodes is a row's error, not a hang.
			if err := interderive.CheckEngine(engine); err != nil {
				return err
			}
			opts := budgets.apply(interderive.Options{Fuel: fuel, Timeout: timeout, Engine: engine})
			sel, err := a.benchSelection(dir, only, stages, variants, values(defs), sizes, forTargets)
			if err != nil {
				return err
			}
			// The outputs are checked before anything runs: never a program of the
			// suite, never an existing file without --force.
			for _, out := range []string{plotFile, cpuProfile} {
				if out != "" {
					if err := checkOutput(out, sel.inputs, force); err != nil {
						return err
					}
				}
			}
			if cpuProfile != "" {
				stop, err := startCPUProfile(cpuProfile, sel.inputs, force)
				if err != nil {
					return err
				}
				defer func() {
					if serr := stop(); err == nil {
						err = serr
					}
				}()
			}
			if peerName != "" {
				return a.benchPeer(stdout, stderr, dir, sel, peer, peerTimeout)
			}
			if forTargets {
				return runTargets(stdout, stderr, sel.progs, sel.targets)
			}
			var charts []plot.Chart
			var total benchCount
			out := newBenchOut(format, stdout)
			for _, p := range sel.progs {
				if sel.sizes != nil {
					p.Sizes = sel.sizes
				}
				variants, err := a.wb.SelectVariants(p.Calculus, sel.only)
				if err != nil {
					return err
				}
				stageList := a.selectedStages(p, sel)
				configs := p.Configurations()
				if len(configs) > 1 {
					configs = []workbench.Configuration{configs[0], configs[len(configs)-1]}
				}
				for _, cf := range configs {
					name := p.Name
					if len(configs) > 1 {
						name += "[" + cf.Label() + "]"
					}
					for _, variant := range variants {
						if err := workbench.Prepare(p.Calculus, variant); err != nil {
							return err
						}
						stages, skipped := a.stagesUnder(p, sel, stageList, variant)
						chart, n := benchTable(out, cf.Program, name, stages, skipped, variant, limit, opts)
						charts = append(charts, chart)
						total.add(n)
					}
				}
			}
			if err := out.close(total); err != nil {
				return err
			}
			if total.measured == 0 {
				// Every run stopped without an answer, or failed to load.
				fmt.Fprintf(stderr, "bench measured nothing: %d %s, none with an answer (the tables above say why)\n", total.runs, workbench.Plural(total.runs, "run", "runs"))
				if total.runs > 0 && total.limits == total.runs {
					return &exitError{exitFuel}
				}
				return &exitError{exitStatic}
			}
			if plotFile != "" {
				if err := writePlot(plotFile, sel.inputs, force, charts); err != nil {
					return err
				}
				if format == formatTable {
					fmt.Fprintf(stdout, "\nwrote %s\n", interderive.Escape(plotFile))
				} else {
					fmt.Fprintf(stderr, "wrote %s\n", interderive.Escape(plotFile))
				}
			}
			if total.mismatches > 0 {
				fmt.Fprintf(stderr, "%d benchmark answers differ from the stated ones\n", total.mismatches)
				return &exitError{exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "testdata/bench", "the suite's directory")
	cmd.Flags().StringVar(&only, "program", "", "run only these programs, a comma-separated list of names (NAME.EXT, or NAME); with --targets, these targets")
	cmd.Flags().StringVar(&stages, "stage", "all", "stages to run: all, or a comma-separated list")
	cmd.Flags().StringVar(&sizes, "sizes", "", "comma-separated sizes (positive integers) instead of each program's own")
	for _, p := range a.wb.Parameters() {
		variants[p.Flag] = new(string)
		cmd.Flags().StringVar(variants[p.Flag], p.Flag, "all", fmt.Sprintf("%s to run: all or a comma-separated list of %s", p.Doc, joinNames(p.Values)))
	}
	defs = a.registerDefinitionFlags(cmd)
	cmd.Flags().DurationVar(&limit, "limit", 2*time.Second, "stop growing a stage's sizes after a run this long")
	cmd.Flags().StringVar(&plotFile, "plot", "", "write a log-log chart of time against size to this SVG file (a new file, unless --force)")
	cmd.Flags().BoolVar(&forTargets, "targets", false, "measure the performance targets instead of running the suite")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file (a new file, unless --force)")
	cmd.Flags().StringVar(&format, "format", formatTable, "how to print the suite's measurements: table, gobench (Go's benchmark format, one line per round, for benchstat) or json")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the suite's measurements as JSON (--format json)")
	cmd.Flags().StringVar(&peerName, "peer", "", "compare the stages with another tool instead: redex (PLT Redex models, run by racket; skipped where it is not installed)")
	registerEngine(cmd, &engine)
	cmd.Flags().DurationVar(&peerTimeout, "peer-timeout", 30*time.Minute, "stop a peer's run after this long (0 for no limit)")
	cmd.Flags().StringVar(&model, "model", "", "with --peer redex: import the Redex model `MODEL.rkt` and compare its derived stages with Redex on its longest test")
	cmd.Flags().StringVar(&modelRules, "model-rules", "", "with --model: the model written by hand, this rule file `FILE.sem` instead of the import, its corpus (FILE/*.term) the tests")
	cmd.Flags().StringVar(&modelTerm, "model-term", "", "with --model: compare on this program `FILE.term` instead of the longest test (a model whose tests are no programs: its examples)")
	cmd.Flags().BoolVar(&force, "force", false, "let --plot and --cpuprofile overwrite existing files (never a program of the suite)")
	cmd.Flags().IntVar(&fuel, "fuel", interderive.DefaultFuel, "maximum number of contractions of every run")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultTimeout, "stop a run after this long (e.g. 10s, 5m); 0 for no limit")
	budgets.register(cmd)
	return cmd
}

// benchSel is what bench's flags select.
type benchSel struct {
	progs   []workbench.BenchProgram
	inputs  []string            // the suite's files, which no output may overwrite
	targets []string            // --targets: the targets to measure, nil for all
	stages  []string            // nil: every stage of a program's language
	only    map[string][]string // per variant flag, nil for all
	sizes   []string            // nil: each program's own
}

// benchSelection reads bench's flags: every name is checked, whichever programs the
// selection keeps, and a selection of nothing is an error. defs are the definition
// flags' values (--rules FILE.sem), by flag: a program of a family (a rule file's
// NAME.term.in) is in the calculus its definition makes, found as run finds it.
func (a *app) benchSelection(dir, programs, stages string, variants map[string]*string, defs map[string]string, sizes string, forTargets bool) (benchSel, error) {
	var sel benchSel
	var err error
	if sel.stages, err = a.nameList("stage", stages); err != nil {
		return sel, err
	}
	sel.only = map[string][]string{}
	for flag, value := range variants {
		if sel.only[flag], err = a.nameList(flag, *value); err != nil {
			return sel, err
		}
	}
	if sizes != "" {
		sel.sizes = splitList(sizes)
		if len(sel.sizes) == 0 {
			return sel, fmt.Errorf("--sizes is empty")
		}
		for _, n := range sel.sizes {
			if v, err := strconv.Atoi(n); err != nil || v <= 0 {
				return sel, fmt.Errorf("--sizes: %q is not a positive integer", n)
			}
		}
	}
	info, err := os.Stat(dir)
	if err != nil {
		return sel, fmt.Errorf("--dir %s: %w (bench runs from the repository's root, or give --dir)", interderive.Escape(dir), err)
	}
	if !info.IsDir() {
		return sel, fmt.Errorf("--dir %s is not a directory", interderive.Escape(dir))
	}
	all, err := a.wb.LoadBenchDefined(dir, defs)
	if err != nil {
		return sel, err
	}
	if len(all) == 0 {
		return sel, fmt.Errorf("--dir %s holds no benchmark program (*.in)", interderive.Escape(dir))
	}
	var names []string
	for _, p := range all {
		sel.inputs = append(sel.inputs, filepath.Join(dir, p.Name+".in"))
		names = append(names, strings.TrimSuffix(p.Name, filepath.Ext(p.Name)))
	}
	wanted := splitList(programs)
	if forTargets {
		for _, t := range wanted {
			if !slices.Contains(targets.Names, t) {
				return sel, fmt.Errorf("unknown target %q in --program (known: %s)", t, strings.Join(targets.Names, ", "))
			}
		}
		sel.targets, sel.progs = wanted, all
		return sel, nil
	}
	if programs != "" && len(wanted) == 0 {
		return sel, fmt.Errorf("--program is empty")
	}
	for _, w := range wanted {
		if !slices.ContainsFunc(all, func(p workbench.BenchProgram) bool { return p.Named(w) }) {
			return sel, fmt.Errorf("unknown program %q in --program (known: %s)", w, strings.Join(names, ", "))
		}
	}
	for _, p := range all {
		if len(wanted) == 0 || slices.ContainsFunc(wanted, p.Named) {
			sel.progs = append(sel.progs, p)
		}
	}
	return sel, nil
}

// selectedStages are the stages of a program's calculus that --stage selects.
func (a *app) selectedStages(p workbench.BenchProgram, sel benchSel) []interderive.Stage {
	stages := a.wb.StagesOf(p.Calculus)
	if sel.stages != nil {
		stages = slices.DeleteFunc(slices.Clone(stages), func(s interderive.Stage) bool { return !slices.Contains(sel.stages, s.Name()) })
	}
	return stages
}

// stagesUnder are the stages of stageList that run the variant, and, when --stage
// names stages, those it names that do not (the calculus has no such stage, or it
// does not run the variant) with the reason each gets a row for: a stage asked for is
// never dropped without a word.
func (a *app) stagesUnder(p workbench.BenchProgram, sel benchSel, stageList []interderive.Stage, variant string) ([]interderive.Stage, map[string]string) {
	running := workbench.RunningUnder(p.Calculus, stageList, variant)
	if sel.stages == nil {
		return running, nil
	}
	skipped := map[string]string{}
	var stages []interderive.Stage
	for _, s := range a.wb.Stages() {
		if !slices.Contains(sel.stages, s.Name()) {
			continue
		}
		switch {
		case !slices.Contains(stageList, s):
			skipped[s.Name()] = fmt.Sprintf("the %s calculus has no %s stage (its stages: %s)", p.Calculus.Name(), s.Name(), strings.Join(stageNamesOf(a.wb.StagesOf(p.Calculus)), ", "))
		case !slices.Contains(running, s):
			skipped[s.Name()] = fmt.Sprintf("the %s stage does not run %s", s.Name(), variant)
		}
		stages = append(stages, s)
	}
	return stages, skipped
}

// stageNamesOf are the stages' names, in order.
func stageNamesOf(stages []interderive.Stage) []string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.Name()
	}
	return names
}

// benchCount counts the runs of the tables.
type benchCount struct {
	runs, measured, limits, mismatches int
}

func (c *benchCount) add(d benchCount) {
	c.runs, c.measured, c.limits, c.mismatches = c.runs+d.runs, c.measured+d.measured, c.limits+d.limits, c.mismatches+d.mismatches
}

// benchTable runs one program under one variant on the stages at its sizes (a row
// saying why for the skipped ones), prints the
// table and the exponents to out, and returns the chart of time against size and the
// count of its runs: made, measured (an answer), stopped by a resource limit, and with
// an answer other than the program's stated one.
func benchTable(out benchOut, p workbench.BenchProgram, name string, stages []interderive.Stage, skipped map[string]string, variant string, limit time.Duration, opts interderive.Options) (plot.Chart, benchCount) {
	title := benchTitle(p.Calculus, name, variant)
	out.begin(name, variant, title)
	chart := plot.Chart{Title: title, XLabel: "n", YLabel: "time"}
	var exponents []stageExponent
	var count benchCount
	for _, st := range stages {
		stage := st.Name()
		if why, ok := skipped[stage]; ok {
			out.refused(stage, why) // asked for by --stage, and not run
			continue
		}
		if err := workbench.Refusal(p.Calculus, st); err != nil {
			out.refused(stage, err.Error()) // a stage that does not derive rule files
			continue
		}
		var rows []workbench.BenchRow
		series := plot.Series{Name: stage}
		for i, size := range p.Sizes {
			if i >= 2 && i < len(p.Sizes) {
				// Extrapolate the last two runs: a stage whose time grows fast (the
				// environment steps of a stage over environments on long chains) would take many times the
				// limit at the next size.
				if est, ok := workbench.NextTime(rows[i-2], rows[i-1], size); ok && est > 15*limit {
					out.skipped(stage, size, est)
					break
				}
			}
			r := workbench.RunBench(p, size, st, variant, opts)
			rows = append(rows, r)
			count.runs++
			answer := r.Answer
			switch {
			case r.Err != nil:
				answer = "error: " + r.Err.Error()
				if errors.Is(r.Err, interderive.ErrResourceLimit) {
					count.limits++
				}
			case r.Mismatch != "":
				answer += " MISMATCH, want " + r.Mismatch
				count.mismatches++
				count.measured++
			default:
				count.measured++
			}
			out.row(r, answer)
			if x, err := strconv.ParseFloat(size, 64); err == nil && r.Err == nil {
				series.Points = append(series.Points, plot.Point{X: x, Y: r.Time.Seconds()})
			}
			if r.Err != nil || r.Time > limit {
				break
			}
		}
		chart.Series = append(chart.Series, series)
		if k := workbench.GrowthExponent(rows); !math.IsNaN(k) {
			exponents = append(exponents, stageExponent{stage, k})
		}
	}
	if strings.HasPrefix(name, "fib-typed") {
		series := plot.Series{Name: "native Go"}
		for _, size := range p.Sizes {
			n, _ := strconv.Atoi(size)
			reps, sink := 0, 0
			t, _ := workbench.TimeRounds(func() error {
				sink += targets.NativeFib(n)
				reps++
				return nil
			})
			out.native(size, t, sink/reps)
			series.Points = append(series.Points, plot.Point{X: float64(n), Y: t.Mean().Seconds()})
		}
		chart.Series = append(chart.Series, series)
	}
	out.end(exponents)
	return chart, count
}

// benchTitle is a table's title: the program and its variant, "sum.gtlc (ed)", or, for
// a program of a rule file, whose one variant is the file, the file's language and
// path (workbench.VariantLabel): "fact.term, language cbv (testdata/rules/cbv.sem)".
func benchTitle(c workbench.Calculus, name, variant string) string {
	parameter, label := workbench.VariantLabel(c, variant)
	if parameter != c.Variant().Flag {
		return name + ", " + parameter + " " + label
	}
	return name + " (" + label + ")"
}

// writePlot writes the charts to a new file (or, with force, an existing one that is
// not an input).
func writePlot(file string, inputs []string, force bool, charts []plot.Chart) error {
	f, err := createOutput(file, inputs, force)
	if err != nil {
		return err
	}
	if err := plot.WriteSVG(f, 2, charts...); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runTargets measures the targets (the named ones, or all for nil), printing each run
// as it goes and a summary.
func runTargets(stdout, stderr io.Writer, progs []workbench.BenchProgram, names []string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cfg := targets.Config{Suite: progs, Second: time.Second, Log: stdout, Exe: exe}
	var ts []targets.Target
	for _, name := range targets.Names {
		if names != nil && !slices.Contains(names, name) {
			continue
		}
		t, err := targets.Measure(cfg, name)
		ts = append(ts, t...)
		if err != nil {
			return err
		}
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

// startCPUProfile starts writing a CPU profile to a new file (or, with force, an
// existing one that is not an input); stop ends it and closes the file.
func startCPUProfile(file string, inputs []string, force bool) (stop func() error, err error) {
	f, err := createOutput(file, inputs, force)
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
