package sem_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// The tests of random derivations (derivgen.go) on testdata/rules/stlc.sem. Every
// derivation drawn is checked by the search (Judge), which is independent of the
// generator: it derives its judgments by the modes, matching and building terms.

// stlcLang loads testdata/rules/stlc.sem, for tests and benchmarks.
func stlcLang(tb testing.TB) *sem.Language { return load(tb, "stlc.sem") }

// checkDerivation checks every node of d by the search: its judgment on its inputs
// has a derivation, by some rule, whose outputs are d's (α-equivalent), and the node
// names a rule of its judgment whose premises it has as many derivations of as the
// rule has judgment premises (negations and conditions have none).
func checkDerivation(t *testing.T, l *sem.Language, d *sem.Derivation) {
	t.Helper()
	stack := []*sem.Derivation{d}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j := n.Judgment
		in := slices.Clone(n.Args)
		for i := range in {
			if j.Out[i] {
				in[i] = nil
			}
		}
		out, err := l.Judge(j, in, 0, interderive.Options{})
		if err != nil {
			t.Fatalf("judge %s: %v", j.Name, err)
		}
		found := false
		for _, e := range out.Derivations {
			same := true
			for i := range n.Args {
				same = same && sem.AlphaEqual(e.Args[i], n.Args[i])
			}
			found = found || same
		}
		if !found {
			t.Fatalf("the search finds no derivation of the generated node\n%s", n.Format())
		}
		premises := 0
		for _, pr := range n.Rule.Premises {
			if pr.Judgment != nil && !pr.Negated {
				premises++
			}
		}
		if !slices.Contains(j.Rules, n.Rule) || len(n.Premises) != premises {
			t.Fatalf("node by %s has %d premises' derivations, its rule %d judgment premises", n.Rule.Name, len(n.Premises), premises)
		}
		stack = append(stack, n.Premises...)
	}
}

