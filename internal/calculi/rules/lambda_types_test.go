package rules_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

// The λ-calculus twice: the hand-written package lambda, and testdata/rules/cbv.sem
// with its typing judgment, typeof. Every program of testdata/lambda is typed and run
// both ways, and the two must agree with each other and with the program's hand-derived
// expectation.

// lambdaData is the path of testdata/lambda from this package.
var lambdaData = filepath.Join("..", "..", "..", "testdata", "lambda")

// typedTerms translates the λ-calculus's programs, types and answers into cbv.sem's
// terms, annotations included, written here apart from sem/semlambda (which the
// stages' lockstep tests use), and TestLambdaTypes checks that the two translate
// every program alike: \x:S. e is (lam x S e),
// letrec f:T = \x:S. e in b is (letrec f T x S e b), Int is (int) and S -> T is
// (arrow S T). It is the meta-level translation of the syntax, one constructor for
// one, and every node keeps its position.
type typedTerms struct {
	cons map[string]*sem.Con
}

// newTypedTerms finds cbv.sem's constructors, with the arities the translation gives
// them.
func newTypedTerms(t *testing.T, l *sem.Language) typedTerms {
	t.Helper()
	arity := map[string]int{"lam": 3, "app": 2, "add": 2, "sub": 2, "mul": 2, "if0": 3, "let": 3, "letrec": 6, "int": 0, "arrow": 2}
	tt := typedTerms{cons: map[string]*sem.Con{}}
	for name, n := range arity {
		c, ok := l.Con(name)
		if !ok || len(c.Args) != n {
			t.Fatalf("cbv.sem has no constructor %s of %d arguments", name, n)
		}
		tt.cons[name] = c
	}
	return tt
}

// typ is the type T of the λ-calculus as a term of cbv.sem.
func (tt typedTerms) typ(p interderive.Pos, ty lambda.Type) (*sem.Term, error) {
	switch ty := ty.(type) {
	case lambda.IntType:
		return sem.App(p, tt.cons["int"]), nil
	case *lambda.Arrow:
		from, err := tt.typ(p, ty.From)
		if err != nil {
			return nil, err
		}
		to, err := tt.typ(p, ty.To)
		if err != nil {
			return nil, err
		}
		return sem.App(p, tt.cons["arrow"], from, to), nil
	}
	return nil, fmt.Errorf("not a type of the λ-calculus: %T", ty)
}

// term is the λ-term e as a term of cbv.sem.
func (tt typedTerms) term(e lambda.Expr) (*sem.Term, error) {
	c := tt.cons
	kids := func(es ...lambda.Expr) ([]*sem.Term, error) {
		out := make([]*sem.Term, len(es))
		for i, x := range es {
			var err error
			if out[i], err = tt.term(x); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	switch e := e.(type) {
	case *lambda.IntLit:
		return sem.Int(e.P, e.N), nil
	case *lambda.Var:
		return sem.Var(e.P, e.Name), nil
	case *lambda.Lam:
		s, err := tt.typ(e.P, e.T)
		if err != nil {
			return nil, err
		}
		body, err := tt.term(e.Body)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c["lam"], sem.Var(e.P, e.Param), s, body), nil
	case *lambda.App:
		k, err := kids(e.Fun, e.Arg)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c["app"], k...), nil
	case *lambda.Binary:
		op := map[lambda.Op]string{lambda.OpAdd: "add", lambda.OpSub: "sub", lambda.OpMul: "mul"}[e.Op]
		if op == "" {
			return nil, fmt.Errorf("%s: no constructor of cbv.sem for the operator %s", e.P, e.Op)
		}
		k, err := kids(e.X, e.Y)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c[op], k...), nil
	case *lambda.If0:
		k, err := kids(e.Cond, e.Then, e.Else)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c["if0"], k...), nil
	case *lambda.Let:
		k, err := kids(e.Bound, e.Body)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c["let"], sem.Var(e.P, e.Name), k[0], k[1]), nil
	case *lambda.Letrec:
		ft, err := tt.typ(e.P, e.T)
		if err != nil {
			return nil, err
		}
		s, err := tt.typ(e.Fun.P, e.Fun.T)
		if err != nil {
			return nil, err
		}
		k, err := kids(e.Fun.Body, e.Body)
		if err != nil {
			return nil, err
		}
		return sem.App(e.P, c["letrec"], sem.Var(e.P, e.Name), ft, sem.Var(e.Fun.P, e.Fun.Param), s, k[0], k[1]), nil
	}
	return nil, fmt.Errorf("not a term of the λ-calculus: %T", e)
}

// lamExpectation is what a program of testdata/lambda says of itself
// (testdata/lambda/README.md): its answer (an integer, "function", "type error" or
// "out of fuel") and its fuel, 0 when it gives none.
type lamExpectation struct {
	answer string
	fuel   int
}

// readLamExpectation reads the "-- expect:" (or "-- expect[cbv]:") and "-- fuel:"
// lines of a program of testdata/lambda.
func readLamExpectation(src string) (lamExpectation, error) {
	var x lamExpectation
	for line := range strings.Lines(src) {
		line = strings.TrimSpace(line)
		for _, key := range []string{"-- expect:", "-- expect[cbv]:"} {
			if v, ok := strings.CutPrefix(line, key); ok {
				x.answer = strings.TrimSpace(v)
			}
		}
		if v, ok := strings.CutPrefix(line, "-- fuel:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return x, fmt.Errorf("fuel: %v", err)
			}
			x.fuel = n
		}
	}
	if x.answer == "" {
		return x, errors.New("no -- expect: line")
	}
	return x, nil
}

