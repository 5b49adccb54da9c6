package sem

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// Sequences, as Redex has them. A constructor's argument declared E ... (con app e
// e ...) is a sequence of E's terms: a term of the sequence sort E..., which the
// reader makes once for E. Programs write a sequence as a list, (app f (1 2 3));
// patterns and right-hand sides as Redex does, an element followed by an ellipsis
// standing for any number of them: (app ((lam x e) v ...)), (v ... e_1 e ...).
//
// A sequence sort is an ordinary sort to everything past the reader: its terms are
// the chains of two constructors of its own, the empty sequence and an element
// before a sequence, so that the matcher, the builders, the derived stages, their
// contexts and the static checks see nodes, and a frame whose hole is in a sequence,
// (frame E (app (v ... (hole) e ...))), becomes two kinds of elementary contexts
// (seqFrame): a sequence is evaluated element by element, left to right, as a
// context of its own kind.
//
// Matching follows Redex's documentation: a sequence pattern matches a sequence whose
// elements its elements match in order, a repeated element any number of consecutive
// ones (zero included), and a metavariable under an ellipsis stands for the sequence
// of what it matched in each. Where a pattern has several ellipses it may match more
// than one way; the matcher takes the first, the earlier ellipses the shorter (Redex
// finds them all, and a relation they make ambiguous is non-deterministic); a named
// ellipsis, ..._1, makes the sequences it names of one length. Patterns are linear,
// as elsewhere, but for a metavariable bound outside a sequence and met in it, which
// is compared there (the search passes the elements that differ). A template's
// repeated element is instantiated once for each element of the sequences its
// metavariables under the ellipsis stand for, which must be of one length. Ellipses
// do not nest. A binder may be a sequence of variables, (con lam x ... e (bind 0 1)),
// each of which binds (binderArg, BinderNames).

// seqSort is the sequence sort whose elements are of the argument sort a (a term of a
// sort, an integer or a variable), made when first named: the sort E..., with its
// empty sequence E.../nil and its E.../cons.
func (p *langParser) seqSort(a Arg, name string) *Sort {
	for _, so := range p.l.Sorts {
		if so.Elem != nil && *so.Elem == a {
			return so
		}
	}
	so := &Sort{Name: name + "...", P: a.Sort.P, Elem: &a}
	empty := &Con{Name: so.Name + "/nil", P: so.P, Sort: so}
	more := &Con{Name: so.Name + "/cons", P: so.P, Sort: so, Args: []Arg{a, {Kind: ArgTerm, Sort: so}}}
	for _, c := range []*Con{empty, more} {
		c.scope = make([][]int, len(c.Args))
		c.Index = len(p.l.Cons)
		p.l.Cons = append(p.l.Cons, c)
		so.Cons = append(so.Cons, c)
	}
	p.l.Sorts = append(p.l.Sorts, so)
	return so
}

// IsSeq reports whether so is a sequence sort (E...).
func (so *Sort) IsSeq() bool { return so.Elem != nil }

// seqNil and seqCons are a sequence sort's two constructors.
func (so *Sort) seqNil() *Con  { return so.Cons[0] }
func (so *Sort) seqCons() *Con { return so.Cons[1] }

// SeqElems are the elements of the sequence t, and its suffixes: nodes[i] is the
// sequence from element i (nodes[len(elems)] the empty one), each node expanded
// (View). ok is false if t is not a sequence of so to its end.
func SeqElems(t *Term, so *Sort) (elems, nodes []*Term, ok bool) {
	return appendSeqElems(nil, nil, t, so)
}

// appendSeqElems is SeqElems appending to elems and nodes.
func appendSeqElems(elems, nodes []*Term, t *Term, so *Sort) ([]*Term, []*Term, bool) {
	for {
		v := View(t)
		if v.Op != TermCon || v.Con.Sort != so {
			return nil, nil, false
		}
		nodes = append(nodes, t)
		if len(v.Args) == 0 {
			return elems, nodes, true
		}
		elems = append(elems, v.Args[0])
		t = v.Args[1]
	}
}

