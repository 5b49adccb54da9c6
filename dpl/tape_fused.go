package dpl

import (
	"errors"
	"math"
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
// often, a trace with a free variable — declines (ok is false) without a contraction
// reported, and the stage then derives and evaluates the term as before: its errors,
// undefinedness included, are the unfused path's own, event for event.

// fvar is the fused evaluation's state of a tvar: its closed value, and its adjoint.
type fvar struct {
	val     Term // its value, once its binding is evaluated (x': V)
	adj     fcot // its adjoint so far, when has
	has     bool
	pending bool // adj is old + adj, a sum Tape has not bound to a variable yet
	old     fcot
}

// fcot is a cotangent as the backward pass writes it, held by its closed value: a
// leaf (a variable, W, a 0_T) or a pair of cotangents (a Pair node of the term, which
// the backward pass takes apart without a projection).
type fcot struct {
	val   Term  // a leaf's closed value
	x, y  *fcot // a pair's components
	t, u  Type  // a pair's component types
	zero  bool  // a 0_T the backward pass wrote (Tape's zero)
	depth int   // the Depth of the term Tape writes
}

func (c fcot) isPair() bool { return c.x != nil }

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
	vars   []fvar
	events []uint8
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
// comment above fvar). W and V are closed values, C the trace term of the rd's body.
// limit bounds the Depth of the derivative term: a stage whose evaluation of a term
// of depth d recurses d deep gives the room it has left (at most MaxDepth).
//
// ok is false when the fused evaluation declines: nothing was reported, and the
// caller derives and evaluates the term as before (Run.Derive). With ok, err is the
// error of reporting the events (a budget of time or memory), if any.
func (r *Run) EvalDerivative(w, v Term, x string, t Type, c Term, limit int) (val Term, ok bool, err error) {
	steps := r.Fuel.Steps()
	env := DiffEnv{Names: r.Names, Budget: r.budget - steps}
	val, events, err := fusedTapeR(env, w, v, x, t, c, min(limit, MaxDepth))
	if err != nil {
		return nil, false, nil
	}
	for _, e := range events {
		if err := r.Fuel.Contract(fusedRules[e]); err != nil {
			return nil, true, err
		}
	}
	return val, true, nil
}

// fusedTapeR is tapeR with every emitted binding evaluated instead of built: the
// value of the derivative term, and its contraction events. It follows tapeR line by
// line; an error means that it declines.
func fusedTapeR(env DiffEnv, w, v Term, x string, t Type, c Term, depthLimit int) (res Term, events []uint8, err error) {
	names, limit := env.setup(w, v, c, math.MaxInt)
	f := &fusion{anon: &Var{Name: "_"}}
	p := &taper{names: names, limit: limit, zeros: map[Term]bool{}, fused: f}
	redexLets := chainRedexes(c)
	p.binds = make([]tbinding, 0, redexLets+8)
	f.vars = make([]fvar, 0, 2*redexLets+8)
	f.events = make([]uint8, 0, 6*redexLets+8)
	defer recoverAbort(&res, &err)
	p.x = p.newVar(Pos{}, x, t)
	p.x.active = true
	p.scope.Set(x, &p.x.self)
	result := p.chain(c, false)
	p.decide()

	// The prologue.
	f.vars[p.x.id].val = v
	if p.x.used || !IsValue(v) {
		p.fusedLet(redexes(v), Depth(v))
	}
	active := p.activeAtom(result) && hasReals(p.atomType(result))
	var wc fcot
	if active {
		wc = fcot{val: w, depth: Depth(w)}
		switch w.(type) {
		case *Var, *RealLit:
		default:
			p.fusedLet(redexes(w), wc.depth)
			wc.depth = 1
		}
	}
	// The forward pass.
	for i := range p.binds {
		if b := &p.binds[i]; b.keep {
			f.vars[b.v.id].val = p.forward(b)
		}
	}
	// The backward pass.
	if active {
		p.fcontribute(wc, result)
	}
	for i := len(p.binds) - 1; i >= 0; i-- {
		if p.binds[i].v.active {
			p.fbackward(&p.binds[i])
		}
	}
	var body Term
	bodyDepth := 0
	if xv := &f.vars[p.x.id]; !xv.has {
		body = Zero(t)
		bodyDepth = Depth(body)
	} else if xv.pending {
		body = p.plusT(t, xv.old, xv.adj)
		bodyDepth = plusTDepth(t, xv.old.depth, xv.adj.depth)
	} else {
		body, bodyDepth = p.cotValue(xv.adj), xv.adj.depth
	}
	if max(p.deep, bodyDepth) > depthLimit {
		return nil, nil, errDecline
	}
	return body, f.events, nil
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

// check declines on an error of an operation (an undefined one, above all).
func (p *taper) check(v Term, err error) Term {
	if err != nil {
		p.fail(err)
	}
	return v
}

// forward evaluates a binding of the forward pass, let v = prim: its value.
func (p *taper) forward(b *tbinding) Term {
	switch m := b.prim.(type) {
	case *OpApp: // let v = op(a): op, let
		d := p.atomDepth(m.Arg)
		p.add(2)
		p.deep = max(p.deep, 2+d)
		p.event(evOp)
		val := p.evOp(m.Op, m.Arg)
		p.event(evLet)
		return val
	case *Plus: // let v = a + b: plus, let
		p.add(2)
		p.deep = max(p.deep, 2+max(p.atomDepth(m.X), p.atomDepth(m.Y)))
		p.event(evPlus)
		val := p.check(AddReals(p.atomValue(m.X), p.atomValue(m.Y)))
		p.event(evLet)
		return val
	case *Fst, *Snd: // let v = fst(a): fst, let
		x, e, first := projArg(m)
		p.add(2)
		p.deep = max(p.deep, 2+p.atomDepth(x))
		p.event(e)
		pr, ok := p.atomValue(x).(*Pair)
		if !ok {
			p.decline()
		}
		p.event(evLet)
		if first {
			return pr.X
		}
		return pr.Y
	}
	// A copy of a pair atom: let v = <a, b>, no redex.
	val := p.atomValue(b.prim)
	p.fusedLet(0, p.atomDepth(b.prim))
	return val
}

// projArg is a projection's argument, event, and whether it is fst.
func projArg(m Term) (Term, uint8, bool) {
	if f, ok := m.(*Fst); ok {
		return f.X, evFst, true
	}
	return m.(*Snd).X, evSnd, false
}

// evOp is ev(op, a) for an atom a, as a stage evaluates op(a): EvPair on a pair
// atom's components (the stages' opPair), Ev otherwise; both compute on the same
// coordinates.
func (p *taper) evOp(op *Operator, a Term) Term {
	if pr, ok := a.(*Pair); ok {
		return p.check(EvPair(op, p.atomValue(pr.X), p.atomValue(pr.Y), pr.P))
	}
	return p.check(Ev(op, p.atomValue(a)))
}

// atomValue is the closed value of an atom of the tape.
func (p *taper) atomValue(a Term) Term {
	switch a := a.(type) {
	case *tref:
		v := p.fused.vars[a.v.id].val
		if v == nil {
			p.decline() // not evaluated: cannot happen, as decide needs it
		}
		return v
	case *RealLit, *UnitLit:
		return a
	case *Pair:
		return &Pair{P: a.P, X: p.atomValue(a.X), Y: p.atomValue(a.Y), T: a.T, U: a.U}
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
	fv := &p.fused.vars[b.v.id]
	has := fv.has
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
			z := Zero(op.Cod)
			cot = fcot{val: z, depth: Depth(z)}
		}
		p.add(2)
		p.deep = max(p.deep, 1+2+max(p.atomDepth(m.Arg), cot.depth))
		p.event(evOp)
		g := p.check(EvPair(op.R(), p.atomValue(m.Arg), p.cotValue(cot), m.P))
		p.event(evLet)
		if has {
			p.fcontribute(fcot{val: g, depth: 1}, m.Arg)
		}
	case *Fst:
		if has {
			x, y := p.fuse(b.v), p.fzero(m.U)
			p.fcontribute(fcot{x: &x, y: &y, t: m.T, u: m.U, depth: 1 + max(x.depth, y.depth)}, m.X)
		}
	case *Snd:
		if has {
			x, y := p.fzero(m.T), p.fuse(b.v)
			p.fcontribute(fcot{x: &x, y: &y, t: m.T, u: m.U, depth: 1 + max(x.depth, y.depth)}, m.X)
		}
	default: // a copy
		if has {
			p.fcontribute(p.fuse(b.v), m)
		}
	}
}

// fuse is use: the adjoint of v, a pending sum evaluated and bound first.
func (p *taper) fuse(v *tvar) fcot {
	fv := &p.fused.vars[v.id]
	if !fv.pending {
		return fv.adj
	}
	sum := p.plusT(v.t, fv.old, fv.adj)
	p.fusedLet(0, plusTDepth(v.t, fv.old.depth, fv.adj.depth))
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
		fv := &p.fused.vars[v.id]
		if !fv.has {
			fv.adj, fv.has = cot, true
			return
		}
		old := p.fuse(v)
		if old.isPair() && cot.isPair() {
			fv.adj = p.fsumPairs(v.t.(*Prod), old, cot)
			return
		}
		p.add(plusRedexes(v.t))
		fv.old, fv.adj, fv.pending = old, cot, true
	case *Pair:
		u, s := a.T, a.U
		if cot.isPair() {
			p.fcontribute(*cot.x, a.X)
			p.fcontribute(*cot.y, a.Y)
			return
		}
		left, right := p.activeAtom(a.X) && hasReals(u), p.activeAtom(a.Y) && hasReals(s)
		if left && right { // let z = cot: let
			p.fusedLet(0, cot.depth)
			cot = fcot{val: p.cotValue(cot), depth: 1}
		}
		var pr *Pair
		if left || right {
			var ok bool
			if pr, ok = p.cotValue(cot).(*Pair); !ok {
				p.decline()
			}
		}
		if left { // let y = fst(cot): fst, let
			p.add(2)
			p.deep = max(p.deep, 2+cot.depth)
			p.event(evFst)
			p.event(evLet)
			p.fcontribute(fcot{val: pr.X, depth: 1}, a.X)
		}
		if right { // let z = snd(cot): snd, let
			p.add(2)
			p.deep = max(p.deep, 2+cot.depth)
			p.event(evSnd)
			p.event(evLet)
			p.fcontribute(fcot{val: pr.Y, depth: 1}, a.Y)
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
		if x.isPair() && y.isPair() {
			return p.fsumPairs(t.(*Prod), x, y)
		}
		p.add(plusRedexes(t))
		s := p.plusT(t, x, y)
		p.fusedLet(0, plusTDepth(t, x.depth, y.depth))
		return fcot{val: s, depth: 1}
	}
	x := sum(t.Fst, *a.x, *b.x)
	y := sum(t.Snd, *a.y, *b.y)
	return fcot{x: &x, y: &y, t: t.Fst, u: t.Snd, depth: 1 + max(x.depth, y.depth)}
}

// fzero is zero: 0_T, written by the backward pass.
func (p *taper) fzero(t Type) fcot {
	z := Zero(t)
	return fcot{val: z, zero: true, depth: Depth(z)}
}

// fisZero is isZero.
func (p *taper) fisZero(c fcot) bool {
	if c.zero {
		return true
	}
	return c.isPair() && p.fisZero(*c.x) && p.fisZero(*c.y)
}

// cotValue is the closed value of a cotangent.
func (p *taper) cotValue(c fcot) Term {
	if !c.isPair() {
		return c.val
	}
	return &Pair{X: p.cotValue(*c.x), Y: p.cotValue(*c.y), T: c.t, U: c.u}
}

// plusT evaluates PlusT(t, a, b) on the cotangents a and b, recording its events in
// the order the term PlusT writes performs them: + at real; at unit two lets; at
// T * U, let <x1, x2> = a in let <y1, y2> = b in <x1 +_T y1, x2 +_U y2>, each
// let-tuple a let, a fst and its let, a snd and its let.
func (p *taper) plusT(t Type, a, b fcot) Term {
	return p.plusTValues(t, p.cotValue(a), p.cotValue(b))
}

func (p *taper) plusTValues(t Type, a, b Term) Term {
	switch t := t.(type) {
	case *Prod:
		ap, ok1 := a.(*Pair)
		bp, ok2 := b.(*Pair)
		if !ok1 || !ok2 {
			p.decline()
		}
		for range 2 {
			p.event(evLet)
			p.event(evFst)
			p.event(evLet)
			p.event(evSnd)
			p.event(evLet)
		}
		x := p.plusTValues(t.Fst, ap.X, bp.X)
		y := p.plusTValues(t.Snd, ap.Y, bp.Y)
		return &Pair{X: x, Y: y, T: t.Fst, U: t.Snd}
	case Base:
		if t == Unit {
			p.event(evLet)
			p.event(evLet)
			return &UnitLit{}
		}
	}
	p.event(evPlus)
	return p.check(AddReals(a, b))
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
