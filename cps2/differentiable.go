package cps2

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// The two-level CPS evaluator of the differentiable language (docs/differentiable.md;
// Abadi & Plotkin §3, Figures 2–5): the machine of machine/differentiable.go with
// its two stacks refunctionalized.
//
//   - The inner continuation k (diffCont) is the rest of the current layer — the
//     machine's stack K of frames, the evaluation context E or E_bool of the current
//     evaluation, ordinary or symbolic. Each frame becomes the closure that the
//     machine's continue transition would run on it. k.initial marks the layer's
//     initial continuation, the trivial context [] that Figures 4 and 5 tell apart.
//   - The outer continuation mk (diffMeta), the meta-continuation, is the rest of the
//     enclosing layers — the machine's stack of layers, each frame of which (the
//     machine's DiffExit) says what the layer below does with the current layer's
//     result. It also holds the current layer's state: its mode and, when symbolic,
//     its tape (the trace so far, let x1:T1 = C1 in ..., and the values of Figure 5's
//     fresh variables; those of the other bindings are in ρ).
//
// eval(M, ρ, φ, k, mk) evaluates M under the value environment ρ and the function
// environment φ (closures clo_φ(f(x:T):U. M), the recursion tied at call time) in the
// current layer, and passes its value to k, which receives mk in turn, as in Danvy
// and Filinski's two-level CPS: k : Value → MetaCont → Answer. A layer's initial
// continuation hands the layer's result to mk: the value under ordinary evaluation,
// the finished trace under symbolic evaluation. A nested layer (rd's premise, the
// symbolic evaluation of its body; Figure 5's premises R ⇝ C and C ⇒ V) is a call of
// eval with the initial inner continuation and a new meta-continuation that resumes
// the layer below with k.
//
// Values and environments are the environment-based stages' shared ones
// (internal/values/dplval): a value V as the current layer sees it with ρ(V) (Value), ρ (Env,
// whose Sym marks the variables a symbolic layer bound, which its traces keep as
// names), φ (Funs), and clo_φ(f(x:T):U. M) (Closure). They, the contraction events,
// the bounds and the moment an rd is reported are the machine's (see its doc
// comment): one Counter.Contract per redex, named as the reference semantics names it
// (sym/ in symbolic layers), and no event for lookups, continuation calls and the
// bookkeeping of tapes.
//
// Fusion. Under tape, where nothing observes the derivative term (no rd reported), an
// rd under ordinary evaluation evaluates its derivative fused with R
// (fusedDerivative): the same contractions and bits as evaluating the term with the
// rd's continuation, without the term; the continuation receives the value.
//
// Go stack. Every call of a continuation, and every descent into a subterm, returns a
// step to the driver loop (a trampoline): the Go stack does not grow with the term,
// the program's recursion or the nesting of rd, only the continuations on the heap.

// diffCont is the inner continuation: the rest of the current layer.
type diffCont struct {
	apply   func(v dplval.Value, mk *diffMeta) step
	initial bool // the trivial context []
}

// diffMeta is the meta-continuation: the current layer's state, and what the
// enclosing layers do with its result.
type diffMeta struct {
	mode dpl.Mode
	// tape is the trace so far, when symbolic, and the values of the fresh variables
	// of Figure 5, which a layer evaluating a trace (C ⇒ V) shares with the layer
	// whose trace it is (internal/values/dplval).
	tape  dplval.Tape
	depth int
	// ret receives the layer's result: a closed value, or a finished trace.
	ret func(result dpl.Term) step
}

// diffEvaluator holds one run: the state every stage keeps (dpl.Run: the strategy,
// the fuel, the fresh names, the nodes of the traces, the observer of rd), and how the
// run ended.
type diffEvaluator struct {
	dpl.Run
	answer dpl.Answer
	err    error
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) under the
// differentiation strategy ad: a closed value, or undefined with its cause. Running
// out of fuel is an error (*interderive.FuelError), as are the bounds on nesting
// (*interderive.DepthError) and on the size of derivatives (*dpl.BudgetError).
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffTraced(ad, prog, opts, nil)
}

