package dplcases

import (
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// More of Suite's cases: whole contraction sequences, the trace and derivative of
// every rd, and symbolic evaluation rule by rule (Figures 4 and 5). Every expectation
// is derived by hand (in the comments), or taken from the hand-derived tests of the
// reference semantics (reduction/differentiable_test.go).

// testContractions pins whole contraction sequences, derived by hand.
func (s Suite) testContractions(t *testing.T) {
	tests := []struct {
		src, answer string
		events      []string
		prefix      bool // events is how the sequence starts
	}{
		// Figure 2 and 3: one event per redex, left to right.
		{"(1 + 2) + 3", "6", []string{"plus", "plus"}, false},
		{"let x:real = 1 + 2 in x + x", "6", []string{"plus", "let", "plus"}, false},
		{"fst(<1 + 2, 3>)", "3", []string{"plus", "fst"}, false},
		{"<1, ()>", "<1, ()>", nil, false},
		// f(2): the call, the test 2 <. 0.5 (false), the branch, 2 + -1, and so on down to
		// the test 0 <. 0.5 (true).
		{"letrec f(x:real):real = if x <. 0.5 then 0 else f(x + -1) in f(2)", "0",
			[]string{"letrec", "call", "pred", "if", "plus", "call", "pred", "if", "plus", "call", "pred", "if"}, false},
		// rd, then the trace mul(<x, x>) (sym/op), then the derivative
		// let x = 2 in let y = mul_r(<<x, x>, 1>) in let z = y in let y1 = fst(z) in
		// let z1 = snd(z) in y1 + z1 evaluated: let, op, let, let, fst, let, snd, let, plus.
		{"1.rd[2](x:real. x * x)", "4", []string{"rd", "sym/op", "let", "op", "let", "let", "fst", "let", "snd", "let", "plus"}, false},
		// The spec's nested example: the inner rd is a redex in the nontrivial context
		// mul(<x, []>): sym/rd, its trace x + y (sym/plus), its derivative 0 + 1
		// evaluated (plus, Figure 5's C ⇒ V), then sym/op ends the trace.
		{"1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", "1", []string{"rd", "sym/rd", "sym/plus", "plus", "sym/op"}, true},
		// An undefined op is the last event.
		{"1 + log(0)", "undefined", []string{"op"}, false},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "undefined", []string{"rd", "sym/pred"}, false},
	}
	for _, tt := range tests {
		for _, ad := range dpl.Figure6Strategies() {
			r := s.run(ad, Program(t, tt.src), 0)
			a, events, err := r.Answer, r.Events, r.Err
			if err != nil || a.Observe() != tt.answer {
				t.Errorf("%s/%s: %v (%v), want %s", tt.src, ad.Name(), a, err, tt.answer)
			}
			if tt.prefix && len(events) > len(tt.events) {
				events = events[:len(tt.events)] // the derivative's events follow
			}
			if !slices.Equal(events, tt.events) {
				t.Errorf("%s/%s: events %v, want %v", tt.src, ad.Name(), events, tt.events)
			}
		}
	}
}

