package cps2_test

import (
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/lambdacases"
)

// TestLambdaCases runs the hand-derived programs of package lambdacases on this stage:
// answers and whole contraction sequences.
func TestLambdaCases(t *testing.T) { lambdacases.Run(t, cps2.Stage{}.Lambda()) }
