package reduction_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/lambdacases"
	"github.com/interderive/interderive/reduction"
)

// TestLambdaCases runs the hand-derived programs of package lambdacases on the
// reduction semantics: answers and whole contraction sequences.
func TestLambdaCases(t *testing.T) { lambdacases.Run(t, reduction.Stage{}.Lambda()) }
