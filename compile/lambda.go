package compile

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/lambdaval"
	"github.com/interderive/interderive/lambda"
)

// The compiled interpreter of the call-by-value λ-calculus is interp/lambda.go staged,
// as the gradual calculi's is interp/gradual.go: lambdaCompiler.interp(e, scope,
// place) is the code of interp(e, ρ), each variable resolved to a slot, each lambda
// a flat closure. A computation in tail position (a branch of if0, the body of a let,
// of a letrec, a call) returns to its activation's loop (lambdaMachine.loop) instead of
// calling, so that tail calls run in constant space; the other calls are Go calls,
// bounded by MaxDepth, weighed as in the gradual calculi. The calculus has no context
// to speak of (no blame, no casts): the code does not keep one.

// Lambda is this stage's artefact for the λ-calculus (lambda.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Lambda() lambda.Stage { return lambdaStage{} }

type lambdaStage struct{}

// Eval compiles a closed, well-typed term, runs the code, and reads the answer back.
func (lambdaStage) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	return lambdaEval(e, opts, MaxDepth)
}

// lambdaEval is Eval with a depth bound of its own (tests run the bound's derivation
// on small stacks).
func lambdaEval(e lambda.Expr, opts interderive.Options, maxDepth int) (lambda.Answer, error) {
	top := &lambdaScope{}
	body := lambdaCompiler{}.interp(e, top, place{tail: true})
	m := &lambdaMachine{room: maxDepth, maxDepth: maxDepth}
	m.fuel.start(opts)
	val, err := m.run(body, top.max)
	if err != nil {
		return lambda.Answer{}, err
	}
	return lambda.Answer{Value: lambdaval.ReadBack(lambdaToValue(val))}, nil
}

// lambdaCode is a compiled subterm of the λ-calculus: what interp does for it, given
// the machine, the locals of the running activation and the closure it runs.
type lambdaCode func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error)

// lambdaFunction is a compiled lambda.
type lambdaFunction struct {
	lam      *lambda.Lam
	body     lambdaCode
	nloc     int
	captures []capture
}

// lambdaClosure is a compiled lambda closed by the values of its free variables.
type lambdaClosure struct {
	fn   *lambdaFunction
	free []value
}

func (*lambdaClosure) isRef() {}

// lambdaScope is a scope of the λ-calculus's compiled code.
type lambdaScope = scope[*lambdaFunction]

// lambdaGet is the value in a slot.
func lambdaGet(s slot, loc []value, self *lambdaClosure) value {
	switch s.kind {
	case inLocal:
		return loc[s.i]
	case inFree:
		return self.free[s.i]
	}
	return value{ref: self}
}

// lambdaMachine is a run of the λ-calculus's compiled code: the counter, the depth
// left, the stack of the activations' locals, and a call in tail position for the
// activation's loop to make (next nil: none).
type lambdaMachine struct {
	fuel     meter
	room     int
	maxDepth int
	stack    []value
	sp       int
	next     *lambdaClosure
	arg      value
}

// lambdaCompiler compiles the terms of one run.
type lambdaCompiler struct{}

// run runs the program's code, and the calls it makes in tail position.
func (m *lambdaMachine) run(body lambdaCode, locals int) (value, error) {
	val, err := body(m, m.frame(0, locals), nil)
	if err != nil || m.next == nil {
		return val, err
	}
	clo, arg := m.next, m.arg
	m.next = nil
	return m.loop(clo, arg, 0)
}

// frame returns the locals of an activation of n locals at base (machine.frame's).
func (m *lambdaMachine) frame(base, n int) []value {
	top := base + n
	if top > len(m.stack) {
		m.stack = make([]value, max(2*len(m.stack), top, 64))
	}
	m.sp = top
	return m.stack[base:top:top]
}

// call runs the body of clo on arg (its beta contraction made), and the calls it makes
// in tail position, within the depth bound; w is the call's weight.
func (m *lambdaMachine) call(clo *lambdaClosure, arg value, w int) (value, error) {
	if m.room < w {
		return value{}, &interderive.DepthError{What: "compiled code's recursion", Limit: m.maxDepth}
	}
	m.room -= w
	base := m.sp
	val, err := m.loop(clo, arg, base)
	m.sp = base
	m.room += w
	return val, err
}

