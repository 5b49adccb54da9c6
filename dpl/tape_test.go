package dpl_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// TestTapeVectors runs the test vectors of spec §6 with the tape strategy (on the
// reference semantics), with the values the spec states; and the causes of
// undefinedness of an rd whose body is an operator outside its domain are Figure 6's:
// the tape does not evaluate op(D) when nothing needs its value, only op_r(<D, W>).
func TestTapeVectors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", "1"},
		{"letrec f(x:real):real = 1.rd[1](y:real. x + y) in 1.rd[1](x:real. x + f(x))", "1"},
		{"1.rd[-1](x:real. if x <. 0 then 0 else x)", "0"},
		{"1.rd[2](x:real. if x <. 0 then 0 else x)", "1"},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "undefined: lt(<0, 0>)"},
		{"1.rd[2](x:real. 1.rd[x](y:real. y * y * y))", "12"},
		{"1.rd[<2, 3>](z:real*real. fst(z) * snd(z))", "<3, 2>"},
		{"1.rd[3](x:real. let y:real = x * x in y * y)", "108"},
		{"let x:real = 3 in x.rd[2](x:real. x * x)", "12"},
		{"1.rd[2](x:real. log(x))", "0.5"},
		// 1.R_-1(x. log(x)) = let x = -1 in let g = log_r(<x, 1>) in g.
		{"1.rd[-1](x:real. log(x))", "undefined: log_r(<-1, 1>)"},
		{"1.rd[0](x:real. inv(x))", "undefined: inv_r(<0, 1>)"},
		{"1.fd[3](x:real. x * x)", "6"},
		{"1.fd[0](x:real. sin(x))", "1"},
		// d/dx x^4 = 4x^3 = 32 at 2, through a chain of lets and a pair.
		{"1.rd[2](x:real. let <a:real, b:real> = <x * x, x> in a * b * b)", "32"},
		// The gradient of <x, y> ↦ x y + y at <2, 3>: <3, 2 + 1>.
		{"1.rd[<2, 3>](z:real*real. let p:real*real = <fst(z) * snd(z), snd(z)> in fst(p) + snd(p))", "<3, 3>"},
	}
	for _, tt := range tests {
		p, err := dpl.Parse([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		prog, _, err := dpl.Check(p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := reduction.EvalDiff(dpl.Tape, prog, interderive.Options{Fuel: 1_000_000})
		if err != nil || a.String() != tt.want {
			t.Errorf("%s = %v (%v), want %s", tt.src, a, err, tt.want)
		}
	}
}

// TestTapeTerms pins the derivative terms of small traces, derived by hand from the
// strategy (dpl/tape.go): the forward pass in A-normal form, without the active
// bindings nothing needs; then the adjoints from the result back to x.
func TestTapeTerms(t *testing.T) {
	tests := []struct {
		name    string
		w, v, x string
		ty      dpl.Type
		c       string
		want    string
	}{
		// x's adjoint is W; x itself is not needed: no let x = V.
		{"var/x", "w", "v", "x", dpl.Real, "x", "w"},
		{"var/y", "w", "v", "x", dpl.Real, "y", "0"},
		{"const", "w", "v", "x", dpl.Real, "3", "0"},
		// The sum is the result: nothing needs its value (Figure 6 does not evaluate it
		// either); W flows to x, and y is a constant.
		{"plus", "w", "v", "x", dpl.Real, "x + y", "w"},
		// A constant is evaluated, as pruned's let z = C in 0_T does.
		{"plus/constant", "w", "v", "x", dpl.Real, "3 + y", "let a:real = 3 + y in 0"},
		// Figure 6's op clause exactly.
		{"op", "w", "v", "x", dpl.Real, "sin(x)", "let x:real = v in let g:real = sin_r(<x, w>) in g"},
		{"op/constant", "w", "v", "x", dpl.Real, "sin(y)", "let a:real = sin(y) in 0"},
		// x's adjoint is W (from the sum), then W + sin_r(<x, W>).
		{"op plus x", "w", "v", "x", dpl.Real, "sin(x) + x", "let x:real = v in let g:real = sin_r(<x, w>) in w + g"},
		// A let-bound term is evaluated (Figure 6 does); its adjoint is 0, and op_r is
		// still evaluated at 0, as Figure 6 does.
		{"unused op", "w", "v", "x", dpl.Real, "let a:real = sin(x) in 3",
			"let x:real = v in let a:real = sin(x) in let g:real = sin_r(<x, 0>) in 0"},
		// Figure 6's term for mul(<x, x>) exactly: the cotangent of <x, x> is taken
		// apart as the pair clause's let <y, z> = W does.
		{"square", "w", "v", "x", dpl.Real, "x * x",
			"let x:real = v in let g:real*real = mul_r(<<x, x>, w>) in let z:real*real = g in " +
				"let a:real = fst(z) in let b:real = snd(z) in a + b"},
		// a = x * x is needed (let-bound, and the argument of mul_r); a's adjoint is a
		// sum, bound before mul_r uses it.
		{"let square", "w", "v", "x", dpl.Real, "let a:real = x * x in a * a",
			"let x:real = v in let a:real = mul(<x, x>) in " +
				"let g1:real*real = mul_r(<<a, a>, w>) in let z1:real*real = g1 in let y1:real = fst(z1) in let z2:real = snd(z1) in " +
				"let s:real = y1 + z2 in " +
				"let g2:real*real = mul_r(<<x, x>, s>) in let z3:real*real = g2 in let y3:real = fst(z3) in let z4:real = snd(z3) in y3 + z4"},
		// A pair cotangent held in a variable: only the active component is taken.
		{"pair", "wp", "v", "x", dpl.Real, "<x, 3>", "let y:real = fst(wp) in y"},
		// fst(q): the adjoint of q is <W, 0>, written out (no redex).
		{"fst", "w", "p", "q", real2, "fst(q)", "<w, 0>"},
		{"snd", "w", "p", "q", real2, "snd(q)", "<0, w>"},
		// <0, W> + <W, 0> = <W, W>, summed componentwise at the meta level.
		{"fst plus snd", "w", "p", "q", real2, "fst(q) + snd(q)", "<w, w>"},
		// The argument of a projection is evaluated (Figure 6 does): here a = x + 1.
		{"fst of a sum", "w", "v", "x", dpl.Real, "fst(<x + 1, 2>)", "let x:real = v in let a:real = x + 1 in w"},
		// let x = x in x: the binder is renamed (x is an alias of the point's x).
		{"let/shadowing", "w", "v", "x", dpl.Real, "let x:real = x in x", "w"},
		// A let of a pair is a copy, whose adjoint <y, z> goes back through the pair.
		{"let pair", "w", "v", "x", dpl.Real, "let p:real*real = <x, x> in fst(p) * snd(p)",
			"let x:real = v in let p:real*real = <x, x> in let a1:real = fst(p) in let a2:real = snd(p) in " +
				"let g:real*real = mul_r(<<a1, a2>, w>) in let z:real*real = g in let y:real = fst(z) in let z2:real = snd(z) in y + z2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, v, c := rInputs(t, vars, tt.x, tt.ty, tt.w, tt.v, tt.c)
			got, err := dpl.Tape.R(dpl.DiffEnv{Types: gammaOf(vars)}, w, v, tt.x, tt.ty, c)
			if err != nil {
				t.Fatal(err)
			}
			if !dpl.AlphaEqual(got, mustParseGenerated(t, tt.want)) {
				t.Errorf("%s.R_%s(%s. %s) = %s, want %s", tt.w, tt.v, tt.x, tt.c, dpl.Format(got), tt.want)
			}
		})
	}
}

// TestTapeDefinedness: the tape is undefined where pruned is, including where a
// float64 overflows. By hand:
//   - 1.R_1e308(x. x + x) = 2: the sum is the result, never evaluated (nor by Figure 6
//     or pruned);
//   - 1.R_1(x. x + (1e308 + 1e308)) is undefined: the constant sum is evaluated, as
//     pruned's let z = 1e308 + 1e308 in 0 does (Figure 6 gives 1 + (0 + 0) = 1: the
//     strategies differ on overflow, spec §4 notwithstanding);
//   - 1.R_1e-200(x. let a = inv(x) in 3) is undefined: inv(1e-200) = 1e200, but
//     inv_r(<1e-200, 0>) = 0 · -(1e200)^2 = 0 · -Inf = NaN, and Figure 6 and pruned
//     both evaluate op_r at the cotangent 0 there;
//   - 1.R_0(x. log(x) * 0) is undefined at log(0): log(x) is the argument of mul, so
//     its value is needed (mul_r(<<log(x), 0>, 1>)), as Figure 6 evaluates it too.
func TestTapeDefinedness(t *testing.T) {
	tests := []struct {
		c       string
		v       float64
		want    string
		figure6 string // when it differs
	}{
		{"x + x", 1e308, "2", ""},
		{"x + (1e308 + 1e308)", 1, "undefined: 1e+308 + 1e+308", "1"},
		{"let a:real = inv(x) in 3", 1e-200, "undefined: inv_r(<1e-200, 0>)", ""},
		{"log(x) * 0", 0, "undefined: log(0)", ""},
	}
	for _, tt := range tests {
		c := trace(t, vars, tt.c)
		for _, ad := range []dpl.Differentiator{dpl.Tape, dpl.Pruned, dpl.Figure6} {
			d, err := ad.R(dpl.DiffEnv{}, lit(1), lit(tt.v), "x", dpl.Real, c)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if ad == dpl.Figure6 && tt.figure6 != "" {
				want = tt.figure6
			}
			if a := evaluate(t, d); a.String() != want {
				t.Errorf("%s: 1.R_%v(x. %s) = %s, want %s\n%s", ad.Name(), tt.v, tt.c, a, want, dpl.Format(d))
			}
		}
	}
}

// TestTapeRandomTraces checks the tape on random trace terms x:T ⊢ C : U at random
// points V and cotangents W, as TestDiffRandomTraces does for pruned: its derivative
// has type T (Proposition 3.3), and agrees with Figure 6's and pruned's: the same
// definedness, values to a relative 1e-12. And the derivative computes the same bits
// whether W and V are written out or held by variables, as they are when an rd is
// traced (Proposition 3.5 asks that of a stage: 0 + -0 is 0, not -0).
func TestTapeRandomTraces(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty, u := dplgen.Type(t, "T"), dplgen.Type(t, "U")
		g := dplgen.New(t, dplgen.Config{Depth: 3, Trace: true, Partial: true})
		c := dplgen.Elaborate(t, gammaOf(map[string]dpl.Type{"x": ty}), g.Term(dplgen.Scope{}.Bind("x", ty), u, 3))
		w, v := dplgen.Value(t, u, "W"), dplgen.Value(t, ty, "V")
		answers := map[string]dpl.Answer{}
		for _, ad := range []dpl.Differentiator{dpl.Tape, dpl.Figure6, dpl.Pruned} {
			d, err := ad.R(dpl.DiffEnv{}, w, v, "x", ty, c)
			if err != nil {
				t.Fatalf("%s: %v", ad.Name(), err)
			}
			if _, got, err := dpl.CheckIn(nil, d); err != nil || !dpl.Equal(got, ty) {
				t.Fatalf("%s: the derivative has type %v (%v), want %s\n%s", ad.Name(), got, err, dpl.FormatType(ty), dpl.Format(d))
			}
			answers[ad.Name()] = evaluate(t, d)
		}
		a := answers["tape"]
		d, err := dpl.Tape.R(dpl.DiffEnv{}, vr("w"), vr("v"), "x", ty, c)
		if err != nil {
			t.Fatalf("%v", err)
		}
		held := evaluate(t, &dpl.Let{Name: "w", T: u, Bound: w, Body: &dpl.Let{Name: "v", T: ty, Bound: v, Body: d}})
		if held.String() != a.String() {
			t.Fatalf("W and V written out: %s; held by variables: %s\nC = %s\nW = %s, V = %s", a, held, dpl.Format(c), dpl.Format(w), dpl.Format(v))
		}
		for _, other := range []string{"figure6", "pruned"} {
			b := answers[other]
			if (a.Value == nil) != (b.Value == nil) || a.Value != nil && !closeValues(a.Value, b.Value, 1e-12) {
				t.Fatalf("tape: %s, %s: %s\nC = %s\nW = %s, V = %s", a, other, b, dpl.Format(c), dpl.Format(w), dpl.Format(v))
			}
		}
	})
}

