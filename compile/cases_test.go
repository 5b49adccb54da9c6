package compile_test

import (
	"testing"

	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/internal/cases/castcases"
)

// TestCastCases runs the hand-derived programs of package castcases: answers and
// whole contraction sequences, one rule per contraction.
func TestCastCases(t *testing.T) { castcases.Run(t, compile.EvalCast) }
