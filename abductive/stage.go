package abductive

import "github.com/interderive/interderive"

// Stage is a derivation stage of the abductive calculus: it runs a closed, well-typed
// term, labelled by Parse, to its answer. Every contraction goes to opts.OnContract
// (the rule names of rules.go), the stage's own steps to opts.Observer.
type Stage interface {
	Eval(e Expr, opts interderive.Options) (Answer, error)
}

// StageOf is the abductive calculus's artefact of the derivation stage s, if s has
// one: a stage covers the calculus by a method Abductive() Stage, in a file of its
// package of its own (abductive.go).
func StageOf(s interderive.Stage) (Stage, bool) {
	a, ok := s.(interface{ Abductive() Stage })
	if !ok {
		return nil, false
	}
	return a.Abductive(), true
}

// A Stepper is a stage that can take one step at a time: the reduction semantics,
// whose steps the metatheory follows (progress and preservation).
type Stepper interface {
	// Step decomposes e, contracts the redex and plugs the contractum back: the term
	// after the step, and the rule it contracted by; done (and e's value) when e is
	// an answer. sigma is the program's store.
	Step(e Expr, sigma Store) (next Expr, rule string, done bool, err error)
}
