package sem

import "fmt"

// Staging: a rule file is compiled once, when it is read (Parse), into Go closures,
// as Redex compiles its patterns. Every pattern of the file, left-hand side, value,
// frame, stuck shape, answer, class alternative, function clause, delimiter or side
// condition, becomes a matcher: code that tests a term's root and hands each child to
// its sub-pattern's matcher, its metavariables in slots (the bindings b, numbered by
// the parser). Every right-hand side becomes a builder, code that builds the
// contractum from the slots, and every integer argument of a prim an integer's code.
// What the engine decided at each match by looking at the pattern (its kind, its
// constructor, its arity, what its metavariable ranges over) is decided here, once;
// the engine (engine.go) calls the code. Frames, values, rules, stuck shapes, answers
// and class alternatives are dispatched by the term's root (index), and a term's
// membership of a kind's values or of a class is memoized on the term (memo): they
// are pure, and a term is immutable. Functions are not memoized: their arguments are
// terms the contraction has just built, never the same pointers twice, so a memo by
// identity would not hit, and one by structure would cost what the call does.

// A matcher is a pattern compiled: it reports whether t matches, filling the slots of
// b with what the metavariables (and a frame's hole) stand for.
type matcher func(e *Engine, t *Term, b []*Term) bool

// A builder is a template compiled: it builds the term from the bindings b, its new
// nodes at the position at, within depth nested function calls. It fails only where a
// prim is undefined or a function's evaluation fails.
type builder func(e *Engine, b []*Term, at Pos, depth int) (*Term, error)

// An integer is an integer argument of a prim compiled: its value on the bindings b;
// ok is false where it is no integer (a prim undefined there), err a function's
// failure.
type integer func(e *Engine, b []*Term) (n int64, ok bool, err error)

// stage compiles every pattern of the language, children first.
func (l *Language) stage() {
	seen := map[*Pattern]bool{}
	var walk func(p *Pattern)
	walk = func(p *Pattern) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		for _, a := range p.Args {
			walk(a)
		}
		p.matcher, p.builder, p.integer = matcherOf(p), builderOf(p), integerOf(p) // each compiles p's children's, not p's
	}
	l.kindPatterns(walk)
	for _, k := range l.Kinds {
		for _, a := range k.Answers {
			walk(a.Pat)
		}
	}
	for _, r := range l.Rules {
		walk(r.RHS)
		walk(r.Delimiter)
	}
	for _, c := range l.Classes {
		for _, a := range c.Alts {
			walk(a)
		}
	}
	for _, f := range l.Functions {
		for _, c := range f.Clauses {
			for _, a := range c.Args {
				walk(a)
			}
			walk(c.RHS)
			condPatterns(c.Where, walk)
		}
	}
	if l.Typing != nil {
		for _, a := range l.Typing.Args {
			walk(a)
		}
	}
	for _, j := range l.Judgments {
		for _, r := range j.Rules {
			for _, a := range r.Conclusion {
				walk(a)
			}
			for _, pr := range r.Premises {
				for _, a := range pr.Args {
					walk(a)
				}
				if pr.Cond != nil {
					condPatterns([]*Cond{pr.Cond}, walk)
				}
			}
		}
	}
}

// kindPatterns calls f on the patterns of the kinds' declarations: values, frames,
// rules' left-hand sides and the arguments of their side conditions, stuck shapes.
func (l *Language) kindPatterns(f func(*Pattern)) {
	for _, k := range l.Kinds {
		for _, v := range k.Values {
			f(v.Pat)
		}
		for _, fr := range k.Frames {
			f(fr.Pat)
		}
		for _, r := range k.Rules {
			f(r.LHS)
			condPatterns(r.Where, f)
		}
		for _, s := range k.Stucks {
			f(s.Pat)
		}
	}
}

// condPatterns calls f on the arguments of the side conditions cs.
func condPatterns(cs []*Cond, f func(*Pattern)) {
	for _, c := range cs {
		for _, a := range c.Args {
			f(a)
		}
	}
}

// noMatch is the matcher of a template that is no pattern: it matches nothing.
func noMatch(*Engine, *Term, []*Term) bool { return false }

// matcherOf compiles the pattern p, whose children are compiled.
func matcherOf(p *Pattern) matcher {
	switch p.Kind {
	case PatHole:
		slot := p.Slot
		return func(_ *Engine, t *Term, b []*Term) bool { b[slot] = t; return true }
	case PatInt:
		n := p.N
		return func(_ *Engine, t *Term, _ []*Term) bool {
			m, ok := intValue(View(t))
			return ok && m == n
		}
	case PatAtom:
		at, val := p.Atom, p.Val
		return func(_ *Engine, t *Term, _ []*Term) bool {
			a := atomValue(View(t))
			return a != nil && a.Atom == at && at.Equal(a.Val, val)
		}
	case PatMeta:
		return metaMatcher(p.Sort, p.Slot)
	case PatSame:
		slot := p.Slot
		return func(e *Engine, t *Term, b []*Term) bool { return b[slot] != nil && e.sameAtom(b[slot], t) }
	case PatCon:
		return conMatcher(p)
	case PatSeq:
		return seqMatcher(p)
	}
	return noMatch
}

