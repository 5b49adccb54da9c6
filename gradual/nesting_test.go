package gradual

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// letChain is let x0 = 0 in let x1 = x0 + 1 in ... in x(k-1), in the cast calculus
// when cast (each let typed Int) and in GTLC otherwise.
func letChain(k int, cast bool) string {
	ty := ""
	if cast {
		ty = ":Int"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "let x0%s = 0 in ", ty)
	for i := 1; i < k; i++ {
		fmt.Fprintf(&b, "let x%d%s = x%d + 1 in ", i, ty, i-1)
	}
	fmt.Fprintf(&b, "x%d", k-1)
	return b.String()
}

// TestLetChainPasses: a chain of 100,000 lets (10,000 under -short) goes through every
// function over terms — parsing, cast insertion, TypeOf, Translate, Subst, SubstAll,
// FreeVars, AlphaEqual, Format — which loop along it: its depth (Depth) is 3, whatever
// its length.
func TestLetChainPasses(t *testing.T) {
	k := 100_000
	if testing.Short() {
		// 10,000 lets already run every pass's loop along the chain; the full run
		// covers 100,000.
		k = 10_000
	}
	src := letChain(k, false)
	e := mustParse(t, src, GTLC)
	if d := Depth(e); d != 3 { // let, x + 1, x
		t.Errorf("Depth of the chain = %d, want 3", d)
	}
	c, ty, err := InsertCasts(e)
	if err != nil || ty != Int {
		t.Fatalf("InsertCasts: %v, %v", ty, err)
	}
	if ty, err := TypeOf(c); err != nil || ty != Int {
		t.Fatalf("TypeOf: %v, %v", ty, err)
	}
	typed := mustParse(t, letChain(k, true), CastCalculus)
	if ty, err := TypeOf(typed); err != nil || ty != Int {
		t.Fatalf("TypeOf of the typed chain: %v, %v", ty, err)
	}
	if !AlphaEqual(c, typed) { // cast insertion writes every let's type
		t.Errorf("the inserted chain differs from the typed one")
	}
	if got := Format(typed); got != letChain(k, true) {
		t.Errorf("Format of the chain: %d bytes, want %d", len(got), len(letChain(k, true)))
	}
	if !AlphaEqual(Translate(ED, typed), typed) { // no cast to translate
		t.Errorf("Translate changed a chain without casts")
	}
	// x0 is bound by the first let: substituting it changes nothing; a free y is
	// replaced wherever it occurs.
	if !AlphaEqual(Subst(typed, "x0", &IntLit{N: 7}), typed) || !AlphaEqual(SubstAll(typed, map[string]Expr{"x0": &IntLit{N: 7}}), typed) {
		t.Errorf("substituting a bound variable changed the chain")
	}
	open := &Let{Name: "x", T: Int, Bound: &Var{Name: "y"}, Body: typed}
	want := &Let{Name: "x", T: Int, Bound: &IntLit{N: 7}, Body: typed}
	if !AlphaEqual(Subst(open, "y", &IntLit{N: 7}), want) || !AlphaEqual(SubstAll(open, map[string]Expr{"y": &IntLit{N: 7}}), want) {
		t.Errorf("substituting y in let x = y in <chain> is not let x = 7 in <chain>")
	}
	if fv := FreeVars(open); len(fv) != 1 || !fv["y"] {
		t.Errorf("FreeVars(let x = y in <chain>) = %v, want {y}", fv)
	}
	if AlphaEqual(typed, mustParse(t, strings.Replace(letChain(k, true), fmt.Sprintf("x%d + 1", k-2), fmt.Sprintf("x%d + 1", k-3), 1), CastCalculus)) {
		t.Errorf("chains that differ in their last let are α-equal")
	}
}

