package gradual

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// shared is e_n with e_0 = 1 and e_i = e_(i-1) e_(i-1): n nodes, 2^n leaves. Format
// would print "1 1 1 ... " with 2^n ones — for n = 40, eight terabytes.
func shared(n int) Expr {
	var e Expr = pxInt(1)
	for range n {
		e = &App{Fun: e, Arg: e}
	}
	return e
}

// TestFormatBounded: within a budget, a term prints whole when it fits, and is cut at
// the budget (with an *interderive.OutputError) when it does not, however long its
// printed form: e_40 of shared, 2^40 leaves, in a budget of 1 MiB. A failing check
// stops the printing too, with the check's error, after CheckEvery bytes per call (and
// the few bytes that close the nodes it was in).
func TestFormatBounded(t *testing.T) {
	small := pxApp(pxLam("x", Int, pxVar("x")), pxInt(1)) // (\x:Int. x) 1: 13 bytes
	if s, err := FormatBounded(small, interderive.PrintBudget{Max: 13}); s != `(\x:Int. x) 1` || err != nil {
		t.Errorf("a term that fits: %q, %v", s, err)
	}
	if s, err := FormatBounded(small, interderive.PrintBudget{Max: 5}); s != `(\x:I` || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("a term cut at 5 bytes: %q, %v", s, err)
	}
	// e_3 by hand: ((1 1) (1 1)) ((1 1) (1 1)), left-associative application.
	if s, err := FormatBounded(shared(3), interderive.PrintBudget{Max: 100}); s != "1 1 (1 1) (1 1 (1 1))" || err != nil {
		t.Errorf("e_3: %q, %v", s, err)
	}
	const mib = 1 << 20
	s, err := FormatBounded(shared(40), interderive.PrintBudget{Max: mib})
	var oe *interderive.OutputError
	if len(s) != mib || !errors.As(err, &oe) || oe.Limit != mib || !strings.HasPrefix(s, "1 1 (1 1)") {
		t.Errorf("e_40 in 1 MiB: %d bytes, %v", len(s), err)
	}
	stop := errors.New("time is up")
	calls := 0
	check := func() error {
		if calls++; calls == 3 {
			return stop
		}
		return nil
	}
	s, err = FormatBounded(shared(40), interderive.PrintBudget{Check: check})
	if err != stop || len(s) < 3*interderive.CheckEvery || len(s) > 3*interderive.CheckEvery+200 {
		t.Errorf("e_40 stopped by its check's third call: %d bytes, %v", len(s), err)
	}
}
