package sem_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Random derivations through functions, classes and negations: Redex's stlc+lists
// (testdata/redexbench/stlc+lists/base.sem), whose typeof types constants by a
// function of a class's terms, (const-type c), and variables by a function,
// (where (match τ (lookup Γ x))); and a judgment with a premise (not (J ...)) added
// to stlc.sem.

// TestGenerateTypedLists: every program drawn from stlc+lists's typeof is typed by
// the search with the generated type, and every rule of typeof (t-const, t-var, t-lam,
// t-app, as base.sem names them) concludes some derivation.
func TestGenerateTypedLists(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "redexbench", "stlc+lists", "base.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
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
	typed, seen, used := 0, map[string]bool{}, map[string]bool{}
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
			stack = append(stack, n.Premises...)
		}
	}
	t.Logf("%d draws: %d typed programs, %d distinct", draws, typed, len(seen))
	if typed < draws*95/100 {
		t.Errorf("%d typed programs of %d draws, want at least 95%%", typed, draws)
	}
	for _, want := range []string{"t-const", "t-var", "t-lam", "t-app"} {
		if !used[want] {
			t.Errorf("no derivation uses %s", want)
		}
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
