// Package dplcases holds hand-derived cases of the differentiable language — answers,
// whole contraction sequences, rd traces and derivatives, symbolic evaluation rule by
// rule, undefinedness, fuel, the bounds on nesting — that every stage's tests run
// (Suite, from the stage's TestDiffCases), and the helpers the stages' own tests share
// (Record, FlatStack, Program). The expectations are derived by hand (most of them in
// the comments), or are the paper's and its test vectors' (docs/differentiable.md).
package dplcases

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TraceDiff is a stage's symbolic evaluation ρ ⊢ M ⇝ C of an open term.
type TraceDiff func(ad dpl.Differentiator, rho map[string]dpl.Term, m dpl.Term, opts interderive.Options) (dpl.Term, *dpl.Undefined, error)

// Suite runs the cases on one stage: its evaluation, reporting every rd
// (EvalDiffTraced); its artefact as the workbench runs it (Stage, the stage's
// Differentiable(); nil: not checked), whose observer must see every rd as Traced
// reports it; and, for the stages that offer it, its symbolic evaluation of open
// terms (TraceDiff; nil: the cases that need it are skipped).
type Suite struct {
	Traced    dpl.Traced
	Stage     dpl.Stage
	TraceDiff TraceDiff
}

// Run runs every case as a subtest.
func (s Suite) Run(t *testing.T) {
	t.Run("SpecVectors", s.testSpecVectors)
	t.Run("OrdinaryEvents", s.testOrdinaryEvents)
	t.Run("Events", s.testEvents)
	t.Run("Contractions", s.testContractions)
	t.Run("NestedEvents", s.testNestedEvents)
	t.Run("Traced", s.testTraced)
	t.Run("Figure5", s.testFigure5)
	t.Run("SpecTrace", s.testSpecTrace)
	if s.TraceDiff != nil {
		t.Run("Figures4And5", func(t *testing.T) { Figures4And5(t, s.TraceDiff) })
	}
	t.Run("Undefined", s.testUndefined)
	t.Run("UndefinedDerivative", s.testUndefinedDerivative)
	t.Run("Fuel", s.testFuel)
	t.Run("ResolvedCall", s.testResolvedCall)
	t.Run("Bounds", s.testBounds)
	if s.Stage != nil {
		t.Run("Observed", s.testObserved)
	}
}

// Outcome is a run as the cases see it: its answer or error, its contractions, and
// every rd's trace and derivative, in the order they were reported.
type Outcome struct {
	Answer       dpl.Answer
	Err          error
	Events       []string
	Traces, Ders []dpl.Term
}

// Record runs prog on a stage (its EvalDiffTraced) under ad with the given fuel (0:
// the default), recording its contractions and its rd.
func Record(traced dpl.Traced, ad dpl.Differentiator, prog dpl.Term, fuel int) Outcome {
	var r Outcome
	opts := interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.Events = append(r.Events, rule) }}
	r.Answer, r.Err = traced(ad, prog, opts, func(c, d dpl.Term) {
		r.Traces = append(r.Traces, c)
		r.Ders = append(r.Ders, d)
	})
	return r
}

func (s Suite) run(ad dpl.Differentiator, prog dpl.Term, fuel int) Outcome {
	return Record(s.Traced, ad, prog, fuel)
}

// testSpecVectors runs the vectors under every strategy (under -short, each vector
// under one strategy in turn: vectorStrategies).
func (s Suite) testSpecVectors(t *testing.T) {
	for i, tt := range Vectors {
		for _, ad := range vectorStrategies(i) {
			r := s.run(ad, Program(t, tt.Src), 0)
			if r.Err != nil || r.Answer.Observe() != tt.Want {
				t.Errorf("%s/%s: %s = %v (%v), want %s", tt.Name, ad.Name(), tt.Src, r.Answer, r.Err, tt.Want)
			}
		}
	}
}

