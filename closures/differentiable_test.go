package closures_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/dplcases"
	"github.com/interderive/interderive/internal/dplgen"
	"pgregory.net/rapid"
)

// Every expectation below is derived by hand (in the comments), or taken from the
// hand-derived tests of the reference semantics (reduction/differentiable_test.go).

// TestDiffEnvCases runs the hand-derived cases shared by the environment-based stages
// (internal/dplcases): spec vectors with their derivations, perturbation confusion,
// events, traces, and Figures 4 and 5.
func TestDiffEnvCases(t *testing.T) {
	dplcases.EnvSuite{Traced: closures.EvalDiffTraced, TraceDiff: closures.TraceDiff}.Run(t)
}

// TestDiffCases runs the other stages' shared hand-derived cases on this one too.
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: closures.EvalDiffTraced}.Run(t)
}

// diffRun evaluates a program, recording its contraction events and its rd.
func diffRun(ad dpl.Differentiator, prog dpl.Term, fuel int) (a dpl.Answer, events []string, rds [][2]dpl.Term, err error) {
	opts := interderive.Options{Fuel: fuel, OnContract: func(r string) { events = append(events, r) }}
	a, err = closures.EvalDiffTraced(ad, prog, opts, func(c, d dpl.Term) { rds = append(rds, [2]dpl.Term{c, d}) })
	return a, events, rds, err
}

// TestDiffSteps follows let x:real = 2 in x + x step by step: environment steps
// (expand, lookup) are no contractions and leave the read-back unchanged; the let
// contracts to (x + x)[ε|x ↦ 2], which reads back as 2 + 2.
func TestDiffSteps(t *testing.T) {
	type step struct{ kind, term string }
	want := []step{
		{"expand", "let x:real = 2 in x + x"},
		{"let", "2 + 2"},
		{"expand", "2 + 2"},
		{"lookup", "2 + 2"},
		{"lookup", "2 + 2"},
		{"plus", "4"},
	}
	var got []step
	var events []string
	hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
		kind := ev.Rule
		if kind == "" {
			kind = ev.Env
		}
		got = append(got, step{kind, dpl.Format(closures.DiffSigma(ev.Mode, ev.Next))})
	}}
	opts := interderive.Options{OnContract: func(r string) { events = append(events, r) }}
	a, err := closures.EvalDiffHooks(dpl.Pruned, dplcases.Program(t, "let x:real = 2 in x + x"), opts, hooks)
	if err != nil || a.Observe() != "4" {
		t.Fatalf("%v (%v)", a, err)
	}
	if !slices.Equal(got, want) || !slices.Equal(events, []string{"let", "plus"}) {
		t.Errorf("steps %v (events %v), want %v", got, events, want)
	}
}

