package cps2

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// The CPS evaluator of a rule-defined calculus (sem) is the derived machine's stack
// K refunctionalized (machine/rules.go, over the closures of internal/values/semval),
// in two layers of continuations. The inner layer, κ: each frame of K, a frame of the
// rule file with the closure around its hole, becomes a continuation waiting for the
// value of the hole, and the machine's eval and continue transitions become eval and
// resume, the code of those continuations. The outer layer, γ (the
// meta-continuation): the frames entered, innermost first, each with the closure it
// was entered from and the continuation κ that closure was evaluated under: what a
// context rule (an abort) returns to, and the context a rule is contracted in.
//
//	eval(c, k, κ, γ)       c a value of k                -> κ(c)
//	                       c enters frame f of k (the first in search order whose
//	                       hole holds a non-value)       -> eval(f's hole, f's hole kind, λv. resume(f, c, v, κ, γ), (f, c, κ) : γ)
//	                       γ = [], c an answer of k      -> κ(c)
//	                       otherwise, rule r contracts c in γ to c'
//	                                                     -> eval(c', k, κ, γ)                     r
//	                       or a context rule r contracts c in γ to c', discarding the
//	                       frames of γ up to (f, n, κ_f) : γ_f
//	                                                     -> eval(c', f's kind, κ_f, γ_f)           r
//	resume(f, n, v, κ, γ)  f[v] enters a frame g of f's kind after f
//	                                                     -> eval(g's hole, g's hole kind, λw. resume(g, f[v], w, κ, γ), (g, f[v], κ) : γ)
//	                       f[v] a value of f's kind      -> κ(f[v])
//	                       γ = [], f[v] an answer        -> κ(f[v])
//	                       otherwise, rule r contracts f[v] in γ as eval does
//	κ0 = λv. halt(v)
//
// An abort to the root discards κ and γ: it resumes the outermost continuation, κ0,
// with the contractum (γ's last frame has κ0: with γ empty, κ is κ0, so that an
// answer in the empty context halts). A delimited abort resumes the continuation
// captured when the delimiter frame was entered, κ_f: the contractum takes the place
// of the closure that frame was entered from. Aborts never reinstate a continuation
// they discard, so that γ needs no more than the frames' list (a persistent one,
// shared by the continuations, looked up innermost first by Contract: rulesContext).
//
// A rule that steps an inner layer, (where (step K a b)), steps a in CPS too
// (stepLayer): a run of its own of eval and resume, from eval(a, K, κ0', []), whose
// first contraction ends it, its contractum plugged into the frames of that run's γ
// (what the machine's inner stack holds), or whose κ0' ends it with no step (a is a
// value, or an answer, of K). The inner run spends no fuel: its contraction is part of
// the outer one, reported as Rule/<inner event>.
//
// The machine passes over a frame whose hole holds a value (sem.Engine's Enter), and
// so does eval here. Before refunctionalizing, the machine's transitions are compressed: the
// administrative transition eval(v, k, K) -> continue(K, v), which only hands a value
// over, is gone (eval applies κ to the value at once), and so is the state continue
// itself (a continuation is applied where the machine entered it). The contractions
// are the machine's, one for one. The evaluator is trampolined as the λ-calculus's
// is: a call goes on directly for up to rulesMaxDirect calls between two bounces of
// the driver loop, so that the Go stack holds a bounded number of frames.
//
// It runs on the engine of sem: over closures for the rule files that qualify for
// them (sem.Language.Qualifies), by substitution for the others.

// Rules is the CPS evaluator derived from a rule file (sem.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesStep is one bounce of the trampoline: the rest of the computation, or nil when
// the run has ended (with its answer or error in the run).
type rulesStep func() rulesStep

// rulesCont is a continuation: what remains to be done with the value of a closure
// (the refunctionalized stack K).
type rulesCont func(*sem.Term) rulesStep

// rulesEntered is a frame of the meta-continuation γ, a persistent list: a frame
// entered, the closure it was entered from, the continuation of that closure, and the
// frames around it.
type rulesEntered struct {
	frame *sem.Frame
	node  *sem.Term
	kappa rulesCont
	next  *rulesEntered
	depth int // the number of frames from this one out
}

