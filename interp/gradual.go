package interp

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// MaxDepth bounds the nesting of the interpreter's recursive calls: past it a run
// stops with an *interderive.DepthError instead of exhausting the Go stack. It is
// derived from the Go stack: a level of the recursion takes at most DepthFrame bytes of
// it, and MaxDepth levels at most half of interderive.StackLimit, which leaves the
// other half for the meta-level functions the deepest level calls (the recursion over
// a term, bounded by the calculi's MaxNesting). So 2^29 / 2 / 2048 = 131,072 levels
// on 64-bit platforms. (TestInterpRecursion runs recursions to the bound with a
// stack of StackLimit/2.)
const MaxDepth = interderive.StackLimit / 2 / DepthFrame

// DepthFrame is the bound, in bytes, on the Go stack that one level of the
// interpreter's recursion takes, in either calculus (see MaxDepth).
const DepthFrame = 2048

// The interpreter of λ⟨·⟩ has the shape of Siek & Garcia's (2012), parametric in the
// cast semantics: interp (whose body is eval), apply (a closure's call, beta, or a
// wrapped function's, AppCst), cast and mkCast (their apply_coercion and mk_cast) and
// seq. What is apart from that shape is for speed, making the same contractions in
// the same order: operand and condition take what interp would return for an atom,
// or an operator applied to atoms, without a call to interp; beta makes the Letrec
// contraction of an unfolded letrec function with the call; and the frames of calls
// whose environments die with them are given back (within, castval.Frames).
//
// Its seq and normalize are the direct-style image of the inner layer (the coercion
// continuation of the two-level CPS evaluator): they normalise a coercion one
// contraction at a time, leftmost-innermost, reporting each as a StepCst event, so
// that the interpreter runs in lockstep with the reduction semantics. (Siek &
// Garcia's one-pass seq, gradual.Semantics.Seq, computes the same normal forms.)
//
// What the direct-style interpreter knows of its evaluation context is a ctx: whether
// the context is empty (tail), which the Blame rule (E[blame l] -> blame l, E not
// empty) consults, and, in the merging mode, the pending coercion <ĉ> [] the context
// applies to the value (pending). Calls in tail position are iterations of interp's
// loop rather than Go calls, so tail calls — also through casts, when they merge —
// run in constant space.
type interpreter struct {
	sem    g.Semantics
	fuel   *interderive.Counter
	merge  bool
	depth  int
	frames v.Frames // the frames of the calls whose environments die with them
}

// ctx is what the interpreter knows of the evaluation context of a computation.
type ctx struct {
	tail    bool       // no frame beyond the pending coercion
	pending g.Coercion // merging mode: the coercion the context applies first, or nil
}

// empty reports whether the context is the empty context.
func (k ctx) empty() bool { return k.tail && k.pending == nil }

// inner is the context of a subcomputation whose value the interpreter still needs.
var inner = ctx{}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ and reads the answer back. The
// interpreter merges pending coercions where that preserves answers
// (gradual.MergesSafely), unless opts.Merging says otherwise.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	in := &interpreter{sem: sem, fuel: interderive.NewCounter(opts), merge: opts.Merging.Merge(g.MergesSafely(sem))}
	val, err := in.interp(e, nil, ctx{tail: true})
	if b, ok := err.(*blamed); ok {
		return g.Answer{Blamed: true, Blame: b.l}, nil
	}
	if err != nil {
		return g.Answer{}, err
	}
	return g.Answer{Value: v.ReadBack(val)}, nil
}

// ret returns a value to the context: through its pending coercion, if any.
func (in *interpreter) ret(val v.Value, k ctx) (v.Value, error) {
	if k.pending == nil {
		return val, nil
	}
	return in.cast(k.pending, val, ctx{tail: k.tail})
}

