package sem_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// loadStlc loads testdata/rules/stlc.sem: Redex's λv with shapes, and its typing
// judgment.
func loadStlc(t *testing.T) *sem.Language { return load(t, "stlc.sem") }

// TestShapes: programs written as Redex's stlc.rkt writes them run on every derived
// stage, and their answers print in that syntax. The programs and their answers are
// stlc.rkt's own (test-->> red TERM EXPECTED); the events are derived by hand.
func TestShapes(t *testing.T) {
	l := loadStlc(t)
	for _, tc := range []struct {
		prog, answer string
		events       []string
	}{
		{"((λ (x num) x) 1)", "1", []string{"βv"}},
		{"(((λ (x num) (λ (y num) x)) 1) 2)", "1", []string{"βv", "βv"}},
		{"(((λ (x num) (λ (y num) y)) 1) 2)", "2", []string{"βv", "βv"}},
		{"((λ (x num) (+ x x)) 2)", "4", []string{"βv", "+"}},
		// (if0 2 2 (+ 2 1)): 2 is not 0, so if0f; then 2 + 1.
		{"((λ (x num) (if0 x x (+ x 1))) 2)", "3", []string{"βv", "if0f", "+"}},
		{"((λ (x num) (if0 x x (+ x 1))) 0)", "0", []string{"βv", "if0t"}},
		{"(((λ (x num) (λ (y num) (λ (z num) x))) 1) 2)", "(λ (z num) 1)", []string{"βv", "βv"}},
		{"(+ (+ 1 2) (+ 3 4))", "10", []string{"+", "+", "+"}},
		// A type with an arrow, printed by its shape too.
		{"((λ (f (num -> num)) f) (λ (y num) y))", "(λ (y num) y)", []string{"βv"}},
	} {
		onEveryStage(t, l, tc.prog, tc.answer, tc.events)
	}
}

// TestShapeReading: a constructor with a shape is read by its shape only; a nullary
// shape's literal is never a variable; what no shape matches is an error that lists
// the shapes.
func TestShapeReading(t *testing.T) {
	l := loadStlc(t)
	for _, tc := range []struct{ prog, want string }{
		{"(lam x num x)", "1:2: unknown constructor lam of sort e (written (λ (#0 #1) #2), (if0 #0 #1 #2), (+ #0 #1), (#0 #1))"},
		{"(λ (num num) 1)", "1:5: num is a literal of the language's shapes, not a variable"},
		{"(λ (x (num num)) x)", "1:8: unknown constructor num of sort τ"},
		{"(+ 1)", "1:2: unbound variable +"},
	} {
		_, err := l.ReadTerm([]byte(tc.prog))
		var el interderive.ErrorList
		if !errors.As(err, &el) || !strings.HasPrefix(el[0].Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.prog, err, tc.want)
		}
	}
}

// TestShapeErrors: shapes that cannot write their constructor are errors of the
// rule file, at the shape.
func TestShapeErrors(t *testing.T) {
	for _, tc := range []struct{ con, want string }{
		{"(con app t t (shape (t)))", "the shape of app does not write its argument 1 (t)"},
		{"(con app t t (shape (t t t)))", "t in the shape of app is a metavariable name"},
		{"(con wrap t (shape t))", "the shape of wrap is only its argument t"},
		{"(con app t t (shape (t 5)))", "5: a shape is made of the arguments' names"},
		{"(con app t t (shape (t t)) (shape (t t)))", "expected one (shape TEMPLATE)"},
	} {
		src := "(language x)\n(sort t (integer n) " + tc.con + ")\n(kind E v)\n(value E n)\n"
		_, err := sem.Parse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.con, err, tc.want)
		}
	}
}
