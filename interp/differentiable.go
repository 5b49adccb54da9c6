package interp

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// The big-step interpreter of the differentiable language: Figures 2–5 of Abadi &
// Plotkin (§3; docs/differentiable.md) read as a recursive evaluator over the paper's
// environments φ (function variables to closures clo_φ(f(x:T):U. M)) and ρ (ordinary
// variables to closed values):
//
//   - eval is φ | ρ ⊢ M ⇒ V (Figures 2 and 3): the premises of a rule are recursive
//     calls, left to right, and the contraction of the rule's redex is counted when its
//     premises are done (Figure 3's E[R] ⇒ W, R ⇒ V then E[x] ⇒ W, is the order of the
//     calls). A let body, a branch, a letrec body, a called function's body and the
//     derivative an rd evaluates to are in tail position: eval goes on with them in a
//     loop, so tail calls run in constant space.
//   - trace is φ | ρ ⊢ M ⇝ C (Figure 4), for M in the trivial context: it goes on in
//     place through let, if, letrec and calls (let and calls add let x:T = V in front of
//     the trace), and +, op, fst, snd and rd end the trace.
//   - traceValue is Figure 5: M in a nontrivial context E of a symbolic evaluation. It
//     returns what M leaves in the hole — a value V (for a value M), or a fresh
//     variable x after a redex R, the trace growing by let x:T_V = C in, where R ⇝ C
//     (Figure 4, continued by trace when Figure 4 does not end the trace at once) and
//     C ⇒ V (eval: literally the premise of Figure 5). A condition pred(V) is decided
//     with ρ(V), never traced.
//
// The environments are internal/values/dplval's, shared with the machine and the CPS
// evaluator: ρ (Env), whose Sym marks the bindings made by symbolic evaluation, φ
// (Funs), and function closures clo_φ(f(x:T):U. M) (Closure). A value of symbolic
// evaluation is a dplval.Value: V as it stands in the trace (Term), and its closed
// value ρ(V) (Val; the same closed value when V has no symbolic variable). As in the
// reference semantics, the variables that stay symbolic in a trace are those bound by
// symbolic evaluation — the parameter of the rd traced, the variables of its lets and
// calls, the fresh variables of Figure 5: ρ marks their bindings; the others (bound by
// the ordinary evaluation around an rd) read as their values, since the reference has
// substituted them.
//
// Under tape, where nothing observes the derivative term (no rd reported), the
// ordinary rd rule evaluates the derivative fused with R (fusedRd): the trace of the
// rd's body goes to R's forward pass as trace records it, and the derivative is
// evaluated as R emits it, with the same contractions and bits as building the trace,
// then the derivative term, and evaluating it in place; neither term is built.
//
// Contraction events are the reference's: every rule counts one contraction when it
// fires, named plus, op, let, fst, snd, if, letrec, call, rd, pred under ⇒ and sym/ and
// the same names under ⇝ (an undefined op or pred is still an event, the last one). The
// premise rd ⇝ W.R_V(x:T. C) of the ordinary rd rule is part of the one rd event.
// Values, lookups, differentiation and the bookkeeping of the trace are no contractions.
//
// Depth. The interpreter recurses on the structure of the program and through the
// non-tail calls of the program it runs: every activation of eval, trace and traceValue
// counts against MaxDepth, and past it the run stops with an *interderive.DepthError
// (a program that recurses a million times outside tail position stops there; the
// reduction semantics, whose contexts are data, would answer it). The nesting of
// layers — symbolic evaluations of rd bodies and of redexes in nontrivial contexts, and
// the ordinary evaluations of their traces — is bounded by dpl.MaxLayers, as in the
// reference; traces and derivatives deeper than dpl.MaxDepth are refused, as there.
//
// Files: eval is in this one, trace and traceValue in differentiable_trace.go.

// lookup is ρ(x).
func lookup(rho *dplval.Env, x string) (*dplval.Env, error) {
	if e, ok := rho.Lookup(x); ok {
		return e, nil
	}
	return nil, interderive.Stuck("", "unbound variable %s", x)
}

// lookupFun is φ(f) for the call c (dplval.Funs.Called).
func lookupFun(phi *dplval.Funs, c *dpl.Call) (*dplval.Closure, error) {
	if fn, ok := phi.Called(c); ok {
		return fn, nil
	}
	return nil, interderive.Stuck("", "call of the unbound function %s", c.Name)
}

