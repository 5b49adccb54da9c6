package reduction_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/reduction"
)

func parseCast(t testing.TB, src string) g.Expr {
	t.Helper()
	e, err := g.Parse([]byte(src), g.CastCalculus)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

// TestRules contracts one redex per rule of spec §4 (and a StepCst for every
// coercion rule), checking the rule's name, the context, and the term after the step.
// Expected terms are the right-hand sides of the rules, instantiated by hand.
func TestRules(t *testing.T) {
	all := g.Standard()
	lazy := []g.Semantics{g.LD, g.LUD}
	eager := []g.Semantics{g.ED, g.EUD}
	tests := []struct {
		rule    string
		sems    []g.Semantics
		term    string
		context string
		next    string
	}{
		{"beta", all, `(\x:Int. inc x) 3`, "[]", "inc 3"},
		{"beta", all, `(\x:Int. \x:Bool. x) 3`, "[]", `\x:Bool. x`}, // shadowing
		{"delta", all, "inc 3", "[]", "4"},
		{"delta", all, "dec 3", "[]", "2"},
		{"delta", all, "zero? 0", "[]", "true"},
		{"delta", all, "2 * 3 + 1", "[] + 1", "6 + 1"},
		{"delta", all, "1 + 2 * 3", "1 + []", "1 + 6"},
		{"delta", all, "1 < 2", "[]", "true"},
		{"delta", all, "3 = 4", "[]", "false"},
		{"delta", all, "3 - 4", "[]", "-1"},
		{"If", all, "if true then 1 else 2", "[]", "1"},
		{"If", all, "if false then 1 else 2", "[]", "2"},
		{"IdCst", all, "<id> 4", "[]", "4"},
		{"IdCst", all, "<id> <Int!> 4", "[]", "<Int!> 4"},
		{"CmpCst", all, "<Int?^l> <Int!> 4", "[]", "<Int! ; Int?^l> 4"},
		{"CmpCst", all, "<id -> id> <Int! -> Int?^l> \\x:Dyn. x", "[]", "<(Int! -> Int?^l) ; (id -> id)> \\x:Dyn. x"},
		{"StepCst/InOut", all, "<Int! ; Int?^l> 4", "[]", "<id> 4"},
		{"StepCst/InOut", all, "inc (<Int! ; Bool?^l> 4)", "inc []", "inc (<fail^l> 4)"},
		{"StepCst/IdL", all, "<id ; Int!> 4", "[]", "<Int!> 4"},
		{"StepCst/IdR", all, "<Int! ; id> 4", "[]", "<Int!> 4"},
		{"StepCst/Arr", all, "<(Int! -> Int?^l) ; (id -> id)> \\x:Dyn. x", "[]", "<(id ; Int!) -> (Int?^l ; id)> \\x:Dyn. x"},
		{"StepCst/FailCo", all, "<fail^l ; Int!> 4", "[]", "<fail^l> 4"},
		{"StepCst/InFail", all, "<Int! ; fail^l> 4", "[]", "<fail^l> 4"},
		{"StepCst/ArrFail", lazy, "<(id -> id) ; fail^l> \\x:Int. x", "[]", "<fail^l> \\x:Int. x"},
		{"StepCst/FailL", eager, "<fail^l -> id> \\x:Int. x", "[]", "<fail^l> \\x:Int. x"},
		{"StepCst/FailR", eager, "<id -> fail^l> \\x:Int. x", "[]", "<fail^l> \\x:Int. x"},
		{"AppCst", all, "(<Int! -> Int?^l> \\x:Dyn. x) 3", "[]", "<Int?^l> ((\\x:Dyn. x) (<Int!> 3))"},
		{"FailCst", all, "<fail^l> 4", "[]", "blame l"},
		{"FailFC", eager, "<(id -> id) ; fail^l> \\x:Int. x", "[]", "blame l"},
		{"Blame", all, "inc (blame l)", "inc []", "blame l"},
		{"Blame", all, "(blame l) 3", "[] 3", "blame l"},
		{"Let", all, "let x:Int = 3 in inc x", "[]", "inc 3"},
		{"Letrec", all, "letrec f:Int -> Int = \\n:Int. f n in f 0", "[]",
			"(\\n:Int. letrec f:Int -> Int = \\n:Int. f n in f n) 0"},
		// Contexts: left to right, values first.
		{"beta", all, "inc ((\\x:Int. x) 1)", "inc []", "inc 1"},
		{"beta", all, "(\\f:Int -> Int. f) ((\\x:Int. x) 1)", "(\\f:Int -> Int. f) []", "(\\f:Int -> Int. f) 1"},
		{"If", all, "let y:Int = (if true then 1 else 2) in y", "let y:Int = [] in y", "let y:Int = 1 in y"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			step, done, err := reduction.ReduceCast(sem, parseCast(t, tt.term))
			if err != nil || done {
				t.Errorf("%s: %s: done %v, err %v", sem.Name(), tt.term, done, err)
				continue
			}
			if got := step.Redex.Rule(); got != tt.rule {
				t.Errorf("%s: %s: rule %s, want %s", sem.Name(), tt.term, got, tt.rule)
			}
			if got := step.Context.String(); got != tt.context {
				t.Errorf("%s: %s: context %s, want %s", sem.Name(), tt.term, got, tt.context)
			}
			want := parseCastOrNeg(t, tt.next)
			if !g.AlphaEqual(step.Next, want) {
				t.Errorf("%s: %s: next %s, want %s", sem.Name(), tt.term, g.Format(step.Next), tt.next)
			}
		}
	}
}

// parseCastOrNeg parses a term, reading a lone negative integer (which the parser
// does not) as a constant.
func parseCastOrNeg(t *testing.T, src string) g.Expr {
	if src == "-1" {
		return &g.IntLit{N: -1}
	}
	return parseCast(t, src)
}

// TestAnswers checks what is already an answer: values and top-level blame.
func TestAnswers(t *testing.T) {
	tests := []struct {
		sems    []g.Semantics
		term    string
		observe string
	}{
		{g.Standard(), "4", "4"},
		{g.Standard(), "true", "true"},
		{g.Standard(), `\x:Int. x`, "function"},
		{g.Standard(), "<Int!> 4", "dynamic"},
		{g.Standard(), `<id -> id> \x:Int. x`, "function"},
		{g.Standard(), `<(id -> id) ; (Int -> Int)!> \x:Int. x`, "dynamic"},
		{[]g.Semantics{g.LD, g.LUD}, `<fail^l -> id> \x:Int. x`, "function"}, // lazy: a normal wrapper
		{g.Standard(), "blame l", "blame l"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			step, done, err := reduction.ReduceCast(sem, parseCast(t, tt.term))
			if err != nil || !done {
				t.Errorf("%s: %s is not an answer: %v %v", sem.Name(), tt.term, step.Redex, err)
				continue
			}
			if got := step.Answer.Observe(); got != tt.observe {
				t.Errorf("%s: %s observes as %s, want %s", sem.Name(), tt.term, got, tt.observe)
			}
		}
	}
}

// TestEvalSpecTable is the table of spec §7.
func TestEvalSpecTable(t *testing.T) {
	tests := []struct {
		term string
		want map[string]string
	}{
		{"<Int <= Dyn>^l2 <Dyn <= Int>^l1 4", map[string]string{"ld": "4", "lud": "4", "ed": "4", "eud": "4"}},
		{"<Bool <= Dyn>^l2 <Dyn <= Int>^l1 4", map[string]string{"ld": "blame l2", "lud": "blame l2", "ed": "blame l2", "eud": "blame l2"}},
		{`(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`,
			map[string]string{"ld": "blame l2", "lud": "blame l1", "ed": "blame l2", "eud": "blame l2"}},
		{`(\x:Dyn. x) (<Dyn <= Int>^l1 1)`, map[string]string{"ld": "dynamic", "lud": "dynamic", "ed": "dynamic", "eud": "dynamic"}},
	}
	for _, tt := range tests {
		e := parseCast(t, tt.term)
		for _, sem := range g.Standard() {
			a, err := reduction.EvalCast(sem, g.Translate(sem, e), interderive.Options{})
			if err != nil {
				t.Errorf("%s: %s: %v", sem.Name(), tt.term, err)
				continue
			}
			if got := a.Observe(); got != tt.want[sem.Name()] {
				t.Errorf("%s: %s = %s, want %s", sem.Name(), tt.term, got, tt.want[sem.Name()])
			}
		}
	}
}

// TestContractionSequence pins the whole event stream of one program, derived by hand:
// <Int?^l2> <Int!> 4 composes, steps the coercion once, and drops the identity.
func TestContractionSequence(t *testing.T) {
	var got []string
	e := parseCast(t, "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4")
	_, err := reduction.EvalCast(g.ED, g.Translate(g.ED, e), interderive.Options{OnContract: func(r string) { got = append(got, r) }})
	want := []string{"CmpCst", "StepCst/InOut", "IdCst"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("events %v (%v), want %v", got, err, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("events %v, want %v", got, want)
		}
	}
}

func TestFuel(t *testing.T) {
	loop := parseCast(t, `letrec f:Int -> Int = \x:Int. f x in f 0`)
	n := 0
	_, err := reduction.EvalCast(g.ED, loop, interderive.Options{Fuel: 100, OnContract: func(string) { n++ }})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Fatalf("err = %v, want out of fuel", err)
	}
	if n != 100 || fe.Steps != 100 {
		t.Errorf("%d contractions reported, %d in the error; want 100", n, fe.Steps)
	}
	// Exactly enough fuel is enough: inc 1 takes one contraction.
	if a, err := reduction.EvalCast(g.ED, parseCast(t, "inc 1"), interderive.Options{Fuel: 1}); err != nil || a.Observe() != "2" {
		t.Errorf("inc 1 with fuel 1 = %v, %v", a, err)
	}
}

