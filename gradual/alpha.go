package gradual

// AlphaEqual reports whether two terms are equal up to renaming of bound variables
// (and up to positions). Types and coercions are compared exactly. It uses no
// recursion, so that it compares terms of any depth: the values a run builds nest
// as deep as the run makes them (a closure over a closure over ...).
func AlphaEqual(a, b Expr) bool {
	type item struct {
		p    *pairs
		a, b Expr
	}
	stack := []item{{nil, a, b}}
	push := func(p *pairs, a, b Expr) { stack = append(stack, item{p, a, b}) }
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p := it.p
		switch a := it.a.(type) {
		case *IntLit:
			b, ok := it.b.(*IntLit)
			if !ok || a.N != b.N {
				return false
			}
		case *BoolLit:
			b, ok := it.b.(*BoolLit)
			if !ok || a.B != b.B {
				return false
			}
		case *Var:
			b, ok := it.b.(*Var)
			if !ok || !p.related(a.Name, b.Name) {
				return false
			}
		case *Lam:
			b, ok := it.b.(*Lam)
			if !ok || !typesEqual(a.T, b.T) {
				return false
			}
			push(&pairs{a.Param, b.Param, p}, a.Body, b.Body)
		case *App:
			b, ok := it.b.(*App)
			if !ok {
				return false
			}
			push(p, a.Fun, b.Fun)
			push(p, a.Arg, b.Arg)
		case *Unary:
			b, ok := it.b.(*Unary)
			if !ok || a.Op != b.Op {
				return false
			}
			push(p, a.X, b.X)
		case *Binary:
			b, ok := it.b.(*Binary)
			if !ok || a.Op != b.Op {
				return false
			}
			push(p, a.X, b.X)
			push(p, a.Y, b.Y)
		case *If:
			b, ok := it.b.(*If)
			if !ok {
				return false
			}
			push(p, a.Cond, b.Cond)
			push(p, a.Then, b.Then)
			push(p, a.Else, b.Else)
		case *Asc:
			b, ok := it.b.(*Asc)
			if !ok || a.L != b.L || !typesEqual(a.T, b.T) {
				return false
			}
			push(p, a.X, b.X)
		case *Let:
			b, ok := it.b.(*Let)
			if !ok || !typesEqual(a.T, b.T) {
				return false
			}
			push(p, a.Bound, b.Bound)
			push(&pairs{a.Name, b.Name, p}, a.Body, b.Body)
		case *Letrec:
			b, ok := it.b.(*Letrec)
			if !ok || !typesEqual(a.T, b.T) {
				return false
			}
			q := &pairs{a.Name, b.Name, p}
			push(q, a.Fun, b.Fun)
			push(q, a.Body, b.Body)
		case *Cast:
			b, ok := it.b.(*Cast)
			if !ok || a.L != b.L || !typesEqual(a.Target, b.Target) || !typesEqual(a.Source, b.Source) {
				return false
			}
			push(p, a.X, b.X)
		case *Coerce:
			b, ok := it.b.(*Coerce)
			if !ok || !EqualCoercions(a.C, b.C) {
				return false
			}
			push(p, a.X, b.X)
		case *Blame:
			b, ok := it.b.(*Blame)
			if !ok || a.L != b.L {
				return false
			}
		default:
			return false
		}
	}
	return true
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
