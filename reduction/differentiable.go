package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
)

// The reduction semantics of the differentiable language (docs/differentiable.md;
// Abadi & Plotkin §3, Figures 2–5), in the style of Felleisen and Friedman: decompose
// the term into an evaluation context and a redex (Lemma 3.1: E[R] or E[R_bool]),
// contract the redex, plug the contractum back, and start again from the root.
//
// Two judgements are mutually recursive:
//
//   - ordinary evaluation, φ | ρ ⊢ M ⇒ V (Figures 2 and 3). Here ρ and φ are bound by
//     substitution, the classic presentation of a reduction semantics: let x:T = V in
//     N contracts to N[V/x] (V closed), letrec f(x:T):U = M in N to N with its calls of
//     f resolved to the closure clo_φ(f(x:T):U. M) (dpl.SubstClosure), and a call
//     f(V) of that closure to M[V/x] with f resolved to the closure again: the
//     recursion is tied at call time, as φ'[φ(f)/f] does. Terms under ordinary
//     evaluation are therefore closed, and a value step V ⇒ ρ(V) is no contraction.
//   - symbolic evaluation, φ | ρ ⊢ M ⇝ C (Figures 4 and 5), which builds a trace term
//     C. Variables stay symbolic in the trace, so ρ is an explicit environment here,
//     as in the paper: it maps every variable to its closed value, with which
//     conditions are decided. Functions are still resolved by substitution.
//
// rd is layered, as the spec asks: contracting W.rd[V](x:T. N) runs a symbolic
// evaluation of N under ρ[ρ(V)/x] (a nested layer, which may itself meet rd, to any
// depth), differentiates the trace C with the chosen dpl.Differentiator, and the
// contractum is the derivative term W.R_V(x:T. C), which ordinary evaluation then
// evaluates in place: rd ⇒ X because rd ⇝ W.R_V(x:T. C) and W.R_V(x:T. C) ⇒ X.
//
// Symbolic evaluation is a reduction semantics too: it decomposes its term from the
// root at every step. A redex in the trivial context [] is contracted by Figure 4 and
// the evaluation goes on in place (let and calls add let x:T = V in front of the trace,
// if chooses a branch, letrec resolves its function, and +, op, fst, snd and rd end the
// trace). A redex R in a nontrivial context E is contracted by Figure 5: R ⇝ C (Figure
// 4 on R, continued in a nested layer until its trace is finished), C ⇒ V (ordinary
// evaluation of the trace, in a nested layer: literally the premise of Figure 5), and
// the evaluation goes on with E[x] under ρ[V/x], x fresh, the trace growing by
// let x:T_V = C in. A boolean redex pred(V) is evaluated ordinarily (booleans are never
// traced) and its value plugged: E[b].
//
// Contraction events. Every contraction calls interderive.Counter.Contract once, with
// the rule's name: plus, op, let, fst, snd, if, letrec, call, rd, pred for the redexes
// of ordinary evaluation, and the same names prefixed by sym/ for the redexes that
// symbolic evaluation contracts (sym/pred included: the decomposition that finds a
// redex names its event). The ordinary rd rule's premise rd ⇝ W.R_V(x:T. C) is Figure
// 4's rd rule applied to the same redex: it is part of the one rd event. The events of
// the nested layers come in evaluation order: those of R ⇝ C, then those of C ⇒ V, then
// those of E[x] ⇝ D. Evaluating a derivative term is ordinary evaluation. An op or pred
// whose ev or bev is undefined is still a contraction event (the last one). Values,
// lookups ρ(V), differentiation and the administrative bookkeeping of the trace are no
// contractions.
//
// Fuel and the size of derivatives. Evaluating a trace term contracts each of its
// redexes once, so a derivative term holding more redexes than the fuel left cannot be
// evaluated to a value: the Differentiator stops building it as soon as it knows
// (dpl.DiffEnv.Budget), and the run ends out of fuel (*interderive.FuelError) at once.
// It is the one place where a run stops before spending its fuel: a derivative that
// would have become undefined within the fuel is reported out of fuel too. Whatever the
// fuel, a derivative of more than dpl.MaxRedexes redexes (figure6, pruned) ends the run with a
// *dpl.BudgetError: Figure 6 (and pruned) can grow exponentially with the trace.
//
// Go stack. Decompose and plug are loops; contexts of any depth are data. The only
// recursion is the nesting of layers (an rd inside a symbolic evaluation, a redex in a
// nontrivial context of a symbolic evaluation, the evaluation of its trace), bounded by
// dpl.MaxLayers, and the recursion of the meta-level functions (substitution,
// differentiation) over traces and derivatives, whose depth is bounded by dpl.MaxDepth:
// past either bound a run stops with an *interderive.DepthError.

