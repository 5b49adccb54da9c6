package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/driver"
	"github.com/spf13/cobra"
)

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var stage, semantics, ad, lang string
	var fuel int
	var timeout time.Duration
	var budgets budgetFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...",
		Short: "Check programs against their expectation comments",
		Long: `Check runs every program file (directories are searched recursively; - reads one
program from standard input, with --lang) on the chosen stages under every variant it
has an expectation for (the cast semantics for *.gtlc and *.cast, the differentiation
strategies for *.dpl), and compares the answers with the file's comments:

  -- expect: ANSWER           expected under every semantics
  -- expect[ld,eud]: ANSWER   expected under the semantics listed
  -- expect-approx: REAL      reals, to a relative 1e-9
  -- rules[ld]: R1, R2        contractions that must occur (e.g. StepCst/InOut)
  -- fuel: N                  the contraction budget for this file

ANSWER is what run prints, "blame *" (blame with any label), "type error", or
"out of fuel". A comment line shaped as a directive that is not one (-- expct: 4,
-- expect[xx]: 4, -- WORD[...]: ...) is an error with its line.

Each file runs once per stage, variant and merging mode that applies: the gradual
calculi unmerged (where the rules lines must hold) and, under the semantics where
merging preserves answers (LD, LUD), merged too; the differentiable language once.
The runs are spread over every core; the report comes in file order, identical
failures of a file on one line ("expected 3, got 4 on reduction, closures under ld,
lud"). On a terminal a progress line is shown on standard error. Check ends with
"N files, N runs: N passed, N failed".

A file that cannot be checked is an error: unreadable, with malformed expectation
comments, with no expectation, or that no run applies to (--stage, --semantics or
--ad exclude every run it has). The exit status is then 2, else 1 if a run failed.

` + exitStatusHelp,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts driver.CheckOptions
			var err error
			if opts.Stages, err = nameList("stage", stage); err != nil {
				return err
			}
			opts.Only = map[string][]string{}
			for flag, value := range map[string]string{"semantics": semantics, "ad": ad} {
				names, err := nameList(flag, value)
				if err != nil {
					return err
				}
				if names != nil {
					opts.Only[flag] = names
				}
			}
			if fuel < 0 || timeout < 0 {
				return fmt.Errorf("--fuel and --timeout must not be negative")
			}
			opts.Fuel, opts.Timeout = fuel, timeout
			budget := budgets.apply(interderive.Options{})
			opts.Memory, opts.Output = budget.Memory, budget.Output
			if lang != "" {
				if _, err := driver.LanguageNamed(lang); err != nil {
					return err
				}
			}
			files, err := driver.SourceFiles(args)
			if err != nil {
				return err
			}
			plans, errs := planCheck(files, lang, cmd.InOrStdin(), opts)
			report := runCheck(files, plans, errs, opts, progressLine(stderr, "check"), func(i int, fs []driver.Failure) {
				if !asJSON {
					printCheckFile(stdout, files[i], plans[i], errs[i], fs)
				}
			})
			if asJSON {
				enc := json.NewEncoder(stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(report); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(stdout, report.summary())
			}
			switch {
			case report.Errors > 0:
				return &exitError{code: exitStatic}
			case report.Failed > 0:
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&stage, "stage", "all", "stages to run: all, or a comma-separated list of reduction, closures, machine, cps2, interp")
	cmd.Flags().StringVar(&semantics, "semantics", "all", "gradual calculi: cast semantics to run, all or a comma-separated list (ld, lud, ed, eud, edn, ...)")
	cmd.Flags().StringVar(&ad, "ad", "all", "differentiable language: strategies to run, all or a comma-separated list (tape, pruned, figure6)")
	cmd.Flags().IntVar(&fuel, "fuel", 0, "contraction budget of every run (default: the file's -- fuel: line, else 10,000,000)")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultTimeout, "stop each run after this long (e.g. 10s), a failure; 0 for no limit")
	budgets.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: files, runs, passed, failed, errors, and every failure")
	cmd.Flags().StringVar(&lang, "lang", "", "the language of standard input (-): gtlc, cast or dpl")
	return cmd
}