// SeqOf is the sequence of so whose elements are elems, ended by tail (the empty
// sequence if nil), its nodes at the position at.
func SeqOf(so *Sort, at Pos, elems []*Term, tail *Term) *Term {
	t := tail
	if t == nil {
		t = newNode(at, so.seqNil(), 0)
	}
	for i := len(elems) - 1; i >= 0; i-- {
		n := newNode(at, so.seqCons(), 2)
		n.Args[0], n.Args[1] = elems[i], t
		t = n
	}
	return t
}

// emptySeq is the empty sequence of so at the position at (nullaryNode), so that the
// sequences a contraction builds, at one position, end in one node, not one each.
func (e *Engine) emptySeq(so *Sort, at Pos) *Term { return e.nullaryNode(so.seqNil(), at) }

// nullaryNode is the node of the nullary constructor c at the position at: the last
// one of c, if it was at at (terms are immutable and shared: constants), so that a
// contraction that builds a constant at one position again and again (a boolean of a
// comparison in a loop, an empty sequence) makes one node, not one each.
func (e *Engine) nullaryNode(c *Con, at Pos) *Term {
	n := &e.consts().nullary
	last := &n[(uint(c.Index)*17+posKey(at))%uint(len(n))]
	if n := *last; n != nil && n.P == at && n.Con == c {
		return n
	}
	*last = newNode(at, c, 0)
	return *last
}

// seqLen is the number of elements of the sequence t of so, if it is one to its end.
func seqLen(t *Term, so *Sort) (int, bool) {
	for n := 0; ; n++ {
		v := View(t)
		if v.Op != TermCon || v.Con.Sort != so {
			return 0, false
		}
		if len(v.Args) == 0 {
			return n, true
		}
		t = v.Args[1]
	}
}

// readSeq reads a sequence of sort so: a list of its elements.
func (l *Language) readSeq(s *SExpr, so *Sort, scope map[string]int, errs *interderive.ErrorList) *Term {
	if s.Kind != SList {
		errs.Add(s.P, "expected a sequence of "+so.Elem.Sort.Name+", a list (E ...), not "+token(s))
		return nil
	}
	elems := make([]*Term, len(s.List))
	for i, x := range s.List {
		if so.Elem.Kind == ArgVar { // a binder
			if x.Kind != SSym || l.literals[x.Sym] {
				errs.Add(x.P, "expected a variable, an element of "+so.Name+", not "+token(x))
				return nil
			}
			elems[i] = Var(x.P, x.Sym)
			continue
		}
		if so.Elem.Kind == ArgInt {
			if x.Kind != SInt {
				errs.Add(x.P, "expected an integer, an element of "+so.Name)
				return nil
			}
			elems[i] = Int(x.P, x.N)
			continue
		}
		if elems[i] = l.readTerm(x, so.Elem.Sort, scope, errs); elems[i] == nil {
			return nil
		}
	}
	return SeqOf(so, s.P, elems, nil)
}

