package interp_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
)

// TestAbductiveCases runs the hand-derived programs of package abductivecases on the
// interpreter: answers and whole contraction sequences.
func TestAbductiveCases(t *testing.T) { abductivecases.Run(t, interp.Stage{}.Abductive()) }

// TestAbductiveCorpus runs testdata/abductive on the interpreter.
func TestAbductiveCorpus(t *testing.T) {
	abductivecases.RunCorpus(t, interp.Stage{}.Abductive(), abductivecases.Corpus)
}

// TestAbductiveLockstep: the interpreter performs the reduction semantics'
// contractions, reports its decouplings and reaches its answers.
func TestAbductiveLockstep(t *testing.T) {
	abductivecases.Lockstep(t, reduction.Stage{}.Abductive(), interp.Stage{}.Abductive(), abductivecases.Corpus)
}
