package gradual

import "strconv"

// Delta is δ: the meaning of a primitive operator on constants. Integers are 64-bit
// and wrap around on overflow. ok is false when the arguments are not constants of
// the operator's types (which the type system rules out).
func Delta(p Pos, op Op, args ...Expr) (Expr, bool) {
	if want := 1; op.IsBinary() {
		want = 2
		if len(args) != want {
			return nil, false
		}
	} else if len(args) != want {
		return nil, false
	}
	a, ok := args[0].(*IntLit)
	if !ok {
		return nil, false
	}
	var b int64
	if op.IsBinary() {
		y, ok := args[1].(*IntLit)
		if !ok {
			return nil, false
		}
		b = y.N
	}
	n, truth, isBool, ok := Prim(op, a.N, b)
	switch {
	case !ok:
		return nil, false
	case isBool:
		return &BoolLit{P: p, B: truth}, true
	}
	return &IntLit{P: p, N: n}, true
}

// Prim is δ on the meanings of the constants: op applied to the integer a (and b, for
// a binary operator; ignored otherwise). The result is the integer n, or for zero?,
// = and < the boolean truth (isBool). ok is false for an unknown operator. Delta, and
// the environment-based stages' δ on run-time values, are Prim.
func Prim(op Op, a, b int64) (n int64, truth, isBool, ok bool) {
	switch op {
	case OpInc:
		return a + 1, false, false, true
	case OpDec:
		return a - 1, false, false, true
	case OpZero:
		return 0, a == 0, true, true
	case OpAdd:
		return a + b, false, false, true
	case OpSub:
		return a - b, false, false, true
	case OpMul:
		return a * b, false, false, true
	case OpEq:
		return 0, a == b, true, true
	case OpLt:
		return 0, a < b, true, true
	}
	return 0, false, false, false
}

// Subst is e[x := v], for a closed value v: since v has no free variables, no binder
// of e can capture it, and substitution stops only where x is rebound. It loops along
// a chain of lets (substLets) and recurses into every other subterm, as deep as e
// nests (Depth).
func Subst(e Expr, x string, v Expr) Expr {
	switch e := e.(type) {
	case *Var:
		if e.Name == x {
			return v
		}
		return e
	case *IntLit, *BoolLit, *Blame:
		return e
	case *Lam:
		if e.Param == x {
			return e
		}
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: Subst(e.Body, x, v)}
	case *App:
		return &App{P: e.P, Fun: Subst(e.Fun, x, v), Arg: Subst(e.Arg, x, v)}
	case *Unary:
		return &Unary{P: e.P, Op: e.Op, X: Subst(e.X, x, v)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: Subst(e.X, x, v), Y: Subst(e.Y, x, v)}
	case *If:
		return &If{P: e.P, Cond: Subst(e.Cond, x, v), Then: Subst(e.Then, x, v), Else: Subst(e.Else, x, v)}
	case *Asc:
		return &Asc{P: e.P, X: Subst(e.X, x, v), T: e.T, L: e.L}
	case *Let:
		return substLets(e, x, v)
	case *Letrec:
		if e.Name == x {
			return e
		}
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: Subst(e.Fun, x, v).(*Lam), Body: Subst(e.Body, x, v)}
	case *Cast:
		return &Cast{P: e.P, Target: e.Target, Source: e.Source, L: e.L, X: Subst(e.X, x, v)}
	case *Coerce:
		return &Coerce{P: e.P, C: e.C, X: Subst(e.X, x, v)}
	}
	return e
}

// substLets is Subst's case for a let, along the chain of lets that starts there: in
// a loop, up to the let that rebinds x (whose body is kept) or the end of the chain.
func substLets(e *Let, x string, v Expr) Expr {
	first := &Let{P: e.P, Name: e.Name, T: e.T, Bound: Subst(e.Bound, x, v)}
	last := first
	for last.Name != x {
		next, ok := e.Body.(*Let)
		if !ok {
			last.Body = Subst(e.Body, x, v)
			return first
		}
		e = next
		l := &Let{P: e.P, Name: e.Name, T: e.T, Bound: Subst(e.Bound, x, v)}
		last.Body, last = l, l
	}
	last.Body = e.Body
	return first
}

// SubstAll is the simultaneous substitution e[x1 := v1, ..., xn := vn] of the closed
// values of sub: read-back (σ) substitutes an environment's values with it. It walks
// e once and never into a value it puts in, so that it takes time and stack as e's
// size and depth, however large and deep the values are.
func SubstAll(e Expr, sub map[string]Expr) Expr {
	if len(sub) == 0 {
		return e
	}
	s := substAll{sub: sub, shadowed: map[string]int{}}
	return s.expr(e)
}

// substAll is SubstAll's walk: shadowed counts, for each name of sub, the binders of
// it around the current subterm (where it is not substituted).
type substAll struct {
	sub      map[string]Expr
	shadowed map[string]int
}

