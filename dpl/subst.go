package dpl

import "math"

// The functions of this file recurse over the syntax of their argument, at most as deep
// as it nests (Depth: they loop along let bodies, so that let-chains of any length take
// no stack; see MaxDepth); AlphaEqual uses no recursion.

// OccursFree reports whether the ordinary variable x occurs free in t.
func OccursFree(x string, t Term) bool {
	for {
		l, ok := t.(*Let)
		if !ok {
			break
		}
		if OccursFree(x, l.Bound) {
			return true
		}
		if l.Name == x {
			return false
		}
		t = l.Body
	}
	switch t := t.(type) {
	case *Var:
		return t.Name == x
	case *Letrec:
		return t.Param != x && OccursFree(x, t.Fun) || OccursFree(x, t.Body)
	case *Rd:
		return OccursFree(x, t.Cotangent) || OccursFree(x, t.Point) || t.Param != x && OccursFree(x, t.Body)
	case *Fd:
		return OccursFree(x, t.Cotangent) || OccursFree(x, t.Point) || t.Param != x && OccursFree(x, t.Body)
	}
	for _, c := range Children(t) {
		if OccursFree(x, c) {
			return true
		}
	}
	return false
}

// FreeVars returns FV(t), the free ordinary variables of t.
func FreeVars(t Term) map[string]bool {
	fv := map[string]bool{}
	bound := map[string]int{}
	var walk func(t Term)
	under := func(x string, body Term) {
		bound[x]++
		walk(body)
		bound[x]--
	}
	walk = func(t Term) {
		switch t := t.(type) {
		case *Var:
			if bound[t.Name] == 0 {
				fv[t.Name] = true
			}
		case *Let:
			// Along the chain, then out of the binders' scopes.
			var names []string
			var body Term = t
			for {
				l, ok := body.(*Let)
				if !ok {
					break
				}
				walk(l.Bound)
				bound[l.Name]++
				names = append(names, l.Name)
				body = l.Body
			}
			walk(body)
			for _, x := range names {
				bound[x]--
			}
		case *Letrec:
			under(t.Param, t.Fun)
			walk(t.Body)
		case *Rd:
			walk(t.Cotangent)
			walk(t.Point)
			under(t.Param, t.Body)
		case *Fd:
			walk(t.Cotangent)
			walk(t.Point)
			under(t.Param, t.Body)
		default:
			for _, c := range Children(t) {
				walk(c)
			}
		}
	}
	walk(t)
	return fv
}

// Subst is the capture-avoiding substitution t[s/x]. A binder of t that would capture a
// free variable of s is renamed to a fresh name.
func Subst(t Term, x string, s Term) Term {
	if IsClosedValue(s) {
		return substClosed(t, x, s)
	}
	sub := &substitution{
		lookup: func(y string) (Term, bool) {
			if y == x {
				return s, true
			}
			return nil, false
		},
		rangeFV: FreeVars(s),
		roots:   []Term{t, s},
	}
	return sub.apply(t)
}

