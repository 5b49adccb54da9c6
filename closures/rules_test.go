package closures_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The calculus of closures derived from a rule file is checked in lockstep with two
// independent artefacts: the derived reduction semantics (over terms, with
// substitution), and, on the λ-calculus (cbv.sem), the hand-derived calculus of
// closures of package lambda's stages.

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda on the calculus
// of closures derived from cbv.sem, on the derived reduction semantics, and on
// lambda's hand-derived calculus of closures: the same contractions, the same answer.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, closures.Stage{}.Rules(), closures.Stage{}.Lambda(), reduction.Stage{}.Rules())
}

// TestRulesLambdaRandom: random well-typed λ-programs in lockstep, at most 1000 (200
// with -short).
func TestRulesLambdaRandom(t *testing.T) {
	checks := 1000
	if testing.Short() {
		checks = 200
	}
	rulescases.LockstepRandom(t, checks, closures.Stage{}.Rules(), closures.Stage{}.Lambda(), reduction.Stage{}.Rules())
}

// TestRulesStuck: an untyped program of cbn.sem that meets a stuck shape stops with
// the program's run-time error, the shape's reason, at the redex's position, as in the reduction semantics
// (rulescases.StuckCases derives them).
func TestRulesStuck(t *testing.T) {
	rulescases.Stuck(t, closures.Stage{}.Rules(), rulescases.StuckCases...)
}

// TestRulesBudgets: a divergent program stops at its fuel, cleanly.
func TestRulesBudgets(t *testing.T) {
	rulescases.OutOfFuel(t, closures.Stage{}.Rules())
}

// TestRulesBySubstitution: a rule file with a rule that matches a variable occurrence
// (rulescases.OpenSem, whose eta matches x_2) does not qualify for closures; the calculus runs it under the
// substitution discipline instead, and tells an observer why, first. By hand:
// (app (lam x x) 1) enters (app [] t), whose hole (lam x x) is a value, then
// (app v []), whose hole 1 is a value; beta, the first rule, contracts it to
// x[x := 1] = 1.
func TestRulesBySubstitution(t *testing.T) {
	l := rulescases.LoadSource(t, "open.sem", rulescases.OpenSem)
	e := rulescases.Read(t, l, "(app (lam x x) 1)")
	var events []string
	obs := &recorder{}
	a, err := closures.Stage{}.Rules().Eval(l, e, interderive.Options{Observer: obs, OnContract: func(r string) { events = append(events, r) }})
	if err != nil || sem.Format(a.Value) != "1" || !slices.Equal(events, []string{"beta"}) {
		t.Errorf("got %v, %v after %v; want 1 after [beta]", a.Value, err, events)
	}
	if len(obs.lines) == 0 || !strings.HasPrefix(obs.lines[0], "step no environments: the pattern of rule eta matches a variable occurrence (x_2") {
		t.Errorf("the observer's first step: %q", obs.lines)
	}
}

// TestRulesContextAndLayers: the programs of the rule files (rulescases.Suites: the
// corpora of cbn.sem, cbn-strict.sem and exceptions.sem, aborts to the root,
// a layer of coins) give on the calculus of closures the answers and the
// contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, closures.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}
