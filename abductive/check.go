package abductive

import (
	"sort"

	"github.com/interderive/interderive"
)

// TypeOf is the type of a closed term (doc.go, "Typing"). A term that has none is a
// static error at the position of the subterm at fault: an interderive.ErrorList of
// one error. In the type it returns, every vector type is V (which decoupling's it is
// the checker knows, and the type of a program never mentions one), and a model's
// type that nothing determines is F.
func TypeOf(e Expr) (Type, error) {
	c := checker{scope: map[string][]*tnode{}}
	t, err := c.typeOf(e)
	if err != nil {
		return nil, err
	}
	return c.export(t, 0), nil
}

// The kinds of type nodes: a type, or a variable that unification binds.
const (
	kUnknown = iota // a variable for any type: the model's type of an abduct
	kVecVar         // a variable for a vector type: a V of an annotation, a vector
	kField          // F
	kVec            // V_a, the vector type of one decoupling
	kArrow          // from -> to
)

// tnode is a type in the checker: a node of a union-find forest, bound (parent) when
// a variable was unified with another type.
type tnode struct {
	kind     int
	from, to *tnode
	dec      *decoupling
	parent   *tnode
}

// decoupling is the name a of one abduct's vector type V_a: its parameters' name and
// position, for messages.
type decoupling struct {
	par string
	pos Pos
}

var fieldNode = &tnode{kind: kField}

func find(n *tnode) *tnode {
	for n.parent != nil {
		if n.parent.parent != nil {
			n.parent = n.parent.parent
		}
		n = n.parent
	}
	return n
}

func arrow(from, to *tnode) *tnode { return &tnode{kind: kArrow, from: from, to: to} }

// isVector reports whether n is a vector type or a vector variable.
func isVector(n *tnode) bool { k := find(n).kind; return k == kVec || k == kVecVar }

// mismatch says why two types do not unify.
type mismatch int

const (
	unified mismatch = iota
	differ           // different shapes
	mixed            // the vectors of two decouplings
	cyclic           // a variable would contain itself
)

// unify makes a and b one type.
func unify(a, b *tnode) mismatch {
	a, b = find(a), find(b)
	if a == b {
		return unified
	}
	switch {
	case a.kind == kUnknown:
		if occurs(a, b) {
			return cyclic
		}
		a.parent = b
		return unified
	case b.kind == kUnknown:
		return unify(b, a)
	case a.kind == kVecVar && (b.kind == kVecVar || b.kind == kVec):
		a.parent = b
		return unified
	case b.kind == kVecVar && a.kind == kVec:
		b.parent = a
		return unified
	case a.kind == kVec && b.kind == kVec:
		return mixed
	case a.kind != b.kind:
		return differ
	case a.kind == kArrow:
		if m := unify(a.from, b.from); m != unified {
			return m
		}
		return unify(a.to, b.to)
	}
	return unified // F and F
}