// testOrdinaryEvents: the contractions of ordinary evaluation, in order (Figures
// 2 and 3), on programs without rd.
func (s Suite) testOrdinaryEvents(t *testing.T) {
	tests := []struct {
		src, want string
		events    []string
	}{
		{"<1, ()>", "<1, ()>", nil}, // values: no contraction
		// <x, fst(<x, 5>)>[3/x]: plus, then let, then fst.
		{"let x:real = 1 + 2 in <x, fst(<x, 5>)>", "<3, 3>", []string{"plus", "let", "fst"}},
		{"snd(<sin(0), exp(0)>)", "1", []string{"op", "op", "snd"}},
		// f(2), f(1), f(0): each call, its condition and if; x + -1 twice.
		{"letrec f(x:real):real = if x <. 0.5 then 0 else f(x + -1) in f(2)", "0",
			[]string{"letrec", "call", "pred", "if", "plus", "call", "pred", "if", "plus", "call", "pred", "if"}},
		// The inner letrec is contracted when the call's body runs.
		{"letrec f(x:real):real = letrec g(y:real):real = y + 1 in g(x) in f(1)", "2",
			[]string{"letrec", "call", "letrec", "call", "plus"}},
	}
	for _, tt := range tests {
		r := s.run(dpl.Pruned, Program(t, tt.src), 0)
		if r.Err != nil || r.Answer.Observe() != tt.want || !slices.Equal(r.Events, tt.events) {
			t.Errorf("%s = %v (%v), events %v; want %s with %v", tt.src, r.Answer, r.Err, r.Events, tt.want, tt.events)
		}
	}
}

// testEvents pins whole event streams with rd, and the traces and derivatives.
//
// 1.rd[2](x. x * x): the body traces to mul(<x, x>) (sym/op); its derivative (both
// strategies: x occurs everywhere) is
//
//	let x:real = 2 in let y:real*real = mul_r(<<x, x>, 1>) in
//	let z:real*real = y in let y1:real = fst(z) in let z1:real = snd(z) in y1 + z1
//
// evaluated with let, op, let, let, fst, let, snd, let, plus: 2 + 2 = 4.
func (s Suite) testEvents(t *testing.T) {
	want := []string{"rd", "sym/op", "let", "op", "let", "let", "fst", "let", "snd", "let", "plus"}
	der := Expected(t, "let x:real = 2 in let y:real*real = mul_r(<<x, x>, 1>) in let z:real*real = y in let y1:real = fst(z) in let z1:real = snd(z) in y1 + z1")
	for _, ad := range dpl.Differentiators() {
		r := s.run(ad, Program(t, "1.rd[2](x:real. x * x)"), 0)
		if r.Err != nil || r.Answer.Observe() != "4" || !slices.Equal(r.Events, want) {
			t.Errorf("%s: %v (%v), events %v; want 4 with %v", ad.Name(), r.Answer, r.Err, r.Events, want)
		}
		if len(r.Traces) != 1 || !dpl.AlphaEqual(r.Traces[0], Expected(t, "mul(<x, x>)")) || !dpl.AlphaEqual(r.Ders[0], der) {
			t.Errorf("%s: traces %v, derivatives %v", ad.Name(), r.Traces, r.Ders)
		}
	}
}