// TestDiffReadBack: a closure reads back to the term the reference semantics has at
// the same point. Functions read back as calls resolved to their closures, whose
// bodies keep their own recursive calls unresolved; a symbolic binding stays a
// variable under symbolic evaluation, an ordinary one is substituted.
func TestDiffReadBack(t *testing.T) {
	prog := dplcases.Program(t, "letrec f(x:real):real = if x <. 0.5 then 0 else f(x + -1) in f(2)")
	var afterLetrec closures.DiffClosure
	hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
		if ev.Rule == "letrec" {
			afterLetrec = ev.Next
		}
	}}
	if _, err := closures.EvalDiffHooks(dpl.Pruned, prog, interderive.Options{}, hooks); err != nil {
		t.Fatal(err)
	}
	call, ok := closures.DiffSigma(dpl.Ordinary, afterLetrec).(*dpl.Call)
	if !ok || call.Clo == nil || dpl.Format(call) != "f(2)" {
		t.Fatalf("after letrec: %v, want f(2) resolved", call)
	}
	body := call.Clo.Body.(*dpl.If).Else.(*dpl.Call)
	if call.Clo.Name != "f" || body.Name != "f" || body.Clo != nil {
		t.Errorf("the closure's body %s: its call of f must stay unresolved", dpl.Format(call.Clo.Body))
	}
	env := (*closures.DiffEnv)(nil).Bind("a", &dpl.RealLit{R: 3}, false).Bind("x", &dpl.RealLit{R: 2}, true)
	cl := &closures.DiffClo{M: dplcases.Expected(t, "a * x"), Env: env}
	if got := dpl.Format(closures.DiffSigma(dpl.Symbolic, cl)); got != "mul(<3, x>)" {
		t.Errorf("symbolic read-back %s, want mul(<3, x>)", got)
	}
	if got := dpl.Format(closures.DiffSigma(dpl.Ordinary, cl)); got != "mul(<3, 2>)" {
		t.Errorf("ordinary read-back %s, want mul(<3, 2>)", got)
	}
	shadow := &closures.DiffClo{M: dplcases.Expected(t, "let a:real = x in a + a"), Env: env}
	if got := dpl.Format(closures.DiffSigma(dpl.Ordinary, shadow)); got != "let a:real = 2 in a + a" {
		t.Errorf("read-back under a binder %s, want let a:real = 2 in a + a", got)
	}
}

// TestDiffEnvironmentSteps: on random programs, no environment step changes the
// read-back of the closure (in either judgement), and every contraction that completes
// is one event.
func TestDiffEnvironmentSteps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplgen.Full(4))
		var failure string
		steps, contractions, events := 0, 0, 0
		hooks := closures.DiffHooks{Step: func(ev closures.DiffEvent) {
			if ev.Rule != "" {
				contractions++
				return
			}
			steps++
			before := closures.DiffSigma(ev.Mode, ev.Context.Plug(ev.Redex))
			after := closures.DiffSigma(ev.Mode, ev.Next)
			if failure == "" && !dpl.AlphaEqual(before, after) {
				failure = ev.Env + ": " + dpl.Format(before) + " became " + dpl.Format(after)
			}
		}}
		opts := interderive.Options{Fuel: 5000, OnContract: func(string) { events++ }}
		a, err := closures.EvalDiffHooks(dpl.Pruned, prog, opts, hooks)
		if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) && !errors.Is(err, dpl.ErrOverBudget) {
			t.Fatalf("%v\n%s", err, dpl.Format(prog))
		}
		if failure != "" {
			t.Fatalf("%s\n%s", failure, dpl.Format(prog))
		}
		if err == nil && a.Undefined == nil && contractions != events { // an undefined contraction does not complete
			t.Fatalf("%d contractions observed, %d events", contractions, events)
		}
	})
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

// TestDiffDeep: contexts of any depth are data; the nesting of layers and of traces is
// bounded with an error, not a crash.
func TestDiffDeep(t *testing.T) {
	// Non-tail recursion under ordinary evaluation grows the context: 1000 + ... + 1.
	sum := dplcases.Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(1000)")
	if a, _, _, err := diffRun(dpl.Pruned, sum, 0); err != nil || a.Observe() != "500500" {
		t.Errorf("sum(1000) = %v, %v; want 500500", a, err)
	}
	// Under rd, each pending call of a non-tail recursion is a nested layer.
	deep := dplcases.Program(t, "letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(20000))")
	if _, _, _, err := diffRun(dpl.Pruned, deep, 0); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("20000 nested layers: %v, want too deep", err)
	}
	// A loop of 60000 iterations traces to a let-chain deeper than dpl.MaxDepth.
	long := dplcases.Program(t, "letrec l(p:real * real):real = if snd(p) <. 0.5 then fst(p) else l(<fst(p) + 1, snd(p) + -1>) in 1.rd[1](x:real. l(<x, 60000>))")
	if _, _, _, err := diffRun(dpl.Pruned, long, 0); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("a trace of 60000 iterations: %v, want too deep", err)
	}
}
