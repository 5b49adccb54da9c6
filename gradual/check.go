package gradual

import (
	"fmt"

	"github.com/interderive/interderive"
)

// checker holds what cast insertion and type checking carry through a term: the
// typing environment Γ and the depths of the arrow types made so far.
type checker struct {
	// scope is Γ: for each name, the types of its bindings in scope, innermost last.
	// A lookup takes one map access however many bindings a long let-chain holds.
	scope  map[string][]Type
	depths map[*Arrow]int // typeDepth's answers
}

func newChecker() *checker {
	return &checker{scope: map[string][]Type{}, depths: map[*Arrow]int{}}
}

// bind enters the scope of a binding of name; unbind leaves it.
func (c *checker) bind(name string, t Type) { c.scope[name] = append(c.scope[name], t) }

func (c *checker) unbind(name string) {
	ts := c.scope[name]
	if len(ts) == 1 {
		delete(c.scope, name)
		return
	}
	c.scope[name] = ts[:len(ts)-1]
}

func (c *checker) lookup(name string) (Type, bool) {
	ts := c.scope[name]
	if len(ts) == 0 {
		return nil, false
	}
	return ts[len(ts)-1], true
}

// typeDepth is the nesting depth of t (1 for a base type), remembered for each arrow.
// Its recursion is as deep as t, which is at most MaxNesting + 1: the parser bounds
// the types written in a program, and fn the arrow types the checkers make.
func (c *checker) typeDepth(t Type) int {
	a, ok := t.(*Arrow)
	if !ok || a == nil {
		return 1
	}
	if d, ok := c.depths[a]; ok {
		return d
	}
	d := 1 + max(c.typeDepth(a.From), c.typeDepth(a.To))
	c.depths[a] = d
	return d
}

// fn is the type S -> T of a function at position p, refused if it nests deeper than
// MaxNesting. Only the type of a function grows deeper than the types written in the
// program (one arrow deeper than the type of its body): a chain of lets, each binding
// a function that returns the one before, makes a type as deep as the chain is long,
// which the functions over types could not follow without a bound.
func (c *checker) fn(p Pos, s, t Type) (Type, error) {
	a := &Arrow{From: s, To: t}
	if d := c.typeDepth(a); d > MaxNesting {
		return nil, typeErr(p, "the type of this function nests too deeply (limit %d)", MaxNesting)
	}
	return a, nil
}

func typeErr(p Pos, format string, args ...any) error {
	return interderive.ErrorList{interderive.Errorf(p, format, args...)}
}

// LabelAt is the positional blame label of a node without an explicit label.
func LabelAt(p Pos) Label { return Label(p.String()) }

// InsertCasts type-checks a closed GTLC term, Γ ⊢ e ~> e' : T (spec §1), returning
// the cast-calculus term e' with type-based casts inserted, and its type T. A cast
// takes the label of the node that caused it: an ascription's explicit label, else
// the node's position LINE:COL. Errors are positioned (an interderive.ErrorList).
func InsertCasts(e Expr) (Expr, Type, error) {
	return newChecker().insert(e)
}

// cast is cast(l, e, S, T) of the spec: e itself when S = T, else <T <= S>^l e.
func cast(l Label, e Expr, s, t Type) Expr {
	if Identical(s, t) {
		return e
	}
	return &Cast{P: e.Pos(), Target: t, Source: s, L: l, X: e}
}

