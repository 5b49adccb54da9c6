package dpl_test

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/interderive/interderive/dpl"
	"pgregory.net/rapid"
)

// tb is what the helpers need of a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func op(t tb, name string) *dpl.Operator {
	t.Helper()
	o, ok := dpl.LookupOperator(name)
	if !ok {
		t.Fatalf("no operator %s", name)
	}
	return o
}

func pair(a, b dpl.Term) dpl.Term { return &dpl.Pair{X: a, Y: b} }

func ev(t tb, name string, arg dpl.Term) (dpl.Term, error) {
	t.Helper()
	return dpl.Ev(op(t, name), arg)
}

// TestOperatorVectors: the examples of spec §2.
func TestOperatorVectors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := rapid.Float64Range(-100, 100)
		a, b, a1, b1, c := g.Draw(t, "a"), g.Draw(t, "b"), g.Draw(t, "a'"), g.Draw(t, "b'"), g.Draw(t, "c")
		// ev(dprod2, <<a,b>,<a',b'>>) = aa' + bb' (explicit conversions: no fused multiply-add)
		v, err := ev(t, "dprod2", pair(pair(lit(a), lit(b)), pair(lit(a1), lit(b1))))
		if want := float64(a*a1) + float64(b*b1); err != nil || dpl.Format(v) != dpl.FormatReal(want) {
			t.Fatalf("dprod2 = %v (%v), want %v", v, err, want)
		}
		// ev(dprod2_r, <<<a,b>,<a',b'>>, c>) = <<ca', cb'>, <ca, cb>>
		v, err = ev(t, "dprod2_r", pair(pair(pair(lit(a), lit(b)), pair(lit(a1), lit(b1))), lit(c)))
		want := pair(pair(lit(c*a1), lit(c*b1)), pair(lit(c*a), lit(c*b)))
		if err != nil || !dpl.AlphaEqual(v, want) {
			t.Fatalf("dprod2_r = %v (%v), want %s", v, err, dpl.Format(want))
		}
	})
	v, err := ev(t, "mul_rr", pair(pair(pair(lit(2), lit(3)), lit(5)), pair(lit(7), lit(11))))
	if err != nil || dpl.Format(v) != "<<55, 35>, 43>" {
		t.Errorf("mul_rr(<<<2,3>,5>, <7,11>>) = %v (%v), want <<55, 35>, 43>", v, err)
	}
	for _, tt := range []struct{ name, arg, want string }{
		{"mul", "<2, 3>", "6"},
		{"neg", "2", "-2"},
		{"sin", "0", "0"},
		{"cos", "0", "1"},
		{"exp", "0", "1"},
		{"log", "1", "0"},
		{"inv", "4", "0.25"},
		{"sigm", "0", "0.5"},       // 1 / (1 + e^0)
		{"swish", "0", "0"},        // 0 · sigm 0
		{"sigm_r", "<0, 4>", "1"},  // c σ(a)(1 - σ(a)) = 4 · 0.25
		{"swish_r", "<0, 2>", "1"}, // c (σ(a) + a σ(a)(1 - σ(a))) = 2 · 0.5
		{"dprod3", "<<<1, 2>, 3>, <<4, 5>, 6>>", "32"},
		{"mul_r", "<<2, 3>, 5>", "<15, 10>"},   // <c b, c a>
		{"neg_r", "<2, 5>", "-5"},              // -c
		{"sin_r", "<0, 5>", "5"},               // c cos a
		{"cos_r", "<0, 5>", "-0"},              // -c sin a = -(5 · 0)
		{"exp_r", "<0, 5>", "5"},               // c e^a
		{"log_r", "<2, 5>", "2.5"},             // c / a
		{"inv_r", "<2, 5>", "-1.25"},           // -c / a²
		{"sin_rr", "<<0, 2>, 3>", "<-0, 3>"},   // <-3·2·sin 0, 3 cos 0>
		{"log_rr", "<<2, 4>, 1>", "<-1, 0.5>"}, // ∂(c/a)/∂a = -c/a², ∂/∂c = 1/a
		{"dprod2_rr", "<<<<1, 2>, <3, 4>>, 5>, <<1, 0>, <0, 0>>>", "<<<0, 0>, <5, 0>>, 3>"},
	} {
		arg := mustParse(t, tt.arg)
		v, err := ev(t, tt.name, arg)
		if err != nil || dpl.Format(v) != tt.want {
			t.Errorf("%s(%s) = %v (%v), want %s", tt.name, tt.arg, v, err, tt.want)
		}
	}
}

