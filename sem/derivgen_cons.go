package sem

import (
	"slices"

	"github.com/interderive/interderive"
)

// The constraints of a random derivation (derivgen.go) that unification cannot
// decide: they wait until their arguments are ground, and are then checked, or
// compute the term their variable (out) stands for.

// ckind says what a constraint is.
type ckind uint8

const (
	cNe     ckind = iota // (!= A B): not equal (α-equivalence)
	cCmp                 // (prim OP A ...): a comparison of integers
	cNot                 // (not (J A ...)): J has no derivation with these arguments
	cMember              // a value of a kind, a term of a class (ms)
	cCall                // out is the function fn's result on args
	cPrim                // out is the integer prim's result on args
	cSubst               // out is args[0][args[1] := args[2]]
	cFresh               // out is a name like args[0] occurring in none of args[1:]
)

// constraint is a constraint waiting (or decided: done).
type constraint struct {
	kind ckind
	args []*gterm
	out  *gterm
	done bool
	ms   MetaSort
	fn   *Function
	prim *Prim
	j    *Judgment
	pos  Pos
	// wait is 1 + the variable that its arguments waited on when last looked at
	// (ready), 0 for none.
	wait int
}

// wake decides every waiting constraint whose arguments are ground, until none is
// left that can be: false if one fails.
func (s *draw) wake() bool {
	for progress := true; progress; {
		progress = false
		for i := 0; i < len(s.pend); i++ {
			c := s.pend[i]
			if c.done || !s.ready(c) {
				continue
			}
			c.done = true
			s.decided = append(s.decided, c)
			progress = true
			if !s.fire(c) {
				return false
			}
		}
	}
	return true
}

// ready reports whether c's arguments are ground. The variable that held it back
// last is looked at first (c.wait): while it is unbound, c is not ready, and the
// arguments are not walked again.
func (s *draw) ready(c *constraint) bool {
	if w := c.wait - 1; w >= 0 && w < len(s.vars) && s.vars[w].ref == nil {
		return false
	}
	for _, a := range c.args {
		if id := s.unbound(a); id >= 0 {
			c.wait = id + 1
			return false
		}
	}
	c.wait = 0
	return true
}

// fire decides c, its arguments ground.
func (s *draw) fire(c *constraint) bool {
	ts := make([]*Term, len(c.args))
	for i, a := range c.args {
		ts[i] = s.toTerm(a)
	}
	l := s.g.l
	switch c.kind {
	case cNe:
		return !AlphaEqual(ts[0], ts[1])
	case cCmp, cPrim:
		ns := make([]int64, len(ts))
		for i, t := range ts {
			n, ok := intValue(View(t))
			if !ok {
				return false
			}
			ns[i] = n
		}
		if c.kind == cCmp {
			return c.prim.Cmp(ns)
		}
		n, ok := c.prim.Int(ns)
		return ok && s.unify(c.out, &gterm{k: gInt, n: n})
	case cMember:
		if c.ms.Kind == MetaValue {
			return l.IsValue(ts[0], c.ms.ValuesOf)
		}
		return l.InClass(ts[0], c.ms.Class)
	case cCall:
		t, err := l.Call(c.fn, ts, c.pos)
		if err != nil {
			return false // no clause applies: the search would fail there too
		}
		g := fromTerm(t)
		return g != nil && s.unify(c.out, g)
	case cSubst:
		if !IsName(ts[1]) {
			return false
		}
		g := fromTerm(Subst(ts[0], ts[1].Name, ts[2]))
		return g != nil && s.unify(c.out, g)
	case cFresh:
		base := ts[0]
		if !IsName(base) {
			return false
		}
		return s.unify(c.out, &gterm{k: gName, name: FreshName(base.Name, ts[1:]...)})
	case cNot:
		sub := slices.Clone(ts)
		for i := range sub {
			if c.j.Out[i] {
				sub[i] = nil
			}
		}
		out, err := l.Judge(c.j, sub, 0, interderive.Options{})
		if err != nil {
			return false
		}
		for _, d := range out.Derivations {
			same := true
			for i := range ts {
				if c.j.Out[i] && !AlphaEqual(d.Args[i], ts[i]) {
					same = false
				}
			}
			if same {
				return false
			}
		}
		return true
	}
	return false
}

