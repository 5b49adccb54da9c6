package dpl

import (
	"math"
	"slices"

	"github.com/interderive/interderive"
)

// The trace of an rd's body fed to R as it is recorded (spec §4, "evaluation fused
// with R": the trace that nobody reads).
//
// Under ordinary evaluation fused with R (Run.Fuses), the trace C of an rd's body has
// one reader: R's forward pass, which walks C's let-chain once, let by let, putting
// it in A-normal form (the tape), and then C's last body. A stage whose symbolic
// evaluation records C as a let-chain prefix and a last body can give R each let as
// it records it, and the last body at the end, through a TapeSink: the trace term is
// never built, and its chain is not walked a second time. This is deforestation
// again, of the trace: its producer (symbolic evaluation) and its consumer (R's
// forward pass) fused into one pass. It is equivalent to building C and calling
// EvalDerivative on it:
//   - the sink does to every let what the forward pass does on meeting it in C
//     (taper.let), in the order of the chain, and to the last body what it does to
//     C's (chain), so that the tape, and all that follows from it, are the same;
//   - R's forward pass performs no contraction: the symbolic evaluation's events are
//     its own, in its own order, and the fused evaluation's follow them, as before;
//   - what building C checks, the sink checks: the Depth of C, from the Depths of
//     its lets' bound terms and of its last body, refused past MaxDepth at the end as
//     LetChain refuses it (the stage's error, before R);
//   - R's own failures keep their place: a failure of the forward pass on a let is
//     kept, the lets after it are not taped, and it is R's error, after the trace has
//     ended (an error of the symbolic evaluation comes first, as unfused).
// A trace that is observed (trace --symbolic, an rd nested in a symbolic evaluation,
// a reported rd) is built as before: the sink is for the outermost trace of an rd
// whose derivative a stage evaluates fused.

// A TapeSink is R's forward pass over the trace of an rd's body that a stage feeds
// it let by let (Let, BindFresh), then ends (End), for Run.EvalSunk to differentiate
// and evaluate. Make one with Run.NewTapeSink.
type TapeSink struct {
	p      *taper
	t      Type  // the type of the rd's parameter
	depth  int   // the Depth of the trace's let-chain so far: 1 + its bound terms'
	err    error // the forward pass's failure; the lets after it are not taped
	result Term  // the atom of the trace's value, once ended
	ended  bool
}

// NewTapeSink starts the fused derivative of an rd whose parameter is x:t, for a
// stage to feed the trace of its body to: types types the trace's free variables
// other than x (the environment of the rd, as EvalDerivative's types).
func (r *Run) NewTapeSink(types TypeEnv, x string, t Type) *TapeSink {
	s := &TapeSink{p: newFusedTaper(r.Names, types, 0), t: t}
	s.p.start(x, t, 0)
	return s
}

// Let is the trace growing by let name:t = bound in (t nil: the type of bound's
// value).
func (s *TapeSink) Let(p Pos, name string, t Type, bound Term) { s.let(p, name, t, bound) }

// let is Let, returning the atom name is bound to (nil if the forward pass has
// failed).
func (s *TapeSink) let(p Pos, name string, t Type, bound Term) Term {
	var a Term
	d := 0 // bound's Depth, if the forward pass has worked it out
	if s.err == nil {
		a, d = s.tape(p, name, t, bound)
	}
	if d == 0 {
		d = Depth(bound)
	}
	s.depth = max(s.depth, 1+d)
	return a
}

// tape is the forward pass on let name:t = bound in (taper.let), its failure kept.
func (s *TapeSink) tape(p Pos, name string, t Type, bound Term) (a Term, d int) {
	defer s.recover()
	return s.p.let(p, name, t, bound, false)
}

// BindFresh is Run.BindFresh with the sink for the trace's lets: let x:T_V = C in,
// x fresh, and x (at p).
func (s *TapeSink) BindFresh(r *Run, p Pos, c, v Term) *Var {
	x, tv := r.fresh(v)
	n := s.p.binds.len()
	a := s.let(p, x, tv, c)
	y := r.Nodes.Var(p, x)
	if a != nil { // the lets that follow find x's atom at hand (varAtom)
		s.p.hot, s.p.hotAtom = y, a
		s.traced(n, a, v)
	}
	return y
}

