package dpl

import "github.com/interderive/interderive"

// Stage is a derivation stage of the differentiable language: it runs a closed,
// elaborated, well-typed program under a differentiation strategy to an answer. Every
// contraction goes to opts.OnContract (the rule names of rules.go), the stage's own
// steps to opts.Observer, which also receives, for every rd once its contraction is
// complete, the trace term of its body and its derivative term (reports labelled
// "trace" and "derivative", values of type Term).
type Stage interface {
	Eval(ad Differentiator, prog Term, opts interderive.Options) (Answer, error)
}

// The labels of the reports of an rd (interderive.Observer.Report).
const (
	ReportTrace      = "trace"
	ReportDerivative = "derivative"
)

// StageOf is the differentiable language's artefact of the derivation stage s, if s
// has one: a stage covers the language by a method Differentiable() Stage, in a file
// of its package of its own.
func StageOf(s interderive.Stage) (Stage, bool) {
	d, ok := s.(interface{ Differentiable() Stage })
	if !ok {
		return nil, false
	}
	return d.Differentiable(), true
}
