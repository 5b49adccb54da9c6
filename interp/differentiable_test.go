package interp_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/interp"
)

// Every expectation below is derived by hand (in the comments), the shared cases'
// in package dplcases.

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: interp.EvalDiffTraced, Stage: interp.Stage{}.Differentiable(), TraceDiff: interp.TraceDiff}.Run(t)
}

// TestDiffDeep: the interpreter's recursion is bounded (interp.MaxDepth) with an
// error, never a Go stack overflow; tail calls are loops. (The nesting of layers and
// of traces is bounded as in the reference: dplcases' Bounds.)
func TestDiffDeep(t *testing.T) {
	// A million iterations in tail position: a loop, whatever the depth bound.
	loop := dplcases.Program(t, "letrec f(n:real):real = if n <. 0.5 then n else f(n + -1) in f(1000000)")
	if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, loop, 0); r.Err != nil || r.Answer.Observe() != "0" || len(r.Events) != 4_000_004 {
		// letrec; call, pred, if, plus for n = 1000000 down to 1; call, pred, if at 0.
		t.Errorf("f(1000000) = %v, %v after %d events; want 0 after 1 + 4000000 + 3", r.Answer, r.Err, len(r.Events))
	}
	// Non-tail recursion 2000 deep: 2000 + ... + 1.
	sum := dplcases.Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(2000)")
	if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, sum, 0); r.Err != nil || r.Answer.Observe() != "2.001e+06" {
		t.Errorf("sum(2000) = %v, %v; want 2.001e+06", r.Answer, r.Err)
	}
	// A million deep: the depth bound, an error and not a crash.
	for _, src := range []string{
		"letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(1000000)",
		"letrec sum(n:real):real = if n <. 0.5 then 0 else sum(n + -1) + n in sum(1000000)",
		"letrec d(n:real):real = if n <. 0.5 then 0 else let y:real = d(n + -1) in y + 1 in d(1000000)",
	} {
		var de *interderive.DepthError
		if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, dplcases.Program(t, src), 0); !errors.As(r.Err, &de) || de.Limit != interp.MaxDepth {
			t.Errorf("%s: %v, want the recursion bound %d", src, r.Err, interp.MaxDepth)
		}
	}
}

// TestDiffFused: R fused with the evaluation of its output (the default under tape,
// when nothing observes the derivative) against the unfused evaluation, which builds
// and evaluates every derivative term: the same contractions, one by one, the same
// answers to the bit, the same definedness and errors (dplcases.Fused).
func TestDiffFused(t *testing.T) {
	dplcases.Fused(t, interp.EvalDiffTraced, interp.Stage{}.Differentiable(), "../testdata/differentiable")
}
