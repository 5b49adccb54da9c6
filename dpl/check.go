package dpl

import (
	"fmt"

	"github.com/interderive/interderive"
)

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
	c := &checker{outer: gamma, names: NewNames(t), vars: map[string][]varBinding{}, funs: map[string][]funBinding{}, depths: map[*Prod]int{}}
	return c.term(t)
}

// checker holds what type checking carries through a term: the typing environments Γ
// and Φ, as a stack of bindings per name (innermost last), so that a lookup takes one
// map access however many bindings a long let-chain holds.
type checker struct {
	outer TypeEnv
	names *Names
	depth int
	vars  map[string][]varBinding // Γ
	funs  map[string][]funBinding // Φ
	// bodies are the functions whose bodies enclose the current subterm, outermost
	// first: a function body sees only its parameter, so a variable bound outside the
	// innermost one is hidden.
	bodies []string
	depths map[*Prod]int // typeDepth's answers
}

// varBinding is a binding x:T of Γ, made in the body of the function bodies[level-1]
// (level 0: outside every function).
type varBinding struct {
	t     Type
	level int
}

// funBinding is a binding f:T -> U of Φ.
type funBinding struct{ t, u Type }

// bind enters the scope of x:t; unbind leaves it.
func (c *checker) bind(x string, t Type) {
	c.vars[x] = append(c.vars[x], varBinding{t, len(c.bodies)})
}

func (c *checker) unbind(x string) {
	bs := c.vars[x]
	if len(bs) == 1 {
		delete(c.vars, x)
		return
	}
	c.vars[x] = bs[:len(bs)-1]
}

// enterBody enters the body of the function f, whose parameter is x:t; leaveBody
// leaves it.
func (c *checker) enterBody(f, x string, t Type) {
	c.bodies = append(c.bodies, f)
	c.bind(x, t)
}

func (c *checker) leaveBody(x string) {
	c.unbind(x)
	c.bodies = c.bodies[:len(c.bodies)-1]
}

// bindFun enters the scope of the function f:t -> u; unbindFun leaves it.
func (c *checker) bindFun(f string, t, u Type) { c.funs[f] = append(c.funs[f], funBinding{t, u}) }

func (c *checker) unbindFun(f string) {
	bs := c.funs[f]
	if len(bs) == 1 {
		delete(c.funs, f)
		return
	}
	c.funs[f] = bs[:len(bs)-1]
}

func (c *checker) lookupFun(f string) (t, u Type, ok bool) {
	bs := c.funs[f]
	if len(bs) == 0 {
		return nil, nil, false
	}
	b := bs[len(bs)-1]
	return b.t, b.u, true
}

func (c *checker) lookupVar(x string) (Type, bool) {
	bs := c.vars[x]
	if len(bs) > 0 {
		if b := bs[len(bs)-1]; b.level == len(c.bodies) {
			return b.t, true
		}
		return nil, false
	}
	if c.outer != nil && len(c.bodies) == 0 {
		return c.outer(x)
	}
	return nil, false
}

// hiddenBy reports the function whose body hides an outer binding of x, if any: the
// innermost one around the binding.
func (c *checker) hiddenBy(x string) (string, bool) {
	if bs := c.vars[x]; len(bs) > 0 {
		if b := bs[len(bs)-1]; b.level < len(c.bodies) {
			return c.bodies[b.level], true
		}
		return "", false
	}
	if c.outer != nil && len(c.bodies) > 0 {
		if _, ok := c.outer(x); ok {
			return c.bodies[0], true
		}
	}
	return "", false
}

// typeDepth is the nesting depth of t (1 for a base type), remembered for each
// product. Its recursion is as deep as t, which is at most MaxNesting: the parser
// bounds the types written in a program, and pair the product types the checker makes.
func (c *checker) typeDepth(t Type) int {
	p, ok := t.(*Prod)
	if !ok || p == nil {
		return 1
	}
	if d, ok := c.depths[p]; ok {
		return d
	}
	d := 1 + max(c.typeDepth(p.Fst), c.typeDepth(p.Snd))
	c.depths[p] = d
	return d
}

// pairType is the type s * u of the pair t, refused if it nests deeper than
// MaxNesting. Only the type of a pair grows deeper than the types written in the
// program: a chain of lets, each pairing the one before, makes a type as deep as the
// chain is long, which the functions over types and values could not follow without
// a bound.
func (c *checker) pairType(t *Pair, s, u Type) (Type, error) {
	p := Times(s, u)
	if c.typeDepth(p) > MaxNesting {
		return nil, typeErr(t.P, "the type of this pair nests too deeply (limit %d)", MaxNesting)
	}
	return p, nil
}