// metaMatcher compiles a metavariable of the sort ms in the slot: the term it stands
// for (metaTest), if any, goes to the slot.
func metaMatcher(ms MetaSort, slot int) matcher {
	test := metaTest(ms)
	return func(e *Engine, t *Term, b []*Term) bool {
		u, ok := test(e, t)
		if ok {
			b[slot] = u
		}
		return ok
	}
}

// metaTest is what a metavariable of the sort ms stands for when it meets t, if it
// matches t: a variable's matches only a name, an atom's an atom of its type, an
// integer's an integer, a value's a value of its kind, a class's a term of the class;
// a variable stands for its closure (no chains of look-ups).
func metaTest(ms MetaSort) func(e *Engine, t *Term) (*Term, bool) {
	switch ms.Kind {
	case MetaVar:
		return func(_ *Engine, t *Term) (*Term, bool) { return t, IsName(t) }
	case MetaAtom:
		at := ms.Atom
		return func(_ *Engine, t *Term) (*Term, bool) {
			a := atomValue(View(t))
			return t, a != nil && a.Atom == at
		}
	case MetaInt:
		return func(_ *Engine, t *Term) (*Term, bool) {
			t = View(t)
			return t, isIntTerm(t)
		}
	case MetaValue:
		k := ms.ValuesOf
		return func(e *Engine, t *Term) (*Term, bool) {
			t = Resolve(t)
			return t, e.IsValue(t, k)
		}
	case MetaClass:
		c := ms.Class
		return func(e *Engine, t *Term) (*Term, bool) {
			t = Resolve(t)
			return t, e.InClass(t, c)
		}
	}
	return func(_ *Engine, t *Term) (*Term, bool) { return Resolve(t), true }
}

// conMatcher compiles a constructor pattern: the term's root (expanded) is the
// constructor, and its children match the sub-patterns, left to right. The arities up
// to three, those of nearly every constructor of the repository's files, are unrolled.
func conMatcher(p *Pattern) matcher {
	con := p.Con
	ms := make([]matcher, len(p.Args))
	for i, a := range p.Args {
		ms[i] = a.matcher
	}
	root := func(t *Term) *Term {
		if v := View(t); v.Op == TermCon && v.Con == con {
			return v
		}
		return nil
	}
	if order := p.Order; order != nil { // the arguments with an ellipsis last (seq.go)
		return func(e *Engine, t *Term, b []*Term) bool {
			v := root(t)
			if v == nil {
				return false
			}
			for _, i := range order {
				if !ms[i](e, v.Args[i], b) {
					return false
				}
			}
			return true
		}
	}
	switch len(ms) {
	case 0:
		return func(_ *Engine, t *Term, _ []*Term) bool { return root(t) != nil }
	case 1:
		m0 := ms[0]
		return func(e *Engine, t *Term, b []*Term) bool {
			v := root(t)
			return v != nil && m0(e, v.Args[0], b)
		}
	case 2:
		m0, m1 := ms[0], ms[1]
		return func(e *Engine, t *Term, b []*Term) bool {
			v := root(t)
			return v != nil && m0(e, v.Args[0], b) && m1(e, v.Args[1], b)
		}
	case 3:
		m0, m1, m2 := ms[0], ms[1], ms[2]
		return func(e *Engine, t *Term, b []*Term) bool {
			v := root(t)
			return v != nil && m0(e, v.Args[0], b) && m1(e, v.Args[1], b) && m2(e, v.Args[2], b)
		}
	}
	return func(e *Engine, t *Term, b []*Term) bool {
		v := root(t)
		if v == nil {
			return false
		}
		for i, m := range ms {
			if !m(e, v.Args[i], b) {
				return false
			}
		}
		return true
	}
}

