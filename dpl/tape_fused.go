package dpl

import (
	"errors"
	"math"
	"slices"

	"github.com/interderive/interderive"
)

// R fused with the evaluation of its output (spec §4, "evaluation fused with R").
//
// Under ordinary evaluation, W.rd[V](x:T. N) ⇒ X is N ⇝ C, then W.R_V(x:T. C) ⇒ X:
// Tape builds the derivative term, a let-chain of redexes whose operands are values
// (its forward and backward passes), and the stage evaluates it, one contraction per
// redex, in the order of the chain. EvalDerivative computes X without building the
// term: it runs the same passes over the same tape (chain and decide are Tape's own),
// and at every point where Tape emits a binding let y:S = M in, it evaluates M at once,
// on the closed values of M's variables, and records the contractions the evaluation
// of M and of the let performs. This is deforestation: the producer of the term (R)
// and its consumer (evaluation) fused into one pass, so that the intermediate term is
// never built. It is equivalent because every binding is evaluated by the same meta-
// level operations a stage applies to it (dpl.Ev / EvPair on the same coordinates,
// AddReals, projections), in the order of the chain, so that
//   - the values have the same float64 bits (the same operations on the same operands,
//     in the same order: sums associate as the emitted term writes them);
//   - the contraction events are the same, in the same order: per binding, those of
//     its bound term (op, plus, fst, snd, and +_T's lets, projections and sums, as
//     PlusT writes them), then let; the body's last;
//   - and the redexes are counted as Tape counts them, against the same budget.
//
// It is optimistic: the events are kept, as one byte each, and reported only when the
// whole derivative has evaluated to a value. Anything else — an undefined operation, a
// derivative over the budget or deeper than the bound, an operator differentiated too
// often, a trace with a free variable — declines, without a contraction reported: R
// then emits the derivative term from the same tape, as Tape does, and the stage
// evaluates it as before, so that its errors, undefinedness included, are the unfused
// path's own, event for event. The trace C is read once, by the forward pass: the
// stage need not keep it for the unfused path, and it can go while the derivative is
// evaluated.

// Values. A closed value of the tape is a tuple of reals and units: the fused
// evaluation holds it by its coordinates (its reals, in the order flatten lists them),
// end to end in one slice, and its type, which the tape knows, says how they nest. So
// an operator computes on the coordinates (evCoords, as Ev and EvPair do, without
// building its argument or its result), a projection is a range of its argument's
// coordinates, and the evaluation allocates nothing per binding but its coordinates.

// fval is a value: the coordinates xs[off : off+n] of the fusion.
type fval struct{ off, n int32 }

// fvar is the fused evaluation's state of a tvar: its value, and its adjoint.
type fvar struct {
	val       fval
	evaluated bool // val is set (x', or a binding the forward pass evaluated)
	traced    bool // val is the trace's value of the binding (TapeSink.BindFresh)
	has       bool // adj is set
	pending   bool // the adjoint is old + adj, a sum Tape has not bound yet
	adj, old  fcot
}

// fcot is a cotangent as the backward pass writes it: a leaf (a variable, W, a 0_T)
// held by its value, or a pair of cotangents (a Pair node of the term, which the
// backward pass takes apart without a projection), pairs[pair-1].
type fcot struct {
	val   fval
	pair  int32
	zero  bool  // a 0_T the backward pass wrote (Tape's zero)
	depth int32 // the Depth of the term Tape writes
}

// fpair is a pair of cotangents of types t and u.
type fpair struct {
	x, y fcot
	t, u Type
}

// The contraction events of the fused evaluation, one byte each.
const (
	evLet uint8 = iota
	evOp
	evPlus
	evFst
	evSnd
)

// fusedRules names the events (under ordinary evaluation: derivatives are evaluated
// where rd is).
var fusedRules = [...]string{evLet: RuleLet, evOp: RuleOp, evPlus: RulePlus, evFst: RuleFst, evSnd: RuleSnd}