// DiffRedex is a redex R or boolean redex R_bool of the differentiable language. Rule
// is the name of its contraction by ordinary evaluation; symbolic evaluation reports
// dpl.Sym + Rule. Term is the redex as it stands in the context's hole.
type DiffRedex interface {
	Rule() string
	Term() dpl.Term
}

// The redexes of spec §3, one per rule.
type (
	// DiffPlus is V + W.
	DiffPlus struct{ Plus *dpl.Plus }
	// DiffOp is op(V).
	DiffOp struct{ App *dpl.OpApp }
	// DiffLet is let x:T = V in N.
	DiffLet struct{ Let *dpl.Let }
	// DiffFst is fst_{T,U}(V).
	DiffFst struct{ Fst *dpl.Fst }
	// DiffSnd is snd_{T,U}(V).
	DiffSnd struct{ Snd *dpl.Snd }
	// DiffIf is if V_bool then M else N.
	DiffIf struct{ If *dpl.If }
	// DiffLetrec is letrec f(x:T):U = M in N.
	DiffLetrec struct{ Letrec *dpl.Letrec }
	// DiffCall is f(V), for a call resolved to its closure.
	DiffCall struct{ Call *dpl.Call }
	// DiffRd is W.rd[V](x:T. N).
	DiffRd struct{ Rd *dpl.Rd }
	// DiffPred is the boolean redex pred(V).
	DiffPred struct{ Pred *dpl.PredApp }
)

func (*DiffPlus) Rule() string   { return dpl.RulePlus }
func (*DiffOp) Rule() string     { return dpl.RuleOp }
func (*DiffLet) Rule() string    { return dpl.RuleLet }
func (*DiffFst) Rule() string    { return dpl.RuleFst }
func (*DiffSnd) Rule() string    { return dpl.RuleSnd }
func (*DiffIf) Rule() string     { return dpl.RuleIf }
func (*DiffLetrec) Rule() string { return dpl.RuleLetrec }
func (*DiffCall) Rule() string   { return dpl.RuleCall }
func (*DiffRd) Rule() string     { return dpl.RuleRd }
func (*DiffPred) Rule() string   { return dpl.RulePred }

func (r *DiffPlus) Term() dpl.Term   { return r.Plus }
func (r *DiffOp) Term() dpl.Term     { return r.App }
func (r *DiffLet) Term() dpl.Term    { return r.Let }
func (r *DiffFst) Term() dpl.Term    { return r.Fst }
func (r *DiffSnd) Term() dpl.Term    { return r.Snd }
func (r *DiffIf) Term() dpl.Term     { return r.If }
func (r *DiffLetrec) Term() dpl.Term { return r.Letrec }
func (r *DiffCall) Term() dpl.Term   { return r.Call }
func (r *DiffRd) Term() dpl.Term     { return r.Rd }
func (r *DiffPred) Term() dpl.Term   { return r.Pred }

// DiffDecomposition is the result of decomposing a term: a value (Redex nil), or a
// context and the redex in its hole.
type DiffDecomposition struct {
	Context contexts.Diff
	Redex   DiffRedex
	Value   dpl.Term // when Redex is nil
}

