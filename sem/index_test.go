package sem

import (
	"slices"
	"testing"
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