// TestTapeRandomPrograms runs random programs (with rd nested in rd, loops, partial
// operators) on the reference semantics under tape and pruned: the same answers, to a
// relative 1e-12 (or both undefined, or both out of fuel).
func TestTapeRandomPrograms(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplgen.Full(4))
		opts := interderive.Options{Fuel: 200_000}
		a, errA := reduction.EvalDiff(dpl.Tape, prog, opts)
		b, errB := reduction.EvalDiff(dpl.Pruned, prog, opts)
		if errA != nil || errB != nil {
			if errors.Is(errB, interderive.ErrOutOfFuel) || errors.Is(errA, interderive.ErrOutOfFuel) {
				return // a derivative of tape's may fit in fuel where pruned's does not
			}
			t.Fatalf("tape: %v, pruned: %v\n%s", errA, errB, dpl.Format(prog))
		}
		if (a.Value == nil) != (b.Value == nil) || a.Value != nil && !closeValues(a.Value, b.Value, 1e-12) {
			t.Fatalf("tape: %s, pruned: %s\n%s", a, b, dpl.Format(prog))
		}
	})
}

// TestTapeBudget: the tape counts the redexes of its derivative exactly (a budget of
// that many suffices, one less is a *BudgetError), and evaluating the derivative
// contracts each of them once.
func TestTapeBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty, u := dplgen.Type(t, "T"), dplgen.Type(t, "U")
		g := dplgen.New(t, dplgen.Config{Depth: 4, Trace: true})
		c := dplgen.Elaborate(t, gammaOf(map[string]dpl.Type{"x": ty}), g.Term(dplgen.Scope{}.Bind("x", ty), u, 4))
		w, v := dplgen.Value(t, u, "W"), dplgen.Value(t, ty, "V")
		d, err := dpl.Tape.R(dpl.DiffEnv{}, w, v, "x", ty, c)
		if err != nil {
			t.Fatalf("%v", err)
		}
		n := redexCount(d)
		if _, err := dpl.Tape.R(dpl.DiffEnv{Budget: n}, w, v, "x", ty, c); err != nil && n > 0 {
			t.Fatalf("budget %d: %v", n, err)
		}
		if n > 1 {
			if _, err := dpl.Tape.R(dpl.DiffEnv{Budget: n - 1}, w, v, "x", ty, c); !errors.Is(err, dpl.ErrOverBudget) {
				t.Fatalf("budget %d for %d redexes: %v", n-1, n, err)
			}
		}
		steps := 0
		a, err := reduction.EvalDiff(dpl.Pruned, d, interderive.Options{OnContract: func(string) { steps++ }})
		if err == nil && a.Value != nil && steps != n {
			t.Fatalf("%d contractions for %d redexes\n%s", steps, n, dpl.Format(d))
		}
	})
}