// bind enters the scope of a binder of x; unbind leaves it.
func (s *substAll) bind(x string) {
	if _, ok := s.sub[x]; ok {
		s.shadowed[x]++
	}
}

func (s *substAll) unbind(x string) {
	if _, ok := s.sub[x]; ok {
		s.shadowed[x]--
	}
}

func (s *substAll) expr(e Expr) Expr {
	switch e := e.(type) {
	case *Var:
		if v, ok := s.sub[e.Name]; ok && s.shadowed[e.Name] == 0 {
			return v
		}
		return e
	case *IntLit, *BoolLit, *Blame:
		return e
	case *Lam:
		s.bind(e.Param)
		body := s.expr(e.Body)
		s.unbind(e.Param)
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: body}
	case *App:
		return &App{P: e.P, Fun: s.expr(e.Fun), Arg: s.expr(e.Arg)}
	case *Unary:
		return &Unary{P: e.P, Op: e.Op, X: s.expr(e.X)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: s.expr(e.X), Y: s.expr(e.Y)}
	case *If:
		return &If{P: e.P, Cond: s.expr(e.Cond), Then: s.expr(e.Then), Else: s.expr(e.Else)}
	case *Asc:
		return &Asc{P: e.P, X: s.expr(e.X), T: e.T, L: e.L}
	case *Let:
		// Along the chain of lets, in a loop.
		var names []string
		first := &Let{P: e.P, Name: e.Name, T: e.T, Bound: s.expr(e.Bound)}
		s.bind(e.Name)
		names = append(names, e.Name)
		last := first
		for {
			next, ok := e.Body.(*Let)
			if !ok {
				break
			}
			e = next
			l := &Let{P: e.P, Name: e.Name, T: e.T, Bound: s.expr(e.Bound)}
			s.bind(e.Name)
			names = append(names, e.Name)
			last.Body, last = l, l
		}
		last.Body = s.expr(e.Body)
		for _, x := range names {
			s.unbind(x)
		}
		return first
	case *Letrec:
		s.bind(e.Name)
		fun := s.expr(e.Fun).(*Lam)
		body := s.expr(e.Body)
		s.unbind(e.Name)
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: fun, Body: body}
	case *Cast:
		return &Cast{P: e.P, Target: e.Target, Source: e.Source, L: e.L, X: s.expr(e.X)}
	case *Coerce:
		return &Coerce{P: e.P, C: e.C, X: s.expr(e.X)}
	}
	return e
}

// FreeVars is the set of the variables free in e. It loops along chains of lets and
// recurses into every other subterm.
func FreeVars(e Expr) map[string]bool {
	fv := map[string]bool{}
	bound := map[string]int{}
	var walk func(e Expr)
	walk = func(e Expr) {
		switch e := e.(type) {
		case *Var:
			if bound[e.Name] == 0 {
				fv[e.Name] = true
			}
		case *Lam:
			bound[e.Param]++
			walk(e.Body)
			bound[e.Param]--
		case *Let:
			var names []string
			for {
				walk(e.Bound)
				bound[e.Name]++
				names = append(names, e.Name)
				next, ok := e.Body.(*Let)
				if !ok {
					break
				}
				e = next
			}
			walk(e.Body)
			for _, x := range names {
				bound[x]--
			}
		case *Letrec:
			bound[e.Name]++
			if e.Fun != nil {
				walk(e.Fun)
			}
			walk(e.Body)
			bound[e.Name]--
		default:
			for _, c := range syntaxChildren(e) {
				walk(c)
			}
		}
	}
	walk(e)
	return fv
}

// Translate replaces every type-based cast <T <= S>^l e of a cast-calculus term by the
// coercion application <⟨⟨T ⇐ S⟩⟩^l> e of sem: done once, before any stage runs. It
// loops along a chain of lets and recurses into every other subterm.
func Translate(sem Semantics, e Expr) Expr {
	switch e := e.(type) {
	case *Cast:
		return &Coerce{P: e.P, C: sem.Translate(e.Target, e.Source, e.L), X: Translate(sem, e.X)}
	case *Lam:
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: Translate(sem, e.Body)}
	case *App:
		return &App{P: e.P, Fun: Translate(sem, e.Fun), Arg: Translate(sem, e.Arg)}
	case *Unary:
		return &Unary{P: e.P, Op: e.Op, X: Translate(sem, e.X)}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: Translate(sem, e.X), Y: Translate(sem, e.Y)}
	case *If:
		return &If{P: e.P, Cond: Translate(sem, e.Cond), Then: Translate(sem, e.Then), Else: Translate(sem, e.Else)}
	case *Let:
		first := &Let{P: e.P, Name: e.Name, T: e.T, Bound: Translate(sem, e.Bound)}
		last := first
		for {
			next, ok := e.Body.(*Let)
			if !ok {
				break
			}
			e = next
			l := &Let{P: e.P, Name: e.Name, T: e.T, Bound: Translate(sem, e.Bound)}
			last.Body, last = l, l
		}
		last.Body = Translate(sem, e.Body)
		return first
	case *Letrec:
		return &Letrec{P: e.P, Name: e.Name, T: e.T, Fun: Translate(sem, e.Fun).(*Lam), Body: Translate(sem, e.Body)}
	case *Coerce:
		return &Coerce{P: e.P, C: e.C, X: Translate(sem, e.X)}
	case *Asc:
		return &Asc{P: e.P, X: Translate(sem, e.X), T: e.T, L: e.L}
	}
	return e
}

