package cps2

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/values/abductiveval"
)

// The CPS evaluator of the abductive calculus is the machine's stack K
// refunctionalized: each frame of K becomes a continuation, a Go closure waiting for
// the value of a subterm, and the machine's eval and continue transitions become eval
// and the continuations' applications. Its two layers: the outer one evaluates terms
// (eval, apply, the meta-continuation); the inner one is an iterator's fold over the
// basis (fold, whose continuation waits for the value of the rest of the fold: the
// machine's FoldRest and BinaryRight frames refunctionalized). Decoupling is one
// meta-level step (abductiveval.Decouple), as in every stage.
//
// Go does not eliminate tail calls, so the evaluator is trampolined, as the other
// calculi's: eval and the continuations return an abductiveStep, the rest of the
// computation, to a driver loop, and a call goes on directly for up to
// abductiveMaxDirect calls between two bounces.

// Abductive is the CPS evaluator of the abductive calculus (abductive.StageOf). Its
// observer sees its contractions and its decouplings' reports.
func (Stage) Abductive() abductive.Stage { return abductiveStage{} }

type abductiveStage struct{}

// abductiveStep is one bounce of the trampoline: the rest of the computation, or nil
// when the run has ended (with its answer or error in the evaluator).
type abductiveStep func() abductiveStep

// abductiveCont is a continuation: what remains to be done with the value of a term
// (the refunctionalized context E, the machine's K).
type abductiveCont func(*abductiveval.Closure) abductiveStep

// abductiveEvaluator holds one run: the fuel, σ, the observer, and where the run ends.
type abductiveEvaluator struct {
	fuel   *interderive.Counter
	sigma  abductive.Store
	obs    interderive.Observer
	answer *abductiveval.Closure
	err    error
	direct int // calls made directly since the last bounce (see call)
}

// abductiveMaxDirect bounds the calls made directly between two bounces of the
// trampoline.
const abductiveMaxDirect = 64

// Eval runs a closed, well-typed term and reads the answer back.
func (abductiveStage) Eval(e abductive.Expr, opts interderive.Options) (abductive.Answer, error) {
	ev := &abductiveEvaluator{fuel: interderive.NewCounter(opts), sigma: abductive.Sigma(e), obs: opts.Observer}
	k0 := func(v *abductiveval.Closure) abductiveStep { // the empty context
		ev.answer = v
		return nil
	}
	for s := ev.eval(e, nil, k0); s != nil; {
		ev.direct = 0
		s = s()
	}
	if ev.err != nil {
		return abductive.Answer{}, ev.err
	}
	return abductive.Answer{Value: abductiveval.ReadBack(ev.answer), Sigma: ev.sigma}, nil
}

// call goes on with next: at once, or through the trampoline every
// abductiveMaxDirect calls, which unwinds the Go stack.
func (ev *abductiveEvaluator) call(next abductiveStep) abductiveStep {
	if ev.direct < abductiveMaxDirect {
		ev.direct++
		return next()
	}
	return next
}

// ret returns v to k.
func (ev *abductiveEvaluator) ret(k abductiveCont, v *abductiveval.Closure) abductiveStep {
	return ev.call(func() abductiveStep { return k(v) })
}

// descend evaluates e in ρ with the continuation k: eval, through call.
func (ev *abductiveEvaluator) descend(e abductive.Expr, rho *abductiveval.Env, k abductiveCont) abductiveStep {
	return ev.call(func() abductiveStep { return ev.eval(e, rho, k) })
}

// fail ends the run with an error.
func (ev *abductiveEvaluator) fail(err error) abductiveStep {
	ev.err = err
	return nil
}

// contract records a contraction; false (and the run ends) when a budget is spent.
func (ev *abductiveEvaluator) contract(rule string) bool {
	if err := ev.fuel.Contract(rule); err != nil {
		ev.err = err
		return false
	}
	return true
}

// abductiveMarked is the continuation k with the footprint L added to the value it gets (the
// mark []^L refunctionalized); k itself when L is empty.
func abductiveMarked(foot abductive.Footprint, k abductiveCont) abductiveCont {
	if len(foot) == 0 {
		return k
	}
	return func(v *abductiveval.Closure) abductiveStep { return k(v.WithFoot(foot)) }
}

