package workbench

// A Linter is a calculus made from a definition file (Family.Define) whose static
// checks warn of what is legal but suspect in the file: a rule that can never fire,
// a stuck shape no term reaches. check prints the warnings of every definition its
// files are in, once a definition, and fails under --strict; derive prints them.
type Linter interface {
	// Lint is the definition file, its warnings rendered for a person (FILE:LINE:COL:
	// warning: message, the line, a caret), and how many there are.
	Lint() (file, text string, n int)
}

// LintPlans gathers the warnings of the definitions that the planned files are in,
// each definition once, in the order of the files: their text, how many warnings,
// and in how many definition files.
func LintPlans(plans []*CheckPlan) (text string, warnings, files int) {
	seen := map[string]bool{}
	for _, p := range plans {
		if p == nil {
			continue
		}
		l, ok := p.Calculus.(Linter)
		if !ok {
			continue
		}
		file, t, n := l.Lint()
		if seen[file] {
			continue
		}
		seen[file] = true
		if n > 0 {
			text += t + "\n"
			warnings += n
			files++
		}
	}
	return text, warnings, files
}