// fusion is the state of the fused evaluation.
type fusion struct {
	anon   *Var // the variable every tvar is written as: the fused evaluation names none
	vars   list[fvar]
	xs     []float64 // the coordinates of every value
	pairs  []fpair
	events []uint8
	named  list[naming] // how tape would name each variable, for unfuse
	a, b   []float64    // scratch: the coordinates of an operation's operands
	ys     []float64    // scratch: an operator's result
}

// errDecline stops the fused evaluation where the unfused path must take over.
var errDecline = errors.New("the fused evaluation declines")

// Fuses reports whether the run evaluates the derivative of an rd under ordinary
// evaluation fused with R (EvalDerivative): under the tape strategy, when nothing
// observes the derivative term (no OnRd: no --reports, no side-by-side trace). A stage
// that shows its own steps must not fuse either (the machine's states).
func (r *Run) Fuses() bool { return r.AD == Tape && r.OnRd == nil }

// EvalDerivative is W.R_V(x:T. C) ⇒ X under Tape, fused: the value X that evaluating
// the derivative term Tape emits gives, with the contraction events that evaluation
// performs reported to r.Fuel in the same order, and the term never built (see the
// comment above fval). W and V are closed values, C the trace term of the rd's body,
// types types C's free variables other than x (as Derive's). limit bounds the Depth
// of the derivative term: a stage whose evaluation of a term of depth d recurses d
// deep gives the room it has left (at most MaxDepth).
//
// When the fused evaluation declines, nothing is reported and der is the derivative
// term Derive gives, built from the same tape, for the stage to evaluate as before;
// err is the error Derive gives, or with a value the error of reporting the events (a
// budget of time or memory). C is not needed after R's forward pass has read it: the
// caller need not keep it, and can let it go.
func (r *Run) EvalDerivative(types TypeEnv, w, v Term, x string, t Type, c Term, limit int) (val, der Term, err error) {
	env := r.diffEnv(types)
	val, events, der, err := fusedTapeR(env, w, v, x, t, c, min(limit, MaxDepth))
	return r.fusedOutcome(env.Budget, val, events, der, err)
}

// diffEnv is the DiffEnv of R for the run now: the types of the free variables, the
// run's names, and the fuel left as R's budget.
func (r *Run) diffEnv(types TypeEnv) DiffEnv {
	return DiffEnv{Types: types, Names: r.Names, Budget: r.budget - r.Fuel.Steps()}
}

// fusedOutcome is EvalDerivative's result once the fused evaluation under the budget
// has given its own (fusedTapeR's): R's error (over the budget: out of fuel, as
// Derive says), the derivative term where it declined, or the value, once its events
// are reported.
func (r *Run) fusedOutcome(budget int, val Term, events []uint8, der Term, err error) (Term, Term, error) {
	if err != nil {
		var be *BudgetError
		if errors.As(err, &be) && be.Limit == budget { // as Derive
			return nil, nil, &interderive.FuelError{Steps: r.Fuel.Steps()}
		}
		return nil, nil, err
	}
	if der != nil {
		return nil, der, nil
	}
	for _, e := range events {
		if err := r.Fuel.Contract(fusedRules[e]); err != nil {
			return nil, nil, err
		}
	}
	return val, nil, nil
}

// fusedTapeR is tapeR with every emitted binding evaluated instead of built: the
// value of the derivative term and its contraction events; or, where the fused
// evaluation declines, the derivative term tapeR emits from the same tape (named as
// tapeR names it: the fused evaluation takes no fresh name), or tapeR's error.
func fusedTapeR(env DiffEnv, w, v Term, x string, t Type, c Term, depthLimit int) (val Term, events []uint8, der Term, err error) {
	names, limit := env.setup(w, v, c, math.MaxInt)
	p := newFusedTaper(names, env.Types, limit)
	defer recoverAbort(&der, &err)
	result := p.tape(x, t, c)
	return p.fusedEnd(w, v, t, result, depthLimit)
}

// newFusedTaper is a taper whose output is evaluated as it is emitted.
func newFusedTaper(names *Names, outer TypeEnv, limit int) *taper {
	return &taper{names: names, outer: outer, limit: limit, fused: &fusion{anon: &Var{Name: "_"}}}
}