// testNestedEvents: the paper's first example, event by event.
//
// The outer rd (rd) traces x * 1.rd[1](y. x + y) = mul(<x, rd>) under {x ↦ 1}: the
// inner rd is a redex in the nontrivial context mul(<x, []>) (sym/rd). Its body
// traces to x + y (sym/plus) and its derivative is 1.R_1(y. x + y) = 0 + 1 (x is
// not y: 0; y: the cotangent 1), which Figure 5 evaluates (plus) and binds to a fresh
// s; then mul(<x, s>) ends the trace (sym/op):
//
//	C = let s:real = 0 + 1 in mul(<x, s>)
//
// Its derivative 1.R_1(x. C) is Figure 6's let clause (s renamed, s' below):
//
//	let x = 1 in let s' = 0 + 1 in
//	  (let x = 1 in let y1 = mul_r(<<x, s'>, 1>) in let z3 = y1 in let y2 = fst(z3) in
//	   let z2 = snd(z3) in y2 + 0)
//	  + (let ȳ = (let u = s' in let y4 = mul_r(<<x, u>, 1>) in let z5 = y4 in
//	              let y5 = fst(z5) in let z6 = snd(z5) in 0 + z6)
//	     in ȳ.R_1(x. 0 + 1))
//
// where ȳ.R_1(x. 0 + 1) is let z7 = 0 + 1 in 0 under pruned (x does not occur) and
// 0 + 0 under Figure 6. Its evaluation: let, plus, let; then the left summand let, op,
// let, let, fst, let, snd, let, plus; the right one let, op, let, let, fst, let, snd,
// let, plus, let, and plus, let (pruned) or plus (figure6); and the final plus. The
// answer is (1 + 0) + 0 = 1.
func (s Suite) testNestedEvents(t *testing.T) {
	prefix := []string{"rd", "sym/rd", "sym/plus", "plus", "sym/op", "let", "plus", "let"}
	left := []string{"let", "op", "let", "let", "fst", "let", "snd", "let", "plus"}
	right := []string{"let", "op", "let", "let", "fst", "let", "snd", "let", "plus", "let"}
	body := map[string]string{"pruned": "let z7:real = 0 + 1 in 0", "figure6": "0 + 0"}
	tail := map[string][]string{"pruned": {"plus", "let", "plus"}, "figure6": {"plus", "plus"}}
	for _, ad := range dpl.Figure6Strategies() {
		want := slices.Concat(prefix, left, right, tail[ad.Name()])
		r := s.run(ad, Program(t, "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"), 0)
		if r.Err != nil || r.Answer.Observe() != "1" || !slices.Equal(r.Events, want) {
			t.Errorf("%s: %v (%v), events %v; want 1 with %v", ad.Name(), r.Answer, r.Err, r.Events, want)
		}
		// The inner rd is reported first, its contraction complete before the outer's.
		der := Expected(t, `let x:real = 1 in let s1:real = 0 + 1 in
			(let x:real = 1 in let y1:real*real = mul_r(<<x, s1>, 1>) in let z3:real*real = y1 in
			 let y2:real = fst(z3) in let z2:real = snd(z3) in y2 + 0)
			+ (let yb:real = (let u:real = s1 in let y4:real*real = mul_r(<<x, u>, 1>) in let z5:real*real = y4 in
			                  let y5:real = fst(z5) in let z6:real = snd(z5) in 0 + z6)
			   in `+body[ad.Name()]+`)`)
		wantTraces := []dpl.Term{Expected(t, "x + y"), Expected(t, "let s:real = 0 + 1 in mul(<x, s>)")}
		wantDers := []dpl.Term{Expected(t, "0 + 1"), der}
		if len(r.Traces) != 2 {
			t.Fatalf("%s: %d rd reported, want 2", ad.Name(), len(r.Traces))
		}
		for i := range 2 {
			if !dpl.AlphaEqual(r.Traces[i], wantTraces[i]) || !dpl.AlphaEqual(r.Ders[i], wantDers[i]) {
				t.Errorf("%s: rd %d: trace %s, derivative %s; want %s and %s", ad.Name(), i+1,
					dpl.Format(r.Traces[i]), dpl.Format(r.Ders[i]), dpl.Format(wantTraces[i]), dpl.Format(wantDers[i]))
			}
		}
	}
}

