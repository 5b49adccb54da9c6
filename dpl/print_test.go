package dpl_test

import (
	"math"
	"testing"

	"github.com/interderive/interderive/dpl"
)

func lit(r float64) dpl.Term { return &dpl.RealLit{R: r} }

// tenth and fifth are variables, so that 0.1 + 0.2 is computed in float64, not folded
// exactly by the compiler.
var tenth, fifth = 0.1, 0.2

func vr(x string) dpl.Term { return &dpl.Var{Name: x} }

// TestFormat prints terms built directly (not parsed), with as few parentheses as the
// grammar allows, and checks that they parse back.
func TestFormat(t *testing.T) {
	neg, _ := dpl.LookupOperator("neg")
	let := &dpl.Let{Name: "x", T: dpl.Real, Bound: lit(1), Body: vr("x")}
	tests := []struct {
		term dpl.Term
		want string
	}{
		// Reals: strconv.FormatFloat(v, 'g', -1, 64).
		{lit(12), "12"},
		{lit(0.5), "0.5"},
		{lit(-2), "-2"},
		{lit(math.Copysign(0, -1)), "-0"},
		{lit(1e-7), "1e-07"},
		{lit(1e21), "1e+21"},
		{lit(1e6), "1e+06"},
		{lit(tenth + fifth), "0.30000000000000004"},
		{lit(5e-324), "5e-324"},
		{lit(math.MaxFloat64), "1.7976931348623157e+308"},
		{&dpl.UnitLit{}, "()"},
		{&dpl.Pair{X: &dpl.Pair{X: lit(1), Y: lit(2)}, Y: lit(3)}, "<<1, 2>, 3>"},
		{&dpl.Pair{X: lit(1), Y: &dpl.Pair{X: lit(2), Y: lit(3)}}, "<1, <2, 3>>"},
		// +: left-associative; open forms bare only at the right end.
		{&dpl.Plus{X: &dpl.Plus{X: vr("a"), Y: vr("b")}, Y: vr("c")}, "a + b + c"},
		{&dpl.Plus{X: vr("a"), Y: &dpl.Plus{X: vr("b"), Y: vr("c")}}, "a + (b + c)"},
		{&dpl.Plus{X: vr("a"), Y: let}, "a + let x:real = 1 in x"},
		{&dpl.Plus{X: let, Y: vr("a")}, "(let x:real = 1 in x) + a"},
		{&dpl.Plus{X: &dpl.Plus{X: vr("a"), Y: let}, Y: vr("b")}, "a + (let x:real = 1 in x) + b"},
		{&dpl.Plus{X: vr("a"), Y: lit(-2)}, "a + -2"},
		{&dpl.OpApp{Op: neg, Arg: lit(2)}, "neg(2)"},
		{&dpl.Let{Name: "y", Bound: let, Body: vr("y")}, "let y = let x:real = 1 in x in y"},
		// rd: the cotangent is a postfix operand.
		{&dpl.Rd{Cotangent: &dpl.Plus{X: lit(1), Y: lit(2)}, Point: lit(3), Param: "x", T: dpl.Real, Body: vr("x")},
			"(1 + 2).rd[3](x:real. x)"},
		{&dpl.Rd{Cotangent: let, Point: let, Param: "x", T: dpl.Real, Body: let},
			"(let x:real = 1 in x).rd[let x:real = 1 in x](x:real. let x:real = 1 in x)"},
		{&dpl.Rd{Cotangent: lit(-2), Point: lit(3), Param: "x", T: dpl.Real, Body: vr("x")}, "-2.rd[3](x:real. x)"},
		{&dpl.Rd{Cotangent: lit(1e21), Point: lit(3), Param: "x", T: dpl.Real, Body: vr("x")}, "1e+21.rd[3](x:real. x)"},
		{&dpl.If{Cond: &dpl.BoolLit{B: true}, Then: let, Else: let}, "if true then let x:real = 1 in x else let x:real = 1 in x"},
		{&dpl.Pair{X: let, Y: let}, "<let x:real = 1 in x, let x:real = 1 in x>"},
		{&dpl.Letrec{Name: "f", Param: "x", ParamT: dpl.Real, ResT: dpl.Times(dpl.Real, dpl.Real),
			Fun: &dpl.Pair{X: vr("x"), Y: vr("x")}, Body: &dpl.Call{Name: "f", Arg: lit(1)}},
			"letrec f(x:real):real * real = <x, x> in f(1)"},
		{&dpl.Var{Name: "s#3"}, "s#3"},
		{nil, "<nil>"},
	}
	for _, tt := range tests {
		got := dpl.Format(tt.term)
		if got != tt.want {
			t.Errorf("Format = %s, want %s", got, tt.want)
			continue
		}
		if tt.term == nil {
			continue
		}
		back, err := dpl.ParseGenerated([]byte(got))
		if err != nil || !dpl.AlphaEqual(back, tt.term) {
			t.Errorf("%s parses back as %v (%v)", got, back, err)
		}
	}
}

// TestFormatAnswer: an answer prints as its value, or undefined with its cause.
func TestFormatAnswer(t *testing.T) {
	log, _ := dpl.LookupOperator("log")
	_, err := dpl.Ev(log, lit(-1))
	u, ok := err.(*dpl.Undefined)
	if !ok {
		t.Fatalf("ev(log, -1) = %v, want undefined", err)
	}
	a := dpl.Answer{Undefined: u}
	if a.Observe() != "undefined" || a.String() != "undefined: log(-1)" {
		t.Errorf("answer %q / %q", a.Observe(), a.String())
	}
	v := dpl.Answer{Value: &dpl.Pair{X: lit(3), Y: &dpl.UnitLit{}}}
	if v.Observe() != "<3, ()>" || v.String() != "<3, ()>" {
		t.Errorf("answer %q / %q", v.Observe(), v.String())
	}
}
