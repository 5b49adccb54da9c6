package sem_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// typeOf searches typeof Γ e τ, its inputs read from their s-expressions.
func typeOf(t *testing.T, l *sem.Language, env, e string) sem.Judged {
	t.Helper()
	j, ok := l.Judgment("typeof")
	if !ok {
		t.Fatal("no judgment typeof")
	}
	g, err := l.ReadTermOf([]byte(env), j.Params[0].Sort, true)
	if err != nil {
		t.Fatal(err)
	}
	x, err := l.ReadTermOf([]byte(e), j.Params[1].Sort, true)
	if err != nil {
		t.Fatal(err)
	}
	out, err := l.Judge(j, []*sem.Term{g, x, nil}, 0, interderive.Options{})
	if err != nil {
		t.Fatalf("typeof %s %s: %v", env, e, err)
	}
	return out
}

// TestJudgeStlc: the typing judgment of Redex's stlc.rkt, searched by its modes, types
// the terms of that model's own tests (test-equal (typecheck G e) T) as the model
// does: the type, or #f (no derivation).
func TestJudgeStlc(t *testing.T) {
	l := loadStlc(t)
	for _, tc := range []struct{ env, e, want string }{
		{"·", "1", "num"},
		{"·", "(1 1)", "#f"},
		{"(x num ·)", "x", "num"},
		{"·", "x", "#f"},
		{"·", "((λ (x num) x) 1)", "num"},
		{"·", "(((λ (x num) x) 1) 2)", "#f"},
		{"·", "(((λ (f (num -> num)) (λ (x num) (f x))) (λ (x num) x)) 1)", "num"},
		{"·", "(((λ (f (num -> num)) (λ (x num) (f x))) 1) (λ (x num) x))", "#f"},
		{"·", "(+ (+ 1 2) 3)", "num"},
		{"·", "(if0 1 (λ (x num) x) 3)", "#f"},
		{"·", "(if0 1 2 3)", "num"},
		{"·", "(λ (x num) (x 2))", "#f"},
		{"·", "(λ (x num) (λ (x (num -> num)) (x 0)))", "(num -> ((num -> num) -> num))"},
		{"·", "(λ (x (num -> num)) (λ (x num) (x 0)))", "#f"},
	} {
		out := typeOf(t, l, tc.env, tc.e)
		got := "#f"
		switch len(out.Derivations) {
		case 0:
		case 1:
			got = sem.Format(out.Derivations[0].Args[2])
		default:
			got = "several derivations"
		}
		if got != tc.want {
			t.Errorf("typeof %s %s: %s, want %s", tc.env, tc.e, got, tc.want)
		}
	}
}

