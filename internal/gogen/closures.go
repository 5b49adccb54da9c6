package gogen

import (
	"fmt"
	"slices"

	"github.com/interderive/interderive/sem"
)

// What the generator learns of a rule, statically, to build its contractum over
// closures with the fewest environments and closure nodes (env.go): which
// metavariables need no binder hidden (open), and which nodes of the right-hand side
// can be built from the redex's own subterms under the redex's environment (raw).

// binding is where a rule's left-hand side binds a metavariable: the path of
// arguments from the root, and the binder metavariables (slots) in scope at each step.
type binding struct {
	path    []int
	binders [][]int // binders[d]: the slots of the binders in scope of step d
	ok      bool    // every binder in scope along the path is a binder metavariable
}

// bindings are the positions of the metavariables a pattern binds, through
// constructors only (a metavariable's first position).
func bindings(p *sem.Pattern) map[int]binding {
	out := map[int]binding{}
	var walk func(p *sem.Pattern, path []int, binders [][]int, ok bool)
	walk = func(p *sem.Pattern, path []int, binders [][]int, ok bool) {
		switch p.Kind {
		case sem.PatMeta:
			if _, seen := out[p.Slot]; !seen {
				out[p.Slot] = binding{path: path, binders: binders, ok: ok}
			}
		case sem.PatCon:
			for i, a := range p.Args {
				var bs []int
				good := ok
				for _, b := range p.Con.BindersOf(i) {
					if q := p.Args[b]; q.Kind == sem.PatMeta && q.Sort.Kind == sem.MetaVar {
						bs = append(bs, q.Slot)
					} else {
						good = false
					}
				}
				walk(a, append(slices.Clip(path), i), append(slices.Clip(binders), bs), good)
			}
		}
	}
	walk(p, nil, nil, true)
	return out
}

// metaCounts counts the occurrences of each slot as a metavariable in the patterns
// (nil ones skipped).
func metaCounts(ps ...*sem.Pattern) map[int]int {
	n := map[int]int{}
	for _, p := range ps {
		if p == nil {
			continue
		}
		p.Walk(func(q *sem.Pattern) {
			if q.Kind == sem.PatMeta || q.Kind == sem.PatSame { // a delimiter's label uses its binding
				n[q.Slot]++
			}
		})
	}
	return n
}

// usedBy counts the uses of the metavariables that the patterns ps bind (a clause's
// arguments, a rule's left-hand side): in the right-hand side rhs and the conditions
// where (either may be nil), and where ps meet one again (PatSame).
func usedBy(ps []*sem.Pattern, rhs *sem.Pattern, where []*sem.Cond) map[int]int {
	used := metaCounts(uses(rhs, where, nil)...)
	for slot, n := range sameCounts(ps...) { // a metavariable met again uses its binding
		used[slot] += n
	}
	return used
}

// sameCounts counts the metavariables that the patterns ps compare a term with, met
// again after their binding (PatSame: in a sequence, or a delimiter's label).
func sameCounts(ps ...*sem.Pattern) map[int]int {
	n := map[int]int{}
	for _, p := range ps {
		p.Walk(func(q *sem.Pattern) {
			if q.Kind == sem.PatSame {
				n[q.Slot]++
			}
		})
	}
	return n
}

// uses are the patterns of a rule that use its metavariables (rather than bind them
// from the redex): its right-hand side, its conditions' arguments and its delimiter.
func uses(rhs *sem.Pattern, where []*sem.Cond, delimiter *sem.Pattern) []*sem.Pattern {
	ps := []*sem.Pattern{rhs, delimiter}
	for _, c := range where {
		ps = append(ps, c.Args...)
	}
	return ps
}

// occurrences counts the occurrences of each slot in a rule's right-hand side,
// conditions and delimiter.
func occurrences(r *sem.Rule) map[int]int { return metaCounts(uses(r.RHS, r.Where, r.Delimiter)...) }

