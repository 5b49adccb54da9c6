package sem_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Random derivations through functions, classes and negations: Redex's stlc+lists
// (testdata/redexbench/stlc+lists/base.sem), whose typeof types constants by a
// function of a class's terms, (const-type c), and variables by a function,
// (where (match τ (lookup Γ x))); and a judgment with a premise (not (J ...)) added
// to stlc.sem.

// listsLang loads Redex's stlc+lists, testdata/redexbench/stlc+lists/base.sem.
func listsLang(tb testing.TB) *sem.Language {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "redexbench", "stlc+lists", "base.sem"))
	if err != nil {
		tb.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// TestGenerateTypedLists: every program drawn from stlc+lists's typeof is typed by
// the search with the generated type, every node of its derivation is one the search
// finds, at least 90% of the programs are distinct (issue 27's target), and every
// rule of typeof (t-const, t-var, t-lam, t-app, as base.sem names them) and every
// clause of const-type (each constant's type: nil, cons, hd, tl, +, the integers)
// concludes some derivation.
func TestGenerateTypedLists(t *testing.T) {
	l := listsLang(t)
	g, err := l.NewTypedGenerator(sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j := l.Typing.Judgment
	empty, _ := l.ReadTermOf([]byte("•"), j.Params[0].Sort, false)
	r := rand.New(rand.NewPCG(9, 10))
	draws := 2000
	if testing.Short() {
		draws = 300
	}
	typed, seen, used, consts := 0, map[string]bool{}, map[string]bool{}, map[string]int{}
	for range draws {
		d, args, err := g.Generate([]*sem.Term{empty, nil, nil}, r)
		if errors.Is(err, sem.ErrNoDerivation) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		checkDerivation(t, l, d)
		got, _, err := l.TypeOf(args[1], interderive.Options{})
		if err != nil || got == nil || !sem.AlphaEqual(got, args[2]) {
			t.Fatalf("%s: generated type %s, typing gives %v (%v)", args[1], args[2], got, err)
		}
		typed++
		seen[sem.Format(args[1])] = true
		stack := []*sem.Derivation{d}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			used[n.Rule.Name] = true
			if n.Rule.Name == "t-const" {
				c := sem.Format(n.Args[1])
				if n.Args[1].Op == sem.TermInt {
					c = "0" // any integer
				}
				consts[c]++
			}
			stack = append(stack, n.Premises...)
		}
	}
	t.Logf("%d draws: %d typed programs, %d distinct", draws, typed, len(seen))
	if typed < draws*95/100 {
		t.Errorf("%d typed programs of %d draws, want at least 95%%", typed, draws)
	}
	if len(seen) < draws*9/10 {
		t.Errorf("%d distinct programs of %d draws, want at least 90%%", len(seen), draws)
	}
	for _, want := range []string{"t-const", "t-var", "t-lam", "t-app"} {
		if !used[want] {
			t.Errorf("no derivation uses %s", want)
		}
	}
	for _, c := range []string{"nil", "cons", "hd", "tl", "+", "0"} {
		if consts[c] == 0 {
			t.Errorf("no derivation types the constant %s", c)
		}
	}
	t.Logf("constants typed by t-const: %v", consts)
}

// TestGenerateTypedLists10k is issue 27's target: 10,000 well-typed programs of the
// stlc+lists grammar drawn in under 10 s, at least 90% of them distinct, each typed
// by the search (TypeOf: the judgment run by its modes, independent of the
// generator) with the generated type. The time is the draws' only, the checks
// apart; the options are the defaults.
func TestGenerateTypedLists10k(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 draws: BenchmarkGenerateTyped/lists measures one")
	}
	l := listsLang(t)
	g, err := l.NewTypedGenerator(sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(27, 2))
	const draws = 10000
	progs, types := make([]*sem.Term, 0, draws), make([]*sem.Term, 0, draws)
	start := time.Now()
	for range draws {
		p, ty, err := g.GenerateTyped(r)
		if err != nil {
			t.Fatal(err) // ErrNoDerivation too: every draw must give a program
		}
		progs, types = append(progs, p), append(types, ty)
	}
	took := time.Since(start)
	seen, size := map[string]bool{}, 0
	for i, p := range progs {
		got, _, err := l.TypeOf(p, interderive.Options{})
		if err != nil || got == nil || !sem.AlphaEqual(got, types[i]) {
			t.Fatalf("%s: generated type %s, typing gives %v (%v)", sem.Format(p), sem.Format(types[i]), got, err)
		}
		f := sem.Format(p)
		seen[f] = true
		size += len(f)
	}
	t.Logf("%d programs drawn in %v, all typed by the search; %d distinct (%.1f%%), mean length %d bytes",
		draws, took.Round(time.Millisecond), len(seen), 100*float64(len(seen))/draws, size/draws)
	if len(seen) < draws*9/10 {
		t.Errorf("%d distinct programs of %d, want at least 90%%", len(seen), draws)
	}
	if took > 10*time.Second {
		t.Errorf("%d programs took %v to draw, want under 10 s", draws, took)
	}
}

// TestGenerateNegation: fresh-lam types a λ whose variable the environment does not
// bind, (not (bound Γ x)); drawn on the environment (x num ·) with the names x, y, z,
// every derivation is one the search finds (so its λ's variable is not x, checked
// too), and the given inputs are kept.
func TestGenerateNegation(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", "stlc.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(append(src, boundJudgment+`
(judgment fresh-lam (Γ e τ) (I I O)
  (infer fl (fresh-lam Γ (lam x τ_1 e) (arrow τ_1 τ)) (not (bound Γ x)) (typeof (extend x τ_1 Γ) e τ)))
`...))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := l.Judgment("fresh-lam")
	env, err := l.ReadTermOf([]byte("(x num ·)"), j.Params[0].Sort, true)
	if err != nil {
		t.Fatal(err)
	}
	g, err := l.NewDerivationGenerator(j, sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	built := 0
	for range 300 {
		d, args, err := g.Generate([]*sem.Term{env, nil, nil}, r)
		if errors.Is(err, sem.ErrNoDerivation) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		built++
		checkDerivation(t, l, d)
		if !sem.AlphaEqual(args[0], env) {
			t.Fatalf("the input %s became %s", sem.Format(env), sem.Format(args[0]))
		}
		if x := args[1].Args[0].Name; x == "x" {
			t.Fatalf("%s: the λ's variable is bound by the environment", sem.Format(args[1]))
		}
	}
	if built < 290 {
		t.Errorf("%d derivations of 300 draws, want at least 290", built)
	}
}
