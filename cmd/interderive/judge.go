package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
	"github.com/spf13/cobra"
)

func (a *app) newJudgeCmd() *cobra.Command {
	var most int
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "judge [flags] FILE.sem (JUDGMENT INPUT ... | PROGRAM)",
		Short: "Search a judgment's derivations in a rule file, by its modes",
		Long: `Judge reads a rule file (*.sem), checks it as every command does, and searches the
derivations of one of its judgments (docs/rules.md, Judgments) on the inputs given,
one an argument for each input position of the judgment's mode (I), in order: terms of
the positions' sorts, which may name free variables (the variables an environment
lists). The search follows the modes: the rules in order, the premises left to right.
Judge prints each derivation found as a tree, each judgment by the rule that concludes
it and its premises indented below, at most --max of them; or, when there is none,
why: each rule whose conclusion does not match the inputs, and, for each that does,
the premise that no derivation satisfies (exit status 1). A file that names its
typing judgment ((typing ...)) takes a program alone: judge types it.

  interderive judge testdata/rules/stlc.sem typeof '·' '((λ (x num) x) 1)'
  interderive judge testdata/rules/stlc.sem '((λ (x num) x) 1)'

` + exitStatusHelp,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if filepath.Ext(args[0]) != ruleFileExt {
				return fmt.Errorf("%s: not a rule file (*%s)", interderive.Escape(args[0]), ruleFileExt)
			}
			if most < 1 {
				return fmt.Errorf("--max %d: at least one derivation", most)
			}
			l, err := rules.LoadFile(args[0])
			if err != nil {
				return err
			}
			j, inputs, err := judgeGoal(l, args[0], args[1:])
			if err != nil {
				return err
			}
			out, err := l.Judge(j, inputs, most, interderive.Options{Timeout: timeout})
			if err != nil {
				fmt.Fprintf(a.stderr, "interderive: %s\n", interderive.EscapeLines(err.Error()))
				return &exitError{exitCode(err)}
			}
			goal := goalOf(j, inputs)
			if len(out.Derivations) == 0 {
				fmt.Fprintf(a.stdout, "no derivation of %s:\n", goal)
				for _, f := range out.Failures {
					fmt.Fprintf(a.stdout, "  %s\n", f)
				}
				return &exitError{exitFailed}
			}
			for i, d := range out.Derivations {
				if len(out.Derivations) > 1 {
					fmt.Fprintf(a.stdout, "derivation %d:\n", i+1)
				}
				fmt.Fprint(a.stdout, d.Format())
			}
			more := ""
			if len(out.Derivations) == most {
				more = " (--max: there may be more)"
			}
			fmt.Fprintf(a.stdout, "%s of %s%s\n", plural(len(out.Derivations), "derivation", "derivations"), goal, more)
			return nil
		},
	}
	cmd.Flags().IntVar(&most, "max", 10, "print at most `N` derivations")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "stop the search after `D`")
	return cmd
}

// judgeGoal is what judge searches: JUDGMENT INPUT ..., or a program alone, typed by
// the file's typing judgment.
func judgeGoal(l *sem.Language, file string, args []string) (*sem.Judgment, []*sem.Term, error) {
	j, ok := l.Judgment(args[0])
	switch {
	case ok:
		inputs, err := judgeInputs(l, j, args[1:])
		return j, inputs, err
	case len(args) == 1 && l.Typing != nil:
		t, err := l.ReadTerm([]byte(args[0]))
		if err != nil {
			return nil, nil, errors.New(interderive.Describe("<program>", []byte(args[0]), err))
		}
		inputs, err := l.TypingInputs(t)
		return l.Typing.Judgment, inputs, err
	}
	return nil, nil, fmt.Errorf("%s declares no judgment %s (%s)", file, interderive.Escape(args[0]), judgmentNames(l))
}

// judgeInputs reads the inputs of the judgment j, one an input position, as terms of
// its sorts, open; the outputs' places are nil.
func judgeInputs(l *sem.Language, j *sem.Judgment, args []string) ([]*sem.Term, error) {
	var ins []int
	for i, out := range j.Out {
		if !out {
			ins = append(ins, i)
		}
	}
	if len(args) != len(ins) {
		return nil, fmt.Errorf("%s takes %d inputs (its mode: %s), not %d", j.Name, len(ins), modeOf(j), len(args))
	}
	terms := make([]*sem.Term, len(j.Params))
	for k, i := range ins {
		t, err := l.ReadTermOf([]byte(args[k]), j.Params[i].Sort, true)
		if err != nil {
			return nil, errors.New(interderive.Describe(fmt.Sprintf("<input %d>", k+1), []byte(args[k]), err))
		}
		terms[i] = t
	}
	return terms, nil
}

// modeOf writes j's mode, (NAME I O ...).
func modeOf(j *sem.Judgment) string {
	parts := []string{j.Name}
	for i := range j.Out {
		parts = append(parts, j.Mode(i))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// goalOf writes the judgment searched: its inputs, _ for its outputs.
func goalOf(j *sem.Judgment, inputs []*sem.Term) string {
	parts := []string{j.Name}
	for _, t := range inputs {
		if t == nil {
			parts = append(parts, "_")
			continue
		}
		parts = append(parts, sem.FormatShort(t, 200))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// judgmentNames lists a file's judgments for a message.
func judgmentNames(l *sem.Language) string {
	if len(l.Judgments) == 0 {
		return "it declares none"
	}
	return "its judgments: " + strings.Join(l.JudgmentNames(), ", ")
}
