package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// The calculus of closures of the differentiable language (docs/differentiable.md;
// Abadi & Plotkin §3, Figures 2–5): the reduction semantics of package reduction with its
// substitutions made explicit, in the manner of Biernacka & Danvy's λρ̂. A term is
// closed by the paper's two environments, M[φ|ρ]: ρ maps ordinary variables to closed
// values, φ maps function variables to function closures clo_φ'(f(x:T):U. M), and the
// recursion is tied at call time, as φ'[φ(f)/f] does.
//
//	ρ   ::= ε | (x ↦ V) : ρ | (x ↦ V)_sym : ρ
//	φ   ::= ε | (f ↦ clo_φ(f(x:T):U. M)) : φ
//	cl  ::= M[φ|ρ] | V̂ | cl + cl | op(cl) | let x:T = cl in M[φ|ρ] | <cl, cl>
//	      | fst(cl) | snd(cl) | if cl then cl else cl | pred(cl)
//	      | clo_φ(f(x:T):U. M)(cl) | cl.rd[cl](x:T. N)[φ|ρ]
//	V̂   ::= V ▷ ρ(V)                  (a value: as it stands in the term, and its value)
//
// Two judgements are mutually recursive, as in the reference: ordinary evaluation ⇒
// and symbolic evaluation ⇝, which builds a trace term. In the reference, ordinary
// evaluation substitutes the values of its variables, so that the variables a symbolic
// evaluation meets are its own: the parameter of the rd it traces, the variables its
// lets and calls bind, the fresh variables of Figure 5. Here a binding of ρ made by
// symbolic evaluation is marked (x ↦ V)_sym: looking such a variable up yields the value
// x ▷ V, which stands as x in the trace and has the value V; every other binding yields
// V ▷ V, as substitution would have. A value closure V̂ thus carries both halves of what
// the paper's rules use: the value V that goes into the trace, and ρ(V), with which
// conditions are decided and bindings made. Under ordinary evaluation the two halves
// are one closed value.
//
// Each step decomposes the whole closure from its root (DecomposeDiff), finds the
// leftmost-innermost redex, and plugs its contractum back. A step is either an
// environment step — the expansion of a composite term's closure M[φ|ρ] into the
// closures of its parts, or the lookup of a variable in ρ — which is administrative (no
// contraction, no fuel, no event), or the contraction of a redex, which is the
// reference's event: plus, op, let, fst, snd, if, letrec, call, rd, pred under ordinary
// evaluation, sym/ and the same names under symbolic evaluation. A letrec is a redex as
// it stands (it is met before it is expanded); a call's function variable is looked up
// in φ when the call is expanded.
//
// The layers are the reference's. Contracting W.rd[V](x:T. N) runs a symbolic
// evaluation of N[φ|ρ[(x ↦ ρ(V))_sym]] in a nested layer, differentiates its trace C
// with the chosen dpl.Differentiator, and plugs the derivative W.R_V(x:T. C), closed by
// ε, to be evaluated in place. Symbolic evaluation contracts a redex in the trivial
// context by Figure 4 and goes on in place (let and calls add let x:T = V in front of
// the trace); a redex in a nontrivial context by Figure 5: R ⇝ C in a nested layer when
// Figure 4 does not finish the trace at once, C ⇒ V as a nested ordinary layer over the
// closure C[ε|ρ'] (ρ' binds the free variables of C), and x ▷ V plugged in its context,
// the trace growing by let x:T_V = C in. A boolean redex pred(V) is decided with ρ(V).
// The events of nested layers come in evaluation order, as in the reference; an op or
// pred whose ev or bev is undefined is still an event, the last one.
//
// Read-back (DiffSigma) turns a closure into the term of the reference semantics at the
// same point: ρ's values substituted (those of symbolic bindings kept as variables under
// symbolic evaluation), φ's function closures as resolved calls (dpl.Closure).
//
// Go stack: decomposition and plugging are loops; the only recursion is the nesting of
// layers, bounded by dpl.MaxLayers as in the reference, and that of the meta-level
// functions over traces and derivatives, bounded through dpl.MaxDepth.
//
// Files: this one runs the calculus (ordinary and symbolic evaluation, the
// contractions, rd); the closures, their frames and contexts are in
// differentiable_closures.go, decomposition in differentiable_decompose.go, read-back in
// differentiable_sigma.go, and what an observer sees in differentiable_show.go.