// testTraced: the trace and derivative of every rd, in the order the rules fire.
// Under let a = 3, the body a * x traces to mul(<3, x>): a is the ordinary evaluation's,
// substituted, and x is the rd's, symbolic. Its derivative (Figure 6 and pruned alike:
// the op clause, then the pair clause's let-tuple, 1.R(x. 3) = 0 and z1.R(x. x) = z1)
// evaluates to 0 + 1 * 3.
func (s Suite) testTraced(t *testing.T) {
	for _, ad := range dpl.Figure6Strategies() {
		r := s.run(ad, Program(t, "let a:real = 3 in 1.rd[2](x:real. a * x)"), 0)
		want := []string{"let", "rd", "sym/op", "let", "op", "let", "let", "fst", "let", "snd", "let", "plus"}
		if r.Err != nil || r.Answer.Observe() != "3" || !slices.Equal(r.Events, want) || len(r.Traces) != 1 {
			t.Fatalf("%s: %v (%v), events %v, %d rd; want 3, %v, 1 rd", ad.Name(), r.Answer, r.Err, r.Events, len(r.Traces), want)
		}
		trace := Expected(t, "mul(<3, x>)")
		der := Expected(t, `let x:real = 2 in let y:real * real = mul_r(<<3, x>, 1>) in
			let z:real * real = y in let y1:real = fst(z) in let z1:real = snd(z) in 0 + z1`)
		if !dpl.AlphaEqual(r.Traces[0], trace) || !dpl.AlphaEqual(r.Ders[0], der) {
			t.Errorf("%s: trace %s, derivative %s", ad.Name(), dpl.Format(r.Traces[0]), dpl.Format(r.Ders[0]))
		}
	}
	// The nested example reports the inner rd first (trace x + y, derivative
	// 1.R_1(y. x + y) = 0_real + 1), then the outer one, whose trace is spec §6's. The
	// tape adds no zero for x, which is not active: its derivative is the cotangent 1,
	// and the outer trace binds s to it.
	nested := map[string][]string{
		"pruned":  {"x + y", "0 + 1", "let s:real = 0 + 1 in mul(<x, s>)"},
		"figure6": {"x + y", "0 + 1", "let s:real = 0 + 1 in mul(<x, s>)"},
		"tape":    {"x + y", "1", "let s:real = 1 in mul(<x, s>)"},
	}
	for _, ad := range dpl.Differentiators() {
		r := s.run(ad, Program(t, "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"), 0)
		if r.Err != nil || len(r.Traces) != 2 {
			t.Fatalf("%s: %d rd (%v), want 2", ad.Name(), len(r.Traces), r.Err)
		}
		rds := [][2]dpl.Term{{r.Traces[0], r.Ders[0]}, {r.Traces[1], r.Ders[1]}}
		for i, want := range nested[ad.Name()] {
			if got := rds[i/2][i%2]; !dpl.AlphaEqual(got, Expected(t, want)) {
				t.Errorf("%s: %s, want %s", ad.Name(), dpl.Format(got), want)
			}
		}
	}
}

