package cps2_test

import (
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/reduction"
)

// TestAbductiveCases runs the hand-derived programs of package abductivecases on the
// CPS evaluator: answers and whole contraction sequences.
func TestAbductiveCases(t *testing.T) { abductivecases.Run(t, cps2.Stage{}.Abductive()) }

// TestAbductiveCorpus runs testdata/abductive on the CPS evaluator.
func TestAbductiveCorpus(t *testing.T) {
	abductivecases.RunCorpus(t, cps2.Stage{}.Abductive(), abductivecases.Corpus)
}

// TestAbductiveLockstep: the CPS evaluator performs the reduction semantics'
// contractions, reports its decouplings and reaches its answers.
func TestAbductiveLockstep(t *testing.T) {
	abductivecases.Lockstep(t, reduction.Stage{}.Abductive(), cps2.Stage{}.Abductive(), abductivecases.Corpus)
}
