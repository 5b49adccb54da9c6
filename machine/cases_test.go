package machine_test

import (
	"testing"

	"github.com/interderive/interderive/internal/castcases"
	"github.com/interderive/interderive/internal/dplcases"
	"github.com/interderive/interderive/machine"
)

// TestCastCases runs the hand-derived programs of package castcases: answers and
// whole contraction sequences, one rule per contraction.
func TestCastCases(t *testing.T) { castcases.Run(t, machine.EvalCast) }

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel and the bounds on nesting.
func TestDiffCases(t *testing.T) { dplcases.Suite{Traced: machine.EvalDiffTraced}.Run(t) }
