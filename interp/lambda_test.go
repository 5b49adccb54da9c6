package interp_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/lambdacases"
	"github.com/interderive/interderive/interp"
)

// TestLambdaCases runs the hand-derived programs of package lambdacases on this stage:
// answers and whole contraction sequences.
func TestLambdaCases(t *testing.T) { lambdacases.Run(t, interp.Stage{}.Lambda()) }
