package main

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

func (a *app) newCalculiCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "calculi",
		Short: "List what the workbench can run: calculi, extensions, stages and variants",
		Long: `Calculi lists the derivation stages in order, and every calculus the workbench runs:
its languages (file extensions), its stages (the first is its reference), and its
variant parameter: the flag that selects it, its values and its default. --json
prints the same as one JSON object.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d := a.wb.Describe()
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetEscapeHTML(false)
				return enc.Encode(d)
			}
			d.WriteText(a.stdout)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
