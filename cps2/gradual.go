package cps2

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// The evaluator is the machine's two stacks refunctionalized: eval and the
// continuations' applications are the machine's eval and continue transitions, apply
// its beta and AppCst, cast and mkCast its coercion of a value, normalize and reduce its
// inner machine. What is apart from that shape is for speed, making the same
// contractions in the same order, as in the machine and the interpreter: an operand
// that is an atom, or an operator applied to atoms, is taken where it stands, without a
// continuation for its value (operand; the machine's compressed corridors); so is a
// coercion whose parts are in normal form already; apply makes the Letrec contraction
// of an unfolded letrec function with the call; the frames of calls whose
// environments die with them are given back (castval.Frames), each continuation
// knowing the frames it reaches (metaCont.mark); and a bounce of the trampoline keeps
// what remains in the evaluator rather than in a thunk of its own (bounce).

// step is one bounce of the trampoline: the rest of the computation, or nil when the
// run has ended (with its answer or error recorded in the evaluator).
type step func() step

// metaCont is the outer continuation: what remains to be done with the value of a
// term (the refunctionalized term context E, the machine's stack K). empty marks the
// initial continuation, the empty context that the Blame rule distinguishes.
type metaCont struct {
	apply func(v.Value) step
	// pending, in the merging mode, describes a continuation <cast> [] followed by
	// under: a new pending coercion merges into it.
	pending *castFrame
	// mark is the number of environment frames (castval.Frames) the continuation and
	// those it hands its result to reach: the machine's Frame.Mark. Returning to it
	// gives back those above.
	mark  int32
	empty bool
}

// castFrame is the pending coercion of a continuation <cast> [] followed by under.
type castFrame struct {
	cast  g.Coercion
	under metaCont
}

// cont is the inner continuation: what remains to be done with a coercion in normal
// form (the refunctionalized coercion context C, the machine's stack C), given the
// meta-continuation it will hand its result to.
type cont func(c g.Coercion, mk metaCont) step

// evaluator holds one run: the semantics, the fuel, the mode, and where the run ends.
type evaluator struct {
	sem    g.Semantics
	fuel   *interderive.Counter
	merge  bool
	answer v.Answer
	err    error
	direct int      // calls made directly since the last bounce (see ret)
	frames v.Frames // the frames of the calls whose environments die with them

	// The bounce the trampoline has to take next, and a step per kind of bounce that
	// takes it (made once per run: see bounce).
	next                                      bounce
	retStep, callStep, resumeStep, reduceStep step
}

// bounce is what remains of a computation that returns to the trampoline: the free
// variables of the thunk it would return, kept in the evaluator instead, so that a
// bounce allocates nothing. One bounce at most is pending: the trampoline takes it at
// once. (What a bounce leaves there stays until the next one overwrites it, a few
// calls later, or the run ends.)
type bounce struct {
	mk  metaCont
	val v.Value    // a return: the value returned to mk
	e   g.Expr     // a call: the body, in rho
	rho *v.Env     //
	k   cont       // the inner layer: the normal coercion c passed to k, or c to normalise
	c   g.Coercion //
}

// steps makes the steps that take the pending bounce up: a return, a call, the inner
// layer's resumption, and its normalisation of a contractum.
func (ev *evaluator) steps() {
	b := &ev.next
	ev.retStep = func() step { return b.mk.apply(b.val) }
	ev.callStep = func() step { return ev.eval(b.e, b.rho, b.mk) }
	ev.resumeStep = func() step { return b.k(b.c, b.mk) }
	ev.reduceStep = func() step { return ev.normalize(b.c, b.k, b.mk) }
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ and reads the answer back. The
// evaluator merges pending coercions where that preserves answers
// (gradual.MergesSafely), unless opts.Merging says otherwise.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	ev := &evaluator{sem: sem, fuel: interderive.NewCounter(opts), merge: opts.Merging.Merge(g.MergesSafely(sem))}
	ev.steps()
	mk0 := metaCont{empty: true, apply: func(val v.Value) step {
		ev.answer = v.Answer{V: val}
		return nil
	}}
	for s := ev.eval(e, nil, mk0); s != nil; {
		ev.direct = 0
		s = s()
	}
	if ev.err != nil {
		return g.Answer{}, ev.err
	}
	return ev.answer.ToAnswer(), nil
}

