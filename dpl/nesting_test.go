package dpl_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TestLetChainCheck: a chain of 100,000 lets parses and checks — in a loop, each
// lookup one map access — and its depth (Depth) is that of one let. Every let uses x,
// bound at the start: a lookup that walked the chain would take time quadratic in it.
func TestLetChainCheck(t *testing.T) {
	k := 100_000
	if testing.Short() {
		k = 10_000 // the full run checks 100,000 lets
	}
	var b strings.Builder
	b.WriteString("1.rd[1](x:real. let y0:real = x in ")
	for i := 1; i <= k; i++ {
		fmt.Fprintf(&b, "let y%d:real = y%d * x in ", i, i-1)
	}
	fmt.Fprintf(&b, "y%d)", k)
	e, err := dpl.Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	c, ty, err := dpl.Check(e)
	if err != nil || !dpl.Equal(ty, dpl.Real) {
		t.Fatalf("Check: %v, %v", ty, err)
	}
	// rd, its body's let, mul, the pair, a variable: 5.
	if d := dpl.Depth(c); d != 5 {
		t.Errorf("Depth = %d, want 5", d)
	}
	// The let-tuple sugar joins the chain: let <a:real, b:real> = <1, 2> in ... is a
	// chain of lets (LetTuple).
	tuples := strings.Repeat("let <a:real, b:real> = <1, 2> in ", k/10) + "a + b"
	if e, err := dpl.Parse([]byte(tuples)); err != nil {
		t.Errorf("%d let-tuples: %v", k/10, err)
	} else if _, ty, err := dpl.Check(e); err != nil || !dpl.Equal(ty, dpl.Real) {
		t.Errorf("%d let-tuples: %v, %v", k/10, ty, err)
	}
}

// TestPairTypeTooDeep: a let-chain can build a type as deep as it is long — each let
// pairing the one before — and the checker refuses a pair type deeper than
// MaxNesting, at the pair, rather than let the functions over types and values recurse
// as deep.
func TestPairTypeTooDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("let-chains MaxNesting long take a second to check: the full run checks the limit")
	}
	chain := func(k int) string {
		var b strings.Builder
		b.WriteString("let p0 = 1 in ")
		for i := 1; i <= k; i++ {
			fmt.Fprintf(&b, "let p%d = <p%d, 1> in ", i, i-1)
		}
		fmt.Fprintf(&b, "p%d", k)
		return b.String()
	}
	// p(k) has a type k products deep, depth k + 1.
	e, err := dpl.Parse([]byte(chain(dpl.MaxNesting - 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := dpl.Check(e); err != nil {
		t.Errorf("a pair type %d deep: %v", dpl.MaxNesting, err)
	}
	src := chain(dpl.MaxNesting)
	if e, err = dpl.Parse([]byte(src)); err != nil {
		t.Fatal(err)
	}
	_, _, err = dpl.Check(e)
	var list interderive.ErrorList
	at := strings.LastIndex(src, "<") + 1 // the last pair
	if !errors.As(err, &list) || list[0].Pos != (dpl.Pos{Line: 1, Col: int32(at)}) || !strings.Contains(list[0].Msg, "nests too deeply") {
		t.Errorf("a pair type %d deep: %v, want too deep at 1:%d", dpl.MaxNesting+1, err, at)
	}
}

// TestFormatBoundedLetChain: a printing within a budget stops in a chain of lets as it
// stops at a node, although the chain prints in a loop: a budget whose check fails at
// once gets no more than the bytes printed before the check and a let.
func TestFormatBoundedLetChain(t *testing.T) {
	// 10,000 lets under -short, 180 kB printed, past CheckEvery (the full run: 100,000).
	k := 100_000
	if testing.Short() {
		k = 10_000
	}
	e, err := dpl.Parse([]byte(strings.Repeat("let x:real = 1 in ", k) + "x"))
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	out, err := dpl.FormatBounded(e, interderive.PrintBudget{Check: func() error { return stop }})
	if !errors.Is(err, stop) || len(out) > interderive.CheckEvery+100 {
		t.Errorf("FormatBounded of %d lets: %d bytes, %v; want at most %d, stopped", k, len(out), err, interderive.CheckEvery+100)
	}
}