// DecomposeDiff splits a term into an evaluation context and a redex, or finds that it
// is a value (Lemma 3.1). It is Danvy's pair of mutually tail-recursive functions
// written as one loop: decompose_term descends from the root, pushing frames, until it
// meets a value (or a letrec, always a redex); decompose_context climbs back with the
// value until it finds a redex, or a subterm still to evaluate, and descends again. It
// serves both judgements: a variable is a value (closed terms under ordinary evaluation
// have none). The term must be elaborated (dpl.Check: no fd left).
func DecomposeDiff(t dpl.Term) (DiffDecomposition, error) {
	var E contexts.Diff
	for {
		v, d, err := decomposeDiffTerm(&E, t)
		if v == nil {
			return d, err
		}
		if t, d, err = decomposeDiffContext(&E, v); t == nil {
			return d, err
		}
	}
}

// decomposeDiffTerm descends into t, pushing frames onto E, and returns the value it
// meets (or, for a letrec met on the way down, the decomposition).
func decomposeDiffTerm(E *contexts.Diff, t dpl.Term) (dpl.Term, DiffDecomposition, error) {
	for {
		switch n := t.(type) {
		case *dpl.Var, *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit:
			return n, DiffDecomposition{}, nil
		case *dpl.Plus:
			*E, t = append(*E, &contexts.DiffPlusLeft{P: n.P, Right: n.Y}), n.X
		case *dpl.OpApp:
			*E, t = append(*E, &contexts.DiffOpArg{P: n.P, Op: n.Op}), n.Arg
		case *dpl.Let:
			*E, t = append(*E, &contexts.DiffLetBound{P: n.P, Name: n.Name, T: n.T, Body: n.Body}), n.Bound
		case *dpl.Pair:
			if dpl.IsValue(n) { // a pair of values is a value: no need to climb through it
				return n, DiffDecomposition{}, nil
			}
			*E, t = append(*E, &contexts.DiffPairLeft{P: n.P, Right: n.Y, T: n.T, U: n.U}), n.X
		case *dpl.Fst:
			*E, t = append(*E, &contexts.DiffFst{P: n.P, T: n.T, U: n.U}), n.X
		case *dpl.Snd:
			*E, t = append(*E, &contexts.DiffSnd{P: n.P, T: n.T, U: n.U}), n.X
		case *dpl.If:
			*E, t = append(*E, &contexts.DiffIfCond{P: n.P, Then: n.Then, Else: n.Else}), n.Cond
		case *dpl.PredApp:
			*E, t = append(*E, &contexts.DiffPredArg{P: n.P, Pred: n.Pred}), n.Arg
		case *dpl.Call:
			if n.Clo == nil {
				return nil, DiffDecomposition{}, interderive.Stuck(dpl.FormatShort(n, interderive.MaxStuckShown), "call of the unbound function %s", n.Name)
			}
			*E, t = append(*E, &contexts.DiffCallArg{P: n.P, Name: n.Name, Clo: n.Clo}), n.Arg
		case *dpl.Rd:
			*E, t = append(*E, &contexts.DiffRdPoint{P: n.P, Cotangent: n.Cotangent, Param: n.Param, T: n.T, Body: n.Body}), n.Point
		case *dpl.Letrec:
			return nil, DiffDecomposition{Context: *E, Redex: &DiffLetrec{Letrec: n}}, nil
		case *dpl.Fd:
			return nil, DiffDecomposition{}, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", n.P)
		default:
			return nil, DiffDecomposition{}, interderive.Stuck(dpl.FormatShort(t, interderive.MaxStuckShown), "no rule applies")
		}
	}
}