// TestOperatorLookup: the operator names, closed under _r, and their arities.
func TestOperatorLookup(t *testing.T) {
	for _, tt := range []struct{ name, dom, cod string }{
		{"mul", "real * real", "real"},
		{"mul_r", "real * real * real", "real * real"},
		{"mul_rr", "real * real * real * (real * real)", "real * real * real"},
		{"sin_r", "real * real", "real"},
		{"dprod3", "real * real * real * (real * real * real)", "real"},
		// log : real -> real, log_r : real*real -> real, log_rr : (real*real)*real -> real*real
		{"log_rrr", "real * real * real * (real * real)", "real * real * real"},
		{"exp_" + strings.Repeat("r", dpl.MaxOrder), "", ""},
	} {
		o, ok := dpl.LookupOperator(tt.name)
		if !ok {
			t.Errorf("%s is not an operator", tt.name)
			continue
		}
		if tt.dom != "" && (dpl.FormatType(o.Dom) != tt.dom || dpl.FormatType(o.Cod) != tt.cod) {
			t.Errorf("%s : %s -> %s, want %s -> %s", tt.name, o.Dom, o.Cod, tt.dom, tt.cod)
		}
		if o.Name != tt.name {
			t.Errorf("%s is named %s", tt.name, o.Name)
		}
		if again, _ := dpl.LookupOperator(tt.name); again != o {
			t.Errorf("%s: two lookups give two operators", tt.name)
		}
	}
	for _, name := range []string{"add", "dprod0", "dprod01", "dprod101", "mul_", "mul_x", "_r", "f_r",
		"exp_" + strings.Repeat("r", dpl.MaxOrder+1), "lt"} {
		if _, ok := dpl.LookupOperator(name); ok {
			t.Errorf("%s is an operator", name)
		}
	}
	if o := op(t, "mul"); o.R() != op(t, "mul_r") || o.R().R() != op(t, "mul_rr") || o.R().Order() != 1 {
		t.Errorf("R does not give the _r operators")
	}
}

// TestOperatorUndefined: outside their domains, operators and predicates are
// undefined (with a cause), and op_r is undefined exactly where op is.
func TestOperatorUndefined(t *testing.T) {
	for _, tt := range []struct{ name, arg, reason string }{
		{"log", "0", "log needs a > 0"},
		{"log", "-1", "log needs a > 0"},
		{"inv", "0", "inv needs a ≠ 0"},
		{"log_r", "<0, 1>", "log needs a > 0"},
		{"log_r", "<-2, 0>", "log needs a > 0"}, // even against the cotangent 0
		{"inv_r", "<0, 5>", "inv needs a ≠ 0"},
		{"log_rr", "<<0, 1>, 1>", "log needs a > 0"},
		{"exp", "1000", "overflows"},
		{"exp_r", "<1000, 1>", "overflows"},
		{"mul", "<1e300, 1e300>", "overflows"},
	} {
		v, err := ev(t, tt.name, mustParse(t, tt.arg))
		var u *dpl.Undefined
		if !errors.As(err, &u) || !strings.Contains(u.Reason, tt.reason) {
			t.Errorf("%s(%s) = %v (%v), want undefined: %s", tt.name, tt.arg, v, err, tt.reason)
			continue
		}
		if got, want := dpl.Format(u.Redex), tt.name+"("+dpl.Format(mustParse(t, tt.arg))+")"; got != want {
			t.Errorf("cause %s, want %s", got, want)
		}
	}
	for _, tt := range []struct {
		a, b float64
		want string
	}{{1, 2, "true"}, {2, 1, "false"}, {1, 1, "undefined"}, {0, math.Copysign(0, -1), "undefined"}} {
		b, err := dpl.Bev(dpl.Lt, pair(lit(tt.a), lit(tt.b)))
		got := "false"
		if b {
			got = "true"
		}
		var u *dpl.Undefined
		if errors.As(err, &u) {
			got = "undefined"
		}
		if got != tt.want {
			t.Errorf("lt(<%v, %v>) = %s (%v), want %s", tt.a, tt.b, got, err, tt.want)
		}
	}
	if _, err := dpl.AddReals(lit(1e308), lit(1e308)); err == nil {
		t.Errorf("1e308 + 1e308 is defined")
	}
}

// extremes draws reals from a distribution heavy in the edge cases.
func extremes(t *rapid.T, label string) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -1, 5e-324, -5e-324, 1e308, -1e308,
			math.MaxFloat64, -math.MaxFloat64, 710, -746, 1e-300}),
		rapid.Float64Range(-1e6, 1e6),
		rapid.Float64(),
	).Draw(t, label)
}

// value builds a value of type ty from coordinates drawn by next.
func value(ty dpl.Type, next func() float64) dpl.Term {
	switch ty := ty.(type) {
	case *dpl.Prod:
		return &dpl.Pair{X: value(ty.Fst, next), Y: value(ty.Snd, next), T: ty.Fst, U: ty.Snd}
	case dpl.Base:
		if ty == dpl.Unit {
			return &dpl.UnitLit{}
		}
	}
	return lit(next())
}