// eval evaluates e in ρ and passes its value to k.
func (ev *abductiveEvaluator) eval(e abductive.Expr, rho *abductiveval.Env, k abductiveCont) abductiveStep {
	if abductive.IsValue(e) {
		switch e.(type) {
		case *abductive.Lam, *abductive.Abduct:
			return ev.ret(k, &abductiveval.Closure{E: e, Env: rho})
		}
		return ev.ret(k, abductiveval.Closed(e))
	}
	switch e := e.(type) {
	case *abductive.Var:
		v, ok := rho.Lookup(e.Name)
		if !ok {
			return ev.fail(interderive.Stuck("", "unbound variable %s", e.Name))
		}
		return ev.ret(k, v)
	case *abductive.Param:
		if !ev.contract(abductive.RuleParam) {
			return nil
		}
		return ev.ret(k, abductiveval.Closed(&abductive.Label{P: e.P, N: e.Label, Foot: abductive.Single(e.Label)}))
	case *abductive.App:
		return ev.descend(e.Fun, rho, func(f *abductiveval.Closure) abductiveStep {
			return ev.descend(e.Arg, rho, func(a *abductiveval.Closure) abductiveStep {
				return ev.apply(e.P, f, a, k)
			})
		})
	case *abductive.Binary:
		return ev.descend(e.X, rho, func(x *abductiveval.Closure) abductiveStep {
			return ev.descend(e.Y, rho, func(y *abductiveval.Closure) abductiveStep {
				if e.Op.IsIterator() {
					return ev.fold(e.P, e.Op, e.From, x, y, k)
				}
				return ev.delta(e.P, e.Op, x, y, k)
			})
		})
	case *abductive.Let:
		return ev.descend(e.Bound, rho, func(v *abductiveval.Closure) abductiveStep {
			if !ev.contract(abductive.RuleBeta) {
				return nil
			}
			foot := abductive.Union(abductiveval.LetFootprint(e, rho), v.Footprint())
			return ev.descend(e.Body, rho.Bind(e.Name, v), abductiveMarked(foot, k))
		})
	case *abductive.Vec:
		return ev.vector(e, 0, nil, rho, k)
	case *abductive.Mark:
		return ev.descend(e.Body, rho, abductiveMarked(e.Foot, k))
	}
	return ev.fail(interderive.Stuck("", "cannot evaluate %T", e))
}

// vector evaluates the components of e from the i-th on, done those before, and
// passes the vector to k.
func (ev *abductiveEvaluator) vector(e *abductive.Vec, i int, done []*abductiveval.Closure, rho *abductiveval.Env, k abductiveCont) abductiveStep {
	if i == len(e.Elems) {
		elems := make([]abductive.Expr, len(done))
		foot := e.Foot
		for j, w := range done {
			elems[j] = w.E
			foot = abductive.Union(foot, w.Footprint())
		}
		return ev.ret(k, abductiveval.Closed(&abductive.Vec{P: e.P, Elems: elems, Foot: foot}))
	}
	return ev.descend(e.Elems[i], rho, func(v *abductiveval.Closure) abductiveStep {
		return ev.vector(e, i+1, append(done[:len(done):len(done)], v), rho, k)
	})
}

// delta applies δ (delta) and passes the result to k.
func (ev *abductiveEvaluator) delta(p abductive.Pos, op abductive.Op, x, y *abductiveval.Closure, k abductiveCont) abductiveStep {
	w, ok := abductiveval.Delta(p, op, x, y)
	if !ok {
		return ev.fail(interderive.Stuck("", "no δ for %s on these operands", op))
	}
	if !ev.contract(abductive.RuleDelta) {
		return nil
	}
	return ev.ret(k, w)
}

// apply applies a function to an argument — a lambda by beta, an abduct by
// decoupling — and passes the result to k.
func (ev *abductiveEvaluator) apply(p abductive.Pos, f, a *abductiveval.Closure, k abductiveCont) abductiveStep {
	foot := abductive.Union(f.Footprint(), a.Footprint())
	switch fun := f.E.(type) {
	case *abductive.Lam:
		if !ev.contract(abductive.RuleBeta) {
			return nil
		}
		return ev.descend(fun.Body, f.Env.Bind(fun.Param, a), abductiveMarked(foot, k))
	case *abductive.Abduct:
		model, params, d := abductiveval.Decouple(p, ev.sigma, a)
		if !ev.contract(abductive.RuleAbduct) {
			return nil
		}
		if ev.obs != nil {
			ev.obs.Report(ev.fuel.Steps(), "decoupling", d, d.String())
		}
		return ev.descend(fun.Body, f.Env.Bind(fun.F, model).Bind(fun.Par, params), abductiveMarked(foot, k))
	}
	return ev.fail(interderive.Stuck("", "application of a non-function"))
}

// fold is the inner layer: the iterator g $[from] v0 unfolded (iterate), g applied to
// e_from in the outer layer, the rest of the fold, and their combination (delta),
// passed to k.
func (ev *abductiveEvaluator) fold(p abductive.Pos, op abductive.Op, from int, g, v0 *abductiveval.Closure, k abductiveCont) abductiveStep {
	n, ok := abductiveval.Dimension(v0)
	if !ok {
		return ev.fail(interderive.Stuck("", "the iterator's operand is not a vector"))
	}
	if !ev.contract(abductive.RuleIterate) {
		return nil
	}
	if from >= n {
		return ev.ret(k, v0.WithFoot(g.Footprint()))
	}
	return ev.apply(p, g, abductiveval.Basis(p, from, n), func(x *abductiveval.Closure) abductiveStep {
		return ev.call(func() abductiveStep {
			return ev.fold(p, op, from+1, g, v0, func(rest *abductiveval.Closure) abductiveStep {
				return ev.delta(p, abductiveval.Combine(op), x, rest, k)
			})
		})
	})
}
