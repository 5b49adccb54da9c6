package handlers

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// Stage is a derivation stage of the language: it runs a checked program (Check)
// under a differentiation strategy (the term-level rd's R, shared with the
// differentiable language) to an answer. Every contraction goes to opts.OnContract (the
// rule names of rules.go), the stage's own steps to opts.Observer.
type Stage interface {
	Eval(ad dpl.Differentiator, prog *Program, opts interderive.Options) (Answer, error)
}

// StageOf is the language's artefact of the derivation stage s, if s has one: a stage
// covers the language by a method Handlers() Stage, in a file of its package of its
// own (handlers.go).
func StageOf(s interderive.Stage) (Stage, bool) {
	h, ok := s.(interface{ Handlers() Stage })
	if !ok {
		return nil, false
	}
	return h.Handlers(), true
}