// push is (f, n, κ) : γ, when the run keeps γ: when the rule file asks for it
// (rulesEvaluator.track), and always in a layer's step, whose contractum is plugged
// into the frames of its γ.
func (r *rulesRun) push(gamma *rulesEntered, f *sem.Frame, n *sem.Term, kappa rulesCont) *rulesEntered {
	if !r.ev.track && !r.layer {
		return nil
	}
	d := 1
	if gamma != nil {
		d += gamma.depth
	}
	return &rulesEntered{frame: f, node: n, kappa: kappa, next: gamma, depth: d}
}

// rulesContext is γ as the context of a redex (sem.Context): its frames,
// innermost first, found by walking the list from a cursor, so that Contract's
// innermost-first search is linear.
type rulesContext struct {
	top, at *rulesEntered
	i       int
}

// Depth is the number of frames of γ.
func (E *rulesContext) Depth() int {
	if E.top == nil {
		return 0
	}
	return E.top.depth
}

// Frame is γ's i-th frame from the innermost, with the closure it was entered from.
func (E *rulesContext) Frame(i int) (*sem.Frame, *sem.Term) {
	e := E.entry(i)
	return e.frame, e.node
}

// entry is γ's i-th frame from the innermost.
func (E *rulesContext) entry(i int) *rulesEntered {
	if E.at == nil || i < E.i {
		E.at, E.i = E.top, 0
	}
	for E.i < i {
		E.at, E.i = E.at.next, E.i+1
	}
	return E.at
}

// rulesEvaluator is what the runs of a program share: the engine (over closures, or
// by substitution), the fuel, and whether the runs keep γ.
type rulesEvaluator struct {
	*sem.Engine
	fuel *interderive.Counter
	// track is whether the frames entered are kept in γ: only a rule file with a
	// context rule or an answer asks for them (sem.Language.SeesContext). For the others γ stays
	// empty, and the evaluator is the one-layer evaluator of the stack
	// refunctionalized; but for a layer's step, which keeps γ always, to plug its
	// contractum into.
	track bool
}

// rulesRun is one run of eval and resume, on its trampoline: the program's, or an
// inner layer's step (layer), which ends at its first contraction.
type rulesRun struct {
	ev     *rulesEvaluator
	layer  bool
	answer *sem.Term // the answer; for a layer's step, the closure after it
	event  string    // a layer's step: the event of its contraction
	err    error
	direct int // calls made directly since the last bounce (see call)
	// scratch is where resume plugs (sem.Scratch): a closure it holds on to is kept.
	scratch sem.Scratch
	context rulesContext // γ as the context of the redex under contraction (contract)
}

// rulesMaxDirect bounds the calls made directly between two bounces of the
// trampoline.
const rulesMaxDirect = 64

// Eval runs a closed term and reads the answer back, under the discipline the file
// qualifies for (sem.Language.Discipline).
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	e := sem.NewRun(l, l.Discipline(), opts)
	defer e.Release()
	ev := &rulesEvaluator{Engine: e, fuel: e.Fuel(), track: l.SeesContext()}
	r := &rulesRun{ev: ev}
	k0 := func(v *sem.Term) rulesStep { // the empty stack
		r.answer = v
		return nil
	}
	r.drive(r.eval(ev.Start(t), l.Root(), k0, nil))
	if r.err != nil {
		return sem.Answer{}, r.err
	}
	return sem.Answer{Value: ev.ReadBack(r.answer)}, nil
}

// stepLayer is one step of an inner layer, for a rule's (step K a b): a run from
// eval(c, k, κ0', []) to its first contraction, the contractum plugged into that run's
// frames; ok is false when κ0' ends the run first (c is a value, or an answer, of k).
func (ev *rulesEvaluator) stepLayer(c *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	r := &rulesRun{ev: ev, layer: true}
	k0 := func(*sem.Term) rulesStep { return nil }
	r.drive(r.eval(c, k, k0, nil))
	switch {
	case r.err != nil:
		return nil, "", false, r.err
	case r.answer == nil:
		return c, "", false, nil
	}
	return r.answer, r.event, true, nil
}

// drive is the trampoline's driver loop: it bounces until the run ends.
func (r *rulesRun) drive(s rulesStep) {
	for s != nil {
		r.direct = 0
		s = s()
	}
}

