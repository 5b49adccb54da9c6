package sem

import (
	"fmt"
	"slices"
	"strings"
)

// The static check of the binders against the rules and function clauses that use
// them. A (bind I J ...) declaration is what substitution and α-equivalence follow,
// and what the reader of programs closes terms by: a wrong one — (con let x t t
// (bind 0 1)), binding in the bound term where let's body is argument 2 — reads no
// program that uses the variable in the body ("unbound variable"), and the rule that
// substitutes into the body does nothing. So the right-hand sides are checked
// against the scopes the left-hand sides declare, a metavariable at a time:
//
//   - (subst T X V) substitutes for X, a binder of the left-hand side, in T: T must be
//     in the scope of X there (a metavariable of the left-hand side under the
//     argument the bind of X scopes), else, in a closed term, T has no free X and the
//     substitution does nothing;
//   - a metavariable in the scope of a binder X on the left (its term may have X
//     free) must be, on the right, in the scope of a binder of X, or in the T of a
//     (subst T X V) that replaces X: else the contractum may have X free (X escapes
//     its binder). A variable's metavariable used as a term must be in its own
//     scope. This one is a warning (Lint), not an error: the rule is wrong only on
//     the terms where X does occur, and the language cannot state the condition
//     that X does not (an η rule).
//
// Calls of functions are not looked into (a function may bind or drop what it
// likes), nor are metavariables of sorts in which no variable occurs. Each error is
// positioned at the right-hand side's node at fault, with a witness: the left-hand
// side's smallest instance in which the metavariable has the variable free. The
// first error is an error of Check, the second a warning of Lint.

// scopeInfo is what the left-hand side (and the conditions) say of a metavariable:
// the binders (their slots) whose scope it is in, and, for a binder, its
// constructor's pattern and argument.
type scopeInfo struct {
	in    [][]int    // by slot: the binders' slots around it
	node  []*Pattern // by slot: for a binder, the constructor pattern it is an argument of
	arg   []int      // by slot: for a binder, its argument index
	bound []bool     // by slot: bound by the left-hand side (or a condition)
}

// checkScopes checks every rule's and function clause's right-hand side against the
// scopes of its left-hand side.
func (c *checker) checkScopes() {
	for _, r := range c.l.Rules {
		lhs := []*Pattern{r.LHS}
		if r.Delimiter != nil {
			lhs = append(lhs, r.Delimiter)
		}
		c.checkScope("rule "+r.Name, r.Metas, lhs, r.Where, r.RHS)
	}
	for _, f := range c.l.Functions {
		for _, cl := range f.Clauses {
			c.checkScope("function "+f.Name, cl.Metas, cl.Args, cl.Where, cl.RHS)
		}
	}
}

func (c *checker) checkScope(who string, metas int, lhs []*Pattern, where []*Cond, rhs *Pattern) {
	si := &scopeInfo{in: make([][]int, metas), node: make([]*Pattern, metas), arg: make([]int, metas), bound: make([]bool, metas)}
	var walk func(p *Pattern, around []int)
	walk = func(p *Pattern, around []int) {
		switch p.Kind {
		case PatMeta:
			if p.Slot < metas {
				si.in[p.Slot], si.bound[p.Slot] = around, true
			}
		case PatCon:
			for j, a := range p.Args {
				if p.Con.Args[j].Kind == ArgVar {
					if a.Kind == PatMeta && a.Slot < metas {
						si.node[a.Slot], si.arg[a.Slot], si.bound[a.Slot] = p, j, true
					}
					continue
				}
				walk(a, withBinders(around, p, j))
			}
		}
	}
	for _, p := range lhs {
		walk(p, nil)
	}
	for _, w := range where {
		switch w.Kind {
		case CondStep: // B, the term A steps to, is where A was
			if a, b := w.Args[0], w.Args[1]; a.Slot < metas && b.Slot < metas {
				si.in[b.Slot], si.bound[b.Slot] = si.in[a.Slot], true
			}
		case CondFresh: // a new name, in no scope
			if x := w.Args[0]; x.Slot < metas {
				si.bound[x.Slot] = true
			}
		case CondMatch: // what a computed term matches: not looked into, as a call's result
			w.Args[0].preorder(func(q *Pattern) {
				if q.Kind == PatMeta && q.Slot < metas {
					si.bound[q.Slot] = true
				}
			})
		}
	}
	reported := false
	var check func(p *Pattern, around, replaced []int)
	check = func(p *Pattern, around, replaced []int) {
		if reported {
			return
		}
		switch p.Kind {
		case PatMeta:
			if p.Slot >= metas || !si.bound[p.Slot] || p.Sort.Sort == nil || p.Sort.Sort.Ground {
				return
			}
			needs := si.in[p.Slot]
			if p.Sort.Kind == MetaVar && si.node[p.Slot] != nil {
				needs = []int{p.Slot} // an occurrence of a binder: in the scope of its own
			}
			for _, x := range needs {
				if !slices.Contains(around, x) && !slices.Contains(replaced, x) {
					reported = true
					c.escape(who, p, x, lhs, si)
					return
				}
			}
		case PatSubst:
			t, x := p.Args[0], p.Args[1]
			for t.Kind == PatSubst {
				t = t.Args[0]
			}
			if t.Kind == PatMeta && t.Slot < metas && x.Slot < metas && si.node[x.Slot] != nil && si.bound[t.Slot] &&
				t.Sort.Kind != MetaVar && !slices.Contains(si.in[t.Slot], x.Slot) {
				reported = true
				c.vacuous(who, p, t, x, lhs, si)
				return
			}
			check(p.Args[0], around, append(replaced[:len(replaced):len(replaced)], x.Slot))
			check(p.Args[2], around, replaced)
		case PatCon:
			for j, a := range p.Args {
				if p.Con.Args[j].Kind == ArgTerm {
					check(a, withBinders(around, p, j), replaced)
				}
			}
		case PatPlug:
			check(p.Args[0], around, replaced) // into the context the rule took: where the redex was
		}
	}
	check(rhs, nil, nil)
}

