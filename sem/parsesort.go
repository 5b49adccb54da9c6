package sem

import "slices"

// The reading of the sorts (Parse): their names and metavariables, their variables,
// integers and atoms, their constructors with their binders and shapes; and which
// sorts are ground.

// groundSorts finds the sorts in whose terms no variable occurs: a least fixed point,
// from the sorts without variables, dropping those with a constructor argument of a
// sort not ground.
func (l *Language) groundSorts() {
	for _, so := range l.Sorts {
		so.Ground = !so.Vars
	}
	for changed := true; changed; {
		changed = false
		for _, so := range l.Sorts {
			if !so.Ground {
				continue
			}
			for _, c := range so.Cons {
				for _, a := range c.Args {
					if a.Kind == ArgVar || a.Kind == ArgTerm && !a.Sort.Ground {
						so.Ground, changed = false, true
					}
				}
			}
		}
	}
}

// sortHeader declares a sort (sort NAME META ... DECL ...): its name, its metavariable
// names, and those of its variables and integers.
func (p *langParser) sortHeader(s *SExpr) {
	if len(s.List) < 2 {
		p.errorf(s.P, "(sort) ends before its NAME: expected (sort NAME META ... (variable X ...) (integer N ...) (con NAME ARG ... (bind I J ...)) ...)")
		return
	}
	n, ok := p.name(s.List[1], "the sort's name")
	if !ok {
		return
	}
	if _, dup := p.sorts[n]; dup {
		p.errorf(s.List[1].P, "sort %s declared twice", n)
		return
	}
	so := &Sort{Name: n, P: s.P}
	p.sorts[n] = so
	p.l.Sorts = append(p.l.Sorts, so)
	for _, m := range s.List[1:] {
		if m.Kind == SList {
			if len(m.List) == 0 || m.List[0].Kind != SSym {
				p.errorf(m.P, "expected (variable ...), (integer ...), (atom ...) or (con ...), not %s", token(m))
				continue
			}
			switch m.List[0].Sym {
			case "variable", "integer":
				if len(m.List) < 2 {
					p.errorf(m.P, "(%s) names no metavariable: expected (%s META ...)", m.List[0].Sym, m.List[0].Sym)
					continue
				}
				kind, metas := MetaVar, &so.VarMetas
				if m.List[0].Sym == "integer" {
					kind, metas = MetaInt, &so.IntMetas
					if so.Ints {
						p.errorf(m.P, "a second (integer ...)")
					}
					so.Ints = true
				} else {
					if so.Vars {
						p.errorf(m.P, "a second (variable ...)")
					}
					so.Vars = true
				}
				for _, x := range m.List[1:] {
					if name := p.meta(x, MetaSort{Kind: kind, Sort: so}); name != "" {
						*metas = append(*metas, name)
					}
				}
			case "atom":
				p.atomDecl(so, m)
			case "con":
			default:
				p.errorf(m.List[0].P, "unknown sort declaration %s: (variable ...), (integer ...), (atom ...) or (con ...)", m.List[0].Sym)
			}
			continue
		}
		if name := p.meta(m, MetaSort{Kind: MetaTerm, Sort: so}); name != "" {
			so.Metas = append(so.Metas, name)
		}
	}
}

// atomDecl reads (atom TYPE META ...) in a sort: the literals of the atom type TYPE
// (registered in the hooks) are terms of the sort, and META ... its metavariables.
func (p *langParser) atomDecl(so *Sort, m *SExpr) {
	if len(m.List) < 3 || m.List[1].Kind != SSym {
		p.errorf(m.P, "expected (atom TYPE META ...), an atom type and its metavariables, not %s", token(m))
		return
	}
	a, ok := p.l.hooks.Atom(m.List[1].Sym)
	if !ok {
		p.errorf(m.List[1].P, "unknown atom type %s: %s", m.List[1].Sym, known("atom types", p.l.hooks.AtomNames()))
		return
	}
	if slices.Contains(so.Atoms, a) {
		p.errorf(m.P, "a second (atom %s ...)", a.Name)
		return
	}
	so.Atoms = append(so.Atoms, a)
	var metas []string
	for _, x := range m.List[2:] {
		if name := p.meta(x, MetaSort{Kind: MetaAtom, Sort: so, Atom: a}); name != "" {
			metas = append(metas, name)
		}
	}
	so.AtomMetas = append(so.AtomMetas, metas)
}