// decomposeDiffContext climbs out of E with the value v until it finds a redex or the
// empty context (v is then the whole term's value), or a subterm still to evaluate,
// which it returns with the frame that waits for it pushed onto E.
func decomposeDiffContext(E *contexts.Diff, v dpl.Term) (dpl.Term, DiffDecomposition, error) {
	for {
		if len(*E) == 0 {
			if _, isBool := v.(*dpl.BoolLit); isBool {
				return nil, DiffDecomposition{}, interderive.Stuck(dpl.FormatShort(v, interderive.MaxStuckShown), "no rule applies")
			}
			return nil, DiffDecomposition{Value: v}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		found := func(r DiffRedex) (dpl.Term, DiffDecomposition, error) {
			return nil, DiffDecomposition{Context: *E, Redex: r}, nil
		}
		_, isBool := v.(*dpl.BoolLit)
		if _, cond := frame.(*contexts.DiffIfCond); isBool != cond {
			return nil, DiffDecomposition{}, interderive.Stuck(dpl.FormatShort(frame.Plug(v), interderive.MaxStuckShown), "no rule applies")
		}
		switch f := frame.(type) {
		case *contexts.DiffPlusLeft:
			*E = append(*E, &contexts.DiffPlusRight{P: f.P, Left: v})
			return f.Right, DiffDecomposition{}, nil
		case *contexts.DiffPlusRight:
			return found(&DiffPlus{Plus: &dpl.Plus{P: f.P, X: f.Left, Y: v}})
		case *contexts.DiffOpArg:
			return found(&DiffOp{App: &dpl.OpApp{P: f.P, Op: f.Op, Arg: v}})
		case *contexts.DiffLetBound:
			return found(&DiffLet{Let: &dpl.Let{P: f.P, Name: f.Name, T: f.T, Bound: v, Body: f.Body}})
		case *contexts.DiffPairLeft:
			*E = append(*E, &contexts.DiffPairRight{P: f.P, Left: v, T: f.T, U: f.U})
			return f.Right, DiffDecomposition{}, nil
		case *contexts.DiffPairRight:
			v = &dpl.Pair{P: f.P, X: f.Left, Y: v, T: f.T, U: f.U} // <V, W> is a value: keep climbing
		case *contexts.DiffFst:
			return found(&DiffFst{Fst: &dpl.Fst{P: f.P, X: v, T: f.T, U: f.U}})
		case *contexts.DiffSnd:
			return found(&DiffSnd{Snd: &dpl.Snd{P: f.P, X: v, T: f.T, U: f.U}})
		case *contexts.DiffIfCond:
			return found(&DiffIf{If: &dpl.If{P: f.P, Cond: v, Then: f.Then, Else: f.Else}})
		case *contexts.DiffPredArg:
			return found(&DiffPred{Pred: &dpl.PredApp{P: f.P, Pred: f.Pred, Arg: v}})
		case *contexts.DiffCallArg:
			return found(&DiffCall{Call: &dpl.Call{P: f.P, Name: f.Name, Arg: v, Clo: f.Clo}})
		case *contexts.DiffRdPoint:
			*E = append(*E, &contexts.DiffRdCotangent{P: f.P, Point: v, Param: f.Param, T: f.T, Body: f.Body})
			return f.Cotangent, DiffDecomposition{}, nil
		case *contexts.DiffRdCotangent:
			return found(&DiffRd{Rd: &dpl.Rd{P: f.P, Cotangent: v, Point: f.Point, Param: f.Param, T: f.T, Body: f.Body}})
		default:
			return nil, DiffDecomposition{}, interderive.Stuck("", "unknown context frame %T", frame)
		}
	}
}

// DiffEvent is one contraction as a tracer sees it.
type DiffEvent struct {
	// Step is the number of the contraction in the run (1-based).
	Step int
	// Layer is 0 for the evaluation of the program and grows by one for each nested
	// layer: a symbolic evaluation, or the ordinary evaluation of a trace.
	Layer int
	Mode  dpl.Mode
	// Rule is the event's name: "let", "sym/let", ...
	Rule string
	DiffDecomposition
	// The fields below are set when the step is complete (DiffHooks.Step).
	//
	// Contractum is what replaces the redex in its context. In symbolic evaluation, for
	// a redex in the trivial context, it is the term the evaluation goes on with (nil
	// when the trace is finished); for a redex in a nontrivial context, the fresh
	// variable x of Figure 5.
	Contractum dpl.Term
	// Next is the whole term after the step (nil when a symbolic evaluation finished).
	Next dpl.Term
	// Binding is the let x:T = C (without its body) that symbolic evaluation added to
	// the trace, if any.
	Binding *dpl.Let
	// Trace and Derivative are set for rd: the trace term C of the body, and the
	// derivative term W.R_V(x:T. C). Env holds the closed values of the free variables
	// of the derivative and of the trace, x (the binder, free in C) excepted, unless an
	// outer x is free in the derivative: none under ordinary evaluation.
	Trace, Derivative dpl.Term
	Env               map[string]dpl.Term
	// Finished is the whole trace when a symbolic evaluation finished at this step.
	Finished dpl.Term
}

// DiffHooks observe a run, for tracers and tests; nil fields are ignored.
type DiffHooks struct {
	// Redex is called when a contraction begins, after its event is counted and before
	// any nested layer it starts.
	Redex func(DiffEvent)
	// Step is called when the contraction is complete.
	Step func(DiffEvent)
}

// DiffStep is one step of ordinary evaluation, as ReduceDiff returns it.
type DiffStep struct {
	DiffDecomposition
	Contractum dpl.Term // what the redex contracted to
	Next       dpl.Term // the whole term after the step
	// Trace is, for rd, the trace term C of the body; the contractum is then the
	// derivative W.R_V(x:T. C).
	Trace dpl.Term
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) to its answer
// under the differentiation strategy ad: a closed value, or undefined with its cause.
// Running out of fuel is an error (*interderive.FuelError), as is nesting beyond the
// bounds (*interderive.DepthError) or a derivative too large for any fuel
// (*dpl.BudgetError).
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffHooks(ad, prog, opts, DiffHooks{})
}