// Answer is the outcome of a run that did not run out of fuel: a value, or blame.
type Answer struct {
	Value Expr  // the value, when not blamed
	Blame Label // the label, when Blamed
	// Blamed distinguishes blame (with its label) from a value.
	Blamed bool
}

// Observe is the observation of spec §4 (Siek & Garcia): a constant prints as itself,
// a function (a lambda or a value wrapped by c -> d) as "function", an injected value
// as "dynamic", blame as "blame l".
func (a Answer) Observe() string {
	if a.Blamed {
		return "blame " + string(a.Blame)
	}
	switch v := a.Value.(type) {
	case *IntLit:
		return strconv.FormatInt(v.N, 10)
	case *BoolLit:
		return strconv.FormatBool(v.B)
	case *Lam:
		return "function"
	case *Coerce:
		if _, ok := v.C.(*Func); ok {
			return "function"
		}
		return "dynamic"
	}
	return "?"
}

// String prints the answer in cast-calculus syntax: the value, or blame l.
func (a Answer) String() string {
	if a.Blamed {
		return "blame " + string(a.Blame)
	}
	return Format(a.Value)
}

// Unfold is the function a letrec binds, \x:S. (letrec f:T = \x:S. e in e): the
// right-hand side of the Letrec rule, b[f := Unfold(l)], and what the
// environment-based stages bind f to, so that every call unfolds the recursion once
// more and every stage reports a Letrec contraction per unfolding.
//
// The rule holds for x ≠ f only (spec §4, erratum): where the parameter is named like
// the function, the inner letrec would capture the parameter's occurrences in e. Unfold
// then α-renames the parameter first, to a name x' that occurs nowhere in e:
// \x':S. (letrec f:T = \x:S. e in e[x := x']). Every stage unfolds through Unfold, so
// every stage renames alike.
//
// Terms are immutable, so the function is built once per letrec node and shared: the
// environment-based stages unfold on every recursive call.
func Unfold(l *Letrec) *Lam {
	if f := l.unfolded.Load(); f != nil {
		return f
	}
	param, body := l.Fun.Param, l.Fun.Body
	if param == l.Name {
		param = FreshName(param, body)
		body = Subst(body, l.Fun.Param, &Var{P: l.Fun.P, Name: param})
	}
	inner := &Letrec{P: l.P, Name: l.Name, T: l.T, Fun: l.Fun, Body: body}
	f := &Lam{P: l.Fun.P, Param: param, T: l.Fun.T, Body: inner}
	inner.unfolded.Store(f) // unfolding the unfolded letrec gives the same function
	l.unfolded.CompareAndSwap(nil, f)
	return l.unfolded.Load()
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
		stack = append(stack, syntaxChildren(e)...)
	}
	for x += "'"; used[x]; x += "'" {
	}
	return x
}

// Unfolding is the letrec an unfolded letrec function starts with: l, when f's body
// is l and f is Unfold(l) (so that a call of f binds l's name to f itself); nil for
// any other function. It builds nothing.
func Unfolding(f *Lam) *Letrec {
	if l, ok := f.Body.(*Letrec); ok && l.unfolded.Load() == f {
		return l
	}
	return nil
}

// MakesNoClosure reports whether no closure made while a call of f runs can hold the
// call's environment: f's body holds no lambda and no letrec — past, when f is
// Unfold(l), the letrec it starts with, whose binding is the function called
// (castval.BindLetrec finds it in the call's environment). An environment-based
// evaluator may then reuse the storage of the call's bindings once the call has
// returned, or made its own call in tail position: nothing else can reach them. The
// answer is computed once per lambda (terms are immutable).
func MakesNoClosure(f *Lam) bool {
	switch f.noClosure.Load() {
	case 1:
		return true
	case 2:
		return false
	}
	body := f.Body
	if l := Unfolding(f); l != nil {
		body = l.Body
	}
	answer := uint32(1)
	for stack := []Expr{body}; len(stack) > 0 && answer == 1; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e.(type) {
		case *Lam, *Letrec:
			answer = 2
		}
		stack = append(stack, syntaxChildren(e)...)
	}
	f.noClosure.Store(answer)
	return answer == 1
}
