package reduction_test

import (
	"errors"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/reduction"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// reduction semantics, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, reduction.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the reduction semantics.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, reduction.Stage{}.Handlers()) }

// TestHandlersEveryRule: every rule of handlers.Rules fires in some hand-derived case
// on the reduction semantics.
func TestHandlersEveryRule(t *testing.T) {
	fired := map[string]bool{}
	for _, c := range handlerscases.Cases {
		p := handlerscases.Load(t, c.Program)
		opts := interderive.Options{OnContract: func(r string) { fired[r] = true }}
		if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, opts); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	for _, r := range handlers.Rules() {
		if !fired[r] {
			t.Errorf("rule %s never fires", r)
		}
	}
}

// TestHandlersBudgets: the fuel stops a run after that many contractions, as an
// *interderive.FuelError, and so does the timeout.
func TestHandlersBudgets(t *testing.T) {
	p := handlerscases.Load(t, handlerscases.TwoLayers)
	var n int
	_, err := reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 5, OnContract: func(string) { n++ }})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 5 || n != 5 {
		t.Errorf("fuel 5: %v after %d contractions, want a FuelError after 5", err, n)
	}
	// 65 contractions (handlerscases): fuel 65 is enough, 64 is not.
	if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 65}); err != nil { // fits
		t.Errorf("fuel 65: %v", err)
	}
	if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 64}); !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("fuel 64: %v, want out of fuel", err)
	}
	_, err = reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{Timeout: time.Nanosecond})
	if err != nil && !errors.Is(err, interderive.ErrResourceLimit) {
		t.Errorf("timeout: %v, want an answer or a resource limit", err)
	}
}

// TestHandlersStuck: a program the checker would refuse gets stuck, as an
// *interderive.StuckError, never a panic or an empty answer.
func TestHandlersStuck(t *testing.T) {
	for _, src := range []string{
		"op f : real -> real\nf(1)", // unhandled: refused by CheckHandled
		"[x + 1]",                   // a free variable
		"let y <= [1] in [fst(y)]",  // ill-typed
	} {
		p, err := handlers.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{})
		var se *interderive.StuckError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a StuckError", src, err)
		}
	}
}
