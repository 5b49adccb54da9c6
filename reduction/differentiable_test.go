package reduction_test

import (
	"bufio"
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/calculi/differentiable"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// The expectations of this file are derived by hand (most of them in the comments),
// or are the paper's and its test vectors' (docs/differentiable.md); the cases every stage
// runs are TestDiffCases' (package dplcases).

func real(r float64) dpl.Term { return &dpl.RealLit{R: r} }

// run runs a program on the reference semantics (dplcases.Record).
func run(ad dpl.Differentiator, prog dpl.Term, fuel int) dplcases.Outcome {
	return dplcases.Record(reduction.EvalDiffTraced, ad, prog, fuel)
}

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: reduction.EvalDiffTraced, Stage: reduction.Stage{}.Differentiable(), TraceDiff: reduction.TraceDiff}.Run(t)
}

// TestDiffFigures2And3 contracts one redex per rule of Figure 2 (ordinary evaluation:
// redexes), and one per production of the evaluation contexts of Figure 3, checking
// the rule's event, the context, and the term after the step (the right-hand side of
// the rule, instantiated by hand).
func TestDiffFigures2And3(t *testing.T) {
	tests := []struct {
		name    string
		term    string
		rule    string
		context string
		next    string
	}{
		// Figure 2: redexes.
		{"plus", "1 + 2", "plus", "[]", "3"},
		{"op", "mul(<2, 3>)", "op", "[]", "6"},
		{"op/sin", "sin(0)", "op", "[]", "0"},
		{"op/mul_rr", "mul_rr(<<<2, 3>, 5>, <7, 11>>)", "op", "[]", "<<55, 35>, 43>"}, // spec §2
		{"let", "let x:real = 2 in x + x", "let", "[]", "2 + 2"},
		{"let/shadow", "let x:real = 2 in let x:real = 3 in x", "let", "[]", "let x:real = 3 in x"},
		{"fst", "fst(<1, 2>)", "fst", "[]", "1"},
		{"snd", "snd(<1, 2>)", "snd", "[]", "2"},
		{"if/true", "if true then 1 else 2", "if", "[]", "1"},
		{"if/false", "if false then 1 else 2", "if", "[]", "2"},
		{"letrec", "letrec f(x:real):real = x + 1 in f(2)", "letrec", "[]", "f(2)"},
		// 3.rd[2](x. x + x): trace x + x; 3.R_2(x. x + x) = 3.R_2(x. x) +_real 3.R_2(x. x) = 3 + 3.
		{"rd", "3.rd[2](x:real. x + x)", "rd", "[]", "3 + 3"},
		// 1.rd[2](x. 5): trace 5; 1.R_2(x. 5) = 0_real = 0.
		{"rd/constant", "1.rd[2](x:real. 5)", "rd", "[]", "0"},
		{"pred", "if 1 <. 2 then 1 else 2", "pred", "if [] then 1 else 2", "if true then 1 else 2"},
		{"pred/false", "if 2 <. 1 then 1 else 2", "pred", "if [] then 1 else 2", "if false then 1 else 2"},
		// Figure 3: the productions of E and E_bool, left to right.
		{"E + N", "(1 + 2) + 3", "plus", "[] + 3", "3 + 3"},
		{"V + E", "1 + (2 + 3)", "plus", "1 + []", "1 + 5"},
		{"op(E)", "neg(1 + 2)", "plus", "neg([])", "neg(3)"},
		{"let x = E", "let x:real = 1 + 2 in x", "plus", "let x:real = [] in x", "let x:real = 3 in x"},
		{"<E, N>", "<1 + 2, 3 + 4>", "plus", "<[], 3 + 4>", "<3, 3 + 4>"},
		{"<V, E>", "<1, 3 + 4>", "plus", "<1, []>", "<1, 7>"},
		{"fst(E)", "fst(<1 + 2, 3>)", "plus", "fst(<[], 3>)", "fst(<3, 3>)"},
		{"snd(E)", "snd(<1, 3 + 4>)", "plus", "snd(<1, []>)", "snd(<1, 7>)"},
		{"if E_bool", "if 1 + 1 <. 3 then 1 else 2", "plus", "if lt(<[], 3>) then 1 else 2", "if lt(<2, 3>) then 1 else 2"},
		{"M.rd[E]", "(1 + 1).rd[2 + 3](x:real. x)", "plus", "(1 + 1).rd[[]](x:real. x)", "(1 + 1).rd[5](x:real. x)"},
		{"E.rd[V]", "(1 + 1).rd[5](x:real. x)", "plus", "[].rd[5](x:real. x)", "2.rd[5](x:real. x)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step, done, err := reduction.ReduceDiff(dpl.Figure6, dplcases.Program(t, tt.term), interderive.Options{})
			if err != nil || done {
				t.Fatalf("%s: done %v, err %v", tt.term, done, err)
			}
			if got := step.Redex.Rule(); got != tt.rule {
				t.Errorf("%s: rule %s, want %s", tt.term, got, tt.rule)
			}
			if got := step.Context.String(); got != tt.context {
				t.Errorf("%s: context %s, want %s", tt.term, got, tt.context)
			}
			if want := dplcases.Expected(t, tt.next); !dpl.AlphaEqual(step.Next, want) {
				t.Errorf("%s: next %s, want %s", tt.term, dpl.Format(step.Next), tt.next)
			}
		})
	}
	t.Run("f(E)", func(t *testing.T) { // the letrec first, then the argument in f([])
		e := dplcases.Program(t, "letrec f(x:real):real = x in f(1 + 2)")
		step, _, err := reduction.ReduceDiff(dpl.Figure6, e, interderive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		step, _, err = reduction.ReduceDiff(dpl.Figure6, step.Next, interderive.Options{})
		if err != nil || step.Redex.Rule() != "plus" || step.Context.String() != "f([])" {
			t.Fatalf("rule %v, context %v, err %v; want plus in f([])", step.Redex, step.Context, err)
		}
	})
	t.Run("call", func(t *testing.T) { // f(V) ⇒ M[V/x], the calls of f in M resolved again
		e := dplcases.Program(t, "letrec f(x:real):real = if x <. 0.5 then 0 else f(x + -1) in f(2)")
		step, _, err := reduction.ReduceDiff(dpl.Figure6, e, interderive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		step, _, err = reduction.ReduceDiff(dpl.Figure6, step.Next, interderive.Options{})
		if err != nil || step.Redex.Rule() != "call" {
			t.Fatalf("rule %v, err %v; want call", step.Redex, err)
		}
		want := dplcases.Expected(t, "if 2 <. 0.5 then 0 else f(2 + -1)")
		if !dpl.AlphaEqual(step.Next, want) {
			t.Fatalf("next %s, want %s", dpl.Format(step.Next), dpl.Format(want))
		}
		if a, err := reduction.EvalDiff(dpl.Pruned, e, interderive.Options{}); err != nil || a.Observe() != "0" {
			t.Fatalf("f(2) = %v, %v; want 0", a, err)
		}
	})
	t.Run("value", func(t *testing.T) { // V ⇒ ρ(V) is no step
		d, err := reduction.DecomposeDiff(dplcases.Program(t, "<1, <(), 2>>"))
		if err != nil || d.Redex != nil || dpl.Format(d.Value) != "<1, <(), 2>>" {
			t.Fatalf("decomposition %+v, %v", d, err)
		}
	})
	t.Run("undefined", func(t *testing.T) { // op(V) and pred(V) where ev and bev are undefined
		for _, src := range []string{"log(0)", "inv(0)", "if 1 <. 1 then 1 else 2"} {
			_, _, err := reduction.ReduceDiff(dpl.Pruned, dplcases.Program(t, src), interderive.Options{})
			var u *dpl.Undefined
			if !errors.As(err, &u) {
				t.Errorf("%s: err %v, want undefined", src, err)
			}
		}
	})
}

// figure6Fuel caps the fuel of Figure 6 on the corpus (its derivative terms are large
// and the reduction semantics is quadratic): a run that needs more is not judged.
const figure6Fuel = 300_000

// f6Fuel is figure6Fuel, or under -short a tenth of it: the programs of the corpus
// whose Figure 6 runs take more are not judged under -short (and are logged so); the
// full run judges every one within figure6Fuel.
func f6Fuel() int {
	if testing.Short() {
		return figure6Fuel / 10
	}
	return figure6Fuel
}

// TestDiffExamples runs every program of the example corpus (testdata/differentiable,
// whose README describes it) against its expectation comments, derived by hand in the
// files: -- expect: ANSWER for every strategy, -- expect[pruned]: ANSWER for the one
// named (ANSWER a value, undefined, type error or out of fuel), -- expect-approx:
// (reals to a relative 1e-9) and -- fuel: N. A strategy without an expectation does
// not run the file.
func TestDiffExamples(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata/differentiable"} {
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".dpl") {
				files = append(files, path)
			}
			return nil
		})
	}
	if len(files) == 0 {
		t.Skip("no example corpus")
	}
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, fuel := dplExpectations(src)
		if len(want) == 0 {
			t.Errorf("%s: no expectation", file)
			continue
		}
		p, err := dpl.Parse(src)
		if err == nil {
			p, _, err = dpl.Check(p)
		}
		for _, ad := range exampleStrategies(i, want) {
			exp, ok := want[ad.Name()]
			if !ok {
				continue
			}
			if err != nil {
				if exp.answer != "type error" {
					t.Errorf("%s: %v, want %s", file, err, exp.answer)
				}
				continue
			}
			f := fuel
			if limit := f6Fuel(); ad == dpl.Figure6 && (f == 0 || f > limit) {
				f = limit
			}
			r := run(ad, p, f)
			a, err := r.Answer, r.Err
			got := a.Observe()
			switch {
			case ad == dpl.Figure6 && f != fuel && errors.Is(err, interderive.ErrOutOfFuel):
				t.Logf("%s/%s: not judged (more than %d contractions)", file, ad.Name(), f)
				continue
			case errors.Is(err, interderive.ErrOutOfFuel):
				got = "out of fuel"
			case err != nil:
				t.Errorf("%s/%s: %v", file, ad.Name(), err)
				continue
			}
			if exp.approx && a.Value != nil {
				if !approxEqual(t, a.Value, dplcases.Expected(t, exp.answer), 1e-9) {
					t.Errorf("%s/%s: %s, want about %s", file, ad.Name(), got, exp.answer)
				}
			} else if got != exp.answer {
				t.Errorf("%s/%s: %s, want %s", file, ad.Name(), got, exp.answer)
			}
		}
	}
}

