package sem

import (
	"strings"
	"testing"
)

// skeletonSem's right-hand sides nest constructors: two nodes (two), three (three),
// six (five: past one allocation, built a node at a time), and a skeleton of three
// whose children fail (fails: g's call comes first depth first, left to right, and is
// the failure reported, not f's).
const skeletonSem = `(language sk)
(sort e (variable x) (integer n)
  (con lam x e (bind 0 1))
  (con hd)
  (con tl)
  (con pair e e)
  (con app e e))
(kind E v)
(value E n)
(value E (hd))
(value E (tl))
(value E (lam x e))
(value E (pair v_1 v_2))
(frame E (app (hole) e))
(frame E (app v (hole)))
(function f (e) e ((f (hd)) (hd)))
(function g (e) e ((g (hd)) (hd)))
(rule two E (app (hd) n) (pair (hd) n))
(rule three E (app (lam x e) n) (pair (pair n (hd)) n))
(rule five E (app n_1 n_2) (pair (pair (hd) (tl)) (pair n_2 (pair n_1 (tl)))))
(rule fails E (app (tl) (tl)) (pair (pair (hd) (g 1)) (f 2)))
(stuck E (app v_1 v_2) "no rule")
(stuck E (pair e_1 e_2) "not a value")
`

// TestSkeleton: each contractum is the right-hand side with its metavariables
// replaced by hand, under both disciplines, and a constant built at one position again
// is the same node (nullaryNode), at another position a new one.
func TestSkeleton(t *testing.T) {
	l, err := Load([]byte(skeletonSem))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := l.Kind("E")
	for _, r := range l.Rules {
		_, ok := planSkeleton(r.RHS)
		if want := r.Name != "five"; ok != want {
			t.Errorf("rule %s: one allocation %v, want %v", r.Name, ok, want)
		}
	}
	for _, d := range []Discipline{Substitution, Environments} {
		e := NewEngine(l, d)
		contract := func(src string) (*Term, error) {
			term, err := l.ReadTerm([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if d == Environments {
				term = Leaf(term, nil)
			}
			c, err := e.Contract(term, k, nil, nil)
			if err != nil {
				return nil, err
			}
			return e.ReadBack(c.Term), nil
		}
		for _, tc := range []struct{ redex, want string }{
			{"(app (hd) 7)", "(pair (hd) 7)"},
			{"(app (lam y y) 7)", "(pair (pair 7 (hd)) 7)"},
			{"(app 1 2)", "(pair (pair (hd) (tl)) (pair 2 (pair 1 (tl))))"},
		} {
			got, err := contract(tc.redex)
			if err != nil {
				t.Errorf("%v: %s: %v", d, tc.redex, err)
				continue
			}
			if Format(got) != tc.want {
				t.Errorf("%v: %s -> %s, want %s", d, tc.redex, Format(got), tc.want)
			}
		}
		if _, err := contract("(app (tl) (tl))"); err == nil || !strings.Contains(err.Error(), "no clause for (g 1)") {
			t.Errorf("%v: fails: %v, want g's failure, the first call built", d, err)
		}
	}
	// A skeleton of metavariables (two's) contracted twice from the same bindings at
	// the same position is one node; from other bindings (a 7 read again), another.
	e := NewEngine(l, Substitution)
	redex, _ := l.ReadTerm([]byte("(app (hd) 7)"))
	again, _ := l.ReadTerm([]byte("(app (hd) 7)"))
	first, err1 := e.Contract(redex, k, nil, nil)
	second, err2 := e.Contract(redex, k, nil, nil)
	third, err3 := e.Contract(again, k, nil, nil)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	if first.Term != second.Term || first.Term == third.Term || Format(third.Term) != "(pair (hd) 7)" {
		t.Errorf("two's skeleton: %p, %p from the same bindings (want one node), %p from others (want another)", first.Term, second.Term, third.Term)
	}
	if plan, _ := planSkeleton(l.Rules[3].RHS); l.Rules[3].Name != "fails" || plan.slots != nil {
		t.Errorf("fails's skeleton (slots %v): want none kept, its children are calls", plan.slots)
	}
	hd, _ := l.Con("hd")
	at, other := Pos{Line: 1, Col: 1}, Pos{Line: 2, Col: 1}
	if a, b := e.nullaryNode(hd, at), e.nullaryNode(hd, at); a != b || a.P != at {
		t.Errorf("(hd) twice at %v: %p and %p, want one node at %v", at, a, b, at)
	}
	if a, b := e.nullaryNode(hd, at), e.nullaryNode(hd, other); a == b || b.P != other {
		t.Errorf("(hd) at %v and %v: one node, want two", at, other)
	}
	tl, _ := l.Con("tl")
	if a, b := e.nullaryNode(hd, at), e.nullaryNode(tl, at); a == b || b.Con != tl {
		t.Errorf("(hd) and (tl) at %v: %s and %s, want two constructors", at, Format(a), Format(b))
	}
}

// TestIntLeafKept: an integer a run builds again with the same value at the same
// position is the one it built (intLeaf); another value, or another position, is
// another term, with that value and position.
func TestIntLeafKept(t *testing.T) {
	l, err := Load([]byte(skeletonSem))
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(l, Environments)
	at, other := Pos{Line: 3, Col: 7}, Pos{Line: 4, Col: 7}
	a, b := e.intLeaf(at, 13), e.intLeaf(at, 13)
	if a != b || a.Op != TermInt || a.N != 13 || a.P != at {
		t.Errorf("13 twice at %v: %p %s and %p, want one integer 13 there", at, a, Format(a), b)
	}
	if c := e.intLeaf(at, 14); c == a || c.N != 14 || c.P != at {
		t.Errorf("14 at %v: %s at %v, want a new 14 there", at, Format(c), c.P)
	}
	if d := e.intLeaf(other, 13); d == a || d.N != 13 || d.P != other {
		t.Errorf("13 at %v: %s at %v, want a new 13 there", other, Format(d), d.P)
	}
}
