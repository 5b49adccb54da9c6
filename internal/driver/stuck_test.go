package driver

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
)

// TestStuckIsInternal: a term that bypassed the type checker and has no transition is
// an internal error (interderive.ErrStuck) on every stage, never a user error nor a
// resource limit, and the driver names the stage. The terms are stuck by hand: an
// integer applied as a function, + on a boolean, if on an integer; fst of a real.
func TestStuckIsInternal(t *testing.T) {
	one, tt := &g.IntLit{N: 1}, &g.BoolLit{B: true}
	for _, e := range []g.Expr{
		&g.App{Fun: one, Arg: one},
		&g.Binary{Op: g.OpAdd, X: one, Y: tt},
		&g.If{Cond: one, Then: one, Else: one},
	} {
		for _, st := range CastStages() {
			r := runStage(st, g.ED, e, 100)
			checkStuck(t, st.Name, g.Format(e), interderive.InStage(r.err, st.Name))
		}
	}
	fst := &dpl.Fst{X: &dpl.RealLit{R: 1}, T: dpl.Real, U: dpl.Real}
	for _, st := range DPLStages() {
		_, err := st.Eval(dpl.Tape, fst, interderive.Options{Fuel: 100})
		checkStuck(t, st.Name, dpl.Format(fst), interderive.InStage(err, st.Name))
	}
}

func checkStuck(t *testing.T, stage, term string, err error) {
	t.Helper()
	var s *interderive.StuckError
	if !errors.As(err, &s) || !errors.Is(err, interderive.ErrStuck) || errors.Is(err, interderive.ErrResourceLimit) {
		t.Errorf("%s on %s: %v, want a stuck run", stage, term, err)
		return
	}
	if s.Stage != stage || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("%s on %s: %q, want an internal error of stage %s", stage, term, err, stage)
	}
}