// chain is let y1:real = x * x in let y2:real = y1 * x in ... in yk, the spec's
// chains (§4: Figure 6's derivative has Θ(2^k) nodes).
func chain(k int) dpl.Term {
	mul, _ := dpl.LookupOperator("mul")
	var c dpl.Term = vr(fmt.Sprintf("y%d", k))
	for i := k; i >= 1; i-- {
		prev := "x"
		if i > 1 {
			prev = fmt.Sprintf("y%d", i-1)
		}
		c = &dpl.Let{Name: fmt.Sprintf("y%d", i), T: dpl.Real,
			Bound: &dpl.OpApp{Op: mul, Arg: &dpl.Pair{X: vr(prev), Y: vr("x"), T: dpl.Real, U: dpl.Real}}, Body: c}
	}
	return c
}

// TestTapeLinear: the derivative of a chain of k multiplications has 11k redexes. By
// hand: let x' = V (1); the k multiplications, let-bound hence evaluated (2k); for
// each, let g = mul_r(<<y, x>, ȳ>) (2) and the pair clause's let z = g in
// let a = fst(z) in let b = snd(z) (5), a being y's whole adjoint; x receives k + 1
// contributions (b for each multiplication, and a for the first), summed with k pluses,
// the k - 1 sums but the last bound to a variable (k - 1 lets): 1 + 2k + 7k + 2k - 1.
// Figure 6's grows as 2^k, pruned's as k^2.
func TestTapeLinear(t *testing.T) {
	for _, k := range []int{1, 2, 10, 1000, 2000} {
		d, err := dpl.Tape.R(dpl.DiffEnv{}, lit(1), lit(1.0001), "x", dpl.Real, chain(k))
		if err != nil {
			t.Fatal(err)
		}
		if n := redexCount(d); n != 11*k {
			t.Errorf("k = %d: %d redexes, want %d", k, n, 11*k)
		}
		if k <= 10 { // x^(k+1): (k+1) 2^k at 2
			d, _ := dpl.Tape.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, chain(k))
			if a := evaluate(t, d); a.Observe() != dpl.FormatReal(float64(k+1)*float64(int(1)<<k)) {
				t.Errorf("k = %d: derivative %s", k, a)
			}
		}
	}
	// The time, too, is linear: twice the chain, about twice the work (a loose bound,
	// since timings are noisy).
	if testing.Short() {
		t.Skip("the timing takes seconds of benchmark runs: the full run checks it")
	}
	size := func(k int) int {
		res := testing.Benchmark(func(b *testing.B) {
			c := chain(k)
			for b.Loop() {
				if _, err := dpl.Tape.R(dpl.DiffEnv{}, lit(1), lit(1.0001), "x", dpl.Real, c); err != nil {
					b.Fatal(err)
				}
			}
		})
		return int(res.NsPerOp())
	}
	if t1, t2 := size(5000), size(20000); t2 > 10*t1 {
		t.Errorf("differentiating a chain of 5000 takes %dns, of 20000 %dns", t1, t2)
	}
}

