package closures_test

import (
	"testing"

	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/internal/cases/handlerscases"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// calculus of closures: answers and contraction sequences, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, closures.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the calculus of closures.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, closures.Stage{}.Handlers()) }
