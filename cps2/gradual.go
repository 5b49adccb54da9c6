package cps2

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// step is one bounce of the trampoline: the rest of the computation, or nil when the
// run has ended (with its answer or error recorded in the evaluator).
type step func() step

// metaCont is the outer continuation: what remains to be done with the value of a
// term (the refunctionalized term context E, the machine's stack K). empty marks the
// initial continuation, the empty context that the Blame rule distinguishes.
type metaCont struct {
	apply func(v.Value) step
	empty bool
	// cast and under describe a continuation <cast> [] followed by under: the merging
	// mode merges a new pending coercion into it.
	cast  g.Coercion
	under *metaCont
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
	direct int // returns made as direct calls since the last bounce (see ret)
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ and reads the answer back. The
// evaluator merges pending coercions where that preserves answers
// (gradual.MergesSafely), unless opts.Merging says otherwise.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	ev := &evaluator{sem: sem, fuel: interderive.NewCounter(opts), merge: opts.Merging.Merge(g.MergesSafely(sem))}
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

// maxDirect bounds the returns ret makes as direct calls between two bounces of the
// trampoline: the Go stack holds at most that many continuation applications.
const maxDirect = 64

// ret returns val to mk: as a direct call, or every maxDirect returns through the
// trampoline, which unwinds the Go stack. (A bounce per return would allocate a
// closure per return; none at all would let the Go stack grow with the run.)
func (ev *evaluator) ret(mk metaCont, val v.Value) step {
	if ev.direct < maxDirect {
		ev.direct++
		return mk.apply(val)
	}
	return func() step { return mk.apply(val) }
}

// frame builds a non-initial meta-continuation.
func frame(apply func(v.Value) step) metaCont { return metaCont{apply: apply} }

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
		return ev.eval(e.X, rho, frame(func(x v.Value) step {
			return ev.delta(e.Op, mk, x, nil)
		}))
	case *g.Binary:
		return ev.eval(e.X, rho, frame(func(x v.Value) step {
			return ev.eval(e.Y, rho, frame(func(y v.Value) step {
				return ev.delta(e.Op, mk, x, y)
			}))
		}))
	case *g.If:
		return ev.eval(e.Cond, rho, frame(func(c v.Value) step {
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
		}))
	case *g.App:
		return ev.eval(e.Fun, rho, frame(func(f v.Value) step {
			return ev.eval(e.Arg, rho, frame(func(a v.Value) step {
				return ev.apply(f, a, mk)
			}))
		}))
	case *g.Coerce:
		if ev.merge && !v.WrapsValue(ev.sem, e.C, e.X, rho) {
			value := func(n g.Coercion) bool { return v.WrapsValue(ev.sem, n, e.X, rho) }
			return ev.pending(e.C, mk, value, func(mk metaCont) step { return ev.eval(e.X, rho, mk) })
		}
		return ev.eval(e.X, rho, ev.castCont(e.C, mk))
	case *g.Let:
		return ev.eval(e.Bound, rho, frame(func(b v.Value) step {
			if !ev.contract(g.RuleLet) {
				return nil
			}
			return ev.eval(e.Body, rho.Bind(e.Name, b), mk)
		}))
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

// delta is δ on values (y is nil for a unary operator).
func (ev *evaluator) delta(op g.Op, mk metaCont, x, y v.Value) step {
	r, ok := v.Delta(op, x, y)
	if !ok {
		return ev.fail(interderive.Stuck(v.Show(x, y), "%s applied to ill-typed values", op))
	}
	if !ev.contract(g.RuleDelta) {
		return nil
	}
	return ev.ret(mk, r)
}

// apply applies a closure (beta) or a function wrapped by c̃ -> d̃ (AppCst).
func (ev *evaluator) apply(f, a v.Value, mk metaCont) step {
	switch f := f.(type) {
	case *v.Closure:
		if !ev.contract(g.RuleBeta) {
			return nil
		}
		return ev.eval(f.Lam.Body, f.Enter(a), mk)
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
			return ev.cast(fc.Dom, a, frame(func(x v.Value) step {
				return ev.apply(f.S, x, mk)
			}))
		}
		if ev.merge {
			return ev.pending(fc.Cod, mk, func(g.Coercion) bool { return false }, call)
		}
		return call(ev.castCont(fc.Cod, mk))
	}
	return ev.fail(interderive.Stuck(v.Show(f, a), "application of a non-function"))
}

// castCont is the continuation <c> [] followed by mk.
func (ev *evaluator) castCont(c g.Coercion, mk metaCont) metaCont {
	return metaCont{cast: c, under: &mk, apply: func(x v.Value) step { return ev.cast(c, x, mk) }}
}

// pending makes d a pending coercion in the merging mode: the inner layer normalises
// it; then, if mk is itself a pending coercion, the two merge (MergeCst) and the inner
// layer normalises the merge; the continuation resumes with the cast continuation of
// the normal form.
// (value tells whether <ĉ> e is a value once the coercion is normal: values do not
// merge.)
func (ev *evaluator) pending(d g.Coercion, mk metaCont, value func(g.Coercion) bool, resume func(metaCont) step) step {
	return ev.normalize(d, func(n g.Coercion, mk metaCont) step {
		if mk.cast == nil || value(n) {
			return resume(ev.castCont(n, mk))
		}
		if !ev.contract(g.RuleMergeCst) {
			return nil
		}
		return ev.normalize(g.Then(n, mk.cast), func(n g.Coercion, mk metaCont) step {
			return resume(ev.castCont(n, mk))
		}, *mk.under)
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
// the semantics' rules (each a StepCst event), and passes the normal form to k.
func (ev *evaluator) normalize(c g.Coercion, k cont, mk metaCont) step {
	switch c := c.(type) {
	case *g.Seq:
		return ev.normalize(c.Fst, func(a g.Coercion, mk metaCont) step {
			return ev.normalize(c.Snd, func(b g.Coercion, mk metaCont) step {
				return ev.reduce(g.Then(a, b), k, mk)
			}, mk)
		}, mk)
	case *g.Func:
		return ev.normalize(c.Dom, func(a g.Coercion, mk metaCont) step {
			return ev.normalize(c.Cod, func(b g.Coercion, mk metaCont) step {
				return ev.reduce(&g.Func{Dom: a, Cod: b}, k, mk)
			}, mk)
		}, mk)
	}
	return func() step { return k(c, mk) }
}

// reduce contracts a node whose parts are normal, if it is a redex, and normalises the
// contractum; otherwise the node is normal.
func (ev *evaluator) reduce(node g.Coercion, k cont, mk metaCont) step {
	r, rule, ok := ev.sem.Contract(node)
	if !ok {
		return func() step { return k(node, mk) }
	}
	if !ev.contract(g.StepCst(rule)) {
		return nil
	}
	return ev.normalize(r, k, mk)
}

// Gradual is this stage's artefact for the gradual calculi (gradual.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}
