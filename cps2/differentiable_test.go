package cps2_test

import (
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/dplcases"
)

// TestDiffFlatStack: the program's recursion and the nesting of layers grow the
// continuations, not the Go stack (the evaluator is trampolined). The shared cases
// are in cases_test.go.
func TestDiffFlatStack(t *testing.T) { dplcases.FlatStack(t, cps2.EvalDiffTraced) }
