package handlers

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	rh "github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// preservationSteps bounds the steps the preservation property follows.
const preservationSteps = 2000

// properties are the metatheory that fuzz checks besides lockstep.
var properties = append([]workbench.Property{
	{Name: "preservation", Failure: "progress or preservation fails",
		Doc:   "type soundness: the reference semantics makes progress (every step of a well-typed program decomposes and contracts: no stuck state) and every command it steps to has the program's type",
		Check: checkPreservation},
}, theoremProperties...)

// Preservation follows the steps of a checked program of type ty on the stepper, at
// most budget of them: every step must contract (progress) and give a command of type
// ty (preservation). It reports the first step that does not.
func Preservation(s rh.Stepper, ad dpl.Differentiator, p *rh.Program, ty dpl.Type, budget int) error {
	run := s.Start(ad, p)
	sigs := p.Signatures()
	for range budget {
		rule, done, err := run.Step()
		if err != nil {
			if errors.Is(err, interderive.ErrResourceLimit) {
				return nil
			}
			return fmt.Errorf("stuck (no progress): %v in %s", err, rh.FormatCmd(run.Current()))
		}
		if done {
			return nil
		}
		got, err := rh.CheckCmd(sigs, nil, run.Current())
		if err != nil || !dpl.Equal(got, ty) {
			return fmt.Errorf("%s does not preserve the type %s (%v, %v): %s", rule, ty, got, err, rh.FormatCmd(run.Current()))
		}
	}
	return nil
}

// checkPreservation draws a program and follows it on the reference stage.
func checkPreservation(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	ref, ok := rh.StageOf(stages[0])
	stepper, steps := ref.(rh.Stepper)
	if !ok || !steps {
		t.Fatalf("the reference stage %s does not take the language's steps one at a time", stages[0].Name())
	}
	ad, ok := dpl.LookupDifferentiator(variant)
	if !ok {
		t.Fatalf("unknown strategy %q", variant)
	}
	p := Calculus.Generate(t, size, variant).(program)
	ty, err := rh.Check(p.prog)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v", err)
	}
	if err := Preservation(stepper, ad, p.prog, ty, preservationSteps); err != nil {
		return &workbench.Counterexample{Lang: ext, Source: rh.Format(p.prog), Comment: []string{err.Error()}, Err: err}
	}
	return nil
}