// substClosed is t[v/x] for a closed value v, which no binder can capture: the
// substitution stops where x is rebound. It is the common case, kept fast.
func substClosed(t Term, x string, v Term) Term {
	switch n := t.(type) {
	case *Var:
		if n.Name == x {
			return v
		}
		return t
	case *RealLit, *UnitLit, *BoolLit, nil:
		return t
	case *Let:
		// Along the chain, up to a let that rebinds x, then rebuilt from the tail.
		var lets []*Let
		var bounds []Term
		var tail Term = n
		for {
			l, ok := tail.(*Let)
			if !ok {
				tail = substClosed(tail, x, v)
				break
			}
			lets, bounds = append(lets, l), append(bounds, substClosed(l.Bound, x, v))
			tail = l.Body
			if l.Name == x {
				break
			}
		}
		return rebuildLets(lets, bounds, nil, tail)
	case *Letrec:
		fun := n.Fun
		if n.Param != x {
			fun = substClosed(fun, x, v)
		}
		body := substClosed(n.Body, x, v)
		if fun == n.Fun && body == n.Body {
			return t
		}
		return &Letrec{P: n.P, Name: n.Name, Param: n.Param, ParamT: n.ParamT, ResT: n.ResT, Fun: fun, Body: body}
	case *Rd:
		m, l, body := substClosed(n.Cotangent, x, v), substClosed(n.Point, x, v), n.Body
		if n.Param != x {
			body = substClosed(body, x, v)
		}
		if m == n.Cotangent && l == n.Point && body == n.Body {
			return t
		}
		return &Rd{P: n.P, Cotangent: m, Point: l, Param: n.Param, T: n.T, Body: body}
	case *Fd:
		m, l, body := substClosed(n.Cotangent, x, v), substClosed(n.Point, x, v), n.Body
		if n.Param != x {
			body = substClosed(body, x, v)
		}
		if m == n.Cotangent && l == n.Point && body == n.Body {
			return t
		}
		return &Fd{P: n.P, Cotangent: m, Point: l, Param: n.Param, T: n.T, Body: body}
	case *Plus:
		a, b := substClosed(n.X, x, v), substClosed(n.Y, x, v)
		if a == n.X && b == n.Y {
			return t
		}
		return &Plus{P: n.P, X: a, Y: b}
	case *OpApp:
		a := substClosed(n.Arg, x, v)
		if a == n.Arg {
			return t
		}
		return &OpApp{P: n.P, Op: n.Op, Arg: a}
	case *Pair:
		if IsClosedValue(n) { // nothing to substitute: a closed value is shared as it is
			return t
		}
		a, b := substClosed(n.X, x, v), substClosed(n.Y, x, v)
		if a == n.X && b == n.Y {
			return t
		}
		return &Pair{P: n.P, X: a, Y: b, T: n.T, U: n.U}
	}
	kids := Children(t)
	changed := false
	next := make([]Term, len(kids))
	for i, c := range kids {
		next[i] = substClosed(c, x, v)
		changed = changed || next[i] != c
	}
	if !changed {
		return t
	}
	return withChildren(t, next)
}

// SubstValues is ρ(t): the simultaneous substitution, for every free variable y of t
// with rho(y) defined, of the closed value rho(y). Closed values cannot be captured.
func SubstValues(t Term, rho func(string) (Term, bool)) Term {
	sub := &substitution{lookup: rho}
	return sub.apply(t)
}

// RenameBinders returns t with every binder of an ordinary variable (let, letrec
// parameters, rd and fd variables) renamed to a fresh name from names: an α-equivalent
// term whose binders are all different from each other and from every other name.
func RenameBinders(t Term, names *Names) Term {
	sub := &substitution{lookup: func(string) (Term, bool) { return nil, false }, names: names, renameAll: true}
	return sub.apply(t)
}

// substitution is a simultaneous substitution σ. scope maps the variables bound
// around the current subterm to the names their binders now have (to themselves unless
// renamed): a bound variable is never substituted.
type substitution struct {
	lookup    func(string) (Term, bool)
	rangeFV   map[string]bool // the free variables of the range of σ (nil: closed)
	renameAll bool            // rename every binder
	names     *Names          // made on demand from roots
	roots     []Term
	scope     map[string]string
}

func (s *substitution) fresh(base string) string {
	if s.names == nil {
		s.names = NewNames(s.roots...)
	}
	return s.names.Fresh(base)
}

// bind enters the scope of binder x and returns its new name and a function that
// leaves the scope.
func (s *substitution) bind(x string) (string, func()) {
	if s.scope == nil {
		s.scope = map[string]string{}
	}
	to := x
	if s.renameAll || s.rangeFV[x] {
		to = s.fresh(x)
	}
	old, had := s.scope[x]
	s.scope[x] = to
	return to, func() {
		if had {
			s.scope[x] = old
		} else {
			delete(s.scope, x)
		}
	}
}

