package reduction_test

import (
	"testing"

	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/reduction"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// reduction semantics, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, reduction.Stage{}.Handlers()) }