// TestJudgeDerivation: the derivation tree, derived by hand: t-app's premises are the
// function's typing (t-lam, whose premise looks x up in (x num ·): here) and the
// argument's (t-num).
func TestJudgeDerivation(t *testing.T) {
	l := loadStlc(t)
	out := typeOf(t, l, "·", "((λ (x num) x) 1)")
	if len(out.Derivations) != 1 {
		t.Fatalf("%d derivations, want 1", len(out.Derivations))
	}
	want := `(typeof · ((λ (x num) x) 1) num)   by t-app
  (typeof · (λ (x num) x) (num -> num))   by t-lam
    (typeof (x num ·) x num)   by t-var
      (lookup (x num ·) x num)   by here
  (typeof · 1 num)   by t-num
`
	if got := out.Derivations[0].Format(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestJudgeFailures: why no derivation exists: the rules whose conclusion's inputs
// do not match, and, for the one that does (t-app on (1 1)), the premise that does
// not hold (1 has type num, not an arrow).
func TestJudgeFailures(t *testing.T) {
	l := loadStlc(t)
	out := typeOf(t, l, "·", "(1 1)")
	var lines []string
	for _, f := range out.Failures {
		lines = append(lines, f.String())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"rule t-num: the inputs do not match its conclusion (typeof Γ number (num))",
		"rule t-app: premise 1, (typeof Γ e_1 (arrow τ_2 τ)), does not hold",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failures\n%s\nwant a line %q", got, want)
		}
	}
}

// TestJudgmentModeErrors: ill-moded rules and malformed judgments are positioned
// errors naming what is wrong (columns counted by hand on line 7, after mini's five
// lines and the judgment's header on line 6).
func TestJudgmentModeErrors(t *testing.T) {
	head := mini + "(judgment ty (t t) (I O)\n"
	for _, tc := range []struct{ name, rules, want string }{
		{"output unbound", "(infer r (ty x t)))", "7:16: metavariable t is not bound yet"},
		{"premise input unbound", "(infer r (ty n n) (ty t n_2)))", "7:23: metavariable t is not bound yet"},
		{"unknown judgment", "(infer r (ty n n) (tz n n)))", "7:20: unknown judgment tz"},
		{"arity", "(infer r (ty n)))", "7:10: ty takes 2 arguments, not 1"},
		{"not infer", "(rule r (ty n n)))", "7:1: expected a rule of ty"},
	} {
		_, err := sem.Parse([]byte(head + tc.rules))
		var l interderive.ErrorList
		if !errors.As(err, &l) || !strings.HasPrefix(l[0].Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct{ decl, want string }{
		{"(judgment ty (t t) (I X) (infer r (ty n n)))", "6:23: expected a mode, I (an input) or O (an output), not X"},
		{"(judgment ty (t t) (I) (infer r (ty n n)))", "6:20: expected the judgment's modes, a list of 2 I and O"},
	} {
		_, err := sem.Parse([]byte(mini + tc.decl))
		var l interderive.ErrorList
		if !errors.As(err, &l) || !strings.HasPrefix(l[0].Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.decl, err, tc.want)
		}
	}
}

// TestJudgeLeftRecursion: a rule whose premise is its own conclusion again searches
// without end; the search stops at MaxCallDepth with a depth error, not an exhausted
// stack.
func TestJudgeLeftRecursion(t *testing.T) {
	l, err := sem.Parse([]byte(mini + "(judgment loop (t t) (I O) (infer r (loop t t_2) (loop t t_2)))"))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := l.Judgment("loop")
	one, _ := l.ReadTerm([]byte("1"))
	_, err = l.Judge(j, []*sem.Term{one, nil}, 0, interderive.Options{})
	var de *interderive.DepthError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "left recursion") {
		t.Errorf("got %v, want a depth error naming left recursion", err)
	}
}

// boundJudgment is bound Γ x, x bound in Γ, on stlc.sem's environments.
const boundJudgment = `
(judgment bound (Γ e) (I I)
  (infer b-here (bound (extend x τ Γ) x_2) (where (= x x_2)))
  (infer b-there (bound (extend x τ Γ) x_2) (where (!= x x_2)) (bound Γ x_2)))
`

// TestJudgeNegation: a premise (not (J ...)) holds when J has no derivation, decided
// by the search: unbound Γ x, x not bound in Γ, on the environments of stlc.sem.
func TestJudgeNegation(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", "stlc.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(append(src, boundJudgment+`
(judgment unbound (Γ e) (I I)
  (infer u (unbound Γ x) (not (bound Γ x))))
`...))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := l.Judgment("unbound")
	for _, tc := range []struct {
		env, x string
		holds  bool
		why    string
	}{
		{"·", "y", true, ""},
		{"(z num ·)", "y", true, ""},
		{"(z num (y num ·))", "y", false, "rule u: premise 1, (not (bound Γ x)), does not hold"},
	} {
		g, err := l.ReadTermOf([]byte(tc.env), j.Params[0].Sort, true)
		if err != nil {
			t.Fatal(err)
		}
		x, _ := l.ReadTermOf([]byte(tc.x), j.Params[1].Sort, true)
		out, err := l.Judge(j, []*sem.Term{g, x}, 0, interderive.Options{})
		if err != nil || (len(out.Derivations) > 0) != tc.holds {
			t.Errorf("unbound %s %s: %d derivations, %v; want holds %v", tc.env, tc.x, len(out.Derivations), err, tc.holds)
			continue
		}
		if !tc.holds && (len(out.Failures) != 1 || out.Failures[0].String() != tc.why) {
			t.Errorf("unbound %s %s: failures %v, want %q", tc.env, tc.x, out.Failures, tc.why)
		}
	}
}
