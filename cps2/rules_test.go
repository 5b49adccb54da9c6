package cps2_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

// The CPS evaluator derived from a rule file, in lockstep with the derived machine it
// refunctionalizes and, on the λ-calculus (cbv.sem), with the λ-calculus's
// hand-derived CPS evaluator.

// The helpers the derived stages' tests share (internal/cases/rulescases).
type rulesRun = rulescases.Run

var (
	loadRules    = rulescases.Load
	rulesOptions = rulescases.Options
	runDerived   = rulescases.RunDerived
	agree        = rulescases.Agree
)

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived CPS evaluator and on the λ-calculus's hand-derived one (its answer
// translated): the same contractions and answers.
func TestRulesLambdaCorpus(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/lambda/*.lam")
	ran := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := lambda.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lambda.TypeOf(p); err != nil {
			continue
		}
		e, err := tr.Term(p)
		if err != nil {
			t.Fatal(err)
		}
		var h rulesRun
		a, err := cps2.Stage{}.Lambda().Eval(p, rulesOptions(&h, 20_000))
		h.Err = err
		if err == nil {
			if h.Value, err = tr.Term(a.Value); err != nil {
				t.Fatal(err)
			}
		}
		agree(t, file, runDerived(cps2.Stage{}.Rules(), l, e, 20_000), h)
		ran++
	}
	if ran < 10 {
		t.Errorf("%d programs", ran)
	}
}

// TestRulesDeep: a term nested as deep as the reader allows runs in bounded Go
// stack (the trampoline): 1 + (1 + ... (1 + 1)) with n additions is n + 1.
func TestRulesDeep(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	n := sem.MaxNesting
	e, err := l.ReadTerm([]byte(strings.Repeat("(add 1 ", n) + "1" + strings.Repeat(")", n)))
	if err != nil {
		t.Fatal(err)
	}
	a, err := cps2.Stage{}.Rules().Eval(l, e, interderive.Options{})
	if err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(n+1) {
		t.Errorf("got %v (%v), want %d", a, err, n+1)
	}
}

// TestRulesBudgets: a divergent program stops at its fuel, cleanly; an ill-typed one
// with its run-time error at the redex (1:8, reduction's TestRulesStuck derives it).
func TestRulesBudgets(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	e, err := l.ReadTerm([]byte("(letrec f x (app f x) (app f 0))"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cps2.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 1000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 1000 {
		t.Errorf("got %v, want out of fuel after 1000 contractions", err)
	}
	e, err = l.ReadTerm([]byte("(add 1 (app (add 1 1) 0))"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cps2.Stage{}.Rules().Eval(l, e, interderive.Options{})
	var rt *interderive.RuntimeError
	if !errors.As(err, &rt) || rt.Reason != "application of a non-function" || rt.Pos != (interderive.Pos{Line: 1, Col: 8}) {
		t.Errorf("got %v, want a run-time error at 1:8", err)
	}
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the CPS evaluator the answers and
// the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	if n := rulescases.CheckSuites(t, cps2.Stage{}.Rules(), reduction.Stage{}.Rules()); n < 30 {
		t.Errorf("%d programs", n)
	}
}

// TestRulesDeepAbort: an exception raised under as many frames as the reader allows
// is caught by the handler around them (raise, then beta: the handler, the identity,
// applied to 1), or, with no handler, is the answer (uncaught); in bounded Go stack,
// and with the frames searched for the delimiter once each.
func TestRulesDeepAbort(t *testing.T) {
	l := loadRules(t, "exceptions.sem")
	n := sem.MaxNesting - 2
	deep := strings.Repeat("(add 1 ", n) + "(raise 1)" + strings.Repeat(")", n)
	for _, tc := range []struct {
		src, answer string
		events      []string
	}{
		{"(handle " + deep + " (lam x x))", "1", []string{"raise", "beta"}},
		{deep, "(raise 1)", []string{"uncaught"}},
	} {
		e, err := l.ReadTerm([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		r := runDerived(cps2.Stage{}.Rules(), l, e, 100)
		if r.Outcome() != tc.answer || !slices.Equal(r.Events, tc.events) {
			t.Errorf("got %s %v, want %s %v", r.Outcome(), r.Events, tc.answer, tc.events)
		}
	}
}
