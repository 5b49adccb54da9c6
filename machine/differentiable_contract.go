package machine

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// pred contracts pred(V) ⇒ bev(pred, ρ(V)), in either mode: booleans are never traced,
// and E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C.
func (m *DiffMachine) pred(s *DiffState, f *DiffKPred, v dplval.Value) error {
	if err := m.contract(s, dpl.RulePred); err != nil {
		return err
	}
	b, err := dpl.Bev(f.Pred, v.Val)
	if err != nil {
		return err
	}
	s.toContinue(dplval.Closed(&dpl.BoolLit{P: f.P, B: b}))
	return nil
}

// letrec contracts letrec f(x:T):U = M in N: N runs under φ[clo_φ(f(x:T):U. M)/f].
func (m *DiffMachine) letrec(s *DiffState, t *dpl.Letrec, rho *dplval.Env, phi *dplval.Funs) error {
	if err := m.contract(s, dpl.RuleLetrec); err != nil {
		return err
	}
	clo := &dplval.Closure{Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Body: t.Fun, Phi: phi}
	phi = phi.Bind(t.Name, clo)
	l := s.top()
	if l.Mode == dpl.Symbolic && len(l.K) > 0 {
		// Figure 5: letrec ... in N ⇝ C (N ⇝ C), in a nested layer.
		return m.nestedTrace(s, t.P, rho, nil, t.Body, rho, phi)
	}
	s.toEval(t.Body, rho, phi)
	return nil
}

// callee is the body of a called closure and its environments: φ'[clo/f] | {x ↦ V}.
func callee(clo *dplval.Closure, v dpl.Term, sym bool) (dpl.Term, *dplval.Env, *dplval.Funs) {
	return clo.Body, (*dplval.Env)(nil).Bind(clo.Param, v, sym), clo.Phi.Bind(clo.Name, clo)
}

