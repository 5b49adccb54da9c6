package sem

import (
	"math/rand/v2"
	"strconv"
)

// The terms of a random derivation under construction (derivgen.go): terms with
// logic variables, unified with an occurs check, bindings undone on a trail when a
// rule is abandoned; and the grounding of the logic variables that remain, by small
// random terms of their sorts.

// gkind says what a gterm node is.
type gkind uint8

const (
	gVar  gkind = iota // a logic variable (not an object-level variable)
	gName              // an object-level variable: a name
	gInt               // an integer
	gAtom              // an atom
	gCon               // a constructor applied to arguments
)

// gterm is a term with logic variables.
type gterm struct {
	k    gkind
	id   int    // gVar: its index in draw.vars
	name string // gName
	n    int64  // gInt
	atom *AtomType
	val  any
	con  *Con
	args []*gterm
}

// gvar is a logic variable: its binding (nil while unbound) and what it ranges over.
type gvar struct {
	ref *gterm
	ms  MetaSort
}

// newVar is a new logic variable ranging over ms; one of a kind's values or of a
// class is checked once ground (a member constraint).
func (s *draw) newVar(ms MetaSort) *gterm {
	v := &gterm{k: gVar, id: len(s.vars)}
	s.vars = append(s.vars, gvar{ms: ms})
	if ms.Kind == MetaValue || ms.Kind == MetaClass {
		s.pend = append(s.pend, &constraint{kind: cMember, args: []*gterm{v}, ms: ms})
	}
	return v
}

// deref follows the bindings of t.
func (s *draw) deref(t *gterm) *gterm {
	for t.k == gVar && s.vars[t.id].ref != nil {
		t = s.vars[t.id].ref
	}
	return t
}

// restrictive reports whether a metavariable of ms stands only for one form of leaf:
// a name, an integer, an atom.
func restrictive(ms MetaSort) bool {
	return ms.Kind == MetaVar || ms.Kind == MetaInt || ms.Kind == MetaAtom
}

// unify unifies a and b, binding logic variables (recorded on the trail). Each call
// and each node visited costs a step of the draw's budget; past it, unify fails and
// the draw is exhausted.
func (s *draw) unify(a, b *gterm) bool {
	s.steps++
	if s.steps > s.g.opts.Budget {
		s.exhausted = true
		return false
	}
	a, b = s.deref(a), s.deref(b)
	if a == b {
		return true
	}
	if a.k == gVar && b.k == gVar && a.id == b.id {
		return true
	}
	if a.k == gVar {
		return s.bind(a, b)
	}
	if b.k == gVar {
		return s.bind(b, a)
	}
	if a.k != b.k {
		return false
	}
	switch a.k {
	case gName:
		return a.name == b.name
	case gInt:
		return a.n == b.n
	case gAtom:
		return a.atom == b.atom && a.atom.Equal(a.val, b.val)
	}
	if a.con != b.con {
		return false
	}
	for i := range a.args {
		if !s.unify(a.args[i], b.args[i]) {
			return false
		}
	}
	return true
}

// bind binds the unbound variable v to t (dereferenced, not v): when t is a variable
// too, the one that ranges over more is bound to the other.
func (s *draw) bind(v, t *gterm) bool {
	ms := s.vars[v.id].ms
	if t.k == gVar {
		mt := s.vars[t.id].ms
		switch {
		case restrictive(ms) && restrictive(mt):
			if ms.Kind != mt.Kind || ms.Atom != mt.Atom {
				return false
			}
		case restrictive(ms):
			v, t = t, v
		}
	} else if !fitsLeaf(ms, t) || s.occurs(v.id, t) {
		return false
	}
	s.vars[v.id].ref = t
	s.trail = append(s.trail, v.id)
	return true
}

// fitsLeaf reports whether the root of t (not a variable) may be what a
// metavariable of ms stands for.
func fitsLeaf(ms MetaSort, t *gterm) bool {
	switch ms.Kind {
	case MetaVar:
		return t.k == gName
	case MetaInt:
		return t.k == gInt
	case MetaAtom:
		return t.k == gAtom && t.atom == ms.Atom
	}
	if ms.Sort == nil {
		return true
	}
	switch t.k {
	case gName:
		return ms.Sort.Vars
	case gInt:
		return ms.Sort.Ints
	case gCon:
		return t.con.Sort == ms.Sort
	}
	return true
}