func coords(v dpl.Term) []float64 {
	switch v := v.(type) {
	case *dpl.RealLit:
		return []float64{v.R}
	case *dpl.Pair:
		return append(coords(v.X), coords(v.Y)...)
	}
	return nil
}

var someOperators = []string{"mul", "neg", "sin", "cos", "exp", "log", "inv", "sigm", "swish", "dprod2",
	"mul_r", "sin_r", "cos_r", "exp_r", "log_r", "inv_r", "sigm_r", "swish_r", "dprod2_r", "mul_rr", "log_rr", "inv_rr", "exp_rr"}

// TestOperatorsNeverNaN: ev gives a value whose coordinates are finite, or undefined;
// never NaN or ±Inf, whatever the argument.
func TestOperatorsNeverNaN(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := op(t, rapid.SampledFrom(someOperators).Draw(t, "op"))
		arg := value(o.Dom, func() float64 { return extremes(t, "x") })
		v, err := dpl.Ev(o, arg)
		var u *dpl.Undefined
		if errors.As(err, &u) {
			return
		}
		if err != nil {
			t.Fatalf("%s(%s): %v", o.Name, dpl.Format(arg), err)
		}
		for _, x := range coords(v) {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("%s(%s) = %s", o.Name, dpl.Format(arg), dpl.Format(v))
			}
		}
		// op_r is undefined exactly where op is, overflow aside.
		if o.Order() == 0 {
			if _, err := dpl.Ev(o.R(), &dpl.Pair{X: arg, Y: value(o.Cod, func() float64 { return 1 })}); errors.As(err, &u) && !strings.Contains(u.Reason, "overflow") {
				t.Fatalf("%s is defined at %s but %s is not: %v", o.Name, dpl.Format(arg), o.R().Name, err)
			}
		}
	})
}

// TestOperatorReverseDerivatives: op_r(<L, M>) is J_op(L)ᵀ·M, compared with central
// differences of L ↦ M · ev(op, L), for the base operators and their first reverse
// derivatives (whose own _r is then checked too).
func TestOperatorReverseDerivatives(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := op(t, rapid.SampledFrom(someOperators[:20]).Draw(t, "op"))
		moderate := rapid.Float64Range(0.1, 3)
		sign := func() float64 { return moderate.Draw(t, "x") * float64(1-2*rapid.IntRange(0, 1).Draw(t, "sign")) }
		l := value(o.Dom, sign)
		if o.Name == "log" || strings.HasPrefix(o.Name, "log_") { // keep log's argument positive
			xs := coords(l)
			xs[0] = math.Abs(xs[0])
			i := 0
			l = value(o.Dom, func() float64 { i++; return xs[i-1] })
		}
		m := value(o.Cod, sign)
		r, err := dpl.Ev(o.R(), &dpl.Pair{X: l, Y: m})
		if err != nil {
			t.Fatalf("%s(<%s, %s>): %v", o.R().Name, dpl.Format(l), dpl.Format(m), err)
		}
		dot := func(l dpl.Term) float64 {
			v, err := dpl.Ev(o, l)
			if err != nil {
				t.Fatalf("%s(%s): %v", o.Name, dpl.Format(l), err)
			}
			s := 0.0
			for i, y := range coords(v) {
				s += y * coords(m)[i]
			}
			return s
		}
		xs, grad := coords(l), coords(r)
		for i := range xs {
			h := 1e-6
			at := func(d float64) dpl.Term {
				j := 0
				return value(o.Dom, func() float64 {
					j++
					if j-1 == i {
						return xs[j-1] + d
					}
					return xs[j-1]
				})
			}
			fd := (dot(at(h)) - dot(at(-h))) / (2 * h)
			if math.Abs(fd-grad[i]) > 1e-5*math.Max(1, math.Abs(grad[i])) {
				t.Fatalf("%s(<%s, %s>) coordinate %d = %v, finite differences %v", o.R().Name, dpl.Format(l), dpl.Format(m), i, grad[i], fd)
			}
		}
	})
}

// TestOperatorConcurrentR: derived operators are built once, safely, under
// concurrent lookups.
func TestOperatorConcurrentR(t *testing.T) {
	var wg sync.WaitGroup
	ops := make([]*dpl.Operator, 16)
	for i := range ops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ops[i], _ = dpl.LookupOperator("cos_rrrr")
		}()
	}
	wg.Wait()
	for _, o := range ops {
		if o == nil || o != ops[0] {
			t.Fatalf("concurrent lookups gave different operators")
		}
	}
}