// EvalDiffTraced is EvalDiff calling onRd, for every rd it evaluates (at any depth),
// with the trace term of its body and its derivative term, when its contraction is
// complete.
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	var hooks DiffHooks
	if onRd != nil {
		hooks.Step = func(ev DiffEvent) {
			if ev.Trace != nil {
				onRd(ev.Trace, ev.Derivative)
			}
		}
	}
	return EvalDiffHooks(ad, prog, opts, hooks)
}

// EvalDiffHooks is EvalDiff with observers.
func EvalDiffHooks(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, hooks DiffHooks) (dpl.Answer, error) {
	run, err := dpl.NewRun(ad, prog, opts, nil)
	if err != nil {
		return dpl.Answer{}, err
	}
	r := &diffRun{Run: run, hooks: hooks}
	v, err := r.eval(prog)
	return dpl.AnswerOf(v, err)
}

// ReduceDiff performs one step of ordinary evaluation on t: decompose, contract,
// plug. It returns the step, or, when t is a value, done = true with the value in
// step.Value. A step is one contraction, except that rd runs the nested layers of its
// contraction (whose events opts.OnContract also receives, and which spend opts'
// fuel). If the contraction is undefined, the error is a *dpl.Undefined.
func ReduceDiff(ad dpl.Differentiator, t dpl.Term, opts interderive.Options) (step DiffStep, done bool, err error) {
	run, err := dpl.NewRun(ad, t, opts, nil)
	if err != nil {
		return DiffStep{}, false, err
	}
	r := &diffRun{Run: run}
	return r.reduce(t)
}

// TraceDiff is symbolic evaluation, ρ ⊢ M ⇝ C: it returns the trace term C of the
// elaborated, well-typed term m whose free variables rho maps to closed values (nil:
// none). When the symbolic evaluation has no result (a condition, or the trace of a
// redex in a nontrivial context, is undefined), undef says why.
func TraceDiff(ad dpl.Differentiator, rho map[string]dpl.Term, m dpl.Term, opts interderive.Options) (c dpl.Term, undef *dpl.Undefined, err error) {
	run, err := dpl.NewOpenRun(ad, rho, m, opts)
	if err != nil {
		return nil, nil, err
	}
	var env *diffEnv
	for x, v := range rho {
		env = env.bind(x, v)
	}
	r := &diffRun{Run: run}
	return dpl.TraceOf(r.trace(env, m, nil))
}

// diffRun is the state of one run: the state every stage keeps (dpl.Run: the
// strategy, the fuel, the fresh names, the nesting of layers) and the observers.
type diffRun struct {
	dpl.Run
	hooks DiffHooks
}