// seqPattern reads a sequence pattern or template (P ... Q R ...) in a position of the
// sequence sort a.Sort: its elements, each followed or not by an ellipsis.
func (p *langParser) seqPattern(s *SExpr, a Arg, ps *patScope) *Pattern {
	el := *a.Sort.Elem
	out := &Pattern{P: s.P, Kind: PatSeq, Sort: MetaSort{Kind: MetaTerm, Sort: a.Sort}}
	for i := 0; i < len(s.List); i++ {
		x := s.List[i]
		if isEllipsisSym(x) {
			p.errorf(x.P, "an ellipsis follows the element it repeats, and %s has none before this one", token(s))
			return nil
		}
		r := Rep{NameSlot: -1}
		if i+1 < len(s.List) && isEllipsisSym(s.List[i+1]) {
			r.Ellipsis = s.List[i+1].Sym
		}
		if r.Ellipsis != "" && r.Ellipsis != "..." && ps.mode != patRHS && ps.mode != patCond {
			// A named ellipsis, ..._1: on a left-hand side, the sequences it names are of
			// one length (a slot records the first).
			var ok bool
			p.l.readsUnbound = true
			if r.NameSlot, ok = ps.slots[r.Ellipsis]; !ok {
				r.NameSlot = len(ps.slots)
				ps.slots[r.Ellipsis] = r.NameSlot
			}
		}
		if !r.Repeated() {
			ps.inSeq++
			e := p.pattern(x, el, ps)
			ps.inSeq--
			if e == nil {
				return nil
			}
			out.Args, out.Reps = append(out.Args, e), append(out.Reps, r)
			continue
		}
		if ps.depth > 0 {
			p.errorf(s.List[i+1].P, "ellipses do not nest in the rule language yet")
			return nil
		}
		ps.depth, ps.under = 1, nil
		ps.inSeq++
		holes := ps.holes
		e := p.pattern(x, el, ps)
		ps.depth = 0
		ps.inSeq--
		if e == nil {
			return nil
		}
		if ps.holes != holes {
			p.errorf(x.P, "a hole is not repeated: it is an element of its own, (P ... (hole) Q ...)")
			return nil
		}
		if len(ps.under) == 0 {
			what := "binds no metavariable"
			if ps.mode == patRHS || ps.mode == patCond {
				what = "uses no metavariable bound under an ellipsis: it has nothing to repeat over"
			}
			if ps.mode == patRHS || ps.mode == patCond || e.Kind != PatInt && e.Kind != PatAtom && !(e.Kind == PatCon && len(e.Args) == 0) {
				p.errorf(x.P, "%s, followed by an ellipsis, %s", token(x), what)
				return nil
			}
		}
		r.Under = ps.under
		out.Args, out.Reps = append(out.Args, e), append(out.Reps, r)
		i++
	}
	return out
}

// seqMeta records a metavariable met in a sequence pattern's repeated element: one
// bound there (a left-hand side), or used there and bound under an ellipsis (a
// template), stands for a sequence. It reports an error, and false, for a
// metavariable bound under an ellipsis and used outside one.
func (p *langParser) seqMeta(s *SExpr, slot int, bind bool, a Arg, ps *patScope) bool {
	if bind {
		if ps.depth > 0 {
			if ps.depths == nil {
				ps.depths, ps.seqs = map[string]int{}, map[int]*Sort{}
			}
			ps.depths[s.Sym] = 1
			ps.seqs[slot] = p.seqSort(a, strings.SplitN(s.Sym, "_", 2)[0])
			ps.under = append(ps.under, SeqVar{slot, ps.seqs[slot]})
		}
		return true
	}
	switch {
	case ps.depths[s.Sym] > 0 && ps.depth == 0:
		p.errorf(s.P, "metavariable %s stands for a sequence (it is bound under an ellipsis): use it under one, %s ...", s.Sym, s.Sym)
		return false
	case ps.depths[s.Sym] > 0 && !slices.Contains(ps.under, SeqVar{slot, ps.seqs[slot]}):
		ps.under = append(ps.under, SeqVar{slot, ps.seqs[slot]})
	}
	return true
}

// seqMatcher compiles a sequence pattern: the term is a sequence whose elements match
// the pattern's, its repeated elements matching as few as they may (matchSeq).
func seqMatcher(p *Pattern) matcher {
	so := p.Sort.Sort
	if len(p.Args) == 1 && p.Reps[0].Repeated() && p.Reps[0].NameSlot < 0 && p.Args[0].Kind == PatMeta && len(p.Reps[0].Under) == 1 && p.Reps[0].Under[0].Sort == so {
		return seqOfMeta(p.Args[0].matcher, p.Reps[0].Under[0].Slot, so)
	}
	sp := compileSeq(p)
	return func(e *Engine, t *Term, b []*Term) bool {
		var ebuf, nbuf [8]*Term
		elems, nodes, ok := appendSeqElems(ebuf[:0], nbuf[:0], t, so)
		return ok && sp.match(e, elems, nodes, 0, 0, b)
	}
}