// Figures4And5 checks a stage's symbolic evaluation, ρ ⊢ M ⇝ C, rule by rule (Figure 4:
// the redexes in the trivial context; Figure 5: in a nontrivial context), against
// traces derived by hand (compared up to α-renaming), and the events it reports
// (Suite runs it on the stages that have a TraceDiff).
func Figures4And5(t *testing.T, traceDiff TraceDiff) {
	two := map[string]dpl.Term{"x": &dpl.RealLit{R: 2}}
	tests := []struct {
		name   string
		rho    map[string]dpl.Term
		term   string
		trace  string
		events []string
	}{
		// Figure 4.
		{"V", two, "<x, 1>", "<x, 1>", nil},
		{"plus", two, "x + 1", "x + 1", []string{"sym/plus"}},
		{"op", two, "sin(x)", "sin(x)", []string{"sym/op"}},
		// No definedness check: log(x) ⇝ log(x) at x = -1.
		{"op/undefined", map[string]dpl.Term{"x": &dpl.RealLit{R: -1}}, "log(x)", "log(x)", []string{"sym/op"}},
		{"fst", two, "fst(<x, 1>)", "fst(<x, 1>)", []string{"sym/fst"}},
		{"snd", two, "snd(<x, 1>)", "snd(<x, 1>)", []string{"sym/snd"}},
		{"let", two, "let y:real = x in y + y", "let y:real = x in y + y", []string{"sym/let", "sym/plus"}},
		// if true: the condition is decided with ρ(x) = 2 (sym/pred), the branch traced.
		{"if/true", two, "if x <. 3 then x + 1 else x", "x + 1", []string{"sym/pred", "sym/if", "sym/plus"}},
		{"if/false", two, "if 3 <. x then x + 1 else x", "x", []string{"sym/pred", "sym/if"}},
		{"letrec", two, "letrec f(a:real):real = a in x", "x", []string{"sym/letrec"}},
		// f(V) ⇝ let a:real = V in C, C the trace of the body under {a ↦ 2}.
		{"call", two, "letrec f(a:real):real = a + a in f(x)", "let a:real = x in a + a",
			[]string{"sym/letrec", "sym/call", "sym/plus"}},
		// x.rd[1](y. y + y) ⇝ x.R_1(y. y + y) = x + x (Figure 6).
		{"rd", two, "x.rd[1](y:real. y + y)", "x + x", []string{"sym/rd", "sym/plus"}},
		// Figure 5: E[R] ⇝ let s:T_V = C in D, with C ⇒ V evaluated (the plus event).
		{"E[R]", two, "(x + 1) + 2", "let s:real = x + 1 in s + 2", []string{"sym/plus", "plus", "sym/plus"}},
		{"E[let]", two, "(let y:real = x in y) + 1", "let s:real = (let y:real = x in y) in s + 1",
			[]string{"sym/let", "let", "sym/plus"}},
		{"E[call]", two, "letrec f(a:real):real = a + a in f(x) + 1", "let s:real = (let a:real = x in a + a) in s + 1",
			[]string{"sym/letrec", "sym/call", "sym/plus", "let", "plus", "sym/plus"}},
		// E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C; then E[if true ...] by Figure 5.
		{"E[R_bool]", two, "(if x <. 3 then x else 0) + 1", "let s:real = x in s + 1",
			[]string{"sym/pred", "sym/if", "sym/plus"}},
		{"E[rd]", two, "x * x.rd[1](y:real. y + y)", "let s:real = x + x in mul(<x, s>)",
			[]string{"sym/rd", "sym/plus", "plus", "sym/op"}},
		// Spec §6: under {x ↦ 1}, x * 1.rd[1](y. x + y) ⇝ let s:real = 0 + 1 in mul(<x, s>).
		{"spec", map[string]dpl.Term{"x": &dpl.RealLit{R: 1}}, "x * 1.rd[1](y:real. x + y)", "let s:real = 0 + 1 in mul(<x, s>)",
			[]string{"sym/rd", "sym/plus", "plus", "sym/op"}},
		// Figure 5 twice: (x + 1) ⇝ s1, then s1 * s1 is op(<s1, s1>) in the trivial context.
		{"E[R] twice", two, "let y:real = x + 1 in y * (y + 1)", "let s1:real = x + 1 in let y:real = s1 in let s2:real = y + 1 in mul(<y, s2>)",
			[]string{"sym/plus", "plus", "sym/let", "sym/plus", "plus", "sym/op"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, ad := range dpl.Figure6Strategies() {
				var events []string
				c, undef, err := traceDiff(ad, tt.rho, Open(t, tt.rho, tt.term),
					interderive.Options{OnContract: func(r string) { events = append(events, r) }})
				if err != nil || undef != nil {
					t.Fatalf("%s: %s: %v %v", ad.Name(), tt.term, undef, err)
				}
				if want := Expected(t, tt.trace); !dpl.AlphaEqual(c, want) {
					t.Errorf("%s: %s ⇝ %s, want %s", ad.Name(), tt.term, dpl.Format(c), tt.trace)
				}
				if !slices.Equal(events, tt.events) {
					t.Errorf("%s: %s: events %v, want %v", ad.Name(), tt.term, events, tt.events)
				}
			}
		})
	}
	// A condition on the diagonal, and an undefined trace in a nontrivial context (C ⇒ V
	// fails), leave symbolic evaluation without a result.
	rho := map[string]dpl.Term{"x": &dpl.RealLit{R: 0}}
	for _, src := range []string{"if x <. 0 then 0 else x", "log(x) + 1"} {
		_, undef, err := traceDiff(dpl.Pruned, rho, Open(t, rho, src), interderive.Options{})
		if err != nil || undef == nil {
			t.Errorf("%s: undefined %v, err %v; want undefined", src, undef, err)
		}
	}
}
