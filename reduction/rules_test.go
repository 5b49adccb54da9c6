package reduction_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
	"pgregory.net/rapid"
)

// loadRules reads a rule file of testdata/rules.
func loadRules(t testing.TB, name string) *sem.Language {
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

// tb is what the lockstep needs of a test: *testing.T or *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// translate is a λ-term as a term of cbv.sem.
func translate(t tb, tr *semlambda.Translator, e lambda.Expr) *sem.Term {
	t.Helper()
	u, err := tr.Term(e)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// lockstepLambda runs a λ-program step by step on the hand-derived reduction semantics
// of lambda (the independent check) and on the one derived from cbv.sem: every step
// must contract by the same rule and give the same term (up to α-equivalence, types
// erased), and both must end together with the same answer. It returns the number of
// contractions (at most max) and whether the program reached its answer.
func lockstepLambda(t tb, l *sem.Language, tr *semlambda.Translator, p lambda.Expr, max int) (int, bool) {
	t.Helper()
	hand := reduction.Stage{}.Lambda().(lambda.Stepper)
	derived := reduction.Stage{}.Rules().(sem.Stepper)
	e := translate(t, tr, p)
	for n := 0; n <= max; n++ {
		hn, hr, hdone, herr := hand.Step(p)
		dn, dr, ddone, derr := derived.Step(l, e)
		if herr != nil || derr != nil {
			t.Fatalf("step %d: hand %v, derived %v\n%s", n+1, herr, derr, lambda.Format(p))
		}
		if hdone != ddone || hr != dr {
			t.Fatalf("step %d: hand %q (done %v), derived %q (done %v)\nhand    %s\nderived %s", n+1, hr, hdone, dr, ddone, lambda.Format(p), sem.Format(e))
		}
		if !sem.AlphaEqual(translate(t, tr, hn), dn) {
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
	l := loadRules(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/lambda/*.lam")
	if len(files) < 10 {
		t.Fatalf("the corpus: %d files", len(files))
	}
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
			continue // a type error: nothing runs
		}
		ran++
		t.Run(filepath.Base(file), func(t *testing.T) {
			const max = 20_000
			n, done := lockstepLambda(t, l, tr, p, max)
			opts := func(events *[]string) interderive.Options {
				return interderive.Options{Fuel: n + 1, OnContract: func(r string) { *events = append(*events, r) }}
			}
			var hev, dev []string
			ha, herr := reduction.Stage{}.Lambda().Eval(p, opts(&hev))
			da, derr := reduction.Stage{}.Rules().Eval(l, translate(t, tr, p), opts(&dev))
			if !slices.Equal(hev, dev) {
				t.Fatalf("the contraction events differ:\nhand    %v\nderived %v", hev, dev)
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
			if !sem.AlphaEqual(translate(t, tr, ha.Value), da.Value) {
				t.Fatalf("answers differ: hand %s, derived %s", ha, da)
			}
		})
	}
	t.Logf("%d programs in lockstep", ran)
}

// TestRulesLambdaRandom: random well-typed λ-programs (lambdagen) run in lockstep on
// the hand-derived and the derived reduction semantics.
func TestRulesLambdaRandom(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		p := lambdagen.Program(rt, lambdagen.Config{})
		lockstepLambda(rt, l, tr, p, 2000)
	})
}

// TestRulesSuites: the programs of testdata/rules (rulescases.Suites: the corpora of
// cbn.sem, cbn-strict.sem and exceptions.sem, aborts to the root, a layer of
// coins) give on the derived reduction semantics the answers and the contraction
// sequences their comments derive by hand.
func TestRulesSuites(t *testing.T) {
	if n := rulescases.CheckSuites(t, reduction.Stage{}.Rules(), reduction.Stage{}.Rules()); n < 30 {
		t.Errorf("%d programs", n)
	}
}

// TestRulesBudgets: a divergent program stops at its fuel, or at its timeout, cleanly.
func TestRulesBudgets(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	e, err := l.ReadTerm([]byte("(letrec f x (app f x) (app f 0))"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = reduction.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 1000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 1000 {
		t.Errorf("got %v, want out of fuel after 1000 contractions", err)
	}
	_, err = reduction.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 1 << 40, Timeout: 20 * time.Millisecond})
	if !errors.Is(err, interderive.ErrTimeout) {
		t.Errorf("got %v, want a timeout", err)
	}
}

// TestRulesStuck: an ill-typed program stops with a run-time error, the reason of the
// stuck shape, at the redex's position: where its root was in the source (plugging
// keeps a node's position, so the application of the last one is still at column 8
// once its function has become 2).
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
		_, err = reduction.Stage{}.Rules().Eval(l, e, interderive.Options{})
		var stuck *interderive.RuntimeError
		if !errors.As(err, &stuck) || stuck.Reason != tc.reason || stuck.Pos != (interderive.Pos{Line: 1, Col: tc.col}) {
			t.Errorf("%s: got %v, want run-time error: %s", tc.src, err, tc.reason)
		}
	}
}

// TestRulesDeep: a term nested as deep as the reader allows runs without exhausting
// the stack: 1 + (1 + (... + 1)) is n + 1.
func TestRulesDeep(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	n := sem.MaxNesting
	if testing.Short() {
		n = 1000
	}
	src := strings.Repeat("(add 1 ", n) + "1" + strings.Repeat(")", n)
	e, err := l.ReadTerm([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a, err := reduction.Stage{}.Rules().Eval(l, e, interderive.Options{})
	if err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(n+1) {
		t.Errorf("got %v (%v), want %d", a, err, n+1)
	}
}

// TestRulesTrace: the lines the derived reduction semantics shows for (1 + 2) * 4,
// derived by hand: the first decomposition enters the left operand of * (the frame
// (mul [] t)) and finds 1 + 2 (its operands values, no frame after (add v []) enters
// it); the second finds 3 * 4 at the root. (recorder is gradual_test.go's.)
func TestRulesTrace(t *testing.T) {
	l := loadRules(t, "cbv.sem")
	e, err := l.ReadTerm([]byte("(mul (add 1 2) 4)"))
	if err != nil {
		t.Fatal(err)
	}
	var r recorder
	stage := reduction.Stage{}.Rules()
	if _, err := stage.Eval(l, e, interderive.Options{Observer: &r}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"step decompose: (mul [] 4)  with redex  (add 1 2)  of kind E",
		"about 1 contract:  3",
		"about 1 plug:      (mul 3 4)",
		"step decompose: []  with redex  (mul 3 4)  of kind E",
		"about 2 contract:  12",
		"about 2 plug:      12",
	}
	if !slices.Equal(r.lines, want) {
		t.Errorf("lines:\n%s\nwant\n%s", strings.Join(r.lines, "\n"), strings.Join(want, "\n"))
	}
}