// maxDirect bounds the calls of continuations (and of function bodies, apply, and
// of the inner layer, resume and reduce) made directly between two bounces of the
// trampoline: the Go stack holds at most that many of them. A bounce allocates nothing
// (bounce), and a shallow Go stack is the faster: with 64, typed fib 14 took about
// twice as long as with 2 (docs/performance.md).
const maxDirect = 2

// ret returns val to mk, giving back the environment frames mk does not reach: as a
// direct call, or every maxDirect calls through the trampoline, which unwinds the Go
// stack. (Direct calls alone would let the Go stack grow with the run.)
func (ev *evaluator) ret(mk metaCont, val v.Value) step {
	ev.frames.Release(int(mk.mark))
	if ev.direct < maxDirect {
		ev.direct++
		return mk.apply(val)
	}
	ev.next.mk, ev.next.val = mk, val
	return ev.retStep
}

// frame builds a non-initial meta-continuation that holds an environment: it reaches
// the environment frames in use.
func (ev *evaluator) frame(apply func(v.Value) step) metaCont {
	return metaCont{apply: apply, mark: int32(ev.frames.Top())}
}

// valueFrame builds a non-initial meta-continuation that holds no environment (values
// never hold environment frames) before mk: it reaches what mk does.
func valueFrame(apply func(v.Value) step, mk metaCont) metaCont {
	return metaCont{apply: apply, mark: mk.mark}
}

// fail ends the run with an error.
func (ev *evaluator) fail(err error) step {
	ev.err = err
	return nil
}

// contract records a contraction; false (and the run ends) when the fuel is spent.
func (ev *evaluator) contract(rule string) bool {
	if err := ev.fuel.Contract(rule); err != nil {
		ev.err = err
		return false
	}
	return true
}

// blame ends the run with blame l, discarding mk (a Blame contraction unless mk is the
// initial continuation).
func (ev *evaluator) blame(l g.Label, mk metaCont) step {
	if !mk.empty && !ev.contract(g.RuleBlame) {
		return nil
	}
	ev.answer = v.Answer{Blamed: true, L: l}
	return nil
}

// operand is the value of e in ρ when e is an atom (a bound variable or a constant) or
// an operator applied to atoms, which makes its delta contraction: what eval would pass
// to its continuation, taken without one. ok is false for any other term, which eval
// evaluates; val is nil, with ok, when the run has ended (ev.err).
func (ev *evaluator) operand(e g.Expr, rho *v.Env) (val v.Value, ok bool) {
	switch t := e.(type) {
	case *g.Var, *g.IntLit, *g.BoolLit:
		return v.Atom(e, rho)
	case *g.Unary:
		if x, ok := v.Atom(t.X, rho); ok {
			return ev.deltaValue(t.Op, x, nil), true
		}
	case *g.Binary:
		if x, ok := v.Atom(t.X, rho); ok {
			if y, ok := v.Atom(t.Y, rho); ok {
				return ev.deltaValue(t.Op, x, y), true
			}
		}
	}
	return nil, false
}