// argSort reads a constructor's argument sort: a metavariable name of a sort (t, x, n).
func (p *langParser) argSort(s *SExpr) (Arg, bool) {
	if s.Kind == SSym {
		if ms, ok := p.l.metas[s.Sym]; ok {
			switch ms.Kind {
			case MetaTerm:
				return Arg{Kind: ArgTerm, Sort: ms.Sort}, true
			case MetaVar:
				return Arg{Kind: ArgVar, Sort: ms.Sort}, true
			case MetaInt:
				return Arg{Kind: ArgInt, Sort: ms.Sort}, true
			case MetaAtom:
				return Arg{Kind: ArgTerm, Sort: ms.Sort}, true // an atom is a term of its sort
			}
		}
	}
	p.errorf(s.P, "expected an argument sort, a metavariable name of a sort's terms, variables or integers, not %s (%s)", token(s), p.argSortNames())
	return Arg{}, false
}

// sortBody declares the constructors of a sort.
func (p *langParser) sortBody(s *SExpr) {
	if len(s.List) < 2 || s.List[1].Kind != SSym || p.sorts[s.List[1].Sym] == nil {
		return
	}
	so := p.sorts[s.List[1].Sym]
	for _, m := range s.List[2:] {
		if m.Kind != SList || len(m.List) == 0 || m.List[0].Kind != SSym || m.List[0].Sym != "con" {
			continue
		}
		if len(m.List) < 2 {
			p.errorf(m.P, "(con) ends before its NAME: expected (con NAME ARG ... (bind I J ...) ...)")
			continue
		}
		n, ok := p.name(m.List[1], "the constructor's name")
		if !ok {
			continue
		}
		if _, dup := p.l.cons[n]; dup {
			p.errorf(m.List[1].P, "constructor %s declared twice", n)
			continue
		}
		if _, meta := p.l.metas[n]; meta {
			p.errorf(m.List[1].P, "%s is a metavariable name", n)
			continue
		}
		c := &Con{Name: n, P: m.P, Sort: so}
		var names []string // the arguments as the declaration names them
		var shapeDecl *SExpr
		decl := m.List[2:]
		for i := 0; i < len(decl); i++ {
			a := decl[i]
			if isSym(a, "...") {
				p.errorf(a.P, "an ellipsis follows the argument sort it repeats (E ...), and there is none before this one")
				continue
			}
			if a.Kind == SList && len(a.List) > 0 && isSym(a.List[0], "shape") {
				if shapeDecl != nil || len(a.List) != 2 {
					p.errorf(a.P, "expected one (shape TEMPLATE), not %s", token(a))
					continue
				}
				shapeDecl = a.List[1]
				continue
			}
			if a.Kind == SList {
				p.bind(c, a)
				continue
			}
			switch {
			case len(c.Binds) > 0:
				p.errorf(a.P, "argument %s after a (bind ...): the arguments come before the binds", token(a))
			case shapeDecl != nil:
				p.errorf(a.P, "argument %s after the (shape ...): the arguments come first", token(a))
			}
			arg, ok := p.argSort(a)
			if ok && i+1 < len(decl) && isSym(decl[i+1], "...") {
				// E ...: a sequence of E's terms (seq.go).
				i++
				arg = Arg{Kind: ArgTerm, Sort: p.seqSort(arg, a.Sym)} // x ...: a sequence of binders
			}
			if ok {
				c.Args = append(c.Args, arg)
				names = append(names, a.Sym)
			}
		}
		if shapeDecl != nil && len(names) == len(c.Args) {
			c.shape = p.shapeOf(c, shapeDecl, names)
		}
		c.scope = make([][]int, len(c.Args))
		bound := map[int]bool{}
		for _, b := range c.Binds {
			bound[b.Binder] = true
			for _, j := range b.Scope {
				c.scope[j] = append(c.scope[j], b.Binder)
			}
		}
		for i, a := range c.Args {
			if binderArg(a) && !bound[i] {
				// Unless it is the variable of an item of a sequence that binds:
				// checkItems, once every sort is read.
				p.unbound = append(p.unbound, conArg{c, i, m.P})
			}
		}
		c.Index = len(p.l.Cons)
		p.l.cons[n] = c
		p.l.Cons = append(p.l.Cons, c)
		so.Cons = append(so.Cons, c)
	}
}

