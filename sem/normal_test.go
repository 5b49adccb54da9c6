package sem_test

import (
	"os"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestNormalForms: a kind whose values are its normal forms (testdata/rules/head.sem,
// head reduction) takes for a value exactly the terms its search finds no redex in.
// Each expectation is read off the file's frames and rules by hand: H goes under λ and
// into the head of an application (in W); W only into the head; beta in both.
func TestNormalForms(t *testing.T) {
	src, err := os.ReadFile("../testdata/rules/head.sem")
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	H, _ := l.Kind("H")
	W, _ := l.Kind("W")
	for _, tc := range []struct {
		term     string
		inH, inW bool
		why      string
	}{
		{"5", true, true, "no frame, no rule"},
		{"(lam x x)", true, true, "H enters the body, x, a normal form"},
		{"(lam x (app (lam y y) x))", false, true, "H finds beta under λ; W does not go under λ"},
		{"(app (lam x x) 5)", false, false, "beta at the root, in both"},
		{"(lam z (app z (app (lam y y) z)))", true, true, "a head normal form: the argument is entered by neither"},
		{"(app (app (lam x x) (lam y y)) 5)", false, false, "beta in the head"},
		{"(lam z (app (app z (lam x x)) (app (lam y y) z)))", true, true, "the head's head is a variable"},
	} {
		term, err := l.ReadTerm([]byte(tc.term))
		if err != nil {
			t.Fatalf("%s: %v", tc.term, err)
		}
		if got := l.IsValue(term, H); got != tc.inH {
			t.Errorf("%s a value of H: %v, want %v (%s)", tc.term, got, tc.inH, tc.why)
		}
		if got := l.IsValue(term, W); got != tc.inW {
			t.Errorf("%s a value of W: %v, want %v (%s)", tc.term, got, tc.inW, tc.why)
		}
	}
	if l.Discipline() != sem.Substitution || !strings.Contains(l.WhySubstitution(), "kind H's values are its normal forms") {
		t.Errorf("discipline %v, why %q: want substitution, as H's search reaches open terms", l.Discipline(), l.WhySubstitution())
	}
	printed := l.String()
	if !strings.Contains(printed, "(normal-forms H)\n") || !strings.Contains(printed, "(normal-forms W)\n") {
		t.Errorf("the printed file loses (normal-forms ...):\n%s", printed)
	}
	if _, err := sem.Load([]byte(printed)); err != nil {
		t.Errorf("the printed file does not load: %v", err)
	}
}