func (s *substitution) apply(t Term) Term {
	switch t := t.(type) {
	case *Var:
		if to, bound := s.scope[t.Name]; bound {
			if to == t.Name {
				return t
			}
			return &Var{P: t.P, Name: to}
		}
		if v, ok := s.lookup(t.Name); ok {
			return v
		}
		return t
	case *RealLit, *UnitLit, *BoolLit, nil:
		return t
	case *Plus:
		x, y := s.apply(t.X), s.apply(t.Y)
		if x == t.X && y == t.Y {
			return t
		}
		return &Plus{P: t.P, X: x, Y: y}
	case *OpApp:
		a := s.apply(t.Arg)
		if a == t.Arg {
			return t
		}
		return &OpApp{P: t.P, Op: t.Op, Arg: a}
	case *PredApp:
		a := s.apply(t.Arg)
		if a == t.Arg {
			return t
		}
		return &PredApp{P: t.P, Pred: t.Pred, Arg: a}
	case *Call:
		a := s.apply(t.Arg)
		if a == t.Arg {
			return t
		}
		return &Call{P: t.P, Name: t.Name, Arg: a, Clo: t.Clo}
	case *Pair:
		x, y := s.apply(t.X), s.apply(t.Y)
		if x == t.X && y == t.Y {
			return t
		}
		return &Pair{P: t.P, X: x, Y: y, T: t.T, U: t.U}
	case *Fst:
		x := s.apply(t.X)
		if x == t.X {
			return t
		}
		return &Fst{P: t.P, X: x, T: t.T, U: t.U}
	case *Snd:
		x := s.apply(t.X)
		if x == t.X {
			return t
		}
		return &Snd{P: t.P, X: x, T: t.T, U: t.U}
	case *If:
		c, th, el := s.apply(t.Cond), s.apply(t.Then), s.apply(t.Else)
		if c == t.Cond && th == t.Then && el == t.Else {
			return t
		}
		return &If{P: t.P, Cond: c, Then: th, Else: el}
	case *Let:
		// Along the chain (bound term, then binder, as the scopes nest), then out of the
		// binders' scopes, innermost first, and rebuilt from the tail.
		var lets []*Let
		var bounds []Term
		var names []string
		var leaves []func()
		var body Term = t
		for {
			l, ok := body.(*Let)
			if !ok {
				break
			}
			lets, bounds = append(lets, l), append(bounds, s.apply(l.Bound))
			name, leave := s.bind(l.Name)
			names, leaves = append(names, name), append(leaves, leave)
			body = l.Body
		}
		body = s.apply(body)
		for i := len(leaves) - 1; i >= 0; i-- {
			leaves[i]()
		}
		return rebuildLets(lets, bounds, names, body)
	case *Letrec:
		param, leave := s.bind(t.Param)
		fun := s.apply(t.Fun)
		leave()
		body := s.apply(t.Body)
		if param == t.Param && fun == t.Fun && body == t.Body {
			return t
		}
		return &Letrec{P: t.P, Name: t.Name, Param: param, ParamT: t.ParamT, ResT: t.ResT, Fun: fun, Body: body}
	case *Rd:
		m, l := s.apply(t.Cotangent), s.apply(t.Point)
		param, leave := s.bind(t.Param)
		body := s.apply(t.Body)
		leave()
		if m == t.Cotangent && l == t.Point && param == t.Param && body == t.Body {
			return t
		}
		return &Rd{P: t.P, Cotangent: m, Point: l, Param: param, T: t.T, Body: body}
	case *Fd:
		m, l := s.apply(t.Cotangent), s.apply(t.Point)
		param, leave := s.bind(t.Param)
		body := s.apply(t.Body)
		leave()
		if m == t.Cotangent && l == t.Point && param == t.Param && body == t.Body {
			return t
		}
		return &Fd{P: t.P, Cotangent: m, Point: l, Param: param, T: t.T, Body: body}
	}
	return t
}

// SubstClosure is t[clo/f] for the function variable f: every call of f free in t (not
// under a letrec that rebinds f, and not already resolved) becomes a call of the
// closure clo. Closures have no free ordinary variables, so nothing can be captured.
func SubstClosure(t Term, f string, clo *Closure) Term {
	switch t := t.(type) {
	case *Call:
		arg := SubstClosure(t.Arg, f, clo)
		if t.Name == f && t.Clo == nil {
			return &Call{P: t.P, Name: t.Name, Arg: arg, Clo: clo}
		}
		if arg == t.Arg {
			return t
		}
		return &Call{P: t.P, Name: t.Name, Arg: arg, Clo: t.Clo}
	case *Letrec:
		if t.Name == f {
			return t
		}
		fun, body := SubstClosure(t.Fun, f, clo), SubstClosure(t.Body, f, clo)
		if fun == t.Fun && body == t.Body {
			return t
		}
		return &Letrec{P: t.P, Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Fun: fun, Body: body}
	case *Let:
		var lets []*Let
		var bounds []Term
		var body Term = t
		for {
			l, ok := body.(*Let)
			if !ok {
				break
			}
			lets, bounds = append(lets, l), append(bounds, SubstClosure(l.Bound, f, clo))
			body = l.Body
		}
		return rebuildLets(lets, bounds, nil, SubstClosure(body, f, clo))
	case *Var, *RealLit, *UnitLit, *BoolLit, nil:
		return t
	}
	kids := Children(t)
	changed := false
	next := make([]Term, len(kids))
	for i, c := range kids {
		next[i] = SubstClosure(c, f, clo)
		changed = changed || next[i] != c
	}
	if !changed {
		return t
	}
	return withChildren(t, next)
}