// exampleStrategies is the strategies TestDiffExamples runs the i-th file under: every
// one, or under -short one of those its expectations name, in turn (the full run, go
// test ./..., runs every strategy named).
func exampleStrategies(i int, want map[string]expectation) []dpl.Differentiator {
	if !testing.Short() {
		return dpl.Differentiators()
	}
	var named []dpl.Differentiator
	for _, ad := range dpl.Differentiators() {
		if _, ok := want[ad.Name()]; ok {
			named = append(named, ad)
		}
	}
	if len(named) == 0 {
		return nil
	}
	return named[i%len(named) : i%len(named)+1]
}

// expectation is what a program's comments promise under one strategy.
type expectation struct {
	answer string
	approx bool
}

// dplExpectations reads the expectation comments of a program, per strategy.
func dplExpectations(src []byte) (map[string]expectation, int) {
	want, fuel := map[string]expectation{}, 0
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "--")
		if !ok {
			continue
		}
		directive, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		kind, which, _ := strings.Cut(strings.TrimSuffix(directive, "]"), "[")
		switch kind {
		case "fuel":
			fuel, _ = strconv.Atoi(rest)
		case "expect", "expect-approx":
			strategies := []string{}
			for _, d := range dpl.Differentiators() {
				strategies = append(strategies, d.Name())
			}
			if which != "" {
				strategies = strings.Split(which, ",")
			}
			for _, s := range strategies {
				want[strings.TrimSpace(s)] = expectation{answer: rest, approx: kind == "expect-approx"}
			}
		}
	}
	return want, fuel
}