// occurs reports whether the variable id occurs in t: binding it there would make an
// infinite term.
func (s *draw) occurs(id int, t *gterm) bool {
	t = s.deref(t)
	switch t.k {
	case gVar:
		return t.id == id
	case gCon:
		for _, a := range t.args {
			if s.occurs(id, a) {
				return true
			}
		}
	}
	return false
}

// unbound is an unbound variable of t, -1 if t is ground.
func (s *draw) unbound(t *gterm) int {
	t = s.deref(t)
	switch t.k {
	case gVar:
		return t.id
	case gCon:
		for _, a := range t.args {
			if id := s.unbound(a); id >= 0 {
				return id
			}
		}
	}
	return -1
}

// toTerm is the ground t as a term (nil if a variable is unbound).
func (s *draw) toTerm(t *gterm) *Term {
	t = s.deref(t)
	switch t.k {
	case gName:
		return Var(Pos{}, t.name)
	case gInt:
		return Int(Pos{}, t.n)
	case gAtom:
		return AtomOf(Pos{}, t.atom, t.val)
	case gCon:
		args := make([]*Term, len(t.args))
		for i, a := range t.args {
			if args[i] = s.toTerm(a); args[i] == nil {
				return nil
			}
		}
		return App(Pos{}, t.con, args...)
	}
	return nil
}

// fromTerm is the term t as a gterm (closures read as their terms).
func fromTerm(t *Term) *gterm {
	t = View(t)
	switch t.Op {
	case TermVar:
		return &gterm{k: gName, name: t.Name}
	case TermInt:
		return &gterm{k: gInt, n: t.N}
	case TermAtom:
		return &gterm{k: gAtom, atom: t.Atom, val: t.Val}
	case TermCon:
		args := make([]*gterm, len(t.Args))
		for i, a := range t.Args {
			if args[i] = fromTerm(a); args[i] == nil {
				return nil
			}
		}
		return &gterm{k: gCon, con: t.Con, args: args}
	}
	return nil
}

// mark is a point of the draw to come back to: the lengths of the trail, of the
// pending constraints and of the constraints decided since, and of the variables;
// the goals of the derivation.
type mark struct{ trail, pend, decided, vars, nodes int }

func (s *draw) mark() mark {
	return mark{len(s.trail), len(s.pend), len(s.decided), len(s.vars), s.nodes}
}

// undo comes back to m: the bindings since unbound, the constraints since dropped,
// those decided since pending again.
func (s *draw) undo(m mark) {
	for _, id := range s.trail[m.trail:] {
		if id < len(s.vars) {
			s.vars[id].ref = nil
		}
	}
	s.trail = s.trail[:m.trail]
	for _, c := range s.decided[m.decided:] {
		c.done = false
	}
	s.decided = s.decided[:m.decided]
	s.pend = s.pend[:m.pend]
	s.vars = s.vars[:m.vars]
	s.nodes = m.nodes
}

// intLow and intHigh bound the integers a logic variable of integers is grounded
// to: small, and 0 (the corner case of if0-like rules) more often (randomInt).
const intLow, intHigh = -3, 12

// randomInt is a small integer, 0 one time in four.
func randomInt(r *rand.Rand) int64 {
	if r.IntN(4) == 0 {
		return 0
	}
	return intLow + r.Int64N(intHigh-intLow+1)
}

// groundVar binds the unbound variable id to a small random term of its sort: a
// name that no pending (!= ...) rules out, an integer, an atom, or a term of the
// grammar (a value of its kind, a term of its class, tried a few times).
func (s *draw) groundVar(id int) bool {
	ms := s.vars[id].ms
	v := &gterm{k: gVar, id: id}
	switch ms.Kind {
	case MetaVar:
		return s.unify(v, &gterm{k: gName, name: s.pickName(id)})
	case MetaInt:
		return s.unify(v, &gterm{k: gInt, n: randomInt(s.r)})
	case MetaAtom:
		if len(ms.Atom.Samples) == 0 {
			return false
		}
		return s.unify(v, &gterm{k: gAtom, atom: ms.Atom, val: ms.Atom.Samples[s.r.IntN(len(ms.Atom.Samples))]})
	}
	if ms.Sort == nil {
		return false
	}
	for range 8 {
		t := s.randomTerm(ms.Sort, 2, nil)
		if t == nil {
			return false
		}
		if ms.Kind == MetaValue || ms.Kind == MetaClass {
			tt := s.toTerm(t)
			if ms.Kind == MetaValue && !s.g.l.IsValue(tt, ms.ValuesOf) || ms.Kind == MetaClass && !s.g.l.InClass(tt, ms.Class) {
				continue
			}
		}
		return s.unify(v, t)
	}
	return false
}