// testFigure5: symbolic evaluation of redexes in nontrivial contexts. Each redex
// R is traced (R ⇝ C, in a nested layer when R does not finish its trace at once),
// its trace evaluated (C ⇒ V, ordinary events), and bound to a fresh s in the trace;
// a condition is decided with the current value and never traced.
func (s Suite) testFigure5(t *testing.T) {
	tests := []struct {
		name, src string
		prefix    []string // the events up to the end of the rd's trace
		trace     string
	}{
		// (x + 1) + 2 at 2: x + 1 ⇝ x + 1 ⇒ 3, then s + 2 ends the trace.
		{"plus", "1.rd[2](x:real. (x + 1) + 2)", []string{"rd", "sym/plus", "plus", "sym/plus"},
			"let s:real = x + 1 in s + 2"},
		// let in [] + 1: a nested layer traces let y = x in mul(<y, y>), evaluated by let, op.
		{"let", "1.rd[2](x:real. (let y:real = x in y * y) + 1)", []string{"rd", "sym/let", "sym/op", "let", "op", "sym/plus"},
			"let s:real = (let y:real = x in mul(<y, y>)) in s + 1"},
		// sq(x) in [] + x: the call's trace let a = x in mul(<a, a>).
		{"call", "letrec sq(a:real):real = a * a in 1.rd[3](x:real. sq(x) + x)",
			[]string{"letrec", "rd", "sym/call", "sym/op", "let", "op", "sym/plus"},
			"let s:real = (let a:real = x in mul(<a, a>)) in s + x"},
		// 3 <. 2 is false (sym/pred); the else branch is traced in a nested layer.
		{"if", "1.rd[3](x:real. (if x <. 2 then x else x * x) + 1)",
			[]string{"rd", "sym/pred", "sym/if", "sym/op", "op", "sym/plus"},
			"let s:real = mul(<x, x>) in s + 1"},
		// A letrec in [] + 1 is traced in a nested layer too.
		{"letrec", "1.rd[3](x:real. (letrec f(a:real):real = a in f(x)) + 1)",
			[]string{"rd", "sym/letrec", "sym/call", "let", "sym/plus"},
			"let s:real = (let a:real = x in a) in s + 1"},
		// A condition in the trivial context: no nested layer.
		{"if-trivial", "1.rd[3](x:real. if x <. 2 then x else x * x)", []string{"rd", "sym/pred", "sym/if", "sym/op"},
			"mul(<x, x>)"},
	}
	for _, tt := range tests {
		for _, ad := range dpl.Differentiators() {
			r := s.run(ad, Program(t, tt.src), 0)
			if r.Err != nil || r.Answer.Undefined != nil {
				t.Errorf("%s/%s: %v (%v)", tt.name, ad.Name(), r.Answer, r.Err)
				continue
			}
			if len(r.Events) < len(tt.prefix) || !slices.Equal(r.Events[:len(tt.prefix)], tt.prefix) {
				t.Errorf("%s/%s: events %v, want them to start with %v", tt.name, ad.Name(), r.Events, tt.prefix)
			}
			if len(r.Traces) != 1 || !dpl.AlphaEqual(r.Traces[0], Expected(t, tt.trace)) {
				t.Errorf("%s/%s: traces %v, want %s", tt.name, ad.Name(), r.Traces, tt.trace)
			}
		}
	}
}

// testSpecTrace: spec §6, under {x ↦ 1}, x * 1.rd[1](y. x + y) traces to
// let s:real = 0 + 1 in mul(<x, s>); and the capture example traces x * x with the
// point's binder, the cotangent being the outer x's value.
func (s Suite) testSpecTrace(t *testing.T) {
	r := s.run(dpl.Pruned, Program(t, "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"), 0)
	if len(r.Traces) != 2 || !dpl.AlphaEqual(r.Traces[1], Expected(t, "let s:real = 0 + 1 in mul(<x, s>)")) {
		t.Errorf("traces %v", r.Traces)
	}
	// let x = 3 in x.rd[2](x. x * x): 3.R_2(x. mul(<x, x>)) =
	// let x = 2 in let y = mul_r(<<x, x>, 3>) in let z = y in let y1 = fst(z) in let z1 = snd(z) in y1 + z1.
	r = s.run(dpl.Pruned, Program(t, "let x:real = 3 in x.rd[2](x:real. x * x)"), 0)
	der := Expected(t, "let x:real = 2 in let y:real*real = mul_r(<<x, x>, 3>) in let z:real*real = y in let y1:real = fst(z) in let z1:real = snd(z) in y1 + z1")
	if r.Answer.Observe() != "12" || len(r.Ders) != 1 || !dpl.AlphaEqual(r.Ders[0], der) {
		t.Errorf("%v (%v), derivatives %v", r.Answer, r.Err, r.Ders)
	}
}

