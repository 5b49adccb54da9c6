package closures_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
	"pgregory.net/rapid"
)

// The calculus of closures derived from a rule file is checked in lockstep with two
// independent artefacts: the derived reduction semantics (over terms, with
// substitution), and, on the λ-calculus (cbv.sem), the hand-derived calculus of
// closures of package lambda's stages.

// The helpers the derived stages' tests share (internal/cases/rulescases).
type (
	rulesRun = rulescases.Run
	tb       = rulescases.TB
)

var (
	loadRules    = rulescases.Load
	rulesOptions = rulescases.Options
	runDerived   = rulescases.RunDerived
	agree        = rulescases.Agree
)

// lambdaLockstep runs a λ-program on the calculus of closures derived from cbv.sem,
// on the derived reduction semantics, and on lambda's hand-derived calculus of
// closures (its answer read back and translated): the same contractions, the same
// answer.
func lambdaLockstep(t tb, l *sem.Language, tr *semlambda.Translator, p lambda.Expr, fuel int) {
	t.Helper()
	e, err := tr.Term(p)
	if err != nil {
		t.Fatal(err)
	}
	c := runDerived(closures.Stage{}.Rules(), l, e, fuel)
	agree(t, "derived closures / derived reduction", c, runDerived(reduction.Stage{}.Rules(), l, e, fuel))
	var h rulesRun
	a, err := closures.Stage{}.Lambda().Eval(p, rulesOptions(&h, fuel))
	h.Err = err
	if err == nil {
		if h.Value, err = tr.Term(a.Value); err != nil {
			t.Fatal(err)
		}
	}
	agree(t, "derived closures / hand closures", c, h)
}

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda in lockstep.
func TestRulesLambdaCorpus(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/lambda/*.lam")
	if len(files) < 10 {
		t.Fatalf("the corpus: %d files", len(files))
	}
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
		t.Run(filepath.Base(file), func(t *testing.T) { lambdaLockstep(t, l, tr, p, 20_000) })
	}
}

// TestRulesLambdaRandom: random well-typed λ-programs in lockstep.
func TestRulesLambdaRandom(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	checks := 1000
	if testing.Short() {
		checks = 200
	}
	rapid.Check(t, func(rt *rapid.T) {
		if checks--; checks < 0 {
			rt.Skip("enough")
		}
		lambdaLockstep(rt, l, tr, lambdagen.Program(rt, lambdagen.Config{}), 2000)
	})
}

// TestRulesStuck: an ill-typed program stops with the program's run-time error, the
// reason of the stuck shape, at the redex's position, as in the reduction semantics
// (reduction's TestRulesStuck derives them).
func TestRulesStuck(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	tests := []struct {
		src, reason string
		col         int32
	}{
		{"(app 1 2)", "application of a non-function", 1},
		{"(add (lam x x) 1)", "+ applied to a non-integer", 1},
		{"(if0 (lam x x) 1 2)", "if0 on a non-integer", 1},
		{"(add 1 (app (add 1 1) 0))", "application of a non-function", 8},
	}
	for _, tc := range tests {
		e, err := l.ReadTerm([]byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = closures.Stage{}.Rules().Eval(l, e, interderive.Options{})
		var rt *interderive.RuntimeError
		if !errors.As(err, &rt) || rt.Reason != tc.reason || rt.Pos != (interderive.Pos{Line: 1, Col: tc.col}) {
			t.Errorf("%s: got %v, want a run-time error at 1:%d: %s", tc.src, err, tc.col, tc.reason)
		}
	}
}

// TestRulesBudgets: a divergent program stops at its fuel, cleanly.
func TestRulesBudgets(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	e, err := l.ReadTerm([]byte("(letrec f x (app f x) (app f 0))"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = closures.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 1000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 1000 {
		t.Errorf("got %v, want out of fuel after 1000 contractions", err)
	}
}

// TestRulesBySubstitution: a rule file with a rule that matches a variable occurrence
// (x_2 below) does not qualify for closures; the calculus runs it under the
// substitution discipline instead, and tells an observer why, first. By hand:
// (app (lam x x) 1) enters (app [] t), whose hole (lam x x) is a value, then
// (app v []), whose hole 1 is a value; beta, the first rule, contracts it to
// x[x := 1] = 1.
func TestRulesBySubstitution(t *testing.T) {
	l, err := sem.Load([]byte(`(language open)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con app t t))
(kind E v)
(value E n)
(value E (lam x t))
(frame E (app (hole) t))
(frame E (app v (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(rule eta E (app (lam x_1 (app v x_2)) n) v (where (= x_1 x_2)))
(stuck E (app n v) "application of a non-function")`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := l.ReadTerm([]byte("(app (lam x x) 1)"))
	if err != nil {
		t.Fatal(err)
	}
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
	if n := rulescases.CheckSuites(t, closures.Stage{}.Rules(), reduction.Stage{}.Rules()); n < 30 {
		t.Errorf("%d programs", n)
	}
}
