package dpl_test

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// gammaOf types variables by a table.
func gammaOf(types map[string]dpl.Type) dpl.TypeEnv {
	return func(x string) (dpl.Type, bool) {
		ty, ok := types[x]
		return ty, ok
	}
}

// trace parses and elaborates a trace term over the typed variables.
func trace(t tb, types map[string]dpl.Type, src string) dpl.Term {
	t.Helper()
	p, err := dpl.ParseGenerated([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	c, _, err := dpl.CheckIn(gammaOf(types), p)
	if err != nil {
		t.Fatalf("check %q: %v", src, err)
	}
	return c
}

// rInputs are the arguments of R for a clause test: W and V parsed, and C traced over
// the variables vars and x:ty.
func rInputs(t testing.TB, vars map[string]dpl.Type, x string, ty dpl.Type, w, v, c string) (dpl.Term, dpl.Term, dpl.Term) {
	t.Helper()
	types := maps.Clone(vars)
	types[x] = ty
	return mustParse(t, w), mustParse(t, v), trace(t, types, c)
}

// evaluate runs a closed term (a derivative) on the reduction semantics.
func evaluate(t tb, c dpl.Term) dpl.Answer {
	t.Helper()
	a, err := reduction.EvalDiff(dpl.Pruned, c, interderive.Options{Fuel: 1_000_000})
	if err != nil {
		t.Fatalf("evaluating %s: %v", dpl.Format(c), err)
	}
	return a
}

var (
	real2 = dpl.Times(dpl.Real, dpl.Real)
	vars  = map[string]dpl.Type{"x": dpl.Real, "y": dpl.Real, "v": dpl.Real, "w": dpl.Real,
		"p": real2, "wp": real2, "q": real2}
)

// TestFigure6 checks each clause of Figure 6 (spec §4) on its smallest instance,
// against the right-hand side written out by hand (compared up to α-renaming), with W
// and V variables to show where they go.
func TestFigure6(t *testing.T) {
	tests := []struct {
		clause  string
		w, v, x string
		ty      dpl.Type
		c       string
		want    string
		pruned  string // pruned's result, when it differs
	}{
		// W.R_V(x:T. y) = W if y = x, else 0_T
		{"var/x", "w", "v", "x", dpl.Real, "x", "w", ""},
		{"var/y", "w", "v", "x", dpl.Real, "y", "0", ""},
		{"var/y at a pair type", "w", "p", "q", real2, "y", "<0, 0>", ""},
		// W.R_V(x:T. r) = 0_T
		{"const", "w", "v", "x", dpl.Real, "3", "0", ""},
		// W.R_V(x:T. ()) = 0_T
		{"unit", "()", "v", "x", dpl.Real, "()", "0", ""},
		// W.R_V(x:T. D + E) = W.R_V(x:T. D) +_T W.R_V(x:T. E)
		{"plus", "w", "v", "x", dpl.Real, "x + y", "w + 0", ""},
		{"plus/constant", "w", "v", "x", dpl.Real, "3 + y", "0 + 0", "let z:real = 3 + y in 0"},
		// +_T at a pair type: componentwise through let-tuples.
		{"plus at a pair type", "w", "p", "q", real2, "fst(q) + snd(q)",
			"let a:real*real = (let q:real*real = p in let y:real*real = q in <w, 0>) in " +
				"let a1:real = fst(a) in let a2:real = snd(a) in " +
				"let b:real*real = (let q:real*real = p in let y:real*real = q in <0, w>) in " +
				"let b1:real = fst(b) in let b2:real = snd(b) in <a1 + b1, a2 + b2>", ""},
		// W.R_V(x:T. op(D)) = let x:T = V in let y:S = op_r(<D, W>) in y.R_V(x:T. D)
		{"op", "w", "v", "x", dpl.Real, "sin(x)", "let x:real = v in let y:real = sin_r(<x, w>) in y", ""},
		{"op/constant", "w", "v", "x", dpl.Real, "sin(y)", "let x:real = v in let a:real = sin_r(<y, w>) in 0",
			"let z:real = sin(y) in 0"},
		// W.R_V(x:T. let y:S = D in E) = let x:T = V in let y:S = D in
		//   W.R_V(x:T. E) +_T (let ȳ:S = W.R_y(y':S. E[y'/y]) in ȳ.R_V(x:T. D))
		{"let", "w", "v", "x", dpl.Real, "let a:real = x in a",
			"let x:real = v in let a:real = x in 0 + (let abar:real = w in abar)", ""},
		{"let/shadowing", "w", "v", "x", dpl.Real, "let x:real = x in x",
			"let x:real = v in let a:real = x in 0 + (let abar:real = w in abar)", ""},
		// W.R_V(x:T. <D, E>_{U,S}) = let <y:U, z:S> = W in y.R_V(x:T. D) +_T z.R_V(x:T. E)
		{"pair", "wp", "v", "x", dpl.Real, "<x, 3>",
			"let t:real*real = wp in let a:real = fst(t) in let b:real = snd(t) in a + 0", ""},
		// W.R_V(x:T. fst_{U,S}(D)) = let x:T = V in let y:U*S = D in <W, 0_S>.R_V(x:T. D)
		{"fst", "w", "p", "q", real2, "fst(q)", "let q:real*real = p in let a:real*real = q in <w, 0>", ""},
		// W.R_V(x:T. snd_{U,S}(D)) = let x:T = V in let y:U*S = D in <0_U, W>.R_V(x:T. D)
		{"snd", "w", "p", "q", real2, "snd(q)", "let q:real*real = p in let a:real*real = q in <0, w>", ""},
	}
	for _, tt := range tests {
		t.Run(tt.clause, func(t *testing.T) {
			w, v, c := rInputs(t, vars, tt.x, tt.ty, tt.w, tt.v, tt.c)
			for _, ad := range dpl.Figure6Strategies() {
				want := tt.want
				if ad == dpl.Pruned && tt.pruned != "" {
					want = tt.pruned
				}
				got, err := ad.R(dpl.DiffEnv{Types: gammaOf(vars)}, w, v, tt.x, tt.ty, c)
				if err != nil {
					t.Fatalf("%s: %v", ad.Name(), err)
				}
				if !dpl.AlphaEqual(got, mustParseGenerated(t, want)) {
					t.Errorf("%s: %s.R_%s(%s. %s) = %s, want %s", ad.Name(), tt.w, tt.v, tt.x, tt.c, dpl.Format(got), want)
				}
			}
		})
	}
}

// TestFigure6Sizes: Figure 6 read literally differentiates E twice in the let clause,
// so for let y_i = y_(i-1) * x chains the derivative grows as the spec measured (spec
// §4: 31, 91, 451, 1891, 7651, 30691, 122851, 491491 nodes for k = 1, 2, 4, ..., 14).
// pruned stays polynomial on the same chains.
func TestFigure6Sizes(t *testing.T) {
	want := map[int]int{1: 31, 2: 91, 4: 451, 6: 1891, 8: 7651, 10: 30691, 12: 122851, 14: 491491}
	for k := 1; k <= 14; k++ {
		src, prev := "", "x"
		for i := 1; i <= k; i++ {
			src += fmt.Sprintf("let y%d:real = %s * x in ", i, prev)
			prev = fmt.Sprintf("y%d", i)
		}
		c := trace(t, vars, src+prev)
		d, err := dpl.Figure6.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, c)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := want[k]; ok && treeSize(d) != n {
			t.Errorf("k = %d: %d nodes, want %d", k, treeSize(d), n)
		}
		p, err := dpl.Pruned.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, c)
		if err != nil {
			t.Fatal(err)
		}
		if n := treeSize(p); n > 100*k*k {
			t.Errorf("k = %d: pruned derivative of %d nodes", k, n)
		}
		if k <= 6 { // x^(k+1): (k+1) 2^k at 2
			for _, d := range []dpl.Term{d, p} {
				if a := evaluate(t, d); a.Observe() != dpl.FormatReal(float64(k+1)*math.Pow(2, float64(k))) {
					t.Errorf("k = %d: derivative %s", k, a)
				}
			}
		}
	}
}

