package cps2

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/lambdaval"
	"github.com/interderive/interderive/lambda"
)

// The CPS evaluator of the call-by-value λ-calculus is the machine's stack K
// refunctionalized: each frame of K becomes a continuation, a Go closure waiting for
// the value of a subterm, and the machine's eval and continue transitions become eval
// and the continuations' applications. One layer of continuations suffices: no
// contraction of the calculus runs a computation of its own (as the gradual calculus's
// StepCst normalises a coercion, or the differentiable language's rd evaluates
// symbolically), so the two-level evaluator has only its outer layer, the
// meta-continuation, and no inner one.
//
// Go does not eliminate tail calls, so the evaluator is trampolined: eval and the
// continuations return a lambdaStep, the rest of the computation, to a driver loop.
// To allocate no thunk per step, a call goes on directly for up to lambdaMaxDirect
// calls (of eval, a continuation or apply) between two bounces, so that the Go stack
// holds a bounded number of frames whatever the run, and whatever the term's depth.

// Lambda is the CPS evaluator of the λ-calculus (lambda.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Lambda() lambda.Stage { return lambdaStage{} }

type lambdaStage struct{}

// lambdaStep is one bounce of the trampoline: the rest of the computation, or nil when
// the run has ended (with its answer or error in the evaluator).
type lambdaStep func() lambdaStep

// lambdaCont is a continuation: what remains to be done with the value of a term (the
// refunctionalized context E, the machine's K).
type lambdaCont func(lambdaval.Value) lambdaStep

// lambdaEvaluator holds one run: the fuel, and where the run ends.
type lambdaEvaluator struct {
	fuel   *interderive.Counter
	answer lambdaval.Value
	err    error
	direct int // calls made directly since the last bounce (see call)
}

// lambdaMaxDirect bounds the calls made directly between two bounces of the
// trampoline.
const lambdaMaxDirect = 64

// Eval runs a closed, well-typed term and reads the answer back.
func (lambdaStage) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	ev := &lambdaEvaluator{fuel: interderive.NewCounter(opts)}
	k0 := func(v lambdaval.Value) lambdaStep { // the empty context
		ev.answer = v
		return nil
	}
	for s := ev.eval(e, nil, k0); s != nil; {
		ev.direct = 0
		s = s()
	}
	if ev.err != nil {
		return lambda.Answer{}, ev.err
	}
	return lambda.Answer{Value: lambdaval.ReadBack(ev.answer)}, nil
}

// call goes on with next: at once, or through the trampoline every lambdaMaxDirect
// calls, which unwinds the Go stack.
func (ev *lambdaEvaluator) call(next lambdaStep) lambdaStep {
	if ev.direct < lambdaMaxDirect {
		ev.direct++
		return next()
	}
	return next
}

// ret returns v to k.
func (ev *lambdaEvaluator) ret(k lambdaCont, v lambdaval.Value) lambdaStep {
	return ev.call(func() lambdaStep { return k(v) })
}

// descend evaluates e in ρ with the continuation k: eval, through call.
func (ev *lambdaEvaluator) descend(e lambda.Expr, rho *lambdaval.Env, k lambdaCont) lambdaStep {
	return ev.call(func() lambdaStep { return ev.eval(e, rho, k) })
}

// fail ends the run with an error.
func (ev *lambdaEvaluator) fail(err error) lambdaStep {
	ev.err = err
	return nil
}

// contract records a contraction; false (and the run ends) when a budget is spent.
func (ev *lambdaEvaluator) contract(rule string) bool {
	if err := ev.fuel.Contract(rule); err != nil {
		ev.err = err
		return false
	}
	return true
}

// eval evaluates e in ρ and passes its value to k.
func (ev *lambdaEvaluator) eval(e lambda.Expr, rho *lambdaval.Env, k lambdaCont) lambdaStep {
	switch e := e.(type) {
	case *lambda.IntLit:
		return ev.ret(k, lambdaval.Int(e.N))
	case *lambda.Var:
		v, ok := rho.Lookup(e.Name)
		if !ok {
			return ev.fail(interderive.Stuck("", "unbound variable %s", e.Name))
		}
		return ev.ret(k, v)
	case *lambda.Lam:
		return ev.ret(k, &lambdaval.Closure{Lam: e, Env: rho})
	case *lambda.App:
		return ev.descend(e.Fun, rho, func(f lambdaval.Value) lambdaStep {
			return ev.descend(e.Arg, rho, func(a lambdaval.Value) lambdaStep {
				return ev.apply(f, a, k)
			})
		})
	case *lambda.Binary:
		return ev.descend(e.X, rho, func(x lambdaval.Value) lambdaStep {
			return ev.descend(e.Y, rho, func(y lambdaval.Value) lambdaStep {
				n, ok := lambdaval.Delta(e.Op, x, y)
				if !ok {
					return ev.fail(interderive.Stuck(lambdaval.Show(x, y), "%s applied to a non-integer", e.Op))
				}
				if !ev.contract(lambda.RuleDelta) {
					return nil
				}
				return ev.ret(k, n)
			})
		})
	case *lambda.If0:
		return ev.descend(e.Cond, rho, func(c lambdaval.Value) lambdaStep {
			n, ok := c.(lambdaval.Int)
			if !ok {
				return ev.fail(interderive.Stuck(lambdaval.Show(c), "if0 on a non-integer"))
			}
			if !ev.contract(lambda.RuleIf0) {
				return nil
			}
			if n == 0 {
				return ev.descend(e.Then, rho, k)
			}
			return ev.descend(e.Else, rho, k)
		})
	case *lambda.Let:
		return ev.descend(e.Bound, rho, func(v lambdaval.Value) lambdaStep {
			if !ev.contract(lambda.RuleLet) {
				return nil
			}
			return ev.descend(e.Body, rho.Bind(e.Name, v), k)
		})
	case *lambda.Letrec:
		if !ev.contract(lambda.RuleLetrec) {
			return nil
		}
		return ev.descend(e.Body, lambdaval.BindLetrec(e, rho), k)
	}
	return ev.fail(interderive.Stuck("", "cannot evaluate %T", e))
}

// apply applies a closure to an argument (beta) and passes the result to k.
func (ev *lambdaEvaluator) apply(f, a lambdaval.Value, k lambdaCont) lambdaStep {
	clo, ok := f.(*lambdaval.Closure)
	if !ok {
		return ev.fail(interderive.Stuck(lambdaval.Show(f, a), "application of a non-function"))
	}
	if !ev.contract(lambda.RuleBeta) {
		return nil
	}
	return ev.descend(clo.Lam.Body, clo.Env.Bind(clo.Lam.Param, a), k)
}