// TestFunctionTypeTooDeep: a let-chain can build a type as deep as it is long — each
// let binding a function that returns the one before — and the checkers refuse a
// function type deeper than MaxNesting, at the function, rather than let the functions
// over types recurse as deep.
func TestFunctionTypeTooDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("function types MaxNesting deep take seconds: the full run checks them")
	}
	chain := func(k int, cast bool) string {
		var b strings.Builder
		ty := "Int"
		if cast {
			fmt.Fprintf(&b, "let f0:Int = 0 in ")
		} else {
			b.WriteString("let f0 = 0 in ")
		}
		for i := 1; i <= k; i++ {
			if cast {
				fmt.Fprintf(&b, "let f%d:Int -> %s = \\x:Int. f%d in ", i, ty, i-1)
				ty = "(Int -> " + ty + ")"
			} else {
				fmt.Fprintf(&b, "let f%d = \\x:Int. f%d in ", i, i-1)
			}
		}
		fmt.Fprintf(&b, "f%d", k)
		return b.String()
	}
	// k functions: f_k has a type k arrows deep, depth k + 1.
	if _, ty, err := InsertCasts(mustParse(t, chain(MaxNesting-1, false), GTLC)); err != nil {
		t.Errorf("a function type %d deep: %v", MaxNesting, err)
	} else if _, ok := ty.(*Arrow); !ok {
		t.Errorf("a function type %d deep: %v", MaxNesting, ty)
	}
	src := chain(MaxNesting, false)
	_, _, err := InsertCasts(mustParse(t, src, GTLC))
	var list interderive.ErrorList
	// The last function, \x:Int. f(MaxNesting-1), is where the type passes the limit.
	at := strings.LastIndex(src, `\x`) + 1
	if !errors.As(err, &list) || list[0].Pos != (Pos{Line: 1, Col: int32(at)}) || !strings.Contains(list[0].Msg, "nests too deeply") {
		t.Errorf("a function type %d deep: %v, want too deep at 1:%d", MaxNesting+1, err, at)
	}
	// TypeOf in the cast calculus: the types written are too deep for the parser
	// first, so build the chain directly: f(i):T(i) = \x:Int. f(i-1), where T(i) is
	// Int -> T(i-1), i + 1 deep; the function at column i makes a type i + 1 deep.
	var body Expr = &Var{Name: fmt.Sprintf("f%d", MaxNesting)}
	lets := []*Let{{Name: "f0", T: Int, Bound: &IntLit{}}}
	var ty Type = Int
	for i := 1; i <= MaxNesting; i++ {
		ty = Fn(Int, ty)
		lets = append(lets, &Let{Name: fmt.Sprintf("f%d", i), T: ty, Bound: &Lam{P: Pos{Line: 1, Col: int32(i)}, Param: "x", T: Int, Body: &Var{Name: fmt.Sprintf("f%d", i-1)}}})
	}
	for i := len(lets) - 1; i >= 0; i-- {
		lets[i].Body = body
		body = lets[i]
	}
	e := body
	if _, err := TypeOf(e); !errors.As(err, &list) || list[0].Pos.Col != MaxNesting || !strings.Contains(list[0].Msg, "nests too deeply") {
		t.Errorf("TypeOf of a function type %d deep: %v, want too deep at column %d", MaxNesting+1, err, MaxNesting)
	}
}

// TestFormatBoundedLetChain: a printing within a budget stops in a chain of lets as it
// stops at a node, although the chain prints in a loop: a budget whose check fails at
// once gets no more than the bytes printed before the check and a let.
func TestFormatBoundedLetChain(t *testing.T) {
	// 10,000 lets under -short, over 200 kB printed, past CheckEvery (the full run: 100,000).
	k := 100_000
	if testing.Short() {
		k = 10_000
	}
	e := mustParse(t, letChain(k, true), CastCalculus)
	stop := errors.New("stop")
	out, err := FormatBounded(e, interderive.PrintBudget{Check: func() error { return stop }})
	if !errors.Is(err, stop) || len(out) > interderive.CheckEvery+100 {
		t.Errorf("FormatBounded of %d lets: %d bytes, %v; want at most %d, stopped", k, len(out), err, interderive.CheckEvery+100)
	}
}