// seqPattern is a sequence pattern compiled for matching: the slots each element's
// match fills, and, for each repeated element, whether a later element reads the
// sequences its metavariables stand for (a PatSame of one of them); if none does,
// those sequences are built once the rest of the pattern has matched, not for every
// split tried (a store's lookup, ((x_1 v_1) ... (x v) (x_2 v_2) ...), tries one split
// an element).
type seqPattern struct {
	p     *Pattern
	binds [][]int
	early []bool
}

func compileSeq(p *Pattern) *seqPattern {
	sp := &seqPattern{p: p, binds: make([][]int, len(p.Args)), early: make([]bool, len(p.Args))}
	for i, a := range p.Args {
		for s := range metaSlots(a) {
			sp.binds[i] = append(sp.binds[i], s)
		}
		under := map[int]bool{}
		for _, u := range p.Reps[i].Under {
			under[u.Slot] = true
		}
		for _, later := range p.Args[i+1:] {
			later.preorder(func(q *Pattern) {
				if q.Kind == PatSame && under[q.Slot] {
					sp.early[i] = true
				}
			})
		}
	}
	return sp
}

// seqOfMeta compiles (m ...), a sequence of what one metavariable matches (the
// values (v ...), the terms (e ...)): each element is tested in turn, nothing
// allocated, and the metavariable stands for the sequence itself where each
// element stood for itself.
func seqOfMeta(m matcher, slot int, so *Sort) matcher {
	return func(e *Engine, t *Term, b []*Term) bool {
		same := true
		u := t
		for {
			v := View(u)
			if v.Op != TermCon || v.Con.Sort != so {
				return false
			}
			if len(v.Args) == 0 {
				break
			}
			if !m(e, v.Args[0], b) {
				b[slot] = nil
				return false
			}
			same = same && b[slot] == v.Args[0]
			u = v.Args[1]
		}
		if same {
			b[slot] = t
			return true
		}
		elems, _, _ := SeqElems(t, so) // each element as the metavariable stood for it
		for i, x := range elems {
			m(e, x, b)
			elems[i] = b[slot]
		}
		b[slot] = SeqOf(so, t.P, elems, e.emptySeq(so, t.P))
		return true
	}
}

// match matches the elements from j on against the pattern's from i on.
func (sp *seqPattern) match(e *Engine, elems, nodes []*Term, i, j int, b []*Term) bool {
	p := sp.p
	if i == len(p.Args) {
		return j == len(elems)
	}
	m, r := p.Args[i].matcher, p.Reps[i]
	if !r.Repeated() {
		if j == len(elems) {
			return false
		}
		if m(e, elems[j], b) && sp.match(e, elems, nodes, i+1, j+1, b) {
			return true
		}
		for _, s := range sp.binds[i] {
			b[s] = nil
		}
		return false
	}
	last := i == len(p.Args)-1
	// The sequences the metavariables under the ellipsis stand for, as they grow; the
	// suffix itself where the last element is a metavariable that stood for each
	// element as it is.
	// They grow in room taken from the engine's stack of bindings, as much as the
	// elements left, and given back on the way out.
	under := r.Under
	var room [2][]*Term
	got := room[:]
	if len(under) > len(room) {
		got = make([][]*Term, len(under))
	}
	got = got[:len(under)]
	var taken []*Term // at the first element: the stack is back at this level between tries
	w := len(elems) - j
	suffix := last && len(under) == 1 && p.Args[i].Kind == PatMeta && under[0].Sort == p.Sort.Sort
	ns, named := r.NameSlot, -1 // a named ellipsis: its length (an integer), set here or before
	if ns >= 0 && b[ns] != nil {
		named = int(b[ns].N)
	}
	bind := func() {
		for k, u := range under {
			if suffix {
				b[u.Slot] = nodes[j]
			} else {
				b[u.Slot] = SeqOf(u.Sort, p.P, got[k], e.emptySeq(u.Sort, p.P))
			}
		}
	}
	for n := 0; ; n++ {
		if (!last || j+n == len(elems)) && (named < 0 || n == named) {
			if ns >= 0 && named < 0 {
				b[ns] = Int(p.P, int64(n))
			}
			if sp.early[i] {
				bind()
			}
			if sp.match(e, elems, nodes, i+1, j+n, b) {
				if !sp.early[i] {
					bind()
				}
				e.release(taken) // nil: nothing
				return true
			}
		}
		if j+n == len(elems) || !m(e, elems[j+n], b) {
			break
		}
		if taken == nil && len(under) > 0 {
			taken = e.take(len(under) * w)
			for k := range got {
				got[k] = taken[k*w : k*w : k*w+w]
			}
		}
		for k, u := range under {
			got[k] = append(got[k], b[u.Slot])
			suffix = suffix && b[u.Slot] == elems[j+n]
		}
	}
	e.release(taken)
	for _, s := range sp.binds[i] {
		b[s] = nil
	}
	if ns >= 0 && named < 0 {
		b[ns] = nil
	}
	return false
}