// treeSize counts the nodes of a term as a tree (shared subterms once per occurrence).
func treeSize(t dpl.Term) int {
	n := 1
	for _, c := range dpl.Children(t) {
		n += treeSize(c)
	}
	return n
}

// redexCount counts the redex occurrences (+, op, let, fst, snd) of a trace term.
func redexCount(t dpl.Term) int {
	n := 0
	switch t.(type) {
	case *dpl.Plus, *dpl.OpApp, *dpl.Let, *dpl.Fst, *dpl.Snd:
		n = 1
	}
	for _, c := range dpl.Children(t) {
		n += redexCount(c)
	}
	return n
}

// TestDiffCapture: the differentiation binder is renamed away from FV(V, W) (spec §6:
// let x = 3 in x.rd[2](x. x * x) is 12; capturing the cotangent gives 8), and traces
// that rebind variables (let x = x) are renamed apart.
func TestDiffCapture(t *testing.T) {
	for _, ad := range dpl.Differentiators() {
		c := trace(t, vars, "x * x")
		d, err := ad.R(dpl.DiffEnv{Types: gammaOf(vars)}, vr("x"), lit(2), "x", dpl.Real, c)
		if err != nil {
			t.Fatal(err)
		}
		if a := evaluate(t, &dpl.Let{Name: "x", T: dpl.Real, Bound: lit(3), Body: d}); a.Observe() != "12" {
			t.Errorf("%s: %s at x = 3 is %s, want 12", ad.Name(), dpl.Format(d), a)
		}
		// The point may mention x too: x.R_x(x. x * x) at x = 3 is 3 * 2 * 3 = 18.
		d, err = ad.R(dpl.DiffEnv{Types: gammaOf(vars)}, vr("x"), vr("x"), "x", dpl.Real, c)
		if err != nil {
			t.Fatal(err)
		}
		if a := evaluate(t, &dpl.Let{Name: "x", T: dpl.Real, Bound: lit(3), Body: d}); a.Observe() != "18" {
			t.Errorf("%s: %s at x = 3 is %s, want 18", ad.Name(), dpl.Format(d), a)
		}
		// let x = x in let x = x * x in x * x is x^4: 4 * 2^3 = 32 at 2.
		c = trace(t, vars, "let x:real = x in let x:real = x * x in x * x")
		d, err = ad.R(dpl.DiffEnv{Types: gammaOf(vars)}, lit(1), lit(2), "x", dpl.Real, c)
		if err != nil {
			t.Fatal(err)
		}
		if a := evaluate(t, d); a.Observe() != "32" {
			t.Errorf("%s: %s is %s, want 32", ad.Name(), dpl.Format(d), a)
		}
	}
}