// TestDiffBeyondFigure6 documents the limit of the strategies of Figure 6: its let
// clause differentiates the rest of a trace once for the variable of differentiation
// and once for the let's binder, so a value that fans out (a let-tuple, a variable
// used twice) and flows into a nested trace multiplies the work at every level. x^4 by
// a loop over <x, n> grows the derivative term about 17 times per iteration: both
// strategies stop, at the latest when the derivative would hold more redexes than the
// fuel left. Spec §4's linear tape strategy is the remedy: it answers.
func TestDiffBeyondFigure6(t *testing.T) {
	prog := dplcases.Program(t, `letrec pow(p:real * real):real =
  let <x:real, n:real> = p in
  if n <. 0.5 then 1 else x * pow(<x, n - 1>)
in 1.rd[3](x:real. pow(<x, 4>))`)
	for _, ad := range dpl.Figure6Strategies() {
		if r := run(ad, prog, 200_000); !errors.Is(r.Err, interderive.ErrOutOfFuel) {
			t.Errorf("%s: %v, want out of fuel", ad.Name(), r.Err)
		}
	}
	// The tape's derivative is linear in the trace: d/dx x^4 = 4 · 27 = 108 at 3.
	if r := run(dpl.Tape, prog, 200_000); r.Err != nil || r.Answer.Observe() != "108" {
		t.Errorf("tape: %v (%v), want 108", r.Answer, r.Err)
	}
	// Two iterations are still within reach: d/dx x^2 = 6 at 3.
	if testing.Short() {
		t.Skip("pruned's 44,535 contractions for x^2 take half a second: the full run checks them")
	}
	prog = dplcases.Program(t, `letrec pow(p:real * real):real =
  let <x:real, n:real> = p in
  if n <. 0.5 then 1 else x * pow(<x, n - 1>)
in 1.rd[3](x:real. pow(<x, 2>))`)
	if r := run(dpl.Pruned, prog, 0); r.Err != nil || r.Answer.Observe() != "6" {
		t.Errorf("pruned: %v (%v), want 6", r.Answer, r.Err)
	}
}

