package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

func (a *app) newFuzzCmd() *cobra.Command {
	var calculus, stageList, out, propList string
	var count, size, jobs, fuel int
	var timeout time.Duration
	var engine string
	var budgets budgetFlags
	var seed uint64
	var budget time.Duration
	var show bool
	variants := map[string]*string{}
	var defs map[string]*string // the definition flags, by flag
	cmd := &cobra.Command{
		Use:   "fuzz [flags]",
		Short: "Check random well-typed programs: every stage in lockstep, and the metatheory",
		Long: `Fuzz generates random well-typed programs (the generators of the property tests) of
every calculus (--calculus) and checks them under a random requested variant (the
variant flags take all or a list), in every mode of that variant. --props selects the
properties (all, the default, or a comma-separated list):

` + a.propertiesHelp() + `
Every lockstep run has the calculus's fuel (--fuel sets another), --timeout,
--memory and --print-limit: a run they stop (a rule file that loops or explodes)
agrees with the other stages if their contractions agree up to where it stopped,
and is counted in the summary.

--stage limits lockstep to some stages (the reference, the first stage of each
calculus, always runs).

--engine compiled checks the compiled engine of a rule file (docs/derive-go.md)
against the file's tables: the reference runs on the tables, and then every stage
the engine runs, the reference stage included, runs on the compiled engine, in
lockstep with it; a disparity names the stage "on the compiled engine".

Fuzz runs in rounds of up to 100 programs, on every core (--jobs). With --seed S, round
i draws from a seed derived from S and i, so that the same --seed and --count check the
same programs on any number of cores; without it a random seed is drawn, and printed.
--count N checks exactly N programs. The summary says how many programs were checked,
how many of them were distinct, how many ran to a value, to a run-time error, to a
stuck state or out of fuel (on the reference stage), and how many times each property
was checked. --show prints every program lockstep draws, under its variant, as it is
checked (from every core at once, so in no order), each followed by a blank line.

A failure is shrunk to a small program, printed, and written to a new file in --out,
fuzz-CALCULUS-PROPERTY-TIME.EXT (an existing file is never overwritten: the name takes
-2, -3, ... if it is taken; a write that fails loses nothing, the program is printed
above); the exit status is then 1. For lockstep, the file has the reference
answer as its expectation comment, ready for testdata. For the other properties, the
file states the violation in comments and has no expectation (which answer is right is
not known), so that it reproduces the failure with run or trace rather than check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var o workbench.FuzzOptions
			var err error
			if calculus != "all" {
				o.Calculi = splitList(calculus)
			}
			if propList != "all" {
				o.Props = splitList(propList)
			}
			if o.Stages, err = a.nameList("stage", stageList); err != nil {
				return err
			}
			o.Only = map[string][]string{}
			for flag, value := range variants {
				names, err := a.nameList(flag, *value)
				if err != nil {
					return err
				}
				o.Only[flag] = names
			}
			if fuel < 0 || timeout < 0 {
				return fmt.Errorf("--fuel and --timeout must not be negative")
			}
			o.Size, o.Definitions, o.Engine = size, values(defs), engine
			limits := budgets.apply(interderive.Options{})
			o.Fuel, o.Timeout, o.Memory, o.Output = fuel, timeout, limits.Memory, limits.Output
			plans, err := a.wb.PlanFuzz(o)
			if err != nil {
				return err
			}
			// rapid reads its settings from the standard flag set, as in a test.
			testing.Init()
			if err := flag.CommandLine.Parse(nil); err != nil {
				return err
			}
			failed := false
			for _, p := range plans {
				name := p.Calculus.Name()
				if p.Skip != "" {
					fmt.Fprintf(a.stdout, "%s: %s\n", name, p.Skip)
					continue
				}
				cfg := workbench.FuzzConfig{Count: count, Jobs: jobs, Time: budget, Seed: seed}
				if show {
					cfg.Show = a.showProgram()
				}
				res := a.wb.Fuzz(p, cfg, fuzzProgress(a.stderr, name))
				if res.Found == nil {
					fmt.Fprintln(a.stdout, p.Summary(res))
					continue
				}
				failed = true
				a.reportCounterexample(name, res, out)
			}
			if failed {
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	var calculi []string
	for _, c := range a.wb.Calculi() {
		calculi = append(calculi, c.Name())
	}
	var props []string
	for _, p := range a.wb.Properties() {
		props = append(props, p.Name)
	}
	cmd.Flags().StringVar(&calculus, "calculus", "all", "calculi to fuzz: all or a comma-separated list of "+joinNames(calculi))
	cmd.Flags().StringVar(&stageList, "stage", "all", "stages checked against the reference (always run): all or a comma-separated list")
	cmd.Flags().IntVar(&count, "count", 1000, "programs per calculus")
	cmd.Flags().BoolVar(&show, "show", false, "print every program lockstep draws")
	cmd.Flags().DurationVar(&budget, "time", 0, "stop each calculus after this long (0: run --count programs)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "the seed each round's is derived from, for a reproducible run with the same --count (0: a random one, printed)")
	cmd.Flags().IntVar(&size, "size", 5, fmt.Sprintf("depth of the generated programs, 1 to %d (their size grows linearly with it)", workbench.MaxFuzzSize))
	cmd.Flags().StringVar(&propList, "props", "all", "properties to check: all or a comma-separated list of "+joinNames(props))
	for _, p := range a.wb.Parameters() {
		variants[p.Flag] = new(string)
		cmd.Flags().StringVar(variants[p.Flag], p.Flag, "all", fmt.Sprintf("%s to check: all or a comma-separated list of %s", p.Doc, joinNames(p.Values)))
	}
	defs = a.registerDefinitionFlags(cmd)
	cmd.Flags().StringVar(&out, "out", ".", "directory for the shrunk counterexample")
	cmd.Flags().IntVar(&jobs, "jobs", 0, "parallel checkers (0: one per core)")
	cmd.Flags().IntVar(&fuel, "fuel", 0, "contraction budget of every lockstep run (0: the calculus's own)")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultTimeout, "stop a lockstep run after this long (e.g. 10s); 0 for no limit")
	registerEngine(cmd, &engine)
	budgets.register(cmd)
	return cmd
}

// propertiesHelp lists the properties fuzz can check, with the calculi that have them.
func (a *app) propertiesHelp() string {
	var b strings.Builder
	for _, p := range a.wb.Properties() {
		fmt.Fprintf(&b, "  %-19s %s (%s)\n", p.Name, p.Doc, strings.Join(p.Calculi, ", "))
	}
	return b.String()
}

// reportCounterexample prints a counterexample, then writes it to a new file in dir:
// printed first, it is never lost, whatever the write does.
func (a *app) reportCounterexample(name string, res workbench.FuzzResult, dir string) {
	c := res.Found
	text := c.Text()
	fmt.Fprintf(a.stdout, "%s\n%s", c.Headline(name, res), text)
	path := freshPath(c.Path(dir, name, time.Now().Unix()))
	f, err := createOutput(path, nil, false)
	if err == nil {
		_, err = io.WriteString(f, text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "%s: the counterexample above is not saved: %s\n", name, interderive.EscapeLines(err.Error()))
		return
	}
	fmt.Fprintf(a.stdout, "%s: saved to %s\n", name, interderive.Escape(path))
}

// freshPath is path if no file has it, else path with -2, -3, ... before its
// extension, the first that none has: fuzz names its counterexamples itself (by the
// calculus, the property and the time), and two found in the same second, or a run
// in a directory that has one, keep every file and lose no counterexample. (The file
// is then created exclusively: one that appears meanwhile is not overwritten either.)
func freshPath(path string) string {
	ext := filepath.Ext(path)
	stem := strings.TrimSuffix(path, ext)
	for k := 2; ; k++ {
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) || k > 1000 {
			return path
		}
		path = fmt.Sprintf("%s-%d%s", stem, k, ext)
	}
}

// fuzzProgress reports on a terminal how far a calculus has got.
func fuzzProgress(w io.Writer, name string) func(int64) {
	if !isTerminal(w) {
		return func(int64) {}
	}
	return func(n int64) {
		if n < 0 {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		fmt.Fprintf(w, "\r%s: %d programs checked", name, n)
	}
}

// showProgram prints a program fuzz drew (FuzzConfig.Show: its variant on a line, then
// LANG: SOURCE) as "under VARIANT:" and the program, whole, then a blank line; the
// rounds print from their goroutines, one program at a time.
func (a *app) showProgram() func(string) {
	var mu sync.Mutex
	return func(text string) {
		variant, drawn, _ := strings.Cut(text, "\n")
		if _, src, ok := strings.Cut(drawn, ": "); ok {
			drawn = src
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(a.stdout, "under %s:\n%s\n\n", variant, strings.TrimRight(drawn, "\n"))
	}
}
