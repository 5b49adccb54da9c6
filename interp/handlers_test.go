package interp_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/interp"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// interpreter: answers and contraction sequences, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, interp.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the interpreter.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, interp.Stage{}.Handlers()) }