// DiffEvent is one step of a run as an observer sees it, once the step is complete.
type DiffEvent struct {
	// Step is the number of the contraction in the run (1-based); 0 for an
	// environment step.
	Step int
	// Layer is 0 for the evaluation of the program and grows by one for each nested
	// layer.
	Layer int
	Mode  dpl.Mode
	// Rule is the event's name ("let", "sym/let", ...), empty for an environment step.
	Rule string
	DiffStep
	// Next is the whole closure after the step (nil when a symbolic evaluation
	// finished its trace at this step).
	Next DiffClosure
	// Binding is the let x:T = C (without its body) that symbolic evaluation added to
	// the trace, if any.
	Binding *dpl.Let
	// Trace and Derivative are set for rd: the trace term C of the body and the
	// derivative term W.R_V(x:T. C).
	Trace, Derivative dpl.Term
	// Finished is the whole trace when a symbolic evaluation finished at this step.
	Finished dpl.Term
}

// DiffHooks observe a run; nil fields are ignored.
type DiffHooks struct {
	// Step is called when a step (a contraction, with its nested layers, or an
	// environment step) is complete.
	Step func(DiffEvent)
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) as the closure
// prog[ε|ε] to its answer under the differentiation strategy ad: a closed value, or
// undefined with its cause. Running out of fuel is an *interderive.FuelError; nesting
// beyond the bounds an *interderive.DepthError; a derivative too large for any fuel a
// *dpl.BudgetError.
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffHooks(ad, prog, opts, DiffHooks{})
}

// EvalDiffTraced is EvalDiff calling onRd, for every rd it evaluates (at any depth),
// with the trace term of its body and its derivative term, in the reference's order:
// when the rd's contraction is complete.
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	return EvalDiffHooks(ad, prog, opts, DiffHooks{Step: func(ev DiffEvent) {
		if ev.Trace != nil && onRd != nil {
			onRd(ev.Trace, ev.Derivative)
		}
	}})
}

// EvalDiffHooks is EvalDiff with observers.
func EvalDiffHooks(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, hooks DiffHooks) (dpl.Answer, error) {
	run, err := dpl.NewRun(ad, prog, opts, nil)
	if err != nil {
		return dpl.Answer{}, err
	}
	r := &diffRun{Run: run, hooks: hooks}
	v, err := r.eval(&DiffClo{M: prog})
	return dpl.AnswerOf(v, err)
}

// TraceDiff is symbolic evaluation, ρ ⊢ M ⇝ C, of the elaborated, well-typed term m
// whose free variables rho maps (symbolically) to closed values: it returns the trace
// term C, or why the symbolic evaluation has no result.
func TraceDiff(ad dpl.Differentiator, rho map[string]dpl.Term, m dpl.Term, opts interderive.Options) (c dpl.Term, undef *dpl.Undefined, err error) {
	run, err := dpl.NewOpenRun(ad, rho, m, opts)
	if err != nil {
		return nil, nil, err
	}
	var env *dplval.Env
	for x, v := range rho {
		env = env.Bind(x, v, true)
	}
	r := &diffRun{Run: run}
	return dpl.TraceOf(r.trace(&DiffClo{M: m, Env: env}, nil))
}

// diffRun is the state of one run: the state every stage keeps (dpl.Run: the
// strategy, the fuel, the fresh names, the nesting of layers), the limits across
// environment steps, and the observers.
type diffRun struct {
	dpl.Run
	env   envSteps // the limits across environment steps
	hooks DiffHooks
}

// contract counts the contraction of the step's redex under mode.
func (r *diffRun) contract(mode dpl.Mode, st DiffStep) (DiffEvent, error) {
	rule := mode.Rule(st.Rule)
	if err := r.Fuel.Contract(rule); err != nil {
		return DiffEvent{}, err
	}
	return DiffEvent{Step: r.Fuel.Steps(), Layer: r.Layer(), Mode: mode, Rule: rule, DiffStep: st}, nil
}

func (r *diffRun) done(ev DiffEvent) {
	if r.hooks.Step != nil {
		r.hooks.Step(ev)
	}
}