// pickName is a name for the variable id from the generator's few names (few, so
// that binders shadow one another), one that no pending (!= id N) rules out; a new
// one when all are.
func (s *draw) pickName(id int) string {
	avoid := map[string]bool{}
	for _, c := range s.pend {
		if c.done || c.kind != cNe {
			continue
		}
		a, b := s.deref(c.args[0]), s.deref(c.args[1])
		if b.k == gVar && b.id == id {
			a, b = b, a
		}
		if a.k == gVar && a.id == id && b.k == gName {
			avoid[b.name] = true
		}
	}
	var ok []string
	for _, n := range s.g.opts.Names {
		if !avoid[n] {
			ok = append(ok, n)
		}
	}
	if len(ok) > 0 {
		return ok[s.r.IntN(len(ok))]
	}
	for i := 1; ; i++ {
		n := s.g.opts.Names[0] + strconv.Itoa(i)
		if !avoid[n] {
			return n
		}
	}
}

// randomTerm is a closed term of sort so of depth about depth, bound listing the
// names bound around: a leaf (an integer, an atom, a name in scope) or a
// constructor that has closed nodes; nil if the sort has no closed term.
func (s *draw) randomTerm(so *Sort, depth int, bound []string) *gterm {
	type choice func() *gterm
	var leaves, nodes []choice
	if so.Ints {
		leaves = append(leaves, func() *gterm { return &gterm{k: gInt, n: randomInt(s.r)} })
	}
	for _, a := range so.Atoms {
		if len(a.Samples) > 0 {
			leaves = append(leaves, func() *gterm { return &gterm{k: gAtom, atom: a, val: a.Samples[s.r.IntN(len(a.Samples))]} })
		}
	}
	if so.Vars && len(bound) > 0 {
		leaves = append(leaves, func() *gterm { return &gterm{k: gName, name: bound[s.r.IntN(len(bound))]} })
	}
	for _, c := range so.Cons {
		if !ConInhabited(c, s.g.has) {
			continue
		}
		if !hasTermArg(c) {
			leaves = append(leaves, func() *gterm { return &gterm{k: gCon, con: c} })
			continue
		}
		nodes = append(nodes, func() *gterm { return s.randomNode(c, depth, bound) })
	}
	all := append(leaves, nodes...)
	if depth <= 0 && len(leaves) > 0 {
		all = leaves
	}
	if len(all) == 0 || depth < -8 {
		return nil
	}
	return all[s.r.IntN(len(all))]()
}

// randomNode is c applied to random arguments of depth depth-1.
func (s *draw) randomNode(c *Con, depth int, bound []string) *gterm {
	args := make([]*gterm, len(c.Args))
	for i, a := range c.Args {
		if a.Kind == ArgVar {
			args[i] = &gterm{k: gName, name: s.g.opts.Names[s.r.IntN(len(s.g.opts.Names))]}
		}
	}
	for i, a := range c.Args {
		switch a.Kind {
		case ArgInt:
			args[i] = &gterm{k: gInt, n: randomInt(s.r)}
		case ArgTerm:
			inner := bound
			for _, b := range c.scope[i] {
				if c.Args[b].Sort == a.Sort {
					inner = append(inner[:len(inner):len(inner)], args[b].name)
				}
			}
			if args[i] = s.randomTerm(a.Sort, depth-1, inner); args[i] == nil {
				return nil
			}
		}
	}
	return &gterm{k: gCon, con: c, args: args}
}

// hasTermArg reports whether c has an argument that is a term.
func hasTermArg(c *Con) bool {
	for _, a := range c.Args {
		if a.Kind == ArgTerm {
			return true
		}
	}
	return false
}
