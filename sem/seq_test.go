package sem_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// seqs is a language for the matching of sequences: each function's clauses are one
// of Redex's matching rules, and the expected results below are derived by hand from
// them (docs/rules.md, "Sequences").
const seqs = `(language seqs)
(sort e (variable x) (integer n) (con lam x e (bind 0 1)) (con list e ...) (con pair e e))
(kind E v)
(value E n)
(value E (lam x e))
(value E (list (v ...)))
(value E (pair v_1 v_2))
; the first element that is not a value, and the values before it
(function first (e ...) e ((first (v ... e_1 e ...)) (pair (list (v ...)) e_1)))
; the first element not an integer: (n ... e_1 e ...) with the shortest n ...
(function split (e ...) e ((split (n ... e_1 e_2 ...)) (pair (list (n ...)) (list (e_2 ...)))))
; the pairs' first and second components, as two sequences (a compound element repeated)
(function unzip (e ...) e ((unzip ((pair e_1 e_2) ...)) (pair (list (e_1 ...)) (list (e_2 ...)))))
; two sequences zipped (a template repeated over two sequences of one length)
(function zip (e ... e ...) (e ...) ((zip (e_1 ...) (e_2 ...)) ((pair e_1 e_2) ...)))
; the second component of the first pair whose first is n (non-linear: n is compared in the sequence)
(function lookup (e ... n) e ((lookup ((pair e_1 e_2) ... (pair n e) e_3 ...) n) e) ((lookup (e_1 ...) n) 0))
; the empty sequence
(function empty (e ...) n ((empty ()) 1) ((empty (e_1 e ...)) 0))
; named ellipses: two sequences of one length, and a sequence in two halves
(function same (e ... e ...) n ((same (e_1 ..._a) (e_2 ..._a)) 1) ((same (e_1 ...) (e_2 ...)) 0))
(function halves (e ...) n ((halves (e_1 ..._h e_2 ..._h)) 1) ((halves (e ...)) 0))
`

func TestSequenceMatching(t *testing.T) {
	l, err := sem.Load([]byte(seqs))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn   string
		args []string // each a list of the sequence's elements, or an integer
		want string
	}{
		// (v ... e_1 e ...): the first e_1 after the shortest v ...; a value matches e_1
		// too, so e_1 is the first element.
		{"first", []string{"(1 2 3)"}, "(pair (list ()) 1)"},
		{"first", []string{"((lam x x))"}, "(pair (list ()) (lam x x))"},
		// (n ... e_1 e_2 ...): n ... is empty, e_1 the first, e_2 ... the rest.
		{"split", []string{"(1 2 3)"}, "(pair (list ()) (list (2 3)))"},
		{"unzip", []string{"((pair 1 2) (pair 3 4) (pair 5 6))"}, "(pair (list (1 3 5)) (list (2 4 6)))"},
		{"unzip", []string{"()"}, "(pair (list ()) (list ()))"},
		{"zip", []string{"(1 2)", "(3 4)"}, "((pair 1 3) (pair 2 4))"},
		// The search passes (pair 1 10), whose first differs from 2, and stops at the
		// first pair numbered 2.
		{"lookup", []string{"((pair 1 10) (pair 2 20) (pair 2 30))", "2"}, "20"},
		{"lookup", []string{"((pair 1 10))", "2"}, "0"},
		{"empty", []string{"()"}, "1"},
		{"empty", []string{"(7)"}, "0"},
		// ..._a: the two sequences are of one length; ..._h: the search tries each
		// split, and only 2 + 2 makes the halves of (1 2 3 4) equal; 3 elements split no
		// way.
		{"same", []string{"(1 2)", "(3 4)"}, "1"},
		{"same", []string{"(1)", "(3 4)"}, "0"},
		{"halves", []string{"(1 2 3 4)"}, "1"},
		{"halves", []string{"(1 2 3)"}, "0"},
		{"halves", []string{"()"}, "1"},
	}
	for _, tc := range tests {
		f, _ := l.Function(tc.fn)
		args := make([]*sem.Term, len(tc.args))
		for i, a := range tc.args {
			src := "(list " + a + ")"
			if !strings.HasPrefix(a, "(") {
				src = a
			}
			t0 := read(t, l, src)
			if strings.HasPrefix(a, "(") {
				t0 = t0.Args[0] // the sequence
			}
			args[i] = t0
		}
		got, err := l.Call(f, args, sem.Pos{})
		if err != nil {
			t.Errorf("%s %v: %v", tc.fn, tc.args, err)
			continue
		}
		if sem.Format(got) != tc.want {
			t.Errorf("%s %v = %s, want %s", tc.fn, tc.args, sem.Format(got), tc.want)
		}
	}
	// A template over two sequences of different lengths fails, saying so.
	f, _ := l.Function("zip")
	_, err = l.Call(f, []*sem.Term{read(t, l, "(list (1 2))").Args[0], read(t, l, "(list (3))").Args[0]}, sem.Pos{})
	if err == nil || !strings.Contains(err.Error(), "lengths 2 and 1") {
		t.Errorf("zip of lengths 2 and 1: %v, want an error naming the lengths", err)
	}
}

