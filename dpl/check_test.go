package dpl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TestCheck: the typing rules of Figure 1, with the admissible rules of the sugar.
func TestCheck(t *testing.T) {
	tests := []struct{ src, ty string }{
		{"1", "real"},
		{"()", "unit"},
		{"1 + 2", "real"},
		{"<1, ()>", "real * unit"},
		{"<1, 2, 3>", "real * real * real"},
		{"fst(<1, ()>)", "real"},
		{"snd(<1, ()>)", "unit"},
		{"sin(1)", "real"},
		{"dprod2(<1, 2>, <3, 4>)", "real"},
		{"mul_r(<<1, 2>, 3>)", "real * real"},
		{"mul_rr(<<<2, 3>, 5>, <7, 11>>)", "real * real * real"},
		{"let x = <1, 2> in snd(x)", "real"},
		{"if 1 <. 2 then () else ()", "unit"},
		{"letrec f(x:real):real = if x <. 0 then 0 else f(x - 1) in f(3)", "real"},
		// Function variables may be free in function bodies.
		{"let g(x:real):real = x in let h(y:real):real = g(y) in h(1)", "real"},
		// M.rd[L](x:T. N) : T when N : U, L : T, M : U.
		{"1.rd[2](x:real. x * x)", "real"},
		{"<1, 2>.rd[3](x:real. <x, x>)", "real"},
		{"1.rd[<2, 3>](z:real * real. fst(z))", "real * real"},
		// M.fd[L](x:T. N) : U when N : U, L : T, M : T; grad[L](x:T. N) : T.
		{"1.fd[3](x:real. <x, ()>)", "real * unit"},
		{"grad[<1, 2>](z:real * real. fst(z))", "real * real"},
		{"let <a:real, b:real> = <1, 2> in a + b", "real"},
		// Names of variables and functions live apart.
		{"let f:real = 1 in letrec f(x:real):real = x in f(f)", "real"},
	}
	for _, tt := range tests {
		e, ty, err := dpl.Check(mustParse(t, tt.src))
		if err != nil || dpl.FormatType(ty) != tt.ty {
			t.Errorf("Check(%s) = %v, %v; want %s", tt.src, ty, err, tt.ty)
			continue
		}
		// The elaborated term checks again, to the same type.
		if _, ty2, err := dpl.Check(e); err != nil || !dpl.Equal(ty, ty2) {
			t.Errorf("the elaboration of %s checks as %v, %v", tt.src, ty2, err)
		}
	}
}

// TestCheckErrors: type errors are positioned.
func TestCheckErrors(t *testing.T) {
	tests := []struct{ src, pos, msg string }{
		{"x", "1:1", "unbound variable x"},
		{"let a:real = 2 in letrec f(x:real):real = x * a in f(3)", "1:47", "a is not in scope in the body of f"},
		{"1 + ()", "1:5", "+ expects real on its right"},
		{"() + 1", "1:1", "+ expects real on its left"},
		{"mul(<1, 2, 3>)", "1:5", "mul expects an argument of type real * real"},
		{"sin(<1, 2>)", "1:5", "sin expects"},
		{"fst(3)", "1:5", "fst expects a pair"},
		{"if true then 1 else ()", "1:1", "different types real and unit"},
		{"if 1 then 1 else 2", "1:4", "the condition of if must be a boolean term"},
		{"1 <. 2", "1:3", "boolean term"},
		{"<true, 1>", "1:2", "boolean term"},
		{"let x:unit = 1 in x", "1:14", "x is declared unit"},
		{"f(1)", "1:1", "unknown function or operator f"},
		{"let f:real = 1 in f(1)", "1:19", "f is a variable, not a function"},
		{"letrec f(x:real):real = x in f", "1:30", "f is a function, not a value"},
		{"letrec f(x:real):real = x in f(())", "1:32", "f expects an argument of type real"},
		{"letrec f(x:real):unit = x in 1", "1:25", "f is declared to return unit"},
		{"<1, 2>.rd[3](x:real. x * x)", "1:1", "the cotangent of rd has type real * real, but the body has type real"},
		{"1.rd[<1, 2>](x:real. x)", "1:6", "the point of rd has type real * real"},
		{"1.rd[2](x:real. x) + x", "1:22", "unbound variable x"},
		{"1.fd[<1, 2>](x:real. x)", "1:6", "the point of fd"},
		{"<1, 2>.fd[1](x:real. x)", "1:1", "the tangent of fd"},
		{"lt(<1, 2>) + 1", "1:1", "boolean term"},
		{"if lt(1) then 1 else 2", "1:7", "lt expects an argument of type real * real"},
	}
	for _, tt := range tests {
		_, _, err := dpl.Check(mustParse(t, tt.src))
		var list interderive.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("Check(%s): %v, want a type error", tt.src, err)
			continue
		}
		if got := list[0].Error(); !strings.HasPrefix(got, tt.pos+":") || !strings.Contains(got, tt.msg) {
			t.Errorf("Check(%s): %s, want %s: ...%s...", tt.src, got, tt.pos, tt.msg)
		}
	}
}

// TestElaborate: the type checker fills in the subscripts of pairs and projections and
// the types of unannotated lets, and expands fd (which needs the type of its body).
func TestElaborate(t *testing.T) {
	e, _, err := dpl.Check(mustParse(t, "let p = <1, ()> in fst(p)"))
	if err != nil {
		t.Fatal(err)
	}
	let := e.(*dpl.Let)
	pair, fst := let.Bound.(*dpl.Pair), let.Body.(*dpl.Fst)
	if !dpl.Equal(let.T, dpl.Times(dpl.Real, dpl.Unit)) || !dpl.Equal(pair.T, dpl.Real) || !dpl.Equal(pair.U, dpl.Unit) ||
		!dpl.Equal(fst.T, dpl.Real) || !dpl.Equal(fst.U, dpl.Unit) {
		t.Errorf("elaboration %s: types %v %v %v %v %v", dpl.Format(e), let.T, pair.T, pair.U, fst.T, fst.U)
	}
	// M.fd[L](x:T. N) = M.rd[0_U](y:U. y.rd[L](x:T. N)), y fresh.
	e, _, err = dpl.Check(mustParse(t, "1.fd[3](x:real. <x * x, ()>)"))
	if err != nil {
		t.Fatal(err)
	}
	want := mustParseGenerated(t, "1.rd[<0, ()>](y:real * unit. y.rd[3](x:real. <mul(<x, x>), ()>))")
	if !dpl.AlphaEqual(e, want) {
		t.Errorf("fd expands to %s, want %s", dpl.Format(e), dpl.Format(want))
	}
	// The fresh y captures nothing, even where y is a source name.
	e, _, err = dpl.Check(mustParse(t, "let y:real = 5 in y.fd[3](x:real. x * y)"))
	if err != nil {
		t.Fatal(err)
	}
	inner := e.(*dpl.Let).Body.(*dpl.Rd)
	if inner.Param == "y" || !dpl.IsGenerated(inner.Param) {
		t.Errorf("fd's variable %s is not fresh: %s", inner.Param, dpl.Format(e))
	}
}

// TestCheckDeep: a term deeper than the parser allows (built directly) is refused with
// a depth error, not a crash.
func TestCheckDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("a term MaxDepth + MaxNesting deep takes seconds of stack growth: the full run checks it")
	}
	var e dpl.Term = lit(0)
	for range dpl.MaxDepth + dpl.MaxNesting + 10 {
		e = &dpl.Plus{X: lit(1), Y: e}
	}
	if _, _, err := dpl.Check(e); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("Check of a deep term: %v, want too deep", err)
	}
}
