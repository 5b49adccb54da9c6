package sem

// The decomposition tables and the functions' clauses, indexed by root: a term's
// root constructor (or integer, atom, name) picks the declarations that may match it,
// in declaration order, refined by an argument's root where three or more share the
// root (Kind.Lookup, Engine's candidates).

// buildIndexes builds, for every kind, the index of its values, frames, rules and
// stuck shapes by their pattern's root: the decomposition tables.
func (l *Language) buildIndexes() {
	for _, c := range l.Classes {
		c.alts = l.indexOf(len(c.Alts), func(i int) *Pattern { return c.Alts[i] })
	}
	for _, k := range l.Kinds {
		k.values = l.indexOf(len(k.Values), func(i int) *Pattern { return k.Values[i].Pat })
		k.frames = l.indexOf(len(k.Frames), func(i int) *Pattern { return k.Frames[i].Pat })
		k.rules = l.indexOf(len(k.Rules), func(i int) *Pattern { return k.Rules[i].LHS })
		k.stucks = l.indexOf(len(k.Stucks), func(i int) *Pattern { return k.Stucks[i].Pat })
		k.answers = l.indexOf(len(k.Answers), func(i int) *Pattern { return k.Answers[i].Pat })
	}
	for _, f := range l.Functions {
		l.indexClauses(f)
	}
	l.buildRootAnswers()
}

// indexClauses indexes the clauses of f by the root of one argument, as the
// decomposition tables are indexed by the root of the term: the argument whose
// patterns fix a root (a constructor, an integer, an atom, a name) in the most
// clauses, two at least of three or more. A clause whose pattern there fixes none is
// in every list, and every list keeps the clauses' order, so that a call tries the
// same clauses in the same order, less the ones that cannot match.
func (l *Language) indexClauses(f *Function) {
	f.by, f.all = -1, make([]int, len(f.Clauses))
	for i := range f.all {
		f.all[i] = i
	}
	if len(f.Clauses) < 3 {
		return
	}
	f.by = tellsMost(func(at int) (int, bool) {
		if at >= len(f.Params) {
			return 0, false
		}
		n := 0
		for _, c := range f.Clauses {
			if fixesRoot(c.Args[at]) {
				n++
			}
		}
		return n, true
	})
	if f.by >= 0 {
		f.clauses = l.indexOf(len(f.Clauses), func(i int) *Pattern { return f.Clauses[i].Args[f.by] })
	}
}

// fixesRoot reports whether every term p matches has one root: a constructor, an
// integer, an atom, or a name.
func fixesRoot(p *Pattern) bool {
	switch p.Kind {
	case PatCon, PatInt, PatAtom:
		return true
	case PatMeta:
		k := p.Sort.Kind
		return k == MetaInt || k == MetaVar || k == MetaAtom
	}
	return false
}

func (l *Language) indexOf(n int, pat func(int) *Pattern) index {
	x := index{byCon: make([][]int, len(l.Cons))}
	for i := range n {
		p := pat(i)
		switch {
		case p.Kind == PatCon:
			x.byCon[p.Con.Index] = append(x.byCon[p.Con.Index], i)
		case p.Kind == PatInt || p.Kind == PatMeta && p.Sort.Kind == MetaInt:
			x.ints = append(x.ints, i)
		case p.Kind == PatMeta && p.Sort.Kind == MetaVar:
			x.vars = append(x.vars, i)
		case p.Kind == PatAtom || p.Kind == PatMeta && p.Sort.Kind == MetaAtom:
			x.atoms = append(x.atoms, i)
		case p.Kind == PatMeta && p.Sort.Kind == MetaClass:
			ints, vars, cons := l.classRoots(p.Sort.Class, map[*Class]bool{})
			if ints {
				x.ints = append(x.ints, i)
				x.atoms = append(x.atoms, i) // ints stands for the atoms too (classRoots)
			}
			if vars {
				x.vars = append(x.vars, i)
			}
			for c := range x.byCon {
				if cons[c] {
					x.byCon[c] = append(x.byCon[c], i)
				}
			}
		default: // a term or value metavariable: any root
			x.ints = append(x.ints, i)
			x.vars = append(x.vars, i)
			x.atoms = append(x.atoms, i)
			for c := range x.byCon {
				x.byCon[c] = append(x.byCon[c], i)
			}
		}
	}
	x.byArg = make([]*argIndex, len(l.Cons))
	for c, is := range x.byCon {
		x.byArg[c] = l.refine(is, pat)
	}
	return x
}

// refine is the list is, of declarations that may match a term of one root
// constructor, refined by the argument whose patterns are constructors in the most
// declarations (two at least, of three or more); nil if there is none.
func (l *Language) refine(is []int, pat func(int) *Pattern) *argIndex {
	if len(is) < 3 {
		return nil
	}
	best := tellsMost(func(at int) (n int, reaches bool) { // reaches: some pattern has an argument at
		for _, i := range is {
			if p := pat(i); p.Kind == PatCon && at < len(p.Args) {
				reaches = true
				if p.Args[at].Kind == PatCon {
					n++
				}
			}
		}
		return n, reaches
	})
	if best < 0 {
		return nil
	}
	a := &argIndex{at: best, byCon: make([][]int, len(l.Cons))}
	for _, i := range is {
		p := pat(i)
		if p.Kind == PatCon && best < len(p.Args) && p.Args[best].Kind == PatCon {
			d := p.Args[best].Con.Index
			a.byCon[d] = append(a.byCon[d], i)
			continue
		}
		a.leaf = append(a.leaf, i)
		for d := range a.byCon {
			a.byCon[d] = append(a.byCon[d], i)
		}
	}
	return a
}

// tellsMost is the argument that tells the most declarations apart: the first at
// whose count (of the declarations whose pattern there fixes a root) is highest, two
// at least, trying at = 0, 1, ... as long as count says some declaration reaches it;
// -1 if no argument counts two.
func tellsMost(count func(at int) (n int, reaches bool)) int {
	best, most := -1, 1
	for at := 0; ; at++ {
		n, reaches := count(at)
		if !reaches {
			return best
		}
		if n > most {
			best, most = at, n
		}
	}
}
