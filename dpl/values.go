package dpl

import "errors"

// IsValue reports whether t is a value V ::= x | r | () | <V, W> (spec §3): values may
// have free variables, for differentiation.
func IsValue(t Term) bool {
	switch v := t.(type) {
	case *Var, *RealLit, *UnitLit:
		return true
	case *Pair:
		return v.valueKind() != notValue
	}
	return false
}

// IsClosedValue reports whether t is a value without free variables.
func IsClosedValue(t Term) bool {
	switch v := t.(type) {
	case *RealLit, *UnitLit:
		return true
	case *Pair:
		return v.valueKind() == closedValue
	}
	return false
}

// The kinds of pair, as Pair.valueKind works them out.
const (
	unknownKind uint32 = iota
	closedValue        // a value without free variables
	openValue          // a value with a free variable
	notValue
)

// valueKind classifies the pair, once: values share their components freely (let
// a = <b, b> in ...), so that a value built by n lets can have 2^n leaves, and
// walking it as a tree at every step (the reduction semantics decomposes from the root,
// substitution descends into terms) would cost time exponential in n. Each pair node
// is classified once, by a walk of the pairs not yet classified (its own stack: a
// value may nest as deep as a run builds it).
func (p *Pair) valueKind() uint32 {
	if k := p.kind.Load(); k != unknownKind {
		return k
	}
	kindOf := func(t Term) (uint32, *Pair) {
		switch v := t.(type) {
		case *RealLit, *UnitLit:
			return closedValue, nil
		case *Var:
			return openValue, nil
		case *Pair:
			if k := v.kind.Load(); k != unknownKind {
				return k, nil
			}
			return unknownKind, v
		}
		return notValue, nil
	}
	stack := []*Pair{p}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		kx, px := kindOf(q.X)
		ky, py := kindOf(q.Y)
		if px != nil || py != nil {
			if px != nil {
				stack = append(stack, px)
			}
			if py != nil {
				stack = append(stack, py)
			}
			continue
		}
		stack = stack[:len(stack)-1]
		q.kind.Store(max(kx, ky)) // notValue > openValue > closedValue
	}
	return p.kind.Load()
}

// TypeOfValue returns T_V, the unique type of the closed value v (spec §3); ok is false
// if v is not a closed value.
func TypeOfValue(v Term) (Type, bool) {
	switch v := v.(type) {
	case *RealLit:
		return Real, true
	case *UnitLit:
		return Unit, true
	case *Pair:
		if v.T != nil && v.U != nil && IsClosedValue(v) {
			return Times(v.T, v.U), true
		}
		t, ok1 := TypeOfValue(v.X)
		u, ok2 := TypeOfValue(v.Y)
		return Times(t, u), ok1 && ok2
	}
	return nil, false
}

// Zero is 0_T (spec §1): 0_real = 0, 0_unit = (), 0_(T*U) = <0_T, 0_U>_{T,U}.
func Zero(t Type) Term {
	switch t := t.(type) {
	case *Prod:
		return &Pair{X: Zero(t.Fst), Y: Zero(t.Snd), T: t.Fst, U: t.Snd}
	case Base:
		if t == Unit {
			return &UnitLit{}
		}
	}
	return &RealLit{R: 0}
}

// PlusT is M +_T N (paper §2): + at real; at other types componentwise, through lets,
// so that both operands are evaluated:
//
//	M +_unit N  = let x:unit = M in let y:unit = N in ()
//	M +_(T*U) N = let <x1:T, x2:U> = M in let <y1:T, y2:U> = N in <x1 +_T y1, x2 +_U y2>
//
// with fresh names from names.
func PlusT(names *Names, t Type, m, n Term) Term {
	switch t := t.(type) {
	case *Prod:
		x1, x2, y1, y2 := names.Fresh("x"), names.Fresh("x"), names.Fresh("y"), names.Fresh("y")
		ts := []Type{t.Fst, t.Snd}
		sum := &Pair{X: PlusT(names, t.Fst, &Var{Name: x1}, &Var{Name: y1}),
			Y: PlusT(names, t.Snd, &Var{Name: x2}, &Var{Name: y2}), T: t.Fst, U: t.Snd}
		return LetTuple(Pos{}, names, []string{x1, x2}, ts, m,
			LetTuple(Pos{}, names, []string{y1, y2}, ts, n, sum))
	case Base:
		if t == Unit {
			return &Let{Name: names.Fresh("x"), T: Unit, Bound: m,
				Body: &Let{Name: names.Fresh("y"), T: Unit, Bound: n, Body: &UnitLit{}}}
		}
	}
	return &Plus{P: m.Pos(), X: m, Y: n}
}

