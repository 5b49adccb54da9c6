package compile

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// The compiled interpreter of λ⟨·⟩ is interp staged: compiler.interp(e, scope, place)
// is the code of interp(e, ρ, k), the environment ρ known by its shape (where each
// variable's value will be: scope) and the context k by its position (tail of the
// activation, or inner: place). What only the run knows — the values, the pending
// coercion of the merging mode, whether the activation's context is empty — the code
// reads from its frame and the machine. Its run-time functions (apply, cast, mkCast,
// seq, normalize, pending, blame) are interp's, on the compiled values.
//
// Calls in tail position do not return to their caller's code but to the loop of the
// activation (machine.loop), so that tail calls run in constant space as in interp;
// the other calls are recursive Go calls, bounded by MaxDepth.

// compiler compiles the terms of one run: its semantics and mode are known before
// the run, so that the code is specialised to them.
type compiler struct {
	sem   g.Semantics
	merge bool
}

// EvalCast compiles a translated, well-typed term of λ⟨·⟩, runs the code, and reads
// the answer back. The code merges pending coercions where that preserves answers
// (gradual.MergesSafely), unless opts.Merging says otherwise, as interp does.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return evalCast(sem, e, opts, MaxDepth)
}

// evalCast is EvalCast with a depth bound of its own (tests run the bound's
// derivation on small stacks).
func evalCast(sem g.Semantics, e g.Expr, opts interderive.Options, maxDepth int) (g.Answer, error) {
	merge := opts.Merging.Merge(g.MergesSafely(sem))
	c := &compiler{sem: sem, merge: merge}
	top := &gradualScope{}
	body := c.interp(e, top, place{tail: true})
	m := &machine{sem: sem, merge: merge, room: maxDepth, maxDepth: maxDepth}
	m.fuel.start(opts)
	val, err := m.run(body, top.max)
	if b, ok := err.(*blamed); ok {
		return g.Answer{Blamed: true, Blame: b.l}, nil
	}
	if err != nil {
		return g.Answer{}, err
	}
	return g.Answer{Value: readBack(toCastval(val))}, nil
}

// run runs the program's code, in the empty context, and the calls it makes in tail
// position.
func (m *machine) run(body code, locals int) (value, error) {
	m.k = ctx{tail: true}
	val, err := body(m, m.frame(0, locals), nil)
	if err != nil || m.next == nil {
		return val, err
	}
	clo, arg := m.next, m.arg
	m.k, m.next = m.nextK, nil
	return m.loop(clo, arg, 0) // the program's frame is dead
}

