package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

func (a *app) newCheckCmd() *cobra.Command {
	var stage, lang string
	var fuel int
	var timeout time.Duration
	var budgets budgetFlags
	var asJSON, strict bool
	var engine string
	variants := map[string]*string{}
	var defs map[string]*string // the definition flags, by flag
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...",
		Short: "Check programs against their expectation comments",
		Long: `Check runs every program file (directories are searched recursively, for the
registered extensions; - reads one program from standard input, with --lang) on the
chosen stages under every variant it has an expectation for, in every mode that
applies, and compares the answers with the file's comments:

  -- expect: ANSWER           expected under every variant (of those a plain expect covers)
  -- expect[V1,V2]: ANSWER    expected under the variants listed
  -- expect-approx: REAL      reals, to a relative 1e-9
  -- rules[V1]: R1, R2        contractions that must occur (in the reference mode)
  -- fuel: N                  the contraction budget for this file

ANSWER is what run prints, "type error", "out of fuel", or a prefix followed by " *"
(any answer that starts so). A comment line shaped as a directive that is not one
(-- expct: 4, -- expect[xx]: 4, -- WORD[...]: ...) is an error with its line.

Each file runs once per stage, variant and mode that applies (a calculus's modes under
a variant, interderive calculi lists them; the rules lines must hold in the first, the
reference mode; most calculi have one mode). The runs are spread over
every core; the report comes in file order, identical failures of a file on one line
("expected 3, got 4 on STAGE1, STAGE2 under V1, V2"). On a terminal a progress
line is shown on standard error. Check ends with "N files, N runs: N passed, N failed".

A file whose calculus has none of the stages --stage names is skipped, and counted
("; N files skipped"), as a variant flag leaves the files of other calculi alone; a
check whose every file was skipped ran nothing, and exits with 2. A stage that does
not run a file by design (a rule file that does not qualify for the stages over
environments) is no failure either: its runs are skipped, counted and said ("SKIP 3
runs skipped: stages closures, cps2, interp do not run FILE: REASON").

Answers compare as text, but a rule-defined calculus reads an expected term and
compares it with the answer up to α-equivalence, as compare does.

Each run has its own --memory budget. The budget is measured on the live heap of the
process, which the parallel runs share; a run stopped at it is made again alone, after
a collection, and fails for memory only if it stops there again.

A file that cannot be checked is an error: unreadable, with malformed expectation
comments, with no expectation, or that no run applies to (the variant flags exclude
every run it has). The exit status is then 2, else 1 if a run failed.

The programs of a rule file (*.sem) are checked in the calculus it defines, and its
static checks' warnings are printed on standard error, once a rule file (FILE:LINE:COL:
warning: ..., with a witness term): a rule that can never fire, a stuck shape that no
term reaches, a variable a right-hand side lets escape its binder. With --strict a
warning is an error of the rule file: every run is made and reported as usual, and
the exit status is then 2, as for a file that could not be checked.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts workbench.CheckOptions
			var err error
			if opts.Stages, err = a.nameList("stage", stage); err != nil {
				return err
			}
			opts.Only = map[string][]string{}
			for flag, value := range variants {
				names, err := a.nameList(flag, *value)
				if err != nil {
					return err
				}
				opts.Only[flag] = names
			}
			if fuel < 0 || timeout < 0 {
				return fmt.Errorf("--fuel and --timeout must not be negative")
			}
			if lang != "" {
				if _, err := a.oneName("lang", lang); err != nil {
					return err
				}
			}
			if err := interderive.CheckEngine(engine); err != nil {
				return err
			}
			opts.Fuel, opts.Timeout, opts.Definitions, opts.Engine = fuel, timeout, values(defs), engine
			budget := budgets.apply(interderive.Options{})
			opts.Memory, opts.Output = budget.Memory, budget.Output
			files, err := a.wb.SourceFiles(args)
			if err != nil {
				return err
			}
			plans, errs := a.wb.PlanFiles(files, lang, a.stdin, opts)
			warnText, warnings, warnFiles := workbench.LintPlans(plans)
			fmt.Fprint(a.stderr, warnText)
			report := workbench.RunCheck(files, plans, errs, opts, progressLine(a.stderr, "check"), func(i int, fs []workbench.Failure) {
				if !asJSON {
					workbench.WriteCheckFile(a.stdout, files[i], plans[i], errs[i], fs)
				}
			})
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(report); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(a.stdout, report.Summary())
			}
			if warnings > 0 {
				// Said beside the report, on standard error with the warnings.
				how := ""
				if strict {
					how = ": --strict makes them errors (exit status 2)"
				}
				fmt.Fprintf(a.stderr, "%s in %s%s\n", plural(warnings, "warning", "warnings"), plural(warnFiles, "rule file", "rule files"), how)
			}
			switch {
			case report.Errors > 0, strict && warnings > 0:
				return &exitError{code: exitStatic}
			case report.Runs == 0 && report.SkippedRuns > 0:
				// Every run skipped, some for a stage that refuses its file: a check of
				// nothing does not pass.
				fmt.Fprintln(a.stderr, "check ran nothing: every run was skipped (SKIP above)")
				return &exitError{code: exitStatic}
			case report.Runs == 0:
				// Every file skipped: a check of nothing does not pass.
				fmt.Fprintf(a.stderr, "check ran nothing: no file's calculus has the stages %s\n", strings.Join(opts.Stages, ", "))
				return &exitError{code: exitStatic}
			case report.Failed > 0:
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&stage, "stage", "all", "stages to run: all, or a comma-separated list of "+joinNames(a.wb.StageNames()))
	for _, p := range a.wb.Parameters() {
		variants[p.Flag] = new(string)
		cmd.Flags().StringVar(variants[p.Flag], p.Flag, "all", fmt.Sprintf("%s to run: all or a comma-separated list of %s", p.Doc, joinNames(p.Values)))
	}
	defs = a.registerDefinitionFlags(cmd)
	cmd.Flags().IntVar(&fuel, "fuel", 0, "contraction budget of every run (default: the file's -- fuel: line, else 10,000,000)")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultTimeout, "stop each run after this long (e.g. 10s), a failure; 0 for no limit")
	registerEngine(cmd, &engine)
	budgets.register(cmd)
	cmd.Flags().BoolVar(&strict, "strict", false, "fail (exit status 2) when a rule file's static checks warn")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: files, runs, passed, failed, errors, and every failure")
	cmd.Flags().StringVar(&lang, "lang", "", "the language of standard input (-): "+joinNames(a.wb.LanguageNames()))
	return cmd
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
