package abductive

import "math"

// AlphaEqual reports whether two terms are equal up to renaming of bound variables
// (and up to positions): the same structure, numbers (bit for bit but for NaN, equal
// to itself), labels, provisional constants and footprints (a lambda's or an abduct's
// as FootprintOf gives it). It uses no recursion, so that it compares terms of any
// depth.
func AlphaEqual(a, b Expr) bool {
	type item struct {
		p    *pairs
		a, b Expr
	}
	stack := []item{{nil, a, b}}
	// Pairs of closed functions met already: compared once (they are equal, or the
	// comparison fails), however often the terms share them.
	type pair struct{ a, b Expr }
	seen := map[pair]bool{}
	closedPair := func(a, b Expr) bool {
		if !isClosedFun(a) || !isClosedFun(b) {
			return false
		}
		if seen[pair{a, b}] {
			return true
		}
		seen[pair{a, b}] = true
		return false
	}
	push := func(p *pairs, xs, ys []Expr) bool {
		if len(xs) != len(ys) {
			return false
		}
		for i := range xs {
			stack = append(stack, item{p, xs[i], ys[i]})
		}
		return true
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p := it.p
		if closedPair(it.a, it.b) {
			continue
		}
		switch a := it.a.(type) {
		case *Num:
			b, ok := it.b.(*Num)
			if !ok || !sameReal(a.V, b.V) || !a.Foot.Equal(b.Foot) {
				return false
			}
		case *Param:
			b, ok := it.b.(*Param)
			if !ok || !sameReal(a.R, b.R) || a.Label != b.Label {
				return false
			}
		case *Label:
			b, ok := it.b.(*Label)
			if !ok || a.N != b.N || !a.Foot.Equal(b.Foot) {
				return false
			}
		case *Var:
			b, ok := it.b.(*Var)
			if !ok || !p.related(a.Name, b.Name) {
				return false
			}
		case *Lam:
			b, ok := it.b.(*Lam)
			if !ok || !TypesEqual(a.T, b.T) || !FootprintOf(a).Equal(FootprintOf(b)) {
				return false
			}
			stack = append(stack, item{&pairs{a.Param, b.Param, p}, a.Body, b.Body})
		case *Abduct:
			b, ok := it.b.(*Abduct)
			if !ok || !FootprintOf(a).Equal(FootprintOf(b)) {
				return false
			}
			q := &pairs{a.Par, b.Par, &pairs{a.F, b.F, p}}
			stack = append(stack, item{q, a.Body, b.Body})
		case *App:
			b, ok := it.b.(*App)
			if !ok {
				return false
			}
			push(p, []Expr{a.Fun, a.Arg}, []Expr{b.Fun, b.Arg})
		case *Binary:
			b, ok := it.b.(*Binary)
			if !ok || a.Op != b.Op || a.From != b.From {
				return false
			}
			push(p, []Expr{a.X, a.Y}, []Expr{b.X, b.Y})
		case *Let:
			b, ok := it.b.(*Let)
			if !ok {
				return false
			}
			stack = append(stack, item{p, a.Bound, b.Bound}, item{&pairs{a.Name, b.Name, p}, a.Body, b.Body})
		case *Resid:
			b, ok := it.b.(*Resid)
			if !ok || a.Op != b.Op || !a.Foot.Equal(b.Foot) {
				return false
			}
			push(p, []Expr{a.X, a.Y}, []Expr{b.X, b.Y})
		case *Vec:
			b, ok := it.b.(*Vec)
			if !ok || !a.Foot.Equal(b.Foot) || !push(p, a.Elems, b.Elems) {
				return false
			}
		case *Mark:
			b, ok := it.b.(*Mark)
			if !ok || !a.Foot.Equal(b.Foot) {
				return false
			}
			stack = append(stack, item{p, a.Body, b.Body})
		default:
			return false
		}
	}
	return true
}

// isClosedFun reports whether e is a function known to be closed (Subst was given it
// as a value).
func isClosedFun(e Expr) bool {
	switch e := e.(type) {
	case *Lam:
		return e.fn.closed.Load()
	case *Abduct:
		return e.fn.closed.Load()
	}
	return false
}

// sameReal reports whether two numbers are the same float64, NaN being itself.
func sameReal(a, b float64) bool {
	return a == b && (a != 0 || math.Signbit(a) == math.Signbit(b)) || math.IsNaN(a) && math.IsNaN(b)
}

// pairs records, innermost first, which bound names of a and b correspond.
type pairs struct {
	x, y string
	next *pairs
}

// related reports whether x in a corresponds to y in b: bound together by the
// innermost binder of either, or both free and the same name.
func (p *pairs) related(x, y string) bool {
	for ; p != nil; p = p.next {
		if p.x == x || p.y == y {
			return p.x == x && p.y == y
		}
	}
	return x == y
}

// TypesEqual reports whether two annotations are the same: F, V (which annotation
// says nothing of which decoupling's), or arrows of equal types.
func TypesEqual(s, t Type) bool {
	for {
		a, ok1 := s.(*Arrow)
		b, ok2 := t.(*Arrow)
		if !ok1 || !ok2 {
			if ok1 || ok2 {
				return false
			}
			_, f1 := s.(FieldType)
			_, f2 := t.(FieldType)
			_, v1 := s.(*VecType)
			_, v2 := t.(*VecType)
			return f1 && f2 || v1 && v2
		}
		if !TypesEqual(a.From, b.From) {
			return false
		}
		s, t = a.To, b.To
	}
}
