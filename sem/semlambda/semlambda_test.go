package semlambda_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

// load reads a rule file of testdata/rules.
func load(t *testing.T, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestTerm: one program with every construct, translated by hand into the typed
// cbv.sem (the annotations where lambda writes them: (lam x S e), (letrec f T x S e b),
// Int and (S -> T) as cbv.sem's shapes print them) and into the untyped cbn.sem (the
// annotations erased).
func TestTerm(t *testing.T) {
	const src = `letrec f:Int -> Int = \n:Int. if0 n then 1 else n * f (n - 1) in
let g = \h:(Int -> Int) -> Int. h f + 2 in g (\k:Int -> Int. k 3)`
	p, err := lambda.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, want string
		typed      bool
	}{
		{"cbv.sem", "(letrec f (Int -> Int) n Int (if0 n 1 (mul n (app f (sub n 1)))) " +
			"(let g (lam h ((Int -> Int) -> Int) (add (app h f) 2)) (app g (lam k (Int -> Int) (app k 3)))))", true},
		{"cbn.sem", "(letrec f n (if0 n 1 (mul n (app f (sub n 1)))) " +
			"(let g (lam h (add (app h f) 2)) (app g (lam k (app k 3)))))", false},
	} {
		tr, err := semlambda.New(load(t, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		e, err := tr.Term(p)
		if err != nil || sem.Format(e) != tc.want || tr.Typed() != tc.typed {
			t.Errorf("%s: %s (%v), typed %v; want %s, typed %v", tc.file, sem.Format(e), err, tr.Typed(), tc.want, tc.typed)
		}
	}
}

// TestNew: a language without the translation's constructors, in either form, is
// refused by name.
func TestNew(t *testing.T) {
	_, err := semlambda.New(load(t, "stlc.sem"))
	if err == nil || !strings.Contains(err.Error(), "has no constructor") {
		t.Errorf("stlc.sem: got %v, want a missing constructor", err)
	}
}
