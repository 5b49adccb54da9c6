package lambda

import "strconv"

// Prim is δ on integers: a op b, wrapping around on overflow (two's complement).
func Prim(op Op, a, b int64) (int64, bool) {
	switch op {
	case OpAdd:
		return a + b, true
	case OpSub:
		return a - b, true
	case OpMul:
		return a * b, true
	}
	return 0, false
}

// Delta is δ on constants: the constant n1 op n2, at position p. ok is false when the
// operands are not integer constants (which the type system rules out).
func Delta(p Pos, op Op, x, y Expr) (Expr, bool) {
	a, ok1 := x.(*IntLit)
	b, ok2 := y.(*IntLit)
	if !ok1 || !ok2 {
		return nil, false
	}
	n, ok := Prim(op, a.N, b.N)
	if !ok {
		return nil, false
	}
	return &IntLit{P: p, N: n}, true
}

// Subst is e[x := v] for a closed value v: since v has no free variables, no binder of
// e can capture it, and substitution stops only where x is rebound. It marks v, if it
// is a lambda, as closed, and goes into no lambda so marked, which has no free
// variable to substitute: so that a value a run substitutes is never walked again
// when later substitutions meet it inside a term (a closure over a closure over ...
// nests as deep as the run makes it, deeper than any program). It recurses into every
// other subterm, as deep as e nests outside its closed values.
func Subst(e Expr, x string, v Expr) Expr {
	if l, ok := v.(*Lam); ok {
		l.closed.Store(true)
	}
	return subst(e, x, v)
}

func subst(e Expr, x string, v Expr) Expr {
	switch e := e.(type) {
	case *Var:
		if e.Name == x {
			return v
		}
		return e
	case *IntLit:
		return e
	case *Lam:
		if e.Param == x || e.closed.Load() {
			return e
		}
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: subst(e.Body, x, v)}
	case *App:
		return &App{P: e.P, Fun: subst(e.Fun, x, v), Arg: subst(e.Arg, x, v)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: subst(e.X, x, v), Y: subst(e.Y, x, v)}
	case *If0:
		return &If0{P: e.P, Cond: subst(e.Cond, x, v), Then: subst(e.Then, x, v), Else: subst(e.Else, x, v)}
	case *Let:
		body := e.Body
		if e.Name != x {
			body = subst(body, x, v)
		}
		return &Let{P: e.P, Name: e.Name, Bound: subst(e.Bound, x, v), Body: body}
	case *Letrec:
		if e.Name == x {
			return e
		}
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: subst(e.Fun, x, v).(*Lam), Body: subst(e.Body, x, v)}
	}
	return e
}

// SubstAll is the simultaneous substitution e[x1 := v1, ..., xn := vn] of the closed
// values of sub: read-back (σ) substitutes an environment's values with it. It walks e
// once, and never into a value it puts in, so that it takes time and stack as e's
// size and depth however large and deep the values are.
func SubstAll(e Expr, sub map[string]Expr) Expr {
	if len(sub) == 0 {
		return e
	}
	s := substAll{sub: sub, hidden: map[string]int{}}
	return s.expr(e)
}

// substAll is SubstAll's walk: hidden counts, for each name of sub, the binders of it
// around the current subterm (where it is not substituted).
type substAll struct {
	sub    map[string]Expr
	hidden map[string]int
}

// under walks e under a binder of x.
func (s *substAll) under(x string, e Expr) Expr {
	if _, ok := s.sub[x]; !ok {
		return s.expr(e)
	}
	s.hidden[x]++
	e = s.expr(e)
	s.hidden[x]--
	return e
}

