package closures_test

import (
	"testing"

	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/internal/cases/castcases"
)

// TestCastCases runs the hand-derived programs of package castcases: answers and
// whole contraction sequences, one rule per contraction.
func TestCastCases(t *testing.T) { castcases.Run(t, closures.EvalCast) }