// bind reads (bind I J ...): argument I binds in arguments J ....
func (p *langParser) bind(c *Con, s *SExpr) {
	if len(s.List) == 0 || s.List[0].Kind != SSym || s.List[0].Sym != "bind" {
		p.errorf(s.P, "expected (bind BINDER SCOPE ...), argument indices from 0, not %s", token(s))
		return
	}
	if !p.form(s, 3, -1, "(bind BINDER SCOPE ...)") {
		return
	}
	idx := func(x *SExpr) (int, bool) {
		if x.Kind != SInt || x.N < 0 || x.N >= int64(len(c.Args)) {
			p.errorf(x.P, "expected an argument index of %s, 0 to %d, not %s", c.Name, len(c.Args)-1, token(x))
			return 0, false
		}
		return int(x.N), true
	}
	b, ok := idx(s.List[1])
	if !ok {
		return
	}
	items := isSeqArg(c.Args[b]) && c.Args[b].Sort.Elem.Kind == ArgTerm
	if !binderArg(c.Args[b]) && !items {
		p.errorf(s.List[1].P, "argument %d of %s is not a variable: it is %s, and a binder is a variable argument, or a sequence of them (x ...), or of items that each bind a variable ((x e) ...)", b, c.Name, argName(c.Args[b]))
		return
	}
	var bsort *Sort // the binder's sort; for items, known once every sort is read
	switch {
	case items:
		p.items = append(p.items, conArg{c, b, s.List[1].P})
	case isSeqArg(c.Args[b]):
		bsort = c.Args[b].Sort.Elem.Sort
	default:
		bsort = c.Args[b].Sort
	}
	bd := Bind{Binder: b}
	for _, x := range s.List[2:] {
		j, ok := idx(x)
		if !ok {
			return
		}
		if j == b && !items {
			p.errorf(x.P, "argument %d of %s is the binder itself: a binder binds in other arguments, the terms in its scope (items, (x e) ..., may bind in themselves)", j, c.Name)
			return
		}
		if c.Args[j].Kind != ArgTerm {
			p.errorf(x.P, "argument %d of %s is not a term: it is %s, and a binder binds in terms", j, c.Name, argName(c.Args[j]))
			return
		}
		if bsort != nil && c.Args[j].Sort != bsort {
			p.errorf(x.P, "argument %d of %s is not of the binder's sort %s", j, c.Name, bsort.Name)
			return
		}
		if slices.Contains(bd.Scope, j) {
			p.errorf(x.P, "argument %d twice in this bind", j)
			return
		}
		bd.Scope = append(bd.Scope, j)
	}
	for _, o := range c.Binds {
		if o.Binder == b {
			p.errorf(s.P, "argument %d of %s has a second bind", b, c.Name)
			return
		}
	}
	c.Binds = append(c.Binds, bd)
}

// conArg is an argument of a constructor, positioned, that checkItems checks once
// every sort is read: a variable argument no bind of its constructor declares a
// binder (an error, unless the constructor's terms are the items of a sequence that
// binds), or the binder of a bind that is a sequence of items.
type conArg struct {
	c   *Con
	arg int
	P   Pos
}

// checkItems checks the binds whose binder is a sequence of items, once every sort is
// read: each constructor of the items' sort has exactly one variable argument (its
// ItemVar, the name an item binds), and the scope's other arguments are terms of that
// variable's sort; then the variable arguments of no bind that are not items' are
// errors.
func (p *langParser) checkItems() {
	isItem := map[*Con]bool{}
	for _, ib := range p.items {
		el := ib.c.Args[ib.arg].Sort.Elem.Sort
		var vsort *Sort
		ok := len(el.Cons) > 0
		for _, ic := range el.Cons {
			v, bad := -1, len(ic.Binds) > 0
			for j, a := range ic.Args {
				switch {
				case a.Kind == ArgVar:
					bad = bad || v >= 0
					v = j
				case a.Kind == ArgTerm && binderArg(a):
					bad = true
				}
			}
			if bad {
				v = -1
			}
			if v < 0 || vsort != nil && ic.Args[v].Sort != vsort {
				ok = false
				break
			}
			vsort = ic.Args[v].Sort
			ic.item = v + 1
			isItem[ic] = true
		}
		if !ok {
			p.errorf(ib.P, "argument %d of %s is a sequence of %s, whose constructors do not each have one variable argument (of one sort), the name an item binds", ib.arg, ib.c.Name, el.Name)
			continue
		}
		for _, bd := range ib.c.Binds {
			if bd.Binder != ib.arg {
				continue
			}
			for _, j := range bd.Scope {
				if j != ib.arg && ib.c.Args[j].Sort != vsort {
					p.errorf(ib.P, "argument %d of %s is not of the binder's sort %s", j, ib.c.Name, vsort.Name)
				}
			}
		}
	}
	for _, u := range p.unbound {
		if !isItem[u.c] {
			p.errorf(u.P, "argument %d of %s is a variable that no (bind %d ...) declares a binder", u.arg, u.c.Name, u.arg)
		}
	}
}