// administrative performs an environment step: the contractum replaces the redex.
func (r *diffRun) administrative(mode dpl.Mode, st DiffStep) DiffClosure {
	next := st.Context.Plug(st.Contractum)
	if r.hooks.Step != nil {
		r.hooks.Step(DiffEvent{Layer: r.Layer(), Mode: mode, DiffStep: st, Next: next})
	}
	return next
}

// Ordinary evaluation (Figures 2 and 3).

// eval is ⇒: the closure is reduced, one step at a time from the root, to a value.
func (r *diffRun) eval(cl DiffClosure) (dpl.Term, error) {
	for {
		st, err := DecomposeDiff(dpl.Ordinary, cl)
		if err != nil {
			return nil, err
		}
		if st.Done {
			return st.Value.Val, nil
		}
		if st.Rule == "" {
			if err := r.env.step(r.Fuel); err != nil {
				return nil, err
			}
			cl = r.administrative(dpl.Ordinary, st)
			continue
		}
		ev, err := r.contract(dpl.Ordinary, st)
		if err != nil {
			return nil, err
		}
		c, err := r.contractOrdinary(st.Redex, &ev)
		if err != nil {
			return nil, err
		}
		cl = st.Context.Plug(c)
		ev.Contractum, ev.Next = c, cl
		r.done(ev)
	}
}

// evalIn is φ | ρ ⊢ C ⇒ V for a trace term C: ordinary evaluation of C[ε|ρ], in a
// nested layer.
func (r *diffRun) evalIn(rho *dplval.Env, c dpl.Term) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.eval(&DiffClo{M: c, Env: rho})
}

// contractOrdinary is the contraction of Figure 2's redexes.
func (r *diffRun) contractOrdinary(redex DiffClosure, ev *DiffEvent) (DiffClosure, error) {
	switch red := redex.(type) {
	case *DiffPlus: // V + W ⇒ r + s
		v, err := dpl.AddReals(red.X.(*DiffValue).Val, red.Y.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(v), nil
	case *DiffOp: // op(V) ⇒ ev(op, ρ(V))
		v, err := dpl.Ev(red.Op, red.Arg.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(v), nil
	case *DiffLet: // (let x:T = V in N)[φ|ρ] ⇒ N[φ|ρ[V/x]]
		return &DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Name, red.Bound.(*DiffValue).Val, false)}, nil
	case *DiffFst: // fst(<W1, W2>) ⇒ W1
		if p, ok := red.X.(*DiffValue).Val.(*dpl.Pair); ok {
			return closed(p.X), nil
		}
	case *DiffSnd: // snd(<W1, W2>) ⇒ W2
		if p, ok := red.X.(*DiffValue).Val.(*dpl.Pair); ok {
			return closed(p.Y), nil
		}
	case *DiffIf: // if true then M else N ⇒ M; if false then M else N ⇒ N
		if red.Cond.(*DiffValue).Val.(*dpl.BoolLit).B {
			return red.Then, nil
		}
		return red.Else, nil
	case *DiffClo: // (letrec f(x:T):U = M in N)[φ|ρ] ⇒ N[φ[clo_φ(f(x:T):U. M)/f]|ρ]
		return letrecDiff(red), nil
	case *DiffCall: // clo_φ'(f(x:T):U. M)(V) ⇒ M[φ'[clo/f]|{x ↦ V}]
		fn := red.Fn
		return &DiffClo{M: fn.Body, Fun: fn.Phi.Bind(fn.Name, fn), Env: (*dplval.Env)(nil).Bind(fn.Param, red.Arg.(*DiffValue).Val, false)}, nil
	case *DiffRd: // W.rd[V](x:T. N) ⇒ W.R_V(x:T. C)[ε|ε], where N ⇝ C
		der, err := r.rd(red, ev)
		if err != nil {
			return nil, err
		}
		return &DiffClo{M: der}, nil
	case *DiffPred: // pred(V) ⇒ bev(pred, ρ(V))
		b, err := dpl.Bev(red.Pred, red.Arg.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(&dpl.BoolLit{P: red.P, B: b}), nil
	}
	return nil, interderive.Stuck("", "no contraction for %s", dpl.FormatShort(DiffSigma(dpl.Ordinary, redex), interderive.MaxStuckShown))
}

// letrecDiff contracts (letrec f(x:T):U = M in N)[φ|ρ] to N[φ[clo_φ(f(x:T):U. M)/f]|ρ].
func letrecDiff(c *DiffClo) DiffClosure {
	l := c.M.(*dpl.Letrec)
	fn := &dplval.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun, Phi: c.Fun}
	return &DiffClo{M: l.Body, Fun: c.Fun.Bind(l.Name, fn), Env: c.Env}
}

