package sem

import (
	"slices"
	"testing"

	"github.com/interderive/interderive"
)

// indexSem's rules all have the root app, and differ by the constructor of app's
// first argument: the index refines app's list by it (refine). By hand, from the
// declaration order below: rules beta 0, hd 1, plus 2, any 3 (a metavariable first
// argument: in every list); values (lam x e) 0, (hd) 1, (plus) 2, n 3, (app (plus) v)
// 4, whose app list is [4], too short to refine.
const indexSem = `(language ix)
(sort e (variable x) (integer n)
  (con lam x e (bind 0 1))
  (con hd)
  (con plus)
  (con app e e))
(kind E v)
(value E (lam x e))
(value E (hd))
(value E (plus))
(value E n)
(value E (app (plus) v))
(frame E (app (hole) e))
(frame E (app v (hole)))
(rule beta E (app (lam x e) v) (subst e x v))
(rule hd E (app (hd) n) n)
(rule plus E (app (app (plus) n_1) n_2) (prim add n_1 n_2))
(rule any E (app n v) n)
(stuck E (app e_1 e_2) "no rule")
(stuck E x "a free variable")
`

func TestIndexRefinedByArgument(t *testing.T) {
	l, err := Load([]byte(indexSem))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := l.Kind("E")
	for _, tc := range []struct {
		term string
		want []int
	}{
		{"(app (lam y y) 1)", []int{0, 3}},      // beta, and any's metavariable
		{"(app (hd) 1)", []int{1, 3}},           // hd
		{"(app (app (plus) 1) 2)", []int{2, 3}}, // plus: the argument's root is app
		{"(app 1 2)", []int{3}},                 // an integer argument: the leaf list
		{"(app (app (hd) 1) 2)", []int{2, 3}},   // app's list, whatever app holds
	} {
		term, err := l.ReadTerm([]byte(tc.term))
		if err != nil {
			t.Fatal(err)
		}
		if got := k.rules.candidates(term); !slices.Equal(got, tc.want) {
			t.Errorf("rules for %s: %v, want %v", tc.term, got, tc.want)
		}
		// Under environments, a closure of the term has the same candidates.
		if got := k.rules.candidates(Leaf(term, nil)); !slices.Equal(got, tc.want) {
			t.Errorf("rules for %s under environments: %v, want %v", tc.term, got, tc.want)
		}
	}
	// A variable argument under a closure is its environment's: the whole list.
	x, _ := l.ReadTerm([]byte("(lam y (app y 1))"))
	body := x.Args[1]
	if got := k.rules.candidates(Leaf(body, (*Env)(nil).Bind("y", nil))); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Errorf("rules for (app y 1) under an environment: %v, want all of app's", got)
	}
	if k.values.byArg[mustCon(t, l, "app").Index] != nil {
		t.Errorf("values: app's list of one refined")
	}
}

func mustCon(t *testing.T, l *Language, name string) *Con {
	t.Helper()
	c, ok := l.Con(name)
	if !ok {
		t.Fatalf("no constructor %s", name)
	}
	return c
}

// clauseSem's function size has five clauses, told apart by their second argument
// (the first is a metavariable in all of them): by hand, in declaration order, leaf 0
// (a name: x), lam 1, app 2, one 3 (the integer 1), any 4 (a term metavariable: in
// every list). swap's two clauses are too few to index; pick's three have no argument
// that fixes a root in two of them.
const clauseSem = `(language cl)
(sort e (variable x) (integer n)
  (con lam x e (bind 0 1))
  (con app e e))
(kind E v)
(value E (lam x e))
(value E n)
(frame E (app (hole) e))
(frame E (app v (hole)))
(rule beta E (app (lam x e) v) (subst e x v))
(stuck E (app e_1 e_2) "no rule")
(stuck E x "a free variable")
(function size (e e) n
  ((size e_0 x) 1)
  ((size e_0 (lam x e)) (prim add 1 (size e_0 e)))
  ((size e_0 (app e_1 e_2)) (prim add (size e_0 e_1) (size e_0 e_2)))
  ((size e_0 1) 7)
  ((size e_0 e) 0))
(function swap (e e) e
  ((swap (lam x e_1) e_2) e_2)
  ((swap e_1 e_2) e_1))
(function pick (e e) e
  ((pick (lam x e_1) e_2) e_2)
  ((pick e_1 (lam x e_2)) e_1)
  ((pick e_1 e_2) e_1))
`