// isEllipsisSym reports whether s is an ellipsis, ... or a named one, ..._1.
func isEllipsisSym(s *SExpr) bool {
	return s.Kind == SSym && (s.Sym == "..." || strings.HasPrefix(s.Sym, "..._") && len(s.Sym) > 4)
}

// seqBuilder compiles a sequence template: its elements built in order, a repeated
// one once for each element of the sequences its metavariables stand for.
func seqBuilder(p *Pattern) builder {
	so := p.Sort.Sort
	if len(p.Args) == 1 && p.Reps[0].Repeated() && p.Args[0].Kind == PatMeta && len(p.Reps[0].Under) == 1 && p.Reps[0].Under[0].Sort == so {
		slot := p.Args[0].Slot // (x ...): the sequence x stands for
		return func(_ *Engine, b []*Term, _ Pos, _ int) (*Term, error) { return b[slot], nil }
	}
	return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
		var elems []*Term
		for i, a := range p.Args {
			under := p.Reps[i].Under
			if !p.Reps[i].Repeated() {
				t, err := a.builder(e, b, at, depth+1)
				if err != nil {
					return nil, err
				}
				elems = append(elems, t)
				continue
			}
			// The sequences under the ellipsis, walked in step, cell by cell (their
			// lengths checked first), each element bound in a copy of b on the
			// engine's stack.
			if len(under) == 0 {
				continue
			}
			length := -1
			for _, u := range under {
				n, ok := seqLen(b[u.Slot], u.Sort)
				if !ok {
					return nil, fmt.Errorf("%s: a metavariable under the ellipsis stands for no sequence", a.P)
				}
				if length >= 0 && n != length {
					return nil, fmt.Errorf("%s: the ellipsis repeats over sequences of lengths %d and %d", a.P, length, n)
				}
				length = n
			}
			sc := e.take(len(b) + len(under)) // b's copy, then the cells under way
			defer e.release(sc)
			copy(sc, b)
			cells := sc[len(b):]
			for k, u := range under {
				cells[k] = b[u.Slot]
			}
			elems = slices.Grow(elems, length)
			for range length {
				for k, u := range under {
					v := View(cells[k])
					sc[u.Slot], cells[k] = v.Args[0], v.Args[1]
				}
				t, err := a.builder(e, sc[:len(b)], at, depth+1)
				if err != nil {
					return nil, err
				}
				elems = append(elems, t)
			}
		}
		return SeqOf(so, at, elems, e.emptySeq(so, at)), nil
	}
}