// contract counts the contraction of a redex and announces it.
func (r *diffRun) contract(mode dpl.Mode, d DiffDecomposition) (DiffEvent, error) {
	rule := mode.Rule(d.Redex.Rule())
	if err := r.Fuel.Contract(rule); err != nil {
		return DiffEvent{}, err
	}
	ev := DiffEvent{Step: r.Fuel.Steps(), Layer: r.Layer(), Mode: mode, Rule: rule, DiffDecomposition: d}
	if r.hooks.Redex != nil {
		r.hooks.Redex(ev)
	}
	return ev, nil
}

func (r *diffRun) done(ev DiffEvent) {
	if r.hooks.Step != nil {
		r.hooks.Step(ev)
	}
}

// Ordinary evaluation (Figures 2 and 3).

// eval is M ⇒ V for a closed term: the reduction semantics iterated from the root.
func (r *diffRun) eval(m dpl.Term) (dpl.Term, error) {
	for {
		step, done, err := r.reduce(m)
		if err != nil {
			return nil, err
		}
		if done {
			return step.Value, nil
		}
		m = step.Next
	}
}

// evalIn is φ | ρ ⊢ C ⇒ V: ordinary evaluation of ρ(C), in a nested layer.
func (r *diffRun) evalIn(rho *diffEnv, c dpl.Term) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.eval(dpl.SubstValues(c, rho.lookup))
}

// reduce performs one step of ordinary evaluation.
func (r *diffRun) reduce(m dpl.Term) (DiffStep, bool, error) {
	d, err := DecomposeDiff(m)
	if err != nil {
		return DiffStep{}, false, err
	}
	if d.Redex == nil {
		return DiffStep{DiffDecomposition: d}, true, nil
	}
	ev, err := r.contract(dpl.Ordinary, d)
	if err != nil {
		return DiffStep{}, false, err
	}
	c, err := r.contractOrdinary(d.Redex, &ev)
	if err != nil {
		return DiffStep{}, false, err
	}
	next := d.Context.Plug(c)
	ev.Contractum, ev.Next = c, next
	r.done(ev)
	return DiffStep{DiffDecomposition: d, Contractum: c, Next: next, Trace: ev.Trace}, false, nil
}

// contractOrdinary is the contraction of Figure 2's redexes, ρ and φ being substituted.
func (r *diffRun) contractOrdinary(red DiffRedex, ev *DiffEvent) (dpl.Term, error) {
	switch red := red.(type) {
	case *DiffPlus: // V + W ⇒ r + s
		return dpl.AddReals(red.Plus.X, red.Plus.Y)
	case *DiffOp: // op(V) ⇒ ev(op, V)
		return dpl.Ev(red.App.Op, red.App.Arg)
	case *DiffLet: // let x:T = V in N ⇒ N[V/x]
		return dpl.Subst(red.Let.Body, red.Let.Name, red.Let.Bound), nil
	case *DiffFst: // fst(<W1, W2>) ⇒ W1
		if p, ok := red.Fst.X.(*dpl.Pair); ok {
			return p.X, nil
		}
	case *DiffSnd: // snd(<W1, W2>) ⇒ W2
		if p, ok := red.Snd.X.(*dpl.Pair); ok {
			return p.Y, nil
		}
	case *DiffIf: // if true then M else N ⇒ M; if false then M else N ⇒ N
		if red.If.Cond.(*dpl.BoolLit).B {
			return red.If.Then, nil
		}
		return red.If.Else, nil
	case *DiffLetrec: // letrec f(x:T):U = M in N ⇒ N[clo_φ(f(x:T):U. M)/f]
		return letrec(red.Letrec), nil
	case *DiffCall: // f(V) ⇒ M[V/x][φ(f)/f]
		return call(red.Call), nil
	case *DiffRd: // W.rd[V](x:T. N) ⇒ W.R_V(x:T. C), where N ⇝ C under {x ↦ V}
		return r.rd(nil, red.Rd, ev)
	case *DiffPred: // pred(V) ⇒ bev(pred, V)
		b, err := dpl.Bev(red.Pred.Pred, red.Pred.Arg)
		if err != nil {
			return nil, err
		}
		return &dpl.BoolLit{P: red.Pred.P, B: b}, nil
	}
	return nil, interderive.Stuck(dpl.FormatShort(red.Term(), interderive.MaxStuckShown), "no rule applies")
}

