package compile

import g "github.com/interderive/interderive/gradual"

// What interp does without a call for speed, compile does without a code of its own:
// an atom (a variable or a constant) is read where it is used, an operator on atoms is
// one δ contraction in its user's code (interp's operand), an if's comparison of atoms
// is the if's own (interp's condition), and an application of an atom to an atom, or
// to an operator on atoms, counts its δ, beta and Letrec contractions at once, a
// corridor (interp's operand and beta). The contractions are the same, in the same
// order.

// atomKind says where an atom's value is.
type atomKind uint8

const (
	atomLocal atomKind = iota // loc[i]
	atomFree                  // self.free[i]
	atomSelf                  // the closure running
	atomConst                 // val
)

// atom is a variable (resolved) or a constant.
type atom struct {
	kind atomKind
	i    int
	val  value
}

// atomOf is e as an atom, if it is a bound variable or a constant.
func atomOf(e g.Expr, sc *gradualScope) (atom, bool) {
	switch t := e.(type) {
	case *g.IntLit, *g.BoolLit:
		val, _ := constant(t)
		return atom{kind: atomConst, val: val}, true
	case *g.Var:
		s, ok := sc.lookup(t.Name)
		if !ok {
			return atom{}, false
		}
		switch s.kind {
		case inLocal:
			return atom{kind: atomLocal, i: s.i}, true
		case inFree:
			return atom{kind: atomFree, i: s.i}, true
		}
		return atom{kind: atomSelf}, true
	}
	return atom{}, false
}

// get is the atom's value.
func (a *atom) get(loc []value, self *closure) value {
	switch a.kind {
	case atomLocal:
		return loc[a.i]
	case atomFree:
		return self.free[a.i]
	case atomSelf:
		return value{ref: self}
	}
	return a.val
}

// prim is δ on integers for the binary operators (gradual.Prim's), inline.
func prim(op g.Op, a, b int64) (n int64, truth, isBool bool) {
	switch op {
	case g.OpAdd:
		return a + b, false, false
	case g.OpSub:
		return a - b, false, false
	case g.OpMul:
		return a * b, false, false
	case g.OpEq:
		return 0, a == b, true
	}
	return 0, a < b, true
}

// simpleOperand is an operand whose value the user's code takes itself: an atom, or a
// binary operator on atoms (one δ contraction).
type simpleOperand struct {
	x, y   atom
	op     g.Op
	binary bool
}

// simpleOperandOf is e as a simple operand, if it is one.
func simpleOperandOf(e g.Expr, sc *gradualScope) (simpleOperand, bool) {
	if a, ok := atomOf(e, sc); ok {
		return simpleOperand{x: a}, true
	}
	if t, ok := e.(*g.Binary); ok {
		x, okx := atomOf(t.X, sc)
		y, oky := atomOf(t.Y, sc)
		if okx && oky {
			return simpleOperand{x: x, y: y, op: t.Op, binary: true}, true
		}
	}
	return simpleOperand{}, false
}

// get is the operand's value, its δ contraction not yet counted; ok is false when an
// operator's operands are not integers (the code's general form then says why the run
// is stuck).
func (o *simpleOperand) get(loc []value, self *closure) (value, bool) {
	a := o.x.get(loc, self)
	if !o.binary {
		return a, true
	}
	b := o.y.get(loc, self)
	if !a.isInt() || !b.isInt() {
		return value{}, false
	}
	n, truth, isBool := prim(o.op, a.n, b.n)
	if isBool {
		return boolValue(truth), true
	}
	return intValue(n), true
}

// binaryAtoms is the code of x op y on atoms, or nil if t is not that.
func (c *compiler) binaryAtoms(t *g.Binary, sc *gradualScope, general code) code {
	o, ok := simpleOperandOf(t, sc)
	if !ok || !o.binary {
		return nil
	}
	return func(m *machine, loc []value, self *closure) (value, error) {
		r, ok := o.get(loc, self)
		if !ok {
			return general(m, loc, self)
		}
		if err := m.fuel.contract(g.RuleDelta); err != nil {
			return value{}, err
		}
		return r, nil
	}
}

