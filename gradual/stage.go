package gradual

import "github.com/interderive/interderive"

// Stage is a derivation stage of the gradual calculi: it runs a translated, well-typed
// term of the cast calculus under a cast semantics to an answer. Every contraction goes
// to opts.OnContract (the rule names of rules.go), the stage's own steps to
// opts.Observer; opts.Merging says whether pending coercions in the context merge.
type Stage interface {
	Eval(sem Semantics, e Expr, opts interderive.Options) (Answer, error)
}

// StageOf is the gradual calculi's artefact of the derivation stage s, if s has one:
// a stage covers the gradual calculi by a method Gradual() Stage, in a file of its
// package of its own.
func StageOf(s interderive.Stage) (Stage, bool) {
	g, ok := s.(interface{ Gradual() Stage })
	if !ok {
		return nil, false
	}
	return g.Gradual(), true
}
