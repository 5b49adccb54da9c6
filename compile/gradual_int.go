package compile

import g "github.com/interderive/interderive/gradual"

// A function whose parameter is an integer and whose body computes with integers only
// — constants, its parameter, arithmetic, ifs on comparisons, and calls of itself not
// in tail position (fib) — is compiled a second time, for integers: its code takes the
// parameter and returns the value unboxed (icode), with no frame, no value, and no
// type test, since every operand is an integer by construction. This is the staging
// of interp on a fully typed first-order function, where the types say what each
// value is. The contractions are the general code's, in the same order: constants and
// the parameter make none, an operator its δ after its operands', an if δ and If after
// its comparison's operands', a call δ (of its operand, made by its code), beta and
// Letrec. The function's code runs it on an integer argument, and its general code on
// anything else (a run that will get stuck).

// icode is the code of an integer subterm of a function compiled for integers, given
// the function's parameter k.
type icode func(m *machine, k int64) (int64, error)

// intBody compiles f's body for integers, if it computes with integers only (see
// above): fn is f's function, self the name its body calls it by ("" if f is not an
// unfolded letrec function), body where its code starts.
func (c *compiler) intBody(f *g.Lam, fn *function, self string, body g.Expr) icode {
	if c.merge || f.T != g.Int {
		return nil // the merging mode's tail positions return through a pending coercion
	}
	ic := intCompiler{fn: fn, param: f.Param, self: self}
	code, ok := ic.compile(body, place{tail: true})
	if !ok {
		return nil
	}
	return code
}

// intCompiler compiles a function's body for integers.
type intCompiler struct {
	fn          *function
	param, self string
}

// compile is e's icode at the place at, if e computes with integers only.
func (ic intCompiler) compile(e g.Expr, at place) (icode, bool) {
	switch t := e.(type) {
	case *g.IntLit:
		n := t.N
		return func(*machine, int64) (int64, error) { return n, nil }, true
	case *g.Var:
		if t.Name != ic.param {
			return nil, false
		}
		return func(_ *machine, k int64) (int64, error) { return k, nil }, true
	case *g.Unary:
		if t.Op != g.OpInc && t.Op != g.OpDec {
			return nil, false
		}
		x, ok := ic.compile(t.X, at.operand())
		if !ok {
			return nil, false
		}
		d := int64(1)
		if t.Op == g.OpDec {
			d = -1
		}
		return func(m *machine, k int64) (int64, error) {
			a, err := x(m, k)
			if err != nil {
				return 0, err
			}
			if err := m.fuel.contract(g.RuleDelta); err != nil {
				return 0, err
			}
			return a + d, nil
		}, true
	case *g.Binary:
		return ic.binary(t, at)
	case *g.If:
		return ic.conditional(t, at)
	case *g.App:
		return ic.call(t, at)
	}
	return nil, false
}

// binary is the icode of x op y for +, - and *.
func (ic intCompiler) binary(t *g.Binary, at place) (icode, bool) {
	if t.Op != g.OpAdd && t.Op != g.OpSub && t.Op != g.OpMul {
		return nil, false
	}
	if d, ok := ic.offset(t); ok { // k ± n, the common operand
		return func(m *machine, k int64) (int64, error) {
			if err := m.fuel.contract(g.RuleDelta); err != nil {
				return 0, err
			}
			return k + d, nil
		}, true
	}
	x, okx := ic.compile(t.X, at.operand())
	y, oky := ic.compile(t.Y, at.operand())
	if !okx || !oky {
		return nil, false
	}
	op := t.Op
	if op == g.OpAdd { // without prim's dispatch on the operator
		return func(m *machine, k int64) (int64, error) {
			a, err := x(m, k)
			if err != nil {
				return 0, err
			}
			b, err := y(m, k)
			if err != nil {
				return 0, err
			}
			if err := m.fuel.contract(g.RuleDelta); err != nil {
				return 0, err
			}
			return a + b, nil
		}, true
	}
	return func(m *machine, k int64) (int64, error) {
		a, err := x(m, k)
		if err != nil {
			return 0, err
		}
		b, err := y(m, k)
		if err != nil {
			return 0, err
		}
		if err := m.fuel.contract(g.RuleDelta); err != nil {
			return 0, err
		}
		n, _, _ := prim(op, a, b)
		return n, nil
	}, true
}

