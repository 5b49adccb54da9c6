package dpl

import (
	"fmt"

	"github.com/interderive/interderive"
)

// varEnv is a typing environment Γ: a persistent list of bindings. A function body
// starts a new Γ holding only the parameter; outer remembers the Γ it hides, for the
// error message.
type varEnv struct {
	name  string
	t     Type
	next  *varEnv
	outer *varEnv // at the first binding of a function body: the Γ around the letrec
	fun   string  // the function whose body this Γ starts
}

// funEnv is a function typing environment Φ.
type funEnv struct {
	name string
	t, u Type
	next *funEnv
}

func (p *funEnv) lookup(f string) (t, u Type, ok bool) {
	for ; p != nil; p = p.next {
		if p.name == f {
			return p.t, p.u, true
		}
	}
	return nil, nil, false
}

// TypeEnv types the free ordinary variables of an open term.
type TypeEnv func(x string) (Type, bool)

func typeErr(p Pos, format string, args ...any) error {
	return interderive.ErrorList{interderive.Errorf(p, format, args...)}
}

// Check type-checks a closed program by the rules of Figure 1 (spec §1) and
// elaborates it: it returns the program with the type subscripts of pairs and
// projections filled in, the types of unannotated lets inferred, and every
// M.fd[L](x:T. N) expanded to M.rd[0_U](y:U. y.rd[L](x:T. N)) (U the type of N, y a
// fresh name). In letrec f(x:T):U = M in N, M is checked with only x:T in scope: a
// free ordinary variable in a function body is a type error (function variables are
// allowed). A boolean term (pred(M), true, false) may only be the condition of an if.
// Errors are positioned (an interderive.ErrorList); a term nested deeper than MaxDepth
// gives an *interderive.DepthError.
func Check(t Term) (Term, Type, error) { return CheckIn(nil, t) }

// CheckIn is Check for an open term whose free ordinary variables gamma types (nil:
// none). It also accepts resolved calls (typed by their closures): the terms the stages
// build at run time type-check with it.
func CheckIn(gamma TypeEnv, t Term) (Term, Type, error) {
	c := &checker{outer: gamma, names: NewNames(t)}
	return c.term(nil, nil, t)
}

type checker struct {
	outer TypeEnv
	names *Names
	depth int
}

func (c *checker) lookupVar(g *varEnv, x string) (Type, bool) {
	for e := g; e != nil; e = e.next {
		if e.name == x {
			return e.t, true
		}
		if e.fun != "" { // the start of a function body: nothing outside is visible
			return nil, false
		}
	}
	if c.outer != nil {
		return c.outer(x)
	}
	return nil, false
}

// hiddenBy reports the function whose body hides an outer binding of x, if any.
func (c *checker) hiddenBy(g *varEnv, x string) (string, bool) {
	for e := g; e != nil; e = e.next {
		if e.fun != "" {
			if _, ok := c.lookupVar(e.outer, x); ok {
				return e.fun, true
			}
			return c.hiddenBy(e.outer, x)
		}
	}
	return "", false
}

