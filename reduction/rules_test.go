package reduction_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// lockstepLambda runs a λ-program step by step on the hand-derived reduction semantics
// of lambda (the independent check) and on the one derived from cbv.sem: every step
// must contract by the same rule and give the same term (up to α-equivalence, types
// erased), and both must end together with the same answer. It returns the number of
// contractions (at most max) and whether the program reached its answer.
func lockstepLambda(t rulescases.TB, c rulescases.CBV, p lambda.Expr, max int) (int, bool) {
	t.Helper()
	hand := reduction.Stage{}.Lambda().(lambda.Stepper)
	derived := reduction.Stage{}.Rules().(sem.Stepper)
	e := c.Term(t, p)
	for n := 0; n <= max; n++ {
		hn, hr, hdone, herr := hand.Step(p)
		dn, dr, ddone, derr := derived.Step(c.Lang, e)
		if herr != nil || derr != nil {
			t.Fatalf("step %d: hand %v, derived %v\n%s", n+1, herr, derr, lambda.Format(p))
		}
		if hdone != ddone || hr != dr {
			t.Fatalf("step %d: hand %q (done %v), derived %q (done %v)\nhand    %s\nderived %s", n+1, hr, hdone, dr, ddone, lambda.Format(p), sem.Format(e))
		}
		if !sem.AlphaEqual(c.Term(t, hn), dn) {
			t.Fatalf("step %d (%s): the terms differ\nhand    %s\nderived %s", n+1, hr, lambda.Format(hn), sem.Format(dn))
		}
		if hdone {
			return n, true
		}
		p, e = hn, dn
	}
	return max, false
}

// TestRulesLambdaCorpus: every well-typed program of testdata/lambda runs on the
// reduction semantics derived from cbv.sem in lockstep with lambda's hand-derived one,
// contraction for contraction and term for term, and then whole (Eval) with the same
// contraction events and answer.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LambdaCorpus(t, func(t *testing.T, c rulescases.CBV, p lambda.Expr) {
		const max = 20_000
		n, done := lockstepLambda(t, c, p, max)
		var h, d rulescases.Run
		ha, herr := reduction.Stage{}.Lambda().Eval(p, rulescases.Options(&h, n+1))
		da, derr := reduction.Stage{}.Rules().Eval(c.Lang, c.Term(t, p), rulescases.Options(&d, n+1))
		if !slices.Equal(h.Events, d.Events) {
			t.Fatalf("the contraction events differ:\nhand    %v\nderived %v", h.Events, d.Events)
		}
		if !done {
			if !errors.Is(herr, interderive.ErrOutOfFuel) || !errors.Is(derr, interderive.ErrOutOfFuel) {
				t.Fatalf("after %d steps: hand %v, derived %v, want both out of fuel", max, herr, derr)
			}
			return
		}
		if herr != nil || derr != nil {
			t.Fatalf("hand %v, derived %v", herr, derr)
		}
		if !sem.AlphaEqual(c.Term(t, ha.Value), da.Value) {
			t.Fatalf("answers differ: hand %s, derived %s", ha, da)
		}
	})
}

// TestRulesLambdaRandom: random well-typed λ-programs (lambdagen) run in lockstep on
// the hand-derived and the derived reduction semantics.
func TestRulesLambdaRandom(t *testing.T) {
	rulescases.LambdaRandom(t, 0, func(t rulescases.TB, c rulescases.CBV, p lambda.Expr) { lockstepLambda(t, c, p, 2000) })
}

// TestRulesSuites: the programs of testdata/rules (rulescases.Suites: the corpora of
// cbn.sem, cbn-strict.sem and exceptions.sem, aborts to the root, a layer of
// coins) give on the derived reduction semantics the answers and the contraction
// sequences their comments derive by hand.
func TestRulesSuites(t *testing.T) {
	rulescases.CheckSuites(t, reduction.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesBudgets: a divergent program stops at its fuel, or at its timeout, cleanly.
func TestRulesBudgets(t *testing.T) {
	rulescases.OutOfFuel(t, reduction.Stage{}.Rules())
	rulescases.TimesOut(t, reduction.Stage{}.Rules())
}

// TestRulesStuck: an untyped program of cbn.sem that meets a stuck shape stops with a
// run-time error, the shape's reason, at the redex's position (rulescases.StuckCases
// derives them).
func TestRulesStuck(t *testing.T) {
	rulescases.Stuck(t, reduction.Stage{}.Rules(), rulescases.StuckCases...)
}

// TestRulesDeep: a term nested as deep as the reader allows runs without exhausting
// the stack: 1 + (1 + (... + 1)) is n + 1.
func TestRulesDeep(t *testing.T) {
	n := sem.MaxNesting
	if testing.Short() {
		n = 1000
	}
	rulescases.Deep(t, reduction.Stage{}.Rules(), n)
}

// TestRulesTrace: the lines the derived reduction semantics shows for (1 + 2) * 4,
// derived by hand: the first decomposition enters the left operand of * (the frame
// (mul [] t)) and finds 1 + 2 (its operands values, no frame after (add v []) enters
// it); the second finds 3 * 4 at the root. (recorder is gradual_test.go's.)
func TestRulesTrace(t *testing.T) {
	want := []string{
		"step decompose: (mul [] 4)  with redex  (add 1 2)  of kind E",
		"about 1 contract:  3",
		"about 1 plug:      (mul 3 4)",
		"step decompose: []  with redex  (mul 3 4)  of kind E",
		"about 2 contract:  12",
		"about 2 plug:      12",
	}
	var r recorder
	rulescases.Observe(t, reduction.Stage{}.Rules(), rulescases.Load(t, "cbv.sem"), "(mul (add 1 2) 4)", "12", &r, &r.lines, want)
}