// TestDeepContext decomposes and plugs a term nested a million frames deep:
// decomposition and plugging are loops, so the Go stack does not grow with the
// context (a recursive decompose would crash the process here).
func TestDeepContext(t *testing.T) {
	depth := 1_000_000
	if testing.Short() {
		depth = 100_000 // 10^5 frames already exercise the loops; the full run covers a million
	}
	var e g.Expr = &g.IntLit{N: 0}
	for range depth {
		e = &g.Unary{Op: g.OpInc, X: e}
	}
	step, done, err := reduction.ReduceCast(g.ED, e)
	if err != nil || done {
		t.Fatalf("done %v, err %v", done, err)
	}
	if len(step.Context) != depth-1 || step.Redex.Rule() != "delta" {
		t.Fatalf("context of %d frames around %s, want %d around delta", len(step.Context), step.Redex.Rule(), depth-1)
	}
	// The non-tail recursion of a small program still answers.
	prog := parseCast(t, `letrec sum:Int -> Int = \n:Int. if zero? n then 0 else n + sum (dec n) in sum 100`)
	a, err := reduction.EvalCast(g.ED, prog, interderive.Options{})
	if err != nil || a.Observe() != "5050" {
		t.Fatalf("sum 100 = %v, %v; want 5050", a, err)
	}
}