// offset is the integer d when t is k + d or k - (-d) on the parameter k and a
// constant (subtracting n is adding -n in wrapping arithmetic, whatever n).
func (ic intCompiler) offset(t *g.Binary) (d int64, ok bool) {
	v, okv := t.X.(*g.Var)
	n, okn := t.Y.(*g.IntLit)
	if !okv || !okn || v.Name != ic.param {
		return 0, false
	}
	switch t.Op {
	case g.OpAdd:
		return n.N, true
	case g.OpSub:
		return -n.N, true
	}
	return 0, false
}

// conditional is the icode of if on a comparison (< or =) of integer operands, or on
// zero? of one: the operands, δ and If at once, a branch.
func (ic intCompiler) conditional(t *g.If, at place) (icode, bool) {
	if z, ok := t.Cond.(*g.Unary); ok && z.Op == g.OpZero {
		return ic.zero(t, z, at)
	}
	cmp, ok := t.Cond.(*g.Binary)
	if !ok || cmp.Op != g.OpLt && cmp.Op != g.OpEq {
		return nil, false
	}
	x, okx := ic.compile(cmp.X, at.operand())
	y, oky := ic.compile(cmp.Y, at.operand())
	then, okt := ic.compile(t.Then, at.same())
	els, oke := ic.compile(t.Else, at.same())
	if !okx || !oky || !okt || !oke {
		return nil, false
	}
	if v, ok := cmp.X.(*g.Var); ok && v.Name == ic.param && cmp.Op == g.OpLt {
		if n, ok := cmp.Y.(*g.IntLit); ok { // k < n, the common test
			n := n.N
			if v, ok := t.Then.(*g.Var); ok && v.Name == ic.param { // then k: fib's leaves
				return func(m *machine, k int64) (int64, error) {
					if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
						return 0, err
					}
					if k < n {
						return k, nil
					}
					return els(m, k)
				}, true
			}
			return func(m *machine, k int64) (int64, error) {
				if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
					return 0, err
				}
				if k < n {
					return then(m, k)
				}
				return els(m, k)
			}, true
		}
	}
	eq := cmp.Op == g.OpEq
	return func(m *machine, k int64) (int64, error) {
		a, err := x(m, k)
		if err != nil {
			return 0, err
		}
		b, err := y(m, k)
		if err != nil {
			return 0, err
		}
		if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
			return 0, err
		}
		if eq && a == b || !eq && a < b {
			return then(m, k)
		}
		return els(m, k)
	}, true
}

// zero is the icode of if zero? x then ... else ...: x, δ and If at once, a branch.
func (ic intCompiler) zero(t *g.If, z *g.Unary, at place) (icode, bool) {
	x, okx := ic.compile(z.X, at.operand())
	then, okt := ic.compile(t.Then, at.same())
	els, oke := ic.compile(t.Else, at.same())
	if !okx || !okt || !oke {
		return nil, false
	}
	return func(m *machine, k int64) (int64, error) {
		a, err := x(m, k)
		if err != nil {
			return 0, err
		}
		if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
			return 0, err
		}
		if a == 0 {
			return then(m, k)
		}
		return els(m, k)
	}, true
}

// call is the icode of a call of the function itself, not in tail position (a call in
// tail position is the activation loop's, in the general code): the operand, beta and
// Letrec, the call within the depth bound.
func (ic intCompiler) call(t *g.App, at place) (icode, bool) {
	f, ok := t.Fun.(*g.Var)
	if !ok || at.tail || ic.self == "" || f.Name != ic.self || f.Name == ic.param {
		return nil, false
	}
	fn, w := ic.fn, at.weight()
	if b, ok := t.Arg.(*g.Binary); ok {
		if d, ok := ic.offset(b); ok { // f (k ± n): δ, beta, Letrec at once
			return func(m *machine, k int64) (int64, error) {
				if err := m.fuel.tick(3, corridorDeltaLetrec); err != nil {
					return 0, err
				}
				if m.room < w {
					return 0, m.tooDeep()
				}
				m.room -= w
				n, err := fn.ibody(m, k+d)
				m.room += w
				return n, err
			}, true
		}
	}
	arg, ok := ic.compile(t.Arg, at.operand())
	if !ok {
		return nil, false
	}
	return func(m *machine, k int64) (int64, error) {
		a, err := arg(m, k)
		if err != nil {
			return 0, err
		}
		if err := m.fuel.tick(2, corridorBetaLetrec); err != nil {
			return 0, err
		}
		if m.room < w {
			return 0, m.tooDeep()
		}
		m.room -= w
		n, err := fn.ibody(m, a)
		m.room += w
		return n, err
	}, true
}
