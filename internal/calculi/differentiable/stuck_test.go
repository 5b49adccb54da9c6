package differentiable

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TestStuckIsInternal: a term that bypassed the type checker and has no transition is
// an internal error (interderive.ErrStuck) on every stage, never a user error nor a
// resource limit, and Program.Run names the stage. The term is stuck by hand: fst of
// a real.
func TestStuckIsInternal(t *testing.T) {
	fst := &dpl.Fst{X: &dpl.RealLit{R: 1}, T: dpl.Real, U: dpl.Real}
	for _, st := range stages() {
		_, err := program{term: fst}.Run(st, dpl.Tape.Name(), interderive.Options{Fuel: 100})
		var s *interderive.StuckError
		switch {
		case !errors.As(err, &s) || !errors.Is(err, interderive.ErrStuck) || errors.Is(err, interderive.ErrResourceLimit):
			t.Errorf("%s on %s: %v, want a stuck run", st.Name(), dpl.Format(fst), err)
		case s.Stage != st.Name() || !strings.Contains(err.Error(), "internal error"):
			t.Errorf("%s on %s: %q, want an internal error of stage %s", st.Name(), dpl.Format(fst), err, st.Name())
		}
	}
}