// fusedEnd is the rest of fusedTapeR once the tape is made and decided, result the
// atom of the trace's value. It fails (p.fail) as tapeR does; the caller recovers.
func (p *taper) fusedEnd(w, v Term, t Type, result Term, depthLimit int) (val Term, events []uint8, der Term, err error) {
	p.scope, p.undo = NameMap[Term]{}, nil // the forward pass's alone: let them go
	if val, events, err := p.evalFused(w, v, t, result, depthLimit); err == nil {
		return val, events, nil, nil
	}
	p.unfuse()
	der, _, err = p.derivative(w, v, t, result)
	return nil, nil, der, err
}

// unfuse makes a taper whose fused evaluation declined ready to emit the derivative
// term: its variables named, in the order tape would have named them, and the count
// of the term's redexes and its depth back to none.
func (p *taper) unfuse() {
	f := p.fused
	p.fused = nil
	p.count, p.deep, p.depth = 0, 0, 0
	p.zeros = map[Term]bool{}
	p.out = make([]*Let, 0, 4*p.binds.len()+8)
	name := func(v *tvar) {
		n := f.named.at(v.id)
		v.ref = p.nodes.Var(n.pos, p.names.Fresh(n.base))
	}
	name(p.x)
	for i := range p.binds.len() {
		name(p.binds.at(i).v)
	}
}

// naming is how tape names a variable (newVar): fresh, on base, at pos.
type naming struct {
	pos  Pos
	base string
}

// evalFused is derivative with every emitted binding evaluated instead of built: the
// value of the derivative term and its contraction events, or an error where it
// declines.
func (p *taper) evalFused(w, v Term, t Type, result Term, depthLimit int) (res Term, events []uint8, err error) {
	f := p.fused
	redexLets := p.binds.len()
	f.xs = slices.Grow(f.xs, 4*redexLets+8) // after the values the trace gave, if any
	f.events = make([]uint8, 0, 6*redexLets+8)
	defer recoverAbort(&res, &err)

	// The prologue: x' = V, W.
	xv := f.vars.at(p.x.id)
	xv.val, xv.evaluated = p.flat(v, t), true
	if p.x.used || !IsValue(v) {
		p.fusedLet(redexes(v), Depth(v))
	}
	active := p.activeAtom(result) && hasReals(p.atomType(result))
	var wc fcot
	if active {
		wc = fcot{val: p.flat(w, p.atomType(result)), depth: int32(Depth(w))}
		switch w.(type) {
		case *Var, *RealLit:
		default:
			p.fusedLet(redexes(w), int(wc.depth))
			wc.depth = 1
		}
	}
	// The forward pass.
	for i := range p.binds.len() {
		if b := p.binds.at(i); b.keep {
			fv := f.vars.at(b.v.id)
			if fv.traced {
				p.forwardTraced(b)
				continue
			}
			fv.val, fv.evaluated = p.forward(b), true
		}
	}
	// The backward pass.
	if active {
		p.fcontribute(wc, result)
	}
	for i := p.binds.len() - 1; i >= 0; i-- {
		if b := p.binds.at(i); b.v.active {
			p.fbackward(b)
		}
	}
	xv = f.vars.at(p.x.id)
	var body fval
	var bodyDepth int
	switch {
	case !xv.has:
		body, bodyDepth = p.zeroVal(t), zeroDepth(t)
	case xv.pending:
		body, bodyDepth = p.plusT(t, xv.old, xv.adj), plusTDepth(t, int(xv.old.depth), int(xv.adj.depth))
	default:
		body, bodyDepth = p.cotFlat(xv.adj), int(xv.adj.depth)
	}
	if max(p.deep, bodyDepth) > depthLimit || int(body.n) != width(t) {
		return nil, nil, errDecline
	}
	res, _ = build(t, f.xs[body.off:body.off+body.n], Pos{})
	return res, f.events, nil
}

// fusedLet is emitDepth for a binding whose bound term, of n redexes and Depth d,
// has been evaluated (its events recorded): the binding's count and depth, and the
// let's event.
func (p *taper) fusedLet(n, d int) {
	p.add(1 + n)
	p.deep = max(p.deep, 1+d)
	p.event(evLet)
}