// BindFreshOp is BindFresh for Figure 5's redex op(<a, b>) on the values a and b (the
// pair at pp, of type t * u when t and u are set), the redex at p: the same as
// BindFresh given the term op(<a, b>), which the stage need not build when a and b
// are variables or constants (the common case: the sink would read the term once, and
// keep none of it).
func (s *TapeSink) BindFreshOp(r *Run, p, pp Pos, op *Operator, a, b Term, t, u Type, v Term) *Var {
	if !isLeaf(a) || !isLeaf(b) {
		return s.BindFresh(r, p, r.Nodes.OpApp(p, op, r.Nodes.Pair(pp, a, b, t, u)), v)
	}
	x, tv := r.fresh(v)
	n := s.p.binds.len()
	var at Term
	if s.err == nil {
		at = s.tapeOp(p, pp, x, tv, op, a, b, t, u)
	}
	s.depth = max(s.depth, 1+3) // let x = op(<a, b>): the op, the pair, the leaves
	y := r.Nodes.Var(p, x)
	if at != nil {
		s.p.hot, s.p.hotAtom = y, at
		s.traced(n, at, v)
	}
	return y
}

// isLeaf reports whether t is a variable or a constant (not nil).
func isLeaf(t Term) bool {
	switch t := t.(type) {
	case *Var:
		return t != nil
	case *RealLit:
		return t != nil
	case *UnitLit:
		return t != nil
	}
	return false
}

// tapeOp is the forward pass on let x:tv = op(<a, b>) in for leaves a and b, as
// taper.let takes the term (redexAtom, valueAtom, then name), its failure kept.
func (s *TapeSink) tapeOp(pos, pp Pos, x string, tv Type, op *Operator, a, b Term, t, u Type) (at Term) {
	defer s.recover()
	p := s.p
	a, _ = p.valueAtom(a, 0)
	b, _ = p.valueAtom(b, 0)
	if t == nil || u == nil {
		t, u = p.atomType(a), p.atomType(b)
	}
	at = p.bind(pos, "a", op.Cod, p.nodes.OpApp(pos, op, p.nodes.Pair(pp, a, b, t, u)), false)
	return p.name(pos, x, tv, at, false)
}

// traced keeps v, the value the trace has given the redex C of the binding it has
// just sunk (C ⇒ V), as the value of the binding the forward pass made of C, when it
// made one, of an op or a sum (the n-th; a its atom): the fused evaluation need not
// compute it again (forwardTraced).
func (s *TapeSink) traced(n int, a, v Term) {
	p := s.p
	r, ok := a.(*tref)
	if !ok || p.binds.len() != n+1 || p.binds.at(n).v != r.v {
		return
	}
	switch p.binds.at(n).prim.(type) {
	case *OpApp, *Plus:
	default:
		return
	}
	xs, ok := flatten(v, r.v.t, p.fused.a[:0])
	p.fused.a = xs
	if !ok {
		return
	}
	if f := p.fused; len(f.xs)+len(xs) > cap(f.xs) {
		// Doubling: the values come one binding at a time, as many as the trace's.
		f.xs = slices.Grow(f.xs, max(len(f.xs), 64))
	}
	fv := p.fused.vars.at(r.v.id)
	fv.val = p.push(xs)
	fv.evaluated, fv.traced = true, true
}

// End ends the trace with its last body tail. Its error is LetChain's on the trace
// the sink has taken (a trace deeper than MaxDepth), the stage's; R's are
// Run.EvalSunk's.
func (s *TapeSink) End(tail Term) error {
	if max(s.depth, Depth(tail)) > MaxDepth {
		return &interderive.DepthError{What: "trace term", Limit: MaxDepth}
	}
	s.ended = true
	if s.err != nil {
		return nil
	}
	defer s.recover()
	s.result = s.p.chain(tail, false)
	s.p.decide()
	return nil
}

// recover keeps the failure of the forward pass (the taper's abort).
func (s *TapeSink) recover() {
	if v := recover(); v != nil {
		a, ok := v.(abort)
		if !ok {
			panic(v)
		}
		s.err = a.err
	}
}

// EvalSunk is EvalDerivative on the trace the sink s has taken, once ended:
// W.R_V(x:T. C) ⇒ X for the closed values W and V, with the same value, events,
// declining and errors as EvalDerivative given the trace term C. The sink is spent.
func (r *Run) EvalSunk(s *TapeSink, w, v Term, limit int) (val, der Term, err error) {
	if !s.ended {
		return nil, nil, interderive.Stuck("", "the derivative of a trace that has not ended")
	}
	env := r.diffEnv(s.p.outer)
	val, events, der, err := s.eval(env, w, v, min(limit, MaxDepth))
	s.p = nil
	return r.fusedOutcome(env.Budget, val, events, der, err)
}

// eval is fusedTapeR on the sink's tape.
func (s *TapeSink) eval(env DiffEnv, w, v Term, depthLimit int) (val Term, events []uint8, der Term, err error) {
	if s.err != nil {
		return nil, nil, nil, s.err
	}
	p := s.p
	_, p.limit = env.setup(w, v, nil, math.MaxInt)
	defer recoverAbort(&der, &err)
	return p.fusedEnd(w, v, s.t, s.result, depthLimit)
}
