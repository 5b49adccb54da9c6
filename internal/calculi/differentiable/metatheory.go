package differentiable

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// The metatheory of the differentiable language, as functions of their inputs, for the
// properties that fuzz and the tests check: Proposition 3.5 and the adequacy of the
// derivative (Theorems 6.1, 6.2). Each returns nil when the property holds, or when
// the run it judges ended without an answer for a reason it does not judge.

// Inconclusive reports whether a differentiable program's run ended without an answer
// for a reason the properties do not judge: fuel, or a strategy's budget.
func Inconclusive(err error) bool {
	return errors.Is(err, interderive.ErrOutOfFuel) || errors.Is(err, dpl.ErrOverBudget)
}

// SameDPLAnswer reports whether two answers are the same: both undefined at the same
// redex, or the same value, its reals compared by their bits (up to α-renaming).
func SameDPLAnswer(a, b dpl.Answer) bool {
	if (a.Undefined == nil) != (b.Undefined == nil) {
		return false
	}
	if a.Undefined != nil {
		return dpl.AlphaEqual(a.Undefined.Redex, b.Undefined.Redex)
	}
	return a.Value == nil && b.Value == nil || a.Value != nil && b.Value != nil && dpl.AlphaEqual(a.Value, b.Value)
}

// Interpolation is Proposition 3.5 of Abadi & Plotkin: M ⇒ V iff M ⇝ C and C ⇒ V for
// some trace term C. Both computations perform the same floating-point operations, so
// V is the same to the bit. prog is a closed, elaborated, well-typed program, run on
// the reduction semantics under ad with the given fuel (for each of the three runs).
func Interpolation(ad dpl.Differentiator, prog dpl.Term, fuel int) error {
	opts := interderive.Options{Fuel: fuel}
	a, err := reduction.EvalDiff(ad, prog, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: M ⇒ fails: %v", ad.Name(), err)
	}
	c, undef, err := reduction.TraceDiff(ad, nil, prog, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: M ⇝ fails: %v", ad.Name(), err)
	}
	if undef != nil {
		if a.Undefined == nil {
			return fmt.Errorf("%s: M ⇒ %s, but M ⇝ is undefined (%v) (Proposition 3.5)", ad.Name(), a, undef)
		}
		return nil
	}
	if !dpl.IsTrace(c) {
		return fmt.Errorf("%s: M ⇝ %s, which is not a trace term (Proposition 3.5)", ad.Name(), dpl.Format(c))
	}
	b, err := reduction.EvalDiff(ad, c, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil || !SameDPLAnswer(a, b) {
		return fmt.Errorf("%s: M ⇒ %s, but M ⇝ C and C ⇒ %s (%v), with C = %s (Proposition 3.5)", ad.Name(), a, b, err, dpl.Format(c))
	}
	return nil
}

// FiniteDifferences is the adequacy of the derivative (Abadi & Plotkin, Theorems 6.1
// and 6.2): the derivative the operational semantics computes is the true derivative.
// body is an elaborated term of type real whose only free variable is x : ty (ty made
// of real, unit and products), and point a closed value of type ty. The derivative
// 1.rd[point](x:ty. body), computed under ad on the reduction semantics, is compared,
// coordinate by coordinate, with the central difference (f(a + h) - f(a - h)) / 2h of
// f = x ↦ body, evaluated as let x = a ± h in body, at several steps h: one of them must
// agree to a relative 1e-4. Points where f is undefined or not smooth nearby (the trace
// of body, which fixes the branches taken, differs at a ± h) are not judged.
func FiniteDifferences(ad dpl.Differentiator, body dpl.Term, ty dpl.Type, point dpl.Term, fuel int) error {
	grad := GradientCase{Body: body, T: ty, Point: point}.Program()
	d, err := reduction.EvalDiff(ad, grad, interderive.Options{Fuel: fuel})
	if Inconclusive(err) || err == nil && d.Undefined != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", ad.Name(), err)
	}
	at := coordinates(point)
	ds := coordinates(d.Value)
	if len(ds) != len(at) {
		return fmt.Errorf("%s: the derivative %s does not have the shape of the point %s", ad.Name(), dpl.Format(d.Value), dpl.Format(point))
	}
	for i := range at {
		if ok, seen := finiteDifferenceAgrees(ad, body, ty, at, i, ds[i], fuel); !ok {
			return fmt.Errorf("%s: coordinate %d of the derivative is %v, but central differences give %s (Theorems 6.1, 6.2)",
				ad.Name(), i+1, ds[i], strings.Join(seen, ", "))
		}
	}
	return nil
}

