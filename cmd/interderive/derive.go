package main

import (
	"fmt"
	"strings"

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
unreadable or ill-formed file is an error (exit status 2) with its positions.

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
			return nil
		},
	}
}
