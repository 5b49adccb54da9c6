package main

import (
	"encoding/json"
	"fmt"

	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

// runReport is run --json's output.
type runReport struct {
	File     string `json:"file"`
	Language string `json:"language"`
	Calculus string `json:"calculus"`
	Stage    string `json:"stage"`
	// Variant is the value of the calculus's variant flag; Parameter names the flag.
	Variant      string `json:"variant"`
	Parameter    string `json:"parameter"`
	Outcome      string `json:"outcome"` // answer, out of fuel, timeout, too deep, resource limit, internal error
	Answer       string `json:"answer,omitempty"`
	Value        string `json:"value,omitempty"`
	Contractions int    `json:"contractions"`
	Error        string `json:"error,omitempty"`
}

func (a *app) newRunCmd() *cobra.Command {
	var f runFlags
	var show string
	var asJSON, all bool
	var maxTerms int
	cmd := &cobra.Command{
		Use:   "run [flags] FILE",
		Short: "Run a program and print its answer",
		Long: `Run a program, in the calculus of its extension (or --lang), on a stage (by default
the last of its derivation) under a variant (by default the calculus's), and print
exactly one line: by default the observation (4, true, function, ...: the calculus's
own); with --show value, the value in the language's syntax.

With --all, a program of a rule file: its relation explored whole, every
decomposition and every rule at each step (of a non-deterministic file, which the
derived stages refuse, as of any other), and every normal form it reaches printed, one
a line, in the order met (a stuck one marked); how many terms and steps were explored
goes to standard error. At most --max-terms terms, within --timeout: a cut
exploration exits with status 3.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if show != "observe" && show != "value" {
				return fmt.Errorf("--show must be observe or value, not %q", show)
			}
			if f.stage == "all" {
				return a.unknownName("stage", f.stage)
			}
			if all && (asJSON || f.stage != "" || show != "observe") {
				return fmt.Errorf("--all explores a rule file's relation: it takes no --stage, --json or --show")
			}
			l, err := a.load(&f, args[0])
			if err != nil {
				return err
			}
			if all {
				return a.runAll(args[0], l, maxTerms, f.options())
			}
			stage, err := a.wb.StageUnder(l.c, l.variant, f.stage, f.engine)
			if err != nil {
				return err
			}
			opts := f.options()
			if f.mode != "" {
				m, _ := a.wb.ModeFor(l.c, l.variant, f.mode)
				m.Apply(&opts)
			}
			out, err := l.prog.Run(stage, l.variant, opts)
			if asJSON {
				rep := runReport{File: workbench.DisplayName(args[0]), Language: l.lang.Ext, Calculus: l.c.Name(), Stage: stage.Name(),
					Variant: l.variant, Parameter: l.c.Variant().Flag, Outcome: workbench.OutcomeName(err),
					Answer: out.Observation, Value: out.Value, Contractions: out.Steps}
				if err != nil {
					rep.Error = err.Error()
				}
				enc := json.NewEncoder(a.stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(rep); err != nil {
					return err
				}
			}
			if err != nil {
				return a.finish(args[0], err)
			}
			if asJSON {
				return nil
			}
			if show == "value" {
				fmt.Fprintln(a.stdout, out.Value)
			} else {
				fmt.Fprintln(a.stdout, out.Observation)
			}
			return nil
		},
	}
	a.registerRunFlags(cmd, &f, fmt.Sprintf("derivation stage, one of %s (default: the last one the calculus has)", joinNames(a.wb.StageNames())))
	cmd.Flags().StringVar(&show, "show", "observe", "what to print: observe or value")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: outcome, answer, value, contractions")
	cmd.Flags().BoolVar(&all, "all", false, "a rule file's program: explore its relation whole and print every normal form it reaches, one a line")
	cmd.Flags().IntVar(&maxTerms, "max-terms", defaultMaxTerms, "with --all: explore at most `N` terms")
	return cmd
}
