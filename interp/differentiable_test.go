package interp_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/interp"
)

// Every expectation below is derived by hand (in the comments), the shared cases'
// in package dplcases.

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: interp.EvalDiffTraced, Stage: interp.Stage{}.Differentiable(), TraceDiff: interp.TraceDiff}.Run(t)
}

// TestDiffDeep: the interpreter's recursion is bounded (interp.MaxDepth) with an
// error, never a Go stack overflow; tail calls are loops. (The nesting of layers and
// of traces is bounded as in the reference: dplcases' Bounds.)
func TestDiffDeep(t *testing.T) {
	// A million iterations in tail position: a loop, whatever the depth bound. Under
	// -short, 200,000 iterations, still past interp.MaxDepth; the full run covers a
	// million.
	iters := 1_000_000
	if testing.Short() {
		iters = 200_000
	}
	loop := dplcases.Program(t, fmt.Sprintf("letrec f(n:real):real = if n <. 0.5 then n else f(n + -1) in f(%d)", iters))
	if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, loop, 0); r.Err != nil || r.Answer.Observe() != "0" || len(r.Events) != 1+4*iters+3 {
		// letrec; call, pred, if, plus for n = iters down to 1; call, pred, if at 0.
		t.Errorf("f(%d) = %v, %v after %d events; want 0 after 1 + %d + 3", iters, r.Answer, r.Err, len(r.Events), 4*iters)
	}
	// Non-tail recursion 2000 deep: 2000 + ... + 1.
	sum := dplcases.Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(2000)")
	if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, sum, 0); r.Err != nil || r.Answer.Observe() != "2.001e+06" {
		t.Errorf("sum(2000) = %v, %v; want 2.001e+06", r.Answer, r.Err)
	}
	// A million deep: the depth bound, an error and not a crash.
	deep := []string{
		"letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(1000000)",
		"letrec sum(n:real):real = if n <. 0.5 then 0 else sum(n + -1) + n in sum(1000000)",
		"letrec d(n:real):real = if n <. 0.5 then 0 else let y:real = d(n + -1) in y + 1 in d(1000000)",
	}
	if testing.Short() {
		deep = deep[:1] // reaching the bound takes half a second: the full run tries all three
	}
	for _, src := range deep {
		var de *interderive.DepthError
		if r := dplcases.Record(interp.EvalDiffTraced, dpl.Pruned, dplcases.Program(t, src), 0); !errors.As(r.Err, &de) || de.Limit != interp.MaxDepth {
			t.Errorf("%s: %v, want the recursion bound %d", src, r.Err, interp.MaxDepth)
		}
	}
}

// TestDiffFused: R fused with the evaluation of its output (the default under tape,
// when nothing observes the derivative) against the unfused evaluation, which builds
// and evaluates every derivative term: the same contractions, one by one, the same
// answers to the bit, the same definedness and errors (dplcases.Fused).
func TestDiffFused(t *testing.T) {
	dplcases.Fused(t, interp.EvalDiffTraced, interp.Stage{}.Differentiable(), "../testdata/differentiable")
}

// TestDiffFusedEvents pins the interpreter's fused rd (the trace fed to R as it is
// recorded, the derivative evaluated as R emits it: nothing observes either) on a
// trace with every kind of let the sink takes, the contractions and the bits derived
// by hand; the unfused run (the trace and the derivative term built, then evaluated)
// must agree with them. The program is
// letrec f(y:real):real = y * 2 in 1.rd[3](x:real. f(x * x)):
//   - letrec; rd (its point and cotangent are values);
//   - the trace of f(x * x) under x = 3: x * x in the call's argument, a nontrivial
//     context (Figure 5): sym/op, then op (x * x ⇒ 9), the trace growing by
//     let s = x * x; sym/call, the trace growing by let y = s; y * 2 ends the trace:
//     sym/op. C = let s = x * x in let y = s in y * 2;
//   - tape's derivative of C (tape.go), evaluated: let x' = 3 (x' is needed); the
//     forward pass a = x' * x': op, let; the backward pass from W = 1, through
//     a * 2: g = mul_r(<<a, 2>, 1>) = <2, 9>: op, let; its first component to a
//     (2 is a constant): fst, let; through x' * x': g' = mul_r(<<x', x'>, 2>) = <6, 6>:
//     op, let; both components to x': let z = g', fst and its let, snd and its let;
//     the body is x'bar's two contributions summed: plus, 6 + 6 = 12 = d(2x²)/dx at 3.
func TestDiffFusedEvents(t *testing.T) {
	prog := dplcases.Program(t, "letrec f(y:real):real = y * 2 in 1.rd[3](x:real. f(x * x))")
	want := []string{
		dpl.RuleLetrec, dpl.RuleRd,
		dpl.SymOp, dpl.RuleOp, dpl.SymCall, dpl.SymOp,
		dpl.RuleLet, dpl.RuleOp, dpl.RuleLet, dpl.RuleOp, dpl.RuleLet, dpl.RuleFst, dpl.RuleLet,
		dpl.RuleOp, dpl.RuleLet, dpl.RuleLet, dpl.RuleFst, dpl.RuleLet, dpl.RuleSnd, dpl.RuleLet, dpl.RulePlus,
	}
	for _, ad := range []dpl.Differentiator{dpl.Tape, dpl.Unfused(dpl.Tape)} {
		var got []string
		opts := interderive.Options{OnContract: func(rule string) { got = append(got, rule) }}
		a, err := interp.EvalDiffTraced(ad, prog, opts, nil)
		if err != nil || !dplcases.SameBits(a.Value, &dpl.RealLit{R: 12}) {
			t.Errorf("%s (fused: %v): %v, %v; want 12", ad.Name(), ad == dpl.Tape, a, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (fused: %v): contractions\n%v\nwant\n%v", ad.Name(), ad == dpl.Tape, got, want)
		}
	}
}