// narrow guesses how the call c computes its result: a clause of its function, chosen
// at random (at most 1+Retries of them tried), its patterns unified with the
// arguments, its conditions added and its right-hand side unified with the result. A
// hook, a call whose arguments are ground (it is made at once), and calls nested
// deeper than the bound are not narrowed: they wait.
func (s *draw) narrow(c *constraint) bool {
	f := c.fn
	if f.Hook != nil || len(f.Clauses) == 0 || s.ready(c) || s.narrowing > 2*s.g.opts.MaxDepth+8 {
		return true
	}
	s.narrowing++
	s.work++
	defer func() { s.narrowing-- }()
	tries := 0
	ws := make([]float64, len(f.Clauses))
	for i, cl := range f.Clauses {
		ws[i] = 1
		if w, ok := s.clauseW[cl]; ok {
			ws[i] = w
		}
	}
	for k := range s.weightedPerm(ws) {
		if tries > s.g.opts.Retries || s.exhausted || s.err != nil {
			break
		}
		if s.shadowed(c, f.Clauses[:k]) {
			continue // an earlier clause applies: this one would not be the call's
		}
		m, w := s.mark(), s.work
		if s.clause(c, f.Clauses[k]) {
			return true
		}
		s.undo(m)
		if s.work != w {
			tries++ // a clause whose patterns or conditions fail at once is free
		}
	}
	return false
}

// clause unifies the call c with the clause cl.
func (s *draw) clause(c *constraint, cl *Clause) bool {
	slots := make([]*gterm, cl.Metas)
	if !s.head(c, cl, slots) {
		return false
	}
	t := s.inst(cl.RHS, slots)
	return t != nil && s.unify(c.out, t)
}

// head unifies the call c's arguments with the clause cl's patterns and makes its
// conditions hold, its metavariables in slots.
func (s *draw) head(c *constraint, cl *Clause, slots []*gterm) bool {
	for i, p := range cl.Args {
		t := s.inst(p, slots)
		if t == nil || !s.unify(t, c.args[i]) {
			return false
		}
	}
	for _, w := range cl.Where {
		if !s.cond(w, slots) {
			return false
		}
	}
	return true
}

// shadowed reports whether one of the clauses earlier (the clauses before the one
// narrowed) surely applies to the call c as its arguments are now: the function
// takes the first clause that applies, so that a later one guessed would fail when
// the call is made.
func (s *draw) shadowed(c *constraint, earlier []*Clause) bool {
	for _, cl := range earlier {
		if s.surely(c, cl) {
			return true
		}
	}
	return false
}

// surely reports whether the clause cl applies to the call c whatever its logic
// variables become: its patterns match the arguments and its conditions (=, match,
// != only) hold without binding a variable of theirs. Anything else (a call in a
// pattern, a condition that waits) is not sure. The draw is left as it was.
func (s *draw) surely(c *constraint, cl *Clause) bool {
	for _, p := range cl.Args {
		if computes(p) {
			return false
		}
	}
	for _, w := range cl.Where {
		if w.Kind != CondEq && w.Kind != CondMatch && w.Kind != CondNe {
			return false
		}
		for _, a := range w.Args {
			if computes(a) {
				return false
			}
		}
	}
	m := s.mark()
	defer s.undo(m)
	if !s.head(c, cl, make([]*gterm, cl.Metas)) {
		return false
	}
	for _, id := range s.trail[m.trail:] {
		if id < m.vars {
			return false // it binds what the call's arguments leave open
		}
	}
	// Only the clause's own constraints (its (!= ...), its metavariables' classes)
	// can be decided now: no variable from before is bound.
	for _, x := range s.pend[m.pend:] {
		if !s.ready(x) {
			return false
		}
		x.done = true
		s.decided = append(s.decided, x)
		if !s.fire(x) {
			return false
		}
	}
	return true
}

// computes reports whether the pattern p has a call, a prim or a substitution in it.
func computes(p *Pattern) bool {
	switch p.Kind {
	case PatCall, PatPrim, PatSubst:
		return true
	}
	for _, a := range p.Args {
		if computes(a) {
			return true
		}
	}
	return false
}
