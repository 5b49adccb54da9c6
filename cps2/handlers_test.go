package cps2_test

import (
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/handlerscases"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// CPS evaluator: answers and contraction sequences, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, cps2.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the CPS evaluator.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, cps2.Stage{}.Handlers()) }