// term checks t. Its recursion goes as deep as t nests (Depth): a term a run builds is
// at most MaxDepth deep, plus the depth of the values in it, and one deeper than
// MaxDepth + MaxNesting is refused.
func (c *checker) term(t Term) (Term, Type, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > MaxDepth+MaxNesting {
		return nil, nil, &interderive.DepthError{What: "term", Limit: MaxDepth}
	}
	switch t := t.(type) {
	case *Var:
		ty, ok := c.lookupVar(t.Name)
		if ok {
			return t, ty, nil
		}
		if f, ok := c.hiddenBy(t.Name); ok {
			return nil, nil, typeErr(t.P, "%s is not in scope in the body of %s: a function body sees only its parameter (pass %s as an argument)", t.Name, f, t.Name)
		}
		if _, _, ok := c.lookupFun(t.Name); ok {
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
		x, s1, err := c.term(t.X)
		if err != nil {
			return nil, nil, err
		}
		y, s2, err := c.term(t.Y)
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
		a, s, err := c.term(t.Arg)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.Op.Dom) {
			return nil, nil, typeErr(t.Arg.Pos(), "%s expects an argument of type %s, but this one has type %s", t.Op.Name, t.Op.Dom, s)
		}
		return &OpApp{P: t.P, Op: t.Op, Arg: a}, t.Op.Cod, nil
	case *Let:
		return c.lets(t)
	case *Pair:
		x, s, err := c.term(t.X)
		if err != nil {
			return nil, nil, err
		}
		y, u, err := c.term(t.Y)
		if err != nil {
			return nil, nil, err
		}
		pt, err := c.pairType(t, s, u)
		if err != nil {
			return nil, nil, err
		}
		return &Pair{P: t.P, X: x, Y: y, T: s, U: u}, pt, nil
	case *Fst, *Snd:
		arg := Children(t)[0]
		x, s, err := c.term(arg)
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
		cond, err := c.boolean(t.Cond)
		if err != nil {
			return nil, nil, err
		}
		th, s, err := c.term(t.Then)
		if err != nil {
			return nil, nil, err
		}
		el, u, err := c.term(t.Else)
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
		c.bindFun(t.Name, t.ParamT, t.ResT)
		defer c.unbindFun(t.Name)
		c.enterBody(t.Name, t.Param, t.ParamT)
		fun, u, err := c.term(t.Fun)
		c.leaveBody(t.Param)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(u, t.ResT) {
			return nil, nil, typeErr(t.Fun.Pos(), "%s is declared to return %s, but its body has type %s", t.Name, t.ResT, u)
		}
		body, s, err := c.term(t.Body)
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
			if pt, rt, ok = c.lookupFun(t.Name); !ok {
				if _, isVar := c.lookupVar(t.Name); isVar {
					return nil, nil, typeErr(t.P, "%s is a variable, not a function", t.Name)
				}
				return nil, nil, typeErr(t.P, "unknown function or operator %s", t.Name)
			}
		}
		a, s, err := c.term(t.Arg)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, pt) {
			return nil, nil, typeErr(t.Arg.Pos(), "%s expects an argument of type %s, but this one has type %s", t.Name, pt, s)
		}
		return &Call{P: t.P, Name: t.Name, Arg: a, Clo: t.Clo}, rt, nil
	case *Rd:
		m, u1, err := c.term(t.Cotangent)
		if err != nil {
			return nil, nil, err
		}
		l, s, err := c.term(t.Point)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.T) {
			return nil, nil, typeErr(t.Point.Pos(), "the point of rd has type %s, but %s has type %s", s, t.Param, t.T)
		}
		c.bind(t.Param, t.T)
		n, u, err := c.term(t.Body)
		c.unbind(t.Param)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(u1, u) {
			return nil, nil, typeErr(t.Cotangent.Pos(), "the cotangent of rd has type %s, but the body has type %s", u1, u)
		}
		return &Rd{P: t.P, Cotangent: m, Point: l, Param: t.Param, T: t.T, Body: n}, t.T, nil
	case *Fd:
		m, s1, err := c.term(t.Cotangent)
		if err != nil {
			return nil, nil, err
		}
		l, s, err := c.term(t.Point)
		if err != nil {
			return nil, nil, err
		}
		if !Equal(s, t.T) {
			return nil, nil, typeErr(t.Point.Pos(), "the point of fd has type %s, but %s has type %s", s, t.Param, t.T)
		}
		if !Equal(s1, t.T) {
			return nil, nil, typeErr(t.Cotangent.Pos(), "the tangent of fd has type %s, but %s has type %s", s1, t.Param, t.T)
		}
		c.bind(t.Param, t.T)
		n, u, err := c.term(t.Body)
		c.unbind(t.Param)
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

// lets is term's case for a let, along the whole chain of lets that starts there: in
// a loop, so that a chain of any length takes no stack.
func (c *checker) lets(t *Let) (Term, Type, error) {
	var first, last *Let
	var names []string // the names bound along the chain, whose scopes end with it
	defer func() {
		for i := len(names) - 1; i >= 0; i-- {
			c.unbind(names[i])
		}
	}()
	var cur Term = t
	for {
		t, ok := cur.(*Let)
		if !ok || t == nil {
			break
		}
		bound, s, err := c.term(t.Bound)
		if err != nil {
			return nil, nil, err
		}
		if t.T != nil && !Equal(s, t.T) {
			return nil, nil, typeErr(t.Bound.Pos(), "%s is declared %s, but is bound to a term of type %s", t.Name, t.T, s)
		}
		c.bind(t.Name, s)
		names = append(names, t.Name)
		l := &Let{P: t.P, Name: t.Name, T: s, Bound: bound}
		if first == nil {
			first = l
		} else {
			last.Body = l
		}
		last, cur = l, t.Body
	}
	body, u, err := c.term(cur)
	if err != nil {
		return nil, nil, err
	}
	last.Body = body
	return first, u, nil
}

// boolean checks a boolean term B: pred(M), true or false.
func (c *checker) boolean(b Term) (Term, error) {
	switch b := b.(type) {
	case *BoolLit:
		return b, nil
	case *PredApp:
		if b.Pred == nil {
			return nil, typeErr(b.P, "predicate application without a predicate")
		}
		a, s, err := c.term(b.Arg)
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