// TestTapeLongTraces: the forward pass takes no stack along let bodies, so a trace
// nested deeper than MaxDepth (stages refuse those, but R need not) differentiates:
// let y1 = x + 1 in ... let yk = y(k-1) + 1 in yk has the derivative
// let x' = V in <the k sums> in W (every sum is let-bound, hence evaluated; each passes
// its adjoint on unchanged), 2k + 1 redexes. A term nested deeply elsewhere is refused
// with a depth error, and a term that is not a trace with an error.
func TestTapeLongTraces(t *testing.T) {
	k := dpl.MaxDepth + 20_000
	if testing.Short() {
		k = 20_000 // the full run's trace, MaxDepth + 20,000 lets, is past the stages' bound
	}
	var c dpl.Term = vr(fmt.Sprintf("y%d", k))
	for i := k; i >= 1; i-- {
		prev := "x"
		if i > 1 {
			prev = fmt.Sprintf("y%d", i-1)
		}
		c = &dpl.Let{Name: fmt.Sprintf("y%d", i), T: dpl.Real, Bound: &dpl.Plus{X: vr(prev), Y: lit(1)}, Body: c}
	}
	d, err := dpl.Tape.R(dpl.DiffEnv{}, vr("w"), lit(2), "x", dpl.Real, c)
	if err != nil {
		t.Fatal(err)
	}
	lets := 0
	for {
		l, ok := d.(*dpl.Let)
		if !ok {
			break
		}
		if _, plus := l.Bound.(*dpl.Plus); !plus && lets > 0 {
			t.Fatalf("binding %d is %s", lets, dpl.Format(l.Bound))
		}
		lets++
		d = l.Body
	}
	if lets != k+1 || !dpl.AlphaEqual(d, vr("w")) {
		t.Errorf("%d lets, then %s; want %d lets, then w", lets, dpl.Format(d), k+1)
	}

	var deep dpl.Term = vr("x")
	levels := 3 * dpl.MaxDepth
	if testing.Short() {
		levels = 2*dpl.MaxDepth + 10 // just past R's limit, 2·MaxDepth (the full run: 3·MaxDepth)
	}
	for range levels {
		deep = &dpl.Plus{X: deep, Y: lit(1)}
	}
	if _, err := dpl.Tape.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, deep); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("differentiating a deep term: %v, want too deep", err)
	}
	if _, err := dpl.Tape.R(dpl.DiffEnv{}, lit(1), lit(2), "x", dpl.Real, mustParse(t, "if true then x else x")); err == nil {
		t.Errorf("differentiating an if succeeded")
	}
	if got, ok := dpl.LookupDifferentiator("tape"); !ok || got != dpl.Tape || got.Name() != "tape" {
		t.Errorf("LookupDifferentiator(tape) = %v, %v", got, ok)
	}
}