// rd contracts W.rd[V](x:T. N)[φ|ρ], under either judgement: N[φ|ρ[(x ↦ ρ(V))_sym]] ⇝ C
// in a nested layer, and the contractum is the derivative term W.R_V(x:T. C), where W
// and V are the cotangent and the point as they stand (closed under ordinary
// evaluation).
func (r *diffRun) rd(red *DiffRd, ev *DiffEvent) (dpl.Term, error) {
	w, v := red.Cotangent.(*DiffValue), red.Point.(*DiffValue)
	c, err := r.nestedTrace(&DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Param, v.Val, true)}, nil)
	if err != nil {
		return nil, err
	}
	env := bindValue(bindValue(red.Env, w), v)
	der, err := r.Derive(dplval.Types(env, nil), w.Term, v.Term, red.Param, red.T, c)
	if err != nil {
		return nil, err
	}
	ev.Trace, ev.Derivative = c, der
	return der, nil
}

// Symbolic evaluation (Figures 4 and 5).

// nestedTrace is trace in a nested layer.
func (r *diffRun) nestedTrace(cl DiffClosure, prefix []*dpl.Let) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.trace(cl, prefix)
}

// symContraction is the outcome of contracting a redex by Figure 4: a finished trace
// (+, op, fst, snd, rd), or the closure with which symbolic evaluation goes on (let, if,
// letrec, call) and the binding, if any, the trace grows by. Env binds the free
// variables of the trace the redex starts, for Figure 5's C ⇒ V.
type symContraction struct {
	finished dpl.Term
	binding  *dpl.Let // let x:T = V, its body to come
	next     DiffClosure
	env      *dplval.Env
}

// trace is ⇝: the closure is reduced symbolically, one step at a time from the root,
// the trace so far being the let-chain prefix.
func (r *diffRun) trace(cl DiffClosure, prefix []*dpl.Let) (dpl.Term, error) {
	for {
		st, err := DecomposeDiff(dpl.Symbolic, cl)
		if err != nil {
			return nil, err
		}
		if st.Done { // V ⇝ V
			return dpl.LetChain(prefix, st.Value.Term)
		}
		if st.Rule == "" {
			if err := r.env.step(r.Fuel); err != nil {
				return nil, err
			}
			cl = r.administrative(dpl.Symbolic, st)
			continue
		}
		ev, err := r.contract(dpl.Symbolic, st)
		if err != nil {
			return nil, err
		}
		if red, ok := st.Redex.(*DiffPred); ok {
			// E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C: the condition is decided with
			// ρ(V), never traced.
			b, err := dpl.Bev(red.Pred, red.Arg.(*DiffValue).Val)
			if err != nil {
				return nil, err
			}
			ev.Contractum = closed(&dpl.BoolLit{P: red.P, B: b})
			cl = st.Context.Plug(ev.Contractum)
			ev.Next = cl
			r.done(ev)
			continue
		}
		sc, err := r.contractSymbolic(st.Redex, &ev)
		if err != nil {
			return nil, err
		}
		if st.Context.IsTrivial() {
			// Figure 4: the redex is the whole closure; go on in place.
			if sc.finished != nil {
				c, err := dpl.LetChain(prefix, sc.finished)
				if err != nil {
					return nil, err
				}
				ev.Finished = c
				r.done(ev)
				return c, nil
			}
			if sc.binding != nil {
				prefix = append(prefix, sc.binding)
			}
			cl = sc.next
			ev.Contractum, ev.Next, ev.Binding = cl, cl, sc.binding
			r.done(ev)
			continue
		}
		// Figure 5: E[R] ⇝ let x:T_V = C in D if R ⇝ C, C ⇒ V and E[x ▷ V] ⇝ D, x fresh.
		c := sc.finished
		if c == nil {
			var start []*dpl.Let
			if sc.binding != nil {
				start = []*dpl.Let{sc.binding}
			}
			if c, err = r.nestedTrace(sc.next, start); err != nil {
				return nil, err
			}
		}
		v, err := r.evalIn(sc.env, c)
		if err != nil {
			return nil, err
		}
		x := r.BindFresh(&prefix, redexPos(st.Redex), c, v)
		ev.Contractum = &DiffValue{Term: x, Val: v}
		cl = st.Context.Plug(ev.Contractum)
		ev.Next, ev.Binding = cl, prefix[len(prefix)-1]
		r.done(ev)
	}
}