// letrec makes the closure clo_φ(f(x:T):U. M) and resolves the calls of f in N to it.
func letrec(l *dpl.Letrec) dpl.Term {
	clo := &dpl.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun}
	return dpl.SubstClosure(l.Body, l.Name, clo)
}

// body is the body M of a called closure, its calls of f resolved to the closure
// itself: the body runs under φ'[φ(f)/f].
func body(clo *dpl.Closure) dpl.Term { return dpl.SubstClosure(clo.Body, clo.Name, clo) }

// call is f(V) ⇒ M[V/x], the body resolved.
func call(c *dpl.Call) dpl.Term { return dpl.Subst(body(c.Clo), c.Clo.Param, c.Arg) }

// rd contracts W.rd[V](x:T. N) under ρ (nil under ordinary evaluation, where W and V
// are closed): N ⇝ C under ρ[ρ(V)/x], in a nested layer; the contractum is the
// derivative term W.R_V(x:T. C).
func (r *diffRun) rd(rho *diffEnv, rd *dpl.Rd, ev *DiffEvent) (dpl.Term, error) {
	point := dpl.SubstValues(rd.Point, rho.lookup) // ρ(V)
	c, err := r.nestedTrace(rho.bind(rd.Param, point), rd.Body, nil)
	if err != nil {
		return nil, err
	}
	types := func(y string) (dpl.Type, bool) {
		v, ok := rho.lookup(y)
		if !ok {
			return nil, false
		}
		return dpl.TypeOfValue(v)
	}
	der, err := r.Derive(types, rd.Cotangent, rd.Point, rd.Param, rd.T, c)
	if err != nil {
		return nil, err
	}
	ev.Trace, ev.Derivative = c, der
	if r.hooks.Step != nil {
		// The derivative's free variables are all outer ones (the binder x is bound
		// in it, or renamed away from an outer x free in W or V); the trace's are, but
		// for x.
		ev.Env = map[string]dpl.Term{}
		for y := range dpl.FreeVars(der) {
			if v, ok := rho.lookup(y); ok {
				ev.Env[y] = v
			}
		}
		for y := range dpl.FreeVars(c) {
			if v, ok := rho.lookup(y); ok && y != rd.Param {
				ev.Env[y] = v
			}
		}
	}
	return der, nil
}

// Symbolic evaluation (Figures 4 and 5).

// diffEnv is a value environment ρ: a persistent list mapping variables to closed
// values.
type diffEnv struct {
	name string
	v    dpl.Term
	next *diffEnv
}

func (e *diffEnv) bind(x string, v dpl.Term) *diffEnv { return &diffEnv{name: x, v: v, next: e} }

func (e *diffEnv) lookup(x string) (dpl.Term, bool) {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e.v, true
		}
	}
	return nil, false
}

// nestedTrace is trace in a nested layer.
func (r *diffRun) nestedTrace(rho *diffEnv, m dpl.Term, prefix []*dpl.Let) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.trace(rho, m, prefix)
}

// symContraction is the outcome of contracting a redex by Figure 4: a finished trace
// (+, op, fst, snd, rd), or a binding to add to the trace and the environment and term
// with which symbolic evaluation goes on (let, if, letrec, call).
type symContraction struct {
	finished dpl.Term
	binding  *dpl.Let // let x:T = V, its body to come
	rho      *diffEnv
	next     dpl.Term
}

