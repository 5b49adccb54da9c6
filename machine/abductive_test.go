package machine_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// TestAbductiveCases runs the hand-derived programs of package abductivecases on the
// machine: answers and whole contraction sequences.
func TestAbductiveCases(t *testing.T) { abductivecases.Run(t, machine.Stage{}.Abductive()) }

// TestAbductiveCorpus runs testdata/abductive on the machine.
func TestAbductiveCorpus(t *testing.T) {
	abductivecases.RunCorpus(t, machine.Stage{}.Abductive(), abductivecases.Corpus)
}

// TestAbductiveLockstep: the machine performs the reduction semantics' contractions,
// reports its decouplings and reaches its answers.
func TestAbductiveLockstep(t *testing.T) {
	abductivecases.Lockstep(t, reduction.Stage{}.Abductive(), machine.Stage{}.Abductive(), abductivecases.Corpus)
}
