package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/interderive/interderive/internal/gogen"
	"github.com/interderive/interderive/sem"

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
	var goDir string
	cmd := &cobra.Command{
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

With --go DIR, derive writes instead the derived stages of a rule file (*.sem) as Go
source: a package main with its own go.mod and no dependency (cd DIR && go build),
one file per stage (reduction.go, closures.go, machine.go, cps2.go, interp.go), the
file's rules compiled into match.go, that runs a program given as an s-expression
(docs/derive-go.md). DIR must be new, empty, or hold a previous generation. The
default hooks are written (the δ-table; bool, string, float and number; Racket's
arithmetic on numbers); a rule file that uses a calculus's own Go hook or atom
type, or whose relation is non-deterministic, cannot be (the compiled engine runs
the first: it calls the hook back in the workbench, where the atoms' values stay).

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := a.wb.DeriverFor(args[0])
			if err != nil {
				return err
			}
			if cmd.Flags().Changed("go") {
				return a.deriveGo(d, args[0], goDir)
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
	cmd.Flags().StringVar(&goDir, "go", "", "write the derived stages of the rule file as a Go package into `DIR`")
	return cmd
}

// deriveGo writes the derived stages of the rule file as a Go package into dir
// (gogen), after the checks derive makes.
func (a *app) deriveGo(d workbench.Deriver, file, dir string) error {
	if !strings.HasSuffix(file, ".sem") {
		return fmt.Errorf("derive --go %s: writes the stages of a rule file (*.sem), not of %s", dir, file)
	}
	if dir == "" {
		return fmt.Errorf("derive --go: the directory to write into is empty")
	}
	// The file as derive reads it: its errors, positioned, if it has any.
	if _, err := d.Derive(file, nil); err != nil {
		return err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	l, err := sem.Load(src)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	files, err := gogen.Generate(l, file)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if err := gogen.Write(dir, files); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	fmt.Fprintf(a.stdout, "wrote %s: %s\nbuild it with: cd %s && go build\n", dir, strings.Join(names, ", "), dir)
	return nil
}