// interp is the code of e in the scope sc, at the place at: interp's eval, one case per
// construct, each returning what that case computes, as code.
func (c *compiler) interp(e g.Expr, sc *gradualScope, at place) code {
	if at.tail && sc.fn != nil {
		switch e.(type) {
		case *g.App, *g.Coerce, *g.Blame: // a call in tail position, or blame: the context
			sc.fn.readsK = true
		}
		if c.merge { // ret: the pending coercion
			sc.fn.readsK = true
		}
	}
	switch t := e.(type) {
	case *g.IntLit, *g.BoolLit:
		val, _ := constant(t)
		return c.ret(at, func(*machine, []value, *closure) (value, error) { return val, nil })
	case *g.Var:
		return c.ret(at, c.variable(t, sc))
	case *g.Lam:
		fn := c.function(t, sc)
		return c.ret(at, func(m *machine, loc []value, self *closure) (value, error) {
			return value{ref: fn.close(loc, self)}, nil
		})
	case *g.Unary:
		x := c.interp(t.X, sc, at.operand())
		op := t.Op
		return c.ret(at, func(m *machine, loc []value, self *closure) (value, error) {
			a, err := x(m, loc, self)
			if err != nil {
				return value{}, err
			}
			return m.delta(op, a, value{})
		})
	case *g.Binary:
		general := c.binary(t, sc, at)
		if fast := c.binaryAtoms(t, sc, general); fast != nil {
			return c.ret(at, fast)
		}
		return c.ret(at, general)
	case *g.If:
		return c.conditional(t, sc, at)
	case *g.App:
		return c.application(t, sc, at)
	case *g.Coerce:
		return c.coerce(t, sc, at)
	case *g.Let:
		bound := c.interp(t.Bound, sc, at.operand())
		i := sc.bind(t.Name)
		body := c.interp(t.Body, sc, at.same())
		sc.unbind()
		return func(m *machine, loc []value, self *closure) (value, error) {
			b, err := bound(m, loc, self)
			if err != nil {
				return value{}, err
			}
			if err := m.fuel.contract(g.RuleLet); err != nil {
				return value{}, err
			}
			loc[i] = b
			return body(m, loc, self)
		}
	case *g.Letrec:
		fn := c.function(g.Unfold(t), sc)
		i := sc.bind(t.Name)
		body := c.interp(t.Body, sc, at.same())
		sc.unbind()
		return func(m *machine, loc []value, self *closure) (value, error) {
			if err := m.fuel.contract(g.RuleLetrec); err != nil {
				return value{}, err
			}
			loc[i] = value{ref: fn.close(loc, self)}
			return body(m, loc, self)
		}
	case *g.Blame:
		l := t.L
		if !at.tail {
			return func(m *machine, _ []value, _ *closure) (value, error) { return m.blame(l, inner) }
		}
		return func(m *machine, _ []value, _ *closure) (value, error) { return m.blame(l, m.k) }
	}
	stuck := interderive.Stuck("", "cannot interpret %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown))
	return func(*machine, []value, *closure) (value, error) { return value{}, stuck }
}

// ret is the code of x followed by interp's ret: in tail position, in the merging mode,
// through the activation's pending coercion; elsewhere x itself.
func (c *compiler) ret(at place, x code) code {
	if !at.tail || !c.merge {
		return x
	}
	return func(m *machine, loc []value, self *closure) (value, error) {
		val, err := x(m, loc, self)
		if err != nil {
			return value{}, err
		}
		return m.ret(val)
	}
}

// variable is the code of a variable: its slot, resolved now.
func (c *compiler) variable(t *g.Var, sc *gradualScope) code {
	s, ok := sc.lookup(t.Name)
	if !ok {
		stuck := interderive.Stuck("", "unbound variable %s", t.Name)
		return func(*machine, []value, *closure) (value, error) { return value{}, stuck }
	}
	switch i := s.i; s.kind {
	case inLocal:
		return func(_ *machine, loc []value, _ *closure) (value, error) { return loc[i], nil }
	case inFree:
		return func(_ *machine, _ []value, self *closure) (value, error) { return self.free[i], nil }
	}
	return func(_ *machine, _ []value, self *closure) (value, error) { return value{ref: self}, nil }
}

// function compiles the lambda f, made in the scope sc: its body in a scope of its
// own, whose free variables come from sc. The body of an unfolded letrec function
// (Unfold(l)) is the letrec l, whose contraction the call makes (machine.beta): the
// code starts at l's body, where l's name is the closure called.
func (c *compiler) function(f *g.Lam, sc *gradualScope) *function {
	fn := &function{lam: f}
	in := &gradualScope{fn: fn, captures: &fn.captures, parent: sc}
	in.bind(f.Param)
	body, self := f.Body, ""
	if l := g.Unfolding(f); l != nil {
		fn.unfolds = true
		in.names = append(in.names, binding{l.Name, slot{kind: isSelf}})
		body, self = l.Body, l.Name
	}
	fn.body = c.interp(body, in, place{tail: true})
	fn.nloc = in.max
	if fn.ibody = c.intBody(f, fn, self, body); fn.ibody != nil {
		// Called on an integer, the function runs its code for integers; on anything
		// else (a run that will get stuck), its general code.
		general, ibody := fn.body, fn.ibody
		fn.body = func(m *machine, loc []value, self *closure) (value, error) {
			if k := loc[0]; k.isInt() {
				n, err := ibody(m, k.n)
				return intValue(n), err
			}
			return general(m, loc, self)
		}
	}
	return fn
}

// close is the closure of fn made by an activation whose locals are loc, running
// self: the values of fn's free variables, copied.
func (fn *function) close(loc []value, self *closure) *closure {
	clo := &closure{fn: fn}
	if len(fn.captures) > 0 {
		clo.free = make([]value, len(fn.captures))
		for j, cp := range fn.captures {
			clo.free[j] = cp.from.get(loc, self)
		}
	}
	return clo
}

// binary is the code of x op y: both operands, then δ.
func (c *compiler) binary(t *g.Binary, sc *gradualScope, at place) code {
	x := c.interp(t.X, sc, at.operand())
	y := c.interp(t.Y, sc, at.operand())
	op := t.Op
	if op == g.OpAdd { // the common case, without prim's dispatch on the operator
		return func(m *machine, loc []value, self *closure) (value, error) {
			a, err := x(m, loc, self)
			if err != nil {
				return value{}, err
			}
			b, err := y(m, loc, self)
			if err != nil {
				return value{}, err
			}
			if !a.isInt() || !b.isInt() {
				return m.delta(op, a, b) // stuck
			}
			if err := m.fuel.contract(g.RuleDelta); err != nil {
				return value{}, err
			}
			return intValue(a.n + b.n), nil
		}
	}
	return func(m *machine, loc []value, self *closure) (value, error) {
		a, err := x(m, loc, self)
		if err != nil {
			return value{}, err
		}
		b, err := y(m, loc, self)
		if err != nil {
			return value{}, err
		}
		if !a.isInt() || !b.isInt() {
			return m.delta(op, a, b) // stuck
		}
		if err := m.fuel.contract(g.RuleDelta); err != nil {
			return value{}, err
		}
		n, truth, isBool := prim(op, a.n, b.n)
		if isBool {
			return boolValue(truth), nil
		}
		return intValue(n), nil
	}
}

// conditional is the code of if: the condition, the If contraction, a branch in the
// if's position.
func (c *compiler) conditional(t *g.If, sc *gradualScope, at place) code {
	cond := c.interp(t.Cond, sc, at.operand())
	then := c.interp(t.Then, sc, at.same())
	els := c.interp(t.Else, sc, at.same())
	general := func(m *machine, loc []value, self *closure) (value, error) {
		b, err := cond(m, loc, self)
		if err != nil {
			return value{}, err
		}
		if !b.isBool() {
			return value{}, interderive.Stuck(show(b), "if on a non-boolean")
		}
		if err := m.fuel.contract(g.RuleIf); err != nil {
			return value{}, err
		}
		if b.n != 0 {
			return then(m, loc, self)
		}
		return els(m, loc, self)
	}
	if fast := c.conditionAtoms(t, sc, at, then, els, general); fast != nil {
		return fast
	}
	return general
}

// application is the code of f a: both operands, then apply; the call is the
// activation loop's in tail position, a recursive call elsewhere.
func (c *compiler) application(t *g.App, sc *gradualScope, at place) code {
	fun := c.interp(t.Fun, sc, at.operand())
	arg := c.interp(t.Arg, sc, at.operand())
	w := at.weight()
	tail := at.tail
	general := func(m *machine, loc []value, self *closure) (value, error) {
		f, err := fun(m, loc, self)
		if err != nil {
			return value{}, err
		}
		a, err := arg(m, loc, self)
		if err != nil {
			return value{}, err
		}
		k := inner
		if tail {
			k = m.k
		}
		clo, ok := f.ref.(*closure)
		if !ok { // apply's other cases
			var ans value
			if clo, a, k, ans, err = m.apply(f, a, k, w); clo == nil {
				return ans, err
			}
		}
		if err := m.beta(clo); err != nil {
			return value{}, err
		}
		if tail {
			return m.tailCall(clo, a, k)
		}
		return m.call(clo, a, k, w)
	}
	if fast := c.applicationAtoms(t, sc, at, general); fast != nil {
		return fast
	}
	return general
}

// coerce is the code of <c> e, interp's coerce: in the merging mode, unless <c> e is
// a value at once, the coercion becomes the context's pending one and e goes on in its
// place; otherwise e's value, cast.
func (c *compiler) coerce(t *g.Coerce, sc *gradualScope, at place) code {
	co := t.C
	if !c.merge {
		x := c.interp(t.X, sc, at.operand())
		if !at.tail {
			return func(m *machine, loc []value, self *closure) (value, error) {
				a, err := x(m, loc, self)
				if err != nil {
					return value{}, err
				}
				return m.cast(co, a, inner)
			}
		}
		return func(m *machine, loc []value, self *closure) (value, error) {
			a, err := x(m, loc, self)
			if err != nil {
				return value{}, err
			}
			return m.cast(co, a, ctx{tail: m.k.empty()})
		}
	}
	// In the merging mode e's code is compiled once, in tail position of a context
	// the run sets: the pending coercion's, or inner when e's value is cast.
	x := c.interp(t.X, sc, place{tail: true, depth: at.depth + 1})
	w := at.weight()
	wraps := c.wrapsValue(t.X, sc)
	tail := at.tail
	return func(m *machine, loc []value, self *closure) (value, error) {
		k := inner
		if tail {
			k = m.k
		}
		if !wraps(co, loc, self) {
			isValue := func(n g.Coercion) bool { return wraps(n, loc, self) }
			kk, wrapper, err := m.pending(co, k, isValue)
			if err != nil {
				return value{}, err
			}
			if wrapper != nil { // <c̄> s: a value, now that its coercion is normal
				s, err := m.sub(x, loc, self, inner, w)
				if err != nil {
					return value{}, err
				}
				return m.retTo(value{ref: &wrapped{c: wrapper, s: s}}, k)
			}
			if tail {
				m.k = kk
				return x(m, loc, self)
			}
			return m.sub(x, loc, self, kk, w)
		}
		s, err := m.sub(x, loc, self, inner, w)
		if err != nil {
			return value{}, err
		}
		a, err := m.cast(co, s, ctx{tail: k.empty()})
		if err != nil || k.pending == nil {
			return a, err
		}
		return m.retTo(a, k)
	}
}

// wrapsValue is castval.WrapsValue staged: whether <d> e, at run time, denotes a value
// <c̄> s without a step — e a constant, a lambda, or a variable bound to a simple
// value, and d a wrapper in normal form.
func (c *compiler) wrapsValue(e g.Expr, sc *gradualScope) func(d g.Coercion, loc []value, self *closure) bool {
	normal := func(d g.Coercion) bool { return g.IsWrapperShape(d) && g.IsNormal(c.sem, d) }
	switch x := e.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
		return func(d g.Coercion, _ []value, _ *closure) bool { return normal(d) }
	case *g.Var:
		s, ok := sc.lookup(x.Name)
		if !ok {
			return func(g.Coercion, []value, *closure) bool { return false }
		}
		return func(d g.Coercion, loc []value, self *closure) bool {
			return s.get(loc, self).simple() && normal(d)
		}
	}
	return func(g.Coercion, []value, *closure) bool { return false }
}

// Gradual is this stage's artefact for the gradual calculi (gradual.StageOf). Like
// interp, it has no intermediate states to show: its observer sees nothing but its
// contractions.
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}