// callEnvs is the environments of a call of fn: φ'[fn/f] and {x ↦ v}.
func callEnvs(fn *dplval.Closure, v dpl.Term, symbolic bool) (*dplval.Funs, *dplval.Env) {
	return fn.Phi.Bind(fn.Name, fn), (*dplval.Env)(nil).Bind(fn.Param, v, symbolic)
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) to its answer
// under the differentiation strategy ad: a closed value, or undefined with its cause.
// Running out of fuel is an *interderive.FuelError; recursion beyond MaxDepth, or
// nesting beyond the other bounds, an *interderive.DepthError; a derivative too large
// for any fuel a *dpl.BudgetError.
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffTraced(ad, prog, opts, nil)
}

// EvalDiffTraced is EvalDiff calling onRd, for every rd it evaluates (at any depth),
// with the trace term of its body and its derivative term, in the reference's order:
// when the rd's rule has fired (for an rd in a nontrivial context of a symbolic
// evaluation, once its derivative has been evaluated, as Figure 5 asks).
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	run, err := dpl.NewRun(ad, prog, opts, onRd)
	if err != nil {
		return dpl.Answer{}, err
	}
	in := &diffInterp{Run: run}
	return dpl.AnswerOf(in.eval(nil, nil, prog))
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
	in := &diffInterp{Run: run}
	return dpl.TraceOf(in.trace(nil, env, m, lets{}))
}

// diffInterp is the state of one run: the state every stage keeps (dpl.Run: the
// strategy, the fuel, the fresh names, the nodes of the traces, the observer of rd,
// the nested layers), and the current depth of the interpreter's recursion.
type diffInterp struct {
	dpl.Run
	depth int // activations of eval, trace and traceValue
}

// activate counts an activation of eval, trace or traceValue; deactivate ends it.
func (in *diffInterp) activate() error {
	if in.depth >= MaxDepth {
		return TooDeep()
	}
	in.depth++
	return nil
}

func (in *diffInterp) deactivate() { in.depth-- }

func (in *diffInterp) contract(rule string) error { return in.Fuel.Contract(rule) }

// Ordinary evaluation (Figures 2 and 3).

// eval is φ | ρ ⊢ M ⇒ V.
func (in *diffInterp) eval(phi *dplval.Funs, rho *dplval.Env, m dpl.Term) (dpl.Term, error) {
	if err := in.activate(); err != nil {
		return nil, err
	}
	v, err := in.evalBody(phi, rho, m)
	in.deactivate()
	return v, err
}

// evalBody is eval's work. (The depth accounting is eval's, not deferred here: a
// deferred call in a function with this many returns is not open-coded, and the
// runtime's deferred calls were an eighth of a long trace's time.)
func (in *diffInterp) evalBody(phi *dplval.Funs, rho *dplval.Env, m dpl.Term) (dpl.Term, error) {
	for {
		switch t := m.(type) {
		case *dpl.Var: // V ⇒ ρ(V)
			b, err := lookup(rho, t.Name)
			if err != nil {
				return nil, err
			}
			return b.Val, nil
		case *dpl.RealLit, *dpl.UnitLit:
			return m, nil
		case *dpl.Pair:
			x, err := in.eval(phi, rho, t.X)
			if err != nil {
				return nil, err
			}
			y, err := in.eval(phi, rho, t.Y)
			if err != nil {
				return nil, err
			}
			return &dpl.Pair{P: t.P, X: x, Y: y, T: t.T, U: t.U}, nil
		case *dpl.Plus: // V + W ⇒ r + s
			x, err := in.eval(phi, rho, t.X)
			if err != nil {
				return nil, err
			}
			y, err := in.eval(phi, rho, t.Y)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RulePlus); err != nil {
				return nil, err
			}
			return dpl.AddReals(x, y)
		case *dpl.OpApp: // op(V) ⇒ ev(op, V)
			if p, ok := t.Arg.(*dpl.Pair); ok {
				return in.opPair(phi, rho, t.Op, p)
			}
			a, err := in.eval(phi, rho, t.Arg)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RuleOp); err != nil {
				return nil, err
			}
			return dpl.Ev(t.Op, a)
		case *dpl.Let: // let x:T = V in N ⇒ W  if N ⇒ W under ρ[V/x]
			v, err := in.eval(phi, rho, t.Bound)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RuleLet); err != nil {
				return nil, err
			}
			rho, m = rho.Bind(t.Name, v, false), t.Body
		case *dpl.Fst, *dpl.Snd: // fst(V) ⇒ W1, snd(V) ⇒ W2  if V ⇒ <W1, W2>
			x, rule := projection(t)
			v, err := in.eval(phi, rho, x)
			if err != nil {
				return nil, err
			}
			if err := in.contract(rule); err != nil {
				return nil, err
			}
			p, ok := v.(*dpl.Pair)
			if !ok {
				return nil, interderive.Stuck("", "%s of %s, which is not a pair", rule, dpl.FormatShort(v, interderive.MaxStuckShown))
			}
			if rule == dpl.RuleFst {
				return p.X, nil
			}
			return p.Y, nil
		case *dpl.If: // if true then M else N ⇒ V  if M ⇒ V; if false ... if N ⇒ V
			b, err := in.cond(phi, rho, t.Cond)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RuleIf); err != nil {
				return nil, err
			}
			if m = t.Else; b {
				m = t.Then
			}
		case *dpl.Letrec: // letrec f(x:T):U = M in N ⇒ V  if N ⇒ V under φ[clo_φ(f(x:T):U. M)/f]
			if err := in.contract(dpl.RuleLetrec); err != nil {
				return nil, err
			}
			phi, m = letrec(phi, t), t.Body
		case *dpl.Call: // f(V) ⇒ W  if M ⇒ W under φ'[φ(f)/f] | {x ↦ V}
			fn, err := lookupFun(phi, t)
			if err != nil {
				return nil, err
			}
			v, err := in.eval(phi, rho, t.Arg)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RuleCall); err != nil {
				return nil, err
			}
			phi, rho = callEnvs(fn, v, false)
			m = fn.Body
		case *dpl.Rd: // W.rd[V](x:T. N) ⇒ X  if W.rd[V](x:T. N) ⇝ C and C ⇒ X
			l, err := in.eval(phi, rho, t.Point)
			if err != nil {
				return nil, err
			}
			w, err := in.eval(phi, rho, t.Cotangent)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.RuleRd); err != nil {
				return nil, err
			}
			if in.Fuses() {
				x, der, err := in.fusedRd(phi, rho, t, w, l)
				switch {
				case err != nil:
					return nil, err
				case der == nil:
					return x, nil
				}
				phi, rho, m = nil, nil, der // declined: evaluated as before
				continue
			}
			c, err := in.nestedTrace(phi, rho.Bind(t.Param, l, true), t.Body, lets{})
			if err != nil {
				return nil, err
			}
			c, der, err := in.differentiate(rho, t, dplval.Closed(w), dplval.Closed(l), c)
			if err != nil {
				return nil, err
			}
			in.ReportRd(c, der)
			phi, rho, m = nil, nil, der
		case *dpl.Fd:
			return nil, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", t.P)
		default:
			return nil, interderive.Stuck("", "cannot evaluate %s", dpl.FormatShort(m, interderive.MaxStuckShown))
		}
	}
}

