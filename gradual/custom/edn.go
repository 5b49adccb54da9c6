package custom

import g "github.com/interderive/interderive/gradual"

// EDN ("eager domain, lazy codomain") is ED with function codomains checked lazily: a
// function coercion whose codomain fails, c̃ -> fail^l, is a normal form (no FailR), so
// a cast function whose results would all fail blames only when it is called, while a
// failing domain still fails the cast at once (FailL), as in ED. It is a worked
// example of a custom semantics (docs/semantics.md).
//
// Translation: the D translation of spec §3.1 with arr = mkArrN:
//
//	mkArrN(fail^l, d) = fail^l        mkArrN(c, d) = c -> d   otherwise
//
// Coercion reduction: ED's rules (spec §3.3) without FailR, InOut using this
// translation. Normal forms: ED's, plus c̃ -> fail^l wherever c̃ -> c̃ may stand.
// Composition seq: spec §3.4's clauses (eager: no clause 7) with arr = mkArrN.
type EDN struct{}

// Name is the name on the command line and in expectation comments.
func (EDN) Name() string { return "edn" }

func mkArrN(c, d g.Coercion) g.Coercion {
	if f, ok := c.(*g.Fail); ok {
		return f
	}
	return &g.Func{Dom: c, Cod: d}
}

// Translate is ⟨⟨T ⇐ S⟩⟩^l of the D strategy, with mkArrN.
func (EDN) Translate(t, src g.Type, l g.Label) g.Coercion { return g.TranslateD(t, src, l, mkArrN) }

// Contract is ED's rules but FailR: IdL, IdR, FailCo, InOut, InFail, Arr, FailL.
func (s EDN) Contract(c g.Coercion) (g.Coercion, string, bool) {
	switch c := c.(type) {
	case *g.Func:
		if f, ok := c.Dom.(*g.Fail); ok {
			return f, g.RuleFailL, true
		}
	case *g.Seq:
		first, rest := c.Fst, c.Snd
		second, tail := rest, g.Coercion(nil)
		if r, ok := rest.(*g.Seq); ok {
			second, tail = r.Fst, r.Snd
		}
		withTail := func(d g.Coercion) g.Coercion {
			if tail == nil {
				return d
			}
			return g.Then(d, tail)
		}
		switch a := first.(type) {
		case g.IdC:
			return rest, g.RuleIdL, true
		case *g.Fail:
			if _, id := second.(g.IdC); !id {
				return a, g.RuleFailCo, true
			}
		}
		if _, ok := second.(g.IdC); ok {
			return withTail(first), g.RuleIdR, true
		}
		switch a := first.(type) {
		case *g.Inj:
			switch b := second.(type) {
			case *g.Proj:
				return withTail(s.Translate(b.T, a.T, b.L)), g.RuleInOut, true
			case *g.Fail:
				return withTail(b), g.RuleInFail, true
			}
		case *g.Func:
			if b, ok := second.(*g.Func); ok {
				return withTail(&g.Func{Dom: g.Then(b.Dom, a.Dom), Cod: g.Then(a.Cod, b.Cod)}), g.RuleArr, true
			}
		}
	}
	return nil, "", false
}

// Seq composes normal forms: spec §3.4's clauses without the lazy clause 7, with
// arr = mkArrN.
func (s EDN) Seq(c1, c2 g.Coercion) g.Coercion {
	if _, ok := c1.(g.IdC); ok {
		return c2
	}
	if _, ok := c2.(g.IdC); ok {
		return c1
	}
	if a, ok := c1.(*g.Inj); ok {
		if b, ok := c2.(*g.Proj); ok {
			return s.Translate(b.T, a.T, b.L)
		}
	}
	if a, ok := c1.(*g.Func); ok {
		if b, ok := c2.(*g.Func); ok {
			return mkArrN(s.Seq(b.Dom, a.Dom), s.Seq(a.Cod, b.Cod))
		}
	}
	if f, ok := c1.(*g.Fail); ok {
		return f
	}
	if f, ok := c2.(*g.Fail); ok {
		if _, ok := c1.(*g.Inj); ok {
			return f
		}
	}
	if a, ok := c1.(*g.Seq); ok {
		return s.Seq(a.Fst, s.Seq(a.Snd, c2))
	}
	if b, ok := c2.(*g.Seq); ok {
		if _, ok := c1.(*g.Proj); ok {
			if _, ok := b.Fst.(*g.Func); ok {
				return g.Then(c1, c2)
			}
		}
		return s.Seq(s.Seq(c1, b.Fst), b.Snd)
	}
	return g.Then(c1, c2)
}
