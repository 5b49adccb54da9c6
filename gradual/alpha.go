package gradual

// AlphaEqual reports whether two terms are equal up to renaming of bound variables
// (and up to positions). Types and coercions are compared exactly.
func AlphaEqual(a, b Expr) bool {
	return alpha(nil, a, b)
}

// pairs records, innermost first, which bound names of a and b correspond.
type pairs struct {
	x, y string
	next *pairs
}

// related reports whether free-or-bound x in a corresponds to y in b.
func (p *pairs) related(x, y string) bool {
	for ; p != nil; p = p.next {
		if p.x == x || p.y == y {
			return p.x == x && p.y == y
		}
	}
	return x == y
}

func typesEqual(s, t Type) bool {
	if s == nil || t == nil {
		return s == nil && t == nil
	}
	return Identical(s, t)
}

func alpha(p *pairs, a, b Expr) bool {
	switch a := a.(type) {
	case *IntLit:
		b, ok := b.(*IntLit)
		return ok && a.N == b.N
	case *BoolLit:
		b, ok := b.(*BoolLit)
		return ok && a.B == b.B
	case *Var:
		b, ok := b.(*Var)
		return ok && p.related(a.Name, b.Name)
	case *Lam:
		b, ok := b.(*Lam)
		return ok && typesEqual(a.T, b.T) && alpha(&pairs{a.Param, b.Param, p}, a.Body, b.Body)
	case *App:
		b, ok := b.(*App)
		return ok && alpha(p, a.Fun, b.Fun) && alpha(p, a.Arg, b.Arg)
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && alpha(p, a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && alpha(p, a.X, b.X) && alpha(p, a.Y, b.Y)
	case *If:
		b, ok := b.(*If)
		return ok && alpha(p, a.Cond, b.Cond) && alpha(p, a.Then, b.Then) && alpha(p, a.Else, b.Else)
	case *Asc:
		b, ok := b.(*Asc)
		return ok && a.L == b.L && typesEqual(a.T, b.T) && alpha(p, a.X, b.X)
	case *Let:
		b, ok := b.(*Let)
		return ok && typesEqual(a.T, b.T) && alpha(p, a.Bound, b.Bound) &&
			alpha(&pairs{a.Name, b.Name, p}, a.Body, b.Body)
	case *Letrec:
		b, ok := b.(*Letrec)
		if !ok || !typesEqual(a.T, b.T) {
			return false
		}
		q := &pairs{a.Name, b.Name, p}
		return alpha(q, a.Fun, b.Fun) && alpha(q, a.Body, b.Body)
	case *Cast:
		b, ok := b.(*Cast)
		return ok && a.L == b.L && typesEqual(a.Target, b.Target) && typesEqual(a.Source, b.Source) && alpha(p, a.X, b.X)
	case *Coerce:
		b, ok := b.(*Coerce)
		return ok && EqualCoercions(a.C, b.C) && alpha(p, a.X, b.X)
	case *Blame:
		b, ok := b.(*Blame)
		return ok && a.L == b.L
	}
	return false
}