func (c *checker) insert(e Expr) (Expr, Type, error) {
	switch e := e.(type) {
	case *IntLit:
		return e, Int, nil
	case *BoolLit:
		return e, Bool, nil
	case *Var:
		t, ok := c.lookup(e.Name)
		if !ok {
			return nil, nil, typeErr(e.P, "unbound variable %s", e.Name)
		}
		return e, t, nil
	case *Lam:
		c.bind(e.Param, e.T)
		body, t, err := c.insert(e.Body)
		c.unbind(e.Param)
		if err != nil {
			return nil, nil, err
		}
		ft, err := c.fn(e.P, e.T, t)
		if err != nil {
			return nil, nil, err
		}
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: body}, ft, nil
	case *Unary:
		x, s, err := c.insert(e.X)
		if err != nil {
			return nil, nil, err
		}
		args, res := e.Op.Signature()
		if !Consistent(s, args[0]) {
			return nil, nil, typeErr(e.X.Pos(), "%s expects %s, but its argument has type %s", e.Op, args[0], s)
		}
		return &Unary{P: e.P, Op: e.Op, X: cast(LabelAt(e.P), x, s, args[0])}, res, nil
	case *Binary:
		x, s1, err := c.insert(e.X)
		if err != nil {
			return nil, nil, err
		}
		y, s2, err := c.insert(e.Y)
		if err != nil {
			return nil, nil, err
		}
		args, res := e.Op.Signature()
		if !Consistent(s1, args[0]) {
			return nil, nil, typeErr(e.X.Pos(), "%s expects %s on its left, but the operand has type %s", e.Op, args[0], s1)
		}
		if !Consistent(s2, args[1]) {
			return nil, nil, typeErr(e.Y.Pos(), "%s expects %s on its right, but the operand has type %s", e.Op, args[1], s2)
		}
		l := LabelAt(e.P)
		return &Binary{P: e.P, Op: e.Op, X: cast(l, x, s1, args[0]), Y: cast(l, y, s2, args[1])}, res, nil
	case *If:
		cond, t1, err := c.insert(e.Cond)
		if err != nil {
			return nil, nil, err
		}
		th, t2, err := c.insert(e.Then)
		if err != nil {
			return nil, nil, err
		}
		el, t3, err := c.insert(e.Else)
		if err != nil {
			return nil, nil, err
		}
		if !Consistent(t1, Bool) {
			return nil, nil, typeErr(e.Cond.Pos(), "the condition of if must be consistent with Bool, but has type %s", t1)
		}
		u, ok := Meet(t2, t3)
		if !ok {
			return nil, nil, typeErr(e.P, "the branches of if have inconsistent types %s and %s", t2, t3)
		}
		l := LabelAt(e.P)
		return &If{P: e.P, Cond: cast(l, cond, t1, Bool), Then: cast(l, th, t2, u), Else: cast(l, el, t3, u)}, u, nil
	case *App:
		f, t1, err := c.insert(e.Fun)
		if err != nil {
			return nil, nil, err
		}
		a, t2, err := c.insert(e.Arg)
		if err != nil {
			return nil, nil, err
		}
		l := LabelAt(e.P)
		switch t1 := t1.(type) {
		case DynType: // AppDyn
			return &App{P: e.P, Fun: cast(l, f, Dyn, Fn(t2, Dyn)), Arg: a}, Dyn, nil
		case *Arrow: // App
			if !Consistent(t2, t1.From) {
				return nil, nil, typeErr(e.Arg.Pos(), "the argument has type %s, not consistent with the parameter type %s", t2, t1.From)
			}
			return &App{P: e.P, Fun: f, Arg: cast(l, a, t2, t1.From)}, t1.To, nil
		}
		return nil, nil, typeErr(e.Fun.Pos(), "cannot apply a value of type %s", t1)
	case *Asc:
		x, s, err := c.insert(e.X)
		if err != nil {
			return nil, nil, err
		}
		if !Consistent(s, e.T) {
			return nil, nil, typeErr(e.P, "cannot ascribe type %s to an expression of type %s", e.T, s)
		}
		l := e.L
		if l == "" {
			l = LabelAt(e.P)
		}
		return cast(l, x, s, e.T), e.T, nil
	case *Let:
		return c.insertLets(e)
	case *Letrec:
		ft, ok := e.T.(*Arrow)
		if !ok || !Identical(ft.From, e.Fun.T) {
			return nil, nil, typeErr(e.P, "letrec %s: its type %s must be an arrow whose domain is the parameter's type %s", e.Name, e.T, e.Fun.T)
		}
		c.bind(e.Name, ft)
		defer c.unbind(e.Name)
		c.bind(e.Fun.Param, e.Fun.T)
		fb, u, err := c.insert(e.Fun.Body)
		c.unbind(e.Fun.Param)
		if err != nil {
			return nil, nil, err
		}
		if !Consistent(u, ft.To) {
			return nil, nil, typeErr(e.Fun.Body.Pos(), "letrec %s returns %s, but its body has type %s", e.Name, ft.To, u)
		}
		body, t, err := c.insert(e.Body)
		if err != nil {
			return nil, nil, err
		}
		fun := &Lam{P: e.Fun.P, Param: e.Fun.Param, T: e.Fun.T, Body: cast(LabelAt(e.P), fb, u, ft.To)}
		return &Letrec{P: e.P, Name: e.Name, T: ft, Fun: fun, Body: body}, t, nil
	case *Cast, *Coerce, *Blame:
		return nil, nil, typeErr(e.Pos(), "casts, coercions and blame belong to the cast calculus, not to GTLC")
	}
	return nil, nil, typeErr(e.Pos(), "unknown term %T", e)
}

