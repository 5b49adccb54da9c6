package interp_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The interpreter derived from a rule file, in lockstep with the derived machine and,
// on the λ-calculus (cbv.sem), with the λ-calculus's hand-derived interpreter.

// TestRulesDeep: the interpreter's recursion is bounded by MaxDepth: a term nested
// deeper stops cleanly with a depth error, one within it runs. 1 + (1 + ... (1 + 1))
// with n additions is n + 1; each addition's right operand is a call of interp.
func TestRulesDeep(t *testing.T) {
	s := interp.Stage{}.Rules()
	rulescases.Deep(t, s, 1000)
	n := min(sem.MaxNesting-1, interp.MaxDepth+10)
	if interp.MaxDepth+10 >= sem.MaxNesting {
		rulescases.Deep(t, s, n)
		return
	}
	l := rulescases.Load(t, "cbv.sem")
	if a, err := s.Eval(l, rulescases.AddChain(t, l, n), interderive.Options{}); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("%d: got %v (%v), want too deep", n, a, err)
	}
}

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived interpreter and on the λ-calculus's hand-derived one (its answer
// translated): the same contractions and answers.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, interp.Stage{}.Rules(), interp.Stage{}.Lambda())
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the interpreter the answers and
// the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, interp.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesBudgets: a divergent program stops at its fuel, cleanly; a stuck one of
// cbn.sem with its run-time error at the redex (1:8, rulescases.StuckCases derives it).
func TestRulesBudgets(t *testing.T) {
	rulescases.OutOfFuel(t, interp.Stage{}.Rules())
	rulescases.Stuck(t, interp.Stage{}.Rules(), rulescases.StuckCases[3])
}

// TestRulesAbortDepth: an abort returns early through every call of interp inside
// its delimiter, to the one that entered the delimiter's frame. Under n/2 additions,
// an inner handler, and n/2 more additions, raise 1 is caught by the inner handler,
// n/2 + 1 frames up (raise); its handler applied to 1 (beta) is 1 + 10 = 11 (delta),
// which flows out through the n/2 additions around the inner handler (a delta each)
// and the outer handler, which its body's value drops (handle): 11 + n/2.
func TestRulesAbortDepth(t *testing.T) {
	l := rulescases.Load(t, "exceptions.sem")
	const n = 1000
	src := "(handle " + strings.Repeat("(add 1 ", n/2) + "(handle " + strings.Repeat("(add 1 ", n/2) + "(raise 1)" +
		strings.Repeat(")", n/2) + " (lam x (add x 10)))" + strings.Repeat(")", n/2) + " (lam y 0))"
	e, err := l.ReadTerm([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"raise", "beta", "delta"}
	for range n / 2 {
		want = append(want, "delta")
	}
	want = append(want, "handle")
	r := rulescases.RunDerived(interp.Stage{}.Rules(), l, e, 10_000)
	if r.Outcome() != fmt.Sprint(11+n/2) || !slices.Equal(r.Events, want) {
		t.Errorf("got %s after %d events, want %d after %d", r.Outcome(), len(r.Events), 11+n/2, len(want))
	}
	rulescases.Agree(t, "interp / reduction", r, rulescases.RunDerived(reduction.Stage{}.Rules(), l, e, 10_000))
}