// loop runs calls until one answers, each in the frame of the call before.
func (m *lambdaMachine) loop(clo *lambdaClosure, arg value, base int) (value, error) {
	for {
		loc := m.frame(base, clo.fn.nloc)
		loc[0] = arg
		val, err := clo.fn.body(m, loc, clo)
		if m.next == nil || err != nil {
			m.next = nil
			return val, err
		}
		clo, arg = m.next, m.arg
		m.next = nil
	}
}

// interp is the code of e in the scope sc at the place at: interp's eval, one case per
// construct.
func (c lambdaCompiler) interp(e lambda.Expr, sc *lambdaScope, at place) lambdaCode {
	switch t := e.(type) {
	case *lambda.IntLit:
		val := intValue(t.N)
		return func(*lambdaMachine, []value, *lambdaClosure) (value, error) { return val, nil }
	case *lambda.Var:
		s, ok := sc.lookup(t.Name)
		if !ok {
			stuck := interderive.Stuck("", "unbound variable %s", t.Name)
			return func(*lambdaMachine, []value, *lambdaClosure) (value, error) { return value{}, stuck }
		}
		return func(_ *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			return lambdaGet(s, loc, self), nil
		}
	case *lambda.Lam:
		fn := c.function(t, sc)
		return func(_ *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			return value{ref: fn.close(loc, self)}, nil
		}
	case *lambda.Binary:
		x := c.interp(t.X, sc, at.operand())
		y := c.interp(t.Y, sc, at.operand())
		op := t.Op
		return func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			a, err := x(m, loc, self)
			if err != nil {
				return value{}, err
			}
			b, err := y(m, loc, self)
			if err != nil {
				return value{}, err
			}
			n, ok := lambda.Prim(op, a.n, b.n)
			if !a.isInt() || !b.isInt() || !ok {
				return value{}, interderive.Stuck(lambdaShow(a, b), "%s applied to a non-integer", op)
			}
			if err := m.fuel.contract(lambda.RuleDelta); err != nil {
				return value{}, err
			}
			return intValue(n), nil
		}
	case *lambda.If0:
		cond := c.interp(t.Cond, sc, at.operand())
		then := c.interp(t.Then, sc, at.same())
		els := c.interp(t.Else, sc, at.same())
		return func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			n, err := cond(m, loc, self)
			if err != nil {
				return value{}, err
			}
			if !n.isInt() {
				return value{}, interderive.Stuck(lambdaShow(n), "if0 on a non-integer")
			}
			if err := m.fuel.contract(lambda.RuleIf0); err != nil {
				return value{}, err
			}
			if n.n == 0 {
				return then(m, loc, self)
			}
			return els(m, loc, self)
		}
	case *lambda.App:
		return c.application(t, sc, at)
	case *lambda.Let:
		bound := c.interp(t.Bound, sc, at.operand())
		i := sc.bind(t.Name)
		body := c.interp(t.Body, sc, at.same())
		sc.unbind()
		return func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			b, err := bound(m, loc, self)
			if err != nil {
				return value{}, err
			}
			if err := m.fuel.contract(lambda.RuleLet); err != nil {
				return value{}, err
			}
			loc[i] = b
			return body(m, loc, self)
		}
	case *lambda.Letrec:
		fn := c.function(lambda.Unfold(t), sc)
		i := sc.bind(t.Name)
		body := c.interp(t.Body, sc, at.same())
		sc.unbind()
		return func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			if err := m.fuel.contract(lambda.RuleLetrec); err != nil {
				return value{}, err
			}
			loc[i] = value{ref: fn.close(loc, self)}
			return body(m, loc, self)
		}
	}
	stuck := interderive.Stuck("", "cannot interpret %T", e)
	return func(*lambdaMachine, []value, *lambdaClosure) (value, error) { return value{}, stuck }
}