// approxEqual compares two values of the same shape, reals to a relative tolerance.
func approxEqual(t any, a, b dpl.Term, tol float64) bool {
	switch a := a.(type) {
	case *dpl.RealLit:
		var r float64
		switch b := b.(type) {
		case *dpl.RealLit:
			r = b.R
		case *dpl.OpApp: // a negative number parsed as neg(r)
			if c, ok := b.Arg.(*dpl.RealLit); ok && b.Op.Name == "neg" {
				r = -c.R
			}
		default:
			return false
		}
		return math.Abs(a.R-r) <= tol*math.Max(1, math.Max(math.Abs(a.R), math.Abs(r)))
	case *dpl.Pair:
		p, ok := b.(*dpl.Pair)
		return ok && approxEqual(t, a.X, p.X, tol) && approxEqual(t, a.Y, p.Y, tol)
	case *dpl.UnitLit:
		_, ok := b.(*dpl.UnitLit)
		return ok
	}
	return false
}

// squaringLoop squares x until it exceeds 100: 50 times from the start 1 + 2^-47,
// since (1 + ε)^(2^k) ≈ e^(ε 2^k) and 2^49 · 2^-47 = 4 < ln 100 ≈ 4.6 < 2^50 · 2^-47 = 8.
// 1.000000000000007 is the shortest numeral of 1 + 2^-47. The derivative is the
// product of the 2·x_i over the 50 squarings.
const squaringLoop = `letrec sq(x:real):real = if 100 <. x then x else sq(x * x) in
1.rd[1.000000000000007](x:real. sq(x))`