// TestGenerateDerivationChecked: every derivation of typeof drawn on the empty
// environment is one the search finds, at each of its nodes; and the program's type
// by typing (TypeOf, the search's first derivation) is the generated type.
func TestGenerateDerivationChecked(t *testing.T) {
	l := stlcLang(t)
	j, _ := l.Judgment("typeof")
	empty, err := l.ReadTermOf([]byte("·"), j.Params[0].Sort, false)
	if err != nil {
		t.Fatal(err)
	}
	g, err := l.NewDerivationGenerator(j, sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	draws := 3000
	if testing.Short() {
		draws = 500
	}
	failed := 0
	for range draws {
		d, args, err := g.Generate([]*sem.Term{empty, nil, nil}, r)
		if errors.Is(err, sem.ErrNoDerivation) {
			failed++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !sem.AlphaEqual(args[0], empty) || d.Args[1] != args[1] {
			t.Fatalf("the arguments %v are not the derivation's and the input's", args)
		}
		checkDerivation(t, l, d)
		ty, _, err := l.TypeOf(args[1], interderive.Options{})
		if err != nil || ty == nil || !sem.AlphaEqual(ty, args[2]) {
			t.Fatalf("%s: generated type %s, typing gives %v (%v)", args[1], args[2], ty, err)
		}
	}
	t.Logf("%d draws, %d derivations checked, %d failed within their budget", draws, draws-failed, failed)
	if failed > draws/100 {
		t.Errorf("%d of %d draws failed, want at most 1%%", failed, draws)
	}
}

// TestGenerateTypedStlc: 10,000 draws of GenerateTyped on stlc.sem; each program is
// typed by the search with the generated type; the counts of programs and of distinct
// ones are reported, the target (issue 27.3) at least 90% distinct.
func TestGenerateTypedStlc(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 draws: BenchmarkGenerateTyped measures the time")
	}
	l := stlcLang(t)
	g, err := l.NewTypedGenerator(sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	const draws = 10000
	seen := map[string]bool{}
	typed, failed, size := 0, 0, 0
	for range draws {
		p, ty, err := g.GenerateTyped(r)
		if errors.Is(err, sem.ErrNoDerivation) {
			failed++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := l.TypeOf(p, interderive.Options{})
		if err != nil || got == nil || !sem.AlphaEqual(got, ty) {
			t.Fatalf("%s: generated type %s, typing gives %v (%v)", p, ty, got, err)
		}
		typed++
		s := sem.Format(p)
		size += len(s)
		seen[s] = true
	}
	t.Logf("%d draws: %d typed programs, %d distinct (%.1f%%), %d failed; mean length %d bytes",
		draws, typed, len(seen), 100*float64(len(seen))/draws, failed, size/max(typed, 1))
	if typed < draws*99/100 {
		t.Errorf("%d typed programs of %d draws, want at least 99%%", typed, draws)
	}
	if len(seen) < draws*9/10 {
		t.Errorf("%d distinct programs of %d draws, want at least 90%%", len(seen), draws)
	}
	// Single draws, none restarted: how many build a derivation at once.
	once, err := l.NewTypedGenerator(sem.GenOptions{Restarts: -1})
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	for range draws {
		if _, _, err := once.GenerateTyped(r); err == nil {
			built++
		} else if !errors.Is(err, sem.ErrNoDerivation) {
			t.Fatal(err)
		}
	}
	t.Logf("%d single draws (no restart): %d derivations", draws, built)
}

// BenchmarkGenerateTyped: a well-typed program a draw, default options, of stlc.sem
// (a draw may find no derivation) and of stlc+lists (TestGenerateTypedLists10k's:
// every draw finds one).
func BenchmarkGenerateTyped(b *testing.B) {
	for _, bc := range []struct {
		name    string
		lang    func(testing.TB) *sem.Language
		partial bool // ErrNoDerivation is a draw's outcome, not a failure
	}{{"stlc", stlcLang, true}, {"lists", listsLang, false}} {
		b.Run(bc.name, func(b *testing.B) {
			g, err := bc.lang(b).NewTypedGenerator(sem.GenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(5, 6))
			for b.Loop() {
				if _, _, err := g.GenerateTyped(r); err != nil && !(bc.partial && errors.Is(err, sem.ErrNoDerivation)) {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestGenerateCoverage: every rule of typeof and lookup (stlc.sem: t-num, t-plus,
// t-if0, t-var, t-app, t-lam; here, there) concludes a node of some derivation drawn,
// and some program has a λ whose variable shadows the variable of a λ around it.
func TestGenerateCoverage(t *testing.T) {
	l := stlcLang(t)
	g, err := l.NewTypedGenerator(sem.GenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j := l.Typing.Judgment
	r := rand.New(rand.NewPCG(7, 8))
	empty, _ := l.ReadTermOf([]byte("·"), j.Params[0].Sort, false)
	used := map[string]bool{}
	shadowing := ""
	for range 500 {
		d, args, err := g.Generate([]*sem.Term{empty, nil, nil}, r)
		if errors.Is(err, sem.ErrNoDerivation) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		stack := []*sem.Derivation{d}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			used[n.Judgment.Name+"/"+n.Rule.Name] = true
			stack = append(stack, n.Premises...)
		}
		if shadowing == "" && shadows(args[1], nil) {
			shadowing = sem.Format(args[1])
		}
	}
	for _, want := range []string{"typeof/t-num", "typeof/t-plus", "typeof/t-if0", "typeof/t-var", "typeof/t-app", "typeof/t-lam", "lookup/here", "lookup/there"} {
		if !used[want] {
			t.Errorf("no derivation uses %s", want)
		}
	}
	if shadowing == "" {
		t.Error("no program has a λ whose variable shadows an enclosing λ's")
	} else {
		t.Logf("shadowing: %s", shadowing)
	}
}

// shadows reports whether t has a λ (stlc.sem's lam, binder first) whose variable is
// one of bound, or the variable of a λ around it in t.
func shadows(t *sem.Term, bound []string) bool {
	if t.Op != sem.TermCon {
		return false
	}
	if t.Con.Name == "lam" {
		x := t.Args[0].Name
		if slices.Contains(bound, x) {
			return true
		}
		bound = append(bound[:len(bound):len(bound)], x)
	}
	for _, a := range t.Args {
		if shadows(a, bound) {
			return true
		}
	}
	return false
}

// TestGenerateNoBaseCase: a judgment whose only rule has itself as a premise has no
// derivation to draw: a positioned error naming it (line 6, column 1: mini has five
// lines), not a draw without end.
func TestGenerateNoBaseCase(t *testing.T) {
	l, err := sem.Parse([]byte(mini + "(judgment loop (t t) (I O) (infer r (loop t t_2) (loop t t_2)))"))
	if err != nil {
		t.Fatal(err)
	}
	j, _ := l.Judgment("loop")
	_, _, err = l.GenerateDerivation(j, []*sem.Term{nil, nil}, rand.New(rand.NewPCG(1, 1)), sem.GenOptions{})
	var el interderive.ErrorList
	if !errors.As(err, &el) || !strings.HasPrefix(el[0].Error(), "6:1: judgment loop has no derivation to generate") {
		t.Errorf("got %v, want a positioned error at 6:1 naming loop", err)
	}
	if errors.Is(err, sem.ErrNoDerivation) {
		t.Error("no base case is not a draw that failed")
	}
}

// TestGenerateLargeDepth: a depth bound far past the sizes drawn (fuzz --size 1000)
// does not blow up: it is taken as 10, and the goals of a draw are bounded too
// (MaxNodes); every derivation drawn is checked by the search.
func TestGenerateLargeDepth(t *testing.T) {
	l := stlcLang(t)
	g, err := l.NewTypedGenerator(sem.GenOptions{MaxDepth: 1000})
	if err != nil {
		t.Fatal(err)
	}
	j := l.Typing.Judgment
	empty, _ := l.ReadTermOf([]byte("·"), j.Params[0].Sort, false)
	r := rand.New(rand.NewPCG(13, 14))
	built, most := 0, 0
	for range 30 {
		d, _, err := g.Generate([]*sem.Term{empty, nil, nil}, r)
		if errors.Is(err, sem.ErrNoDerivation) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		built++
		checkDerivation(t, l, d)
		n, stack := 0, []*sem.Derivation{d}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			stack = append(stack, x.Premises...)
		}
		most = max(most, n)
	}
	t.Logf("%d derivations of 30 draws, the largest %d nodes", built, most)
	if built == 0 {
		t.Error("no derivation at depth bound 1000")
	}
}
