package dpl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// sharedPair is the value of a_n in let a_0 = 1 in let a_i = <a_(i-1), a_(i-1)> ...,
// with its type: n pairs and n products, 2^n leaves.
func sharedPair(n int) (dpl.Term, dpl.Type) {
	var v dpl.Term = lit(1)
	var ty dpl.Type = dpl.Real
	for range n {
		v, ty = &dpl.Pair{X: v, Y: v}, dpl.Times(ty, ty)
	}
	return v, ty
}

// TestFormatBounded: a value and a type shared 40 times print within a budget of
// 1 MiB, cut with an *interderive.OutputError; small ones print whole. By hand:
// a_2 is <<1, 1>, <1, 1>> of type real * real * (real * real).
func TestFormatBounded(t *testing.T) {
	v2, t2 := sharedPair(2)
	if s, err := dpl.FormatBounded(v2, interderive.PrintBudget{Max: 100}); s != "<<1, 1>, <1, 1>>" || err != nil {
		t.Errorf("a_2: %q, %v", s, err)
	}
	if s, err := dpl.FormatTypeBounded(t2, interderive.PrintBudget{Max: 100}); s != "real * real * (real * real)" || err != nil {
		t.Errorf("the type of a_2: %q, %v", s, err)
	}
	if s, err := dpl.FormatBounded(v2, interderive.PrintBudget{Max: 6}); s != "<<1, 1" || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("a_2 cut at 6 bytes: %q, %v", s, err)
	}
	const mib = 1 << 20
	v40, t40 := sharedPair(40)
	if s, err := dpl.FormatBounded(v40, interderive.PrintBudget{Max: mib}); len(s) != mib || !errors.Is(err, interderive.ErrOutputLimit) || !strings.HasPrefix(s, "<<<<") {
		t.Errorf("a_40 in 1 MiB: %d bytes, %v", len(s), err)
	}
	if s, err := dpl.FormatTypeBounded(t40, interderive.PrintBudget{Max: mib}); len(s) != mib || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("the type of a_40 in 1 MiB: %d bytes, %v", len(s), err)
	}
	// A let whose type is shared 40 times: the type is cut too.
	let := &dpl.Let{Name: "a", T: t40, Bound: v40, Body: vr("a")}
	if s, err := dpl.FormatBounded(let, interderive.PrintBudget{Max: 1000}); len(s) != 1000 || !strings.HasPrefix(s, "let a:real * real * (real * real)") || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("a let of a_40: %q, %v", s, err)
	}
	stop := errors.New("out of memory")
	if s, err := dpl.FormatBounded(v40, interderive.PrintBudget{Check: func() error { return stop }}); err != stop || len(s) > interderive.CheckEvery+200 {
		t.Errorf("a_40 stopped by its check: %d bytes, %v", len(s), err)
	}
}