func (c *checker) term(phi *funEnv, g *varEnv, t Term) (Term, Type, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > MaxDepth+maxDepth {
		return nil, nil, &interderive.DepthError{What: "term", Limit: MaxDepth}
	}
	switch t := t.(type) {
	case *Var:
		ty, ok := c.lookupVar(g, t.Name)
		if ok {
			return t, ty, nil
		}
		if f, ok := c.hiddenBy(g, t.Name); ok {
			return nil, nil, typeErr(t.P, "%s is not in scope in the body of %s: a function body sees only its parameter (pass %s as an argument)", t.Name, f, t.Name)
		}
		if _, _, ok := phi.lookup(t.Name); ok {
			return nil, nil, typeErr(t.P, "%s is a function, not a value: call it as %s(M)", t.Name, t.Name)
		}
		return nil, nil, typeErr(t.P, "unbound variable %s", t.Name)
	case *RealLit:
		return t, Real, nil
	case *UnitLit:
		return t, Unit, nil
	case *BoolLit, *PredApp:
		return nil, nil, typeErr(t.Pos(), "%s is a boolean term: it can only be the condition of an if", Format(t))
	case *Plus:
		x, s1, err := c.term(phi, g, t.X)
		if err != nil {
			return nil, nil, err
		}
		y, s2, err := c.term(phi, g, t.Y)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s1, Real) {
			return nil, nil, typeErr(t.X.Pos(), "+ expects real on its left, but the operand has type %s", s1)
		}
		if !Equal(s2, Real) {
			return nil, nil, typeErr(t.Y.Pos(), "+ expects real on its right, but the operand has type %s", s2)
		}
		return &Plus{P: t.P, X: x, Y: y}, Real, nil
	case *OpApp:
		if t.Op == nil {
			return nil, nil, typeErr(t.P, "operator application without an operator")
		}
		a, s, err := c.term(phi, g, t.Arg)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.Op.Dom) {
			return nil, nil, typeErr(t.Arg.Pos(), "%s expects an argument of type %s, but this one has type %s", t.Op.Name, t.Op.Dom, s)
		}
		return &OpApp{P: t.P, Op: t.Op, Arg: a}, t.Op.Cod, nil
	case *Let:
		bound, s, err := c.term(phi, g, t.Bound)
		if err != nil {
			return nil, nil, err
		}
		if t.T != nil && !Equal(s, t.T) {
			return nil, nil, typeErr(t.Bound.Pos(), "%s is declared %s, but is bound to a term of type %s", t.Name, t.T, s)
		}
		body, u, err := c.term(phi, &varEnv{name: t.Name, t: s, next: g}, t.Body)
		if err != nil {
			return nil, nil, err
		}
		return &Let{P: t.P, Name: t.Name, T: s, Bound: bound, Body: body}, u, nil
	case *Pair:
		x, s, err := c.term(phi, g, t.X)
		if err != nil {
			return nil, nil, err
		}
		y, u, err := c.term(phi, g, t.Y)
		if err != nil {
			return nil, nil, err
		}
		return &Pair{P: t.P, X: x, Y: y, T: s, U: u}, Times(s, u), nil
	case *Fst, *Snd:
		arg := Children(t)[0]
		x, s, err := c.term(phi, g, arg)
		if err != nil {
			return nil, nil, err
		}
		p, ok := s.(*Prod)
		if !ok {
			return nil, nil, typeErr(arg.Pos(), "%s expects a pair, but its argument has type %s", projName(t), s)
		}
		if _, isFst := t.(*Fst); isFst {
			return &Fst{P: t.Pos(), X: x, T: p.Fst, U: p.Snd}, p.Fst, nil
		}
		return &Snd{P: t.Pos(), X: x, T: p.Fst, U: p.Snd}, p.Snd, nil
	case *If:
		cond, err := c.boolean(phi, g, t.Cond)
		if err != nil {
			return nil, nil, err
		}
		th, s, err := c.term(phi, g, t.Then)
		if err != nil {
			return nil, nil, err
		}
		el, u, err := c.term(phi, g, t.Else)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, u) {
			return nil, nil, typeErr(t.P, "the branches of if have different types %s and %s", s, u)
		}
		return &If{P: t.P, Cond: cond, Then: th, Else: el}, s, nil
	case *Letrec:
		if _, ok := LookupOperator(t.Name); ok {
			return nil, nil, typeErr(t.P, "%s is an operator: a function cannot be named after it", t.Name)
		}
		if _, ok := LookupPredicate(t.Name); ok {
			return nil, nil, typeErr(t.P, "%s is a predicate: a function cannot be named after it", t.Name)
		}
		inner := &funEnv{name: t.Name, t: t.ParamT, u: t.ResT, next: phi}
		fun, u, err := c.term(inner, &varEnv{name: t.Param, t: t.ParamT, outer: g, fun: t.Name}, t.Fun)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(u, t.ResT) {
			return nil, nil, typeErr(t.Fun.Pos(), "%s is declared to return %s, but its body has type %s", t.Name, t.ResT, u)
		}
		body, s, err := c.term(inner, g, t.Body)
		if err != nil {
			return nil, nil, err
		}
		return &Letrec{P: t.P, Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Fun: fun, Body: body}, s, nil
	case *Call:
		var pt, rt Type
		if t.Clo != nil {
			pt, rt = t.Clo.ParamT, t.Clo.ResT
		} else {
			var ok bool
			if pt, rt, ok = phi.lookup(t.Name); !ok {
				if _, isVar := c.lookupVar(g, t.Name); isVar {
					return nil, nil, typeErr(t.P, "%s is a variable, not a function", t.Name)
				}
				return nil, nil, typeErr(t.P, "unknown function or operator %s", t.Name)
			}
		}
		a, s, err := c.term(phi, g, t.Arg)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, pt) {
			return nil, nil, typeErr(t.Arg.Pos(), "%s expects an argument of type %s, but this one has type %s", t.Name, pt, s)
		}
		return &Call{P: t.P, Name: t.Name, Arg: a, Clo: t.Clo}, rt, nil
	case *Rd:
		m, u1, err := c.term(phi, g, t.Cotangent)
		if err != nil {
			return nil, nil, err
		}
		l, s, err := c.term(phi, g, t.Point)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.T) {
			return nil, nil, typeErr(t.Point.Pos(), "the point of rd has type %s, but %s has type %s", s, t.Param, t.T)
		}
		n, u, err := c.term(phi, &varEnv{name: t.Param, t: t.T, next: g}, t.Body)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(u1, u) {
			return nil, nil, typeErr(t.Cotangent.Pos(), "the cotangent of rd has type %s, but the body has type %s", u1, u)
		}
		return &Rd{P: t.P, Cotangent: m, Point: l, Param: t.Param, T: t.T, Body: n}, t.T, nil
	case *Fd:
		m, s1, err := c.term(phi, g, t.Cotangent)
		if err != nil {
			return nil, nil, err
		}
		l, s, err := c.term(phi, g, t.Point)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.T) {
			return nil, nil, typeErr(t.Point.Pos(), "the point of fd has type %s, but %s has type %s", s, t.Param, t.T)
		}
		if !Equal(s1, t.T) {
			return nil, nil, typeErr(t.Cotangent.Pos(), "the tangent of fd has type %s, but %s has type %s", s1, t.Param, t.T)
		}
		n, u, err := c.term(phi, &varEnv{name: t.Param, t: t.T, next: g}, t.Body)
		if err != nil {
			return nil, nil, err
		}
		// M.fd[L](x:T. N) = M.rd[0_U](y:U. y.rd[L](x:T. N))
		y := c.names.Fresh("y")
		inner := &Rd{P: t.P, Cotangent: &Var{P: t.P, Name: y}, Point: l, Param: t.Param, T: t.T, Body: n}
		return &Rd{P: t.P, Cotangent: m, Point: Zero(u), Param: y, T: u, Body: inner}, u, nil
	case nil:
		return nil, nil, typeErr(Pos{}, "missing term")
	}
	return nil, nil, typeErr(t.Pos(), "unknown term %T", t)
}

// boolean checks a boolean term B: pred(M), true or false.
func (c *checker) boolean(phi *funEnv, g *varEnv, b Term) (Term, error) {
	switch b := b.(type) {
	case *BoolLit:
		return b, nil
	case *PredApp:
		if b.Pred == nil {
			return nil, typeErr(b.P, "predicate application without a predicate")
		}
		a, s, err := c.term(phi, g, b.Arg)
		if err != nil {
			return nil, err
		}
		if !Equal(s, b.Pred.Dom) {
			return nil, typeErr(b.Arg.Pos(), "%s expects an argument of type %s, but this one has type %s", b.Pred.Name, b.Pred.Dom, s)
		}
		return &PredApp{P: b.P, Pred: b.Pred, Arg: a}, nil
	case nil:
		return nil, typeErr(Pos{}, "missing condition")
	}
	return nil, typeErr(b.Pos(), "the condition of if must be a boolean term (pred(M), M <. N, true or false), not %s", describe(b))
}

func projName(t Term) string {
	if _, ok := t.(*Fst); ok {
		return "fst"
	}
	return "snd"
}

// describe names a term for a message without printing all of it.
func describe(t Term) string {
	s := Format(t)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return fmt.Sprintf("%q", s)
}