// openSlots are the metavariables of r bound under exactly one binder x and used
// once, as (subst e x v) with that x: the binder need not be hidden in e's
// environment, since the substitution binds x in front of it at once (rebind).
func openSlots(r *sem.Rule) map[int]bool {
	open := map[int]bool{}
	if r.Context || r.Layer != nil {
		return open
	}
	bs, used, lhs := bindings(r.LHS), occurrences(r), metaCounts(r.LHS)
	r.RHS.Walk(func(p *sem.Pattern) {
		if p.Kind != sem.PatSubst || p.Args[0].Kind != sem.PatMeta || p.Args[1].Kind != sem.PatMeta {
			return
		}
		m, x := p.Args[0].Slot, p.Args[1].Slot
		b, ok := bs[m]
		if !ok || !b.ok || used[m] != 1 || len(b.binders) == 0 || lhs[m] > 1 {
			return
		}
		if last := b.binders[len(b.binders)-1]; len(last) == 1 && last[0] == x {
			open[m] = true
		}
	})
	return open
}

// rawNode reports whether the right-hand side's node p can be built from the
// redex's own subterms and put under the redex's environment, no closure node in it:
// its leaves are literals and metavariables that the left-hand side binds through
// constructors from the root, each under the same binder metavariables there as in p
// (so that each of its variables means in p what it meant in the redex), and no
// computation (call, prim, substitution) in it.
func rawNode(p *sem.Pattern, bs map[int]binding) bool {
	if p.Kind != sem.PatCon || len(p.Args) == 0 {
		return false // a nullary node is shared already (run.nullary)
	}
	good := true
	var walk func(p *sem.Pattern, scope []int)
	walk = func(p *sem.Pattern, scope []int) {
		switch p.Kind {
		case sem.PatInt, sem.PatAtom:
		case sem.PatMeta:
			b, ok := bs[p.Slot]
			if !ok || !b.ok || len(b.path) != 1 {
				good = false // only the redex's own children are its subterms as they stand
				return
			}
			if p.Sort.Kind == sem.MetaVar || p.Sort.Kind == sem.MetaInt || p.Sort.Kind == sem.MetaAtom {
				return // a name or a literal: itself anywhere
			}
			var lhs []int
			for _, s := range b.binders {
				lhs = append(lhs, s...)
			}
			if !sameSet(lhs, scope) {
				good = false
			}
		case sem.PatCon:
			for i, a := range p.Args {
				inner := slices.Clip(scope)
				for _, b := range p.Con.BindersOf(i) {
					q := p.Args[b]
					if q.Kind != sem.PatMeta || q.Sort.Kind != sem.MetaVar {
						good = false
						return
					}
					inner = append(inner, q.Slot)
				}
				if p.Con.Args[i].Kind == sem.ArgTerm || a.Kind != sem.PatMeta {
					walk(a, inner)
				} else if b, ok := bs[a.Slot]; !ok || len(b.path) != 1 {
					good = false // a binder the redex does not hold (fresh)
				}
			}
		default:
			good = false
		}
	}
	walk(p, nil)
	return good
}

