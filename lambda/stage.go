package lambda

import "github.com/interderive/interderive"

// Stage is a derivation stage of the λ-calculus: it runs a closed, well-typed term to
// its answer. Every contraction goes to opts.OnContract (the rule names of rules.go),
// the stage's own steps to opts.Observer.
type Stage interface {
	Eval(e Expr, opts interderive.Options) (Answer, error)
}

// StageOf is the λ-calculus's artefact of the derivation stage s, if s has one: a
// stage covers the calculus by a method Lambda() Stage, in a file of its package of
// its own (lambda.go).
func StageOf(s interderive.Stage) (Stage, bool) {
	l, ok := s.(interface{ Lambda() Stage })
	if !ok {
		return nil, false
	}
	return l.Lambda(), true
}

// A Stepper is a stage that can take one step at a time: the reduction semantics,
// whose steps the metatheory follows (progress and preservation: every step of a
// well-typed term decomposes, and gives a term of the same type).
type Stepper interface {
	// Step decomposes e, contracts the redex and plugs the contractum back: the term
	// after the step, and the rule it contracted by; done (and e's answer) when e is
	// an answer.
	Step(e Expr) (next Expr, rule string, done bool, err error)
}
