package interp

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// Symbolic evaluation (Figures 4 and 5): trace, for a term in the trivial context, and
// traceValue, for a term in a nontrivial context (Figure 5); eval is in
// differentiable.go.

// nestedTrace is trace in a nested layer.
func (in *diffInterp) nestedTrace(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix lets) (dpl.Term, error) {
	if err := in.Enter(); err != nil {
		return nil, err
	}
	defer in.Leave()
	return in.trace(phi, rho, m, prefix)
}

// trace is φ | ρ ⊢ M ⇝ C for M in the trivial context, the trace so far being the
// let-chain prefix. With a sink for the trace (fusedRd), C goes there, and trace
// returns no term.
func (in *diffInterp) trace(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix lets) (dpl.Term, error) {
	if err := in.activate(); err != nil {
		return nil, err
	}
	c, err := in.traceBody(phi, rho, m, prefix)
	in.deactivate()
	return c, err
}

// traceBody is trace's work (the depth accounting is trace's: see evalBody).
func (in *diffInterp) traceBody(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix lets) (dpl.Term, error) {
	for {
		switch t := m.(type) {
		case *dpl.Var, *dpl.RealLit, *dpl.UnitLit, *dpl.Pair: // V ⇝ V
			v, err := in.traceValue(phi, rho, m, &prefix)
			if err != nil {
				return nil, err
			}
			return in.end(&prefix, v.Term)
		case *dpl.Plus, *dpl.OpApp, *dpl.Fst, *dpl.Snd:
			// V + W ⇝ V + W;  op(V) ⇝ op(V);  fst(V) ⇝ fst(V);  snd(V) ⇝ snd(V)
			c, _, _, err := in.primitive(phi, rho, m, &prefix)
			if err != nil {
				return nil, err
			}
			return in.end(&prefix, c)
		case *dpl.Let: // let x:T = V in N ⇝ let x:T = V in C  if N ⇝ C under ρ[ρ(V)/x]
			v, err := in.traceValue(phi, rho, t.Bound, &prefix)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.SymLet); err != nil {
				return nil, err
			}
			in.push(&prefix, t.P, t.Name, t.T, v.Term)
			rho, m = rho.Bind(t.Name, v.Val, true), t.Body
		case *dpl.If: // if true then M else N ⇝ C  if M ⇝ C;  if false ... if N ⇝ C
			b, err := in.condSym(phi, rho, t.Cond, &prefix)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.SymIf); err != nil {
				return nil, err
			}
			if m = t.Else; b {
				m = t.Then
			}
		case *dpl.Letrec: // letrec f(x:T):U = M in N ⇝ C  if N ⇝ C under φ[clo_φ(f(x:T):U. M)/f]
			if err := in.contract(dpl.SymLetrec); err != nil {
				return nil, err
			}
			phi, m = letrec(phi, t), t.Body
		case *dpl.Call: // f(V) ⇝ let x:T = V in C  if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
			fn, err := lookupFun(phi, t)
			if err != nil {
				return nil, err
			}
			v, err := in.traceValue(phi, rho, t.Arg, &prefix)
			if err != nil {
				return nil, err
			}
			if err := in.contract(dpl.SymCall); err != nil {
				return nil, err
			}
			in.push(&prefix, t.P, fn.Param, fn.ParamT, v.Term)
			phi, rho = callEnvs(fn, v.Val, true)
			m = fn.Body
		case *dpl.Rd: // W.rd[V](x:T. N) ⇝ W.R_V(x:T. C)  if N ⇝ C under ρ[ρ(V)/x]
			c, der, _, err := in.symbolicRd(phi, rho, t, &prefix)
			if err != nil {
				return nil, err
			}
			whole, err := in.end(&prefix, der)
			if err != nil {
				return nil, err
			}
			in.ReportRd(c, der)
			return whole, nil
		case *dpl.Fd:
			return nil, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", t.P)
		default:
			return nil, interderive.Stuck("", "cannot trace %s", dpl.FormatShort(m, interderive.MaxStuckShown))
		}
	}
}

// traceValue is M in a nontrivial context E of a symbolic evaluation (Figure 5): it
// returns what M leaves in E's hole, the trace prefix growing by let x:T_V = C in for
// every redex R ⇝ C met (C ⇒ V, x fresh).
func (in *diffInterp) traceValue(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix *lets) (dplval.Value, error) {
	if err := in.activate(); err != nil {
		return dplval.Value{}, err
	}
	v, err := in.traceValueBody(phi, rho, m, prefix)
	in.deactivate()
	return v, err
}

