package interp_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/dplcases"
	"github.com/interderive/interderive/interp"
)

// Every expectation below is derived by hand (in the comments), or taken from the
// hand-derived tests of the reference semantics (reduction/differentiable_test.go).

// TestDiffEnvCases runs the hand-derived cases shared by the environment-based stages
// (internal/dplcases): spec vectors with their derivations, perturbation confusion,
// events, traces, and Figures 4 and 5.
func TestDiffEnvCases(t *testing.T) {
	dplcases.EnvSuite{Traced: interp.EvalDiffTraced, TraceDiff: interp.TraceDiff}.Run(t)
}

// TestDiffCases runs the other stages' shared hand-derived cases on this one too.
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: interp.EvalDiffTraced}.Run(t)
}

// diffRun evaluates a program, recording its contraction events and its rd.
func diffRun(ad dpl.Differentiator, prog dpl.Term, fuel int) (a dpl.Answer, events []string, rds [][2]dpl.Term, err error) {
	opts := interderive.Options{Fuel: fuel, OnContract: func(r string) { events = append(events, r) }}
	a, err = interp.EvalDiffTraced(ad, prog, opts, func(c, d dpl.Term) { rds = append(rds, [2]dpl.Term{c, d}) })
	return a, events, rds, err
}

// TestDiffUndefined: undefined operators and predicates give the answer undefined
// with its cause.
func TestDiffUndefined(t *testing.T) {
	tests := []struct{ src, cause string }{
		{"log(0)", "log(0)"},
		{"1 / (2 - 2)", "inv(0)"},
		{"if 1 <. 1 then 0 else 1", "lt(<1, 1>)"},
		{"let u:real = inv(0) in 5", "inv(0)"},
		{"1e308 + 1e308", "1e+308 + 1e+308"},
		{"1.rd[0](x:real. 1 / x)", "inv(0)"},
		{"1.rd[2](x:real. if x * x <. 4 then x else 3 * x)", "lt(<4, 4>)"},
		{"1.rd[-1](x:real. log(x))", "log_r(<-1, 1>)"},
		{"1.rd[0](x:real. inv(x))", "inv_r(<0, 1>)"},
	}
	for _, tt := range tests {
		for _, ad := range dpl.Differentiators() {
			a, _, _, err := diffRun(ad, dplcases.Program(t, tt.src), 0)
			if err != nil || a.String() != "undefined: "+tt.cause {
				t.Errorf("%s: %s = %v (%v), want undefined: %s", ad.Name(), tt.src, a, err, tt.cause)
			}
		}
	}
}

// TestDiffFuel: a divergent program runs out of fuel after exactly its budget of
// contractions; 1.rd[2](x. x * x) takes 11 (TestDiffEvents).
func TestDiffFuel(t *testing.T) {
	for _, src := range []string{
		"letrec f(x:real):real = f(x + 1) in f(0)",
		"1.rd[1](x:real. letrec loop(y:real):real = loop(y) in loop(x))",
	} {
		_, events, _, err := diffRun(dpl.Pruned, dplcases.Program(t, src), 100)
		var fe *interderive.FuelError
		if !errors.As(err, &fe) || fe.Steps != 100 || len(events) != 100 {
			t.Errorf("%s: %v after %d events, want out of fuel after 100", src, err, len(events))
		}
	}
	prog := dplcases.Program(t, "1.rd[2](x:real. x * x)")
	if a, _, _, err := diffRun(dpl.Pruned, prog, 11); err != nil || a.Observe() != "4" {
		t.Errorf("with fuel 11: %v, %v", a, err)
	}
	if _, _, _, err := diffRun(dpl.Pruned, prog, 10); !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("with fuel 10: %v, want out of fuel", err)
	}
}

// TestDiffDeep: the interpreter's recursion is bounded (interp.MaxDepth) with an
// error, never a Go stack overflow; tail calls are loops; the nesting of layers and of
// traces is bounded as in the reference.
func TestDiffDeep(t *testing.T) {
	// A million iterations in tail position: a loop, whatever the depth bound.
	loop := dplcases.Program(t, "letrec f(n:real):real = if n <. 0.5 then n else f(n + -1) in f(1000000)")
	if a, events, _, err := diffRun(dpl.Pruned, loop, 0); err != nil || a.Observe() != "0" || len(events) != 4_000_004 {
		// letrec; call, pred, if, plus for n = 1000000 down to 1; call, pred, if at 0.
		t.Errorf("f(1000000) = %v, %v after %d events; want 0 after 1 + 4000000 + 3", a, err, len(events))
	}
	// Non-tail recursion 2000 deep: 2000 + ... + 1.
	sum := dplcases.Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(2000)")
	if a, _, _, err := diffRun(dpl.Pruned, sum, 0); err != nil || a.Observe() != "2.001e+06" {
		t.Errorf("sum(2000) = %v, %v; want 2.001e+06", a, err)
	}
	// A million deep: the depth bound, an error and not a crash.
	for _, src := range []string{
		"letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(1000000)",
		"letrec sum(n:real):real = if n <. 0.5 then 0 else sum(n + -1) + n in sum(1000000)",
		"letrec d(n:real):real = if n <. 0.5 then 0 else let y:real = d(n + -1) in y + 1 in d(1000000)",
	} {
		var de *interderive.DepthError
		if _, _, _, err := diffRun(dpl.Pruned, dplcases.Program(t, src), 0); !errors.As(err, &de) || de.Limit != interp.MaxDepth {
			t.Errorf("%s: %v, want the recursion bound %d", src, err, interp.MaxDepth)
		}
	}
	// Under rd, each pending call of a non-tail recursion is a nested layer.
	deep := dplcases.Program(t, "letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(20000))")
	var de *interderive.DepthError
	if _, _, _, err := diffRun(dpl.Pruned, deep, 0); !errors.As(err, &de) || de.Limit != dpl.MaxLayers {
		t.Errorf("20000 nested layers: %v, want the layer bound", err)
	}
	// A loop of 60000 iterations traces to a let-chain deeper than dpl.MaxDepth.
	long := dplcases.Program(t, "letrec l(p:real * real):real = if snd(p) <. 0.5 then fst(p) else l(<fst(p) + 1, snd(p) + -1>) in 1.rd[1](x:real. l(<x, 60000>))")
	if _, _, _, err := diffRun(dpl.Pruned, long, 0); !errors.As(err, &de) || de.Limit != dpl.MaxDepth {
		t.Errorf("a trace of 60000 iterations: %v, want too deep", err)
	}
}
