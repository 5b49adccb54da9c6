package compile

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// MaxDepth bounds the depth of the compiled code's recursion: the calls that are not
// in tail position, each weighed by the frames of code it is made under (place.weight).
// Past it a run stops with an *interderive.DepthError instead of exhausting the Go
// stack. A unit of depth takes at most DepthFrame bytes of the stack, and MaxDepth
// units half of interderive.StackLimit: the other half is for the activation on top
// (whose code nests as deep as its function's body, bounded by the calculi's
// MaxNesting) and the meta-level functions it calls. So 2^29 / 2 / 512 = 524,288 on
// 64-bit platforms. (TestDepthFrame runs recursions to a bound under a stack limited
// as MaxDepth's derivation says.)
const MaxDepth = interderive.StackLimit / 2 / DepthFrame

// DepthFrame is the bound, in bytes, on the Go stack a unit of depth takes: a frame of
// code, or of the machine's call.
const DepthFrame = 512

// machine is a run of compiled code: the semantics, the counter, the depth, the
// stack of the activations' locals, and the context of the running activation.
type machine struct {
	sem      g.Semantics
	fuel     meter
	merge    bool
	room     int // the depth left: MaxDepth less the weights of the calls running
	maxDepth int

	stack []value // the activations' locals: the running one's end at sp
	sp    int
	k     ctx // the context of the running activation

	// A call in tail position, which the activation's loop makes: set by the code in
	// tail position, in place of a value (next nil: none).
	next  *closure
	arg   value
	nextK ctx
}

// ctx is what the compiled code knows of the evaluation context of an activation at
// run time, as interp's ctx: whether it is empty (tail), and the pending coercion of
// the merging mode.
type ctx struct {
	tail    bool
	pending g.Coercion
}

// empty reports whether the context is the empty context.
func (k ctx) empty() bool { return k.tail && k.pending == nil }

// inner is the context of a subcomputation whose value is still needed.
var inner = ctx{}

// frame returns the locals of an activation of n locals starting at base, and makes
// them the running ones. The stack grows into a new array: the activations below keep
// their locals where they are (no closure holds a frame: closures copy their
// variables' values).
func (m *machine) frame(base, n int) []value {
	top := base + n
	if top > len(m.stack) {
		m.stack = make([]value, max(2*len(m.stack), top, 64))
	}
	m.sp = top
	return m.stack[base:top:top]
}

// call runs the body of the closure clo (whose beta contraction is made) on arg, in
// the context k, and the calls it makes in tail position: interp(e, (x ↦ a) : ρ, k)
// from apply, within the depth bound; w is the call's weight.
func (m *machine) call(clo *closure, arg value, k ctx, w int) (value, error) {
	if m.room < w {
		return value{}, m.tooDeep()
	}
	m.room -= w
	saved, base := m.k, m.sp
	m.k = k
	val, err := m.loop(clo, arg, base)
	m.k, m.sp = saved, base
	m.room += w
	return val, err
}

// enter is call in the inner context, written out for the compiler to inline into
// the code of an application: the call most programs make most. A body that does not
// read its context (function.readsK) makes no call in tail position either: it is
// entered without setting the context, and without a loop.
func (m *machine) enter(clo *closure, arg value, w int) (value, error) {
	fn := clo.fn
	if fn.readsK {
		return m.call(clo, arg, inner, w)
	}
	if m.room < w {
		return value{}, m.tooDeep()
	}
	m.room -= w
	base := m.sp
	top := base + fn.nloc
	if top > len(m.stack) {
		m.stack = make([]value, max(2*len(m.stack), top, 64))
	}
	m.sp = top
	loc := m.stack[base:top:top]
	loc[0] = arg
	val, err := fn.body(m, loc, clo)
	m.sp = base
	m.room += w
	return val, err
}

// loop runs calls until one answers: the body of clo on arg, in a frame at base, then
// every call it makes in tail position, each in the frame of the call before (which
// is dead).
func (m *machine) loop(clo *closure, arg value, base int) (value, error) {
	for {
		loc := m.frame(base, clo.fn.nloc)
		loc[0] = arg
		val, err := clo.fn.body(m, loc, clo)
		if m.next == nil || err != nil {
			m.next = nil
			return val, err
		}
		clo, arg, m.k = m.next, m.arg, m.nextK
		m.next = nil
	}
}