// sameSet reports whether two lists of slots hold the same slots.
func sameSet(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// rawExpr is the Go expression that builds the raw node p (rawNode) from the
// redex n's own children.
func (g *gen) rawExpr(p *sem.Pattern, bs map[int]binding, at string, root *sem.Con) string {
	switch p.Kind {
	case sem.PatInt:
		return fmt.Sprintf("r.intLeaf(%s, %d)", at, p.N)
	case sem.PatAtom:
		return g.atomLit(p.Atom, p.Val, at)
	case sem.PatMeta:
		return fmt.Sprintf("n.t.Args[%d]", bs[p.Slot].path[0])
	}
	args := make([]string, len(p.Args))
	for i, a := range p.Args {
		args[i] = g.rawExpr(a, bs, at, root)
	}
	if len(args) == 0 {
		return fmt.Sprintf("r.nullary(%s, %s)", at, g.con[p.Con.Index])
	}
	if p.Con == root {
		// Equal to the redex itself where its children are the redex's own in place
		// (ed.sem's letrec f x e_1 e_1, unfolded again): the redex, not a copy, so
		// that the node built for it is built once (run.keep).
		return fmt.Sprintf("reuse%d(n.t, %s, %s, %s)", len(args), at, g.con[p.Con.Index], join(args))
	}
	return fmt.Sprintf("mk%d(%s, %s, %s)", len(args), at, g.con[p.Con.Index], join(args))
}

// lazySlots are the metavariables of r that nothing uses, and the untested ones that
// only raw nodes use (rawNode) bound at a child of the root: the match tests them but
// need not bind them, nor take an untested one at all (no look-up, no binder hidden),
// the raw nodes taking the child as it stands; where the redex is not a node as it
// stands, the raw node's other way of building takes them.
func lazySlots(r *sem.Rule, bs map[int]binding) map[int]bool {
	total := occurrences(r)
	inRaw := map[int]int{}
	var walk func(p *sem.Pattern)
	walk = func(p *sem.Pattern) {
		if rawNode(p, bs) {
			p.Walk(func(q *sem.Pattern) {
				if q.Kind == sem.PatMeta {
					inRaw[q.Slot]++
				}
			})
			return
		}
		for _, a := range p.Args {
			walk(a)
		}
	}
	walk(r.RHS)
	lazy := map[int]bool{}
	// The metavariables the delimiter or a (match ...) binds: unused if nothing but
	// their own pattern mentions them (occurrences counts those patterns too).
	binding := []*sem.Pattern{r.Delimiter}
	for _, c := range r.Where {
		if c.Kind == sem.CondMatch {
			binding = append(binding, c.Args[0])
		}
	}
	own, lhs := metaCounts(binding...), metaCounts(r.LHS)
	if r.Delimiter != nil {
		r.Delimiter.Walk(func(q *sem.Pattern) {
			if _, seen := own[q.Slot]; q.Kind == sem.PatHole && !seen {
				own[q.Slot] = 0 // a hole, bound there, counted by no occurrence
			}
		})
	}
	for slot, n := range own {
		if total[slot] == n && lhs[slot] == 0 {
			lazy[slot] = true
		}
	}
	for slot, n := range sameCounts(r.LHS) { // a metavariable met again uses its binding
		total[slot] += n
	}
	r.LHS.Walk(func(q *sem.Pattern) {
		switch {
		case q.Kind != sem.PatMeta:
		case total[q.Slot] == 0:
			lazy[q.Slot] = true // unused: tested, not bound
		case q.Sort.Kind == sem.MetaTerm && inRaw[q.Slot] == total[q.Slot] && len(bs[q.Slot].path) == 1:
			lazy[q.Slot] = true // used by raw nodes only
		}
	})
	return lazy
}

// slotsIn are the slots p's metavariables take, each once, in order.
func slotsIn(p *sem.Pattern) []int {
	var out []int
	p.Walk(func(q *sem.Pattern) {
		if q.Kind == sem.PatMeta && !slices.Contains(out, q.Slot) {
			out = append(out, q.Slot)
		}
	})
	return out
}

// unusedSlots are the metavariables of a function's clause that its conditions and
// right-hand side do not use: its match tests them but need not bind them (nor take
// an untested one at all).
func unusedSlots(c *sem.Clause) map[int]bool {
	used := usedBy(c.Args, c.RHS, c.Where)
	unused := map[int]bool{}
	for slot := range metaCounts(c.Args...) {
		if used[slot] == 0 {
			unused[slot] = true
		}
	}
	return unused
}

// rootAnswers are the root tags (constructors', integers', variables') whose test as
// values of kind k (or terms of class c) the root alone answers, yes and no
// (sem.Kind.RootAnswer): the test then need not run (memoized's switch).
func (g *gen) rootAnswers(k *sem.Kind, c *sem.Class) (yesTags, noTags []string) {
	answer := func(op sem.TermOp, con *sem.Con) sem.RootAnswer {
		if c != nil {
			return c.RootAnswer(op, con)
		}
		return k.RootAnswer(op, con)
	}
	add := func(tag string, a sem.RootAnswer) {
		switch a {
		case sem.Yes:
			yesTags = append(yesTags, tag)
		case sem.No:
			noTags = append(noTags, tag)
		}
	}
	add("tagInt", answer(sem.TermInt, nil))
	add("tagVar", answer(sem.TermVar, nil))
	for _, con := range g.l.Cons {
		add(g.con[con.Index], answer(sem.TermCon, con))
	}
	return yesTags, noTags
}