// occurs reports whether the variable v occurs in t.
func occurs(v, t *tnode) bool {
	for stack := []*tnode{t}; len(stack) > 0; {
		n := find(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if n == v {
			return true
		}
		if n.kind == kArrow {
			stack = append(stack, n.from, n.to)
		}
	}
	return false
}

// mentions reports whether the vector type of d occurs in t.
func mentions(t *tnode, d *decoupling) bool {
	for stack := []*tnode{t}; len(stack) > 0; {
		n := find(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		switch n.kind {
		case kVec:
			if n.dec == d {
				return true
			}
		case kArrow:
			stack = append(stack, n.from, n.to)
		}
	}
	return false
}

// show prints a type for a message: V_p for the vector type of the decoupling whose
// parameters are p, V for a vector type not yet known, ? for a type not yet known.
func show(t *tnode) string {
	var b []byte
	var walk func(n *tnode, left bool, depth int)
	walk = func(n *tnode, left bool, depth int) {
		n = find(n)
		if depth > 64 {
			b = append(b, "..."...)
			return
		}
		switch n.kind {
		case kUnknown:
			b = append(b, '?')
		case kVecVar:
			b = append(b, 'V')
		case kField:
			b = append(b, 'F')
		case kVec:
			b = append(b, "V_"+n.dec.par...)
		case kArrow:
			if left {
				b = append(b, '(')
			}
			walk(n.from, true, depth+1)
			b = append(b, " -> "...)
			walk(n.to, false, depth+1)
			if left {
				b = append(b, ')')
			}
		}
	}
	walk(t, false, 0)
	return string(b)
}

// export is the Type of t: vectors V, unknown types F.
func (c *checker) export(t *tnode, depth int) Type {
	t = find(t)
	switch t.kind {
	case kVec, kVecVar:
		return &VecType{}
	case kArrow:
		return Fn(c.export(t.from, depth+1), c.export(t.to, depth+1))
	}
	return Field
}

// checker holds Γ: for each name, the types of its bindings in scope, innermost last.
type checker struct{ scope map[string][]*tnode }

func (c *checker) bind(x string, t *tnode) { c.scope[x] = append(c.scope[x], t) }

func (c *checker) unbind(x string) {
	if ts := c.scope[x]; len(ts) > 1 {
		c.scope[x] = ts[:len(ts)-1]
	} else {
		delete(c.scope, x)
	}
}

func typeErr(p Pos, format string, args ...any) error {
	return interderive.ErrorList{interderive.Errorf(p, format, args...)}
}

// annotation is the checker's type of an annotation: each V a vector variable of its
// own, which unification tells the decoupling of.
func annotation(t Type) *tnode {
	switch t := t.(type) {
	case FieldType:
		return fieldNode
	case *VecType:
		return &tnode{kind: kVecVar}
	case *Arrow:
		return arrow(annotation(t.From), annotation(t.To))
	}
	return &tnode{kind: kUnknown}
}

func (c *checker) typeOf(e Expr) (*tnode, error) {
	switch e := e.(type) {
	case *Num, *Param, *Label, *Resid:
		return fieldNode, nil
	case *Var:
		ts := c.scope[e.Name]
		if len(ts) == 0 {
			return nil, typeErr(e.P, "unbound variable %s", e.Name)
		}
		return ts[len(ts)-1], nil
	case *Lam:
		t := annotation(e.T)
		c.bind(e.Param, t)
		body, err := c.typeOf(e.Body)
		c.unbind(e.Param)
		if err != nil {
			return nil, err
		}
		return arrow(t, body), nil
	case *App:
		return c.app(e)
	case *Abduct:
		return c.abduct(e, &tnode{kind: kUnknown})
	case *Binary:
		return c.binary(e)
	case *Let:
		b, err := c.typeOf(e.Bound)
		if err != nil {
			return nil, err
		}
		c.bind(e.Name, b)
		t, err := c.typeOf(e.Body)
		c.unbind(e.Name)
		return t, err
	case *Vec:
		for _, x := range e.Elems {
			t, err := c.typeOf(x)
			if err != nil {
				return nil, err
			}
			if unify(t, fieldNode) != unified {
				return nil, typeErr(x.Pos(), "a vector's component has type %s, not F", show(t))
			}
		}
		return &tnode{kind: kVecVar}, nil
	case *Mark:
		return c.typeOf(e.Body)
	}
	return nil, typeErr(Pos{}, "not a term: %T", e)
}

// app types an application. The model of a decoupling, (abduct f, p. t) m, is typed
// first, so that its type is known in t.
func (c *checker) app(e *App) (*tnode, error) {
	if a, ok := e.Fun.(*Abduct); ok {
		m, err := c.typeOf(e.Arg)
		if err != nil {
			return nil, err
		}
		t, err := c.abduct(a, m)
		if err != nil {
			return nil, err
		}
		return find(t).to, nil
	}
	f, err := c.typeOf(e.Fun)
	if err != nil {
		return nil, err
	}
	a, err := c.typeOf(e.Arg)
	if err != nil {
		return nil, err
	}
	fn := find(f)
	if fn.kind == kUnknown {
		unify(fn, arrow(&tnode{kind: kUnknown}, &tnode{kind: kUnknown}))
		fn = find(fn)
	}
	if fn.kind != kArrow {
		return nil, typeErr(e.Fun.Pos(), "applied, but of type %s, not a function", show(f))
	}
	if m := unify(fn.from, a); m != unified {
		return nil, c.mismatch(e.Arg.Pos(), m, "the argument has type %s, but the function takes %s", a, fn.from)
	}
	return fn.to, nil
}

// mismatch is the error of a failed unification of got with want: the vectors of two
// decouplings mixed, or what the message says.
func (c *checker) mismatch(p Pos, m mismatch, format string, got, want *tnode) error {
	switch m {
	case mixed:
		return typeErr(p, "the vectors of two decouplings are mixed: "+format+" (each decoupling's vectors have a type of their own)", show(got), show(want))
	case cyclic:
		return typeErr(p, "a type would contain itself: "+format, show(got), show(want))
	}
	return typeErr(p, format, show(got), show(want))
}

// abduct types abduct f, p. t applied to a model of type m: f : V_a -> m and p : V_a,
// for a fresh name a that may occur neither in m, nor in t's type, nor in the type of
// a free variable of the abduct.
func (c *checker) abduct(e *Abduct, m *tnode) (*tnode, error) {
	d := &decoupling{par: e.Par, pos: e.P}
	v := &tnode{kind: kVec, dec: d}
	c.bind(e.F, arrow(v, m))
	c.bind(e.Par, v)
	t, err := c.typeOf(e.Body)
	c.unbind(e.Par)
	c.unbind(e.F)
	if err != nil {
		return nil, err
	}
	if mentions(t, d) {
		return nil, typeErr(e.P, "the decoupling's vector type V_%s escapes it: its body has type %s", e.Par, show(t))
	}
	if mentions(m, d) {
		return nil, typeErr(e.P, "the decoupling's vector type V_%s escapes it: its model has type %s", e.Par, show(m))
	}
	fv := FreeVars(e)
	names := make([]string, 0, len(fv))
	for x := range fv {
		names = append(names, x)
	}
	sort.Strings(names)
	for _, x := range names {
		if ts := c.scope[x]; len(ts) > 0 && mentions(ts[len(ts)-1], d) {
			return nil, typeErr(e.P, "the decoupling's vector type V_%s escapes it: the free variable %s has type %s", e.Par, x, show(ts[len(ts)-1]))
		}
	}
	return arrow(m, t), nil
}

// binary types an operation: the field's on F, + on two vectors of one decoupling,
// * of F and a vector, . of two vectors, and the iterators. Where an operand's type
// is not known yet, + and * are taken on F.
func (c *checker) binary(e *Binary) (*tnode, error) {
	x, err := c.typeOf(e.X)
	if err != nil {
		return nil, err
	}
	y, err := c.typeOf(e.Y)
	if err != nil {
		return nil, err
	}
	operand := func(at Expr, t, want *tnode, what string) error {
		if m := unify(t, want); m != unified {
			return c.mismatch(at.Pos(), m, "an operand of "+e.Op.String()+" has type %s, not %s"+what, t, want)
		}
		return nil
	}
	vector := func(at Expr, t *tnode) (*tnode, error) {
		if find(t).kind == kUnknown {
			unify(t, &tnode{kind: kVecVar})
		}
		if !isVector(t) {
			return nil, typeErr(at.Pos(), "an operand of %s has type %s, not a vector type", e.Op, show(t))
		}
		return t, nil
	}
	switch e.Op {
	case OpAdd:
		if isVector(x) || isVector(y) {
			v := x
			if !isVector(x) {
				v = y
			}
			if err := operand(e.X, x, v, ""); err != nil {
				return nil, err
			}
			if err := operand(e.Y, y, v, ""); err != nil {
				return nil, err
			}
			return v, nil
		}
		fallthrough
	case OpSub, OpDiv:
		if err := operand(e.X, x, fieldNode, ""); err != nil {
			return nil, err
		}
		return fieldNode, operand(e.Y, y, fieldNode, "")
	case OpMul:
		if err := operand(e.X, x, fieldNode, " (the left operand of * is a number)"); err != nil {
			return nil, err
		}
		if isVector(y) {
			return y, nil
		}
		return fieldNode, operand(e.Y, y, fieldNode, " or a vector type")
	case OpDot:
		v, err := vector(e.X, x)
		if err != nil {
			return nil, err
		}
		return fieldNode, operand(e.Y, y, v, "")
	case OpIterAdd, OpIterMul:
		v, err := vector(e.Y, y)
		if err != nil {
			return nil, err
		}
		to := v
		if e.Op == OpIterMul {
			to = fieldNode
		}
		if err := operand(e.X, x, arrow(v, to), ""); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, typeErr(e.P, "unknown operator %s", e.Op)
}