// call goes on with next: at once, or through the trampoline every rulesMaxDirect
// calls, which unwinds the Go stack.
func (r *rulesRun) call(next rulesStep) rulesStep {
	if r.direct < rulesMaxDirect {
		r.direct++
		return next()
	}
	return next
}

// fail ends the run with an error.
func (r *rulesRun) fail(err error) rulesStep {
	r.err = err
	return nil
}

// eval evaluates the closure c of kind k, in the frames γ, and passes its value to κ.
func (r *rulesRun) eval(c *sem.Term, k *sem.Kind, kappa rulesCont, gamma *rulesEntered) rulesStep {
	c, err := r.ev.LookUp(c) // look-up: an environment step
	if err != nil {
		return r.fail(err)
	}
	if r.ev.IsValue(c, k) {
		return r.call(func() rulesStep { return kappa(c) })
	}
	if f, ok := r.ev.Enter(c, k, 0); ok {
		n := sem.View(c)
		return r.call(func() rulesStep {
			return r.eval(sem.At(n, f.Path), f.Hole, func(v *sem.Term) rulesStep { return r.resume(f, n, v, kappa, gamma) }, r.push(gamma, f, n, kappa))
		})
	}
	return r.contract(c, k, kappa, gamma)
}

// resume is the code of the continuation of frame f entered from the closure n, in
// the frames γ: plug the value v into f, and resume the search after f: enter the
// next frame, pass the plugged closure to κ if it is a value, or contract it in place.
func (r *rulesRun) resume(f *sem.Frame, n, v *sem.Term, kappa rulesCont, gamma *rulesEntered) rulesStep {
	c := r.scratch.Plug(n, f.Path, v)
	k := f.Kind
	if g, ok := r.ev.Enter(c, k, f.Index+1); ok {
		m := r.scratch.Keep(sem.View(c))
		return r.call(func() rulesStep {
			return r.eval(sem.At(m, g.Path), g.Hole, func(w *sem.Term) rulesStep { return r.resume(g, m, w, kappa, gamma) }, r.push(gamma, g, m, kappa))
		})
	}
	if r.ev.IsValue(c, k) {
		c = r.scratch.Keep(c)
		return r.call(func() rulesStep { return kappa(c) })
	}
	return r.contract(c, k, kappa, gamma)
}

// contract contracts the potential redex c of kind k in the frames γ, and goes on
// evaluating the contractum: with the same continuation, or, after a context rule,
// with the continuation of the last frame it discards (the outermost continuation,
// for an abort to the root). An answer in the empty context goes to κ (κ0 there). A
// layer's step ends at its contraction.
//
// (The continuations the closures below capture are assigned once, so that Go
// captures them by value and moves nothing to the heap at each call; γ as a context is
// the run's own room, which Contract does not keep.)
func (r *rulesRun) contract(c *sem.Term, k *sem.Kind, kappa rulesCont, gamma *rulesEntered) rulesStep {
	if gamma == nil && r.ev.IsAnswer(c, k) {
		v := r.scratch.Keep(c)
		return r.call(func() rulesStep { return kappa(v) })
	}
	var E *rulesContext
	var ctx sem.Context // nil, the empty context, for a run that keeps no γ
	if r.ev.track {
		E = &r.context
		*E = rulesContext{top: gamma}
		ctx = E
	}
	ct, err := r.ev.Contract(c, k, ctx, r.ev.stepLayer)
	if err != nil {
		return r.fail(err)
	}
	next, under := after(ct, E, kappa, gamma)
	if r.layer {
		out := ct.Term
		for e := under; e != nil; e = e.next {
			out = sem.PlugAt(e.node, e.frame.Path, out)
		}
		r.answer, r.event = out, ct.Event
		return nil
	}
	if err := r.ev.fuel.Contract(ct.Event); err != nil {
		return r.fail(err)
	}
	return r.call(func() rulesStep { return r.eval(ct.Term, ct.Kind, next, under) })
}

// after is the continuation and the frames a contraction goes on with: κ and γ as
// they were, or, after a context rule that discards ct.Pop frames of E, those of the
// last frame it discards.
func after(ct sem.Contraction, E *rulesContext, kappa rulesCont, gamma *rulesEntered) (rulesCont, *rulesEntered) {
	if ct.Pop == 0 {
		return kappa, gamma
	}
	to := E.entry(ct.Pop - 1)
	return to.kappa, to.next
}