// planCheck reads and plans every file, in order; a file that cannot be checked has
// a nil plan and its error.
func planCheck(files []string, lang string, stdin io.Reader, opts driver.CheckOptions) ([]*driver.CheckPlan, []error) {
	plans, errs := make([]*driver.CheckPlan, len(files)), make([]error, len(files))
	for i, file := range files {
		l, err := driver.LanguageFor(file, lang)
		if file == "-" && lang == "" {
			err = fmt.Errorf("reading a program from standard input (-) needs --lang (gtlc, cast or dpl)")
		}
		if err != nil {
			errs[i] = err
			continue
		}
		src, err := readSource(file, stdin, opts.Timeout)
		if err != nil {
			errs[i] = err
			continue
		}
		plans[i], err = driver.PlanCheck(displayName(file), src, l, opts)
		if err != nil {
			errs[i] = errors.New(interderive.Describe(displayName(file), src, err))
		}
	}
	return plans, errs
}

// checkReport is what check found; check --json prints it.
type checkReport struct {
	Files    int            `json:"files"`
	Runs     int            `json:"runs"`
	Passed   int            `json:"passed"`
	Failed   int            `json:"failed"`
	Errors   int            `json:"errors"` // files that could not be checked
	Failures []checkFailure `json:"failures"`
	Problems []checkError   `json:"file_errors"`
}

// checkFailure is a failed run, for check --json.
type checkFailure struct {
	File      string `json:"file"`
	Stage     string `json:"stage,omitempty"` // none for a program that does not load
	Semantics string `json:"semantics"`       // or differentiation strategy
	Mode      string `json:"mode,omitempty"`  // merged or unmerged (gradual calculi)
	Message   string `json:"message"`
	Detail    string `json:"detail,omitempty"`
}

