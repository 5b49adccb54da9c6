package interp_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

// The interpreter derived from a rule file, in lockstep with the derived machine and,
// on the λ-calculus (cbv.sem), with the λ-calculus's hand-derived interpreter.

// The helpers the derived stages' tests share (internal/cases/rulescases).
type rulesRun = rulescases.Run

var (
	loadRules    = rulescases.Load
	rulesOptions = rulescases.Options
	runDerived   = rulescases.RunDerived
	agree        = rulescases.Agree
)

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived interpreter and on the λ-calculus's hand-derived one (its answer
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
		a, err := interp.Stage{}.Lambda().Eval(p, rulesOptions(&h, 20_000))
		h.Err = err
		if err == nil {
			if h.Value, err = tr.Term(a.Value); err != nil {
				t.Fatal(err)
			}
		}
		agree(t, file, runDerived(interp.Stage{}.Rules(), l, e, 20_000), h)
		ran++
	}
	if ran < 10 {
		t.Errorf("%d programs", ran)
	}
}

// TestRulesDeep: the interpreter's recursion is bounded by MaxDepth: a term nested
// deeper stops cleanly with a depth error, one within it runs. 1 + (1 + ... (1 + 1))
// with n additions is n + 1; each addition's right operand is a call of interp.
func TestRulesDeep(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	for _, tc := range []struct {
		n    int
		deep bool
	}{{1000, false}, {min(sem.MaxNesting-1, interp.MaxDepth+10), interp.MaxDepth+10 < sem.MaxNesting}} {
		e, err := l.ReadTerm([]byte(strings.Repeat("(add 1 ", tc.n) + "1" + strings.Repeat(")", tc.n)))
		if err != nil {
			t.Fatal(err)
		}
		a, err := interp.Stage{}.Rules().Eval(l, e, interderive.Options{})
		switch {
		case tc.deep && !errors.Is(err, interderive.ErrTooDeep):
			t.Errorf("%d: got %v (%v), want too deep", tc.n, a, err)
		case !tc.deep && (err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(tc.n+1)):
			t.Errorf("%d: got %v (%v), want %d", tc.n, a, err, tc.n+1)
		}
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
	_, err = interp.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 1000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 1000 {
		t.Errorf("got %v, want out of fuel after 1000 contractions", err)
	}
	e, err = l.ReadTerm([]byte("(add 1 (app (add 1 1) 0))"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = interp.Stage{}.Rules().Eval(l, e, interderive.Options{})
	var rt *interderive.RuntimeError
	if !errors.As(err, &rt) || rt.Reason != "application of a non-function" || rt.Pos != (interderive.Pos{Line: 1, Col: 8}) {
		t.Errorf("got %v, want a run-time error at 1:8", err)
	}
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the interpreter the answers and
// the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	if n := rulescases.CheckSuites(t, interp.Stage{}.Rules(), reduction.Stage{}.Rules()); n < 30 {
		t.Errorf("%d programs", n)
	}
}

// TestRulesAbortDepth: an abort returns early through every call of interp inside
// its delimiter, to the one that entered the delimiter's frame. Under n/2 additions,
// an inner handler, and n/2 more additions, raise 1 is caught by the inner handler,
// n/2 + 1 frames up (raise); its handler applied to 1 (beta) is 1 + 10 = 11 (delta),
// which flows out through the n/2 additions around the inner handler (a delta each)
// and the outer handler, which its body's value drops (handle): 11 + n/2.
func TestRulesAbortDepth(t *testing.T) {
	l := loadRules(t, "exceptions.sem")
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
	r := runDerived(interp.Stage{}.Rules(), l, e, 10_000)
	if r.Outcome() != fmt.Sprint(11+n/2) || !slices.Equal(r.Events, want) {
		t.Errorf("got %s after %d events, want %d after %d", r.Outcome(), len(r.Events), 11+n/2, len(want))
	}
	agree(t, "interp / reduction", r, runDerived(reduction.Stage{}.Rules(), l, e, 10_000))
}