// TestDiffLoop differentiates through a 50-iteration loop with pruned, well under a
// second, and checks the value against the chain rule computed directly.
func TestDiffLoop(t *testing.T) {
	x0 := 1 + math.Ldexp(1, -47)
	xs, want := []float64{}, 1.0
	for x := x0; !(100 < x); x *= x {
		xs = append(xs, x)
	}
	// The reverse pass multiplies the cotangent by the local derivatives, last first:
	// mul_r(<<x, x>, w>) = <w x, w x>, summed: w x + w x.
	for i := len(xs) - 1; i >= 0; i-- {
		want = want*xs[i] + want*xs[i]
	}
	if len(xs) != 50 {
		t.Fatalf("the loop squares %d times, want 50", len(xs))
	}
	r := run(dpl.Pruned, dplcases.Program(t, squaringLoop), 0)
	a, events, err := r.Answer, r.Events, r.Err
	if err != nil || a.Value == nil {
		t.Fatalf("%v (%v)", a, err)
	}
	got := a.Value.(*dpl.RealLit).R
	if math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("derivative %v, want %v", got, want)
	}
	if calls := strings.Count(strings.Join(events, " "), "sym/call"); calls != 51 {
		t.Errorf("%d calls traced, want 51 (50 squarings and the last test)", calls)
	}
	// The cost, as a count of contractions rather than a time (BenchmarkDiffLoop
	// times it): linear in the iterations, nowhere near Figure 6's 2^50.
	if len(events) > 20_000 {
		t.Errorf("%d contractions: the derivative is not polynomial", len(events))
	}
	t.Logf("%d contractions", len(events))
	// Figure 6 read literally would build a term of about 2^100 nodes: it gives up, as
	// out of fuel when the fuel is small, and with a budget error otherwise.
	if r := run(dpl.Figure6, dplcases.Program(t, squaringLoop), 20_000); !errors.Is(r.Err, interderive.ErrOutOfFuel) {
		t.Errorf("figure6 with fuel 20000: %v, want out of fuel", r.Err)
	}
	if testing.Short() {
		t.Skip("figure6's budget error, at 2^20 redexes, takes over a second: the full run checks it")
	}
	if r := run(dpl.Figure6, dplcases.Program(t, squaringLoop), 0); !errors.Is(r.Err, dpl.ErrOverBudget) {
		t.Errorf("figure6: %v, want a budget error", r.Err)
	}
}

// TestDiffDeep: decomposition and plugging are loops, so contexts of any depth are
// data. (The nesting of layers and of traces is bounded with an error, not a crash:
// dplcases' Bounds.)
func TestDiffDeep(t *testing.T) {
	depth := 1_000_000
	if testing.Short() {
		// 10^5 levels already exercise the loops; the full run covers a million.
		depth = 100_000
	}
	var e dpl.Term = real(0)
	for range depth {
		e = &dpl.Plus{X: real(1), Y: e}
	}
	d, err := reduction.DecomposeDiff(e)
	if err != nil || len(d.Context) != depth-1 || d.Redex.Rule() != "plus" {
		t.Fatalf("context of %d frames, %v; want %d around plus", len(d.Context), err, depth-1)
	}
	// Non-tail recursion under ordinary evaluation grows the context, not the Go stack.
	// The reduction semantics is quadratic in the depth: under -short, sum(500),
	// 500 + ... + 1 = 125250; the full run covers sum(2000) = 2001000.
	sumSrc, sumWant := "sum(2000)", "2.001e+06"
	if testing.Short() {
		sumSrc, sumWant = "sum(500)", "125250"
	}
	sum := dplcases.Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in "+sumSrc)
	if a, err := reduction.EvalDiff(dpl.Pruned, sum, interderive.Options{}); err != nil || a.Observe() != sumWant {
		t.Errorf("%s = %v, %v; want %s", sumSrc, a, err, sumWant)
	}
}