// TestDiffBudget: a strategy counts the redexes of the derivative term exactly: with a
// budget of that many it succeeds, with one less it stops; and evaluating the
// derivative contracts each of them once.
func TestDiffBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ad := rapid.SampledFrom(dpl.Differentiators()).Draw(t, "ad")
		ty, u := dplgen.Type(t, "T"), dplgen.Type(t, "U")
		g := dplgen.New(t, dplgen.Config{Depth: 3, Trace: true})
		c := dplgen.Elaborate(t, gammaOf(map[string]dpl.Type{"x": ty}), g.Term(dplgen.Scope{}.Bind("x", ty), u, 3))
		w, v := dplgen.Value(t, u, "W"), dplgen.Value(t, ty, "V")
		d, err := ad.R(dpl.DiffEnv{}, w, v, "x", ty, c)
		if err != nil {
			t.Fatalf("%v", err)
		}
		n := redexCount(d)
		if _, err := ad.R(dpl.DiffEnv{Budget: n}, w, v, "x", ty, c); err != nil && n > 0 {
			t.Fatalf("budget %d: %v", n, err)
		}
		if n > 1 {
			if _, err := ad.R(dpl.DiffEnv{Budget: n - 1}, w, v, "x", ty, c); !errors.Is(err, dpl.ErrOverBudget) {
				t.Fatalf("budget %d for %d redexes: %v", n-1, n, err)
			}
			// Derive: with the fuel a run has left one short of the redexes, the run
			// is out of fuel, after the contractions it has made (7, say).
			var fe *interderive.FuelError
			if _, err := dpl.Derive(ad, dpl.DiffEnv{Budget: n - 1}, 7, w, v, "x", ty, c); !errors.As(err, &fe) || fe.Steps != 7 {
				t.Fatalf("Derive with %d fuel for %d redexes: %v", n-1, n, err)
			}
		}
		if der, err := dpl.Derive(ad, dpl.DiffEnv{Budget: n}, 7, w, v, "x", ty, c); err != nil || dpl.Format(der) != dpl.Format(d) {
			t.Fatalf("Derive with %d fuel for %d redexes: %v, %v", n, n, der, err)
		}
		steps := 0
		a, err := reduction.EvalDiff(dpl.Pruned, d, interderive.Options{OnContract: func(string) { steps++ }})
		if err == nil && a.Value != nil && steps != n {
			t.Fatalf("%d contractions for %d redexes\n%s", steps, n, dpl.Format(d))
		}
	})
}