// builderOf compiles the template p, whose children are compiled: a metavariable is
// its binding; an integer, an atom, a prim's result and a function's result are new
// leaves; (subst t x v) substitutes under the engine's discipline; a constructor
// builds a node of its children.
func builderOf(p *Pattern) builder {
	switch p.Kind {
	case PatMeta:
		slot := p.Slot
		return func(_ *Engine, b []*Term, _ Pos, _ int) (*Term, error) { return b[slot], nil }
	case PatInt:
		n := p.N
		return func(e *Engine, _ []*Term, at Pos, _ int) (*Term, error) { return e.intLeaf(at, n), nil }
	case PatAtom:
		a, v := p.Atom, p.Val
		return func(e *Engine, _ []*Term, at Pos, _ int) (*Term, error) { return e.leaf(AtomOf(at, a, v)), nil }
	case PatPrim:
		n, name := integerOf(p), p.Prim.Name
		return func(e *Engine, b []*Term, at Pos, _ int) (*Term, error) {
			v, ok, err := n(e, b)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, primUndefined(name)
			}
			return e.intLeaf(at, v), nil
		}
	case PatSubst:
		body, x, val := p.Args[0].builder, p.Args[1].Slot, p.Args[2].builder
		return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
			t, err := body(e, b, at, depth)
			if err != nil {
				return nil, err
			}
			v, err := val(e, b, at, depth)
			if err != nil {
				return nil, err
			}
			return e.Subst(t, b[x].Name, v), nil
		}
	case PatCall:
		return callBuilder(p)
	case PatCon:
		return conBuilder(p)
	case PatSeq:
		return seqBuilder(p)
	case PatPlug:
		c, body := p.Slot, p.Args[0].builder
		return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
			t, err := body(e, b, at, depth)
			if err != nil {
				return nil, err
			}
			return plugHole(b[c], t), nil
		}
	}
	return func(*Engine, []*Term, Pos, int) (*Term, error) { return nil, cannotBuild(p.Kind) }
}

// childBuilders are the compiled children of the template p.
func childBuilders(p *Pattern) []builder {
	bs := make([]builder, len(p.Args))
	for i, a := range p.Args {
		bs[i] = a.builder
	}
	return bs
}

// callBuilder compiles a call of a function: it is meta-level, computed on the terms
// the arguments stand for (read back), and its result is a term.
func callBuilder(p *Pattern) builder {
	f, args := p.Fn, childBuilders(p)
	return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
		// The arguments are on the engine's stack of bindings (a nested call's are
		// taken and released above them while they are built).
		ts := e.take(len(args))
		defer e.release(ts)
		for i, a := range args {
			t, err := a(e, b, at, depth+1)
			if err != nil {
				return nil, err
			}
			if e.env {
				t = readArg(t)
			}
			ts[i] = t
		}
		t, err := e.fns().call(f, ts, at, depth)
		if err != nil {
			return nil, err
		}
		return e.leaf(t), nil
	}
}

// conBuilder compiles a constructor's template: a node of the children built, one
// allocation for up to four of them (newNode), or with the constructors nested in it
// (skeletonBuilder); a constant, the engine's last node of it at the position
// (nullaryNode).
func conBuilder(p *Pattern) builder {
	if plan, ok := planSkeleton(p); ok {
		return skeletonBuilder(&plan)
	}
	con, args := p.Con, childBuilders(p)
	if len(args) == 0 {
		return func(e *Engine, _ []*Term, at Pos, _ int) (*Term, error) { return e.nullaryNode(con, at), nil }
	}
	return func(e *Engine, b []*Term, at Pos, depth int) (*Term, error) {
		n := newNode(at, con, len(args))
		for i, a := range args {
			var err error
			if n.Args[i], err = a(e, b, at, depth+1); err != nil {
				return nil, err
			}
		}
		return n, nil
	}
}

// integerOf compiles an integer argument of a prim: a literal, an integer
// metavariable, a prim, or a call of a function whose result is an integer.
func integerOf(p *Pattern) integer {
	switch p.Kind {
	case PatInt:
		n := p.N
		return func(*Engine, []*Term) (int64, bool, error) { return n, true, nil }
	case PatMeta:
		slot := p.Slot
		return func(_ *Engine, b []*Term) (int64, bool, error) {
			if t := b[slot]; t != nil {
				n, ok := intValue(View(t))
				return n, ok, nil
			}
			return 0, false, nil
		}
	case PatPrim:
		pr := p.Prim
		args := make([]integer, len(p.Args))
		for i, a := range p.Args {
			args[i] = a.integer
		}
		return func(e *Engine, b []*Term) (int64, bool, error) {
			ns := e.takeInts(len(args))
			defer e.releaseInts(ns)
			for i, a := range args {
				n, ok, err := a(e, b)
				if !ok || err != nil {
					return 0, false, err
				}
				ns[i] = n
			}
			n, ok := pr.Int(ns)
			return n, ok, nil
		}
	case PatCall:
		call, at := callBuilder(p), p.P
		return func(e *Engine, b []*Term) (int64, bool, error) {
			t, err := call(e, b, at, 0)
			if err != nil {
				return 0, false, err
			}
			n, ok := intValue(View(t))
			return n, ok, nil
		}
	}
	return func(*Engine, []*Term) (int64, bool, error) { return 0, false, nil }
}

// primUndefined is the failure of a prim undefined on its arguments (a division by
// zero).
func primUndefined(name string) error { return fmt.Errorf("prim %s is undefined here", name) }

// cannotBuild is the failure of a template that builds nothing.
func cannotBuild(k PatKind) error { return fmt.Errorf("cannot instantiate a %v", k) }