// insertLets is insert's case for a let, along the whole chain of lets that starts
// there: in a loop, so that a chain of any length takes no stack.
func (c *checker) insertLets(e *Let) (Expr, Type, error) {
	var first, last *Let
	var names []string // the names bound along the chain, whose scopes end with it
	defer func() {
		for i := len(names) - 1; i >= 0; i-- {
			c.unbind(names[i])
		}
	}()
	var cur Expr = e
	for {
		e, ok := cur.(*Let)
		if !ok {
			break
		}
		b, s, err := c.insert(e.Bound)
		if err != nil {
			return nil, nil, err
		}
		t := e.T
		if t == nil {
			t = s
		} else if !Consistent(s, t) {
			return nil, nil, typeErr(e.Bound.Pos(), "%s is declared %s but bound to an expression of type %s", e.Name, t, s)
		}
		c.bind(e.Name, t)
		names = append(names, e.Name)
		l := &Let{P: e.P, Name: e.Name, T: t, Bound: cast(LabelAt(e.P), b, s, t)}
		if first == nil {
			first = l
		} else {
			last.Body = l
		}
		last, cur = l, e.Body
	}
	body, u, err := c.insert(cur)
	if err != nil {
		return nil, nil, err
	}
	last.Body = body
	return first, u, nil
}

// TypeOf type-checks a closed term of the cast calculus (spec §2): simply typed with
// exact type equality, plus casts between consistent types, coercion applications
// typed by the coercion, and blame at every type (Bot). Explicit coercions may inject
// any type but Dyn, as in the D strategy (which includes UD's ground types).
func TypeOf(e Expr) (Type, error) {
	return newChecker().typeOf(e)
}