// LetTuple is let <x0:T0, ..., xk:Tk> = M in N, expanded as the paper does (§2): for
// k+1 = 0, let z:unit = M in N; for k+1 = 1, let x0:T0 = M in N; otherwise
//
//	let z:T0*...*Tk = M in
//	let <x0:T0, ..., xk-1:Tk-1> = fst_{T0*...*Tk-1,Tk}(z) in
//	let xk:Tk = snd_{T0*...*Tk-1,Tk}(z) in N
//
// with z fresh (from names). Unfolded, that is one chain of lets, which LetTuple
// builds in a loop (a pattern may be as long as its source): the fresh zk, ..., z1,
// each bound to the first component of the one before (zk to M), then x0 bound to the
// first component of z1, and x1, ..., xk to the second components of z1, ..., zk.
func LetTuple(pos Pos, names *Names, xs []string, ts []Type, m, n Term) Term {
	switch len(xs) {
	case 0:
		return &Let{P: pos, Name: names.Fresh("z"), T: Unit, Bound: m, Body: n}
	case 1:
		return &Let{P: pos, Name: xs[0], T: ts[0], Bound: m, Body: n}
	}
	k := len(xs) - 1
	inits := make([]Type, k+1) // inits[i] = T0*...*T(i-1), for i ≥ 1
	inits[1] = ts[0]
	for i := 2; i <= k; i++ {
		inits[i] = Times(inits[i-1], ts[i-1])
	}
	zs := make([]string, k+1)
	for i := k; i >= 1; i-- { // the order in which the recursive expansion takes them
		zs[i] = names.Fresh("z")
	}
	z := func(i int) Term { return &Var{P: pos, Name: zs[i]} }
	// The second components, innermost (xk, around N) first.
	body := n
	for i := k; i >= 1; i-- {
		body = &Let{P: pos, Name: xs[i], T: ts[i], Bound: &Snd{P: pos, X: z(i), T: inits[i], U: ts[i]}, Body: body}
	}
	body = &Let{P: pos, Name: xs[0], T: ts[0], Bound: &Fst{P: pos, X: z(1), T: inits[1], U: ts[1]}, Body: body}
	// The zs, z1 innermost.
	for i := 1; i <= k; i++ {
		var bound Term = m
		if i < k {
			bound = &Fst{P: pos, X: z(i + 1), T: inits[i+1], U: ts[i+1]}
		}
		body = &Let{P: pos, Name: zs[i], T: Times(inits[i], ts[i]), Bound: bound, Body: body}
	}
	return body
}

// Answer is the outcome of a run that did not run out of fuel: a closed value, or
// undefined (spec §2: the computation has no value), with its cause.
type Answer struct {
	Value     Term       // the value, when defined
	Undefined *Undefined // the cause, when undefined
}

// Observe is what a run prints: the value in input syntax (12, <3, 2>, ()), or
// "undefined".
func (a Answer) Observe() string {
	if a.Undefined != nil {
		return "undefined"
	}
	return Format(a.Value)
}

// String is the observation with the cause of undefinedness: "undefined: log(-1)".
func (a Answer) String() string {
	if a.Undefined != nil {
		return "undefined: " + Format(a.Undefined.Redex)
	}
	return Format(a.Value)
}

// IsTrace reports whether t is a trace term C (spec §3): built from variables, reals,
// +, operators, let, (), pairs and projections only — no if, letrec, call or rd. It
// uses no recursion.
func IsTrace(t Term) bool {
	for stack := []Term{t}; len(stack) > 0; {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t.(type) {
		case *Var, *RealLit, *UnitLit, *Plus, *OpApp, *Let, *Pair, *Fst, *Snd:
			stack = AppendChildren(stack, t)
		default:
			return false
		}
	}
	return true
}

// AnswerOf is the answer of a run that ended with the value v or the error err: an
// error carrying a *Undefined is the answer undefined (the program's meaning, not a
// failure); any other error is returned as it is.
func AnswerOf(v Term, err error) (Answer, error) {
	var u *Undefined
	if errors.As(err, &u) {
		return Answer{Undefined: u}, nil
	}
	if err != nil {
		return Answer{}, err
	}
	return Answer{Value: v}, nil
}