// testUndefined: undefined operators and predicates, inside and outside rd, give the
// answer undefined with its cause (any cause where the strategies differ: ""), never a
// number, NaN, an error or a crash.
func (s Suite) testUndefined(t *testing.T) {
	tests := []struct{ src, cause string }{
		{"log(0)", "log(0)"},
		{"log(-1)", "log(-1)"},
		{"1 + log(0)", "log(0)"},
		{"inv(0)", "inv(0)"},
		{"1 / (2 - 2)", "inv(0)"},
		{"if 1 <. 1 then 0 else 1", "lt(<1, 1>)"},
		{"let u:real = inv(0) in 5", "inv(0)"},
		{"exp(1000)", "exp(1000)"},           // overflows float64
		{"1e308 + 1e308", "1e+308 + 1e+308"}, // overflows float64
		{"mul(<1e200, 1e200>)", "mul(<1e+200, 1e+200>)"},
		// Inside rd: in the trace (Figure 5 evaluates non-final redexes), in a condition,
		// in the derivative only, and in a constant body.
		{"1.rd[0](x:real. 1 / x)", "inv(0)"},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "lt(<0, 0>)"},
		{"1.rd[2](x:real. if x * x <. 4 then x else 3 * x)", "lt(<4, 4>)"},
		{"1.rd[-1](x:real. log(x))", "log_r(<-1, 1>)"},
		// The trace is let a = neg(1) in let b = x + a in log(b), b = 0: figure6
		// computes log_r(<0, 1>), pruned evaluates log(b) itself (x does not occur in it).
		{"1.rd[1](x:real. log(x - 1))", ""},
		{"1.rd[0](x:real. inv(x))", "inv_r(<0, 1>)"},
		{"1.rd[1](x:real. log(0))", ""}, // pruned: log(0); figure6: log_r(<0, 1>)
		{"1 / (1.rd[2](x:real. log(x)) - 0.5)", "inv(0)"},
		// Nested: the inner derivative is undefined.
		{"1.rd[1](x:real. 1.rd[x - 1](y:real. log(y)))", "log_r(<0, 1>)"},
	}
	for _, tt := range tests {
		for _, ad := range dpl.Differentiators() {
			r := s.run(ad, Program(t, tt.src), 0)
			if r.Err != nil || r.Answer.Undefined == nil {
				t.Errorf("%s: %s = %v (%v), want undefined", ad.Name(), tt.src, r.Answer, r.Err)
				continue
			}
			if tt.cause != "" && r.Answer.String() != "undefined: "+tt.cause {
				t.Errorf("%s: %s = %v, want undefined: %s", ad.Name(), tt.src, r.Answer, tt.cause)
			}
		}
	}
}

// testUndefinedDerivative: an rd in a nontrivial context of a symbolic evaluation
// whose derivative is undefined. The inner body log(y) traces to log(y) (sym/op); its
// derivative let y = 0 in let y1 = log_r(<y, 1>) in y1 is evaluated by Figure 5 (let,
// then op, undefined). The inner rd's contraction never completes, so no rd is
// reported (the reference semantics reports an rd when its contraction is complete).
func (s Suite) testUndefinedDerivative(t *testing.T) {
	want := []string{"rd", "sym/rd", "sym/op", "let", "op"}
	for _, ad := range dpl.Differentiators() {
		r := s.run(ad, Program(t, "1.rd[1](x:real. x * 1.rd[0](y:real. log(y)))"), 0)
		if r.Err != nil || r.Answer.String() != "undefined: log_r(<0, 1>)" || !slices.Equal(r.Events, want) || len(r.Traces) != 0 {
			t.Errorf("%s: %v (%v), events %v, %d rd reported; want undefined with %v and none", ad.Name(), r.Answer, r.Err, r.Events, len(r.Traces), want)
		}
	}
}

