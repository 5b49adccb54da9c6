package rules

import "github.com/interderive/interderive/sem"

// Lint is the rule file and what the static checks warn of in it (sem.Lint: a rule
// that can never fire, a stuck shape no term reaches, a variable a right-hand side
// lets escape its binder), rendered for a person (FILE:LINE:COL: warning: message,
// the line, a caret), and how many warnings there are (workbench.Linter).
func (c Calculus) Lint() (file, text string, n int) {
	ws := sem.Lint(c.Lang)
	return c.File, sem.FormatWarnings(c.File, c.Lang.Source(), ws), len(ws)
}
