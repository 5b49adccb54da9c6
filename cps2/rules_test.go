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
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

// The CPS evaluator derived from a rule file, in lockstep with the derived machine it
// refunctionalizes and, on the λ-calculus (cbv.sem), with the λ-calculus's
// hand-derived CPS evaluator.

func loadRules(t *testing.T, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(interderive.Describe(name, src, err))
	}
	return l
}

// rulesRun is a run: its contraction events, and its answer or error.
type rulesRun struct {
	events []string
	value  *sem.Term
	err    error
}

func rulesOptions(r *rulesRun, fuel int) interderive.Options {
	return interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.events = append(r.events, rule) }}
}

func runDerived(s sem.Stage, l *sem.Language, e *sem.Term, fuel int) rulesRun {
	var r rulesRun
	a, err := s.Eval(l, e, rulesOptions(&r, fuel))
	r.value, r.err = a.Value, err
	return r
}

// agree checks that two runs made the same contractions and ended alike.
func agree(t *testing.T, what string, a, b rulesRun) {
	t.Helper()
	if !slices.Equal(a.events, b.events) {
		t.Fatalf("%s: the contraction events differ:\n%v\n%v", what, a.events, b.events)
	}
	var ra, rb *interderive.RuntimeError
	switch {
	case a.err == nil && b.err == nil:
		if !sem.AlphaEqual(a.value, b.value) {
			t.Fatalf("%s: answers differ: %s, %s", what, sem.Format(a.value), sem.Format(b.value))
		}
	case errors.Is(a.err, interderive.ErrOutOfFuel) && errors.Is(b.err, interderive.ErrOutOfFuel):
	case errors.As(a.err, &ra) && errors.As(b.err, &rb) && ra.Reason == rb.Reason && ra.Pos == rb.Pos:
	default:
		t.Fatalf("%s: %v, %v", what, a.err, b.err)
	}
}

// TestRulesCorpus: the programs of testdata/rules/{cbv,cbn,cbn-strict} on the CPS
// evaluator and the derived machine, in lockstep.
func TestRulesCorpus(t *testing.T) {
	for _, lang := range []string{"cbv", "cbn", "cbn-strict"} {
		l := loadRules(t, lang+".sem")
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", lang, "*.term"))
		if len(files) < 4 {
			t.Fatalf("%s: %d programs", lang, len(files))
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			e, err := l.ReadTerm(src)
			if err != nil {
				t.Fatal(err)
			}
			agree(t, file, runDerived(cps2.Stage{}.Rules(), l, e, 1000), runDerived(machine.Stage{}.Rules(), l, e, 1000))
		}
	}
}

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
		h.err = err
		if err == nil {
			if h.value, err = tr.Term(a.Value); err != nil {
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