// TestSequenceTerms: a sequence reads and prints as a list of its elements.
func TestSequenceTerms(t *testing.T) {
	l, err := sem.Load([]byte(seqs))
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"(list ())", "(list (1 (list (2 3)) (lam x x)))", "(pair (list ()) (list (1)))"} {
		if got := sem.Format(read(t, l, src)); got != src {
			t.Errorf("%s prints as %s", src, got)
		}
	}
	if _, err := l.ReadTerm([]byte("(list 1)")); err == nil || !strings.Contains(err.Error(), "expected a sequence of e") {
		t.Errorf("(list 1): %v, want an error asking for a sequence", err)
	}
}

// TestSequenceErrors: what the rule language does not say, positioned.
func TestSequenceErrors(t *testing.T) {
	base := `(language s)
(sort e (variable x) (integer n) (con lam x e (bind 0 1)) (con list e ...) (con app e e ...))
(kind E v)
(value E n)
`
	tests := []struct{ name, src, want string }{
		{"binders unbound", "(language s) (sort e (variable x) (con lam x ... e)) (kind E v)", "1:35: argument 0 of lam is a variable that no (bind 0 ...) declares a binder"},
		{"leading ellipsis", "(language s) (sort e (integer n) (con list ... e)) (kind E v)", "1:44: an ellipsis follows the argument sort it repeats"},
		{"nested", base + "(function f (e ...) e ((f ((list (e ...)) ...)) 0))", "5:37: ellipses do not nest"},
		{"sequence at depth 0", base + "(function f (e ...) e ((f (e_1 ...)) e_1))", "5:38: metavariable e_1 stands for a sequence"},
		{"nothing to repeat", base + "(function f (e ...) (e ...) ((f (e_1 ...)) (0 ...)))", "5:45: 0, followed by an ellipsis, uses no metavariable bound under an ellipsis"},
		{"repeated hole", base + "(frame E (list ((hole) ...)))", "5:17: a hole is not repeated"},
		{"hole not between", base + "(frame E (list ((hole) e ...)))", "5:16: a frame's hole in a sequence is one element between"},
		{"ellipsis first in a pattern", base + "(function f (e ...) e ((f (... e)) 0))", "5:28: an ellipsis follows the element it repeats"},
		// The smallest closed term the sequence frame leaves stuck, by hand: a sum of a
		// one-element sequence of the smallest function.
		{"uncovered sequence", `(language u)
(sort e (integer n) (variable x) (con lam x e (bind 0 1)) (con sum e ...))
(kind E v) (value E n) (value E (lam x e))
(frame E (sum (v ... (hole) e ...)))
(function add (e ...) n ((add ()) 0) ((add (n_1 n ...)) (prim add n_1 (add (n ...)))))
(rule sum E (sum (n ...)) (add (n ...)))`, "a non-value does not decompose: (sum ((lam x 0))) is not a value of kind E"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sem.Load([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestSequenceFrames: a frame whose hole is in a sequence makes a kind of its own,
// whose values are the sequences of values and whose frames enter the first element
// not a value (nary.sem, as docs/rules.md describes it).
func TestSequenceFrames(t *testing.T) {
	l := load(t, "nary.sem")
	k, ok := l.Kind("E/app")
	if !ok {
		t.Fatal("no kind E/app")
	}
	if k.Seq == nil || len(k.Values) != 1 || len(k.Frames) != 2 {
		t.Fatalf("E/app: made by %v, %d values, %d frames; want a frame's, 1 and 2", k.Seq, len(k.Values), len(k.Frames))
	}
	want := []string{"(v ...)", "((hole E) . (e ...))", "(v . (hole E/app))"}
	got := []string{sem.FormatPattern(k.Values[0].Pat), sem.FormatPattern(k.Frames[0].Pat), sem.FormatPattern(k.Frames[1].Pat)}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("E/app's declaration %d: %s, want %s", i, got[i], want[i])
		}
	}
	if !strings.Contains(l.String(), "(frame E (app v_0 (v ... (hole E) e ...)))") {
		t.Errorf("the file prints its frame otherwise than written:\n%s", l.String())
	}
}

// TestSequenceBinders: a sequence of binders binds each of its names in the scope
// (polyadic.sem): substitution stops at any of them and renames the one that would
// capture; free variables and α-equivalence pair them in order. The expected terms
// are derived by hand.
func TestSequenceBinders(t *testing.T) {
	l := load(t, "polyadic.sem")
	open := func(src string) *sem.Term {
		t.Helper()
		e, err := l.ReadTermOf([]byte(src), l.Sorts[0], true)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return e
	}
	tests := []substCase{
		{"(lam (x y) x)", "x", "5", "(lam (x y) x)"},                  // x is bound: unchanged
		{"(lam (x y) z)", "z", "5", "(lam (x y) 5)"},                  // z is free
		{"(lam (x y) (add x z))", "z", "y", "(lam (x y') (add x y))"}, // y would capture: renamed
		{"(lam () z)", "z", "5", "(lam () 5)"},
	}
	checkSubst(t, open, tests)
	if fv := sem.FreeVars(open("(lam (x y) (add x (add y z)))")); len(fv) != 1 || !fv["z"] {
		t.Errorf("free variables %v, want z only", fv)
	}
	alpha := []struct {
		a, b string
		want bool
	}{
		{"(lam (x y) (add x y))", "(lam (a b) (add a b))", true},
		{"(lam (x y) (add x y))", "(lam (a b) (add b a))", false},
		{"(lam (x y) x)", "(lam (a) a)", false},
	}
	for _, tc := range alpha {
		if got := sem.AlphaEqual(open(tc.a), open(tc.b)); got != tc.want {
			t.Errorf("AlphaEqual(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if l.Discipline() != sem.Environments {
		t.Errorf("discipline %v (%s), want environments", l.Discipline(), l.WhySubstitution())
	}
}

// TestSequenceShapes: a shape writes a sequence inline, NAME ... in its list, as Redex
// writes (e e ...) and (λ (x ...) e); terms read and print so, and the file prints
// back to one that reads the same.
func TestSequenceShapes(t *testing.T) {
	src := `(language shaped)
(sort e (variable x) (integer n)
  (con lam x ... e (bind 0 1) (shape (λ (x ...) e)))
  (con plus e ... (shape (+ e ...)))
  (con app e e ... (shape (e e ...))))
(kind E v)
(value E n)
(value E (lam (x ...) e))
`
	l, err := sem.Parse([]byte(src)) // no rules: the static checks would ask for them
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"((λ (x y) (+ x y)) 1 2)", "(+)", "((λ () 1))", "(+ 1 (+ 2 3) 4)"} {
		if got := sem.Format(read(t, l, s)); got != s {
			t.Errorf("%s prints as %s", s, got)
		}
	}
	// (λ (x y) x) is lam of two binders, read by its shape: its body's x is bound.
	if tm := read(t, l, "(λ (x y) x)"); len(slices.Collect(sem.BinderNames(tm.Args[0]))) != 2 || len(sem.FreeVars(tm)) != 0 {
		t.Errorf("(λ (x y) x): binders %v, free %v", slices.Collect(sem.BinderNames(tm.Args[0])), sem.FreeVars(tm))
	}
	l2, err := sem.Parse([]byte(l.String()))
	if err != nil {
		t.Fatalf("the printed file does not read: %v\n%s", err, l.String())
	}
	if l2.String() != l.String() {
		t.Errorf("the printed file prints otherwise:\n%s\nthen\n%s", l.String(), l2.String())
	}
	for _, bad := range []struct{ decl, want string }{
		{"(con plus e ... (shape (+ e)))", "is a sequence: its shape writes it NAME ..."},
		{"(con two e e (shape (e ... e)))", "before the ellipsis, is not a sequence"},
	} {
		_, err := sem.Parse([]byte("(language b) (sort e (integer n) " + bad.decl + ") (kind E v) (value E n)"))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.decl, err, bad.want)
		}
	}
}

// TestSequenceItemBinders: a sequence of items that binds (testdata/rules/letrec.sem:
// let's (x e) items bind x in its body, letrec's in its body and in the items too).
// Each expectation is substitution's definition applied by hand: an item's term is
// outside let's binders and inside letrec's; a binder that would capture is renamed
// by priming, in its item and in its scope.
func TestSequenceItemBinders(t *testing.T) {
	l := load(t, "letrec.sem")
	var e *sem.Sort
	for _, so := range l.Sorts {
		if so.Name == "e" {
			e = so
		}
	}
	open := func(src string) *sem.Term {
		t.Helper()
		x, err := l.ReadTermOf([]byte(src), e, true)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return x
	}
	checkSubst(t, open, []substCase{
		{"(let ((x y)) x)", "y", "5", "(let ((x 5)) x)"},                  // y free in the item
		{"(let ((x 1)) x)", "x", "5", "(let ((x 1)) x)"},                  // x bound in the body
		{"(let ((x x)) x)", "x", "5", "(let ((x 5)) x)"},                  // the item's x is outside
		{"(letrec ((f f)) f)", "f", "5", "(letrec ((f f)) f)"},            // letrec's items are inside
		{"(letrec ((f g)) f)", "g", "5", "(letrec ((f 5)) f)"},            // g free
		{"(let ((x 1)) (z x))", "z", "x", "(let ((x' 1)) (x x'))"},        // x would capture: renamed
		{"(letrec ((f (g f))) f)", "g", "f", "(letrec ((f' (f f'))) f')"}, // in the items too
	})
	for _, tc := range []struct {
		term string
		free []string
	}{
		{"(let ((x x)) x)", []string{"x"}},
		{"(letrec ((f (g f))) f)", []string{"g"}},
		{"(let ((x 1) (y x)) (z y))", []string{"x", "z"}},
	} {
		fv := sem.FreeVars(open(tc.term))
		if len(fv) != len(tc.free) {
			t.Errorf("free variables of %s: %v, want %v", tc.term, fv, tc.free)
		}
		for _, x := range tc.free {
			if !fv[x] {
				t.Errorf("free variables of %s: %v, want %v", tc.term, fv, tc.free)
			}
		}
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"(let ((x 1) (y 2)) (x y))", "(let ((a 1) (b 2)) (a b))", true},
		{"(let ((x 1) (y 2)) (x y))", "(let ((a 1) (b 2)) (b a))", false},
		{"(letrec ((f (g f))) f)", "(letrec ((h (g h))) h)", true},
		{"(let ((x x)) x)", "(let ((y x)) y)", true},
		{"(let ((x x)) x)", "(let ((y y)) y)", false}, // the item's x is free: x is not y
	} {
		if got := sem.AlphaEqual(open(tc.a), open(tc.b)); got != tc.want {
			t.Errorf("AlphaEqual(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if l.Discipline() != sem.Substitution || !strings.Contains(l.WhySubstitution(), "sequence of items") {
		t.Errorf("discipline %v (%s), want substitution: environments do not bind items yet", l.Discipline(), l.WhySubstitution())
	}
	// An item's constructor has exactly one variable: the name the item binds.
	_, err := sem.Parse([]byte(`(language bad)
(sort e (variable x) (integer n) (con let b ... e (bind 0 1)))
(sort b (con two x x e))
(kind E v)
(value E n)`))
	if err == nil || !strings.Contains(err.Error(), "2:57: argument 0 of let is a sequence of b, whose constructors do not each have one variable argument") {
		t.Errorf("items of two variables: %v", err)
	}
}