// withBinders is around with the slots of the binders of the constructor pattern p
// whose scope argument j is in.
func withBinders(around []int, p *Pattern, j int) []int {
	out := around
	for _, bi := range p.Con.scope[j] {
		if b := p.Args[bi]; b.Kind == PatMeta {
			out = append(out[:len(out):len(out)], b.Slot)
		}
	}
	return out
}

// binderName names the binder in slot x for a message: x, argument 0 of let.
func binderName(x int, si *scopeInfo) string {
	n := si.node[x]
	return fmt.Sprintf("%s, argument %d of %s", n.Args[si.arg[x]].Meta, si.arg[x], n.Con.Name)
}

// scopeOf says what the bind of the binder in slot x scopes.
func scopeOf(x int, si *scopeInfo) string {
	n, i := si.node[x], si.arg[x]
	for _, b := range n.Con.Binds {
		if b.Binder == i {
			var js []string
			for _, j := range b.Scope {
				js = append(js, fmt.Sprint(j))
			}
			return fmt.Sprintf("(bind %d %s) of %s at %s", i, strings.Join(js, " "), n.Con.Name, n.Con.P)
		}
	}
	return "no bind"
}

// vacuous reports a (subst T X V) whose T is not in the scope of X on the left: an
// error.
func (c *checker) vacuous(who string, s, t, x *Pattern, lhs []*Pattern, si *scopeInfo) {
	msg := fmt.Sprintf("%s: %s substitutes for %s in %s, but %s does not bind in %s: its scope is %s; in a closed term %s has no free %s, and the substitution does nothing",
		who, FormatPattern(s), x.Meta, t.Meta, binderName(x.Slot, si), t.Meta, scopeOf(x.Slot, si), t.Meta, x.Meta)
	if w := c.scopeWitness(lhs, t, x.Slot, si); w != nil {
		msg += fmt.Sprintf("; e.g. %s, with %s free in %s's place, is not a closed term", FormatShort(w, 80), varName(x.Slot, si), t.Meta)
	}
	c.errs.Add(s.P, msg)
}

// escape reports a metavariable p of the right-hand side that may have the binder
// in slot x free and is put outside its scope: a warning (Lint), for the language
// cannot state the condition that would make it right (x not free in p).
func (c *checker) escape(who string, p *Pattern, x int, lhs []*Pattern, si *scopeInfo) {
	xm := si.node[x].Args[si.arg[x]].Meta
	if p.Sort.Kind == MetaVar {
		c.warn(p.P, nil, "%s: the occurrence %s is outside every binder of %s: the contractum has %s free (its binder is %s, scoping as %s)",
			who, p.Meta, xm, xm, binderName(x, si), scopeOf(x, si))
		return
	}
	c.warn(p.P, c.scopeWitness(lhs, p, x, si), "%s: %s may have %s free (on the left it is in the scope of %s, by %s), but the right-hand side puts it outside every binder of %s and every (subst %s %s ...): %s escapes its binder",
		who, p.Meta, xm, binderName(x, si), scopeOf(x, si), xm, p.Meta, xm, xm)
}