// TestDeepDerivative checks that every strategy refuses a derivative term that nests
// deeper than MaxDepth, which the stages no longer walk to check: differentiating
// x:T. x at V with the cotangent W binds W (a pair, not a variable or a number) by a
// let of the derivative, whose depth is then 1 + W's. With T a product nested
// MaxDepth deep (<<...<r, ()>...>, ()>), W's depth is MaxDepth + 1: too deep; one level
// less, the derivative is as deep as the bound allows.
func TestDeepDerivative(t *testing.T) {
	deepValue := func(levels int) (dpl.Type, dpl.Term) {
		var ty dpl.Type = dpl.Real
		var w dpl.Term = lit(2)
		for range levels {
			w = &dpl.Pair{X: w, Y: &dpl.UnitLit{}, T: ty, U: dpl.Unit}
			ty = dpl.Times(ty, dpl.Unit)
		}
		return ty, w
	}
	for _, ad := range []dpl.Differentiator{dpl.Tape, dpl.Pruned} {
		ty, w := deepValue(dpl.MaxDepth)
		if _, err := ad.R(dpl.DiffEnv{}, w, vr("v"), "x", ty, vr("x")); !errors.Is(err, interderive.ErrTooDeep) {
			t.Errorf("%s, W %d deep: %v, want too deep", ad.Name(), dpl.MaxDepth+1, err)
		}
		ty, w = deepValue(dpl.MaxDepth - 2)
		d, err := ad.R(dpl.DiffEnv{Types: func(y string) (dpl.Type, bool) { return ty, y == "v" }}, w, vr("v"), "x", ty, vr("x"))
		if err != nil {
			t.Errorf("%s, W %d deep: %v", ad.Name(), dpl.MaxDepth-1, err)
		} else if got := dpl.Depth(d); got > dpl.MaxDepth {
			t.Errorf("%s, W %d deep: the derivative is %d deep", ad.Name(), dpl.MaxDepth-1, got)
		}
	}
}

// TestTapeDepth checks the depth Tape's R works out for its derivative as it emits it
// (one Depth per binding's argument, and the rest from the parts) against Depth on the
// whole derivative term, on random traces.
func TestTapeDepth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ty, u := dplgen.Type(t, "T"), dplgen.Type(t, "U")
		g := dplgen.New(t, dplgen.Config{Depth: 4, Trace: true})
		c := dplgen.Elaborate(t, gammaOf(map[string]dpl.Type{"x": ty}), g.Term(dplgen.Scope{}.Bind("x", ty), u, 4))
		d, depth, err := dpl.TapeR(dpl.DiffEnv{}, dplgen.Value(t, u, "W"), dplgen.Value(t, ty, "V"), "x", ty, c)
		if err != nil {
			t.Fatalf("%v", err)
		}
		if want := dpl.Depth(d); depth != want {
			t.Fatalf("R worked out depth %d for %s; Depth gives %d", depth, dpl.Format(d), want)
		}
	})
}
