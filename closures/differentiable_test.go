package closures_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/values/dplval"
	"pgregory.net/rapid"
)

// Every expectation below is derived by hand (in the comments), or taken from the
// hand-derived tests of the reference semantics (reduction/differentiable_test.go).

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: closures.EvalDiffTraced, Stage: closures.Stage{}.Differentiable(), TraceDiff: closures.TraceDiff}.Run(t)
}

// TestDiffSteps follows let x:real = 2 in x + x step by step: environment steps
// (expand, lookup) are no contractions and leave the read-back unchanged; the let
// contracts to (x + x)[ε|x ↦ 2], which reads back as 2 + 2.
func TestDiffSteps(t *testing.T) {
	type step struct{ kind, term string }
	want := []step{
		{"expand", "let x:real = 2 in x + x"},
		{"let", "2 + 2"},
		{"expand", "2 + 2"},
		{"lookup", "2 + 2"},
		{"lookup", "2 + 2"},
		{"plus", "4"},
	}
	var got []step
	var events []string
	hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
		kind := ev.Rule
		if kind == "" {
			kind = ev.Env
		}
		got = append(got, step{kind, dpl.Format(closures.DiffSigma(ev.Mode, ev.Next))})
	}}
	opts := interderive.Options{OnContract: func(r string) { events = append(events, r) }}
	a, err := closures.EvalDiffHooks(dpl.Pruned, dplcases.Program(t, "let x:real = 2 in x + x"), opts, hooks)
	if err != nil || a.Observe() != "4" {
		t.Fatalf("%v (%v)", a, err)
	}
	if !slices.Equal(got, want) || !slices.Equal(events, []string{"let", "plus"}) {
		t.Errorf("steps %v (events %v), want %v", got, events, want)
	}
}

// TestDiffReadBack: a closure reads back to the term the reference semantics has at
// the same point. Functions read back as calls resolved to their closures, whose
// bodies keep their own recursive calls unresolved; a symbolic binding stays a
// variable under symbolic evaluation, an ordinary one is substituted.
func TestDiffReadBack(t *testing.T) {
	prog := dplcases.Program(t, "letrec f(x:real):real = if x <. 0.5 then 0 else f(x + -1) in f(2)")
	var afterLetrec closures.DiffClosure
	hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
		if ev.Rule == "letrec" {
			afterLetrec = ev.Next
		}
	}}
	if _, err := closures.EvalDiffHooks(dpl.Pruned, prog, interderive.Options{}, hooks); err != nil {
		t.Fatal(err)
	}
	call, ok := closures.DiffSigma(dpl.Ordinary, afterLetrec).(*dpl.Call)
	if !ok || call.Clo == nil || dpl.Format(call) != "f(2)" {
		t.Fatalf("after letrec: %v, want f(2) resolved", call)
	}
	body := call.Clo.Body.(*dpl.If).Else.(*dpl.Call)
	if call.Clo.Name != "f" || body.Name != "f" || body.Clo != nil {
		t.Errorf("the closure's body %s: its call of f must stay unresolved", dpl.Format(call.Clo.Body))
	}
	env := (*dplval.Env)(nil).Bind("a", &dpl.RealLit{R: 3}, false).Bind("x", &dpl.RealLit{R: 2}, true)
	cl := &closures.DiffClo{M: dplcases.Expected(t, "a * x"), Env: env}
	if got := dpl.Format(closures.DiffSigma(dpl.Symbolic, cl)); got != "mul(<3, x>)" {
		t.Errorf("symbolic read-back %s, want mul(<3, x>)", got)
	}
	if got := dpl.Format(closures.DiffSigma(dpl.Ordinary, cl)); got != "mul(<3, 2>)" {
		t.Errorf("ordinary read-back %s, want mul(<3, 2>)", got)
	}
	shadow := &closures.DiffClo{M: dplcases.Expected(t, "let a:real = x in a + a"), Env: env}
	if got := dpl.Format(closures.DiffSigma(dpl.Ordinary, shadow)); got != "let a:real = 2 in a + a" {
		t.Errorf("read-back under a binder %s, want let a:real = 2 in a + a", got)
	}
}

// TestDiffEnvironmentSteps: on random programs, no environment step changes the
// read-back of the closure (in either judgement), and every contraction that completes
// is one event.
func TestDiffEnvironmentSteps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplgen.Full(4))
		var failure string
		steps, contractions, events := 0, 0, 0
		hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
			if ev.Rule != "" {
				contractions++
				return
			}
			steps++
			before := closures.DiffSigma(ev.Mode, ev.Context.Plug(ev.Redex))
			after := closures.DiffSigma(ev.Mode, ev.Next)
			if failure == "" && !dpl.AlphaEqual(before, after) {
				failure = ev.Env + ": " + dpl.Format(before) + " became " + dpl.Format(after)
			}
		}}
		opts := interderive.Options{Fuel: 5000, OnContract: func(string) { events++ }}
		a, err := closures.EvalDiffHooks(dpl.Pruned, prog, opts, hooks)
		if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) && !errors.Is(err, dpl.ErrOverBudget) {
			t.Fatalf("%v\n%s", err, dpl.Format(prog))
		}
		if failure != "" {
			t.Fatalf("%s\n%s", failure, dpl.Format(prog))
		}
		if err == nil && a.Undefined == nil && contractions != events { // an undefined contraction does not complete
			t.Fatalf("%d contractions observed, %d events", contractions, events)
		}
	})
}