// testFuel: a divergent program runs out of fuel after exactly its budget of
// contractions; exactly enough fuel is enough.
func (s Suite) testFuel(t *testing.T) {
	for _, src := range []string{
		"letrec f(x:real):real = f(x + 1) in f(0)",
		"1.rd[1](x:real. letrec loop(y:real):real = loop(y) in loop(x))",
	} {
		r := s.run(dpl.Pruned, Program(t, src), 100)
		var fe *interderive.FuelError
		if !errors.As(r.Err, &fe) || fe.Steps != 100 || len(r.Events) != 100 {
			t.Errorf("%s: %v after %d events, want out of fuel after 100", src, r.Err, len(r.Events))
		}
	}
	prog := Program(t, "1.rd[2](x:real. x * x)") // 11 contractions (testEvents)
	if r := s.run(dpl.Pruned, prog, 11); r.Err != nil || r.Answer.Observe() != "4" {
		t.Errorf("with fuel 11: %v, %v", r.Answer, r.Err)
	}
	if r := s.run(dpl.Pruned, prog, 10); !errors.Is(r.Err, interderive.ErrOutOfFuel) {
		t.Errorf("with fuel 10: %v, want out of fuel", r.Err)
	}
}

// testResolvedCall: a call that dpl.SubstClosure has resolved to its closure (as the
// reference semantics' terms hold them) runs that closure, its recursive calls
// resolved at call time: f(2) with f(x) = if x <. 0.5 then x else f(x + -1) is
// call, pred, if, plus, call, pred, if, plus, call, pred, if, and 0.
func (s Suite) testResolvedCall(t *testing.T) {
	l := Program(t, "letrec f(x:real):real = if x <. 0.5 then x else f(x + -1) in f(2)").(*dpl.Letrec)
	clo := &dpl.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun}
	prog := dpl.SubstClosure(l.Body, l.Name, clo)
	want := []string{"call", "pred", "if", "plus", "call", "pred", "if", "plus", "call", "pred", "if"}
	if r := s.run(dpl.Pruned, prog, 0); r.Err != nil || r.Answer.Observe() != "0" || !slices.Equal(r.Events, want) {
		t.Errorf("%v (%v), events %v; want 0 with %v", r.Answer, r.Err, r.Events, want)
	}
}

// testBounds: a non-tail recursion 1000 deep answers (1000 + ... + 1 = 500500); the
// nesting of layers is bounded at dpl.MaxLayers (under rd, each pending call of a
// non-tail recursion is a nested layer: 20000 of them), and a trace at dpl.MaxDepth (a
// loop of 60000 iterations traces to a let-chain of 120000 lets), with an error, not a
// crash, on every stage alike.
func (s Suite) testBounds(t *testing.T) {
	// sum(n) = n(n+1)/2: sum(1000) in the full run; under -short sum(300), since the
	// calculus of closures takes over a second on sum(1000).
	n, want := "1000", "500500"
	if testing.Short() {
		n, want = "300", "45150"
	}
	sum := Program(t, "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum("+n+")")
	if r := s.run(dpl.Pruned, sum, 0); r.Err != nil || r.Answer.Observe() != want {
		t.Errorf("sum(%s) = %v, %v; want %s", n, r.Answer, r.Err, want)
	}
	if testing.Short() {
		// The two bounds below take seconds on the calculus of closures and the
		// reduction semantics; the full run (go test ./...) checks them on every stage.
		t.Logf("under -short, the layer bound %d and the depth bound %d are left to the full run", dpl.MaxLayers, dpl.MaxDepth)
		return
	}
	var de *interderive.DepthError
	deep := Program(t, "letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(20000))")
	if r := s.run(dpl.Pruned, deep, 0); !errors.As(r.Err, &de) || de.Limit != dpl.MaxLayers {
		t.Errorf("20000 nested layers: %v, want the layer bound %d", r.Err, dpl.MaxLayers)
	}
	long := Program(t, "letrec l(p:real * real):real = if snd(p) <. 0.5 then fst(p) else l(<fst(p) + 1, snd(p) + -1>) in 1.rd[1](x:real. l(<x, 60000>))")
	if r := s.run(dpl.Pruned, long, 0); !errors.As(r.Err, &de) || de.Limit != dpl.MaxDepth {
		t.Errorf("a trace of 60000 iterations: %v, want the depth bound %d", r.Err, dpl.MaxDepth)
	}
}

