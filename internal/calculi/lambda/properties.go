package lambda

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	lam "github.com/interderive/interderive/lambda"
	"pgregory.net/rapid"
)

// preservationSteps bounds the steps the preservation property follows: random
// programs loop now and then, and the reduction semantics is quadratic.
const preservationSteps = 300

// properties are the metatheory of the λ-calculus that fuzz checks besides lockstep.
var properties = []workbench.Property{
	{Name: "preservation", Failure: "progress or preservation fails",
		Doc:   "type soundness: the reference semantics makes progress (every step of a well-typed program decomposes and contracts) and preserves the program's type at every step",
		Check: checkPreservation},
}

// Preservation follows the steps of a closed term of type ty on the stepper (the
// reference semantics), at most budget of them: every step must decompose and
// contract (progress) and give a term of type ty (preservation), and the answer, if
// reached, must be a value. It reports the first step that does not.
func Preservation(s lam.Stepper, e lam.Expr, ty lam.Type, budget int) error {
	for range budget {
		next, rule, done, err := s.Step(e)
		if err != nil {
			return fmt.Errorf("stuck (no progress): %v in %s", err, lam.Format(e))
		}
		if done {
			if !lam.IsValue(next) {
				return fmt.Errorf("the answer %s is not a value", lam.Format(next))
			}
			return nil
		}
		if got, err := lam.TypeOf(next); err != nil || !lam.Equal(got, ty) {
			return fmt.Errorf("%s does not preserve the type %s (%v, %v): %s becomes %s",
				rule, lam.FormatType(ty), got, err, lam.Format(e), lam.Format(next))
		}
		e = next
	}
	return nil
}

// checkPreservation draws a program and follows it on the reference stage, which
// must take one step at a time (lam.Stepper).
func checkPreservation(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	ref, ok := lam.StageOf(stages[0])
	stepper, steps := ref.(lam.Stepper)
	if !ok || !steps {
		t.Fatalf("the reference stage %s does not take the λ-calculus's steps one at a time", stages[0].Name())
	}
	p := Calculus.Generate(t, size, variant).(program)
	ty, err := lam.TypeOf(p.term)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v\n%s", err, lam.Format(p.term))
	}
	if err := Preservation(stepper, p.term, ty, preservationSteps); err != nil {
		return &workbench.Counterexample{Lang: ext, Source: lam.Format(p.term), Comment: []string{err.Error()}, Err: err}
	}
	return nil
}