func (s *substAll) expr(e Expr) Expr {
	switch e := e.(type) {
	case *Var:
		if v, ok := s.sub[e.Name]; ok && s.hidden[e.Name] == 0 {
			return v
		}
		return e
	case *IntLit:
		return e
	case *Lam:
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: s.under(e.Param, e.Body)}
	case *App:
		return &App{P: e.P, Fun: s.expr(e.Fun), Arg: s.expr(e.Arg)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: s.expr(e.X), Y: s.expr(e.Y)}
	case *If0:
		return &If0{P: e.P, Cond: s.expr(e.Cond), Then: s.expr(e.Then), Else: s.expr(e.Else)}
	case *Let:
		return &Let{P: e.P, Name: e.Name, Bound: s.expr(e.Bound), Body: s.under(e.Name, e.Body)}
	case *Letrec:
		fun := s.under(e.Name, e.Fun).(*Lam)
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: fun, Body: s.under(e.Name, e.Body)}
	}
	return e
}

// rename is e[x := y] for a variable y that occurs nowhere in e (FreshName): no binder
// of e captures it. Unlike Subst it walks every lambda, closed ones included.
func rename(e Expr, x, y string) Expr {
	switch e := e.(type) {
	case *Var:
		if e.Name == x {
			return &Var{P: e.P, Name: y}
		}
		return e
	case *IntLit:
		return e
	case *Lam:
		if e.Param == x {
			return e
		}
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: rename(e.Body, x, y)}
	case *App:
		return &App{P: e.P, Fun: rename(e.Fun, x, y), Arg: rename(e.Arg, x, y)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: rename(e.X, x, y), Y: rename(e.Y, x, y)}
	case *If0:
		return &If0{P: e.P, Cond: rename(e.Cond, x, y), Then: rename(e.Then, x, y), Else: rename(e.Else, x, y)}
	case *Let:
		body := e.Body
		if e.Name != x {
			body = rename(body, x, y)
		}
		return &Let{P: e.P, Name: e.Name, Bound: rename(e.Bound, x, y), Body: body}
	case *Letrec:
		if e.Name == x {
			return e
		}
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: rename(e.Fun, x, y).(*Lam), Body: rename(e.Body, x, y)}
	}
	return e
}

// Unfold is the function a letrec binds, \x:S. (letrec f:T = \x:S. e in e): the
// right-hand side of the letrec rule, b[f := Unfold(l)], and what the
// environment-based stages bind f to, so that every call unfolds the recursion once
// more and every stage reports a letrec contraction per unfolding.
//
// The rule holds for x ≠ f only (the Letrec erratum, docs/references.md): where the
// parameter is named like the function, the inner letrec would capture the
// parameter's occurrences in e. Unfold then α-renames the parameter first, to a name
// x' that occurs nowhere in e: \x':S. (letrec f:T = \x:S. e in e[x := x']). Every
// stage unfolds through Unfold, so every stage renames alike.
//
// Terms are immutable, so the function is built once per letrec node and shared, and
// the letrec inside it unfolds to the same function.
func Unfold(l *Letrec) *Lam {
	if f := l.unfolded.Load(); f != nil {
		return f
	}
	param, body := l.Fun.Param, l.Fun.Body
	if param == l.Name {
		param = FreshName(param, body)
		body = rename(body, l.Fun.Param, param)
	}
	inner := &Letrec{P: l.P, Name: l.Name, T: l.T, Fun: l.Fun, Body: body}
	f := &Lam{P: l.Fun.P, Param: param, T: l.Fun.T, Body: inner}
	inner.unfolded.Store(f)
	l.unfolded.CompareAndSwap(nil, f)
	return l.unfolded.Load()
}

// Unfolding is the letrec an unfolded function starts with: l, when f's body is l and
// f is Unfold(l) (so that the letrec, evaluated in a call of f, binds its name to f
// itself); nil for any other function.
func Unfolding(f *Lam) *Letrec {
	if l, ok := f.Body.(*Letrec); ok && l.unfolded.Load() == f {
		return l
	}
	return nil
}