// Properties.

// dplConfig is the generator configuration of the properties: small programs with
// every construct.
var dplConfig = dplgen.Full(5)

const propertyFuel = 20_000

// TestDiffDeterminacy (Proposition 3.4): a program has at most one answer, and the
// reduction semantics reaches it by the same contractions every time.
func TestDiffDeterminacy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplConfig)
		ad := rapid.SampledFrom(dpl.Differentiators()).Draw(t, "ad")
		r1, r2 := run(ad, prog, propertyFuel), run(ad, prog, propertyFuel)
		a1, ev1, err1 := r1.Answer, r1.Events, r1.Err
		a2, ev2, err2 := r2.Answer, r2.Events, r2.Err
		if err1 != nil && !differentiable.Inconclusive(err1) {
			t.Fatalf("%s: %v\n%s", ad.Name(), err1, dpl.Format(prog))
		}
		if (err1 == nil) != (err2 == nil) || !differentiable.SameDPLAnswer(a1, a2) || !slices.Equal(ev1, ev2) {
			t.Fatalf("two runs differ: %v (%v) then %v (%v)\n%s", a1, err1, a2, err2, dpl.Format(prog))
		}
	})
}

// TestDiffInterpolation (Proposition 3.5): M ⇒ V iff M ⇝ C and C ⇒ V for some C; and
// the two computations perform the same floating-point operations, so V is the same to
// the bit (differentiable.Interpolation).
func TestDiffInterpolation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplConfig)
		ad := rapid.SampledFrom(dpl.Differentiators()).Draw(t, "ad")
		if err := differentiable.Interpolation(ad, prog, propertyFuel); err != nil {
			t.Fatalf("%v\nM = %s", err, dpl.Format(prog))
		}
	})
}

// TestDiffDerivativesWellTyped (Proposition 3.3): every derivative term the reduction
// semantics builds, W.R_V(x:T. C), has type T, its free variables typed by their
// values.
func TestDiffDerivativesWellTyped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplConfig)
		ad := rapid.SampledFrom(dpl.Differentiators()).Draw(t, "ad")
		var failure string
		hooks := reduction.DiffHooks{Step: func(ev reduction.DiffEvent) {
			if ev.Derivative == nil || failure != "" {
				return
			}
			rd := ev.Redex.(*reduction.DiffRd).Rd
			gamma := func(x string) (dpl.Type, bool) {
				if v, ok := ev.Env[x]; ok {
					return dpl.TypeOfValue(v)
				}
				return nil, false
			}
			if !dpl.IsTrace(ev.Trace) || !dpl.IsTrace(ev.Derivative) {
				failure = "not trace terms:\ntrace: " + dpl.Format(ev.Trace) + "\nderivative: " + dpl.Format(ev.Derivative)
				return
			}
			if _, ty, err := dpl.CheckIn(gamma, ev.Derivative); err != nil || !dpl.Equal(ty, rd.T) {
				failure = "derivative of type " + typeString(ty) + ", want " + dpl.FormatType(rd.T) + ": " + errString(err) +
					"\nredex: " + dpl.Format(rd) + "\ntrace: " + dpl.Format(ev.Trace) + "\nderivative: " + dpl.Format(ev.Derivative)
			}
			if _, ty, err := dpl.CheckIn(func(x string) (dpl.Type, bool) {
				if x == rd.Param { // the binder of the trace
					return rd.T, true
				}
				return gamma(x)
			}, ev.Trace); err != nil || ty == nil {
				failure = "ill-typed trace: " + errString(err) + "\n" + dpl.Format(ev.Trace)
			}
		}}
		_, err := reduction.EvalDiffHooks(ad, prog, interderive.Options{Fuel: propertyFuel}, hooks)
		if err != nil && !differentiable.Inconclusive(err) {
			t.Fatalf("%v\n%s", err, dpl.Format(prog))
		}
		if failure != "" {
			t.Fatalf("%s: %s\nprogram: %s", ad.Name(), failure, dpl.Format(prog))
		}
	})
}