func (c *checker) typeOf(e Expr) (Type, error) {
	switch e := e.(type) {
	case *IntLit:
		return Int, nil
	case *BoolLit:
		return Bool, nil
	case *Var:
		t, ok := c.lookup(e.Name)
		if !ok {
			return nil, typeErr(e.P, "unbound variable %s", e.Name)
		}
		return t, nil
	case *Lam:
		c.bind(e.Param, e.T)
		t, err := c.typeOf(e.Body)
		c.unbind(e.Param)
		if err != nil {
			return nil, err
		}
		return c.fn(e.P, e.T, t)
	case *Unary:
		s, err := c.typeOf(e.X)
		if err != nil {
			return nil, err
		}
		args, res := e.Op.Signature()
		if !Equal(s, args[0]) {
			return nil, typeErr(e.X.Pos(), "%s expects %s, but its argument has type %s", e.Op, args[0], s)
		}
		return res, nil
	case *Binary:
		s1, err := c.typeOf(e.X)
		if err != nil {
			return nil, err
		}
		s2, err := c.typeOf(e.Y)
		if err != nil {
			return nil, err
		}
		args, res := e.Op.Signature()
		if !Equal(s1, args[0]) {
			return nil, typeErr(e.X.Pos(), "%s expects %s on its left, but the operand has type %s", e.Op, args[0], s1)
		}
		if !Equal(s2, args[1]) {
			return nil, typeErr(e.Y.Pos(), "%s expects %s on its right, but the operand has type %s", e.Op, args[1], s2)
		}
		return res, nil
	case *If:
		t1, err := c.typeOf(e.Cond)
		if err != nil {
			return nil, err
		}
		if !Equal(t1, Bool) {
			return nil, typeErr(e.Cond.Pos(), "the condition of if must have type Bool, but has type %s", t1)
		}
		t2, err := c.typeOf(e.Then)
		if err != nil {
			return nil, err
		}
		t3, err := c.typeOf(e.Else)
		if err != nil {
			return nil, err
		}
		if !Equal(t2, t3) {
			return nil, typeErr(e.P, "the branches of if have different types %s and %s", t2, t3)
		}
		return join(t2, t3), nil
	case *App:
		t1, err := c.typeOf(e.Fun)
		if err != nil {
			return nil, err
		}
		t2, err := c.typeOf(e.Arg)
		if err != nil {
			return nil, err
		}
		if t1 == Bot {
			return Bot, nil
		}
		f, ok := t1.(*Arrow)
		if !ok {
			return nil, typeErr(e.Fun.Pos(), "cannot apply a value of type %s", t1)
		}
		if !Equal(t2, f.From) {
			return nil, typeErr(e.Arg.Pos(), "the argument has type %s, but the function expects %s", t2, f.From)
		}
		return f.To, nil
	case *Let:
		return c.typeOfLets(e)
	case *Letrec:
		ft, ok := e.T.(*Arrow)
		if !ok || !Identical(ft.From, e.Fun.T) {
			return nil, typeErr(e.P, "letrec %s: its type %s must be an arrow whose domain is the parameter's type %s", e.Name, e.T, e.Fun.T)
		}
		c.bind(e.Name, ft)
		defer c.unbind(e.Name)
		c.bind(e.Fun.Param, e.Fun.T)
		u, err := c.typeOf(e.Fun.Body)
		c.unbind(e.Fun.Param)
		if err != nil {
			return nil, err
		}
		if !Equal(u, ft.To) {
			return nil, typeErr(e.Fun.Body.Pos(), "letrec %s returns %s, but its body has type %s", e.Name, ft.To, u)
		}
		return c.typeOf(e.Body)
	case *Cast:
		s, err := c.typeOf(e.X)
		if err != nil {
			return nil, err
		}
		if !Equal(s, e.Source) {
			return nil, typeErr(e.X.Pos(), "the cast expects %s, but its operand has type %s", e.Source, s)
		}
		if !Consistent(e.Source, e.Target) {
			return nil, typeErr(e.P, "cannot cast between inconsistent types %s and %s", e.Source, e.Target)
		}
		return e.Target, nil
	case *Coerce:
		s, err := c.typeOf(e.X)
		if err != nil {
			return nil, err
		}
		t, err := CoercionTarget(e.C, s)
		if err != nil {
			return nil, typeErr(e.P, "ill-typed coercion application: %v", err)
		}
		return t, nil
	case *Blame:
		return Bot, nil
	case *Asc:
		return nil, typeErr(e.P, "ascription is GTLC syntax; in the cast calculus write <T <= S>^l e")
	}
	return nil, typeErr(e.Pos(), "unknown term %T", e)
}

// typeOfLets is typeOf's case for a let, along the whole chain of lets that starts
// there, in a loop.
func (c *checker) typeOfLets(e *Let) (Type, error) {
	var names []string
	defer func() {
		for i := len(names) - 1; i >= 0; i-- {
			c.unbind(names[i])
		}
	}()
	var cur Expr = e
	for {
		e, ok := cur.(*Let)
		if !ok {
			return c.typeOf(cur)
		}
		s, err := c.typeOf(e.Bound)
		if err != nil {
			return nil, err
		}
		if e.T == nil {
			return nil, typeErr(e.P, "let needs a type annotation in the cast calculus")
		}
		if !Equal(s, e.T) {
			return nil, typeErr(e.Bound.Pos(), "%s is declared %s but bound to an expression of type %s", e.Name, e.T, s)
		}
		c.bind(e.Name, e.T)
		names = append(names, e.Name)
		cur = e.Body
	}
}

