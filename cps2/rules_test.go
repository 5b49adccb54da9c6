package cps2_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The CPS evaluator derived from a rule file, in lockstep with the derived machine it
// refunctionalizes and, on the λ-calculus (cbv.sem), with the λ-calculus's
// hand-derived CPS evaluator.

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived CPS evaluator and on the λ-calculus's hand-derived one (its answer
// translated): the same contractions and answers.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, cps2.Stage{}.Rules(), cps2.Stage{}.Lambda())
}

// TestRulesDeep: a term nested as deep as the reader allows runs in bounded Go
// stack (the trampoline): 1 + (1 + ... (1 + 1)) with n additions is n + 1.
func TestRulesDeep(t *testing.T) {
	rulescases.Deep(t, cps2.Stage{}.Rules(), sem.MaxNesting)
}

// TestRulesBudgets: a divergent program stops at its fuel, cleanly; a stuck one of
// cbn.sem with its run-time error at the redex (1:8, rulescases.StuckCases derives it).
func TestRulesBudgets(t *testing.T) {
	rulescases.OutOfFuel(t, cps2.Stage{}.Rules())
	rulescases.Stuck(t, cps2.Stage{}.Rules(), rulescases.StuckCases[3])
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the CPS evaluator the answers and
// the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, cps2.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesDeepAbort: an exception raised under as many frames as the reader allows
// is caught by the handler around them (raise, then beta: the handler, the identity,
// applied to 1), or, with no handler, is the answer (uncaught); in bounded Go stack,
// and with the frames searched for the delimiter once each.
func TestRulesDeepAbort(t *testing.T) {
	l := rulescases.Load(t, "exceptions.sem")
	n := sem.MaxNesting - 2
	deep := strings.Repeat("(add 1 ", n) + "(raise 1)" + strings.Repeat(")", n)
	for _, tc := range []struct {
		src, answer string
		events      []string
	}{
		{"(handle " + deep + " (lam x x))", "1", []string{"raise", "beta"}},
		{deep, "(raise 1)", []string{"uncaught"}},
	} {
		r := rulescases.RunDerived(cps2.Stage{}.Rules(), l, rulescases.Read(t, l, tc.src), 100)
		if r.Outcome() != tc.answer || !slices.Equal(r.Events, tc.events) {
			t.Errorf("got %s %v, want %s %v", r.Outcome(), r.Events, tc.answer, tc.events)
		}
	}
}