// ordinary contracts a redex of ordinary evaluation (Figure 2), the contractum
// evaluated in place.
func (m *DiffMachine) ordinary(s *DiffState, frame DiffFrame, v dplval.Value) error {
	switch f := frame.(type) {
	case *DiffKPlusRight: // V + W ⇒ r + s
		if err := m.contract(s, dpl.RulePlus); err != nil {
			return err
		}
		r, err := dpl.AddReals(f.Left.Val, v.Val)
		if err != nil {
			return err
		}
		s.toContinue(dplval.Closed(r))
	case *DiffKOp: // op(V) ⇒ ev(op, V)
		if err := m.contract(s, dpl.RuleOp); err != nil {
			return err
		}
		r, err := dpl.Ev(f.Op, v.Val)
		if err != nil {
			return err
		}
		s.toContinue(dplval.Closed(r))
	case *DiffKLet: // let x:T = V in N ⇒ W if N ⇒ W under ρ[V/x]
		if err := m.contract(s, dpl.RuleLet); err != nil {
			return err
		}
		s.toEval(f.Body, f.Env.Bind(f.Name, v.Val, false), f.Phi)
	case *DiffKFst: // fst(<W1, W2>) ⇒ W1
		p, ok := v.Val.(*dpl.Pair)
		if !ok {
			return interderive.Stuck("", "fst of %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleFst); err != nil {
			return err
		}
		s.toContinue(dplval.Closed(p.X))
	case *DiffKSnd: // snd(<W1, W2>) ⇒ W2
		p, ok := v.Val.(*dpl.Pair)
		if !ok {
			return interderive.Stuck("", "snd of %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleSnd); err != nil {
			return err
		}
		s.toContinue(dplval.Closed(p.Y))
	case *DiffKIf: // if true then M else N ⇒ M's value; if false ... ⇒ N's
		b, ok := v.Val.(*dpl.BoolLit)
		if !ok {
			return interderive.Stuck("", "if on %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleIf); err != nil {
			return err
		}
		if b.B {
			s.toEval(f.Then, f.Env, f.Phi)
		} else {
			s.toEval(f.Else, f.Env, f.Phi)
		}
	case *DiffKCall: // f(V) ⇒ W if M ⇒ W under φ'[φ(f)/f] | {x ↦ V}
		if err := m.contract(s, dpl.RuleCall); err != nil {
			return err
		}
		s.toEval(callee(f.Clo, v.Val, false))
	case *DiffKRdCotangent: // W.rd[V](x:T. N) ⇒ X: first N ⇝ C under {x ↦ V}
		return m.rd(s, f, v)
	default:
		return interderive.Stuck("", "unknown frame %T", frame)
	}
	return nil
}

// rd contracts W.rd[V](x:T. N), in either mode: the rd event, then the symbolic
// evaluation of N under ρ[ρ(V)/x] in a nested layer, whose trace DiffExitRd
// differentiates.
func (m *DiffMachine) rd(s *DiffState, f *DiffKRdCotangent, w dplval.Value) error {
	if err := m.contract(s, dpl.RuleRd); err != nil {
		return err
	}
	exit := &DiffExitRd{P: f.P, Cotangent: w, Point: f.Point, Param: f.Param, T: f.T, Env: f.Env}
	if err := m.enter(s, &DiffLayer{Mode: dpl.Symbolic, Exit: exit}); err != nil {
		return err
	}
	s.toEval(f.Body, f.Env.Bind(f.Param, f.Point.Val, true), f.Phi)
	return nil
}

// symbolic contracts a redex of symbolic evaluation other than pred(V): Figure 4 in
// the trivial context (the layer's stack is empty), Figure 5 otherwise.
func (m *DiffMachine) symbolic(s *DiffState, frame DiffFrame, v dplval.Value) error {
	l := s.top()
	trivial := len(l.K) == 0
	// finished is a redex whose trace is itself: V + W ⇝ V + W, op(V) ⇝ op(V),
	// fst(V) ⇝ fst(V), snd(V) ⇝ snd(V). In the trivial context it ends the trace;
	// otherwise Figure 5 evaluates it (C ⇒ V) in a nested ordinary layer under rho.
	// x and y are the closed values of C's operands (see bindPrimitive).
	finished := func(rule string, c dpl.Term, rho *dplval.Env, x, y dpl.Term) error {
		if err := m.contract(s, rule); err != nil {
			return err
		}
		if trivial {
			c, err := l.Tape.Finish(c)
			if err != nil {
				return err
			}
			s.toReturn(c)
			return nil
		}
		if m.Trace == nil {
			return m.bindPrimitive(s, rule, c, x, y)
		}
		return m.nestedEval(s, &DiffExitBind{P: c.Pos(), C: c}, rho)
	}
	switch f := frame.(type) {
	case *DiffKPlusRight:
		return finished(dpl.RulePlus, m.run.Nodes.Plus(f.P, f.Left.Term, v.Term), f.Env, f.Left.Val, v.Val)
	case *DiffKOp:
		return finished(dpl.RuleOp, m.run.Nodes.OpApp(f.P, f.Op, v.Term), f.Env, v.Val, nil)
	case *DiffKFst:
		return finished(dpl.RuleFst, &dpl.Fst{P: f.P, X: v.Term, T: f.T, U: f.U}, f.Env, v.Val, nil)
	case *DiffKSnd:
		return finished(dpl.RuleSnd, &dpl.Snd{P: f.P, X: v.Term, T: f.T, U: f.U}, f.Env, v.Val, nil)
	case *DiffKLet: // let x:T = V in N ⇝ let x:T = V in C if N ⇝ C under ρ[ρ(V)/x]
		if err := m.contract(s, dpl.RuleLet); err != nil {
			return err
		}
		binding := m.run.Nodes.Let(f.P, f.Name, f.T, v.Term)
		body, rho := f.Body, f.Env.Bind(f.Name, v.Val, true)
		if trivial {
			l.Tape.Lets = append(l.Tape.Lets, binding)
			s.toEval(body, rho, f.Phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, []*dpl.Let{binding}, body, rho, f.Phi)
	case *DiffKIf: // if true then M else N ⇝ C if M ⇝ C; if false ... if N ⇝ C
		b, ok := v.Val.(*dpl.BoolLit)
		if !ok {
			return interderive.Stuck("", "if on %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleIf); err != nil {
			return err
		}
		next := f.Else
		if b.B {
			next = f.Then
		}
		if trivial {
			s.toEval(next, f.Env, f.Phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, nil, next, f.Env, f.Phi)
	case *DiffKCall: // f(V) ⇝ let x:T = V in C if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
		if err := m.contract(s, dpl.RuleCall); err != nil {
			return err
		}
		clo := f.Clo
		binding := m.run.Nodes.Let(f.P, clo.Param, clo.ParamT, v.Term)
		body, rho, phi := callee(clo, v.Val, true)
		if trivial {
			l.Tape.Lets = append(l.Tape.Lets, binding)
			s.toEval(body, rho, phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, []*dpl.Let{binding}, body, rho, phi)
	case *DiffKRdCotangent: // W.rd[V](x:T. N) ⇝ W.R_V(x:T. C) if N ⇝ C under ρ[ρ(V)/x]
		return m.rd(s, f, v)
	}
	return interderive.Stuck("", "unknown frame %T", frame)
}

// nestedTrace starts Figure 5's premise R ⇝ C for a redex R (whose environment is
// rho) that does not finish its trace at once: a nested symbolic layer whose tape
// starts with tape, evaluating next under env and phi.
func (m *DiffMachine) nestedTrace(s *DiffState, p dpl.Pos, rho *dplval.Env, tape []*dpl.Let, next dpl.Term, env *dplval.Env, phi *dplval.Funs) error {
	if err := m.enter(s, &DiffLayer{Mode: dpl.Symbolic, Tape: dplval.Tape{Lets: tape}, Exit: &DiffExitTrace{P: p, Env: rho}}); err != nil {
		return err
	}
	s.toEval(next, env, phi)
	return nil
}

// nestedEval starts Figure 5's premise C ⇒ V: a nested ordinary layer evaluating the
// trace C under the redex's environment rho and the current layer's fresh variables.
func (m *DiffMachine) nestedEval(s *DiffState, exit *DiffExitBind, rho *dplval.Env) error {
	fresh := s.top().Tape.Fresh
	if err := m.enter(s, &DiffLayer{Mode: dpl.Ordinary, Tape: dplval.Tape{Fresh: fresh}, Exit: exit}); err != nil {
		return err
	}
	s.toEval(exit.C, rho, nil)
	return nil
}

// bindPrimitive is Figure 5 on a primitive redex R (+, op, fst, snd) in a nontrivial
// context, once R ⇝ C (C is R with its operands' values): C ⇒ V and the binding of a
// fresh variable to V, in one transition. This is a corridor, the last step of the
// derivation: the nested ordinary layer that evaluates C (nestedEval) would evaluate
// C's operands, values, to their closed values x and y without a contraction, make
// C's one contraction, and return V to DiffExitBind; the events are the same (rule,
// unprefixed: the layer is ordinary), and the bound on layers is checked as enter
// checks it. Runs with an observer (Trace) take every transition instead.
func (m *DiffMachine) bindPrimitive(s *DiffState, rule string, c, x, y dpl.Term) error {
	if err := dpl.CheckLayers(len(s.Layers) - 1); err != nil {
		return err
	}
	if err := m.run.Fuel.Contract(rule); err != nil {
		return err
	}
	v, err := dpl.Delta(c, x, y)
	if err != nil {
		return err
	}
	m.bind(s, c.Pos(), c, v, nil)
	return nil
}

// bind is DiffExitBind's work on the current layer, once C ⇒ V: let x:T_V = C goes on
// the tape, x fresh, and the layer goes on with x in its context (rd, if not nil, is
// the rd whose derivative C is, reported now).
func (m *DiffMachine) bind(s *DiffState, p dpl.Pos, c, v dpl.Term, rd *dpl.RdReport) {
	x := s.top().Tape.BindFresh(&m.run, p, c, v)
	if rd != nil {
		m.run.ReportRd(rd.Trace, rd.Derivative)
	}
	s.toContinue(x)
}

// ret ends the current layer: it pops it and hands its result to the layer below,
// as the layer's exit says.
func (m *DiffMachine) ret(s *DiffState) error {
	done := s.top()
	s.Layers[len(s.Layers)-1] = nil // let the layer, its tape among the rest, go
	s.Layers = s.Layers[:len(s.Layers)-1]
	switch x := done.Exit.(type) {
	case *DiffExitProgram:
		s.Control, s.Answer = DiffHalt, dpl.Answer{Value: s.Result}
		return nil
	case *DiffExitRd:
		c := s.Result
		s.Result = nil // R is the trace's last user, unless it is reported (derivative)
		return m.derivative(s, x, c)
	case *DiffExitTrace: // R ⇝ C; now C ⇒ V
		return m.nestedEval(s, &DiffExitBind{P: x.P, C: s.Result}, x.Env)
	case *DiffExitBind: // C ⇒ V; E[x] ⇝ D under ρ[V/x], the tape growing by let x:T_V = C
		m.bind(s, x.P, x.C, s.Result, x.Rd)
		return nil
	}
	return interderive.Stuck("", "unknown exit %T", done.Exit)
}

// derivative finishes an rd once the trace C of its body is known: the contractum is
// the derivative term W.R_V(x:T. C), computed by the strategy.
func (m *DiffMachine) derivative(s *DiffState, x *DiffExitRd, c dpl.Term) error {
	l := s.top() // the layer of the rd
	if l.Mode == dpl.Ordinary && m.Trace == nil && m.run.Fuses() {
		v, der, err := m.fusedDerivative(s, x, c)
		switch {
		case err != nil:
			return err
		case der == nil:
			s.toContinue(dplval.Closed(v))
		default: // declined: evaluated in place, as unfused
			s.toEval(der, nil, nil)
		}
		return nil
	}
	types := dplval.Types(x.Env, l.Tape.Fresh)
	var der dpl.Term
	var err error
	if m.run.OnRd == nil {
		// Nothing reports the trace: R is its last user, and a long trace, as large
		// as its derivative, can go as R walks it. (Two calls, so that c is dead
		// during this one: with one call and the trace to report chosen apart,
		// before it or after, the compiler keeps c alive through R, and the peak
		// live heap of a long gradient grows by a third; GOGC=5 GODEBUG=gctrace=1.)
		der, err = m.run.Derive(types, x.Cotangent.Term, x.Point.Term, x.Param, x.T, c)
		c = nil
	} else {
		der, err = m.run.Derive(types, x.Cotangent.Term, x.Point.Term, x.Param, x.T, c)
	}
	if err != nil {
		return err
	}
	switch {
	case l.Mode == dpl.Ordinary: // rd ⇒ X because rd ⇝ der and der ⇒ X: evaluate der in place
		m.run.ReportRd(c, der)
		s.toEval(der, nil, nil)
		return nil
	case len(l.K) == 0: // Figure 4: the trace of the layer ends with der
		t, err := l.Tape.Finish(der)
		if err != nil {
			return err
		}
		m.run.ReportRd(c, der)
		s.toReturn(t)
		return nil
	}
	// Figure 5: der ⇒ V in a nested ordinary layer, under the rd's environment.
	return m.nestedEval(s, &DiffExitBind{P: x.P, C: der, Rd: &dpl.RdReport{Trace: c, Derivative: der}}, x.Env)
}

// fusedDerivative is rd ⇒ X once the trace C of the rd's body is known, under
// ordinary evaluation, with R fused with the evaluation of its output
// (dpl.Run.EvalDerivative), for a run in which nothing observes the derivative term:
// no rd reports (dpl.Run.Fuses) and no states shown (Trace). Unfused, the machine
// evaluates the derivative term in place (derivative's toEval), a let-chain of
// redexes on values, and continues with its value; fused, the bindings are evaluated
// as R emits them, with the same contractions in the same order and the same bits,
// and the machine continues with the value (toContinue). The machine's stack is data:
// the derivative's depth is bounded by R's bound alone. Where the fused evaluation
// declines (a derivative that does not evaluate to a value), der is the derivative
// term, to evaluate in place as unfused. c is not used after the call: the trace can
// go as R reads it.
func (m *DiffMachine) fusedDerivative(s *DiffState, x *DiffExitRd, c dpl.Term) (v, der dpl.Term, err error) {
	types := dplval.Types(x.Env, s.top().Tape.Fresh)
	return m.run.EvalDerivative(types, x.Cotangent.Val, x.Point.Val, x.Param, x.T, c, dpl.MaxDepth)
}
