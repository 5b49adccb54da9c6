package dpl_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

func mustParse(t testing.TB, src string) dpl.Term {
	t.Helper()
	e, err := dpl.Parse([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

func mustParseGenerated(t testing.TB, src string) dpl.Term {
	t.Helper()
	e, err := dpl.ParseGenerated([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

// TestParse checks every construct and sugar of spec §1, and the precedence, by the
// core form the parse prints as.
func TestParse(t *testing.T) {
	tests := []struct{ src, want string }{
		// Constructs.
		{"x", "x"},
		{"w'", "w'"},
		{"3", "3"},
		{"()", "()"},
		{"x + y", "x + y"},
		{"sin(x)", "sin(x)"},
		{"let x:real = 1 in x", "let x:real = 1 in x"},
		{"<1, 2>", "<1, 2>"},
		{"fst(p)", "fst(p)"},
		{"snd(p)", "snd(p)"},
		{"if true then 1 else 2", "if true then 1 else 2"},
		{"if lt(<x, 0>) then 1 else 2", "if lt(<x, 0>) then 1 else 2"},
		{"letrec f(x:real):real = f(x) in f(1)", "letrec f(x:real):real = f(x) in f(1)"},
		{"M.rd[L](x:real. N)", "M.rd[L](x:real. N)"},
		{"M.fd[L](x:real * real. N)", "M.fd[L](x:real * real. N)"},
		// Numerals: no leading or trailing dot; - before a numeral makes a negative one.
		{"0.5", "0.5"},
		{"1e-3", "0.001"},
		{"1E3", "1000"},
		{"1.5e+2", "150"},
		{"-2", "-2"},
		{"1e-400", "0"},
		{"1.rd[2](x:real. x)", "1.rd[2](x:real. x)"},
		{"1.5.rd[2](x:real. x)", "1.5.rd[2](x:real. x)"},
		// Sugar.
		{"x * y", "mul(<x, y>)"},
		{"x - y", "x + neg(y)"},
		{"-x", "neg(x)"},
		{"x / y", "mul(<x, inv(y)>)"},
		{"x <. y", "lt(<x, y>)"},
		{"<1, 2, 3>", "<<1, 2>, 3>"},
		{"<1, 2, 3, 4>", "<<<1, 2>, 3>, 4>"},
		{"<1, <2, 3>>", "<1, <2, 3>>"},
		{"<>", "()"},
		{"<x>", "x"},
		{"dprod2(<1, 2>, <3, 4>)", "dprod2(<<1, 2>, <3, 4>>)"},
		{"f(1, 2, 3)", "f(<<1, 2>, 3>)"},
		{"f()", "f(())"},
		{"mul_rr(<<<2, 3>, 5>, <7, 11>>)", "mul_rr(<<<2, 3>, 5>, <7, 11>>)"},
		{"let x = 1 in x", "let x = 1 in x"},
		{"let f(x:real):real = x * x in f(2)", "letrec f(x:real):real = mul(<x, x>) in f(2)"},
		{"let <a:real, b:real> = p in a + b", "let z#1:real * real = p in let a:real = fst(z#1) in let b:real = snd(z#1) in a + b"},
		{"let <a:real, b:unit, c:real> = p in a",
			"let z#1:real * unit * real = p in let z#2:real * unit = fst(z#1) in let a:real = fst(z#2) in let b:unit = snd(z#2) in let c:real = snd(z#1) in a"},
		{"let <a:real> = p in a", "let a:real = p in a"},
		{"let <> = p in 1", "let z#1:unit = p in 1"},
		{"grad[<1, 2>](z:real * real. fst(z))", "1.rd[<1, 2>](z:real * real. fst(z))"},
		// Comments.
		{"1 -- one\n+ 2 -- two", "1 + 2"},
		{"-- only a comment\n3", "3"},
		// Precedence, loosest first: let/letrec/if extend right; <.; + -; * /; unary -;
		// postfix .rd/.fd with calls and projections.
		{"1 + 2 * 3", "1 + mul(<2, 3>)"},
		{"1 * 2 + 3", "mul(<1, 2>) + 3"},
		{"1 + 2 + 3", "1 + 2 + 3"},
		{"1 + (2 + 3)", "1 + (2 + 3)"},
		{"1 - 2 - 3", "1 + neg(2) + neg(3)"},
		{"8 / 4 / 2", "mul(<mul(<8, inv(4)>), inv(2)>)"},
		{"-x * y", "mul(<neg(x), y>)"},
		{"- -x", "neg(neg(x))"},
		{"x - -2", "x + neg(-2)"},
		{"x + -2", "x + -2"},
		{"-2 * x", "mul(<-2, x>)"},
		{"-x.rd[1](y:real. y)", "neg(x.rd[1](y:real. y))"},
		{"-2.rd[1](y:real. y)", "-2.rd[1](y:real. y)"},
		{"x.rd[1](y:real. y).fd[2](z:real. z)", "x.rd[1](y:real. y).fd[2](z:real. z)"},
		{"f(x).rd[1](y:real. y)", "f(x).rd[1](y:real. y)"},
		{"(1 + 2).rd[1](y:real. y)", "(1 + 2).rd[1](y:real. y)"},
		{"a + b <. c * d", "lt(<a + b, mul(<c, d>)>)"},
		{"1 + let x = 2 in x + 3", "1 + let x = 2 in x + 3"},
		{"2 * if b then 1 else 2", "mul(<2, if b then 1 else 2>)"},
		{"if a <. b then 1 else 2 + 3", "if lt(<a, b>) then 1 else 2 + 3"},
		{"let x = 1 in let y = 2 in x + y", "let x = 1 in let y = 2 in x + y"},
		{"x <. let y = 1 in y", "lt(<x, let y = 1 in y>)"},
		// Types: * associates to the left.
		{"let x:real * real * real = p in x", "let x:real * real * real = p in x"},
		{"let x:real * (real * real) = p in x", "let x:real * (real * real) = p in x"},
		{"let x:(real * real) * real = p in x", "let x:real * real * real = p in x"},
		{"let x:unit = () in x", "let x:unit = () in x"},
	}
	for _, tt := range tests {
		e, err := dpl.Parse([]byte(tt.src))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := dpl.Format(e); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestParsePositions: nodes carry the position of their first token; +, the infix
// sugars and rd carry their operator's.
func TestParsePositions(t *testing.T) {
	e := mustParse(t, "let x:real = 1 in\n  x * 2 + y.rd[3](z:real. z)")
	let := e.(*dpl.Let)
	plus := let.Body.(*dpl.Plus)
	mul := plus.X.(*dpl.OpApp)
	rd := plus.Y.(*dpl.Rd)
	for _, tt := range []struct {
		what string
		got  interderive.Pos
		want interderive.Pos
	}{
		{"let", let.P, interderive.Pos{Line: 1, Col: 1}},
		{"bound", let.Bound.Pos(), interderive.Pos{Line: 1, Col: 14}},
		{"+", plus.P, interderive.Pos{Line: 2, Col: 9}},
		{"*", mul.P, interderive.Pos{Line: 2, Col: 5}},
		{"x", mul.Arg.(*dpl.Pair).X.Pos(), interderive.Pos{Line: 2, Col: 3}},
		{"rd", rd.P, interderive.Pos{Line: 2, Col: 13}},
		{"y", rd.Cotangent.Pos(), interderive.Pos{Line: 2, Col: 11}},
	} {
		if tt.got != tt.want {
			t.Errorf("%s at %s, want %s", tt.what, tt.got, tt.want)
		}
	}
}

// TestParseErrors: malformed input gives positioned errors, collected, never a panic.
func TestParseErrors(t *testing.T) {
	n := dpl.MaxNesting + 500
	deep := strings.Repeat("(", n) + "1" + strings.Repeat(")", n)
	wide := "<" + strings.Repeat("1, ", n) + "1>"
	long := strings.Repeat("1 + ", n) + "1"
	deepType := "let x:" + strings.Repeat("real * ", n) + "real = 1 in x"
	million := strings.Repeat("(", 1_000_000) + "1" + strings.Repeat(")", 1_000_000)
	at := func(col int) string { return fmt.Sprintf("1:%d:", col) }
	tests := []struct{ src, pos, msg string }{
		{"1 +", "1:4", "expected an expression"},
		{"2x", "1:1", "malformed numeral"},
		{"1e999", "1:1", "out of the range"},
		{"x#1", "1:2", "names with # are generated"},
		{"a <. b <. c", "1:8", "non-associative"},
		{"let f(x:real):real = f(x) in 1", "1:22", "not recursive"},
		{"letrec sin(x:real):real = x in 1", "1:8", "sin is an operator"},
		{"letrec lt(x:real):real = x in 1", "1:8", "lt is a predicate"},
		{"let <a:real, a:real> = p in a", "1:14", "bound twice"},
		{"x.foo", "1:3", "expected rd or fd"},
		{"1.rd[2](x. x)", "1:10", "':'"},
		{"1.rd[2](x:real x)", "1:16", "'.'"},
		{"let x:int = 1 in x", "1:7", "expected a type"},
		{"(1", "1:3", "expected )"},
		{"<1, 2", "1:6", "expected , or >"},
		{"1 2", "1:3", "unexpected \"2\""},
		{"\x00", "1:1", "NUL"},
		{"\xff", "1:1", "UTF-8"},
		{"x @ y", "1:3", "unexpected character '@'"},
		// Nesting limits: the token at which the nesting passes MaxNesting.
		{deep, at(dpl.MaxNesting + 1), "nests too deeply"},
		{wide, at(2 + 3*(n+1-dpl.MaxNesting)), "nests too deeply"}, // the element at depth MaxNesting + 1
		{long, "1:", "nests too deeply"},
		{deepType, "1:1:", "nests too deeply"},
		{strings.Repeat("let x = (", n) + "1" + strings.Repeat(") in x", n), at(9*(dpl.MaxNesting/2) + 1), "nests too deeply"},
		// A million parentheses: an error, positioned.
		{million, at(dpl.MaxNesting + 1), fmt.Sprintf("expression nests too deeply (limit %d)", dpl.MaxNesting)},
	}
	for _, tt := range tests {
		if testing.Short() && len(tt.src) > 10_000 {
			continue // the nesting limits take seconds of stack growth: the full run checks them
		}
		e, err := dpl.Parse([]byte(tt.src))
		var list interderive.ErrorList
		if !errors.As(err, &list) || len(list) == 0 || e != nil {
			t.Errorf("Parse(%.40q): %v, want an error list", tt.src, err)
			continue
		}
		if got := list[0].Error(); !strings.HasPrefix(got, tt.pos) || !strings.Contains(got, tt.msg) {
			t.Errorf("Parse(%.40q): %s, want %s ... %s", tt.src, got, tt.pos, tt.msg)
		}
	}
	// Errors are collected: every malformed numeral is reported, in source order.
	_, err := dpl.Parse([]byte("2x + 3y + 1e999"))
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) != 3 || list[0].Pos.Col != 1 || list[1].Pos.Col != 6 || list[2].Pos.Col != 11 {
		t.Errorf("three malformed numerals: %v", err)
	}
}

// TestParseGenerated: ParseGenerated reads the fresh names that Format prints, and the
// supply of names of a parse starts after them.
func TestParseGenerated(t *testing.T) {
	e := mustParseGenerated(t, "let s#7:real = x#3 in let <a:real, b:real> = p in s#7")
	want := "let s#7:real = x#3 in let z#8:real * real = p in let a:real = fst(z#8) in let b:real = snd(z#8) in s#7"
	if got := dpl.Format(e); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseType(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"real", "real"}, {"unit", "unit"}, {"real * real * real", "real * real * real"},
		{"real * (unit * real)", "real * (unit * real)"}, {"((real))", "real"},
	} {
		ty, err := dpl.ParseType(tt.src)
		if err != nil || dpl.FormatType(ty) != tt.want {
			t.Errorf("ParseType(%q) = %v, %v; want %s", tt.src, ty, err, tt.want)
		}
	}
	if ty, _ := dpl.ParseType("real * real * real"); !dpl.Equal(ty, dpl.Pow(dpl.Real, 3)) {
		t.Errorf("real * real * real is not real^3 = (real * real) * real")
	}
	if _, err := dpl.ParseType("real *"); err == nil {
		t.Errorf("ParseType(real *) succeeded")
	}
}