// lambdaFuel is the fuel of a program that gives none: every terminating program of
// the corpus takes fewer contractions (sum-tail.lam, the longest, about 2000).
const lambdaFuel = 1_000_000

// TestLambdaTypes runs every program of testdata/lambda both ways: package lambda
// types it (lambda.TypeOf) and runs it on its hand-derived reduction semantics;
// cbv.sem's typing judgment types its translation (sem.Language.TypeOf, the typing
// the file names) and cbv.sem's derived reduction semantics runs it. The two types are
// the same type (printed alike once the λ-calculus's is a term of cbv.sem), the two
// runs make the same contractions and end in the same answer (up to α), and each
// agrees with the program's "-- expect:" line, derived by hand: a program the lambda
// package rejects as ill-typed, cbv.sem's judgment rejects too, and neither runs it.
//
// Not compared: where a type error is. lambda.TypeOf positions it at the subterm at
// fault; the judgment only says that no derivation exists, and names the premises
// that fail in the rules whose conclusion matches the whole program.
func TestLambdaTypes(t *testing.T) {
	l, err := rules.LoadFile(filepath.Join(testdata, "cbv.sem"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Typing == nil {
		t.Fatal("cbv.sem names no typing judgment")
	}
	tt := newTypedTerms(t, l)
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Typed() {
		t.Fatal("sem/semlambda erases cbv.sem's types")
	}
	files, err := filepath.Glob(filepath.Join(lambdaData, "*.lam"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 15 {
		t.Fatalf("%d programs in %s, want the corpus (at least 15)", len(files), lambdaData)
	}
	var typed, illTyped int
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := readLamExpectation(string(src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := lambda.Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			e, err := tt.term(p)
			if err != nil {
				t.Fatal(err)
			}
			if s, err := tr.Term(p); err != nil || sem.Format(s) != sem.Format(e) || !sem.AlphaEqual(s, e) {
				t.Fatalf("sem/semlambda translates it as %s (%v), want %s", sem.Format(s), err, sem.Format(e))
			}
			handType, handErr := lambda.TypeOf(p)
			ruleType, why, err := l.TypeOf(e, interderive.Options{Timeout: 10 * time.Second})
			if err != nil {
				t.Fatalf("typeof %s: %v", sem.Format(e), err)
			}
			if want.answer == "type error" {
				if handErr == nil || ruleType != nil {
					t.Fatalf("a type error by hand: lambda gives %v (%v), typeof %v", handType, handErr, ruleType)
				}
				illTyped++
				var premises []string
				for _, f := range why {
					if f.Premise >= 0 {
						premises = append(premises, f.String())
					}
				}
				t.Logf("rejected both ways: lambda: %v; typeof: %s", handErr, strings.Join(premises, "; "))
				return
			}
			if handErr != nil || ruleType == nil {
				t.Fatalf("well-typed by hand: lambda gives %v (%v), typeof %v (%v)", handType, handErr, ruleType, why)
			}
			handAsTerm, err := tt.typ(interderive.Pos{}, handType)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sem.Format(ruleType), sem.Format(handAsTerm); got != want {
				t.Fatalf("typeof gives %s, lambda %s (%s)", got, want, lambda.FormatType(handType))
			}
			typed++

			fuel := lambdaFuel
			if want.fuel > 0 {
				fuel = want.fuel
			}
			var handEvents, ruleEvents []string
			handAnswer, handRunErr := reduction.Stage{}.Lambda().Eval(p, interderive.Options{Fuel: fuel,
				OnContract: func(r string) { handEvents = append(handEvents, r) }})
			ruleAnswer, ruleRunErr := reduction.Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: fuel,
				OnContract: func(r string) { ruleEvents = append(ruleEvents, r) }})
			if !slices.Equal(handEvents, ruleEvents) {
				t.Fatalf("the contractions differ: lambda %d, cbv.sem %d:\n%v\n%v", len(handEvents), len(ruleEvents), handEvents, ruleEvents)
			}
			if want.answer == "out of fuel" {
				if !errors.Is(handRunErr, interderive.ErrOutOfFuel) || !errors.Is(ruleRunErr, interderive.ErrOutOfFuel) {
					t.Fatalf("out of fuel by hand: lambda %v, cbv.sem %v", handRunErr, ruleRunErr)
				}
				return
			}
			if handRunErr != nil || ruleRunErr != nil {
				t.Fatalf("lambda: %v; cbv.sem: %v", handRunErr, ruleRunErr)
			}
			handValue, err := tt.term(handAnswer.Value)
			if err != nil {
				t.Fatal(err)
			}
			if !sem.AlphaEqual(handValue, ruleAnswer.Value) {
				t.Fatalf("the answers differ: lambda %s, cbv.sem %s", sem.Format(handValue), sem.Format(ruleAnswer.Value))
			}
			if got := handAnswer.Observe(); got != want.answer {
				t.Fatalf("lambda prints %s, want %s", got, want.answer)
			}
			if got := observeCBV(ruleAnswer.Value); got != want.answer {
				t.Fatalf("cbv.sem's answer %s prints %s, want %s", sem.Format(ruleAnswer.Value), got, want.answer)
			}
		})
	}
	t.Logf("%d programs: %d typed alike and run to the same answers, %d rejected both ways", len(files), typed, illTyped)
}

// observeCBV is what the λ-calculus prints of an answer of cbv.sem: an integer as
// itself, a function as "function".
func observeCBV(v *sem.Term) string {
	switch {
	case v.Op == sem.TermInt:
		return strconv.FormatInt(v.N, 10)
	case v.Op == sem.TermCon && v.Con.Name == "lam":
		return "function"
	}
	return sem.Format(v)
}
