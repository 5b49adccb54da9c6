package handlerscases_test

import (
	"testing"

	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// TestLockstep: the stages written so far make the reduction semantics' contractions,
// in its order, on every case and corpus program, under every strategy. (The
// calculus's package will run it through the workbench once every stage exists.)
func TestLockstep(t *testing.T) {
	handlerscases.Lockstep(t, map[string]handlers.Stage{
		"reduction": reduction.Stage{}.Handlers(),
		"closures":  closures.Stage{}.Handlers(),
		"machine":   machine.Stage{}.Handlers(),
		"cps2":      cps2.Stage{}.Handlers(),
		"interp":    interp.Stage{}.Handlers(),
	}, []string{"reduction", "closures", "machine", "cps2", "interp"})
}