// eval evaluates e in ρ and passes its value to mk.
func (ev *evaluator) eval(e g.Expr, rho *v.Env, mk metaCont) step {
	switch e := e.(type) {
	case *g.IntLit, *g.BoolLit:
		return ev.ret(mk, v.Constant(e))
	case *g.Var:
		val, ok := rho.Lookup(e.Name)
		if !ok {
			return ev.fail(interderive.Stuck("", "unbound variable %s", e.Name))
		}
		return ev.ret(mk, val)
	case *g.Lam:
		return ev.ret(mk, v.NewClosure(e, rho))
	case *g.Unary:
		if x, ok := ev.operand(e, rho); ok {
			return ev.retValue(mk, x)
		}
		return ev.eval(e.X, rho, valueFrame(func(x v.Value) step {
			return ev.delta(e.Op, mk, x, nil)
		}, mk))
	case *g.Binary:
		if r, ok := ev.operand(e, rho); ok {
			return ev.retValue(mk, r)
		}
		if x, ok := ev.operand(e.X, rho); ok {
			return ev.right(e, rho, x, mk)
		}
		return ev.eval(e.X, rho, ev.frame(func(x v.Value) step { return ev.right(e, rho, x, mk) }))
	case *g.If:
		if c, ok := ev.operand(e.Cond, rho); ok {
			return ev.branch(e, rho, c, mk)
		}
		return ev.eval(e.Cond, rho, ev.frame(func(c v.Value) step { return ev.branch(e, rho, c, mk) }))
	case *g.App:
		if f, ok := ev.operand(e.Fun, rho); ok {
			return ev.argument(e, rho, f, mk)
		}
		return ev.eval(e.Fun, rho, ev.frame(func(f v.Value) step { return ev.argument(e, rho, f, mk) }))
	case *g.Coerce:
		if ev.merge && !v.WrapsValue(ev.sem, e.C, e.X, rho) {
			value := func(n g.Coercion) bool { return v.WrapsValue(ev.sem, n, e.X, rho) }
			return ev.pending(e.C, mk, value, func(mk metaCont) step { return ev.eval(e.X, rho, mk) })
		}
		if x, ok := ev.operand(e.X, rho); ok {
			if x == nil {
				return nil
			}
			return ev.cast(e.C, x, mk)
		}
		return ev.eval(e.X, rho, ev.castCont(e.C, mk))
	case *g.Let:
		if b, ok := ev.operand(e.Bound, rho); ok {
			return ev.let(e, rho, b, mk)
		}
		return ev.eval(e.Bound, rho, ev.frame(func(b v.Value) step { return ev.let(e, rho, b, mk) }))
	case *g.Letrec:
		if !ev.contract(g.RuleLetrec) {
			return nil
		}
		return ev.eval(e.Body, v.BindLetrec(e, rho), mk)
	case *g.Blame:
		return ev.blame(e.L, mk)
	}
	return ev.fail(interderive.Stuck("", "cannot evaluate %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown)))
}

// right is the continuation of e1 op e2 once e1's value x is known: e2 is evaluated,
// then δ. (x is nil when the operand that gave it ended the run: see operand.)
func (ev *evaluator) right(e *g.Binary, rho *v.Env, x v.Value, mk metaCont) step {
	if x == nil {
		return nil
	}
	if y, ok := ev.operand(e.Y, rho); ok {
		if y == nil {
			return nil
		}
		return ev.delta(e.Op, mk, x, y)
	}
	return ev.eval(e.Y, rho, valueFrame(func(y v.Value) step { return ev.delta(e.Op, mk, x, y) }, mk))
}

// branch is the continuation of if e1 then e2 else e3 once e1's value c is known: the
// If contraction.
func (ev *evaluator) branch(e *g.If, rho *v.Env, c v.Value, mk metaCont) step {
	if c == nil {
		return nil
	}
	k, ok := c.(v.Bool)
	if !ok {
		return ev.fail(interderive.Stuck(v.Show(c), "if on a non-boolean"))
	}
	if !ev.contract(g.RuleIf) {
		return nil
	}
	if k {
		return ev.eval(e.Then, rho, mk)
	}
	return ev.eval(e.Else, rho, mk)
}

// argument is the continuation of e1 e2 once e1's value f is known: e2 is evaluated,
// then applied to.
func (ev *evaluator) argument(e *g.App, rho *v.Env, f v.Value, mk metaCont) step {
	if f == nil {
		return nil
	}
	if a, ok := ev.operand(e.Arg, rho); ok {
		if a == nil {
			return nil
		}
		return ev.apply(f, a, mk)
	}
	return ev.eval(e.Arg, rho, valueFrame(func(a v.Value) step { return ev.apply(f, a, mk) }, mk))
}

// let is the continuation of let x:T = e1 in e2 once e1's value b is known: the Let
// contraction.
func (ev *evaluator) let(e *g.Let, rho *v.Env, b v.Value, mk metaCont) step {
	if b == nil {
		return nil
	}
	if !ev.contract(g.RuleLet) {
		return nil
	}
	return ev.eval(e.Body, rho.Bind(e.Name, b), mk)
}

// retValue returns to mk the value operand took, unless the run has ended.
func (ev *evaluator) retValue(mk metaCont, val v.Value) step {
	if val == nil {
		return nil
	}
	return ev.ret(mk, val)
}

// delta is δ on values (y is nil for a unary operator).
func (ev *evaluator) delta(op g.Op, mk metaCont, x, y v.Value) step {
	return ev.retValue(mk, ev.deltaValue(op, x, y))
}

// deltaValue is the delta contraction of op on values: its result, or nil when the run
// has ended (ill-typed values, or the fuel spent).
func (ev *evaluator) deltaValue(op g.Op, x, y v.Value) v.Value {
	r, ok := v.Delta(op, x, y)
	if !ok {
		ev.fail(interderive.Stuck(v.Show(x, y), "%s applied to ill-typed values", op))
		return nil
	}
	if !ev.contract(g.RuleDelta) {
		return nil
	}
	return r
}

// apply applies a closure (beta) or a function wrapped by c̃ -> d̃ (AppCst).
func (ev *evaluator) apply(f, a v.Value, mk metaCont) step {
	switch f := f.(type) {
	case *v.Closure:
		if !ev.contract(g.RuleBeta) {
			return nil
		}
		// The call's environment, in a frame of ev.frames when it dies with the call:
		// the caller's frames that mk does not reach are dead, the call being in tail
		// position in what mk does not hold. The body of an unfolded letrec function
		// is the letrec it came from, whose contraction comes next (Call goes past it).
		ev.frames.Release(int(mk.mark))
		body, rho, letrec := f.Call(&ev.frames, a)
		if letrec && !ev.contract(g.RuleLetrec) {
			return nil
		}
		if ev.direct < maxDirect {
			ev.direct++
			return ev.eval(body, rho, mk)
		}
		ev.next.mk, ev.next.e, ev.next.rho = mk, body, rho
		return ev.callStep
	case *v.Wrapped:
		fc, ok := f.C.(*g.Func)
		if !ok {
			break
		}
		if !ev.contract(g.RuleAppCst) {
			return nil
		}
		// <d̃> (s (<c̃> v))
		call := func(mk metaCont) step {
			return ev.cast(fc.Dom, a, valueFrame(func(x v.Value) step {
				return ev.apply(f.S, x, mk)
			}, mk))
		}
		if ev.merge {
			return ev.pending(fc.Cod, mk, func(g.Coercion) bool { return false }, call)
		}
		return call(ev.castCont(fc.Cod, mk))
	}
	return ev.fail(interderive.Stuck(v.Show(f, a), "application of a non-function"))
}

// castCont is the continuation <c> [] followed by mk. (Only the merging mode merges a
// pending coercion into it: it alone needs to know it is one.)
func (ev *evaluator) castCont(c g.Coercion, mk metaCont) metaCont {
	k := valueFrame(func(x v.Value) step { return ev.cast(c, x, mk) }, mk)
	if ev.merge {
		k.pending = &castFrame{cast: c, under: mk}
	}
	return k
}

// pending makes d a pending coercion in the merging mode: the inner layer normalises
// it; then, if mk is itself a pending coercion, the two merge (MergeCst) and the inner
// layer normalises the merge; the continuation resumes with the cast continuation of
// the normal form.
// (value tells whether <ĉ> e is a value once the coercion is normal: values do not
// merge.)
func (ev *evaluator) pending(d g.Coercion, mk metaCont, value func(g.Coercion) bool, resume func(metaCont) step) step {
	return ev.normalize(d, func(n g.Coercion, mk metaCont) step {
		if mk.pending == nil || value(n) {
			return resume(ev.castCont(n, mk))
		}
		if !ev.contract(g.RuleMergeCst) {
			return nil
		}
		return ev.normalize(g.Then(n, mk.pending.cast), func(n g.Coercion, mk metaCont) step {
			return resume(ev.castCont(n, mk))
		}, mk.pending.under)
	}, mk)
}

// cast applies a coercion to a value: IdCst or CmpCst on a wrapped value, then the
// inner layer normalises the coercion, whose initial continuation puts the normal form
// on the simple value.
func (ev *evaluator) cast(c g.Coercion, val v.Value, mk metaCont) step {
	if w, ok := val.(*v.Wrapped); ok {
		if _, id := c.(g.IdC); id {
			if !ev.contract(g.RuleIdCst) {
				return nil
			}
			return ev.ret(mk, val)
		}
		if !ev.contract(g.RuleCmpCst) {
			return nil
		}
		c, val = g.Then(w.C, c), w.S
	}
	if atomic(c) { // normal already
		return ev.mkCast(c, val, mk)
	}
	s := val
	return ev.normalize(c, func(n g.Coercion, mk metaCont) step {
		return ev.mkCast(n, s, mk)
	}, mk)
}

// mkCast puts a normal coercion on a simple value: IdCst, FailCst, FailFC, or a
// wrapped value.
func (ev *evaluator) mkCast(c g.Coercion, s v.Value, mk metaCont) step {
	switch c := c.(type) {
	case g.IdC:
		if !ev.contract(g.RuleIdCst) {
			return nil
		}
		return ev.ret(mk, s)
	case *g.Fail:
		if !ev.contract(g.RuleFailCst) {
			return nil
		}
		return ev.blame(c.L, mk)
	}
	if l, ok := g.IsFailingWrapper(c); ok {
		if !ev.contract(g.RuleFailFC) {
			return nil
		}
		return ev.blame(l, mk)
	}
	if !g.IsWrapperShape(c) {
		return ev.fail(interderive.Stuck(v.Show(s), "coercion %s cannot apply to a simple value", g.FormatCoercion(c)))
	}
	return ev.ret(mk, &v.Wrapped{C: c, S: s})
}

// normalize is the inner layer: it normalises c leftmost-innermost, contracting with
// the semantics' rules (each a StepCst event), and passes the normal form to k. A part
// that is atomic (id, I!, I?^l, fail^l: normal, and no redex by itself) goes on at
// once, without a continuation for it: the inner machine's corridor, compressed.
func (ev *evaluator) normalize(c g.Coercion, k cont, mk metaCont) step {
	switch c := c.(type) {
	case *g.Seq:
		if atomic(c.Fst) {
			return ev.seqSnd(c, c.Fst, k, mk)
		}
		return ev.normalize(c.Fst, func(a g.Coercion, mk metaCont) step { return ev.seqSnd(c, a, k, mk) }, mk)
	case *g.Func:
		if atomic(c.Dom) {
			return ev.funcCod(c, c.Dom, k, mk)
		}
		return ev.normalize(c.Dom, func(a g.Coercion, mk metaCont) step { return ev.funcCod(c, a, k, mk) }, mk)
	}
	return ev.resume(k, c, mk)
}

// seqSnd is the inner continuation of c = ĉ ; c2 once its first part is normal, a: c2
// is normalised, then a ; c2 is reduced.
func (ev *evaluator) seqSnd(c *g.Seq, a g.Coercion, k cont, mk metaCont) step {
	if atomic(c.Snd) {
		return ev.reduce(g.Then(a, c.Snd), k, mk)
	}
	return ev.normalize(c.Snd, func(b g.Coercion, mk metaCont) step { return ev.reduce(g.Then(a, b), k, mk) }, mk)
}

// funcCod is the inner continuation of c = c1 -> c2 once its domain is normal, a: c2
// is normalised, then a -> c2 is reduced.
func (ev *evaluator) funcCod(c *g.Func, a g.Coercion, k cont, mk metaCont) step {
	if atomic(c.Cod) {
		return ev.reduce(&g.Func{Dom: a, Cod: c.Cod}, k, mk)
	}
	return ev.normalize(c.Cod, func(b g.Coercion, mk metaCont) step { return ev.reduce(&g.Func{Dom: a, Cod: b}, k, mk) }, mk)
}

// atomic reports whether a coercion is neither a sequence nor an arrow: normal, and
// no redex by itself.
func atomic(c g.Coercion) bool {
	switch c.(type) {
	case *g.Seq, *g.Func:
		return false
	}
	return true
}

// resume passes the normal coercion n to the inner continuation k: as a direct call,
// or every maxDirect calls through the trampoline (see ret).
func (ev *evaluator) resume(k cont, n g.Coercion, mk metaCont) step {
	if ev.direct < maxDirect {
		ev.direct++
		return k(n, mk)
	}
	ev.next.mk, ev.next.k, ev.next.c = mk, k, n
	return ev.resumeStep
}

// reduce contracts a node whose parts are normal, if it is a redex, and normalises the
// contractum; otherwise the node is normal.
func (ev *evaluator) reduce(node g.Coercion, k cont, mk metaCont) step {
	r, rule, ok := ev.sem.Contract(node)
	if !ok {
		return ev.resume(k, node, mk)
	}
	if !ev.contract(g.StepCst(rule)) {
		return nil
	}
	if ev.direct < maxDirect { // a chain of contractions counts as calls (see ret)
		ev.direct++
		return ev.normalize(r, k, mk)
	}
	ev.next.mk, ev.next.k, ev.next.c = mk, k, r
	return ev.reduceStep
}

// Gradual is this stage's artefact for the gradual calculi (gradual.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}
