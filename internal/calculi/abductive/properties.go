package abductive

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	abd "github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/gen/abductivegen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// preservationSteps bounds the steps the preservation property follows (the
// reduction semantics is quadratic).
const preservationSteps = 2000

// observeFuel is the fuel of the runs the observation properties compare.
const observeFuel = 100_000

// properties are the metatheory of the abductive calculus that fuzz checks besides
// lockstep.
var properties = []workbench.Property{
	{Name: "preservation", Failure: "progress or preservation fails",
		Doc:   "type soundness: the reference semantics makes progress (every step of a well-typed program decomposes and contracts) and preserves the program's type at every step",
		Check: checkPreservation},
	{Name: "direct-mode", Failure: "decoupling changes direct mode",
		Doc:   "direct mode is unchanged by decoupling: let f @ p = m in f p observes as m, for m of type F",
		Check: checkDirectMode},
	{Name: "permutation", Failure: "a permutation of the labels changes an observation",
		Doc:   "permutation invariance: numbering the provisional constants in another order (so permuting every decoupling's parameters) changes no observation, on arithmetic float64 computes exactly",
		Check: checkPermutation},
}

// Preservation follows the steps of a closed term of type ty on the stepper (the
// reference semantics), at most budget of them: every step must decompose and
// contract (progress) and give a term of type ty (preservation, vector types up to
// their decoupling: a run's vectors have lost their names), and the answer, if
// reached, must be a value.
func Preservation(s abd.Stepper, e abd.Expr, ty abd.Type, budget int) error {
	sigma := abd.Sigma(e)
	for range budget {
		next, rule, done, err := s.Step(e, sigma)
		if err != nil {
			return fmt.Errorf("stuck (no progress): %v in %s", err, abd.FormatShort(e, 1<<12))
		}
		if done {
			if !abd.IsValue(next) {
				return fmt.Errorf("the answer %s is not a value", abd.FormatShort(next, 1<<12))
			}
			return nil
		}
		if got, err := abd.TypeOf(next); err != nil || !abd.TypesEqual(got, ty) {
			return fmt.Errorf("%s does not preserve the type %s (%v, %v): %s becomes %s",
				rule, abd.FormatType(ty), got, err, abd.FormatShort(e, 1<<12), abd.FormatShort(next, 1<<12))
		}
		e = next
	}
	return nil
}

// reference is the reference stage (stages[0]) as the calculus's stage.
func reference(t *rapid.T, stages []interderive.Stage) abd.Stage {
	ref, ok := abd.StageOf(stages[0])
	if !ok {
		t.Fatalf("the reference stage %s does not run the abductive calculus", stages[0].Name())
	}
	return ref
}

// checkPreservation draws a program and follows it on the reference stage, which
// must take one step at a time (abd.Stepper).
func checkPreservation(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
	stepper, ok := reference(t, stages).(abd.Stepper)
	if !ok {
		t.Fatalf("the reference stage %s does not take the abductive calculus's steps one at a time", stages[0].Name())
	}
	e := abductivegen.Program(t, abductivegen.Config{Depth: size})
	ty, err := abd.TypeOf(e)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v\n%s", err, abd.Format(e))
	}
	if err := Preservation(stepper, e, ty, preservationSteps); err != nil {
		return &workbench.Counterexample{Lang: ext, Source: abd.Format(e), Comment: []string{err.Error()}, Err: err}
	}
	return nil
}

// observe is e's observation on the stage, or "" if the run stopped at its fuel.
func observe(s abd.Stage, e abd.Expr) (string, error) {
	a, err := s.Eval(e, interderive.Options{Fuel: observeFuel})
	if errors.Is(err, interderive.ErrOutOfFuel) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return a.Observe(), nil
}

// Decoupled is let f @ p = m in f p, for fresh f and p, labelled as Parse would.
func Decoupled(m abd.Expr) abd.Expr {
	f, p := abd.FreshName("f", m), abd.FreshName("p", m)
	return abductivegen.Relabel(&abd.App{Sugar: true, Arg: m,
		Fun: &abd.Abduct{F: f, Par: p, Body: &abd.App{Fun: &abd.Var{Name: f}, Arg: &abd.Var{Name: p}}}})
}

// checkDirectMode draws a model of type F and compares its observation with that of
// the model decoupled and applied to its own parameters.
func checkDirectMode(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
	ref := reference(t, stages)
	m := abductivegen.Model(t, abductivegen.Config{Depth: size})
	d := Decoupled(m)
	want, err1 := observe(ref, m)
	got, err2 := observe(ref, d)
	var err error
	switch {
	case err1 != nil || err2 != nil:
		err = fmt.Errorf("%v; decoupled: %v", err1, err2)
	case want != "" && got != "" && want != got:
		err = fmt.Errorf("the model observes %s, decoupled and applied to its parameters %s", want, got)
	}
	if err != nil {
		return &workbench.Counterexample{Lang: ext, Source: abd.Format(d), Comment: []string{err.Error(), "-- expect: " + want}, Err: err}
	}
	return nil
}

// Permute gives the provisional constants of e the labels perm[label-1] (a
// permutation of 1 ... n): the same program, with its labels in another order.
func Permute(e abd.Expr, perm []int) abd.Expr {
	switch e := e.(type) {
	case *abd.Param:
		return &abd.Param{P: e.P, R: e.R, Label: perm[e.Label-1]}
	case *abd.Lam:
		return &abd.Lam{P: e.P, Param: e.Param, T: e.T, Body: Permute(e.Body, perm), Foot: e.Foot}
	case *abd.Abduct:
		return &abd.Abduct{P: e.P, F: e.F, Par: e.Par, Body: Permute(e.Body, perm), Foot: e.Foot}
	case *abd.App:
		return &abd.App{P: e.P, Fun: Permute(e.Fun, perm), Arg: Permute(e.Arg, perm), Sugar: e.Sugar}
	case *abd.Binary:
		return &abd.Binary{P: e.P, Op: e.Op, X: Permute(e.X, perm), Y: Permute(e.Y, perm), From: e.From}
	case *abd.Let:
		return &abd.Let{P: e.P, Name: e.Name, Bound: Permute(e.Bound, perm), Body: Permute(e.Body, perm)}
	}
	return e
}

// checkPermutation draws a program with exact arithmetic and a permutation of its
// labels, and compares the observations.
func checkPermutation(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
	ref := reference(t, stages)
	e := abductivegen.Program(t, abductivegen.Config{Depth: size, Exact: true})
	ids := make([]int, len(abd.Sigma(e)))
	for i := range ids {
		ids[i] = i + 1
	}
	perm := rapid.Permutation(ids).Draw(t, "permutation")
	want, err1 := observe(ref, e)
	got, err2 := observe(ref, Permute(e, perm))
	var err error
	switch {
	case err1 != nil || err2 != nil:
		err = fmt.Errorf("%v; permuted: %v", err1, err2)
	case want != "" && got != "" && want != got:
		err = fmt.Errorf("observes %s, and %s with its labels permuted by %v", want, got, perm)
	}
	if err != nil {
		return &workbench.Counterexample{Lang: ext, Source: abd.Format(e), Comment: []string{err.Error()}, Err: err}
	}
	return nil
}