// seqFrame rewrites a frame of k whose hole is an element of a sequence,
// (C ... (P ... H Q ...) ...), into a frame of k whose hole is the sequence, of a kind
// of its own, k' (named k/C); k' has the values (P ...) and, in this search order,
// the frames (H . (Q ...)), whose hole is H's, and (P . (hole k')): a sequence is
// evaluated element by element, left to right, each element in H's context until it
// matches P, and is a value of k' when all do. Without Q ..., the hole is the last
// element, (P ... H). The frame's pattern is returned with k', or as it is, and no
// kind, when its hole is in no sequence; nil (the error reported) when the sequence is
// not of that form.
func (p *langParser) seqFrame(k *Kind, pat *Pattern, ps *patScope, at *SExpr) (*Pattern, *Kind) {
	// The path to the hole's sequence, its nodes copied: the written pattern stays.
	written := pat
	pat = new(*written)
	pat.Args = slices.Clone(pat.Args)
	parent, idx := pat, -1
	for parent.Kind == PatCon {
		next := -1
		for i, a := range parent.Args {
			if containsHole(a) {
				next = i
			}
		}
		if next < 0 || parent.Args[next].Kind != PatCon {
			idx = next
			break
		}
		child := new(*parent.Args[next])
		child.Args = slices.Clone(child.Args)
		parent.Args[next], parent = child, child
	}
	if idx < 0 || parent.Args[idx].Kind != PatSeq {
		return written, nil
	}
	seq := parent.Args[idx]
	so := seq.Sort.Sort
	h := -1
	for i, a := range seq.Args {
		if containsHole(a) {
			h = i
		}
	}
	if h != 1 || !seq.Reps[0].Repeated() || len(seq.Args) > 3 || len(seq.Args) == 3 && !seq.Reps[2].Repeated() {
		p.errorf(seq.P, "a frame's hole in a sequence is one element between the values before it and the terms after it, (P ... (hole) Q ...) or (P ... (hole)): the elements are evaluated left to right")
		return nil, nil
	}
	name := k.Name + "/" + parent.Con.Name
	for i := 2; p.l.kinds[name] != nil; i++ {
		name = fmt.Sprintf("%s/%s%d", k.Name, parent.Con.Name, i)
	}
	k2 := &Kind{Name: name, P: at.P, Sort: so, Meta: k.Meta + "...", Index: len(p.l.Kinds)}
	p.l.kinds[name] = k2
	p.l.Kinds = append(p.l.Kinds, k2)
	metas := len(ps.slots) + 1
	done := &Pattern{P: seq.P, Kind: PatSeq, Sort: seq.Sort, Args: seq.Args[:1], Reps: seq.Reps[:1]}
	k2.Values = append(k2.Values, &Value{P: at.P, Kind: k2, Pat: done, Metas: metas})
	rest := &Pattern{P: seq.P, Kind: PatCon, Con: so.seqNil()}
	if len(seq.Args) == 3 {
		rest = &Pattern{P: seq.P, Kind: PatSeq, Sort: seq.Sort, Args: seq.Args[2:], Reps: seq.Reps[2:]}
	}
	enter := &Pattern{P: seq.P, Kind: PatCon, Con: so.seqCons(), Args: []*Pattern{seq.Args[1], rest}}
	next := &Pattern{P: seq.P, Kind: PatCon, Con: so.seqCons(), Args: []*Pattern{seq.Args[0], {P: seq.P, Kind: PatHole, Hole: k2}}}
	for _, fp := range []*Pattern{enter, next} {
		f := &Frame{P: at.P, Kind: k2, Pat: fp, Metas: metas, HoleSlot: metas - 1, Index: len(k2.Frames)}
		f.Path, f.Hole = holePath(fp)
		setHoleSlot(fp, f.HoleSlot)
		k2.Frames = append(k2.Frames, f)
	}
	parent.Args[idx] = &Pattern{P: seq.P, Kind: PatHole, Hole: k2}
	return pat, k2
}