func (p *taper) event(e uint8) { p.fused.events = append(p.fused.events, e) }

// decline stops the fused evaluation.
func (p *taper) decline() { p.fail(errDecline) }

// push stores coordinates: the value they are.
func (p *taper) push(ys []float64) fval {
	f := p.fused
	v := fval{int32(len(f.xs)), int32(len(ys))}
	f.xs = append(f.xs, ys...)
	return v
}

// flat is the value of a closed term of type t.
func (p *taper) flat(v Term, t Type) fval {
	xs, ok := flatten(v, t, p.fused.a[:0])
	if !ok {
		p.decline()
	}
	p.fused.a = xs
	return p.push(xs)
}

// zeroVal is the value 0_T.
func (p *taper) zeroVal(t Type) fval {
	f := p.fused
	v := fval{int32(len(f.xs)), int32(width(t))}
	for range v.n {
		f.xs = append(f.xs, 0)
	}
	return v
}

// coords appends the coordinates of v to xs.
func (p *taper) coords(xs []float64, v fval) []float64 {
	return append(xs, p.fused.xs[v.off:v.off+v.n]...)
}

// width is the number of coordinates of a value of type t.
func width(t Type) int {
	switch t := t.(type) {
	case *Prod:
		return width(t.Fst) + width(t.Snd)
	case Base:
		if t == Real {
			return 1
		}
	}
	return 0
}

// zeroDepth is Depth(Zero(t)).
func zeroDepth(t Type) int {
	if t, ok := t.(*Prod); ok {
		return 1 + max(zeroDepth(t.Fst), zeroDepth(t.Snd))
	}
	return 1
}

// forward evaluates a binding of the forward pass, let v = prim: its value.
func (p *taper) forward(b *tbinding) fval {
	f := p.fused
	switch m := b.prim.(type) {
	case *OpApp: // let v = op(a): op, let
		p.add(2)
		p.deep = max(p.deep, 2+p.atomDepth(m.Arg))
		p.event(evOp)
		f.a = p.atomCoords(f.a[:0], m.Arg)
		val := p.evOp(m.Op, f.a)
		p.event(evLet)
		return val
	case *Plus: // let v = a + b: plus, let
		p.add(2)
		p.deep = max(p.deep, 2+max(p.atomDepth(m.X), p.atomDepth(m.Y)))
		p.event(evPlus)
		f.a = p.atomCoords(f.a[:0], m.X)
		f.a = p.atomCoords(f.a, m.Y)
		if len(f.a) != 2 {
			p.decline()
		}
		f.a[0] = p.add2(f.a[0], f.a[1])
		val := p.push(f.a[:1])
		p.event(evLet)
		return val
	case *Fst: // let v = fst(a): fst, let
		p.add(2)
		p.deep = max(p.deep, 2+p.atomDepth(m.X))
		p.event(evFst)
		a := p.atomValue(m.X)
		p.event(evLet)
		return p.sub(a, 0, width(m.T))
	case *Snd: // let v = snd(a): snd, let
		p.add(2)
		p.deep = max(p.deep, 2+p.atomDepth(m.X))
		p.event(evSnd)
		a := p.atomValue(m.X)
		p.event(evLet)
		n := width(m.T)
		return p.sub(a, n, int(a.n)-n)
	}
	// A copy of a pair atom: let v = <a, b>, no redex.
	val := p.atomValue(b.prim)
	p.fusedLet(0, p.atomDepth(b.prim))
	return val
}

// forwardTraced is forward for a binding of an op or a sum whose value the trace has
// given (TapeSink.BindFresh: Figure 5's C ⇒ V, on the same values of the same
// operands): the same count, depth and events, and the same value, which the trace
// computed as forward would (ev on the same coordinates, AddReals as add2: the same
// bits, and defined), not computed again. A real AD tape keeps the primal values of
// its forward sweep the same way.
func (p *taper) forwardTraced(b *tbinding) {
	switch m := b.prim.(type) {
	case *OpApp:
		p.add(2)
		p.deep = max(p.deep, 2+p.atomDepth(m.Arg))
		p.event(evOp)
		p.evaluatedAtom(m.Arg)
	case *Plus:
		p.add(2)
		p.deep = max(p.deep, 2+max(p.atomDepth(m.X), p.atomDepth(m.Y)))
		p.event(evPlus)
		p.evaluatedAtom(m.X)
		p.evaluatedAtom(m.Y)
	default:
		p.decline() // TapeSink.BindFresh keeps the values of these alone
	}
	p.event(evLet)
}

