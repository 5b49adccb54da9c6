package cps2

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// The CPS evaluator of a rule-defined calculus (sem) is the derived machine's stack
// K refunctionalized (machine/rules.go, over the closures of internal/values/semval):
// each frame of K, a frame of the rule file with the closure around its hole, becomes
// a continuation waiting for the value of the hole, and the machine's eval and
// continue transitions become eval and resume, the code of those continuations:
//
//	eval(c, k, κ)          c a value of k                -> κ(c)
//	                       c enters frame f of k (the first in search order)
//	                                                     -> eval(f's hole, f's hole kind, λv. resume(f, c, v, κ))
//	                       otherwise, rule r contracts c to c'
//	                                                     -> eval(c', k, κ)             r
//	resume(f, n, v, κ)     f[v] enters a frame g of f's kind after f
//	                                                     -> eval(g's hole, g's hole kind, λw. resume(g, f[v], w, κ))
//	                       f[v] a value of f's kind      -> κ(f[v])
//	                       otherwise, rule r contracts f[v] to c'
//	                                                     -> eval(c', f's kind, κ)       r
//	κ0 = λv. halt(v)
//
// Before refunctionalizing, the machine's transitions are compressed: the
// administrative transition eval(v, k, K) -> continue(K, v), which only hands a value
// over, is gone (eval applies κ to the value at once), and so is the state continue
// itself (a continuation is applied where the machine entered it). The contractions
// are the machine's, one for one. One layer of continuations suffices: no rule runs a
// computation of its own (layers are not declared), so the two-level evaluator has
// its outer layer only. The evaluator is trampolined as the λ-calculus's is: a call
// goes on directly for up to rulesMaxDirect calls between two bounces of the driver
// loop, so that the Go stack holds a bounded number of frames.
//
// It runs the rule files that qualify for closures (semval.Qualifies), and refuses
// the others, saying why.

// Rules is the CPS evaluator derived from a rule file (sem.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesStep is one bounce of the trampoline: the rest of the computation, or nil when
// the run has ended (with its answer or error in the evaluator).
type rulesStep func() rulesStep

// rulesCont is a continuation: what remains to be done with the value of a closure
// (the refunctionalized stack K).
type rulesCont func(*semval.Clo) rulesStep

// rulesEvaluator holds one run: the meta-level over closures, the fuel, and where the
// run ends.
type rulesEvaluator struct {
	semval.Meta
	fuel   *interderive.Counter
	answer *semval.Clo
	err    error
	direct int // calls made directly since the last bounce (see call)
}

// rulesMaxDirect bounds the calls made directly between two bounces of the
// trampoline.
const rulesMaxDirect = 64

// ErrNotQualified is the error of a rule file this stage does not run: a pattern of
// it matches a variable occurrence, which closures look up instead.
var ErrNotQualified = fmt.Errorf("the CPS evaluator runs only rule files whose patterns match no variable occurrence in a term position (docs/rules.md)")

// Eval runs a closed term and reads the answer back.
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	if !semval.Qualifies(l) {
		return sem.Answer{}, ErrNotQualified
	}
	ev := &rulesEvaluator{Meta: semval.NewMeta(l), fuel: interderive.NewCounter(opts)}
	k0 := func(v *semval.Clo) rulesStep { // the empty stack
		ev.answer = v
		return nil
	}
	for s := ev.eval(semval.Leaf(t, nil), l.Root(), k0); s != nil; {
		ev.direct = 0
		s = s()
	}
	if ev.err != nil {
		return sem.Answer{}, ev.err
	}
	return sem.Answer{Value: ev.ReadBack(ev.answer)}, nil
}

// call goes on with next: at once, or through the trampoline every rulesMaxDirect
// calls, which unwinds the Go stack.
func (ev *rulesEvaluator) call(next rulesStep) rulesStep {
	if ev.direct < rulesMaxDirect {
		ev.direct++
		return next()
	}
	return next
}

// fail ends the run with an error.
func (ev *rulesEvaluator) fail(err error) rulesStep {
	ev.err = err
	return nil
}

// eval evaluates the closure c of kind k and passes its value to κ.
func (ev *rulesEvaluator) eval(c *semval.Clo, k *sem.Kind, kappa rulesCont) rulesStep {
	c = semval.Resolve(c) // look-up: an environment step
	if c.T != nil && c.T.Op == sem.TermVar {
		return ev.fail(interderive.Stuck(c.T.Name, "free variable %s", c.T.Name))
	}
	if ev.IsValue(c, k) {
		return ev.call(func() rulesStep { return kappa(c) })
	}
	if f, ok := ev.FindFrame(c, k, 0); ok {
		n := semval.View(c)
		return ev.call(func() rulesStep {
			return ev.eval(semval.At(n, f.Path), f.Hole, func(v *semval.Clo) rulesStep { return ev.resume(f, n, v, kappa) })
		})
	}
	return ev.contract(c, k, kappa)
}

// resume is the code of the continuation of frame f entered from the closure n: plug
// the value v into f, and resume the search after f: enter the next frame, pass the
// plugged closure to κ if it is a value, or contract it in place.
func (ev *rulesEvaluator) resume(f *sem.Frame, n, v *semval.Clo, kappa rulesCont) rulesStep {
	c := semval.PlugAt(n, f.Path, v)
	k := f.Kind
	if g, ok := ev.FindFrame(c, k, f.Index+1); ok {
		m := semval.View(c)
		return ev.call(func() rulesStep {
			return ev.eval(semval.At(m, g.Path), g.Hole, func(w *semval.Clo) rulesStep { return ev.resume(g, m, w, kappa) })
		})
	}
	if ev.IsValue(c, k) {
		return ev.call(func() rulesStep { return kappa(c) })
	}
	return ev.contract(c, k, kappa)
}

// contract contracts the potential redex c of kind k and goes on evaluating the
// contractum with the same continuation.
func (ev *rulesEvaluator) contract(c *semval.Clo, k *sem.Kind, kappa rulesCont) rulesStep {
	cc, err := ev.Contract(c, k, nil, nil)
	out, r := cc.Clo, cc.Rule
	if err != nil {
		return ev.fail(err)
	}
	if err := ev.fuel.Contract(r.Name); err != nil {
		return ev.fail(err)
	}
	return ev.call(func() rulesStep { return ev.eval(out, k, kappa) })
}
