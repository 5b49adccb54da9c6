package semval

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/sem"
)

// TestPrinter: closures of cbn.sem (untyped: (lam x t)) printed as the stages over
// environments hold them, each case by hand. (lam x (lam y (add x y))) expanded twice: the inner body (add x y) is under
// (y ↦ ·) : (x ↦ ·) : ε, each environment named when first printed; x := 1 fills x's
// entry (a copy of the chain up to it, (y ↦ ·) : (x ↦ 1) : ε, its tail defined
// first, ρ3, since the head's definition, ρ4, refers to it; the literal 1 is its own
// closure, sem.Leaf). A name (a binder's variable)
// prints alone; an environment already named is not defined again; an item is cut at
// its budget. A plain term (the substitution discipline's) prints as sem.Format does.
func TestPrinter(t *testing.T) {
	l := rulescases.Load(t, "cbn.sem")
	lam, err := l.ReadTerm([]byte("(lam x (lam y (add x y)))"))
	if err != nil {
		t.Fatal(err)
	}
	one, err := l.ReadTerm([]byte("1"))
	if err != nil {
		t.Fatal(err)
	}
	outer := sem.View(sem.Leaf(lam, nil))
	inner := sem.View(outer.Args[1])
	body := inner.Args[1]
	e := sem.NewEngine(l, sem.Environments)
	p := NewPrinter(interderive.PrintBudget{})
	for _, tc := range []struct {
		c    *sem.Term
		want string
		defs []string
	}{
		{outer, "(lam x (lam y (add x y))[ρ1])", []string{"ρ1 = (x ↦ ·) : ε"}},
		{inner, "(lam y (add x y)[ρ2])", []string{"ρ2 = (y ↦ ·) : ρ1"}},
		{body, "(add x y)[ρ2]", nil},
		{e.Subst(body, "x", sem.Leaf(one, nil)), "(add x y)[ρ4]", []string{"ρ3 = (x ↦ 1) : ε", "ρ4 = (y ↦ ·) : ρ3"}},
		{sem.Leaf(lam, nil), "(lam x (lam y (add x y)))[ε]", nil},
	} {
		got, err := p.Closure(tc.c)
		if defs := p.Defs(); err != nil || got != tc.want || !slices.Equal(defs, tc.defs) {
			t.Errorf("got %q %q (%v), want %q %q", got, defs, err, tc.want, tc.defs)
		}
	}
	if got := p.Short(outer, 10); got != "(lam x (la…" {
		t.Errorf("Short: %q", got)
	}
	if got, err := p.Closure(lam); got != "(lam x (lam y (add x y)))" || err != nil {
		t.Errorf("a plain term: %q, %v", got, err)
	}
	cut := NewPrinter(interderive.PrintBudget{Max: 8})
	if got, err := cut.Closure(outer); got != "(lam x (" || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("cut at 8 bytes: %q, %v", got, err)
	}
}

// TestPrinterShapes: a node of closures of a constructor with a shape prints by its
// shape, as the program wrote it: ((λ (x num) x) 1) expanded is the node (app ...)
// of the function's closure under ε and the literal 1 (closed: its own closure),
// written (e e).
func TestPrinterShapes(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "rules", "stlc.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := l.ReadTerm([]byte("((λ (x num) x) 1)"))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPrinter(interderive.PrintBudget{})
	if got, err := p.Closure(sem.View(sem.Leaf(prog, nil))); got != "((λ (x num) x)[ε] 1)" || err != nil {
		t.Errorf("got %q, %v; want ((λ (x num) x)[ε] 1)", got, err)
	}
}
