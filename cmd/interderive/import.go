package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/interderive/interderive"
	"github.com/spf13/cobra"
)

func (a *app) newImportCmd() *cobra.Command {
	var dir string
	var force bool
	cmd := &cobra.Command{
		Use:   "import [flags] MODEL.rkt",
		Short: "Translate a PLT Redex model into a rule file and a corpus of its tests",
		Long: `Import reads a PLT Redex model (a Racket module with define-language,
reduction-relation, define-metafunction, define-judgment-form and Redex's tests) and
writes the rule file it translates to, DIR/NAME.sem, and its test-->> tests as
programs with their expected answers, DIR/NAME/line-N.term, which check runs on
every derived stage (docs/redex.md says how each construct translates).

The rule file is loaded before it is written, so that its static checks run: a
context that Redex explores ambiguously is an error with a witness term. A construct
the rule language cannot say (sequences, contexts as values, Racket code beyond
arithmetic and comparisons) is an error positioned in the model, naming it; nothing
is written then. Tests that cannot be programs (test-equal of Racket values, test-->
of one step, several normal forms) are listed as left out, with the reason.

  interderive import -o out /usr/share/racket/pkgs/redex-examples/redex/examples/stlc.rkt
  interderive check out/stlc

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			im, err := importModel(file)
			if err != nil {
				if im != nil && im.Sem != "" {
					// The translation does not load: write it, so that its errors point
					// into it.
					out := filepath.Join(dir, im.Name+ruleFileExt+".rejected")
					var inner interderive.ErrorList
					if errors.As(err, &inner) && os.WriteFile(out, []byte(im.Sem), 0o644) == nil {
						return fmt.Errorf("the translation of %s does not load:\n%s", interderive.Escape(file), interderive.Describe(out, []byte(im.Sem), inner))
					}
				}
				return err
			}
			semFile := filepath.Join(dir, im.Name+ruleFileExt)
			corpus := filepath.Join(dir, im.Name)
			if !force {
				for _, p := range []string{semFile, corpus} {
					if _, err := os.Stat(p); err == nil {
						return fmt.Errorf("%s exists: --force to overwrite", interderive.Escape(p))
					}
				}
			}
			if err := os.MkdirAll(corpus, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(semFile, []byte(im.Sem), 0o644); err != nil {
				return err
			}
			for _, tf := range im.Tests {
				if err := os.WriteFile(filepath.Join(corpus, tf.Name), []byte(tf.Text), 0o644); err != nil {
					return err
				}
			}
			fmt.Fprintf(a.stdout, "imported %s: %s\n", interderive.Escape(file), im.Summary)
			fmt.Fprintf(a.stdout, "wrote %s and %s in %s\n", interderive.Escape(semFile), plural(len(im.Tests), "program", "programs"), interderive.Escape(corpus))
			for _, s := range im.Skipped {
				fmt.Fprintf(a.stdout, "  left out %s:%s: %s\n", interderive.Escape(file), s.P, interderive.Escape(s.Why))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "out", "o", ".", "write the rule file and its corpus in `DIR`")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite a rule file or corpus that exists")
	return cmd
}
