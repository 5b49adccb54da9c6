package main

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

func (a *app) newDeriveCmd() *cobra.Command {
	var kinds []string
	for _, c := range a.wb.Calculi() {
		if d, ok := c.(interface{ DefinitionExt() string }); ok {
			kinds = append(kinds, fmt.Sprintf("*.%s, for %s", d.DefinitionExt(), c.Name()))
		}
	}
	return &cobra.Command{
		Use:   "derive FILE",
		Short: "Show what the stages derive from a definition file (" + strings.Join(kinds, "; ") + ")",
		Long: `Derive reads a definition file — a file that defines a calculus made at run time
(` + strings.Join(kinds, "; ") + `; interderive calculi says how its programs run) —
checks it, and prints what the stages derive from it, for a person: its tables, then,
for every stage that describes its artefact, its transitions or equations. An
unreadable or ill-formed file is an error (exit status 2) with its positions. What
the static checks find legal but suspect — a rule that can never fire, a stuck shape
no term reaches, a variable a right-hand side lets escape its binder — is printed on
standard error as warnings (FILE:LINE:COL: warning: ..., with a witness term); they
do not change the exit status (check --strict fails on them).

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := a.wb.DeriverFor(args[0])
			if err != nil {
				return err
			}
			text, err := d.Derive(args[0], a.wb.StagesOf(d))
			if err != nil {
				return err
			}
			fmt.Fprint(a.stdout, text)
			// The static checks' warnings, on standard error: a definition is made
			// again (it was checked), as a program's would be.
			if c, err := d.Define(args[0], "", nil); err == nil {
				if l, ok := c.(workbench.Linter); ok {
					if _, warn, n := l.Lint(); n > 0 {
						fmt.Fprintf(a.stderr, "%s\n%s\n", warn, plural(n, "warning", "warnings"))
					}
				}
			}
			return nil
		},
	}
}
