package dpl

// The forward pass on the lets of a trace that Figure 5 writes, let x:T_V = C in for
// a redex C on values, one after the other: taper.let takes them here, without atom's
// general walk, when they are at the top of the chain (a TapeSink's, or R's on a
// trace term).

// redexAtom is atom for the bound terms a trace's lets nearly always have: a leaf,
// or op(V) or V + W on values (Figure 5's redexes; a value is a variable, a constant
// or a pair of values, at most valueDepth pairs deep). It gives the same atom and
// bindings as atom without atom's bookkeeping of scopes (no let) and depth (the
// caller's is 0: the few levels below fit), and the term's Depth; nil for any other
// term, for atom.
func (p *taper) redexAtom(c Term) (Term, int) {
	switch c := c.(type) {
	case *Var:
		if c != nil {
			return p.varAtom(c), 1
		}
	case *RealLit:
		if c != nil {
			return c, 1
		}
	case *UnitLit:
		if c != nil {
			return c, 1
		}
	case *OpApp:
		if a, d := p.valueAtom(c.Arg, valueDepth); a != nil {
			return p.bind(c.P, "a", c.Op.Cod, p.nodes.OpApp(c.P, c.Op, a), false), 1 + d
		}
	case *Plus:
		if a, d := p.valueAtom(c.X, valueDepth); a != nil {
			if b, e := p.valueAtom(c.Y, valueDepth); b != nil {
				return p.bind(c.P, "a", Real, p.nodes.Plus(c.P, a, b), false), 1 + max(d, e)
			}
		}
	}
	return nil, 0
}

// valueDepth bounds the pairs redexAtom takes in a value.
const valueDepth = 3

// valueAtom is atom for a value at most n pairs deep, with its Depth; nil for any
// other term (the pairs of the value before that are left to the collector: atom
// remakes them).
func (p *taper) valueAtom(v Term, n int) (Term, int) {
	switch v := v.(type) {
	case *Var:
		if v != nil {
			return p.varAtom(v), 1
		}
	case *RealLit:
		if v != nil {
			return v, 1
		}
	case *UnitLit:
		if v != nil {
			return v, 1
		}
	case *Pair:
		if n == 0 || v == nil {
			return nil, 0
		}
		a, d := p.valueAtom(v.X, n-1)
		if a == nil {
			return nil, 0
		}
		b, e := p.valueAtom(v.Y, n-1)
		if b == nil {
			return nil, 0
		}
		u, s := v.T, v.U
		if u == nil || s == nil {
			u, s = p.atomType(a), p.atomType(b)
		}
		return p.nodes.Pair(v.P, a, b, u, s), 1 + max(d, e)
	}
	return nil, 0
}

// varAtom is the atom of a variable: what the scope maps it to, or the variable
// itself (a free variable of C other than x, a constant). The variable a TapeSink has
// just bound (hot, a fresh name, bound once at the top of the chain, as Figure 5's
// lets are) is found without its name.
func (p *taper) varAtom(v *Var) Term {
	if v == p.hot && v != nil {
		return p.hotAtom
	}
	if a, ok := p.scope.Get(v.Name); ok {
		return a
	}
	return v
}