// FreshName is x followed by as many primes as it takes for a name that occurs
// nowhere in e, free or bound: renaming a variable to it captures nothing.
func FreshName(x string, e Expr) string {
	used := map[string]bool{}
	for stack := []Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Var:
			used[e.Name] = true
		case *Lam:
			used[e.Param] = true
		case *Let:
			used[e.Name] = true
		case *Letrec:
			used[e.Name] = true
		}
		stack = append(stack, Children(e)...)
	}
	for x += "'"; used[x]; x += "'" {
	}
	return x
}

// FreeVars is the set of the variables free in e. It uses no recursion.
func FreeVars(e Expr) map[string]bool {
	fv := map[string]bool{}
	bound := map[string]int{}
	type item struct {
		e      Expr
		unbind string // after the item's subterms: leave the binder of this name
		leave  bool
	}
	stack := []item{{e: e}}
	push := func(e Expr) { stack = append(stack, item{e: e}) }
	under := func(x string, body Expr) {
		bound[x]++
		stack = append(stack, item{unbind: x, leave: true}, item{e: body})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.leave {
			bound[it.unbind]--
			continue
		}
		switch e := it.e.(type) {
		case *Var:
			if bound[e.Name] == 0 {
				fv[e.Name] = true
			}
		case *Lam:
			under(e.Param, e.Body)
		case *Let:
			push(e.Bound)
			// The bound term is pushed first, so walked after the body: the body's
			// binder must be left by then.
			under(e.Name, e.Body)
		case *Letrec:
			bound[e.Name]++
			stack = append(stack, item{unbind: e.Name, leave: true}, item{e: e.Fun}, item{e: e.Body})
		default:
			for _, k := range Children(e) {
				push(k)
			}
		}
	}
	return fv
}

// AlphaEqual reports whether two terms are equal up to renaming of bound variables
// (and up to positions). It uses no recursion, so that it compares terms of any depth.
func AlphaEqual(a, b Expr) bool {
	type item struct {
		p    *pairs
		a, b Expr
	}
	stack := []item{{nil, a, b}}
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
		case *Var:
			b, ok := it.b.(*Var)
			if !ok || !p.related(a.Name, b.Name) {
				return false
			}
		case *Lam:
			b, ok := it.b.(*Lam)
			if !ok || !Equal(a.T, b.T) {
				return false
			}
			stack = append(stack, item{&pairs{a.Param, b.Param, p}, a.Body, b.Body})
		case *App:
			b, ok := it.b.(*App)
			if !ok {
				return false
			}
			stack = append(stack, item{p, a.Fun, b.Fun}, item{p, a.Arg, b.Arg})
		case *Binary:
			b, ok := it.b.(*Binary)
			if !ok || a.Op != b.Op {
				return false
			}
			stack = append(stack, item{p, a.X, b.X}, item{p, a.Y, b.Y})
		case *If0:
			b, ok := it.b.(*If0)
			if !ok {
				return false
			}
			stack = append(stack, item{p, a.Cond, b.Cond}, item{p, a.Then, b.Then}, item{p, a.Else, b.Else})
		case *Let:
			b, ok := it.b.(*Let)
			if !ok {
				return false
			}
			stack = append(stack, item{p, a.Bound, b.Bound}, item{&pairs{a.Name, b.Name, p}, a.Body, b.Body})
		case *Letrec:
			b, ok := it.b.(*Letrec)
			if !ok || !Equal(a.T, b.T) {
				return false
			}
			q := &pairs{a.Name, b.Name, p}
			stack = append(stack, item{q, a.Fun, b.Fun}, item{q, a.Body, b.Body})
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

// Answer is the outcome of a run: a value (an integer or a lambda).
type Answer struct{ Value Expr }

// Observe is what a run prints: an integer as itself, a function as "function".
func (a Answer) Observe() string {
	switch v := a.Value.(type) {
	case *IntLit:
		return strconv.FormatInt(v.N, 10)
	case *Lam:
		return "function"
	}
	return "?"
}

// String prints the answer in input syntax.
func (a Answer) String() string { return Format(a.Value) }
