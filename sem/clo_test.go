package sem_test

import (
	"strconv"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestEnvSubst: substitution under environments, each case derived by hand from the
// rules of substClosure (clo.go): a closure's environment is extended where it
// shadows x, unchanged where it gives x already, and a name renames.
func TestEnvSubst(t *testing.T) {
	l := load(t, "cbn.sem")
	e := sem.NewEngine(l, sem.Environments)
	one := sem.Leaf(read(t, l, "1"), nil)
	// The body of (lam x (lam y (add x y))): x and y are shadowed, so x := 1 binds x.
	lam := read(t, l, "(lam x (lam y (add x y)))")
	body := sem.View(sem.View(sem.Leaf(lam, nil)).Args[1]).Args[1] // (add x y) under x, y shadowed
	if got := e.ReadBack(e.Subst(body, "x", one)); sem.Format(got) != "(add 1 y)" {
		t.Errorf("got %s, want (add 1 y)", got)
	}
	// Where the environment gives x already, x := 1 changes nothing.
	given := sem.Leaf(read(t, l, "(lam x x)").Args[1], (*sem.Env)(nil).Bind("x", sem.Leaf(read(t, l, "5"), nil)))
	if got := e.ReadBack(e.Subst(given, "x", one)); sem.Format(got) != "5" {
		t.Errorf("got %s, want 5", got)
	}
	// A name renames: x := x' in the shadowed body gives (add x' y).
	renamed := e.Subst(body, "x", sem.Var(sem.Pos{}, "x'"))
	if got := e.ReadBack(renamed); sem.Format(got) != "(add x' y)" {
		t.Errorf("got %s, want (add x' y)", got)
	}
	// Under substitution the same engine calls are the substitution's: (add x y)[x := 1].
	s := sem.NewEngine(l, sem.Substitution)
	plain := read(t, l, "(lam x (lam y (add x y)))").Args[1].Args[1]
	if got := s.ReadBack(s.Subst(plain, "x", read(t, l, "1"))); sem.Format(got) != "(add 1 y)" {
		t.Errorf("substitution: got %s, want (add 1 y)", got)
	}
}

// TestViewAndResolve: a variable closure is looked up through its environment to the
// closure bound there; one bound by a binder around (not substituted yet) stays; a
// closure of a constructor expands into a node whose children are closures of its
// arguments, the binders' names shadowed (and a name in the binder's position). Under
// substitution a term is its own look-up and expansion.
func TestViewAndResolve(t *testing.T) {
	l := load(t, "cbn.sem")
	five := sem.Leaf(read(t, l, "5"), nil)
	x := read(t, l, "(lam x x)").Args[1] // the occurrence x
	bound := sem.Leaf(x, (*sem.Env)(nil).Bind("x", five))
	if got := sem.Resolve(bound); got != five {
		t.Errorf("Resolve of x[x ↦ 5]: %v, want the literal 5, its own closure", got)
	}
	shadowed := sem.Leaf(x, (*sem.Env)(nil).Bind("x", nil))
	if got := sem.Resolve(shadowed); got != shadowed {
		t.Errorf("Resolve of x[x ↦ ·]: %v, want itself", got)
	}
	lam := read(t, l, "(lam x x)")
	n := sem.View(sem.Leaf(lam, nil))
	if n.Op != sem.TermCon || n.Con != lam.Con || !sem.IsName(n.Args[0]) || n.Args[0].Name != "x" {
		t.Fatalf("View of (lam x x)[ε]: %v", n)
	}
	if body := n.Args[1]; body.Op != sem.TermClo || body.Env.Name() != "x" || body.Env.Value() != nil || body.Env.Next() != nil {
		t.Errorf("the body of the expansion: want x[(x ↦ ·) : ε]")
	}
	if sem.View(lam) != lam || sem.Resolve(lam) != lam {
		t.Errorf("a plain term is its own view and look-up")
	}
}

// TestEnvSubstReplacesShadowed: x := v where the environment shadows x behind other
// entries replaces x's entry and copies the entries in front of it, whatever their
// number (one allocation up to three entries, newCloEnv; more past that), and leaves
// the closure substituted into alone (environments are persistent). The body of
// (lam x (lam y (lam z (lam w (add x (add y (add z w))))))) is closed by
// (w ↦ ·) : (z ↦ ·) : (y ↦ ·) : (x ↦ ·), innermost first; each expectation below is
// the body with the substituted names replaced by hand.
func TestEnvSubstReplacesShadowed(t *testing.T) {
	l := load(t, "cbn.sem")
	e := sem.NewEngine(l, sem.Environments)
	n := func(s string) *sem.Term { return sem.Leaf(read(t, l, s), nil) }
	body := sem.Leaf(read(t, l, "(lam x (lam y (lam z (lam w (add x (add y (add z w)))))))"), nil)
	for range 4 {
		body = sem.View(body).Args[1]
	}
	for _, c := range []struct {
		x, v, want string
	}{
		{"w", "4", "(add x (add y (add z 4)))"}, // in front: nothing copied
		{"z", "3", "(add x (add y (add 3 w)))"}, // one entry copied
		{"y", "2", "(add x (add 2 (add z w)))"}, // two
		{"x", "1", "(add 1 (add y (add z w)))"}, // three: past one allocation
	} {
		if got := sem.Format(e.ReadBack(e.Subst(body, c.x, n(c.v)))); got != c.want {
			t.Errorf("%s := %s: got %s, want %s", c.x, c.v, got, c.want)
		}
	}
	// One after another, each on the last's result: the copied entries keep what the
	// earlier substitutions bound.
	all := body
	for i, x := range []string{"w", "z", "y", "x"} {
		all = e.Subst(all, x, n(strconv.Itoa(4-i)))
	}
	if got := sem.Format(e.ReadBack(all)); got != "(add 1 (add 2 (add 3 4)))" {
		t.Errorf("all four: got %s, want (add 1 (add 2 (add 3 4)))", got)
	}
	if got := sem.Format(e.ReadBack(body)); got != "(add x (add y (add z w)))" {
		t.Errorf("the body substituted into: got %s, want it unchanged", got)
	}
}

// TestGroundIsItsOwnClosure: under environments a term of a ground sort (cbv.sem's
// types: no variable occurs in them) is never put under an environment: Leaf gives it
// back, an expansion keeps it as its child, substitution and read-back leave it as it
// is, the very node of the program each time.
func TestGroundIsItsOwnClosure(t *testing.T) {
	l := load(t, "cbv.sem")
	e := sem.NewEngine(l, sem.Environments)
	prog := read(t, l, "(app (lam x (Int -> Int) x) (lam y Int y))")
	ty := prog.Args[0].Args[1] // (Int -> Int)
	env := (*sem.Env)(nil).Bind("x", sem.Leaf(read(t, l, "1"), nil))
	if got := sem.Leaf(ty, env); got != ty {
		t.Errorf("Leaf of a type: %s, want the type itself", sem.Format(got))
	}
	lam := sem.View(sem.View(e.Start(prog)).Args[0])
	if got := lam.Args[1]; got != ty {
		t.Errorf("the expanded function's type: %s (op %v), want the program's type itself", sem.Format(got), got.Op)
	}
	if got := lam.Args[2]; got.Op != sem.TermClo {
		t.Errorf("the expanded function's body: op %v, want a closure", got.Op)
	}
	if got := e.Subst(ty, "x", sem.Leaf(read(t, l, "1"), nil)); got != ty {
		t.Errorf("a type substituted into: %s, want the type itself", sem.Format(got))
	}
	if got := e.ReadBack(ty); got != ty {
		t.Errorf("a type read back: %s, want the type itself", sem.Format(got))
	}
}

// TestExpandLooksUpChildren: an expansion of t[ρ] (by hand, from expand's rules) keeps
// a literal child as it is, gives a variable child that ρ binds its closure at once,
// and closes the other children by ρ: a variable ρ marks as bound by a binder around,
// and a constructor term, are closures of their own.
func TestExpandLooksUpChildren(t *testing.T) {
	l := load(t, "cbn.sem")
	two := sem.Leaf(read(t, l, "(lam z z)"), nil)
	prog, err := l.ReadTermOf([]byte("(add x (add y 1))"), two.Body.Con.Sort, true)
	if err != nil {
		t.Fatal(err)
	}
	env := (*sem.Env)(nil).Bind("y", nil).Bind("x", two) // x ↦ (lam z z)[ε], y marked
	n := sem.View(sem.Leaf(prog, env))
	if got := n.Args[0]; got != two {
		t.Errorf("x looked up: %s (op %v), want the closure x is bound to", sem.Format(got), got.Op)
	}
	inner := n.Args[1]
	if inner.Op != sem.TermClo || inner.Body != prog.Args[1] || inner.Env != env {
		t.Fatalf("(add y 1): op %v, want its closure under ρ", inner.Op)
	}
	m := sem.View(inner)
	if got := m.Args[0]; got.Op != sem.TermClo || got.Body.Name != "y" {
		t.Errorf("y, marked: op %v, want the closure y[ρ]", got.Op)
	}
	if got := m.Args[1]; got != prog.Args[1].Args[1] {
		t.Errorf("1: %s (op %v), want the program's literal itself", sem.Format(got), got.Op)
	}
	// Under a binder of its own node a variable is not looked up: the binder may
	// shadow it ((lam x x) under x ↦ ...: the body is x[(x ↦ ·) : ρ]).
	lam := sem.View(sem.Leaf(read(t, l, "(lam x x)"), env))
	if body := lam.Args[1]; body.Op != sem.TermClo || body.Env.Name() != "x" || body.Env.Value() != nil {
		t.Errorf("the body of (lam x x) under x ↦ ...: op %v, want x under its binder's mark", body.Op)
	}
}

// TestExpandWideNode: a constructor of six arguments, its binder the fifth, expands as
// a narrow one does (by hand): the binder's name stays a name, the literal stays
// itself, a variable the environment binds is its closure, and the child in the
// binder's scope is a closure under the binder's mark.
func TestExpandWideNode(t *testing.T) {
	l, err := sem.Load([]byte(`(language wide)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con six t t t t x t (bind 4 5)))
(kind E v)
(value E n)
(value E (lam x t))
(stuck E (six t_1 t_2 t_3 t_4 x t_5) "six")
`))
	if err != nil {
		t.Fatal(err)
	}
	fn := sem.Leaf(read(t, l, "(lam z z)"), nil)
	prog, err := l.ReadTermOf([]byte("(six 1 2 3 a y y)"), fn.Body.Con.Sort, true)
	if err != nil {
		t.Fatal(err)
	}
	n := sem.View(sem.Leaf(prog, (*sem.Env)(nil).Bind("a", fn)))
	if got := n.Args[3]; got != fn {
		t.Errorf("a: %s (op %v), want the closure a is bound to", sem.Format(got), got.Op)
	}
	if got := n.Args[4]; !sem.IsName(got) || got.Name != "y" {
		t.Errorf("the binder: %s (op %v), want the name y", sem.Format(got), got.Op)
	}
	if got := n.Args[0]; got != prog.Args[0] {
		t.Errorf("1: op %v, want the program's literal itself", got.Op)
	}
	if got := n.Args[5]; got.Op != sem.TermClo || got.Env.Name() != "y" || got.Env.Value() != nil {
		t.Errorf("the body: op %v, want y under its binder's mark", got.Op)
	}
}
