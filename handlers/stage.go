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

// A Stepper is a stage that takes one step at a time: the reduction semantics, whose
// steps the metatheory follows (progress and preservation).
type Stepper interface {
	// Start begins a run of the checked program under the strategy ad.
	Start(ad dpl.Differentiator, prog *Program) Steps
}

// Steps is a run taken one step at a time.
type Steps interface {
	// Step decomposes the current configuration, contracts its redex and plugs the
	// contractum back: the rule it contracted by; done when the configuration is an
	// answer (undefined included), which Answer gives.
	Step() (rule string, done bool, err error)
	// Current is the current command.
	Current() Cmd
	// Answer is the run's answer once Step reports done.
	Answer() Answer
}