// rebuildLets rebuilds the let-chain lets[0] ... lets[k-1] (each the body of the one
// before) with new bound terms, new binder names (names nil: unchanged) and the new
// body of the last, body; a let whose parts are unchanged is kept as it is.
func rebuildLets(lets []*Let, bounds []Term, names []string, body Term) Term {
	for i := len(lets) - 1; i >= 0; i-- {
		l := lets[i]
		name := l.Name
		if names != nil {
			name = names[i]
		}
		if bounds[i] == l.Bound && name == l.Name && body == l.Body {
			body = l
			continue
		}
		body = &Let{P: l.P, Name: name, T: l.T, Bound: bounds[i], Body: body}
	}
	return body
}

// withChildren rebuilds the node t with new children (in the order of Children).
func withChildren(t Term, k []Term) Term {
	switch t := t.(type) {
	case *Plus:
		return &Plus{P: t.P, X: k[0], Y: k[1]}
	case *OpApp:
		return &OpApp{P: t.P, Op: t.Op, Arg: k[0]}
	case *Let:
		return &Let{P: t.P, Name: t.Name, T: t.T, Bound: k[0], Body: k[1]}
	case *Pair:
		return &Pair{P: t.P, X: k[0], Y: k[1], T: t.T, U: t.U}
	case *Fst:
		return &Fst{P: t.P, X: k[0], T: t.T, U: t.U}
	case *Snd:
		return &Snd{P: t.P, X: k[0], T: t.T, U: t.U}
	case *If:
		return &If{P: t.P, Cond: k[0], Then: k[1], Else: k[2]}
	case *Letrec:
		return &Letrec{P: t.P, Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Fun: k[0], Body: k[1]}
	case *Call:
		return &Call{P: t.P, Name: t.Name, Arg: k[0], Clo: t.Clo}
	case *Rd:
		return &Rd{P: t.P, Cotangent: k[0], Point: k[1], Param: t.Param, T: t.T, Body: k[2]}
	case *Fd:
		return &Fd{P: t.P, Cotangent: k[0], Point: k[1], Param: t.Param, T: t.T, Body: k[2]}
	case *PredApp:
		return &PredApp{P: t.P, Pred: t.Pred, Arg: k[0]}
	}
	return t
}