// trace is φ | ρ ⊢ M ⇝ C: symbolic evaluation of m under rho, the trace so far being
// the let-chain prefix.
func (r *diffRun) trace(rho *diffEnv, m dpl.Term, prefix []*dpl.Let) (dpl.Term, error) {
	for {
		d, err := DecomposeDiff(m)
		if err != nil {
			return nil, err
		}
		if d.Redex == nil { // V ⇝ V
			return dpl.LetChain(prefix, d.Value)
		}
		ev, err := r.contract(dpl.Symbolic, d)
		if err != nil {
			return nil, err
		}
		if red, ok := d.Redex.(*DiffPred); ok {
			// E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C: the condition is decided with the
			// current values, never traced.
			b, err := dpl.Bev(red.Pred.Pred, dpl.SubstValues(red.Pred.Arg, rho.lookup))
			if err != nil {
				return nil, err
			}
			ev.Contractum = &dpl.BoolLit{P: red.Pred.P, B: b}
			m = d.Context.Plug(ev.Contractum)
			ev.Next = m
			r.done(ev)
			continue
		}
		sc, err := r.contractSymbolic(rho, d.Redex, &ev)
		if err != nil {
			return nil, err
		}
		if d.Context.IsTrivial() {
			// Figure 4: the redex is the whole term; go on in place.
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
			rho, m = sc.rho, sc.next
			ev.Contractum, ev.Next, ev.Binding = m, m, sc.binding
			r.done(ev)
			continue
		}
		// Figure 5: E[R] ⇝ let x:T_V = C in D if R ⇝ C, C ⇒ V and E[x] ⇝ D under
		// ρ[V/x], x fresh.
		c := sc.finished
		if c == nil {
			var start []*dpl.Let
			if sc.binding != nil {
				start = []*dpl.Let{sc.binding}
			}
			if c, err = r.nestedTrace(sc.rho, sc.next, start); err != nil {
				return nil, err
			}
		}
		v, err := r.evalIn(rho, c)
		if err != nil {
			return nil, err
		}
		x := r.BindFresh(&prefix, d.Redex.Term().Pos(), c, v)
		rho = rho.bind(x.Name, v)
		ev.Contractum = x
		m = d.Context.Plug(x)
		ev.Next, ev.Binding = m, prefix[len(prefix)-1]
		r.done(ev)
	}
}

// contractSymbolic is Figure 4 on a redex R (other than pred(V)), in any context.
func (r *diffRun) contractSymbolic(rho *diffEnv, red DiffRedex, ev *DiffEvent) (symContraction, error) {
	switch red := red.(type) {
	case *DiffPlus, *DiffOp, *DiffFst, *DiffSnd:
		// V + W ⇝ V + W;  op(V) ⇝ op(V);  fst(V) ⇝ fst(V);  snd(V) ⇝ snd(V)
		return symContraction{finished: red.Term()}, nil
	case *DiffLet:
		// let x:T = V in N ⇝ let x:T = V in C  if N ⇝ C under ρ[ρ(V)/x]
		l := red.Let
		v := dpl.SubstValues(l.Bound, rho.lookup)
		return symContraction{binding: &dpl.Let{P: l.P, Name: l.Name, T: l.T, Bound: l.Bound},
			rho: rho.bind(l.Name, v), next: l.Body}, nil
	case *DiffIf:
		// if true then M else N ⇝ C if M ⇝ C;  if false then M else N ⇝ C if N ⇝ C
		next := red.If.Else
		if red.If.Cond.(*dpl.BoolLit).B {
			next = red.If.Then
		}
		return symContraction{rho: rho, next: next}, nil
	case *DiffLetrec:
		// letrec f(x:T):U = M in N ⇝ C  if N ⇝ C under φ[clo_φ(f(x:T):U. M)/f]
		return symContraction{rho: rho, next: letrec(red.Letrec)}, nil
	case *DiffCall:
		// f(V) ⇝ let x:T = V in C  if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
		clo := red.Call.Clo
		v := dpl.SubstValues(red.Call.Arg, rho.lookup)
		return symContraction{binding: &dpl.Let{P: red.Call.P, Name: clo.Param, T: clo.ParamT, Bound: red.Call.Arg},
			rho: (*diffEnv)(nil).bind(clo.Param, v), next: body(clo)}, nil
	case *DiffRd:
		// W.rd[V](x:T. N) ⇝ W.R_V(x:T. C)  if N ⇝ C under ρ[ρ(V)/x]
		der, err := r.rd(rho, red.Rd, ev)
		if err != nil {
			return symContraction{}, err
		}
		return symContraction{finished: der}, nil
	}
	return symContraction{}, interderive.Stuck(dpl.FormatShort(red.Term(), interderive.MaxStuckShown), "no rule applies")
}