// evaluatedAtom declines where atomCoords would: an atom with a variable not evaluated,
// or free.
func (p *taper) evaluatedAtom(a Term) {
	switch a := a.(type) {
	case *tref:
		if !p.fused.vars.at(a.v.id).evaluated {
			p.decline()
		}
	case *RealLit, *UnitLit:
	case *Pair:
		p.evaluatedAtom(a.X)
		p.evaluatedAtom(a.Y)
	default:
		p.decline()
	}
}

// sub is the n coordinates of v from its i-th: a component of a pair.
func (p *taper) sub(v fval, i, n int) fval {
	if i < 0 || n < 0 || i+n > int(v.n) {
		p.decline() // not a pair of that type: the term is stuck, unfused
	}
	return fval{v.off + int32(i), int32(n)}
}

// add2 is a + b as AddReals computes it; undefined (declined) where it overflows.
func (p *taper) add2(a, b float64) float64 {
	s := a + b
	if math.IsInf(s, 0) || math.IsNaN(s) {
		p.decline()
	}
	return s
}

// evOp is ev(op, V) on the coordinates xs of V, as Ev and EvPair compute it.
func (p *taper) evOp(op *Operator, xs []float64) fval {
	f := p.fused
	if len(xs) != op.n { // width(op.Dom)
		p.decline() // not a value of op's domain: the term is stuck, unfused
	}
	ys, why := evCoords(op, xs, f.ys[:0])
	f.ys = ys
	if why != "" {
		p.decline()
	}
	return p.push(ys)
}

// atomValue is the value of an atom of the tape (a variable's own, without a copy).
func (p *taper) atomValue(a Term) fval {
	if r, ok := a.(*tref); ok {
		v := p.fused.vars.at(r.v.id)
		if !v.evaluated {
			p.decline() // not evaluated: cannot happen, as decide needs it
		}
		return v.val
	}
	f := p.fused
	f.a = p.atomCoords(f.a[:0], a)
	return p.push(f.a)
}

// atomCoords appends the coordinates of an atom of the tape to xs.
func (p *taper) atomCoords(xs []float64, a Term) []float64 {
	switch a := a.(type) {
	case *tref:
		v := p.fused.vars.at(a.v.id)
		if !v.evaluated {
			p.decline()
		}
		return p.coords(xs, v.val)
	case *RealLit:
		return append(xs, a.R)
	case *UnitLit:
		return xs
	case *Pair:
		return p.atomCoords(p.atomCoords(xs, a.X), a.Y)
	}
	p.decline() // a free variable of C other than x: no value here
	return nil
}

// atomDepth is the Depth of an atom as the derivative term writes it.
func (p *taper) atomDepth(a Term) int {
	if pr, ok := a.(*Pair); ok {
		return 1 + max(p.atomDepth(pr.X), p.atomDepth(pr.Y))
	}
	return 1
}

// The backward pass, fused: fbackward, fuse, fcontribute and fsumPairs are backward,
// use, contribute and sumPairs, on cotangents held by their values.