// isSeqArg reports whether an argument is a sequence.
func isSeqArg(a Arg) bool { return a.Kind == ArgTerm && a.Sort.IsSeq() }

// ellipsesLast is the order in which the argument patterns args are read and matched
// when some have an ellipsis: the others first, so that a metavariable bound there is
// compared in a sequence (a non-linear pattern's search); nil when none has one.
func ellipsesLast(args []*SExpr) []int {
	var with, without []int
	for i, a := range args {
		if hasEllipsis(a) {
			with = append(with, i)
		} else {
			without = append(without, i)
		}
	}
	if len(with) == 0 || len(without) == 0 {
		return nil
	}
	return append(without, with...)
}

// hasEllipsis reports whether the s-expression has an ellipsis in it.
func hasEllipsis(s *SExpr) bool {
	if isEllipsisSym(s) {
		return true
	}
	return slices.ContainsFunc(s.List, hasEllipsis)
}

// binderArg reports whether an argument may be a binder: a variable, or a sequence of
// variables (x ...), each of which binds its name.
func binderArg(a Arg) bool { return a.Kind == ArgVar || isSeqArg(a) && a.Sort.Elem.Kind == ArgVar }

// BinderNames are the names the binder argument t of a node binds: its variable's, or
// its sequence's, in order, a sequence of variables' or of items' (each item's
// variable, Con.ItemVar). An iterator, so that substitution and read-back, which ask
// at every binder they pass, allocate nothing.
func BinderNames(t *Term) iter.Seq[string] {
	return func(yield func(string) bool) {
		if t == nil { // not made yet: a sequence of items in its own scope
			return
		}
		if t.Op == TermVar {
			yield(t.Name)
			return
		}
		for u := t; u.Op == TermCon && len(u.Args) == 2; u = u.Args[1] {
			if x := itemBinder(u.Args[0]); x != nil && !yield(x.Name) {
				return
			}
		}
	}
}

// itemBinder is the variable an element of a sequence of binders binds: the element,
// a variable, or an item's variable; nil for anything else.
func itemBinder(e *Term) *Term {
	switch {
	case e.Op == TermVar:
		return e
	case e.Op == TermCon && e.Con.item > 0:
		return e.Args[e.Con.item-1]
	}
	return nil
}

// binds reports whether the binder argument t binds x.
func binds(t *Term, x string) bool {
	for y := range BinderNames(t) {
		if y == x {
			return true
		}
	}
	return false
}

// renameBinder is the binder argument t with its name y, wherever it occurs, made y2
// (an item's variable renamed in the item).
func renameBinder(t *Term, y, y2 string) *Term {
	if t.Op == TermVar {
		return Var(t.P, y2)
	}
	var elems []*Term
	for u := t; u.Op == TermCon && len(u.Args) == 2; u = u.Args[1] {
		x := u.Args[0]
		switch {
		case x.Op == TermVar && x.Name == y:
			x = Var(x.P, y2)
		case x.Op == TermCon && x.Con.item > 0 && x.Args[x.Con.item-1].Name == y:
			args := slices.Clone(x.Args)
			args[x.Con.item-1] = Var(args[x.Con.item-1].P, y2)
			x = &Term{P: x.P, Op: TermCon, Con: x.Con, Args: args, parts: &noParts}
		}
		elems = append(elems, x)
	}
	return SeqOf(t.Con.Sort, t.P, elems, nil)
}

// binderSort is the sort of the variables a binder argument binds.
func binderSort(a Arg) *Sort {
	if isSeqArg(a) && a.Sort.Elem.Kind == ArgTerm { // items: their variable's sort
		for _, c := range a.Sort.Elem.Sort.Cons {
			if c.item > 0 {
				return c.Args[c.item-1].Sort
			}
		}
	}
	if isSeqArg(a) {
		return a.Sort.Elem.Sort
	}
	return a.Sort
}