// testObserved: the stage's artefact gives the answer and the contractions of its
// EvalDiffTraced, and reports to its observer every rd that EvalDiffTraced reports, in
// the same order: its trace, then its derivative. An observed run prints its steps
// (the calculus of closures prints its closures, read back, at each of them), so the
// vectors of more than observedMost contractions are left out.
func (s Suite) testObserved(t *testing.T) {
	for i, tt := range Vectors {
		for _, ad := range vectorStrategies(i) {
			prog := Program(t, tt.Src)
			want := s.run(ad, prog, 0)
			if len(want.Events) > observedMost {
				continue
			}
			var got Outcome
			obs := &reports{}
			opts := interderive.Options{Observer: obs, OnContract: func(rule string) { got.Events = append(got.Events, rule) }}
			got.Answer, got.Err = s.Stage.Eval(ad, prog, opts)
			if got.Err != nil || got.Answer.String() != want.Answer.String() || !slices.Equal(got.Events, want.Events) {
				t.Errorf("%s/%s: %v (%v) with %d contractions, want %v (%v) with %d", tt.Name, ad.Name(),
					got.Answer, got.Err, len(got.Events), want.Answer, want.Err, len(want.Events))
			}
			if !slices.EqualFunc(obs.terms, want.reported(), dpl.AlphaEqual) || !slices.Equal(obs.labels, want.labels()) {
				t.Errorf("%s/%s: reports %v %v, want the rd of EvalDiffTraced: %v", tt.Name, ad.Name(), obs.labels, obs.terms, want.reported())
			}
		}
	}
}

// vectorStrategies is the strategies the i-th vector runs under: every one, or under
// -short one in turn (the full run, go test ./..., runs every vector under every
// strategy). In this turn the two vectors of tens of thousands of contractions under
// figure6 (three-levels, own-derivative) run under tape and pruned.
func vectorStrategies(i int) []dpl.Differentiator {
	all := dpl.Differentiators()
	if !testing.Short() {
		return all
	}
	return all[i%len(all) : i%len(all)+1]
}

// observedMost is the most contractions of a vector testObserved runs.
const observedMost = 500

// reports is an observer that keeps what a run reports.
type reports struct {
	labels []string
	terms  []dpl.Term
}

func (r *reports) Step(string)       {}
func (r *reports) About(int, string) {}
func (r *reports) Report(_ int, label string, value any, _ string) {
	r.labels = append(r.labels, label)
	t, _ := value.(dpl.Term)
	r.terms = append(r.terms, t)
}

// reported is the terms of the rd of o, as an observer receives them: each trace,
// then its derivative.
func (o Outcome) reported() []dpl.Term {
	var ts []dpl.Term
	for i := range o.Traces {
		ts = append(ts, o.Traces[i], o.Ders[i])
	}
	return ts
}

// labels is the labels under which an observer receives the rd of o.
func (o Outcome) labels() []string {
	var ls []string
	for range o.Traces {
		ls = append(ls, dpl.ReportTrace, dpl.ReportDerivative)
	}
	return ls
}