// opPair is op(<M, N>) ⇒ ev(op, <V, W>): the pair is evaluated as eval evaluates it,
// M then N, but not built, as op reads its coordinates off V and W (dpl.EvPair).
func (in *diffInterp) opPair(phi *dplval.Funs, rho *dplval.Env, op *dpl.Operator, p *dpl.Pair) (dpl.Term, error) {
	x, y, err := in.evalPair(phi, rho, p)
	if err != nil {
		return nil, err
	}
	if err := in.contract(dpl.RuleOp); err != nil {
		return nil, err
	}
	return dpl.EvPair(op, x, y, p.P)
}

// evalPair is eval on the pair p, for a caller that needs its components' values
// only: <M, N> ⇒ <V, W>, the pair not built.
func (in *diffInterp) evalPair(phi *dplval.Funs, rho *dplval.Env, p *dpl.Pair) (x, y dpl.Term, err error) {
	if err := in.activate(); err != nil { // as eval on the pair
		return nil, nil, err
	}
	defer in.deactivate()
	if x, err = in.eval(phi, rho, p.X); err != nil {
		return nil, nil, err
	}
	y, err = in.eval(phi, rho, p.Y)
	return x, y, err
}

// cond is φ | ρ ⊢ B ⇒ b: pred(V) ⇒ bev(pred, V), true ⇒ true, false ⇒ false.
func (in *diffInterp) cond(phi *dplval.Funs, rho *dplval.Env, b dpl.Term) (bool, error) {
	switch t := b.(type) {
	case *dpl.BoolLit:
		return t.B, nil
	case *dpl.PredApp:
		if p, ok := t.Arg.(*dpl.Pair); ok {
			// As opPair: the pair is evaluated but not built (dpl.BevPair).
			x, y, err := in.evalPair(phi, rho, p)
			if err != nil {
				return false, err
			}
			if err := in.contract(dpl.RulePred); err != nil {
				return false, err
			}
			return dpl.BevPair(t.Pred, x, y, p.P)
		}
		v, err := in.eval(phi, rho, t.Arg)
		if err != nil {
			return false, err
		}
		if err := in.contract(dpl.RulePred); err != nil {
			return false, err
		}
		return dpl.Bev(t.Pred, v)
	}
	return false, interderive.Stuck("", "%s is not a condition", dpl.FormatShort(b, interderive.MaxStuckShown))
}