// checkError is a file that could not be checked, for check --json.
type checkError struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// summary is the report's last line.
func (r *checkReport) summary() string {
	s := fmt.Sprintf("%d %s, %d %s: %d passed, %d failed", r.Files, plural(r.Files, "file", "files"), r.Runs, plural(r.Runs, "run", "runs"), r.Passed, r.Failed)
	if r.Errors > 0 {
		s += fmt.Sprintf("; %d %s not checked (errors above)", r.Errors, plural(r.Errors, "file", "files"))
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkItem is one run of one file.
type checkItem struct{ file, run int }

// runCheck makes every run of every plan on a pool of one worker per core, and calls
// done for each file in file order as soon as the file and the ones before it are
// finished, with its failures in the order of its runs.
func runCheck(files []string, plans []*driver.CheckPlan, errs []error, opts driver.CheckOptions, progress func(done, total, failed int), done func(int, []driver.Failure)) *checkReport {
	report := &checkReport{Files: len(plans), Failures: []checkFailure{}, Problems: []checkError{}}
	results := make([][][]driver.Failure, len(plans))
	remaining := make([]int, len(plans))
	items := make(chan checkItem)
	finished := make(chan checkItem)
	for i, p := range plans {
		if p != nil {
			results[i] = make([][]driver.Failure, len(p.Runs))
			remaining[i] = len(p.Runs)
			report.Runs += len(p.Runs)
		}
	}
	go func() {
		for i, p := range plans {
			if p != nil {
				for j := range p.Runs {
					items <- checkItem{i, j}
				}
			}
		}
		close(items)
	}()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				p := plans[it.file]
				results[it.file][it.run] = p.Run(p.Runs[it.run], opts)
				finished <- it
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	next, ran, failed := 0, 0, 0
	flush := func() {
		for ; next < len(plans) && remaining[next] == 0; next++ {
			var fs []driver.Failure
			for _, r := range results[next] {
				fs = append(fs, r...)
			}
			report.record(files[next], plans[next], errs[next], results[next], fs)
			done(next, fs)
		}
	}
	flush()
	last := time.Now()
	for it := range finished {
		remaining[it.file]--
		ran++
		if len(results[it.file][it.run]) > 0 {
			failed++
		}
		if time.Since(last) > 100*time.Millisecond {
			progress(ran, report.Runs, failed)
			last = time.Now()
		}
		flush()
	}
	progress(-1, 0, 0)
	return report
}

// record adds a finished file to the report.
func (r *checkReport) record(file string, p *driver.CheckPlan, err error, runs [][]driver.Failure, fs []driver.Failure) {
	if p == nil {
		r.Errors++
		r.Problems = append(r.Problems, checkError{File: displayName(file), Message: err.Error()})
		return
	}
	for _, failures := range runs {
		if len(failures) == 0 {
			r.Passed++
		} else {
			r.Failed++
		}
	}
	for _, f := range fs {
		mode := ""
		if f.Mode != interderive.MergeDefault {
			mode = f.Mode.String()
		}
		r.Failures = append(r.Failures, checkFailure{File: p.Path, Stage: f.Stage, Semantics: f.Variant, Mode: mode, Message: f.What, Detail: f.Detail})
	}
}

// printCheckFile prints what check found wrong with a file: ERROR and why it could
// not be checked, or FAIL and its failures grouped; nothing when it passed.
func printCheckFile(w io.Writer, file string, p *driver.CheckPlan, err error, fs []driver.Failure) {
	indent := func(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
	switch {
	case p == nil:
		fmt.Fprintf(w, "ERROR %s\n%s\n", interderive.Escape(displayName(file)), indent(interderive.EscapeLines(err.Error())))
	case len(fs) > 0:
		fmt.Fprintf(w, "FAIL %s\n", interderive.Escape(p.Path))
		for _, line := range groupFailures(fs, p.Runs, p.Lang.Stages(), p.Lang.Variants()) {
			fmt.Fprintln(w, indent(interderive.EscapeLines(line)))
		}
	}
}

// groupFailures writes a file's failures one line per distinct failure, naming the
// runs where it occurred: the stages that failed under the same variants together,
// "expected 3, got 4 on reduction, closures under ld, lud; on machine under ld". A
// variant is named alone when it failed in every merging mode it ran in, else with
// the modes it failed in, "ld (merged)". A failure with a detail (the error of a
// program that does not load) has it on the lines that follow.
func groupFailures(fs []driver.Failure, runs []driver.CheckRun, stages, variants []string) []string {
	type group struct {
		what, detail string
		failed       []driver.CheckRun
	}
	var groups []*group
	for _, f := range fs {
		i := slices.IndexFunc(groups, func(g *group) bool { return g.what == f.What && g.detail == f.Detail })
		if i < 0 {
			groups = append(groups, &group{what: f.What, detail: f.Detail})
			i = len(groups) - 1
		}
		if g := groups[i]; !slices.Contains(g.failed, f.CheckRun) {
			g.failed = append(g.failed, f.CheckRun)
		}
	}
	// modes lists the merging modes of the runs of a stage and variant among runs.
	modes := func(runs []driver.CheckRun, stage, variant string) []interderive.Merging {
		var ms []interderive.Merging
		for _, r := range runs {
			if r.Stage == stage && r.Variant == variant {
				ms = append(ms, r.Mode)
			}
		}
		return ms
	}
	var lines []string
	for _, g := range groups {
		var keys []string // the variants of a stage, in the order of their first stage
		byKey := map[string][]string{}
		for _, stage := range append([]string{""}, stages...) {
			var labels []string
			for _, v := range variants {
				failed := modes(g.failed, stage, v)
				switch {
				case len(failed) == 0:
					continue
				case len(failed) == len(modes(runs, stage, v)):
					labels = append(labels, v)
				default:
					var names []string
					for _, m := range failed {
						names = append(names, m.String())
					}
					labels = append(labels, v+" ("+strings.Join(names, ", ")+")")
				}
			}
			if labels == nil {
				continue
			}
			key := strings.Join(labels, ", ")
			if _, seen := byKey[key]; !seen {
				keys = append(keys, key)
			}
			byKey[key] = append(byKey[key], stage)
		}
		var parts []string
		for _, key := range keys {
			on := strings.Join(slices.DeleteFunc(byKey[key], func(s string) bool { return s == "" }), ", ")
			if on != "" {
				on = "on " + on + " "
			}
			parts = append(parts, on+"under "+key)
		}
		line := g.what + " " + strings.Join(parts, "; ")
		if g.detail != "" {
			line += ":\n" + g.detail
		}
		lines = append(lines, line)
	}
	return lines
}

// isTerminal reports whether w is a terminal (a character device), where a progress
// line may be shown.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// progressLine shows on a terminal how far a command has got, "name: 120 of 340
// runs, 2 failed", rewritten in place; done < 0 clears it. Elsewhere it does nothing.
func progressLine(w io.Writer, name string) func(done, total, failed int) {
	if !isTerminal(w) {
		return func(int, int, int) {}
	}
	return func(done, total, failed int) {
		if done < 0 {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		fmt.Fprintf(w, "\r%s: %d of %d runs, %d failed", name, done, total, failed)
	}
}
