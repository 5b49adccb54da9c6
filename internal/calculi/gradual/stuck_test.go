package gradual

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// TestStuckIsInternal: a term that bypassed the type checker and has no transition is
// an internal error (interderive.ErrStuck) on every stage, never a user error nor a
// resource limit, and Program.Run names the stage. The terms are stuck by hand: an
// integer applied as a function, + on a boolean, if on an integer.
func TestStuckIsInternal(t *testing.T) {
	one, tt := &g.IntLit{N: 1}, &g.BoolLit{B: true}
	for _, e := range []g.Expr{
		&g.App{Fun: one, Arg: one},
		&g.Binary{Op: g.OpAdd, X: one, Y: tt},
		&g.If{Cond: one, Then: one, Else: one},
	} {
		for _, st := range stages() {
			_, err := castProgram(e).Run(st, g.ED.Name(), interderive.Options{Fuel: 100, Merging: interderive.Unmerged})
			var s *interderive.StuckError
			switch {
			case !errors.As(err, &s) || !errors.Is(err, interderive.ErrStuck) || errors.Is(err, interderive.ErrResourceLimit):
				t.Errorf("%s on %s: %v, want a stuck run", st.Name(), g.Format(e), err)
			case s.Stage != st.Name() || !strings.Contains(err.Error(), "internal error"):
				t.Errorf("%s on %s: %q, want an internal error of stage %s", st.Name(), g.Format(e), err, st.Name())
			}
		}
	}
}
