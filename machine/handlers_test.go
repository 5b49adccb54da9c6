package machine_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/machine"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// machine: answers and contraction sequences, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, machine.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the machine.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, machine.Stage{}.Handlers()) }