// operand evaluates e in ρ, in a context with no pending coercion, where e is an
// operand: a function, an argument, an operator's operand, a condition. A variable or
// a constant is a value at once, and an operator applied to such atoms one delta
// contraction (what interp would return for them, without the call); anything else is
// interp's.
func (in *interpreter) operand(e g.Expr, rho *v.Env) (v.Value, error) {
	top := in.frames.Top()
	switch t := e.(type) {
	case *g.Var:
		if val, ok := rho.Lookup(t.Name); ok {
			return val, nil
		}
	case *g.IntLit:
		return boxInt(t.N), nil
	case *g.BoolLit:
		return v.Bool(t.B), nil
	case *g.Unary:
		if x, ok := v.Atom(t.X, rho); ok {
			return in.delta(t.Op, x, nil)
		}
	case *g.Binary:
		if x, ok := v.Atom(t.X, rho); ok {
			if y, ok := v.Atom(t.Y, rho); ok {
				return in.delta(t.Op, x, y)
			}
		}
	case *g.App:
		if f, ok := v.Atom(t.Fun, rho); ok {
			if clo, ok := f.(*v.Closure); ok {
				// An application of a closure: the argument and the beta contraction
				// here, as interp's case for an application makes them, then the body
				// below, without a call to interp that would dispatch on the
				// application first.
				a, err := in.operand(t.Arg, rho)
				if err != nil {
					return nil, err
				}
				if e, rho, err = in.beta(clo, a); err != nil {
					return nil, err
				}
			}
		}
	}
	// interp(e, ρ, inner) by hand (within, which the compiler does not inline): a
	// subcomputation, whose frames are given back when it returns.
	if in.depth >= MaxDepth {
		in.frames.Release(top)
		return nil, TooDeep()
	}
	in.depth++
	val, err := in.eval(e, rho, inner)
	in.frames.Release(top)
	in.depth--
	return val, err
}

// beta is the beta contraction of a call of the closure clo with argument a: apply's
// first case, (\x:T. e, ρ) a = interp(e, (x ↦ a) : ρ), which the caller goes on with:
// the body, in the closure's environment extended by a (castval.Closure.Call, in a
// frame of the interpreter's when the environment dies with the call). The body of an
// unfolded letrec function is the letrec it came from, whose contraction comes next
// without a choice: beta goes past it, making its Letrec contraction too (a corridor,
// compressed, as in the machine).
func (in *interpreter) beta(clo *v.Closure, a v.Value) (g.Expr, *v.Env, error) {
	if err := in.fuel.Contract(g.RuleBeta); err != nil {
		return nil, nil, err
	}
	body, rho, letrec := clo.Call(&in.frames, a)
	if letrec {
		if err := in.fuel.Contract(g.RuleLetrec); err != nil {
			return nil, nil, err
		}
	}
	return body, rho, nil
}

// condition is the boolean an if's condition evaluates to (operand's), without boxing
// it when the condition compares integer atoms: one delta contraction.
func (in *interpreter) condition(e g.Expr, rho *v.Env) (bool, error) {
	if t, ok := e.(*g.Binary); ok {
		x, okx := v.Atom(t.X, rho)
		y, oky := v.Atom(t.Y, rho)
		a, oka := x.(v.Int)
		b, okb := y.(v.Int)
		if okx && oky && oka && okb {
			if _, truth, isBool, ok := g.Prim(t.Op, int64(a), int64(b)); ok && isBool {
				if err := in.fuel.Contract(g.RuleDelta); err != nil {
					return false, err
				}
				return truth, nil
			}
		}
	}
	c, err := in.operand(e, rho)
	if err != nil {
		return false, err
	}
	b, ok := c.(v.Bool)
	if !ok {
		return false, interderive.Stuck(v.Show(c), "if on a non-boolean")
	}
	return bool(b), nil
}

// interp evaluates e in ρ, in the context k, within the depth bound.
func (in *interpreter) interp(e g.Expr, rho *v.Env, k ctx) (v.Value, error) {
	return in.within(in.frames.Top(), e, rho, k)
}

// within is interp for a computation whose calls' frames are those above top: within
// the depth bound, and giving them back when it returns (its value cannot hold them).
func (in *interpreter) within(top int, e g.Expr, rho *v.Env, k ctx) (v.Value, error) {
	if in.depth >= MaxDepth {
		in.frames.Release(top)
		return nil, TooDeep()
	}
	in.depth++
	a, err := in.eval(e, rho, k)
	in.frames.Release(top)
	in.depth--
	return a, err
}

// TooDeep is the error of an interpreter's recursion past MaxDepth (exit status 3):
// the direct-style stages' and the compiled ones' that derive from them.
func TooDeep() error { return &interderive.DepthError{What: "interpreter recursion", Limit: MaxDepth} }

