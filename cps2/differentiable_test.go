package cps2_test

import (
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/dplcases"
)

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: cps2.EvalDiffTraced, Stage: cps2.Stage{}.Differentiable()}.Run(t)
}

// TestDiffFlatStack: the program's recursion and the nesting of layers grow the
// continuations, not the Go stack (the evaluator is trampolined).
func TestDiffFlatStack(t *testing.T) { dplcases.FlatStack(t, cps2.EvalDiffTraced) }

// TestDiffFused: R fused with the evaluation of its output (the default under tape,
// when nothing observes the derivative) against the unfused evaluation, which builds
// and evaluates every derivative term: the same contractions, one by one, the same
// answers to the bit, the same definedness and errors (dplcases.Fused).
func TestDiffFused(t *testing.T) {
	dplcases.Fused(t, cps2.EvalDiffTraced, cps2.Stage{}.Differentiable(), "../testdata/differentiable")
}