// EvalDiffTraced is EvalDiff calling onRd, if not nil, for every rd the run
// evaluates, at any depth, with the trace term of its body and its derivative term,
// when its contraction is complete (the reference semantics' order).
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	run, err := dpl.NewRun(ad, prog, opts, onRd)
	if err != nil {
		return dpl.Answer{}, err
	}
	ev := &diffEvaluator{Run: run}
	mk0 := &diffMeta{ret: func(v dpl.Term) step {
		ev.answer = dpl.Answer{Value: v}
		return nil
	}}
	for s := ev.eval(prog, nil, nil, ev.initial(), mk0); s != nil; {
		s = s()
	}
	if ev.err != nil {
		return dpl.AnswerOf(nil, ev.err)
	}
	return ev.answer, nil
}

// fail ends the run with an error (a *dpl.Undefined ends it with the answer
// undefined).
func (ev *diffEvaluator) fail(err error) step {
	ev.err = err
	return nil
}

// contract records a contraction, named by the layer's mode; false (and the run ends)
// when the fuel is spent.
func (ev *diffEvaluator) contract(mk *diffMeta, rule string) bool {
	if err := ev.Fuel.Contract(mk.mode.Rule(rule)); err != nil {
		ev.err = err
		return false
	}
	return true
}

// diffK builds a non-initial inner continuation.
func diffK(apply func(v dplval.Value, mk *diffMeta) step) diffCont { return diffCont{apply: apply} }

// initial is a layer's initial inner continuation: it hands the layer's result to
// the meta-continuation — M ⇒ V, or V ⇝ V ending the trace.
func (ev *diffEvaluator) initial() diffCont {
	return diffCont{initial: true, apply: func(v dplval.Value, mk *diffMeta) step {
		if mk.mode == dpl.Ordinary {
			return mk.ret(v.Val)
		}
		return ev.finish(mk, v.Term)
	}}
}

// throw passes v to k through the trampoline.
func throw(k diffCont, v dplval.Value, mk *diffMeta) step {
	return func() step { return k.apply(v, mk) }
}

// finish ends a symbolic layer with its trace, the tape around tail.
func (ev *diffEvaluator) finish(mk *diffMeta, tail dpl.Term) step {
	c, err := mk.tape.Finish(tail)
	if err != nil {
		return ev.fail(err)
	}
	return func() step { return mk.ret(c) }
}

// nested makes the meta-continuation of a nested layer, whose result ret receives.
func (ev *diffEvaluator) nested(mk *diffMeta, mode dpl.Mode, ret func(dpl.Term) step) (*diffMeta, bool) {
	if err := dpl.CheckLayers(mk.depth); err != nil {
		ev.err = err
		return nil, false
	}
	return &diffMeta{mode: mode, depth: mk.depth + 1, ret: ret}, true
}

