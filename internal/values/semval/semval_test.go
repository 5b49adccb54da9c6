package semval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive/sem"
)

func loadRuleFile(t *testing.T, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestEnvSubst: substitution over closures, each case derived by hand from the rules
// of subst (semval.go): a leaf's environment is extended where it shadows x.
func TestEnvSubst(t *testing.T) {
	l := loadRuleFile(t, "cbv.sem")
	em := NewMeta(l)
	m := &em
	read := func(src string) *sem.Term {
		e, err := l.ReadTerm([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	one := Leaf(read("1"), nil)
	// The body of (lam x (add x y)) under (y ↦ 2): x is shadowed, so x := 1 binds it.
	lam := read("(lam x (lam y (add x y)))")
	body := View(View(Leaf(lam, nil)).Args[1]).Args[1] // (add x y) under x, y shadowed
	got := m.ReadBack(Subst(body, "x", one))
	if sem.Format(got) != "(add 1 y)" {
		t.Errorf("got %s, want (add 1 y)", got)
	}
	// Where the environment gives x already, x := 1 changes nothing.
	given := Leaf(read("(lam x x)").Args[1], (*Env)(nil).Bind("x", Leaf(read("5"), nil)))
	if got := m.ReadBack(Subst(given, "x", one)); sem.Format(got) != "5" {
		t.Errorf("got %s, want 5", got)
	}
	// A name renames: x := x' in the shadowed body gives (add x' y).
	renamed := Subst(body, "x", Leaf(sem.Var(sem.Pos{}, "x'"), nil))
	if got := m.ReadBack(renamed); sem.Format(got) != "(add x' y)" {
		t.Errorf("got %s, want (add x' y)", got)
	}
}