// recorder is an observer that records what it sees, and the contractions.
type recorder struct{ lines []string }

func (r *recorder) Step(line string) { r.lines = append(r.lines, "step "+line) }
func (r *recorder) About(n int, line string) {
	r.lines = append(r.lines, fmt.Sprintf("about %d %s", n, line))
}
func (r *recorder) Report(n int, label string, _ any, line string) {
	r.lines = append(r.lines, fmt.Sprintf("report %d %s %s", n, label, line))
}

// TestObservedSteps: the reduction semantics shows each decomposition before its
// contraction and the contractum and the term after it (by hand: beta, then delta).
func TestObservedSteps(t *testing.T) {
	e := parseCast(t, `(\x:Int. x + 1) 2`)
	r := &recorder{}
	a, err := reduction.Stage{}.Gradual().Eval(g.ED, e, interderive.Options{Observer: r, OnContract: func(rule string) { r.lines = append(r.lines, "contraction "+rule) }})
	if err != nil || a.Observe() != "3" {
		t.Fatalf("%v %v", a, err)
	}
	want := []string{
		"step decompose: []  with redex  (\\x:Int. x + 1) 2",
		"contraction beta",
		"about 1 contract:  2 + 1",
		"about 1 plug:      2 + 1",
		"step decompose: []  with redex  2 + 1",
		"contraction delta",
		"about 2 contract:  3",
		"about 2 plug:      3",
	}
	if !slices.Equal(r.lines, want) {
		t.Errorf("observed\n%s\nwant\n%s", strings.Join(r.lines, "\n"), strings.Join(want, "\n"))
	}
}