// eval evaluates t under ρ and φ in the current layer and passes its value to k.
func (ev *diffEvaluator) eval(t dpl.Term, rho *dplval.Env, phi *dplval.Funs, k diffCont, mk *diffMeta) step {
	// descend evaluates a subterm, through the trampoline.
	descend := func(t dpl.Term, k diffCont) step {
		return func() step { return ev.eval(t, rho, phi, k, mk) }
	}
	switch t := t.(type) {
	case *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit:
		return throw(k, dplval.Closed(t), mk)
	case *dpl.Var:
		v, err := lookup(rho, mk, t)
		if err != nil {
			return ev.fail(err)
		}
		return throw(k, v, mk)
	case *dpl.Plus:
		return descend(t.X, diffK(func(a dplval.Value, mk *diffMeta) step {
			return ev.eval(t.Y, rho, phi, diffK(func(b dplval.Value, mk *diffMeta) step {
				return ev.plus(t.P, a, b, k, mk)
			}), mk)
		}))
	case *dpl.OpApp:
		return descend(t.Arg, diffK(func(a dplval.Value, mk *diffMeta) step {
			return ev.op(t, a, k, mk)
		}))
	case *dpl.Let:
		return descend(t.Bound, diffK(func(v dplval.Value, mk *diffMeta) step {
			return ev.let(t, v, rho, phi, k, mk)
		}))
	case *dpl.Pair:
		return descend(t.X, diffK(func(a dplval.Value, mk *diffMeta) step {
			return ev.eval(t.Y, rho, phi, diffK(func(b dplval.Value, mk *diffMeta) step {
				return throw(k, dplval.Pair(&ev.Nodes, t.P, a, b, t.T, t.U), mk) // <V, W> is a value
			}), mk)
		}))
	case *dpl.Fst:
		return descend(t.X, diffK(func(v dplval.Value, mk *diffMeta) step {
			return ev.proj(dpl.RuleFst, t.P, t.T, t.U, v, k, mk)
		}))
	case *dpl.Snd:
		return descend(t.X, diffK(func(v dplval.Value, mk *diffMeta) step {
			return ev.proj(dpl.RuleSnd, t.P, t.T, t.U, v, k, mk)
		}))
	case *dpl.If:
		return descend(t.Cond, diffK(func(b dplval.Value, mk *diffMeta) step {
			return ev.cond(t, b, rho, phi, k, mk)
		}))
	case *dpl.PredApp:
		// pred(V) ⇒ bev(pred, ρ(V)) in either mode: booleans are never traced.
		return descend(t.Arg, diffK(func(v dplval.Value, mk *diffMeta) step {
			if !ev.contract(mk, dpl.RulePred) {
				return nil
			}
			b, err := dpl.Bev(t.Pred, v.Val)
			if err != nil {
				return ev.fail(err)
			}
			return throw(k, dplval.Closed(&dpl.BoolLit{P: t.P, B: b}), mk)
		}))
	case *dpl.Call:
		clo, ok := phi.Called(t)
		if !ok {
			return ev.fail(interderive.Stuck("", "call of the unbound function %s", t.Name))
		}
		return descend(t.Arg, diffK(func(v dplval.Value, mk *diffMeta) step {
			return ev.call(t.P, clo, v, rho, k, mk)
		}))
	case *dpl.Rd:
		// The point first, then the cotangent.
		return descend(t.Point, diffK(func(p dplval.Value, mk *diffMeta) step {
			return ev.eval(t.Cotangent, rho, phi, diffK(func(w dplval.Value, mk *diffMeta) step {
				return ev.rd(t, w, p, rho, phi, k, mk)
			}), mk)
		}))
	case *dpl.Letrec:
		return func() step { return ev.letrec(t, rho, phi, k, mk) }
	case *dpl.Fd:
		return ev.fail(interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", t.P))
	}
	return ev.fail(interderive.Stuck("", "cannot evaluate %s", dpl.FormatShort(t, interderive.MaxStuckShown)))
}

// lookup is V ⇒ ρ(V) for a variable, no contraction; a symbolic layer keeps a
// symbolic variable as itself. The fresh variables of Figure 5 are found on the tape
// that binds them.
func lookup(rho *dplval.Env, mk *diffMeta, x *dpl.Var) (dplval.Value, error) {
	if e, ok := rho.Lookup(x.Name); ok {
		if mk.mode == dpl.Symbolic && e.Sym {
			return dplval.Value{Term: x, Val: e.Val}, nil
		}
		return dplval.Closed(e.Val), nil
	}
	if v, ok := mk.tape.Fresh.Get(x.Name); ok {
		if mk.mode == dpl.Symbolic {
			return dplval.Value{Term: x, Val: v}, nil
		}
		return dplval.Closed(v), nil
	}
	return dplval.Value{}, interderive.Stuck("", "unbound variable %s", x.Name)
}

// finished is the symbolic contraction of a redex whose trace is itself (V + W,
// op(V), fst(V), snd(V)): in the trivial context it ends the layer's trace (Figure
// 4); otherwise Figure 5 evaluates it (C ⇒ V) and binds a fresh variable to its value
// — as the machine does, in one step (a corridor: see machine.bindPrimitive): C's
// operands are values, whose closed values x and y are at hand, and the nested
// ordinary layer would make C's one contraction and nothing else.
func (ev *diffEvaluator) finished(c, x, y dpl.Term, k diffCont, mk *diffMeta) step {
	if k.initial {
		return ev.finish(mk, c)
	}
	if err := dpl.CheckLayers(mk.depth); err != nil { // as nested checks it
		return ev.fail(err)
	}
	if err := ev.Fuel.Contract(dpl.RuleOf(c)); err != nil { // unprefixed: the layer is ordinary
		return ev.fail(err)
	}
	v, err := dpl.Delta(c, x, y)
	if err != nil {
		return ev.fail(err)
	}
	return ev.bound(c.Pos(), c, v, nil, k, mk)
}

// plus contracts V + W: r + s, or V + W ⇝ V + W.
func (ev *diffEvaluator) plus(p dpl.Pos, a, b dplval.Value, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RulePlus) {
		return nil
	}
	if mk.mode == dpl.Symbolic {
		return ev.finished(ev.Nodes.Plus(p, a.Term, b.Term), a.Val, b.Val, k, mk)
	}
	r, err := dpl.AddReals(a.Val, b.Val)
	if err != nil {
		return ev.fail(err)
	}
	return throw(k, dplval.Closed(r), mk)
}

