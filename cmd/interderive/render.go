package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"github.com/spf13/cobra"
)

// ruleFileExt is the extension of the files render takes.
const ruleFileExt = ".sem"

func (a *app) newRenderCmd() *cobra.Command {
	var out string
	var fragment, force bool
	cmd := &cobra.Command{
		Use:   "render [flags] FILE.sem",
		Short: "Typeset a rule file's grammar and rules as LaTeX",
		Long: `Render reads a rule file (*.sem, or - for standard input), checks it as every command
does, and typesets it as LaTeX, as Redex's render-language and
render-reduction-relation do: the sorts as BNF, each context kind's values and
contexts as BNF (a context's alternatives are its frames, in search order), the rules
as a paper's table (the name, LHS --> RHS, the side conditions below; a long rule
breaks, never into the margin), and the stuck shapes in a table (docs/rules.md,
Typesetting, shows the notation). A file's (notation CONSTRUCTOR "LATEX")
declarations typeset its constructors as it says: (notation app "#1\\;#2") writes an
application as juxtaposition. A declaration that has no notation yet is printed as
written, in \texttt, and named on the standard error.

The document is standalone (article, amsmath) unless --fragment asks for its body
alone, for a document that loads amsmath. It goes to the standard output, or to the
file -o names (a new file, unless --force; never the rule file), and render then says
what it typeset. An unreadable or ill-formed file is an error (exit status 2) with its
positions.

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{strings.TrimPrefix(ruleFileExt, ".")}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if path != "-" && filepath.Ext(path) != ruleFileExt {
				return fmt.Errorf("%s: not a rule file (*%s)", interderive.Escape(path), ruleFileExt)
			}
			if out != "" {
				// Before anything is read: never the rule file itself, never an
				// existing file without --force.
				if err := checkOutput(out, args, force); err != nil {
					return err
				}
			}
			src, err := workbench.ReadSource(path, a.stdin, 0)
			if err != nil {
				return err
			}
			r, err := sem.Render(src, sem.RenderOptions{Fragment: fragment})
			if err != nil {
				return errors.New(interderive.Describe(workbench.DisplayName(path), src, err))
			}
			if len(r.Verbatim) > 0 {
				var at []string
				for _, d := range r.Verbatim {
					at = append(at, fmt.Sprintf("%d:%d", d.P.Line, d.P.Col))
				}
				fmt.Fprintf(a.stderr, "interderive: %s: %s no notation yet, printed as written (at %s)\n",
					interderive.Escape(workbench.DisplayName(path)), plural(len(r.Verbatim), "declaration has", "declarations have"), strings.Join(at, ", "))
			}
			if out == "" {
				_, err := io.WriteString(a.stdout, r.TeX)
				return err
			}
			f, err := createOutput(out, args, force)
			if err != nil {
				return err
			}
			if err := writeClose(f, func(w io.Writer) error { _, err := io.WriteString(w, r.TeX); return err }); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "wrote %s: %s, %s, %s, %s, %s\n", interderive.Escape(out),
				plural(r.Sorts, "sort", "sorts"), plural(r.Kinds, "kind", "kinds"), plural(r.Rules, "rule", "rules"),
				plural(r.Stucks, "stuck shape", "stuck shapes"), plural(len(r.Verbatim), "declaration as written", "declarations as written"))
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the document to this file (a new file, unless --force) instead of the standard output")
	cmd.Flags().BoolVar(&fragment, "fragment", false, "write the body alone, for a document that loads amsmath")
	cmd.Flags().BoolVar(&force, "force", false, "let -o overwrite an existing file (never the rule file itself)")
	return cmd
}

// plural is n and the singular or the plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
