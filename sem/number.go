package sem

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/interderive/interderive"
)

// Racket's numbers, as Redex's number pattern has them: an atom type and its
// arithmetic, among the default hooks, so that a model that divides or takes square
// roots (redex-examples' arithmetic.rkt) runs as Racket computes it.

// NumberAtom is Racket's real numbers: exact rationals, written 3, -2, 1/2 (a
// *big.Rat), and inexact reals, written with a point or an exponent, 1.5, 2.0 (a
// float64). An integer literal is a number in a sort that has numbers and no
// integers. Two numbers are equal as Racket's equal? says: of one exactness and one
// value (1 is not 1.0).
var NumberAtom = &AtomType{Name: "number", Doc: "Racket's numbers: exact rationals 3, 1/2, inexact reals 1.5",
	Read: func(s string, quoted bool) (any, bool) {
		if quoted {
			return nil, false
		}
		if exactLiteral.MatchString(s) {
			r, ok := new(big.Rat).SetString(s)
			return r, ok
		}
		if !strings.ContainsAny(s, ".eE") || strings.ContainsAny(s, "xXpP_") {
			return nil, false
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return f, true
	},
	Format: formatNumber,
	Equal: func(a, b any) bool {
		switch x := a.(type) {
		case *big.Rat:
			y, ok := b.(*big.Rat)
			return ok && x.Cmp(y) == 0
		case float64:
			y, ok := b.(float64)
			return ok && x == y
		}
		return false
	},
	Samples: []any{new(big.Rat), big.NewRat(1, 2)},
}

// exactLiteral is an exact number's literal: an integer, or a fraction of two.
var exactLiteral = regexp.MustCompile(`^[+-]?[0-9]+(/[0-9]+)?$`)

// formatNumber writes a number as Racket does: an exact one as an integer or a
// fraction in lowest terms, an inexact one with a point (2.0), so that it reads back
// as itself.
func formatNumber(v any) string {
	switch x := v.(type) {
	case *big.Rat:
		return x.RatString()
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return s
	}
	return fmt.Sprint(v)
}

// numberHooks are the default hooks on NumberAtom: Racket's +, -, *, / and sqrt of
// two numbers (one for sqrt). Exact in, exact out, except a square root that is not
// rational (inexact, as Racket's); an inexact operand makes the result inexact.
// Division by an exact zero (Racket's exception), the square root of a negative number
// (a complex number in Racket) and an inexact result that is infinite or not a number
// (+inf.0, +nan.0), which the atom does not hold, are the program's run-time errors.
var numberHooks = []*GoFunc{
	numberOp("number-add", "Racket's + of two numbers", func(a, b *big.Rat) (*big.Rat, error) { return new(big.Rat).Add(a, b), nil }, func(a, b float64) float64 { return a + b }),
	numberOp("number-sub", "Racket's - of two numbers", func(a, b *big.Rat) (*big.Rat, error) { return new(big.Rat).Sub(a, b), nil }, func(a, b float64) float64 { return a - b }),
	numberOp("number-mul", "Racket's * of two numbers", func(a, b *big.Rat) (*big.Rat, error) { return new(big.Rat).Mul(a, b), nil }, func(a, b float64) float64 { return a * b }),
	numberOp("number-div", "Racket's / of two numbers", func(a, b *big.Rat) (*big.Rat, error) {
		return new(big.Rat).Quo(a, b), nil // b is not zero: numberOp checks
	}, func(a, b float64) float64 { return a / b }),
	{Name: "number-sqrt", Arity: 1, Doc: "Racket's sqrt of a number", Call: func(l *Language, args []*Term) (*Term, error) {
		x, ok := numberOf(args[0])
		if !ok {
			return nil, fmt.Errorf("sqrt of %s, not a number", Format(args[0]))
		}
		switch v := x.(type) {
		case *big.Rat:
			if v.Sign() < 0 {
				return nil, interderive.Runtime(args[0].P, "(sqrt "+v.RatString()+")", "sqrt of a negative number: a complex number, which the number atom does not hold")
			}
			if r, exact := ratSqrt(v); exact {
				return AtomOf(args[0].P, NumberAtom, r), nil
			}
			f, _ := v.Float64()
			return AtomOf(args[0].P, NumberAtom, math.Sqrt(f)), nil
		case float64:
			if v < 0 {
				return nil, interderive.Runtime(args[0].P, "(sqrt "+formatNumber(v)+")", "sqrt of a negative number: a complex number, which the number atom does not hold")
			}
			return AtomOf(args[0].P, NumberAtom, math.Sqrt(v)), nil
		}
		return nil, fmt.Errorf("sqrt of %s, not a number", Format(args[0]))
	}},
}

// racketSpecial writes an infinity or a NaN as Racket does.
func racketSpecial(f float64) string {
	switch {
	case math.IsNaN(f):
		return "+nan.0"
	case f > 0:
		return "+inf.0"
	}
	return "-inf.0"
}

// numberOp is a hook on two numbers: exact computes it on two exact ones, inexact
// otherwise.
func numberOp(name, doc string, exact func(a, b *big.Rat) (*big.Rat, error), inexact func(a, b float64) float64) *GoFunc {
	return &GoFunc{Name: name, Arity: 2, Doc: doc, Call: func(l *Language, args []*Term) (*Term, error) {
		x, ok1 := numberOf(args[0])
		y, ok2 := numberOf(args[1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s of %s and %s, not two numbers", name, Format(args[0]), Format(args[1]))
		}
		a, aExact := x.(*big.Rat)
		b, bExact := y.(*big.Rat)
		call := "(" + name + " " + formatNumber(x) + " " + formatNumber(y) + ")"
		if name == "number-div" && bExact && b.Sign() == 0 {
			return nil, interderive.Runtime(args[0].P, call, "/: division by zero") // an exact zero, whatever the dividend
		}
		if aExact && bExact {
			r, err := exact(a, b)
			if err != nil {
				return nil, err
			}
			return AtomOf(args[0].P, NumberAtom, r), nil
		}
		r := inexact(toFloat(x), toFloat(y))
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, interderive.Runtime(args[0].P, call, "the result is "+racketSpecial(r)+", which the number atom does not hold")
		}
		return AtomOf(args[0].P, NumberAtom, r), nil
	}}
}

// numberOf is the value of a number atom.
func numberOf(t *Term) (any, bool) {
	a := atomValue(View(t))
	if a == nil || a.Atom != NumberAtom {
		return nil, false
	}
	return a.Val, true
}

// toFloat is a number as a float64.
func toFloat(v any) float64 {
	if r, ok := v.(*big.Rat); ok {
		f, _ := r.Float64()
		return f
	}
	return v.(float64)
}

// ratSqrt is the square root of a non-negative rational when it is rational: of its
// numerator and denominator, each a perfect square.
func ratSqrt(r *big.Rat) (*big.Rat, bool) {
	n, d := new(big.Int).Sqrt(r.Num()), new(big.Int).Sqrt(r.Denom())
	if new(big.Int).Mul(n, n).Cmp(r.Num()) != 0 || new(big.Int).Mul(d, d).Cmp(r.Denom()) != 0 {
		return nil, false
	}
	return new(big.Rat).SetFrac(n, d), true
}