// AlphaEqual reports whether a and b are equal up to renaming of bound variables
// (ordinary and function variables) and up to positions. Reals are compared by their
// float64 bits. Type subscripts of pairs and projections, which the type checker
// determines, and the closures of resolved calls are not compared; the types of lets
// are compared when both have one. It uses no recursion, so it compares terms of any
// depth.
func AlphaEqual(a, b Term) bool {
	type binding struct {
		fun        bool
		x, y       string
		oldX, oldY int
		hadX, hadY bool
	}
	type item struct {
		a, b Term
		bind *binding // enter the scope of a binder
		undo *binding // leave it
	}
	vars := [2]map[string]int{{}, {}}
	funs := [2]map[string]int{{}, {}}
	next := 0
	maps := func(bd *binding) (map[string]int, map[string]int) {
		if bd.fun {
			return funs[0], funs[1]
		}
		return vars[0], vars[1]
	}
	related := func(m [2]map[string]int, x, y string) bool {
		i, okx := m[0][x]
		j, oky := m[1][y]
		if okx || oky {
			return okx && oky && i == j
		}
		return x == y
	}
	sameType := func(s, t Type) bool { return s == nil || t == nil || Equal(s, t) }
	stack := []item{{a: a, b: b}}
	push := func(it ...item) { stack = append(stack, it...) }
	// scoped pushes the items that compare body under the binders x (in a) and y (in b).
	scoped := func(fun bool, x, y string, body ...item) {
		bd := &binding{fun: fun, x: x, y: y}
		push(item{undo: bd})
		push(body...)
		push(item{bind: bd})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case it.bind != nil:
			bd := it.bind
			mx, my := maps(bd)
			next++
			bd.oldX, bd.hadX = mx[bd.x]
			bd.oldY, bd.hadY = my[bd.y]
			mx[bd.x], my[bd.y] = next, next
			continue
		case it.undo != nil:
			bd := it.undo
			mx, my := maps(bd)
			if bd.hadX {
				mx[bd.x] = bd.oldX
			} else {
				delete(mx, bd.x)
			}
			if bd.hadY {
				my[bd.y] = bd.oldY
			} else {
				delete(my, bd.y)
			}
			continue
		}
		if isNil(it.a) || isNil(it.b) {
			if isNil(it.a) != isNil(it.b) {
				return false
			}
			continue
		}
		switch x := it.a.(type) {
		case *Var:
			y, ok := it.b.(*Var)
			if !ok || !related(vars, x.Name, y.Name) {
				return false
			}
		case *RealLit:
			y, ok := it.b.(*RealLit)
			if !ok || math.Float64bits(x.R) != math.Float64bits(y.R) {
				return false
			}
		case *UnitLit:
			if _, ok := it.b.(*UnitLit); !ok {
				return false
			}
		case *BoolLit:
			y, ok := it.b.(*BoolLit)
			if !ok || x.B != y.B {
				return false
			}
		case *Plus:
			y, ok := it.b.(*Plus)
			if !ok {
				return false
			}
			push(item{a: x.X, b: y.X}, item{a: x.Y, b: y.Y})
		case *OpApp:
			y, ok := it.b.(*OpApp)
			if !ok || x.Op == nil || y.Op == nil || x.Op.Name != y.Op.Name {
				return false
			}
			push(item{a: x.Arg, b: y.Arg})
		case *PredApp:
			y, ok := it.b.(*PredApp)
			if !ok || x.Pred == nil || y.Pred == nil || x.Pred.Name != y.Pred.Name {
				return false
			}
			push(item{a: x.Arg, b: y.Arg})
		case *Call:
			y, ok := it.b.(*Call)
			if !ok || !related(funs, x.Name, y.Name) {
				return false
			}
			push(item{a: x.Arg, b: y.Arg})
		case *Pair:
			y, ok := it.b.(*Pair)
			if !ok {
				return false
			}
			push(item{a: x.X, b: y.X}, item{a: x.Y, b: y.Y})
		case *Fst:
			y, ok := it.b.(*Fst)
			if !ok {
				return false
			}
			push(item{a: x.X, b: y.X})
		case *Snd:
			y, ok := it.b.(*Snd)
			if !ok {
				return false
			}
			push(item{a: x.X, b: y.X})
		case *If:
			y, ok := it.b.(*If)
			if !ok {
				return false
			}
			push(item{a: x.Cond, b: y.Cond}, item{a: x.Then, b: y.Then}, item{a: x.Else, b: y.Else})
		case *Let:
			y, ok := it.b.(*Let)
			if !ok || !sameType(x.T, y.T) {
				return false
			}
			push(item{a: x.Bound, b: y.Bound})
			scoped(false, x.Name, y.Name, item{a: x.Body, b: y.Body})
		case *Letrec:
			y, ok := it.b.(*Letrec)
			if !ok || !Equal(x.ParamT, y.ParamT) || !Equal(x.ResT, y.ResT) {
				return false
			}
			fun := &binding{fun: true, x: x.Name, y: y.Name}
			push(item{undo: fun}, item{a: x.Body, b: y.Body})
			scoped(false, x.Param, y.Param, item{a: x.Fun, b: y.Fun})
			push(item{bind: fun})
		case *Rd:
			y, ok := it.b.(*Rd)
			if !ok || !Equal(x.T, y.T) {
				return false
			}
			push(item{a: x.Cotangent, b: y.Cotangent}, item{a: x.Point, b: y.Point})
			scoped(false, x.Param, y.Param, item{a: x.Body, b: y.Body})
		case *Fd:
			y, ok := it.b.(*Fd)
			if !ok || !Equal(x.T, y.T) {
				return false
			}
			push(item{a: x.Cotangent, b: y.Cotangent}, item{a: x.Point, b: y.Point})
			scoped(false, x.Param, y.Param, item{a: x.Body, b: y.Body})
		default:
			return false
		}
	}
	return true
}