func typeString(t dpl.Type) string {
	if t == nil {
		return "none"
	}
	return dpl.FormatType(t)
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// TestDiffStrategiesAgree: pruned and tape give Figure 6's answers (values to a
// relative 1e-12, since sums associate differently) and its definedness, on programs
// small enough for Figure 6.
func TestDiffStrategiesAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplConfig)
		r1 := run(dpl.Figure6, prog, propertyFuel)
		a, err1 := r1.Answer, r1.Err
		for _, other := range []dpl.Differentiator{dpl.Pruned, dpl.Tape} {
			r2 := run(other, prog, propertyFuel)
			b, err2 := r2.Answer, r2.Err
			if differentiable.Inconclusive(err1) || differentiable.Inconclusive(err2) {
				continue
			}
			if err1 != nil || err2 != nil {
				t.Fatalf("figure6: %v; %s: %v\n%s", err1, other.Name(), err2, dpl.Format(prog))
			}
			if (a.Undefined == nil) != (b.Undefined == nil) || a.Value != nil && !approxEqual(t, a.Value, b.Value, 1e-12) {
				t.Fatalf("figure6: %s; %s: %s\n%s", a, other.Name(), b, dpl.Format(prog))
			}
		}
	})
}

// TestDiffFiniteDifferences (Theorems 6.1, 6.2): the derivative the operational
// semantics computes is the true derivative. For a random body N over x:real (or
// x:real*real, coordinate by coordinate) and a point a, 1.rd[a](x. N) is compared with
// the central difference (f(a + h) - f(a - h)) / 2h of f = x ↦ N, evaluated as
// let x = a ± h in N (differentiable.FiniteDifferences, on the inputs of
// differentiable.DrawGradientCase). Points where f is undefined or not smooth nearby
// (the trace of N, which fixes the branches taken, differs at a ± h) are skipped.
func TestDiffFiniteDifferences(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := differentiable.DrawGradientCase(t, 3)
		ad := rapid.SampledFrom(dpl.Differentiators()).Draw(t, "ad")
		if err := differentiable.FiniteDifferences(ad, c.Body, c.T, c.Point, propertyFuel); err != nil {
			t.Fatalf("%v\n%s", err, dpl.Format(c.Program()))
		}
	})
}

// FuzzEvalDPL runs every well-typed program the fuzzer finds, under both strategies,
// with a small fuel bound: a run must end in a value, undefined, or out of fuel; never
// another error, never a panic.
func FuzzEvalDPL(f *testing.F) {
	for _, v := range dplcases.Vectors {
		f.Add([]byte(v.Src))
	}
	f.Add([]byte(squaringLoop))
	testenv.AddFiles(f, "../testdata/differentiable/*.dpl", "../testdata/differentiable/examples/*.dpl")
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := dpl.Parse(src)
		if err != nil {
			return
		}
		prog, _, err := dpl.Check(p)
		if err != nil {
			return
		}
		for _, ad := range dpl.Differentiators() {
			a, err := reduction.EvalDiff(ad, prog, interderive.Options{Fuel: 2000})
			if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) {
				t.Fatalf("%s: %v\n%s", ad.Name(), err, dpl.Format(prog))
			}
			if err == nil && a.Value == nil && a.Undefined == nil {
				t.Fatalf("%s: an empty answer", ad.Name())
			}
			if err == nil && a.Value != nil && !dpl.IsClosedValue(a.Value) {
				t.Fatalf("%s: the answer %s is not a closed value", ad.Name(), dpl.Format(a.Value))
			}
		}
	})
}

// BenchmarkDiffLoop times the derivative through the 50-iteration squaring loop
// with pruned (issue: well under a second).
func BenchmarkDiffLoop(b *testing.B) {
	prog := dplcases.Program(b, squaringLoop)
	for b.Loop() {
		if _, err := reduction.EvalDiff(dpl.Pruned, prog, interderive.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
