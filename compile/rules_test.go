package compile_test

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The compiled interpreter derived from a rule file, in lockstep with the derived
// interpreter and reduction semantics and, on the λ-calculus (cbv.sem), with the
// λ-calculus's hand-written compiled stage.

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived compiled stage, on the derived interpreter (a reference), and on the
// λ-calculus's hand-written compiled stage (its answer translated): the same
// contractions and answers.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, compile.Stage{}.Rules(), compile.Stage{}.Lambda(), interp.Stage{}.Rules())
}

// TestRulesLambdaRandom: random well-typed λ-programs, in lockstep as on the corpus.
func TestRulesLambdaRandom(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	rulescases.LockstepRandom(t, n, compile.Stage{}.Rules(), compile.Stage{}.Lambda(), interp.Stage{}.Rules())
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the compiled stage the answers
// and the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, compile.Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesBudgets: a divergent program stops at its fuel, and at its timeout,
// cleanly; ill-typed ones with their run-time errors at their redexes
// (rulescases.StuckCases derives them).
func TestRulesBudgets(t *testing.T) {
	s := compile.Stage{}.Rules()
	rulescases.OutOfFuel(t, s)
	rulescases.TimesOut(t, s)
	rulescases.Stuck(t, s, rulescases.StuckCases...)
}

// TestRulesAnswers: small programs of cbv.sem whose answers follow from its rules by
// hand: ((λx. x + 1) 41) is 42 (beta, delta); let-bound and recursive functions.
func TestRulesAnswers(t *testing.T) {
	l := rulescases.Load(t, "cbv.sem")
	for _, tc := range []struct{ src, want string }{
		{"(app (lam x (add x 1)) 41)", "42"},
		{"(if0 0 1 2)", "1"},
		{"(if0 (add 1 0) 1 2)", "2"},
		// f 3 with f n = if0 n 0 (n + f (n - 1)): 3 + 2 + 1 + 0.
		{"(letrec f n (if0 n 0 (add n (app f (add n -1)))) (app f 3))", "6"},
	} {
		rulescases.Answers(t, l, tc.src, tc.want, compile.Stage{}.Rules())
	}
}

// addChain is 1 + (1 + ... (1 + 1)) with n additions, built directly: deeper than the
// parser reads (sem.MaxNesting).
func addChain(t *testing.T, l *sem.Language, n int) *sem.Term {
	add, ok := l.Con("add")
	if !ok {
		t.Fatal("cbv.sem has no add")
	}
	e := sem.Int(sem.Pos{}, 1)
	for range n {
		e = sem.App(sem.Pos{}, add, sem.Int(sem.Pos{}, 1), e)
	}
	return e
}

// TestRulesDeep: the compiled code's recursion is interp's, bounded by interp.MaxDepth:
// each addition's right operand is a call, so that 1 + (1 + ... (1 + 1)) with n
// additions runs to n + 1 within the bound, under a Go stack of half
// interderive.StackLimit (the bound's derivation, interp.DepthFrame a level), and a
// chain past the bound stops cleanly with a depth error.
func TestRulesDeep(t *testing.T) {
	s := compile.Stage{}.Rules()
	rulescases.Deep(t, s, 1000)
	l := rulescases.Load(t, "cbv.sem")
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	for _, n := range []int{100_000, interp.MaxDepth - 2} {
		a, err := s.Eval(l, addChain(t, l, n), interderive.Options{Fuel: 1 << 30})
		if err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(n+1) {
			t.Errorf("%d: got %v (%v), want %d", n, a, err, n+1)
		}
	}
	n := interp.MaxDepth + 10
	if a, err := s.Eval(l, addChain(t, l, n), interderive.Options{Fuel: 1 << 30}); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("%d: got %v (%v), want too deep", n, a, err)
	}
}

// TestRulesAbortDepth: an abort returns early through every call inside its
// delimiter, to the one that entered the delimiter's frame (interp's
// TestRulesAbortDepth derives the answer, 11 + n/2, and the events).
func TestRulesAbortDepth(t *testing.T) {
	l := rulescases.Load(t, "exceptions.sem")
	const n = 1000
	src := "(handle " + strings.Repeat("(add 1 ", n/2) + "(handle " + strings.Repeat("(add 1 ", n/2) + "(raise 1)" +
		strings.Repeat(")", n/2) + " (lam x (add x 10)))" + strings.Repeat(")", n/2) + " (lam y 0))"
	e := rulescases.Read(t, l, src)
	want := []string{"raise", "beta", "delta"}
	for range n / 2 {
		want = append(want, "delta")
	}
	want = append(want, "handle")
	r := rulescases.RunDerived(compile.Stage{}.Rules(), l, e, 10_000)
	if r.Outcome() != fmt.Sprint(11+n/2) || !slices.Equal(r.Events, want) {
		t.Errorf("got %s after %d events, want %d after %d", r.Outcome(), len(r.Events), 11+n/2, len(want))
	}
	rulescases.Agree(t, "compile / interp", r, rulescases.RunDerived(interp.Stage{}.Rules(), l, e, 10_000))
}

// TestRulesSubstitution: a file that does not qualify for environments (OpenSem: a
// rule matches a variable occurrence) runs by substitution, its contracta new terms
// that run their roots' code. (λy. (λz. z) y) 5 -> (λz. z) 5 -> 5: beta twice (the
// first rule, beta, takes every value argument), in agreement with the derived
// interpreter.
func TestRulesSubstitution(t *testing.T) {
	l := rulescases.LoadSource(t, "open.sem", rulescases.OpenSem)
	e := rulescases.Read(t, l, "(app (lam y (app (lam z z) y)) 5)")
	r := rulescases.RunDerived(compile.Stage{}.Rules(), l, e, 100)
	if r.Outcome() != "5" || !slices.Equal(r.Events, []string{"beta", "beta"}) {
		t.Errorf("got %s after %v, want 5 after beta, beta", r.Outcome(), r.Events)
	}
	rulescases.Agree(t, "compile / interp", r, rulescases.RunDerived(interp.Stage{}.Rules(), l, e, 100))
}