// op contracts op(V): ev(op, V), or op(V) ⇝ op(V).
func (ev *diffEvaluator) op(t *dpl.OpApp, v dplval.Value, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RuleOp) {
		return nil
	}
	if mk.mode == dpl.Symbolic {
		return ev.finished(ev.Nodes.OpApp(t.P, t.Op, v.Term), v.Val, nil, k, mk)
	}
	r, err := dpl.Ev(t.Op, v.Val)
	if err != nil {
		return ev.fail(err)
	}
	return throw(k, dplval.Closed(r), mk)
}

// proj contracts fst(V) and snd(V): a component, or fst(V) ⇝ fst(V), snd(V) ⇝ snd(V).
func (ev *diffEvaluator) proj(rule string, p dpl.Pos, t, u dpl.Type, v dplval.Value, k diffCont, mk *diffMeta) step {
	pr, ok := v.Val.(*dpl.Pair)
	if !ok {
		return ev.fail(interderive.Stuck("", "%s of %s", rule, dpl.FormatShort(v.Val, interderive.MaxStuckShown)))
	}
	if !ev.contract(mk, rule) {
		return nil
	}
	if mk.mode == dpl.Symbolic {
		if rule == dpl.RuleFst {
			return ev.finished(&dpl.Fst{P: p, X: v.Term, T: t, U: u}, v.Val, nil, k, mk)
		}
		return ev.finished(&dpl.Snd{P: p, X: v.Term, T: t, U: u}, v.Val, nil, k, mk)
	}
	if rule == dpl.RuleFst {
		return throw(k, dplval.Closed(pr.X), mk)
	}
	return throw(k, dplval.Closed(pr.Y), mk)
}

// let contracts let x:T = V in N: N under ρ[V/x]; symbolically, the tape grows by
// let x:T = V and N is traced under ρ[ρ(V)/x].
func (ev *diffEvaluator) let(t *dpl.Let, v dplval.Value, rho *dplval.Env, phi *dplval.Funs, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RuleLet) {
		return nil
	}
	if mk.mode == dpl.Ordinary {
		return ev.eval(t.Body, rho.Bind(t.Name, v.Val, false), phi, k, mk)
	}
	return ev.inPlace(t.P, ev.Nodes.Let(t.P, t.Name, t.T, v.Term), t.Body, rho.Bind(t.Name, v.Val, true), phi, rho, k, mk)
}

