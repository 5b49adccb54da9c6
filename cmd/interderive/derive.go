package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) newDeriveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "derive FILE",
		Short: "Show what the stages derive from a definition file (a rule file, *.sem)",
		Long: `Derive reads a definition file — a rule file (*.sem, docs/rules.md) defines a
calculus's grammar and reduction semantics — checks it, and prints what the stages
derive from it, for a person: the decomposition tables, then, for every stage that
describes its artefact, its transitions. An unreadable or ill-formed file is an error
(exit status 2) with its positions.

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