// traceValueBody is traceValue's work (the depth accounting is traceValue's: see
// evalBody).
func (in *diffInterp) traceValueBody(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix *lets) (dplval.Value, error) {
	switch t := m.(type) {
	case *dpl.Var:
		b, err := lookup(rho, t.Name)
		if err != nil {
			return dplval.Value{}, err
		}
		if b.Sym {
			return dplval.Value{Term: t, Val: b.Val}, nil
		}
		return dplval.Closed(b.Val), nil
	case *dpl.RealLit, *dpl.UnitLit:
		return dplval.Closed(m), nil
	case *dpl.Pair:
		x, err := in.traceValue(phi, rho, t.X, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		y, err := in.traceValue(phi, rho, t.Y, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		return dplval.Pair(&in.Nodes, t.P, x, y, t.T, t.U), nil
	case *dpl.Plus, *dpl.OpApp, *dpl.Fst, *dpl.Snd:
		if op, ok := m.(*dpl.OpApp); ok && prefix.sink != nil {
			if p, ok := op.Arg.(*dpl.Pair); ok {
				return in.sinkOpPair(phi, rho, op, p, prefix)
			}
		}
		c, x, y, err := in.primitive(phi, rho, m, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		v, err := in.evalPrimitive(c, x, y)
		if err != nil {
			return dplval.Value{}, err
		}
		return in.let(t.Pos(), c, v, prefix), nil
	case *dpl.Let:
		v, err := in.traceValue(phi, rho, t.Bound, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		if err := in.contract(dpl.SymLet); err != nil {
			return dplval.Value{}, err
		}
		start := in.Nodes.Let(t.P, t.Name, t.T, v.Term)
		c, err := in.nestedTrace(phi, rho.Bind(t.Name, v.Val, true), t.Body, lets{chain: []*dpl.Let{start}})
		if err != nil {
			return dplval.Value{}, err
		}
		return in.bind(t.P, c, rho.BindValue(v), prefix)
	case *dpl.If:
		b, err := in.condSym(phi, rho, t.Cond, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		if err := in.contract(dpl.SymIf); err != nil {
			return dplval.Value{}, err
		}
		branch := t.Else
		if b {
			branch = t.Then
		}
		c, err := in.nestedTrace(phi, rho, branch, lets{})
		if err != nil {
			return dplval.Value{}, err
		}
		return in.bind(t.P, c, rho, prefix)
	case *dpl.Letrec:
		if err := in.contract(dpl.SymLetrec); err != nil {
			return dplval.Value{}, err
		}
		c, err := in.nestedTrace(letrec(phi, t), rho, t.Body, lets{})
		if err != nil {
			return dplval.Value{}, err
		}
		return in.bind(t.P, c, rho, prefix)
	case *dpl.Call:
		fn, err := lookupFun(phi, t)
		if err != nil {
			return dplval.Value{}, err
		}
		v, err := in.traceValue(phi, rho, t.Arg, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		if err := in.contract(dpl.SymCall); err != nil {
			return dplval.Value{}, err
		}
		start := in.Nodes.Let(t.P, fn.Param, fn.ParamT, v.Term)
		phi1, rho1 := callEnvs(fn, v.Val, true)
		c, err := in.nestedTrace(phi1, rho1, fn.Body, lets{chain: []*dpl.Let{start}})
		if err != nil {
			return dplval.Value{}, err
		}
		return in.bind(t.P, c, (*dplval.Env)(nil).BindValue(v), prefix)
	case *dpl.Rd:
		c, der, env, err := in.symbolicRd(phi, rho, t, prefix)
		if err != nil {
			return dplval.Value{}, err
		}
		v, err := in.evalIn(env, der)
		if err != nil {
			return dplval.Value{}, err
		}
		in.ReportRd(c, der)
		return in.let(t.P, der, v, prefix), nil
	case *dpl.Fd:
		return dplval.Value{}, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", t.P)
	}
	return dplval.Value{}, interderive.Stuck("", "cannot trace %s", dpl.FormatShort(m, interderive.MaxStuckShown))
}

// primitive is Figure 4 on V + W, op(V), fst(V) and snd(V), M's operands first: the
// trace term it ends with, and the closed values of that term's operands (x and y
// for V + W, x alone for the others).
func (in *diffInterp) primitive(phi *dplval.Funs, rho *dplval.Env, m dpl.Term, prefix *lets) (c, x, y dpl.Term, err error) {
	operand := func(x dpl.Term) (dplval.Value, error) { return in.traceValue(phi, rho, x, prefix) }
	var rule string
	switch t := m.(type) {
	case *dpl.Plus:
		a, err := operand(t.X)
		if err != nil {
			return nil, nil, nil, err
		}
		b, err := operand(t.Y)
		if err != nil {
			return nil, nil, nil, err
		}
		c, x, y, rule = in.Nodes.Plus(t.P, a.Term, b.Term), a.Val, b.Val, dpl.SymPlus
	case *dpl.OpApp:
		if p, ok := t.Arg.(*dpl.Pair); ok {
			// The trace needs the pair as it stands, the contraction only its
			// components' closed values (dpl.EvPair): no closed pair is built.
			a, b, err := in.tracePair(phi, rho, p, prefix)
			if err != nil {
				return nil, nil, nil, err
			}
			c, x, y, rule = in.Nodes.OpApp(t.P, t.Op, in.Nodes.Pair(p.P, a.Term, b.Term, p.T, p.U)), a.Val, b.Val, dpl.SymOp
			break
		}
		a, err := operand(t.Arg)
		if err != nil {
			return nil, nil, nil, err
		}
		c, x, rule = in.Nodes.OpApp(t.P, t.Op, a.Term), a.Val, dpl.SymOp
	case *dpl.Fst:
		a, err := operand(t.X)
		if err != nil {
			return nil, nil, nil, err
		}
		c, x, rule = &dpl.Fst{P: t.P, X: a.Term, T: t.T, U: t.U}, a.Val, dpl.SymFst
	case *dpl.Snd:
		a, err := operand(t.X)
		if err != nil {
			return nil, nil, nil, err
		}
		c, x, rule = &dpl.Snd{P: t.P, X: a.Term, T: t.T, U: t.U}, a.Val, dpl.SymSnd
	}
	if err := in.contract(rule); err != nil {
		return nil, nil, nil, err
	}
	return c, x, y, nil
}

// evalPrimitive is Figure 5's premise C ⇒ V for the trace term C of a primitive
// redex (primitive's), in a nested layer. C's operands are values, which evaluate
// without a contraction to their closed values x and y, at hand already: what is left
// is C's own contraction (the events are eval's on C, and the layer and activation
// are counted as eval's).
func (in *diffInterp) evalPrimitive(c, x, y dpl.Term) (dpl.Term, error) {
	if err := in.Enter(); err != nil {
		return nil, err
	}
	if err := in.activate(); err != nil {
		in.Leave()
		return nil, err
	}
	var v dpl.Term
	err := in.contract(dpl.RuleOf(c))
	if err == nil {
		v, err = dpl.Delta(c, x, y)
	}
	in.deactivate()
	in.Leave()
	return v, err
}

// sinkOpPair is traceValue on op(<M, N>) in a trace that goes into a sink (fusedRd):
// primitive's premises and contraction (M and N traced, sym/op), then evalPrimitive's
// (op on their closed values, in a nested layer), and the let, given to the sink
// without the trace term op(<V, W>), which the sink alone would read
// (dpl.TapeSink.BindFreshOp).
func (in *diffInterp) sinkOpPair(phi *dplval.Funs, rho *dplval.Env, t *dpl.OpApp, p *dpl.Pair, prefix *lets) (dplval.Value, error) {
	a, b, err := in.tracePair(phi, rho, p, prefix)
	if err != nil {
		return dplval.Value{}, err
	}
	if err := in.contract(dpl.SymOp); err != nil {
		return dplval.Value{}, err
	}
	if err := in.Enter(); err != nil {
		return dplval.Value{}, err
	}
	if err := in.activate(); err != nil {
		in.Leave()
		return dplval.Value{}, err
	}
	var v dpl.Term
	err = in.contract(dpl.RuleOp)
	if err == nil {
		v, err = dpl.EvPair(t.Op, a.Val, b.Val, p.P)
	}
	in.deactivate()
	in.Leave()
	if err != nil {
		return dplval.Value{}, err
	}
	x := prefix.sink.BindFreshOp(&in.Run, t.P, p.P, t.Op, a.Term, b.Term, p.T, p.U, v)
	return dplval.Value{Term: x, Val: v}, nil
}

// symbolicRd is W.rd[V](x:T. N) ⇝ W.R_V(x:T. C), the point and the cotangent first:
// the trace of the body, the derivative, and the environment that binds the
// derivative's variables.
func (in *diffInterp) symbolicRd(phi *dplval.Funs, rho *dplval.Env, t *dpl.Rd, prefix *lets) (c, der dpl.Term, env *dplval.Env, err error) {
	v, err := in.traceValue(phi, rho, t.Point, prefix)
	if err != nil {
		return nil, nil, nil, err
	}
	w, err := in.traceValue(phi, rho, t.Cotangent, prefix)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := in.contract(dpl.SymRd); err != nil {
		return nil, nil, nil, err
	}
	c, der, err = in.rd(phi, rho, t, w, v)
	if err != nil {
		return nil, nil, nil, err
	}
	return c, der, rho.BindValue(w).BindValue(v), nil
}

// condSym decides a condition of a symbolic evaluation: pred(V) with ρ(V) (E[R_bool] ⇝
// C if R_bool ⇒ b and E[b] ⇝ C), the argument traced in its nontrivial context.
func (in *diffInterp) condSym(phi *dplval.Funs, rho *dplval.Env, b dpl.Term, prefix *lets) (bool, error) {
	switch t := b.(type) {
	case *dpl.BoolLit:
		return t.B, nil
	case *dpl.PredApp:
		if p, ok := t.Arg.(*dpl.Pair); ok {
			// Decided with ρ(V) alone: the pair is traced but built neither for the
			// trace nor closed (dpl.BevPair).
			x, y, err := in.tracePair(phi, rho, p, prefix)
			if err != nil {
				return false, err
			}
			if err := in.contract(dpl.SymPred); err != nil {
				return false, err
			}
			return dpl.BevPair(t.Pred, x.Val, y.Val, p.P)
		}
		v, err := in.traceValue(phi, rho, t.Arg, prefix)
		if err != nil {
			return false, err
		}
		if err := in.contract(dpl.SymPred); err != nil {
			return false, err
		}
		return dpl.Bev(t.Pred, v.Val)
	}
	return false, interderive.Stuck("", "%s is not a condition", dpl.FormatShort(b, interderive.MaxStuckShown))
}

// tracePair is traceValue on the pair p, for a caller that builds what it needs of
// the pair itself: the values of its components.
func (in *diffInterp) tracePair(phi *dplval.Funs, rho *dplval.Env, p *dpl.Pair, prefix *lets) (x, y dplval.Value, err error) {
	if err := in.activate(); err != nil { // as traceValue on the pair
		return x, y, err
	}
	defer in.deactivate()
	if x, err = in.traceValue(phi, rho, p.X, prefix); err != nil {
		return x, y, err
	}
	y, err = in.traceValue(phi, rho, p.Y, prefix)
	return x, y, err
}

// bind is the rest of Figure 5 once R ⇝ C: C ⇒ V (under env, which binds C's free
// variables), and the trace grows by let x:T_V = C in, x fresh, which M leaves in
// its context.
func (in *diffInterp) bind(p dpl.Pos, c dpl.Term, env *dplval.Env, prefix *lets) (dplval.Value, error) {
	v, err := in.evalIn(env, c)
	if err != nil {
		return dplval.Value{}, err
	}
	return in.let(p, c, v, prefix), nil
}

// let adds let x:T_V = C in to the trace, x fresh, and returns x ▷ V.
func (in *diffInterp) let(p dpl.Pos, c, v dpl.Term, prefix *lets) dplval.Value {
	if prefix.sink != nil {
		return dplval.Value{Term: prefix.sink.BindFresh(&in.Run, p, c, v), Val: v}
	}
	return dplval.Value{Term: in.BindFresh(&prefix.chain, p, c, v), Val: v}
}

// lets is the let-chain prefix of a trace being recorded (Figure 4 puts let x:T = V
// in front of the trace, Figure 5 let x:T_V = C): the lets, made one term with the
// trace's last body at its end (dpl.LetChain); or, for the trace of an rd's body
// whose derivative is evaluated fused with R (fusedRd), the sink of R's forward
// pass, which takes every let as it comes and the last body at the end
// (dpl.TapeSink): R is that trace's only reader, and it is never built.
type lets struct {
	chain []*dpl.Let
	sink  *dpl.TapeSink
}

// push is the trace growing by let x:T = C in, at p.
func (in *diffInterp) push(prefix *lets, p dpl.Pos, x string, t dpl.Type, c dpl.Term) {
	if prefix.sink != nil {
		prefix.sink.Let(p, x, t, c)
		return
	}
	prefix.chain = append(prefix.chain, in.Nodes.Let(p, x, t, c))
}

// end is the trace whose let-chain prefix is followed by tail: the term, or, into a
// sink, none (the error is the term's: deeper than dpl.MaxDepth).
func (in *diffInterp) end(prefix *lets, tail dpl.Term) (dpl.Term, error) {
	if prefix.sink != nil {
		return nil, prefix.sink.End(tail)
	}
	return dpl.LetChain(prefix.chain, tail)
}
