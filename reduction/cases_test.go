package reduction_test

import (
	"testing"

	"github.com/interderive/interderive/internal/castcases"
	"github.com/interderive/interderive/internal/dplcases"
	"github.com/interderive/interderive/reduction"
)

// TestCastCases runs the hand-derived programs of package castcases: answers and
// whole contraction sequences, one rule per contraction.
func TestCastCases(t *testing.T) { castcases.Run(t, reduction.EvalCast) }

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: reduction.EvalDiffTraced, Stage: reduction.Stage{}.Differentiable(), TraceDiff: reduction.TraceDiff}.Run(t)
}