// inPlace goes on symbolically with next under env and phi after a redex (whose
// environment is rho) that adds binding (if not nil) to the tape: in place in the
// trivial context (Figure 4), in a nested layer otherwise (Figure 5: R ⇝ C, then
// C ⇒ V).
func (ev *diffEvaluator) inPlace(p dpl.Pos, binding *dpl.Let, next dpl.Term, env *dplval.Env, phi *dplval.Funs, rho *dplval.Env, k diffCont, mk *diffMeta) step {
	if k.initial {
		if binding != nil {
			mk.tape.Lets = append(mk.tape.Lets, binding)
		}
		return ev.eval(next, env, phi, k, mk)
	}
	inner, ok := ev.nested(mk, dpl.Symbolic, func(c dpl.Term) step { return ev.bind(p, c, rho, nil, k, mk) })
	if !ok {
		return nil
	}
	if binding != nil {
		inner.tape.Lets = []*dpl.Let{binding}
	}
	return ev.eval(next, env, phi, ev.initial(), inner)
}

// bind is Figure 5's C ⇒ V and E[x] ⇝ D under ρ[V/x]: C is evaluated in a nested
// ordinary layer under rho and the layer's fresh variables; then the tape grows by
// let x:T_V = C, x fresh, and the layer goes on with x in its context k. rep, if not
// nil, is the rd whose derivative C is, reported now that its contraction is complete.
func (ev *diffEvaluator) bind(p dpl.Pos, c dpl.Term, rho *dplval.Env, rep *dpl.RdReport, k diffCont, mk *diffMeta) step {
	inner, ok := ev.nested(mk, dpl.Ordinary, func(v dpl.Term) step { return ev.bound(p, c, v, rep, k, mk) })
	if !ok {
		return nil
	}
	inner.tape.Fresh = mk.tape.Fresh
	return ev.eval(c, rho, nil, ev.initial(), inner)
}

// bound is the rest of bind once C ⇒ V: the tape grows by let x:T_V = C, x fresh,
// and the layer goes on with x in its context k.
func (ev *diffEvaluator) bound(p dpl.Pos, c, v dpl.Term, rep *dpl.RdReport, k diffCont, mk *diffMeta) step {
	x := mk.tape.BindFresh(&ev.Run, p, c, v)
	if rep != nil {
		ev.ReportRd(rep.Trace, rep.Derivative)
	}
	return throw(k, x, mk)
}

// cond contracts if b then M else N: the branch, evaluated (or traced) in place, or,
// under symbolic evaluation in a nontrivial context, traced in a nested layer.
func (ev *diffEvaluator) cond(t *dpl.If, b dplval.Value, rho *dplval.Env, phi *dplval.Funs, k diffCont, mk *diffMeta) step {
	bl, ok := b.Val.(*dpl.BoolLit)
	if !ok {
		return ev.fail(interderive.Stuck("", "if on %s", dpl.FormatShort(b.Val, interderive.MaxStuckShown)))
	}
	if !ev.contract(mk, dpl.RuleIf) {
		return nil
	}
	next := t.Else
	if bl.B {
		next = t.Then
	}
	if mk.mode == dpl.Ordinary {
		return ev.eval(next, rho, phi, k, mk)
	}
	return ev.inPlace(t.P, nil, next, rho, phi, rho, k, mk)
}

// letrec contracts letrec f(x:T):U = M in N: N under φ[clo_φ(f(x:T):U. M)/f].
func (ev *diffEvaluator) letrec(t *dpl.Letrec, rho *dplval.Env, phi *dplval.Funs, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RuleLetrec) {
		return nil
	}
	clo := &dplval.Closure{Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Body: t.Fun, Phi: phi}
	phi2 := phi.Bind(t.Name, clo)
	if mk.mode == dpl.Ordinary {
		return ev.eval(t.Body, rho, phi2, k, mk)
	}
	return ev.inPlace(t.P, nil, t.Body, rho, phi2, rho, k, mk)
}

// call contracts f(V): the body M under φ'[φ(f)/f] | {x ↦ V}; symbolically, the tape
// grows by let x:T = V and M is traced under {x ↦ ρ(V)}.
func (ev *diffEvaluator) call(p dpl.Pos, clo *dplval.Closure, v dplval.Value, rho *dplval.Env, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RuleCall) {
		return nil
	}
	phi := clo.Phi.Bind(clo.Name, clo)
	if mk.mode == dpl.Ordinary {
		return ev.eval(clo.Body, (*dplval.Env)(nil).Bind(clo.Param, v.Val, false), phi, k, mk)
	}
	return ev.inPlace(p, ev.Nodes.Let(p, clo.Param, clo.ParamT, v.Term), clo.Body, (*dplval.Env)(nil).Bind(clo.Param, v.Val, true), phi, rho, k, mk)
}