// join is the more informative of two types equal up to Bot.
func join(s, t Type) Type {
	if s == Bot {
		return t
	}
	if a, ok := s.(*Arrow); ok {
		if b, ok := t.(*Arrow); ok {
			return Fn(join(a.From, b.From), join(a.To, b.To))
		}
	}
	return s
}

// CoercionTarget returns T such that c : S => T, given S (spec §2 coercion typing).
// A coercion after fail^l has every target: Bot.
func CoercionTarget(c Coercion, s Type) (Type, error) {
	switch c := c.(type) {
	case IdC:
		return s, nil
	case *Inj:
		if c.T == Dyn {
			return nil, fmt.Errorf("the type Dyn is not injectable")
		}
		if !Equal(s, c.T) {
			return nil, fmt.Errorf("%s! expects %s, got %s", FormatType(c.T), c.T, s)
		}
		return Dyn, nil
	case *Proj:
		if c.T == Dyn {
			return nil, fmt.Errorf("cannot project to Dyn")
		}
		if !Equal(s, Dyn) {
			return nil, fmt.Errorf("%s?^%s expects Dyn, got %s", FormatType(c.T), c.L, s)
		}
		return c.T, nil
	case *Func:
		a, ok := s.(*Arrow)
		if s == Bot {
			a, ok = Fn(Bot, Bot), true
		}
		if !ok {
			return nil, fmt.Errorf("a function coercion expects a function type, got %s", s)
		}
		dom, err := CoercionSource(c.Dom, a.From)
		if err != nil {
			return nil, err
		}
		cod, err := CoercionTarget(c.Cod, a.To)
		if err != nil {
			return nil, err
		}
		return Fn(dom, cod), nil
	case *Seq:
		m, err := CoercionTarget(c.Fst, s)
		if err != nil {
			return nil, err
		}
		return CoercionTarget(c.Snd, m)
	case *Fail:
		return Bot, nil
	}
	return nil, fmt.Errorf("unknown coercion %T", c)
}

// CoercionSource returns S such that c : S => T, given T.
func CoercionSource(c Coercion, t Type) (Type, error) {
	switch c := c.(type) {
	case IdC:
		return t, nil
	case *Inj:
		if c.T == Dyn {
			return nil, fmt.Errorf("the type Dyn is not injectable")
		}
		if !Equal(t, Dyn) {
			return nil, fmt.Errorf("%s! produces Dyn, but %s is expected", FormatType(c.T), t)
		}
		return c.T, nil
	case *Proj:
		if c.T == Dyn {
			return nil, fmt.Errorf("cannot project to Dyn")
		}
		if !Equal(t, c.T) {
			return nil, fmt.Errorf("%s?^%s produces %s, but %s is expected", FormatType(c.T), c.L, c.T, t)
		}
		return Dyn, nil
	case *Func:
		a, ok := t.(*Arrow)
		if t == Bot {
			a, ok = Fn(Bot, Bot), true
		}
		if !ok {
			return nil, fmt.Errorf("a function coercion produces a function type, but %s is expected", t)
		}
		dom, err := CoercionTarget(c.Dom, a.From)
		if err != nil {
			return nil, err
		}
		cod, err := CoercionSource(c.Cod, a.To)
		if err != nil {
			return nil, err
		}
		return Fn(dom, cod), nil
	case *Seq:
		m, err := CoercionSource(c.Snd, t)
		if err != nil {
			return nil, err
		}
		return CoercionSource(c.Fst, m)
	case *Fail:
		return Bot, nil
	}
	return nil, fmt.Errorf("unknown coercion %T", c)
}