func (p *taper) fbackward(b *tbinding) {
	f := p.fused
	has := f.vars.at(b.v.id).has
	switch m := b.prim.(type) {
	case *Plus:
		if has {
			a := p.fuse(b.v)
			p.fcontribute(a, m.X)
			p.fcontribute(a, m.Y)
		}
	case *OpApp:
		op := m.Op
		if op.Order() >= MaxOrder {
			p.decline()
		}
		var cot fcot
		if has {
			cot = p.fuse(b.v)
		} else {
			cot = fcot{val: p.zeroVal(op.Cod), depth: int32(zeroDepth(op.Cod))}
		}
		p.add(2)
		p.deep = max(p.deep, 1+2+max(p.atomDepth(m.Arg), int(cot.depth)))
		p.event(evOp)
		f.a = p.atomCoords(f.a[:0], m.Arg)
		f.a = p.cotCoords(f.a, cot)
		g := p.evOp(op.R(), f.a) // op_r(<a, ā>)
		p.event(evLet)
		if has {
			p.fcontribute(fcot{val: g, depth: 1}, m.Arg)
		}
	case *Fst:
		if has {
			x, y := p.fuse(b.v), p.fzero(m.U)
			p.fcontribute(p.fpair(x, y, m.T, m.U), m.X)
		}
	case *Snd:
		if has {
			x, y := p.fzero(m.T), p.fuse(b.v)
			p.fcontribute(p.fpair(x, y, m.T, m.U), m.X)
		}
	default: // a copy
		if has {
			p.fcontribute(p.fuse(b.v), m)
		}
	}
}

// fpair is the pair node <x, y> of types t, u.
func (p *taper) fpair(x, y fcot, t, u Type) fcot {
	f := p.fused
	f.pairs = append(f.pairs, fpair{x, y, t, u})
	return fcot{pair: int32(len(f.pairs)), depth: 1 + max(x.depth, y.depth)}
}

// fuse is use: the adjoint of v, a pending sum evaluated and bound first.
func (p *taper) fuse(v *tvar) fcot {
	fv := p.fused.vars.at(v.id)
	if !fv.pending {
		return fv.adj
	}
	sum := p.plusT(v.t, fv.old, fv.adj)
	p.fusedLet(0, plusTDepth(v.t, int(fv.old.depth), int(fv.adj.depth)))
	fv = p.fused.vars.at(v.id)
	fv.adj, fv.pending, fv.old = fcot{val: sum, depth: 1}, false, fcot{}
	return fv.adj
}

func (p *taper) fcontribute(cot fcot, a Term) {
	p.depth++
	if p.depth > 2*MaxDepth {
		p.decline()
	}
	p.fcontribute1(cot, a)
	p.depth--
}

func (p *taper) fcontribute1(cot fcot, a Term) {
	if p.fisZero(cot) || !p.activeAtom(a) {
		return
	}
	switch a := a.(type) {
	case *tref:
		v := a.v
		if !hasReals(v.t) {
			return
		}
		if fv := p.fused.vars.at(v.id); !fv.has {
			fv.adj, fv.has = cot, true
			return
		}
		old := p.fuse(v)
		fv := p.fused.vars.at(v.id)
		if old.pair != 0 && cot.pair != 0 {
			fv.adj = p.fsumPairs(v.t.(*Prod), old, cot)
			return
		}
		p.add(plusRedexes(v.t))
		fv.old, fv.adj, fv.pending = old, cot, true
	case *Pair:
		u, s := a.T, a.U
		if cot.pair != 0 {
			pr := p.fused.pairs[cot.pair-1]
			p.fcontribute(pr.x, a.X)
			p.fcontribute(pr.y, a.Y)
			return
		}
		left, right := p.activeAtom(a.X) && hasReals(u), p.activeAtom(a.Y) && hasReals(s)
		if left && right { // let z = cot: let
			p.fusedLet(0, int(cot.depth))
			cot.depth = 1
		}
		n := width(u)
		if left { // let y = fst(cot): fst, let
			p.add(2)
			p.deep = max(p.deep, 2+int(cot.depth))
			p.event(evFst)
			p.event(evLet)
			p.fcontribute(fcot{val: p.sub(cot.val, 0, n), depth: 1}, a.X)
		}
		if right { // let z = snd(cot): snd, let
			p.add(2)
			p.deep = max(p.deep, 2+int(cot.depth))
			p.event(evSnd)
			p.event(evLet)
			p.fcontribute(fcot{val: p.sub(cot.val, n, int(cot.val.n)-n), depth: 1}, a.Y)
		}
	}
}