// varName is the name the witnesses give the binder in slot x: its metavariable's
// base name (x for x_1).
func varName(x int, si *scopeInfo) string {
	name, _, _ := strings.Cut(si.node[x].Args[si.arg[x]].Meta, "_")
	return name
}

// scopeWitness is the smallest instance of the left-hand side in which the
// metavariable t has the variable of the binder in slot x free, or nil.
func (c *checker) scopeWitness(lhs []*Pattern, t *Pattern, x int, si *scopeInfo) *Term {
	name := varName(x, si)
	free := c.withFree(t.Sort, name)
	if free == nil {
		return nil
	}
	return c.instanceWith(lhs[0], map[int]*Term{t.Slot: free, x: Var(Pos{}, name)})
}

// withFree is a small term a metavariable of sort ms may stand for in which the
// variable x is free: x itself, or a value (a class member) whose pattern has a
// term argument that can be x.
func (c *checker) withFree(ms MetaSort, x string) *Term {
	var alts []*Pattern
	switch ms.Kind {
	case MetaTerm:
		if ms.Sort.Vars {
			return Var(Pos{}, x)
		}
		return nil
	case MetaValue:
		for _, v := range ms.ValuesOf.Values {
			alts = append(alts, v.Pat)
		}
	case MetaClass:
		alts = ms.Class.Alts
	default:
		return nil
	}
	for _, a := range alts {
		for slot, m := range metaSlots(a) {
			if m.Sort.Kind == MetaTerm && m.Sort.Sort == ms.Sort && ms.Sort.Vars {
				if t := c.instanceWith(a, map[int]*Term{slot: Var(Pos{}, x)}); t != nil {
					return t
				}
			}
		}
	}
	return nil
}

// metaSlots are the term positions' metavariables of a pattern, by slot.
func metaSlots(p *Pattern) map[int]*Pattern {
	out := map[int]*Pattern{}
	p.preorder(func(q *Pattern) {
		if q.Kind == PatMeta {
			out[q.Slot] = q
		}
	})
	return out
}

// preorder calls visit on p and on every pattern inside it, each before those inside
// it.
func (p *Pattern) preorder(visit func(*Pattern)) {
	visit(p)
	for _, a := range p.Args {
		a.preorder(visit)
	}
}

// instanceWith is a small instance of the pattern p, the metavariables of the slots
// given standing for the terms given, the others for the smallest terms they may
// (a variable's metavariable for a variable of its name, primed away from the
// variables given), or nil.
func (c *checker) instanceWith(p *Pattern, given map[int]*Term) *Term {
	taken := map[string]bool{}
	for _, t := range given {
		for x := range FreeVars(t) {
			taken[x] = true
		}
	}
	var inst func(p *Pattern) *Term
	inst = func(p *Pattern) *Term {
		if p.Kind == PatMeta {
			if t, ok := given[p.Slot]; ok {
				return t
			}
		}
		switch p.Kind {
		case PatInt:
			return Int(Pos{}, p.N)
		case PatAtom:
			return AtomOf(Pos{}, p.Atom, p.Val)
		case PatHole:
			return c.leaf(p.Hole.Sort, nil)
		case PatMeta:
			switch p.Sort.Kind {
			case MetaVar:
				x, _, _ := strings.Cut(p.Meta, "_")
				for taken[x] {
					x += "'"
				}
				return Var(Pos{}, x)
			case MetaInt:
				return Int(Pos{}, 0)
			case MetaAtom:
				return AtomOf(Pos{}, p.Sort.Atom, p.Sort.Atom.Samples[0])
			case MetaValue:
				return c.rep(p.Sort.Sort, func(t *Term) bool { return c.e.IsValue(t, p.Sort.ValuesOf) })
			case MetaClass:
				return c.rep(p.Sort.Sort, func(t *Term) bool { return c.e.InClass(t, p.Sort.Class) })
			}
			return c.leaf(p.Sort.Sort, nil)
		case PatCon:
			args := make([]*Term, len(p.Args))
			for i, a := range p.Args {
				if args[i] = inst(a); args[i] == nil {
					return nil
				}
			}
			return App(Pos{}, p.Con, args...)
		}
		return nil
	}
	return inst(p)
}

// Walk calls visit on p and on each pattern inside it, parents first.
func (p *Pattern) Walk(visit func(*Pattern)) { p.preorder(visit) }