// TestDiffRandomTraces checks the strategies on random trace terms x:T ⊢ C : U at
// random points V and cotangents W:
//   - Proposition 3.3: W.R_V(x:T. C) has type T;
//   - figure6 and pruned agree: same definedness, values to a relative 1e-12;
//   - the derivative is J(V)ᵀ·W: its coordinate i is the derivative of W · C at V
//     along coordinate i, compared with central differences.
func TestDiffRandomTraces(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty, u := dplgen.Type(t, "T"), dplgen.Type(t, "U")
		g := dplgen.New(t, dplgen.Config{Depth: 3, Trace: true, Partial: true})
		c := dplgen.Elaborate(t, gammaOf(map[string]dpl.Type{"x": ty}), g.Term(dplgen.Scope{}.Bind("x", ty), u, 3))
		w, v := dplgen.Value(t, u, "W"), dplgen.Value(t, ty, "V")
		var answers []dpl.Answer
		for _, ad := range dpl.Differentiators() {
			d, err := ad.R(dpl.DiffEnv{}, w, v, "x", ty, c)
			if err != nil {
				t.Fatalf("%s: %v", ad.Name(), err)
			}
			if _, got, err := dpl.CheckIn(nil, d); err != nil || !dpl.Equal(got, ty) {
				t.Fatalf("%s: the derivative has type %v (%v), want %s\n%s", ad.Name(), got, err, dpl.FormatType(ty), dpl.Format(d))
			}
			answers = append(answers, evaluate(t, d))
		}
		a, b := answers[0], answers[1]
		if (a.Value == nil) != (b.Value == nil) || a.Value != nil && !closeValues(a.Value, b.Value, 1e-12) {
			t.Fatalf("pruned: %s, figure6: %s\nC = %s", a, b, dpl.Format(c))
		}
		if a.Value == nil {
			return
		}
		// W · C(V + h e_i), central differences.
		at := func(i int, h float64) (float64, bool) {
			xs := coords(v)
			j := 0
			p := value(ty, func() float64 { j++; return xs[j-1] })
			if i >= 0 {
				xs[i] += h
				j = 0
				p = value(ty, func() float64 { j++; return xs[j-1] })
			}
			r := evaluate(t, &dpl.Let{Name: "x", T: ty, Bound: p, Body: c})
			if r.Value == nil {
				return 0, false
			}
			s := 0.0
			for k, y := range coords(r.Value) {
				s += y * coords(w)[k]
			}
			return s, true
		}
		grad := coords(a.Value)
		f0, ok := at(-1, 0)
		if !ok {
			t.Fatalf("C is undefined at V, but its derivative is %s", a)
		}
		for i := range grad {
			agrees := false
			for _, h := range []float64{1e-5, 1e-7, 1e-3} {
				fp, ok1 := at(i, h)
				fm, ok2 := at(i, -h)
				if !ok1 || !ok2 {
					agrees = true // undefined near V: not judged
					break
				}
				if fd := (fp - fm) / (2 * h); math.Abs(fd-grad[i]) <= 1e-4*math.Max(1, math.Max(math.Abs(grad[i]), math.Abs(f0))) {
					agrees = true
					break
				}
			}
			if !agrees {
				t.Fatalf("coordinate %d of W.R_V(x. C) is %v; finite differences disagree\nC = %s", i, grad[i], dpl.Format(c))
			}
		}
	})
}

// closeValues compares two values coordinate by coordinate to a relative tolerance.
func closeValues(a, b dpl.Term, tol float64) bool {
	xs, ys := coords(a), coords(b)
	if len(xs) != len(ys) || dpl.Format(value(typeOf(a), func() float64 { return 0 })) != dpl.Format(value(typeOf(b), func() float64 { return 0 })) {
		return false
	}
	for i := range xs {
		if math.Abs(xs[i]-ys[i]) > tol*math.Max(1, math.Max(math.Abs(xs[i]), math.Abs(ys[i]))) {
			return false
		}
	}
	return true
}

func typeOf(v dpl.Term) dpl.Type {
	ty, _ := dpl.TypeOfValue(v)
	return ty
}

func TestDifferentiatorsByName(t *testing.T) {
	var names []string
	for _, d := range dpl.Differentiators() {
		names = append(names, d.Name())
		if got, ok := dpl.LookupDifferentiator(d.Name()); !ok || got != d {
			t.Errorf("LookupDifferentiator(%s) = %v", d.Name(), got)
		}
	}
	if strings.Join(names, " ") != "tape pruned figure6" {
		t.Errorf("strategies %v, want tape (the default, spec §4), pruned, figure6", names)
	}
	if _, ok := dpl.LookupDifferentiator("forward"); ok {
		t.Errorf("an unknown strategy was found")
	}
	// Not a trace term: an error, not a panic.
	if _, err := dpl.Pruned.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, mustParse(t, "if true then x else x")); err == nil {
		t.Errorf("differentiating an if succeeded")
	}
	// Too deep: a depth error.
	var c dpl.Term = vr("x")
	for range 3 * dpl.MaxDepth {
		c = &dpl.Plus{X: c, Y: lit(1)}
	}
	if _, err := dpl.Figure6.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, c); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("differentiating a deep term: %v, want too deep", err)
	}
}