// coordinates lists the reals of a value, left to right.
func coordinates(v dpl.Term) []float64 {
	switch v := v.(type) {
	case *dpl.RealLit:
		return []float64{v.R}
	case *dpl.Pair:
		return append(coordinates(v.X), coordinates(v.Y)...)
	}
	return nil
}

// pointAt builds the value of type ty whose coordinates are xs: coordinates' inverse.
func pointAt(ty dpl.Type, xs []float64) dpl.Term {
	var build func(ty dpl.Type) dpl.Term
	build = func(ty dpl.Type) dpl.Term {
		switch ty := ty.(type) {
		case *dpl.Prod:
			return &dpl.Pair{X: build(ty.Fst), Y: build(ty.Snd), T: ty.Fst, U: ty.Snd}
		case dpl.Base:
			if ty == dpl.Unit {
				return &dpl.UnitLit{}
			}
		}
		r := &dpl.RealLit{R: xs[0]}
		xs = xs[1:]
		return r
	}
	return build(ty)
}

// finiteDifferenceAgrees compares d with central differences of x ↦ body along
// coordinate i, at several step sizes: one of them must agree to a relative 1e-4,
// where the body is defined and traces the same way on the whole stencil. It also
// returns the differences it judged, for the report.
func finiteDifferenceAgrees(ad dpl.Differentiator, body dpl.Term, ty dpl.Type, at []float64, i int, d float64, fuel int) (bool, []string) {
	opts := interderive.Options{Fuel: fuel}
	eval := func(xs []float64) (float64, dpl.Term, bool) {
		p := pointAt(ty, xs)
		a, err := reduction.EvalDiff(ad, &dpl.Let{Name: "x", T: ty, Bound: p, Body: body}, opts)
		if err != nil || a.Value == nil {
			return 0, nil, false
		}
		r, ok := a.Value.(*dpl.RealLit)
		if !ok {
			return 0, nil, false
		}
		c, undef, err := reduction.TraceDiff(ad, map[string]dpl.Term{"x": p}, body, opts)
		if err != nil || undef != nil {
			return 0, nil, false
		}
		return r.R, c, true
	}
	f0, c0, ok := eval(at)
	if !ok {
		return true, nil
	}
	var seen []string
	for _, h := range []float64{1e-4, 1e-6, 1e-7, 1e-3} {
		h *= math.Max(1, math.Abs(at[i]))
		plus, minus := slices.Clone(at), slices.Clone(at)
		plus[i] += h
		minus[i] -= h
		fp, cp, ok1 := eval(plus)
		fm, cm, ok2 := eval(minus)
		if !ok1 || !ok2 || !dpl.AlphaEqual(cp, c0) || !dpl.AlphaEqual(cm, c0) {
			continue // undefined or not the same smooth piece on the stencil
		}
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-d) <= 1e-4*math.Max(1, math.Max(math.Abs(d), math.Abs(f0))) {
			return true, nil
		}
		seen = append(seen, fmt.Sprintf("%v (h = %v)", fd, h))
	}
	return len(seen) == 0, seen
}

// A GradientCase is an input of FiniteDifferences: a body of type real over x : T,
// and a point of type T.
type GradientCase struct {
	Body  dpl.Term
	T     dpl.Type
	Point dpl.Term
}

// Program is the derivative FiniteDifferences judges, 1.rd[Point](x:T. Body): a
// closed program, for a counterexample file.
func (c GradientCase) Program() dpl.Term {
	return &dpl.Rd{Cotangent: &dpl.RealLit{R: 1}, Point: c.Point, Param: "x", T: c.T, Body: c.Body}
}

// DrawGradientCase draws a GradientCase: x is real or real*real (coordinate by
// coordinate), the body a term of the given depth with every construct (dplgen.Full)
// in which x occurs free (when ten draws manage it), the point small and mostly whole.
func DrawGradientCase(t *rapid.T, depth int) GradientCase {
	cfg := dplgen.Full(depth)
	ty := dpl.Type(dpl.Real)
	if rapid.Bool().Draw(t, "pair-point") {
		ty = dpl.Times(dpl.Real, dpl.Real)
	}
	gen := dplgen.New(t, cfg)
	sc := dplgen.Scope{}.Bind("x", ty)
	gamma := func(x string) (dpl.Type, bool) {
		if x == "x" {
			return ty, true
		}
		return nil, false
	}
	var body dpl.Term
	for try := 0; try < 10 && (body == nil || !dpl.OccursFree("x", body)); try++ {
		body = dplgen.Elaborate(t, gamma, gen.Term(sc, dpl.Real, cfg.Depth))
	}
	return GradientCase{Body: body, T: ty, Point: dplgen.Value(t, ty, "point")}
}