// The corridors a compiled application counts at once.
var (
	corridorBeta        = []string{g.RuleBeta}
	corridorBetaLetrec  = []string{g.RuleBeta, g.RuleLetrec}
	corridorDeltaBeta   = []string{g.RuleDelta, g.RuleBeta}
	corridorDeltaLetrec = []string{g.RuleDelta, g.RuleBeta, g.RuleLetrec}
	corridorDeltaIf     = []string{g.RuleDelta, g.RuleIf}
)

// corridor is the contractions of a call of clo with a simple operand: its δ, if
// any, then beta, and Letrec for an unfolded letrec function.
func corridor(delta bool, clo *closure) []string {
	switch {
	case delta && clo.fn.unfolds:
		return corridorDeltaLetrec
	case delta:
		return corridorDeltaBeta
	case clo.fn.unfolds:
		return corridorBetaLetrec
	}
	return corridorBeta
}

// applicationAtoms is the code of f a where f is an atom and a a simple operand, or nil
// if t is not that. general is the application's general code, for a run that is
// stuck.
func (c *compiler) applicationAtoms(t *g.App, sc *gradualScope, at place, general code) code {
	f, okf := atomOf(t.Fun, sc)
	a, oka := simpleOperandOf(t.Arg, sc)
	if !okf || !oka {
		return nil
	}
	if self := c.selfCall(f, a, sc, at, general); self != nil {
		return self
	}
	w := at.weight()
	tail := at.tail
	return func(m *machine, loc []value, self *closure) (value, error) {
		fv := f.get(loc, self)
		av, ok := a.get(loc, self)
		if !ok {
			return general(m, loc, self)
		}
		clo, isClosure := fv.ref.(*closure)
		if isClosure {
			rules := corridor(a.binary, clo)
			if err := m.fuel.tick(len(rules), rules); err != nil {
				return value{}, err
			}
		} else {
			if a.binary {
				if err := m.fuel.contract(g.RuleDelta); err != nil {
					return value{}, err
				}
			}
			k := inner
			if tail {
				k = m.k
			}
			var ans value
			var err error
			if clo, av, k, ans, err = m.apply(fv, av, k, w); clo == nil {
				return ans, err
			}
			if err := m.beta(clo); err != nil {
				return value{}, err
			}
			if tail {
				return m.tailCall(clo, av, k)
			}
			return m.call(clo, av, k, w)
		}
		if tail {
			return m.tailCall(clo, av, m.k)
		}
		return m.enter(clo, av, w)
	}
}

// conditionAtoms is the code of if whose condition compares atoms (interp's
// condition): its δ and If contractions at once, then a branch; nil if t's condition
// is not that.
func (c *compiler) conditionAtoms(t *g.If, sc *gradualScope, at place, then, els, general code) code {
	b, ok := t.Cond.(*g.Binary)
	if !ok || (b.Op != g.OpLt && b.Op != g.OpEq) {
		return nil
	}
	o, ok := simpleOperandOf(b, sc)
	if !ok {
		return nil
	}
	if local := c.compareLocal(o, c.branchOf(t.Then, sc, at, then), c.branchOf(t.Else, sc, at, els), general); local != nil {
		return local
	}
	return func(m *machine, loc []value, self *closure) (value, error) {
		x, y := o.x.get(loc, self), o.y.get(loc, self)
		if !x.isInt() || !y.isInt() {
			return general(m, loc, self)
		}
		truth := x.n < y.n
		if o.op == g.OpEq {
			truth = x.n == y.n
		}
		if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
			return value{}, err
		}
		if truth {
			return then(m, loc, self)
		}
		return els(m, loc, self)
	}
}

// offset is the integer d of an operand x + d or x - (-d) whose x is a local and d a
// constant: the operand of most recursive calls (fib (k - 1)); ok is false for any
// other operand. Subtracting n is adding -n in 64-bit wrapping arithmetic, whatever
// n, so both are an addition.
func (o *simpleOperand) offset() (i int, d int64, ok bool) {
	if !o.binary || o.x.kind != atomLocal || o.y.kind != atomConst || !o.y.val.isInt() {
		return 0, 0, false
	}
	switch o.op {
	case g.OpAdd:
		return o.x.i, o.y.val.n, true
	case g.OpSub:
		return o.x.i, -o.y.val.n, true
	}
	return 0, 0, false
}

