package rulescases

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
	"pgregory.net/rapid"
)

// The λ-calculus as a rule file, cbv.sem, is where a derived stage meets an
// independent artefact: the stage of the same name that package lambda's
// calculus has, derived by hand. A λ-program runs on both, translated into cbv.sem
// for the derived one, its answer translated back from the hand-derived one.

// CBV is cbv.sem with the translation of λ-terms into it.
type CBV struct {
	Lang *sem.Language
	Tr   *semlambda.Translator
}

// LoadCBV reads cbv.sem and makes its translator.
func LoadCBV(t testing.TB) CBV {
	t.Helper()
	l := Load(t, "cbv.sem")
	tr, err := semlambda.New(l)
	if err != nil {
		t.Fatal(err)
	}
	return CBV{Lang: l, Tr: tr}
}

// Term is the λ-term p as a term of cbv.sem.
func (c CBV) Term(t TB, p lambda.Expr) *sem.Term {
	t.Helper()
	e, err := c.Tr.Term(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A Program is a well-typed program of testdata/lambda and its file's name.
type Program struct {
	Name string
	Expr lambda.Expr
}

// WellTyped are the well-typed programs of testdata/lambda (the others stop at their
// type error: nothing runs), at least ten of them.
func WellTyped(t testing.TB) []Program {
	t.Helper()
	files := Files(t, "lambda", "*.lam")
	var ps []Program
	for _, f := range files {
		p, err := lambda.Parse(f.Src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := lambda.TypeOf(p); err == nil {
			ps = append(ps, Program{Name: f.Name, Expr: p})
		}
	}
	if len(ps) < 10 {
		t.Fatalf("the corpus: %d well-typed programs in %d files", len(ps), len(files))
	}
	return ps
}

// LambdaCorpus runs check on each well-typed program of testdata/lambda, a subtest
// named after its file.
func LambdaCorpus(t *testing.T, check func(t *testing.T, c CBV, p lambda.Expr)) {
	t.Helper()
	c := LoadCBV(t)
	ps := WellTyped(t)
	for _, p := range ps {
		t.Run(p.Name, func(t *testing.T) { check(t, c, p.Expr) })
	}
	t.Logf("%d programs in lockstep", len(ps))
}

// LambdaRandom runs check on random well-typed λ-programs (lambdagen): as many as
// rapid checks, or, when checks is positive, at most checks of them.
func LambdaRandom(t *testing.T, checks int, check func(t TB, c CBV, p lambda.Expr)) {
	t.Helper()
	c := LoadCBV(t)
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		if n++; checks > 0 && n > checks {
			rt.Skip("enough")
		}
		check(rt, c, lambdagen.Program(rt, lambdagen.Config{}))
	})
}

// Lockstep runs the λ-program p on the stage derived from cbv.sem, on each reference
// stage refs derived from it, and on the hand-derived stage hand (its answer
// translated): they make the same contractions and end alike (Agree). It returns the
// derived stage's run.
func (c CBV) Lockstep(t TB, p lambda.Expr, fuel int, derived sem.Stage, hand lambda.Stage, refs ...sem.Stage) Run {
	t.Helper()
	e := c.Term(t, p)
	d := RunDerived(derived, c.Lang, e, fuel)
	for _, ref := range refs {
		Agree(t, "derived / derived reference", d, RunDerived(ref, c.Lang, e, fuel))
	}
	var h Run
	a, err := hand.Eval(p, Options(&h, fuel))
	if h.Err = err; err == nil {
		h.Value = c.Term(t, a.Value)
	}
	Agree(t, "derived / hand-derived", d, h)
	return d
}

// LockstepCorpus runs each well-typed program of testdata/lambda in lockstep
// (CBV.Lockstep, with a fuel of 20 000) on the stage derived from cbv.sem, on each
// reference refs derived from it, and on the hand-derived stage hand.
func LockstepCorpus(t *testing.T, derived sem.Stage, hand lambda.Stage, refs ...sem.Stage) {
	t.Helper()
	LambdaCorpus(t, func(t *testing.T, c CBV, p lambda.Expr) { c.Lockstep(t, p, 20_000, derived, hand, refs...) })
}

// LockstepRandom runs random well-typed λ-programs in lockstep (CBV.Lockstep, with a
// fuel of 2000) as LockstepCorpus does, at most checks of them if checks is positive
// (LambdaRandom).
func LockstepRandom(t *testing.T, checks int, derived sem.Stage, hand lambda.Stage, refs ...sem.Stage) {
	t.Helper()
	LambdaRandom(t, checks, func(t TB, c CBV, p lambda.Expr) { c.Lockstep(t, p, 2000, derived, hand, refs...) })
}

// Read reads a program of the rule file l.
func Read(t TB, l *sem.Language, src string) *sem.Term {
	t.Helper()
	e, err := l.ReadTerm([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Divergent is a program of cbv.sem that never ends: f x = f x, applied to 0. It is
// well typed, of type Int (t-letrec: under f:(Int -> Int), x:Int, f x is Int, the
// declared codomain, and so is f 0 under f:(Int -> Int)).
const Divergent = "(letrec f (Int -> Int) x Int (app f x) (app f 0))"

// OutOfFuel checks that the stage s, derived from cbv.sem, stops Divergent cleanly at
// its fuel: after 1000 contractions, the fuel given.
func OutOfFuel(t *testing.T, s sem.Stage) {
	t.Helper()
	l := Load(t, "cbv.sem")
	_, err := s.Eval(l, Read(t, l, Divergent), interderive.Options{Fuel: 1000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 1000 {
		t.Errorf("got %v, want out of fuel after 1000 contractions", err)
	}
}

// TimesOut checks that the stage s, derived from cbv.sem, stops Divergent cleanly at
// its timeout (20 ms), with fuel for far longer.
func TimesOut(t *testing.T, s sem.Stage) {
	t.Helper()
	l := Load(t, "cbv.sem")
	_, err := s.Eval(l, Read(t, l, Divergent), interderive.Options{Fuel: 1 << 40, Timeout: 20 * time.Millisecond})
	if !errors.Is(err, interderive.ErrTimeout) {
		t.Errorf("got %v, want a timeout", err)
	}
}

// A StuckCase is a program of cbn.sem with the run-time error it stops with: the
// reason of its stuck shape, at the redex's column on line 1. (cbv.sem types its
// programs, and a program it types is never stuck; cbn.sem, untyped, declares the
// same stuck shapes, and its frames search these programs as cbv.sem's would: the
// function position, then the operands left to right.)
type StuckCase struct {
	Src, Reason string
	Col         int32
}

// StuckCases are programs of cbn.sem, each stuck at its redex's position: where its
// root was in the source (plugging keeps a node's position, so the application of the
// last one is still at column 8 once its function has become 2, by delta).
var StuckCases = []StuckCase{
	{"(app 1 2)", "application of a non-function", 1},
	{"(add (lam x x) 1)", "+ applied to a non-integer", 1},
	{"(if0 (lam x x) 1 2)", "if0 on a non-integer", 1},
	{"(add 1 (app (add 1 1) 0))", "application of a non-function", 8},
}

// Stuck checks that the stage s, derived from cbn.sem, stops each case with its
// run-time error.
func Stuck(t *testing.T, s sem.Stage, cases ...StuckCase) {
	t.Helper()
	l := Load(t, "cbn.sem")
	for _, tc := range cases {
		_, err := s.Eval(l, Read(t, l, tc.Src), interderive.Options{})
		var rt *interderive.RuntimeError
		if !errors.As(err, &rt) || rt.Reason != tc.Reason || rt.Pos != (interderive.Pos{Line: 1, Col: tc.Col}) {
			t.Errorf("%s: got %v, want a run-time error at 1:%d: %s", tc.Src, err, tc.Col, tc.Reason)
		}
	}
}

// AddChain is 1 + (1 + ... (1 + 1)) with n additions, a program of cbv.sem nested n
// deep, whose answer is n + 1.
func AddChain(t TB, l *sem.Language, n int) *sem.Term {
	t.Helper()
	return Read(t, l, strings.Repeat("(add 1 ", n)+"1"+strings.Repeat(")", n))
}

// Deep checks that the stage s, derived from cbv.sem, runs AddChain(n) to its
// answer, n + 1.
func Deep(t *testing.T, s sem.Stage, n int) {
	t.Helper()
	l := Load(t, "cbv.sem")
	a, err := s.Eval(l, AddChain(t, l, n), interderive.Options{})
	if err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(n+1) {
		t.Errorf("got %v (%v), want %d", a, err, n+1)
	}
}

// Answers checks that each of the stages, derived from l, gives the program src the
// answer want.
func Answers(t *testing.T, l *sem.Language, src, want string, stages ...sem.Stage) {
	t.Helper()
	e := Read(t, l, src)
	for _, s := range stages {
		if a, err := s.Eval(l, e, interderive.Options{}); err != nil || sem.Format(a.Value) != want {
			t.Errorf("%v (%v), want %s", a, err, want)
		}
	}
}

// OpenSem is a rule file one of whose rules, eta, matches a variable occurrence
// (x_2): it does not qualify for environments, and runs by substitution on every
// derived stage.
const OpenSem = `(language open)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con app t t))
(kind E v)
(value E n)
(value E (lam x t))
(frame E (app (hole) t))
(frame E (app v (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(rule eta E (app (lam x_1 (app v x_2)) n) v (where (= x_1 x_2)))
(stuck E (app n v) "application of a non-function")`

// FailingCoinsSem is a rule file whose functions fail on some arguments: worth has
// clauses for a coin and a join only; loop calls itself on its own argument, for ever.
// Its lines are numbered for the expected positions: worth is declared on line 7,
// loop on line 10.
const FailingCoinsSem = `(language coins)
(sort t (integer n) (con tally t) (con coin n) (con join t t) (con spin t))
(kind E v)
(value E n)
(value E (coin n))
(value E (join v_1 v_2))
(function worth (t) t
  ((worth (coin n)) n)
  ((worth (join t_1 t_2)) (join (worth t_1) (worth t_2))))
(function loop (t) t
  ((loop t) (loop t)))
(frame E (tally (hole)))
(frame E (join (hole) t))
(frame E (join v (hole)))
(rule tally E (tally v) (worth v))
(rule spin E (spin t) (loop t))
`

// LayeredFlipSem steps an inner layer of coin piles whose rule mixed calls flip, which
// has a clause for (h) only; flip is declared on line 5. By hand: (pay (pair (h) (tl))
// 1) steps its pile in the layer K: (pair (h) (tl)) is two coins, a redex of mixed,
// which calls flip on (tl).
const LayeredFlipSem = `(language layered)
(sort t (integer n) (con pay c t))
(sort c (con h) (con tl) (con pair c c))
(class coin c (h) (tl))
(function flip (c) c ((flip (h)) (tl)))
(kind E v)
(kind K k c)
(value E n)
(value K coin)
(frame K (pair (hole) c))
(frame K (pair k (hole)))
(rule mixed K (pair coin_1 coin_2) (flip coin_2))
(frame E (pay c (hole)))
(rule pay E (pay c n) (pay c_2 n) (where (step K c c_2)))
(rule paid E (pay coin n) n)
`