// contractSymbolic is Figure 4 on a redex (other than pred(V)), in any context.
func (r *diffRun) contractSymbolic(redex DiffClosure, ev *DiffEvent) (symContraction, error) {
	switch red := redex.(type) {
	case *DiffPlus: // V + W ⇝ V + W
		x, y := red.X.(*DiffValue), red.Y.(*DiffValue)
		return symContraction{finished: &dpl.Plus{P: red.P, X: x.Term, Y: y.Term},
			env: bindValue(bindValue((*dplval.Env)(nil), x), y)}, nil
	case *DiffOp: // op(V) ⇝ op(V)
		a := red.Arg.(*DiffValue)
		return symContraction{finished: &dpl.OpApp{P: red.P, Op: red.Op, Arg: a.Term}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffFst: // fst(V) ⇝ fst(V)
		a := red.X.(*DiffValue)
		return symContraction{finished: &dpl.Fst{P: red.P, X: a.Term, T: red.T, U: red.U}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffSnd: // snd(V) ⇝ snd(V)
		a := red.X.(*DiffValue)
		return symContraction{finished: &dpl.Snd{P: red.P, X: a.Term, T: red.T, U: red.U}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffLet: // let x:T = V in N ⇝ let x:T = V in C  if N ⇝ C under ρ[ρ(V)/x]
		v := red.Bound.(*DiffValue)
		return symContraction{binding: &dpl.Let{P: red.P, Name: red.Name, T: red.T, Bound: v.Term},
			next: &DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Name, v.Val, true)},
			env:  bindValue(red.Env, v)}, nil
	case *DiffIf: // if true then M else N ⇝ C if M ⇝ C;  if false then M else N ⇝ C if N ⇝ C
		next := red.Else
		if red.Cond.(*DiffValue).Val.(*dpl.BoolLit).B {
			next = red.Then
		}
		return symContraction{next: next, env: next.(*DiffClo).Env}, nil
	case *DiffClo: // letrec f(x:T):U = M in N ⇝ C  if N ⇝ C under φ[clo_φ(f(x:T):U. M)/f]
		return symContraction{next: letrecDiff(red), env: red.Env}, nil
	case *DiffCall: // f(V) ⇝ let x:T = V in C  if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
		fn, v := red.Fn, red.Arg.(*DiffValue)
		return symContraction{binding: &dpl.Let{P: red.P, Name: fn.Param, T: fn.ParamT, Bound: v.Term},
			next: &DiffClo{M: fn.Body, Fun: fn.Phi.Bind(fn.Name, fn), Env: (*dplval.Env)(nil).Bind(fn.Param, v.Val, true)},
			env:  bindValue((*dplval.Env)(nil), v)}, nil
	case *DiffRd: // W.rd[V](x:T. N) ⇝ W.R_V(x:T. C)  if N ⇝ C under ρ[ρ(V)/x]
		der, err := r.rd(red, ev)
		if err != nil {
			return symContraction{}, err
		}
		return symContraction{finished: der,
			env: bindValue(bindValue(red.Env, red.Cotangent.(*DiffValue)), red.Point.(*DiffValue))}, nil
	}
	return symContraction{}, interderive.Stuck("", "no symbolic contraction for %s", dpl.FormatShort(DiffSigma(dpl.Symbolic, redex), interderive.MaxStuckShown))
}

// redexPos is the source position of a redex.
func redexPos(redex DiffClosure) dpl.Pos {
	switch red := redex.(type) {
	case *DiffPlus:
		return red.P
	case *DiffOp:
		return red.P
	case *DiffLet:
		return red.P
	case *DiffFst:
		return red.P
	case *DiffSnd:
		return red.P
	case *DiffIf:
		return red.P
	case *DiffClo:
		return red.M.Pos()
	case *DiffCall:
		return red.P
	case *DiffRd:
		return red.P
	}
	return dpl.Pos{}
}