// fsumPairs is sumPairs: a +_T b for two pairs of cotangents, componentwise.
func (p *taper) fsumPairs(t *Prod, a, b fcot) fcot {
	sum := func(t Type, x, y fcot) fcot {
		switch {
		case p.fisZero(x):
			return y
		case p.fisZero(y):
			return x
		}
		if x.pair != 0 && y.pair != 0 {
			return p.fsumPairs(t.(*Prod), x, y)
		}
		p.add(plusRedexes(t))
		s := p.plusT(t, x, y)
		p.fusedLet(0, plusTDepth(t, int(x.depth), int(y.depth)))
		return fcot{val: s, depth: 1}
	}
	pa, pb := p.fused.pairs[a.pair-1], p.fused.pairs[b.pair-1]
	x := sum(t.Fst, pa.x, pb.x)
	y := sum(t.Snd, pa.y, pb.y)
	return p.fpair(x, y, t.Fst, t.Snd)
}

// fzero is zero: 0_T, written by the backward pass.
func (p *taper) fzero(t Type) fcot {
	return fcot{val: p.zeroVal(t), zero: true, depth: int32(zeroDepth(t))}
}

// fisZero is isZero.
func (p *taper) fisZero(c fcot) bool {
	if c.zero {
		return true
	}
	if c.pair == 0 {
		return false
	}
	pr := p.fused.pairs[c.pair-1]
	return p.fisZero(pr.x) && p.fisZero(pr.y)
}

// cotCoords appends the coordinates of a cotangent to xs.
func (p *taper) cotCoords(xs []float64, c fcot) []float64 {
	if c.pair == 0 {
		return p.coords(xs, c.val)
	}
	pr := p.fused.pairs[c.pair-1]
	return p.cotCoords(p.cotCoords(xs, pr.x), pr.y)
}

// cotFlat is the value of a cotangent.
func (p *taper) cotFlat(c fcot) fval {
	if c.pair == 0 {
		return c.val
	}
	f := p.fused
	f.a = p.cotCoords(f.a[:0], c)
	return p.push(f.a)
}

// plusT evaluates PlusT(t, a, b) on the cotangents a and b: the events in the order
// the term PlusT writes performs them (+ at real; two lets at unit; at T * U,
// let <x1, x2> = a in let <y1, y2> = b in <x1 +_T y1, x2 +_U y2>, each let-tuple a
// let, a fst and its let, a snd and its let), and the sum, coordinate by coordinate.
func (p *taper) plusT(t Type, a, b fcot) fval {
	f := p.fused
	f.a = p.cotCoords(f.a[:0], a)
	f.b = p.cotCoords(f.b[:0], b)
	if len(f.a) != len(f.b) || len(f.a) != width(t) {
		p.decline()
	}
	p.plusEvents(t)
	for i := range f.a {
		f.a[i] = p.add2(f.a[i], f.b[i])
	}
	return p.push(f.a)
}

func (p *taper) plusEvents(t Type) {
	switch t := t.(type) {
	case *Prod:
		for range 2 {
			p.fused.events = append(p.fused.events, evLet, evFst, evLet, evSnd, evLet)
		}
		p.plusEvents(t.Fst)
		p.plusEvents(t.Snd)
		return
	case Base:
		if t == Unit {
			p.fused.events = append(p.fused.events, evLet, evLet)
			return
		}
	}
	p.event(evPlus)
}

// plusTDepth is the Depth of PlusT(t, a, b) for a and b of Depths da and db.
func plusTDepth(t Type, da, db int) int {
	switch t := t.(type) {
	case *Prod:
		return max(1+da, 1+db, 3, 1+max(plusTDepth(t.Fst, 1, 1), plusTDepth(t.Snd, 1, 1)))
	case Base:
		if t == Unit {
			return max(1+da, 1+db, 1)
		}
	}
	return 1 + max(da, db)
}

// Unfused is the strategy d under which no run fuses R with the evaluation of its
// output (Run.Fuses is false): every rd's derivative term is built, then evaluated.
// It is d in every other respect, name included. The tests run a program under Tape
// and Unfused(Tape) and compare the runs, event by event and bit by bit.
func Unfused(d Differentiator) Differentiator { return unfused{d} }

type unfused struct{ Differentiator }