// eval is interp's body: one iteration per computation in tail position.
func (in *interpreter) eval(e g.Expr, rho *v.Env, k ctx) (v.Value, error) {
	base := in.frames.Top() // the frames above are this activation's calls'
	for {
		switch t := e.(type) {
		case *g.IntLit, *g.BoolLit:
			return in.ret(v.Constant(t), k)
		case *g.Var:
			val, ok := rho.Lookup(t.Name)
			if !ok {
				return nil, interderive.Stuck("", "unbound variable %s", t.Name)
			}
			return in.ret(val, k)
		case *g.Lam:
			return in.ret(v.NewClosure(t, rho), k)
		case *g.Unary:
			x, err := in.operand(t.X, rho)
			if err != nil {
				return nil, err
			}
			r, err := in.delta(t.Op, x, nil)
			if err != nil {
				return nil, err
			}
			return in.ret(r, k)
		case *g.Binary:
			x, err := in.operand(t.X, rho)
			if err != nil {
				return nil, err
			}
			y, err := in.operand(t.Y, rho)
			if err != nil {
				return nil, err
			}
			r, err := in.delta(t.Op, x, y)
			if err != nil {
				return nil, err
			}
			return in.ret(r, k)
		case *g.If:
			b, err := in.condition(t.Cond, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(g.RuleIf); err != nil {
				return nil, err
			}
			if e = t.Else; b {
				e = t.Then
			}
		case *g.App:
			f, err := in.operand(t.Fun, rho)
			if err != nil {
				return nil, err
			}
			a, err := in.operand(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			clo, arg, kk := (*v.Closure)(nil), a, k
			if c, ok := f.(*v.Closure); ok { // apply's first case, without the call
				clo = c
			} else {
				var ans v.Value
				if clo, arg, kk, ans, err = in.apply(f, a, k); clo == nil {
					return ans, err
				}
			}
			// The call, in tail position: the frame of the call before, if any, is dead.
			in.frames.Release(base)
			if e, rho, err = in.beta(clo, arg); err != nil {
				return nil, err
			}
			k = kk
		case *g.Coerce:
			next, kk, a, done, err := in.coerce(t, rho, k)
			if done || err != nil {
				return a, err
			}
			e, k = next, kk
		case *g.Let:
			b, err := in.operand(t.Bound, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(g.RuleLet); err != nil {
				return nil, err
			}
			e, rho = t.Body, rho.Bind(t.Name, b)
		case *g.Letrec:
			if err := in.fuel.Contract(g.RuleLetrec); err != nil {
				return nil, err
			}
			e, rho = t.Body, v.BindLetrec(t, rho)
		case *g.Blame:
			return in.blame(t.L, k)
		default:
			return nil, interderive.Stuck("", "cannot interpret %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown))
		}
	}
}

// coerce is interp's case for <c> e (apart, to keep eval's frame small): it answers
// (done), or, in the merging mode, continues with e in tail position under the merged
// pending coercion.
func (in *interpreter) coerce(t *g.Coerce, rho *v.Env, k ctx) (g.Expr, ctx, v.Value, bool, error) {
	if in.merge && !v.WrapsValue(in.sem, t.C, t.X, rho) {
		value := func(n g.Coercion) bool { return v.WrapsValue(in.sem, n, t.X, rho) }
		kk, wrapper, err := in.pending(t.C, k, value)
		if err != nil {
			return nil, k, nil, true, err
		}
		if wrapper != nil { // <c̄> s: a value, now that its coercion is normal
			x, err := in.operand(t.X, rho)
			if err != nil {
				return nil, k, nil, true, err
			}
			a, err := in.ret(&v.Wrapped{C: wrapper, S: x}, k)
			return nil, k, a, true, err
		}
		return t.X, kk, nil, false, nil
	}
	x, err := in.operand(t.X, rho)
	if err != nil {
		return nil, k, nil, true, err
	}
	a, err := in.cast(t.C, x, ctx{tail: k.empty()})
	if err != nil || k.pending == nil {
		return nil, k, a, true, err
	}
	a, err = in.ret(a, k)
	return nil, k, a, true, err
}

// pending makes d the pending coercion of the context (merging mode): normalised,
// then merged with the context's pending coercion if there is one (MergeCst), and the
// merge normalised.
// (value tells whether <ĉ> e is a value once the coercion is normal: a value does not
// merge, and is returned under its wrapper by interp.)
func (in *interpreter) pending(d g.Coercion, k ctx, value func(g.Coercion) bool) (ctx, g.Coercion, error) {
	n, err := in.normalize(d)
	if err != nil {
		return ctx{}, nil, err
	}
	if value(n) {
		return k, n, nil
	}
	if k.pending != nil {
		if err := in.fuel.Contract(g.RuleMergeCst); err != nil {
			return ctx{}, nil, err
		}
		if n, err = in.seq(n, k.pending); err != nil {
			return ctx{}, nil, err
		}
	}
	return ctx{tail: k.tail, pending: n}, nil, nil
}

// blamed is the answer blame l as interp returns it: in the place of an error, so that
// every computation waiting for a value passes it on unchanged, as E[blame l] -> blame
// l does, and a value returns as a value alone. (Returning a value-or-blame record
// instead cost about half of interp's time on fib: the record is returned
// through every call.) EvalCast turns it back into an answer.
type blamed struct{ l g.Label }

// Error makes blame travel as an error; it is never shown as one.
func (b *blamed) Error() string { return "blame " + string(b.l) }

// blame is the answer blame l; outside the empty context it is a Blame contraction.
func (in *interpreter) blame(l g.Label, k ctx) (v.Value, error) {
	if !k.empty() {
		if err := in.fuel.Contract(g.RuleBlame); err != nil {
			return nil, err
		}
	}
	return nil, &blamed{l: l}
}

// delta is δ on values (y is nil for a unary operator).
func (in *interpreter) delta(op g.Op, x, y v.Value) (v.Value, error) {
	if a, ok := x.(v.Int); ok && op.IsBinary() { // v.Delta's common case, without the call
		if b, ok := y.(v.Int); ok {
			if n, truth, isBool, ok := g.Prim(op, int64(a), int64(b)); ok {
				if err := in.fuel.Contract(g.RuleDelta); err != nil {
					return nil, err
				}
				if isBool {
					return v.Bool(truth), nil
				}
				return boxInt(n), nil
			}
		}
	}
	r, ok := v.Delta(op, x, y)
	if !ok {
		return nil, illTyped(op)
	}
	if err := in.fuel.Contract(g.RuleDelta); err != nil {
		return nil, err
	}
	return r, nil
}

// smallInts are the integers 0 to 1023 as values, boxed once: boxInt hands them out.
// (The Go runtime boxes 0 to 255 without allocating, but in a call; the others it
// allocates.) Read-only after initialization.
var smallInts = func() (t [1024]v.Value) {
	for i := range t {
		t[i] = v.Int(i)
	}
	return t
}()

// boxInt is v.Int(n) as a value: the integers of an ordinary run (counters, fib's)
// are small, and are boxed without an allocation or a call.
func boxInt(n int64) v.Value {
	if uint64(n) < uint64(len(smallInts)) {
		return smallInts[n]
	}
	return v.Int(n)
}

func illTyped(op g.Op) error { return interderive.Stuck("", "%s applied to ill-typed values", op) }

// apply applies the function value f to the argument a in the context k: Siek &
// Garcia's apply,
//
//	apply((\x:T. e, ρ), v) = interp(e, (x ↦ v) : ρ)           beta
//	apply(<c̃ -> d̃> s, v)   = cast(d̃, apply(s, cast(c̃, v)))    AppCst
//
// The call of the first line is in tail position: apply leaves it to its caller
// (beta), returning the closure, its argument and the context of the call (clo, arg,
// kk), so that interp makes it an iteration of its loop, and call a recursive interp.
// In the merging mode, d̃ becomes the context's pending coercion, and apply(s, ...) is
// in tail position too. Otherwise apply returns the application's value (ans, clo
// nil).
func (in *interpreter) apply(f, a v.Value, k ctx) (clo *v.Closure, arg v.Value, kk ctx, ans v.Value, err error) {
	switch f := f.(type) {
	case *v.Closure: // beta
		return f, a, k, nil, nil
	case *v.Wrapped: // AppCst
		fc, ok := f.C.(*g.Func)
		if !ok {
			break
		}
		if err := in.fuel.Contract(g.RuleAppCst); err != nil {
			return nil, nil, k, nil, err
		}
		if in.merge { // <d̃> pending, then apply(s, cast(c̃, v)) in tail position
			if k, _, err = in.pending(fc.Cod, k, func(g.Coercion) bool { return false }); err != nil {
				return nil, nil, k, nil, err
			}
			x, err := in.cast(fc.Dom, a, inner)
			if err != nil {
				return nil, nil, k, nil, err
			}
			return in.apply(f.S, x, k)
		}
		x, err := in.cast(fc.Dom, a, inner)
		if err != nil {
			return nil, nil, k, nil, err
		}
		r, err := in.call(f.S, x)
		if err != nil {
			return nil, nil, k, nil, err
		}
		ans, err := in.cast(fc.Cod, r, ctx{tail: k.empty()})
		if err == nil && k.pending != nil {
			ans, err = in.ret(ans, k)
		}
		return nil, nil, k, ans, err
	}
	return nil, nil, k, nil, interderive.Stuck(v.Show(f, a), "application of a non-function")
}

// call is apply in a context that waits for the application's value (AppCst's
// apply(s, ...), whose value d̃ casts): the closure call it comes to is a recursive
// interp.
func (in *interpreter) call(f, a v.Value) (v.Value, error) {
	clo, arg, k, ans, err := in.apply(f, a, inner)
	if clo == nil {
		return ans, err
	}
	top := in.frames.Top()
	body, env, err := in.beta(clo, arg)
	if err != nil {
		return nil, err
	}
	return in.within(top, body, env, k)
}

// cast applies a coercion to a value (Siek & Garcia's apply_coercion): the identity
// (IdCst), composition with the value's wrapper (CmpCst, then seq), or normalisation of
// the coercion on a simple value; mkCast then finishes.
func (in *interpreter) cast(c g.Coercion, val v.Value, k ctx) (v.Value, error) {
	var err error
	if w, ok := val.(*v.Wrapped); ok {
		if _, id := c.(g.IdC); id {
			if err := in.fuel.Contract(g.RuleIdCst); err != nil {
				return nil, err
			}
			return val, nil
		}
		if err := in.fuel.Contract(g.RuleCmpCst); err != nil {
			return nil, err
		}
		if c, err = in.seq(w.C, c); err != nil {
			return nil, err
		}
		return in.mkCast(c, w.S, k)
	}
	if c, err = in.normalize(c); err != nil {
		return nil, err
	}
	return in.mkCast(c, val, k)
}

// mkCast puts a normal coercion on a simple value: IdCst, FailCst, FailFC, or a
// wrapped value.
func (in *interpreter) mkCast(c g.Coercion, s v.Value, k ctx) (v.Value, error) {
	switch c := c.(type) {
	case g.IdC:
		if err := in.fuel.Contract(g.RuleIdCst); err != nil {
			return nil, err
		}
		return s, nil
	case *g.Fail:
		if err := in.fuel.Contract(g.RuleFailCst); err != nil {
			return nil, err
		}
		return in.blame(c.L, k)
	}
	if l, ok := g.IsFailingWrapper(c); ok {
		if err := in.fuel.Contract(g.RuleFailFC); err != nil {
			return nil, err
		}
		return in.blame(l, k)
	}
	if !g.IsWrapperShape(c) {
		return nil, interderive.Stuck("", "coercion %s cannot apply to a simple value", g.FormatCoercion(c))
	}
	return &v.Wrapped{C: c, S: s}, nil
}

// seq composes two normal forms: the normal form of c1 ; c2.
func (in *interpreter) seq(c1, c2 g.Coercion) (g.Coercion, error) {
	return in.normalize(g.Then(c1, c2))
}

// normalize reduces a coercion to normal form, innermost first: both parts of a
// sequence or arrow, then the node itself, whose contractum is normalised in turn.
func (in *interpreter) normalize(c g.Coercion) (g.Coercion, error) {
	var node g.Coercion
	switch c := c.(type) {
	case *g.Seq:
		a, err := in.normalize(c.Fst)
		if err != nil {
			return nil, err
		}
		b, err := in.normalize(c.Snd)
		if err != nil {
			return nil, err
		}
		node = g.Then(a, b)
	case *g.Func:
		a, err := in.normalize(c.Dom)
		if err != nil {
			return nil, err
		}
		b, err := in.normalize(c.Cod)
		if err != nil {
			return nil, err
		}
		node = &g.Func{Dom: a, Cod: b}
	default:
		return c, nil
	}
	r, rule, ok := in.sem.Contract(node)
	if !ok {
		return node, nil
	}
	if err := in.fuel.Contract(g.StepCst(rule)); err != nil {
		return nil, err
	}
	return in.normalize(r)
}

// Gradual is this stage's artefact for the gradual calculi (gradual.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}