// sub runs the code x, compiled in tail position, in the running activation's frame
// but in the context k: interp's eval(e, ρ, k) for a subterm whose context is not
// known when it is compiled (a coercion the merging mode makes pending).
func (m *machine) sub(x code, loc []value, self *closure, k ctx, w int) (value, error) {
	if m.room < w {
		return value{}, m.tooDeep()
	}
	m.room -= w
	saved, base := m.k, m.sp
	m.k = k
	val, err := x(m, loc, self)
	if err == nil && m.next != nil {
		clo, arg := m.next, m.arg
		m.k, m.next = m.nextK, nil
		val, err = m.loop(clo, arg, base)
	} else {
		m.next = nil
	}
	m.k, m.sp = saved, base
	m.room += w
	return val, err
}

func (m *machine) tooDeep() error {
	return &interderive.DepthError{What: "compiled code's recursion", Limit: m.maxDepth}
}

// tailCall makes the call of clo on arg in tail position: the activation's loop
// makes it, in the context k.
func (m *machine) tailCall(clo *closure, arg value, k ctx) (value, error) {
	m.next, m.arg, m.nextK = clo, arg, k
	return value{}, nil
}

// beta is the beta contraction of a call of clo: apply's first case; for an unfolded
// letrec function, its body's Letrec contraction too (a corridor, compressed, as in
// interp).
func (m *machine) beta(clo *closure) error {
	if err := m.fuel.contract(g.RuleBeta); err != nil {
		return err
	}
	if clo.fn.unfolds {
		return m.fuel.contract(g.RuleLetrec)
	}
	return nil
}

// ret returns a value to the running activation's context: through its pending
// coercion, if any.
func (m *machine) ret(val value) (value, error) { return m.retTo(val, m.k) }

// retTo returns a value to the context k: through its pending coercion, if any.
func (m *machine) retTo(val value, k ctx) (value, error) {
	if k.pending == nil {
		return val, nil
	}
	return m.cast(k.pending, val, ctx{tail: k.tail})
}

// blamed is the answer blame l, travelling as an error as in interp.
type blamed struct{ l g.Label }

// Error makes blame travel as an error; it is never shown as one.
func (b *blamed) Error() string { return "blame " + string(b.l) }

// blame is the answer blame l; outside the empty context it is a Blame contraction.
func (m *machine) blame(l g.Label, k ctx) (value, error) {
	if !k.empty() {
		if err := m.fuel.contract(g.RuleBlame); err != nil {
			return value{}, err
		}
	}
	return value{}, &blamed{l: l}
}

// delta is δ on values (y is ignored for a unary operator).
func (m *machine) delta(op g.Op, x, y value) (value, error) {
	if !x.isInt() || op.IsBinary() && !y.isInt() {
		return value{}, illTyped(op)
	}
	n, truth, isBool, ok := g.Prim(op, x.n, y.n)
	if !ok {
		return value{}, illTyped(op)
	}
	if err := m.fuel.contract(g.RuleDelta); err != nil {
		return value{}, err
	}
	if isBool {
		return boolValue(truth), nil
	}
	return intValue(n), nil
}

func illTyped(op g.Op) error { return interderive.Stuck("", "%s applied to ill-typed values", op) }

// apply applies the function value f to the argument a in the context k: Siek &
// Garcia's apply, as interp's,
//
//	apply((\x:T. e, ρ), v) = interp(e, (x ↦ v) : ρ)           beta
//	apply(<c̃ -> d̃> s, v)   = cast(d̃, apply(s, cast(c̃, v)))    AppCst
//
// leaving the call of the first line to its caller (clo, arg, kk), or returning the
// application's value (ans, clo nil). w is the weight of the call AppCst makes.
func (m *machine) apply(f, a value, k ctx, w int) (clo *closure, arg value, kk ctx, ans value, err error) {
	switch f := f.ref.(type) {
	case *closure: // beta
		return f, a, k, value{}, nil
	case *wrapped: // AppCst
		fc, ok := f.c.(*g.Func)
		if !ok {
			break
		}
		if err := m.fuel.contract(g.RuleAppCst); err != nil {
			return nil, value{}, k, value{}, err
		}
		if m.merge { // <d̃> pending, then apply(s, cast(c̃, v)) in tail position
			if k, _, err = m.pending(fc.Cod, k, func(g.Coercion) bool { return false }); err != nil {
				return nil, value{}, k, value{}, err
			}
			x, err := m.cast(fc.Dom, a, inner)
			if err != nil {
				return nil, value{}, k, value{}, err
			}
			return m.apply(f.s, x, k, w)
		}
		x, err := m.cast(fc.Dom, a, inner)
		if err != nil {
			return nil, value{}, k, value{}, err
		}
		r, err := m.callValue(f.s, x, w)
		if err != nil {
			return nil, value{}, k, value{}, err
		}
		ans, err := m.cast(fc.Cod, r, ctx{tail: k.empty()})
		if err == nil && k.pending != nil {
			ans, err = m.retTo(ans, k)
		}
		return nil, value{}, k, ans, err
	}
	return nil, value{}, k, value{}, interderive.Stuck(show(f, a), "application of a non-function")
}

