package gogen

import "testing"

// seqBindersSem binds by sequences: lam's parameters (x ...), and lets' items (bnd x
// e) ..., which bind in the body and in each other (bind 0 0 1). alias's contractum
// (subst e x_1 x_2) substitutes a variable, free once alias is gone, under them: a
// binder of that name captures it and is renamed (x primed).
const seqBindersSem = `(language seqbinders)
(sort e (variable x) (integer n)
  (con lam x ... e (bind 0 1))
  (con lets b ... e (bind 0 0 1))
  (con pair e e)
  (con alias x x e (bind 0 2) (bind 1 2))
  (con same e e))
(sort b (con bnd x e))
(kind E v)
(value E n)
(value E (lam (x ...) e))
(value E (lets (b ...) e))
(value E (pair e_1 e_2))
(rule alias E (alias x_1 x_2 e) (subst e x_1 x_2))
(rule same E (same e_1 e_2) 1 (where (= e_1 e_2)))
(rule same E (same e_1 e_2) 0 (where (!= e_1 e_2)))
`

// seqBindersProgs are programs of seqBindersSem with their answers, derived by hand:
// e[a := b] with b free; α-equivalence (=) under binders that are sequences.
var seqBindersProgs = []struct{ name, src, answer string }{
	// the only binder b captures: renamed b'.
	{"capture", "(alias a b (lam (b) a))", "(lam (b') b)"},
	// the second of two binders captures: it alone is renamed.
	{"capture-second", "(alias a b (lam (c b) (pair a c)))", "(lam (c b') (pair b c))"},
	// no binder is named b: a replaced.
	{"no-capture", "(alias a b (lam (c) a))", "(lam (c) b)"},
	// a bound by the sequence: the substitution stops.
	{"hidden", "(alias a b (lam (c a) a))", "(lam (c a) a)"},
	// an item's variable captures: renamed in the item, in the other items (its own
	// scope) and in the body; the item's term substituted.
	{"item-capture", "(alias a b (lets ((bnd c b) (bnd b a)) c))", "(lets ((bnd c b') (bnd b' b)) c)"},
	// an item binds a: hidden in the items and the body.
	{"item-hidden", "(alias a b (lets ((bnd a 1)) a))", "(lets ((bnd a 1)) a)"},
	// the binders renamed pairwise, in order: equal where each use is bound alike.
	{"alpha-equal", "(same (lam (x y) (pair x y)) (lam (a b) (pair a b)))", "1"},
	{"alpha-swapped", "(same (lam (x y) x) (lam (a b) b))", "0"},
	{"alpha-length", "(same (lam (x) x) (lam (a b) a))", "0"},
	{"alpha-items", "(same (lets ((bnd x 1) (bnd y x)) y) (lets ((bnd a 1) (bnd b a)) b))", "1"},
	{"alpha-items-differ", "(same (lets ((bnd x 1) (bnd y x)) y) (lets ((bnd a 1) (bnd b b)) b))", "0"},
}

// TestSequenceBinders: binders that are sequences, of variables and of items, on
// every generated stage: the answers derived by hand, and the in-process stages'
// outcomes, event for event (lockstep).
func TestSequenceBinders(t *testing.T) {
	l, path := writeRules(t, "seqbinders.sem", seqBindersSem)
	var progs []program
	for _, p := range seqBindersProgs {
		progs = append(progs, program{p.name, p.src})
	}
	bin := build(t, path)
	for _, stage := range Stages {
		got := runBatch(t, bin, stage, progs, testFuel, true)
		for i, p := range seqBindersProgs {
			if got[i].kind != "" || got[i].answer != p.answer {
				t.Errorf("%s on %s: %s %s %s, want the answer %s", p.name, stage, got[i].kind, got[i].answer, got[i].text, p.answer)
			}
			if want := runInProcess(l, stage, p.src, testFuel); want.answer != p.answer {
				t.Errorf("%s on the in-process %s: %s %s, want %s (the derivation by hand or the in-process stage is wrong)", p.name, stage, want.kind, want.answer, p.answer)
			}
		}
	}
	lockstep(t, l, path, progs)
}