// TestClauseIndex: a function's clauses are indexed by the argument that tells the
// most of them apart (indexClauses), each list in declaration order, and a call tries
// those only: the lists below are derived by hand from clauseSem's comment, and the
// calls' results from its clauses ((size (lam y (app y 1))) = 1 + (1 + 7) = 9).
func TestClauseIndex(t *testing.T) {
	l, err := Load([]byte(clauseSem))
	if err != nil {
		t.Fatal(err)
	}
	fn := func(name string) *Function {
		for _, f := range l.Functions {
			if f.Name == name {
				return f
			}
		}
		t.Fatalf("no function %s", name)
		return nil
	}
	size := fn("size")
	if size.by != 1 {
		t.Errorf("size indexed by argument %d, want 1", size.by)
	}
	zero, _ := l.ReadTerm([]byte("0"))
	// A term read from src, or its subterm at the path (programs are closed: a name
	// is a λ's body).
	read := func(src string, path ...int) *Term {
		term, err := l.ReadTerm([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return At(term, path)
	}
	for _, tc := range []struct {
		name string
		term *Term
		want []int
	}{
		{"y", read("(lam y y)", 1), []int{0, 4}},
		{"(lam y y)", read("(lam y y)"), []int{1, 4}},
		{"(app y y)", read("(lam y (app y y))", 1), []int{2, 4}},
		{"1", read("1"), []int{3, 4}},
		{"2", read("2"), []int{3, 4}}, // an integer: the integers' list, whichever integer
	} {
		if got := size.candidates([]*Term{zero, tc.term}); !slices.Equal(got, tc.want) {
			t.Errorf("size's clauses for %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, name := range []string{"swap", "pick"} {
		if f := fn(name); f.by != -1 || !slices.Equal(f.candidates([]*Term{zero, zero}), []int{0, 1, 2}[:len(f.Clauses)]) {
			t.Errorf("%s indexed by argument %d (%v), want none", name, f.by, f.candidates([]*Term{zero, zero}))
		}
	}
	for _, tc := range []struct {
		name string
		term *Term
		want string
	}{
		{"(lam y (app y 1))", read("(lam y (app y 1))"), "9"},
		{"2", read("2"), "0"}, // the integers' list is [3 4]: 1 does not match 2, the last clause does
		{"y", read("(lam y y)", 1), "1"},
	} {
		got, err := l.Call(size, []*Term{zero, tc.term}, Pos{})
		if err != nil || Format(got) != tc.want {
			t.Errorf("(size 0 %s) = %v, %v; want %s", tc.name, got, err, tc.want)
		}
	}
}

// TestReleaseForgetsCalls: a released engine keeps its memo's map for the next run,
// cleared: the next run finds none of the calls of the run before (it holds no term
// of it), and computes them again, to the same results.
func TestReleaseForgetsCalls(t *testing.T) {
	l, err := Load([]byte(clauseSem))
	if err != nil {
		t.Fatal(err)
	}
	size := l.Functions[0]
	zero, _ := l.ReadTerm([]byte("0"))
	term, _ := l.ReadTerm([]byte("(lam y (app y 1))"))
	for run := range 2 {
		e := NewRun(l, Substitution, interderive.Options{})
		if len(e.memo) != 0 {
			t.Fatalf("run %d starts with %d calls remembered", run, len(e.memo))
		}
		got, err := e.call(size, []*Term{zero, term}, Pos{}, 0)
		if err != nil || Format(got) != "9" {
			t.Fatalf("run %d: (size 0 (lam y (app y 1))) = %v, %v; want 9", run, got, err)
		}
		if len(e.memo) == 0 {
			t.Fatalf("run %d remembered no call", run)
		}
		e.Release()
	}
}
