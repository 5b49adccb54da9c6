package main

import (
	"encoding/json"
	"fmt"

	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

func (a *app) newCompareCmd() *cobra.Command {
	var f runFlags
	var asJSON bool
	lists := map[string]*string{}
	cmd := &cobra.Command{
		Use:   "compare [flags] FILE",
		Short: "Run a program on every stage under every variant, and compare",
		Long: `Compare runs the program on every derivation stage of its calculus under each
requested variant (every one by default: the variant flags take all or a
comma-separated list) and prints a table: variant, stage, answer, contractions, time.
Within one variant every stage must give the reference stage's answer and perform the
same contractions in the same order (all stages run in the same --mode, by default the
calculus's reference mode); a disagreement is reported with the first point where the
two sequences part, and the exit status is 1. Answers agree when the calculus finds
them equal (terms up to α-equivalence); the program's run-time errors agree by their
reason and redex, wherever a stage positions them. A stage that does not run the
program by design (a rule file that does not qualify for environments) is left out,
and a line SKIP says why.

Under each variant the stages run at once and their contractions are compared as they
go, in memory that does not grow with the runs; a stage ahead of the others waits for
them (the time column leaves its waits out). A run cut short agrees with another if its
contractions are a prefix of the other's: when nothing disagrees but some run was cut,
compare says how far the stages were compared ("V: the stages agree on the first 4096
contractions; STAGE cut by --timeout") and the exit status is 3.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			only := map[string][]string{}
			for flag, value := range lists {
				names, err := a.nameList(flag, *value)
				if err != nil {
					return err
				}
				only[flag] = names
			}
			l, err := a.load(&f, args[0])
			if err != nil {
				return err
			}
			variants, err := a.wb.SelectVariants(l.c, only)
			if err != nil {
				return err
			}
			c, err := a.wb.Compare(l.c, l.prog, variants, f.mode, f.options())
			if err != nil {
				return err
			}
			status := func() error {
				switch {
				case len(c.Disagreements) > 0:
					return &exitError{code: exitFailed}
				case len(c.Partial) > 0:
					return &exitError{code: exitFuel}
				}
				return nil
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(c.Report()); err != nil {
					return err
				}
				return status()
			}
			// A rule file's variant is the file: named by its language and path.
			heading, _ := workbench.VariantLabel(l.c, "")
			labelled, names := workbench.LabelVariants(l.c, c, variants)
			labelled.WriteTable(a.stdout, heading, names)
			return status()
		},
	}
	a.registerRunFlags(cmd, &f, "")
	f.lists = true
	_ = cmd.Flags().MarkHidden("stage") // every stage runs
	for _, p := range a.wb.Parameters() {
		// The variant flags take lists here.
		fl := cmd.Flags().Lookup(p.Flag)
		fl.Usage = fmt.Sprintf("%s to compare: all, or a comma-separated list of %s", p.Doc, joinNames(p.Values))
		fl.DefValue = "all"
		*f.variants[p.Flag] = "all"
		lists[p.Flag] = f.variants[p.Flag]
	}
	cmd.Flags().Lookup("mode").Usage = fmt.Sprintf("run every stage in this mode (%s; default: the calculus's reference mode)", joinNames(a.modeNames()))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the table, any disagreements and the variants compared only in part as JSON")
	return cmd
}