// selfCall is the code of f (x ± n) in an inner context, where f is the letrec
// function whose body is being compiled (sc.fn, unfolded) and x a local: the
// function called is known now, and so are its contractions (δ, beta, Letrec); nil if
// the application is not that.
func (c *compiler) selfCall(f atom, a simpleOperand, sc *gradualScope, at place, general code) code {
	i, d, ok := a.offset()
	if !ok || f.kind != atomSelf || at.tail || sc.fn == nil || !sc.fn.unfolds {
		return nil
	}
	w := at.weight()
	fn := sc.fn // the closure running is always one of fn
	return func(m *machine, loc []value, self *closure) (value, error) {
		x := loc[i]
		base := m.sp
		top := base + fn.nloc
		if !x.isInt() || fn.readsK || m.room < w || m.fuel.left < 3 || top > len(m.stack) {
			return m.selfCallSlow(general, loc, self, x, d, w)
		}
		// The corridor counted, then m.enter(self, intValue(x.n+d), w), written out.
		m.fuel.left -= 3
		m.room -= w
		m.sp = top
		callee := m.stack[base:top:top]
		callee[0] = intValue(x.n + d)
		val, err := fn.body(m, callee, self)
		m.sp = base
		m.room += w
		return val, err
	}
}

// selfCallSlow is selfCall's code where it cannot take its fast path, in order: the
// general code if the operand x is not an integer, the corridor, the call of self on
// x + d.
//
//go:noinline
func (m *machine) selfCallSlow(general code, loc []value, self *closure, x value, d int64, w int) (value, error) {
	if !x.isInt() {
		return general(m, loc, self)
	}
	if err := m.fuel.tick(3, corridorDeltaLetrec); err != nil {
		return value{}, err
	}
	return m.enter(self, intValue(x.n+d), w)
}

// branch is a branch of an if: an atom, read where the if is (when nothing is to be
// done with it before it returns: not in tail position in the merging mode), or code.
type branch struct {
	a      atom
	isAtom bool
	code   code
}

// branchOf is e, a branch compiled as code, as a branch.
func (c *compiler) branchOf(e g.Expr, sc *gradualScope, at place, code code) branch {
	if !at.tail || !c.merge {
		if a, ok := atomOf(e, sc); ok {
			return branch{a: a, isAtom: true, code: code}
		}
	}
	return branch{code: code}
}

// compareLocal is the code of if x < n (or x = n) on a local x and an integer n, or nil
// if the condition is not that.
func (c *compiler) compareLocal(o simpleOperand, then, els branch, general code) code {
	if o.x.kind != atomLocal || o.y.kind != atomConst || !o.y.val.isInt() {
		return nil
	}
	i, n := o.x.i, o.y.val.n
	if o.op == g.OpEq {
		return func(m *machine, loc []value, self *closure) (value, error) {
			x := loc[i]
			if !x.isInt() {
				return general(m, loc, self)
			}
			if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
				return value{}, err
			}
			if x.n == n {
				if then.isAtom {
					return then.a.get(loc, self), nil
				}
				return then.code(m, loc, self)
			}
			if els.isAtom {
				return els.a.get(loc, self), nil
			}
			return els.code(m, loc, self)
		}
	}
	return func(m *machine, loc []value, self *closure) (value, error) {
		x := loc[i]
		if !x.isInt() {
			return general(m, loc, self)
		}
		if err := m.fuel.tick(2, corridorDeltaIf); err != nil {
			return value{}, err
		}
		if x.n < n {
			if then.isAtom {
				return then.a.get(loc, self), nil
			}
			return then.code(m, loc, self)
		}
		if els.isAtom {
			return els.a.get(loc, self), nil
		}
		return els.code(m, loc, self)
	}
}
