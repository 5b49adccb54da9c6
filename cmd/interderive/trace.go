package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"github.com/spf13/cobra"
)

func (a *app) newTraceCmd() *cobra.Command {
	var f runFlags
	var reports, asJSON, force bool
	var html, graph string
	var maxTerms int
	cmd := &cobra.Command{
		Use:   "trace [flags] FILE",
		Short: "Show every step of a run as the stage takes it",
		Long: `Trace shows the steps of a run as the chosen stage (by default the calculus's
reference) takes them: for each contraction, "contraction N: RULE" and what the stage
did to reach it (interderive calculi lists the stages and what each is: the first
shows its decompositions, contractums and terms after plugging; a later one its
environment steps, or its states; the last ones nothing but their contractions) and
what it says of a contraction once complete (a nested layer is indented under the step
that starts it). The trace ends with the answer. --reports shows only what the stages
report of their contractions, which every stage must report alike.

With --stage all, every stage runs and the traces are aligned on the contractions they
share: for each contraction, what each stage did to reach it; the stages run at once
and the text is written as they go; --html FILE writes a page to step through (FILE
must not exist, unless --force; it is never the program), in which the redex and the
contractum of each contraction are marked in their terms, --json the same data for
tools (version 2, docs/derivation.md). The trace ends with each stage's answer or
what stopped it.

With --graph dot or --graph svg, a program of a rule file: its reduction graph, the
relation explored whole (every decomposition and every rule at each step, as run --all
explores it), in Graphviz's DOT or drawn as SVG: a node per term, the program and the
normal forms with bold borders, an edge per step with its rule.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if graph != "" {
				if !slices.Contains(graphFormats, graph) {
					return fmt.Errorf("unknown format %q in --graph (known: %s)", interderive.Escape(graph), strings.Join(graphFormats, ", "))
				}
				if f.stage != "" || html != "" || asJSON || reports {
					return fmt.Errorf("--graph explores a rule file's relation: it takes no --stage, --html, --json or --reports")
				}
				l, err := a.load(&f, args[0])
				if err != nil {
					return err
				}
				return a.traceGraph(args[0], l, graph, maxTerms, f.options())
			}
			all := f.stage == "all"
			if (html != "" || asJSON) && !all {
				return fmt.Errorf("--html and --json are for --stage all")
			}
			if html != "" && asJSON {
				return fmt.Errorf("--html and --json each write the whole trace: give one")
			}
			if reports && all {
				return fmt.Errorf("--reports is for one stage")
			}
			if html != "" {
				// Before anything runs: never the program itself, never an existing
				// file without --force.
				if err := checkOutput(html, args, force); err != nil {
					return err
				}
			}
			l, err := a.load(&f, args[0])
			if err != nil {
				return err
			}
			opts := f.options()
			if all {
				return a.sideBySide(args[0], l, f.mode, opts, html, asJSON, force)
			}
			stage := ""
			if f.stage != "" {
				st, err := a.wb.StageUnder(l.c, l.variant, f.stage, f.engine)
				if err != nil {
					return err
				}
				stage = st.Name()
			}
			if reports {
				_, err = a.wb.TraceReports(a.stdout, l.c, l.prog, stage, l.variant, f.mode, opts)
			} else {
				_, err = a.wb.Trace(a.stdout, l.c, l.prog, stage, l.variant, f.mode, opts)
			}
			return a.finish(args[0], err)
		},
	}
	a.registerRunFlags(cmd, &f, fmt.Sprintf("derivation stage, one of %s, or all (default: the calculus's reference)", joinNames(a.wb.StageNames())))
	cmd.Flags().BoolVar(&reports, "reports", false, "show only what the stages report of their contractions")
	cmd.Flags().StringVar(&html, "html", "", "with --stage all: write a page to step through to this file (a new file, unless --force)")
	cmd.Flags().BoolVar(&force, "force", false, "let --html overwrite an existing file (never the program itself)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --stage all: print the aligned trace as JSON")
	cmd.Flags().StringVar(&graph, "graph", "", "a rule file's program: draw its reduction graph, every step of its relation, as `FORMAT` (dot or svg)")
	cmd.Flags().IntVar(&maxTerms, "max-terms", defaultMaxTerms, "with --graph: explore at most `N` terms")
	return cmd
}

// sideBySide is trace --stage all: every stage, aligned on the contractions. The
// stages run at once within the same budgets; the text is written as they go (--json
// and --html collect the whole trace first). Once everything is written, if some stage
// stopped without an answer (out of fuel, time or memory, ...), the exit status says
// so (finish), with the flag that allows more.
func (a *app) sideBySide(path string, l loaded, mode string, opts interderive.Options, html string, asJSON, force bool) error {
	if !asJSON && html == "" {
		return a.finish(path, a.wb.WriteSideBySide(a.stdout, l.c, l.prog, l.variant, mode, opts))
	}
	s, err := a.wb.SideBySide(l.c, l.prog, l.variant, mode, opts)
	if err != nil {
		return err
	}
	s.File = path // the title names the program's file
	if asJSON {
		if err := s.WriteJSON(a.stdout); err != nil {
			return err
		}
		return a.finish(path, s.Err())
	}
	out, err := createOutput(html, []string{path}, force)
	if err != nil {
		return err
	}
	if err := writeClose(out, s.WriteHTML); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "wrote %s\n", html)
	return a.finish(path, s.Err())
}

// writeClose writes f with write, then closes it; the first error is returned.
func writeClose(f *os.File, write func(io.Writer) error) error {
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
