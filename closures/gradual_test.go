package closures_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	g "github.com/interderive/interderive/gradual"
)

func parseCast(t *testing.T, src string) g.Expr {
	t.Helper()
	e, err := g.Parse([]byte(src), g.CastCalculus)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

// TestRules takes the steps of the calculus of closures on one redex per rule of spec
// §4 (as reduction's TestRules) up to its first contraction, which must be by that rule,
// the environment steps before it being no contractions, and the closure after it must
// read back (σ) to the term the rule gives: the right-hand sides of the rules,
// instantiated by hand. The calculus differs from the reduction semantics only by its
// environments.
func TestRules(t *testing.T) {
	all := g.Standard()
	lazy := []g.Semantics{g.LD, g.LUD}
	eager := []g.Semantics{g.ED, g.EUD}
	tests := []struct {
		rule string
		sems []g.Semantics
		term string
		next string
	}{
		{"beta", all, `(\x:Int. inc x) 3`, "inc 3"},
		{"beta", all, `(\x:Int. \x:Bool. x) 3`, `\x:Bool. x`},
		{"delta", all, "inc 3", "4"},
		{"delta", all, "2 * 3 + 1", "6 + 1"},
		{"delta", all, "1 < 2", "true"},
		{"If", all, "if true then 1 else 2", "1"},
		{"If", all, "if false then 1 else 2", "2"},
		{"IdCst", all, "<id> 4", "4"},
		{"IdCst", all, "<id> <Int!> 4", "<Int!> 4"},
		{"CmpCst", all, "<Int?^l> <Int!> 4", "<Int! ; Int?^l> 4"},
		{"StepCst/InOut", all, "<Int! ; Int?^l> 4", "<id> 4"},
		{"StepCst/InOut", all, "inc (<Int! ; Bool?^l> 4)", "inc (<fail^l> 4)"},
		{"StepCst/IdL", all, "<id ; Int!> 4", "<Int!> 4"},
		{"StepCst/Arr", all, "<(Int! -> Int?^l) ; (id -> id)> \\x:Dyn. x", "<(id ; Int!) -> (Int?^l ; id)> \\x:Dyn. x"},
		{"StepCst/ArrFail", lazy, "<(id -> id) ; fail^l> \\x:Int. x", "<fail^l> \\x:Int. x"},
		{"StepCst/FailL", eager, "<fail^l -> id> \\x:Int. x", "<fail^l> \\x:Int. x"},
		{"AppCst", all, "(<Int! -> Int?^l> \\x:Dyn. x) 3", "<Int?^l> ((\\x:Dyn. x) (<Int!> 3))"},
		{"FailCst", all, "<fail^l> 4", "blame l"},
		{"FailFC", eager, "<(id -> id) ; fail^l> \\x:Int. x", "blame l"},
		{"Blame", all, "inc (blame l)", "blame l"},
		{"Let", all, "let x:Int = 3 in inc x", "inc 3"},
		{"Letrec", all, "letrec f:Int -> Int = \\n:Int. f n in f 0",
			"(\\n:Int. letrec f:Int -> Int = \\n:Int. f n in f n) 0"},
		{"beta", all, "(\\f:Int -> Int. f) ((\\x:Int. x) 1)", "(\\f:Int -> Int. f) 1"},
	}
	for _, tt := range tests {
		for _, sem := range tt.sems {
			var cl closures.Closure = &closures.Clo{E: parseCast(t, tt.term)}
			for range 100 {
				st, err := closures.Calculus{Sem: sem}.Decompose(cl)
				if err != nil || st.Done {
					t.Errorf("%s: %s: done %v, err %v", sem.Name(), tt.term, st.Done, err)
					break
				}
				cl = st.Next()
				if st.Rule == "" {
					if st.Env != "expand" && st.Env != "lookup" {
						t.Errorf("%s: %s: environment step %q", sem.Name(), tt.term, st.Env)
					}
					continue
				}
				if st.Rule != tt.rule {
					t.Errorf("%s: %s: rule %s, want %s", sem.Name(), tt.term, st.Rule, tt.rule)
				}
				if got := closures.Sigma(cl); !g.AlphaEqual(got, parseCast(t, tt.next)) {
					t.Errorf("%s: %s: next %s, want %s", sem.Name(), tt.term, g.Format(got), tt.next)
				}
				break
			}
		}
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

// TestObservedSteps: the calculus of closures shows its steps before it takes them,
// the environment steps (not contractions) with the contractions: on the PEPM 2014
// slides' example, ((\x:Dyn. x) (<Int!> 1))[ε] takes two ephemeral expansions, the
// delayed beta contraction, and the on-demand substitution (lookup) of x, whose
// environment is named where it first appears.
func TestObservedSteps(t *testing.T) {
	r := &recorder{}
	a, err := closures.Stage{}.Gradual().Eval(g.ED, parseCast(t, `(\x:Dyn. x) (<Int!> 1)`), interderive.Options{Observer: r, OnContract: func(rule string) { r.lines = append(r.lines, "contraction "+rule) }})
	if err != nil || a.Observe() != "dynamic" {
		t.Fatalf("%v %v", a, err)
	}
	want := []string{
		"step expand: ((\\x:Dyn. x) (<Int!> 1))[ε]  ~>  ((\\x:Dyn. x)[ε]) · ((<Int!> 1)[ε])",
		"step expand: (<Int!> 1)[ε]  ~>  <Int!> 1[ε]",
		"step ρ1 = (x ↦ <Int!> 1[ε]) : ε",
		"step decompose: []  with redex  ((\\x:Dyn. x)[ε]) · (<Int!> 1[ε])",
		"step contract:  x[ρ1]",
		"contraction beta",
		"step lookup: x[ρ1]  ~>  <Int!> 1[ε]",
	}
	if !slices.Equal(r.lines, want) {
		t.Errorf("observed\n%s\nwant\n%s", strings.Join(r.lines, "\n"), strings.Join(want, "\n"))
	}
}