// application is the code of f a: both operands, then apply's beta; the call is the
// activation loop's in tail position, a Go call elsewhere.
func (c lambdaCompiler) application(t *lambda.App, sc *lambdaScope, at place) lambdaCode {
	fun := c.interp(t.Fun, sc, at.operand())
	arg := c.interp(t.Arg, sc, at.operand())
	w, tail := at.weight(), at.tail
	return func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
		f, err := fun(m, loc, self)
		if err != nil {
			return value{}, err
		}
		a, err := arg(m, loc, self)
		if err != nil {
			return value{}, err
		}
		clo, ok := f.ref.(*lambdaClosure)
		if !ok {
			return value{}, interderive.Stuck(lambdaShow(f, a), "application of a non-function")
		}
		if err := m.fuel.contract(lambda.RuleBeta); err != nil {
			return value{}, err
		}
		if tail {
			m.next, m.arg = clo, a
			return value{}, nil
		}
		return m.call(clo, a, w)
	}
}

// function compiles the lambda f, made in the scope sc. The body of an unfolded
// letrec function (Unfold(l)) is the letrec l, made in the call's environment, which
// binds l's name to the unfolded function closed by that environment less the
// parameter (lambdaval.LetrecClosure): the closure called, which the code binds rather
// than makes again.
func (c lambdaCompiler) function(f *lambda.Lam, sc *lambdaScope) *lambdaFunction {
	fn := &lambdaFunction{lam: f}
	in := &lambdaScope{fn: fn, captures: &fn.captures, parent: sc}
	in.bind(f.Param)
	if l := lambda.Unfolding(f); l != nil {
		in.names = append(in.names, binding{l.Name, slot{kind: isSelf}})
		body := c.interp(l.Body, in, place{tail: true, depth: 1})
		fn.body = func(m *lambdaMachine, loc []value, self *lambdaClosure) (value, error) {
			if err := m.fuel.contract(lambda.RuleLetrec); err != nil {
				return value{}, err
			}
			return body(m, loc, self)
		}
	} else {
		fn.body = c.interp(f.Body, in, place{tail: true})
	}
	fn.nloc = in.max
	return fn
}

// close is the closure of fn made by an activation whose locals are loc, running self.
func (fn *lambdaFunction) close(loc []value, self *lambdaClosure) *lambdaClosure {
	clo := &lambdaClosure{fn: fn}
	if len(fn.captures) > 0 {
		clo.free = make([]value, len(fn.captures))
		for j, cp := range fn.captures {
			clo.free[j] = lambdaGet(cp.from, loc, self)
		}
	}
	return clo
}

// lambdaToValue turns a compiled value into lambdaval's, for read-back: a closure
// becomes its lambda closed by an environment that binds its free variables. It keeps
// the closures still to convert in a stack of its own (values nest as deep as the run
// made them) and converts a shared closure once.
func lambdaToValue(x value) lambdaval.Value {
	root, ok := x.ref.(*lambdaClosure)
	if !ok {
		return lambdaval.Int(x.n)
	}
	done := map[*lambdaClosure]*lambdaval.Closure{}
	conv := func(x value) lambdaval.Value {
		if clo, ok := x.ref.(*lambdaClosure); ok {
			return done[clo]
		}
		return lambdaval.Int(x.n)
	}
	for stack := []*lambdaClosure{root}; len(stack) > 0; {
		clo := stack[len(stack)-1]
		if _, ok := done[clo]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		ready := true
		for _, x := range clo.free {
			if in, ok := x.ref.(*lambdaClosure); ok {
				if _, ok := done[in]; !ok {
					stack = append(stack, in)
					ready = false
				}
			}
		}
		if !ready {
			continue
		}
		var rho *lambdaval.Env
		for j := len(clo.free) - 1; j >= 0; j-- {
			rho = rho.Bind(clo.fn.captures[j].name, conv(clo.free[j]))
		}
		done[clo] = &lambdaval.Closure{Lam: clo.fn.lam, Env: rho}
		stack = stack[:len(stack)-1]
	}
	return done[root]
}

// lambdaShow prints values read back, for a stuck run's message.
func lambdaShow(xs ...value) string {
	var vs []lambdaval.Value
	for _, x := range xs {
		vs = append(vs, lambdaToValue(x))
	}
	return lambdaval.Show(vs...)
}