// evalIn is φ | ρ ⊢ C ⇒ V for a trace term C, in a nested layer.
func (in *diffInterp) evalIn(rho *dplval.Env, c dpl.Term) (dpl.Term, error) {
	if err := in.Enter(); err != nil {
		return nil, err
	}
	defer in.Leave()
	return in.eval(nil, rho, c)
}

func projection(t dpl.Term) (dpl.Term, string) {
	if f, ok := t.(*dpl.Fst); ok {
		return f.X, dpl.RuleFst
	}
	return t.(*dpl.Snd).X, dpl.RuleSnd
}

// letrec is φ[clo_φ(f(x:T):U. M)/f].
func letrec(phi *dplval.Funs, l *dpl.Letrec) *dplval.Funs {
	return phi.Bind(l.Name, &dplval.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun, Phi: phi})
}

// rd is the premise of both rd rules: N ⇝ C under ρ[ρ(V)/x], in a nested layer, and
// the derivative term W.R_V(x:T. C), W and V as they stand (closed under ⇒). The
// trace C is returned only to be reported (onRd): otherwise R is its last user, and a
// long trace, as large as its derivative, can go as R walks it.
func (in *diffInterp) rd(phi *dplval.Funs, rho *dplval.Env, t *dpl.Rd, w, v dplval.Value) (dpl.Term, dpl.Term, error) {
	c, err := in.nestedTrace(phi, rho.Bind(t.Param, v.Val, true), t.Body, lets{})
	if err != nil {
		return nil, nil, err
	}
	return in.differentiate(rho, t, w, v, c)
}

// differentiate is the rest of rd once N ⇝ C: the trace C, if it is to be reported,
// and the derivative term.
func (in *diffInterp) differentiate(rho *dplval.Env, t *dpl.Rd, w, v dplval.Value, c dpl.Term) (dpl.Term, dpl.Term, error) {
	if in.OnRd == nil { // two calls, so that c is dead during this one (see the machine's derivative)
		der, err := in.derivative(rho, t, w, v, c)
		return nil, der, err
	}
	der, err := in.derivative(rho, t, w, v, c)
	return c, der, err
}

// fusedRd is the premise of the ordinary rd rule for the rd t at the point v with the
// cotangent w, W.rd[V](x:T. N) ⇝ W.R_V(x:T. C) and W.R_V(x:T. C) ⇒ X, with R fused
// with the evaluation of its output (dpl.Run.EvalSunk), for a run in which nothing
// observes the derivative term (dpl.Run.Fuses). Unfused, N ⇝ C builds the trace C,
// R builds the derivative term, and eval goes on with it in place, a let-chain whose
// bindings it evaluates one by one. Fused, nothing reads C but R's forward pass, so
// the trace goes there as it is recorded (a dpl.TapeSink: C is never built), and the
// bindings of the derivative are evaluated as R emits them, with the same
// contractions in the same order and the same bits (the trace's contractions are
// trace's, the same too), and the derivative term is never built either. The
// interpreter's recursion counts: evaluating a term of Depth d from here takes d
// activations at most, so a derivative deeper than the room left under MaxDepth is
// not fused. Where the fused evaluation declines (that, or a derivative that does not
// evaluate to a value), der is the derivative term, for eval to go on with in place,
// as unfused.
func (in *diffInterp) fusedRd(phi *dplval.Funs, rho *dplval.Env, t *dpl.Rd, w, v dpl.Term) (x, der dpl.Term, err error) {
	types := dplval.Types(rho.BindValue(dplval.Closed(w)).BindValue(dplval.Closed(v)), nil)
	sink := in.NewTapeSink(types, t.Param, t.T)
	if _, err := in.nestedTrace(phi, rho.Bind(t.Param, v, true), t.Body, lets{sink: sink}); err != nil {
		return nil, nil, err
	}
	return in.EvalSunk(sink, w, v, MaxDepth-in.depth-1)
}

// derivative is W.R_V(x:T. C), for the rd t whose body traces to c.
func (in *diffInterp) derivative(rho *dplval.Env, t *dpl.Rd, w, v dplval.Value, c dpl.Term) (dpl.Term, error) {
	env := rho.BindValue(w).BindValue(v)
	der, err := in.Derive(dplval.Types(env, nil), w.Term, v.Term, t.Param, t.T, c)
	if err != nil {
		return nil, err
	}
	return der, nil
}

// Differentiable is this stage's artefact for the differentiable language
// (dpl.StageOf). It has no intermediate states to show: its observer sees every rd.
func (Stage) Differentiable() dpl.Stage { return dpl.Traced(EvalDiffTraced) }