// callValue is apply in a context that waits for the application's value (AppCst's
// apply(s, ...), whose value d̃ casts).
func (m *machine) callValue(f, a value, w int) (value, error) {
	clo, arg, k, ans, err := m.apply(f, a, inner, w)
	if clo == nil {
		return ans, err
	}
	if err := m.beta(clo); err != nil {
		return value{}, err
	}
	return m.call(clo, arg, k, w)
}

// pending makes d the pending coercion of the context k (merging mode): normalised,
// then merged with k's pending coercion if there is one (MergeCst), and the merge
// normalised. isValue tells whether <ĉ> e is a value once the coercion is normal: a
// value does not merge, and is returned with its wrapper.
func (m *machine) pending(d g.Coercion, k ctx, isValue func(g.Coercion) bool) (ctx, g.Coercion, error) {
	n, err := m.normalize(d)
	if err != nil {
		return ctx{}, nil, err
	}
	if isValue(n) {
		return k, n, nil
	}
	if k.pending != nil {
		if err := m.fuel.contract(g.RuleMergeCst); err != nil {
			return ctx{}, nil, err
		}
		if n, err = m.seq(n, k.pending); err != nil {
			return ctx{}, nil, err
		}
	}
	return ctx{tail: k.tail, pending: n}, nil, nil
}

// cast applies a coercion to a value (Siek & Garcia's apply_coercion): the identity
// (IdCst), composition with the value's wrapper (CmpCst, then seq), or normalisation
// of the coercion on a simple value; mkCast then finishes.
func (m *machine) cast(c g.Coercion, val value, k ctx) (value, error) {
	var err error
	if w, ok := val.ref.(*wrapped); ok {
		if _, id := c.(g.IdC); id {
			if err := m.fuel.contract(g.RuleIdCst); err != nil {
				return value{}, err
			}
			return val, nil
		}
		if err := m.fuel.contract(g.RuleCmpCst); err != nil {
			return value{}, err
		}
		if c, err = m.seq(w.c, c); err != nil {
			return value{}, err
		}
		return m.mkCast(c, w.s, k)
	}
	if c, err = m.normalize(c); err != nil {
		return value{}, err
	}
	return m.mkCast(c, val, k)
}

// mkCast puts a normal coercion on a simple value: IdCst, FailCst, FailFC, or a
// wrapped value.
func (m *machine) mkCast(c g.Coercion, s value, k ctx) (value, error) {
	switch c := c.(type) {
	case g.IdC:
		if err := m.fuel.contract(g.RuleIdCst); err != nil {
			return value{}, err
		}
		return s, nil
	case *g.Fail:
		if err := m.fuel.contract(g.RuleFailCst); err != nil {
			return value{}, err
		}
		return m.blame(c.L, k)
	}
	if l, ok := g.IsFailingWrapper(c); ok {
		if err := m.fuel.contract(g.RuleFailFC); err != nil {
			return value{}, err
		}
		return m.blame(l, k)
	}
	if !g.IsWrapperShape(c) {
		return value{}, interderive.Stuck("", "coercion %s cannot apply to a simple value", g.FormatCoercion(c))
	}
	return value{ref: &wrapped{c: c, s: s}}, nil
}

// seq composes two normal forms: the normal form of c1 ; c2.
func (m *machine) seq(c1, c2 g.Coercion) (g.Coercion, error) {
	return m.normalize(g.Then(c1, c2))
}

// normalize reduces a coercion to normal form, innermost first, one StepCst
// contraction at a time, as interp's.
func (m *machine) normalize(c g.Coercion) (g.Coercion, error) {
	var node g.Coercion
	switch c := c.(type) {
	case *g.Seq:
		a, err := m.normalize(c.Fst)
		if err != nil {
			return nil, err
		}
		b, err := m.normalize(c.Snd)
		if err != nil {
			return nil, err
		}
		node = g.Then(a, b)
	case *g.Func:
		a, err := m.normalize(c.Dom)
		if err != nil {
			return nil, err
		}
		b, err := m.normalize(c.Cod)
		if err != nil {
			return nil, err
		}
		node = &g.Func{Dom: a, Cod: b}
	default:
		return c, nil
	}
	r, rule, ok := m.sem.Contract(node)
	if !ok {
		return node, nil
	}
	if err := m.fuel.contract(g.StepCst(rule)); err != nil {
		return nil, err
	}
	return m.normalize(r)
}