// rd contracts W.rd[V](x:T. N), in either mode: the rd event, then N ⇝ C under
// ρ[ρ(V)/x] in a nested symbolic layer, whose trace derivative differentiates.
func (ev *diffEvaluator) rd(t *dpl.Rd, w, v dplval.Value, rho *dplval.Env, phi *dplval.Funs, k diffCont, mk *diffMeta) step {
	if !ev.contract(mk, dpl.RuleRd) {
		return nil
	}
	inner, ok := ev.nested(mk, dpl.Symbolic, func(c dpl.Term) step { return ev.derivative(t, w, v, rho, c, k, mk) })
	if !ok {
		return nil
	}
	return ev.eval(t.Body, rho.Bind(t.Param, v.Val, true), phi, ev.initial(), inner)
}

// derivative finishes an rd once the trace C of its body is known: the contractum is
// W.R_V(x:T. C). Under ordinary evaluation it is evaluated in place; under symbolic
// evaluation it ends the layer's trace (trivial context) or Figure 5 evaluates it.
func (ev *diffEvaluator) derivative(t *dpl.Rd, w, v dplval.Value, rho *dplval.Env, c dpl.Term, k diffCont, mk *diffMeta) step {
	if mk.mode == dpl.Ordinary && ev.Fuses() {
		x, der, err := ev.fusedDerivative(t, w, v, rho, c, mk)
		switch {
		case err != nil:
			return ev.fail(err)
		case der == nil:
			return throw(k, dplval.Closed(x), mk)
		}
		return ev.eval(der, nil, nil, k, mk) // declined: evaluated as unfused
	}
	der, err := ev.Derive(dplval.Types(rho, mk.tape.Fresh), w.Term, v.Term, t.Param, t.T, c)
	if err != nil {
		return ev.fail(err)
	}
	switch {
	case mk.mode == dpl.Ordinary: // rd ⇒ X because rd ⇝ der and der ⇒ X
		ev.ReportRd(c, der)
		return ev.eval(der, nil, nil, k, mk)
	case k.initial: // Figure 4: the trace ends with der
		s := ev.finish(mk, der)
		if s != nil {
			ev.ReportRd(c, der)
		}
		return s
	}
	return ev.bind(t.P, der, rho, &dpl.RdReport{Trace: c, Derivative: der}, k, mk)
}

// fusedDerivative is rd ⇒ X once the trace C of the rd's body is known, under
// ordinary evaluation, with R fused with the evaluation of its output
// (dpl.Run.EvalDerivative), for a run in which nothing observes the derivative term
// (dpl.Run.Fuses). Unfused, derivative evaluates the derivative term with the rd's
// continuation k (eval(der, ε, ε, k, mk)), a let-chain of redexes on values;
// fused, the bindings are evaluated as R emits them, with the same contractions in
// the same order and the same bits, and k receives the value. The continuations are
// on the heap: the derivative's depth is bounded by R's bound alone. Where the fused
// evaluation declines (a derivative that does not evaluate to a value), der is the
// derivative term, to evaluate as unfused. c is not used after the call: the trace
// can go as R reads it.
func (ev *diffEvaluator) fusedDerivative(t *dpl.Rd, w, v dplval.Value, rho *dplval.Env, c dpl.Term, mk *diffMeta) (x, der dpl.Term, err error) {
	return ev.EvalDerivative(dplval.Types(rho, mk.tape.Fresh), w.Val, v.Val, t.Param, t.T, c, dpl.MaxDepth)
}

// Differentiable is this stage's artefact for the differentiable language
// (dpl.StageOf). It has no intermediate states to show: its observer sees every rd.
func (Stage) Differentiable() dpl.Stage { return dpl.Traced(EvalDiffTraced) }
