package dpl

import (
	"fmt"
	"math"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/slab"
)

// Tape is the linear-time strategy of spec §4: a Wengert-list reverse mode. The trace
// term C is put in A-normal form (a list of bindings, the forward pass), then the
// adjoints are propagated through the list in reverse (the backward pass), and both
// are emitted as one let-chain trace term, so that a nested rd can trace and
// differentiate it again. It uses the same op_r operators as Figure 6 and gives the
// same values, up to the association of sums.
//
// Cost: the derivative term has O(|C|) redexes (a bounded number per binding, times
// the size of the binding's type), and R builds it in time O(|C|), iterating along let
// bodies: a let-chain of any length is fine, and only terms nested deeply elsewhere
// meet the depth limit (2·MaxDepth). For let y1 = x * x in ... let yk = y(k-1) * x in
// yk it has exactly 11k redexes (Figure 6's grows as 2^k, pruned's polynomially).
//
// Definedness. An operator's guards (log needs a > 0, inv needs a ≠ 0, ...) are
// checked on the argument of every operator occurrence of C, as under Figure 6: where
// the forward pass keeps the operator, by op itself; where it drops it (below), by
// op_r, which has the same guards. So the derivative is defined where Figure 6's is,
// overflow aside (a float64 result that is not finite is undefined: Figure 6 and pruned
// do not overflow at the same places either, since they evaluate different sums).
//
// What the forward pass evaluates, binding by binding:
//   - a binding that does not depend on the variable of differentiation (inactive)
//     always, as pruned does (let z:U = C in 0_T evaluates all of C);
//   - an active binding only when its value is needed: by an evaluated binding, by the
//     argument of an op_r (which carries the argument of op), as the bound term of a
//     source let, or as the argument of a projection (Figure 6 evaluates all three).
//     An active op, sum or projection whose value nothing needs (the result of C, or a
//     summand of it, ...) is not evaluated forward, as Figure 6 evaluates neither op(D)
//     (only op_r(<D, W>)) nor the sums in its result. This keeps the causes of
//     undefinedness Figure 6's where it matters most: 1.rd[-1](x. log(x)) is undefined
//     at log_r(<-1, 1>), not at log(-1).
//
// The backward pass evaluates op_r for every active operator occurrence, with the
// cotangent 0 when nothing contributed to the operator's adjoint (the operator's value
// does not reach the result): Figure 6 does the same (it differentiates every subterm,
// with W = 0 where the value is unused), and op_r(<D, 0>) can be undefined where op(D)
// is defined, by overflow (inv_r(<1e-200, 0>) = -0 · 1e400 = NaN). Skipping it would
// give a value where pruned and Figure 6 give undefined.
//
// Its R can also run fused with the evaluation of its output (Run.EvalDerivative,
// tape_fused.go): the same passes over the same tape, every binding evaluated where
// it would be emitted, the term never built.
var Tape Differentiator = tape{}

type tape struct{}

func (tape) Name() string { return "tape" }

// tvar is a variable the taper made for the forward pass: x' (the variable of
// differentiation, renamed) or a binding of the tape. Its ref is made apart from it,
// so that the derivative term, which holds the refs, does not keep the taper's state
// alive.
type tvar struct {
	t       Type
	ref     *Var // the variable, as the derivative term writes it
	self    tref // the tvar as an atom
	active  bool // depends on x (x included)
	used    bool // the derivative term needs its value
	adj     Term // its adjoint so far, a value or a sum (pending); nil: zero
	pending bool // adj is a sum not yet bound to a variable
	id      int  // its index in the fused evaluation's values (tape_fused.go)
}

// tref stands for a tvar inside the atoms of the tape: a variable found without a
// lookup by name. It never leaves this file: write writes it as the tvar's *Var.
type tref struct{ v *tvar }

func (*tref) Pos() Pos { return Pos{} }
func (*tref) isTerm()  {}

// tbinding is one binding of the forward pass, v = prim, where prim is a + b, op(a),
// fst(a), snd(a) or, for a source let of a pair, a copy of the atom a. Atoms are the
// values the forward pass builds: trefs, free variables of C other than x (constants),
// reals, () and pairs of atoms.
type tbinding struct {
	v    *tvar
	prim Term
	arg  Term // for op(a) evaluated forward: a as the forward pass wrote it
	argD int  // and its Depth
	copy bool
	keep bool // evaluated in the forward pass
}

// taper builds a tape derivative.
type taper struct {
	names *Names
	outer TypeEnv
	limit int
	count int // redexes emitted so far
	depth int

	x     *tvar
	scope NameMap[Term] // source variable -> atom
	undo  []shadowed    // the bindings of scope the lets being tapered hide
	binds list[tbinding]
	out   []*Let        // the emitted bindings, in order
	deep  int           // the largest Depth of a let emitted so far (its bound term's + 1)
	zeros map[Term]bool // the 0_T the backward pass wrote (see isZero)

	// fused, if not nil, evaluates the derivative term as R emits it, without
	// building it (tape_fused.go).
	fused *fusion
	// hot is the variable of the binding a TapeSink took last, if fresh, and
	// hotAtom its atom (varAtom).
	hot     *Var
	hotAtom Term

	// The nodes R makes, from slabs.
	nodes Nodes
	fsts  slab.Slab[Fst]
	tvars slab.Slab[tvar]
}

func (p *taper) fail(err error) { panic(abort{err}) }

// add counts n more redexes of the derivative term.
func (p *taper) add(n int) {
	p.count += n
	if p.count > p.limit {
		p.fail(&BudgetError{Strategy: Tape.Name(), Limit: p.limit})
	}
}

// emit appends let name:t = m in to the derivative term, m holding n redexes; R sets
// the let's body at the end.
func (p *taper) emit(pos Pos, name string, t Type, m Term, n int) {
	p.emitDepth(pos, name, t, m, n, Depth(m)) // a small term: no allocation
}

// emitDepth is emit for a term m whose Depth the caller knows: d.
func (p *taper) emitDepth(pos Pos, name string, t Type, m Term, n, d int) {
	p.add(1 + n)
	p.deep = max(p.deep, 1+d)
	p.out = append(p.out, p.nodes.Let(pos, name, t, m))
}

func (tape) R(env DiffEnv, w, v Term, x string, t Type, c Term) (Term, error) {
	der, _, err := tapeR(env, w, v, x, t, c)
	return der, err
}

// tapeR is Tape's R, with the Depth of the derivative term, which it works out as it
// emits the term's lets rather than by walking the term.
func tapeR(env DiffEnv, w, v Term, x string, t Type, c Term) (res Term, depth int, err error) {
	names, limit := env.setup(w, v, c, math.MaxInt) // linear: fuel is its only bound
	p := &taper{names: names, outer: env.Types, limit: limit, zeros: map[Term]bool{}}
	defer recoverAbort(&res, &err) // depth is set last: 0 on a failure
	result := p.tape(x, t, c)
	return p.derivative(w, v, t, result)
}

// tape is the forward pass's tape of c, differentiated with respect to x:t: its
// bindings (p.binds), each marked with what the derivative term needs of it (decide),
// and the atom of c's value.
func (p *taper) tape(x string, t Type, c Term) Term {
	// Room for the tape of c's let-chain (append grows it if need be): a binding per
	// let whose bound term is not a variable or a constant, and a few lets of the
	// derivative term per binding (see TestTapeLinear).
	p.start(x, t, chainRedexes(c))
	result := p.chain(c, false)
	p.decide()
	return result
}

// start readies the taper for the forward pass of a trace differentiated with respect
// to x:t, with room for redexLets bindings: x' bound, in scope for x.
func (p *taper) start(x string, t Type, redexLets int) {
	if p.fused == nil {
		p.out = make([]*Let, 0, 4*redexLets+8)
	}
	// Renaming: x becomes a fresh x', so that binding x' = V captures nothing of W; the
	// forward pass binds fresh names only (the scope maps source names to atoms).
	p.x = p.newVar(Pos{}, x, t)
	p.x.active = true
	p.scope.Set(x, &p.x.self)
}

// derivative emits the derivative term W.R_V(x:T. C) from the tape of C, whose value
// is the atom result: the term, and its Depth.
func (p *taper) derivative(w, v Term, t Type, result Term) (Term, int, error) {
	names := p.names
	// The prologue: x' = V (when something needs x', or V is not a value), W.
	if p.x.used || !IsValue(v) {
		p.emit(v.Pos(), p.x.ref.Name, t, v, redexes(v))
	}
	active := p.activeAtom(result) && hasReals(p.atomType(result))
	if active {
		switch w.(type) {
		case *Var, *RealLit:
		default:
			// W is bound to a variable, so that the derivative term, and the floating-
			// point operations its evaluation performs, do not depend on how W is
			// written: a pair <a, b> or a variable holding it, 0 or a variable holding
			// 0 (Proposition 3.5: tracing an rd and evaluating the trace computes the
			// same bits as evaluating the rd, where W may be a variable).
			wv := names.Fresh("w")
			p.emit(w.Pos(), wv, p.atomType(result), w, redexes(w))
			w = &Var{Name: wv}
		}
	}
	// The forward pass.
	for i := range p.binds.len() {
		if b := p.binds.at(i); b.keep {
			n := 1
			if b.copy {
				n = 0
			}
			prim := b.prim
			if m, ok := prim.(*OpApp); ok {
				// The backward pass writes op_r(<a, ā>) with the same a (shared).
				b.arg = p.write(m.Arg)
				b.argD = Depth(b.arg)
				p.emitDepth(m.P, b.v.ref.Name, b.v.t, p.nodes.OpApp(m.P, m.Op, b.arg), n, 1+b.argD)
				continue
			}
			prim = p.write(prim)
			p.emit(prim.Pos(), b.v.ref.Name, b.v.t, prim, n)
		}
	}
	// The backward pass: W is the adjoint of the result (a constant result has none:
	// Figure 6 maps it to 0_T, without its type).
	if active {
		p.contribute(w, result)
	}
	for i := p.binds.len() - 1; i >= 0; i-- {
		if b := p.binds.at(i); b.v.active {
			p.backward(b)
		}
	}
	var body Term = Zero(t)
	if p.x.adj != nil {
		body = p.x.adj // a value, or a sum counted when it was made
	}
	depth := max(p.deep, Depth(body))
	if depth > MaxDepth {
		return nil, 0, &interderive.DepthError{What: "derivative term", Limit: MaxDepth}
	}
	for i := len(p.out) - 1; i >= 0; i-- {
		l := p.out[i] // made by emit, for this term only
		l.Body = body
		body = l
	}
	return body, depth, nil
}

// chainRedexes is the number of lets along c's let-chain whose bound term is not a
// variable or a constant.
func chainRedexes(c Term) int {
	n := 0
	for l, ok := c.(*Let); ok; l, ok = l.Body.(*Let) {
		switch l.Bound.(type) {
		case *Var, *RealLit, *UnitLit:
		default:
			n++
		}
	}
	return n
}

// newVar makes a tvar named after base.
func (p *taper) newVar(pos Pos, base string, t Type) *tvar {
	v := p.tvars.New()
	if p.fused != nil {
		// The fused evaluation writes no term: the variable needs no name.
		v.t, v.ref, v.self, v.id = t, p.fused.anon, tref{v}, p.fused.vars.len()
		p.fused.vars.next()
		n := p.fused.named.next()
		n.pos, n.base = pos, base
		return v
	}
	name := p.names.Fresh(base)
	v.t, v.ref, v.self = t, p.nodes.Var(pos, name), tref{v}
	return v
}

// write is an atom or a prim as the derivative term writes it: trefs become variables.
func (p *taper) write(t Term) Term {
	switch t := t.(type) {
	case *tref:
		return t.v.ref
	case *Pair:
		x, y := p.write(t.X), p.write(t.Y)
		if x == t.X && y == t.Y {
			return t
		}
		return p.nodes.Pair(t.P, x, y, t.T, t.U)
	case *Plus:
		return p.nodes.Plus(t.P, p.write(t.X), p.write(t.Y))
	case *OpApp:
		return p.nodes.OpApp(t.P, t.Op, p.write(t.Arg))
	case *Fst:
		return &Fst{P: t.P, X: p.write(t.X), T: t.T, U: t.U}
	case *Snd:
		return &Snd{P: t.P, X: p.write(t.X), T: t.T, U: t.U}
	}
	return t
}

// The forward pass.

// atom puts the trace term c in A-normal form: it appends the bindings that compute
// c's redexes to the tape and returns the atom that stands for c's value. It loops
// along let bodies, so that let-chains of any length take no stack; it recurses into
// the other subterms, at most 2·MaxDepth deep.
func (p *taper) atom(c Term) Term {
	switch c := c.(type) { // a leaf: no scope of its own, no depth
	case *Var:
		return p.varAtom(c)
	case *RealLit, *UnitLit:
		return c
	}
	p.depth++
	if p.depth > 2*MaxDepth {
		p.fail(&interderive.DepthError{What: "symbolic differentiation", Limit: 2 * MaxDepth})
	}
	// The scope of the lets along c's chain ends with c (a failure abandons the taper,
	// scope and all).
	mark := len(p.undo)
	a := p.chain(c, true)
	for i := len(p.undo) - 1; i >= mark; i-- {
		if u := p.undo[i]; u.had {
			p.scope.Set(u.name, u.old)
		} else {
			p.scope.Remove(u.name)
		}
	}
	clear(p.undo[mark:])
	p.undo = p.undo[:mark]
	p.depth--
	return a
}

// shadowed is a binding of the scope that a let of C hides: put back when the let's
// scope ends.
type shadowed struct {
	name string
	old  Term
	had  bool
}

// chain is atom's work: along c's let-chain, then its last body. With restore, it
// records the bindings of the scope the chain's lets hide, for atom to put back; the
// chain of the whole trace term (R's) needs none, as nothing follows it.
func (p *taper) chain(c Term, restore bool) Term {
	for {
		switch c0 := c.(type) {
		case *Let:
			p.let(c0.P, c0.Name, c0.T, c0.Bound, restore)
			c = c0.Body
			continue
		case *Var:
			if a, ok := p.scope.Get(c0.Name); ok {
				return a
			}
			return c0 // a free variable of C other than x: a constant
		case *RealLit, *UnitLit:
			return c0
		case *Plus:
			a, b := p.atom(c0.X), p.atom(c0.Y)
			return p.bind(c0.P, "a", Real, p.nodes.Plus(c0.P, a, b), false)
		case *OpApp:
			a := p.atom(c0.Arg)
			return p.bind(c0.P, "a", c0.Op.Cod, p.nodes.OpApp(c0.P, c0.Op, a), false)
		case *Pair:
			a, b := p.atom(c0.X), p.atom(c0.Y)
			u, s := c0.T, c0.U
			if u == nil || s == nil {
				u, s = p.atomType(a), p.atomType(b)
			}
			return p.nodes.Pair(c0.P, a, b, u, s)
		case *Fst:
			a, u, s := p.projected(c0.X, c0.T, c0.U)
			return p.bind(c0.P, "a", u, &Fst{P: c0.P, X: a, T: u, U: s}, false)
		case *Snd:
			a, u, s := p.projected(c0.X, c0.T, c0.U)
			return p.bind(c0.P, "a", s, &Snd{P: c0.P, X: a, T: u, U: s}, false)
		}
		p.fail(fmt.Errorf("%s is not a trace term", describe(c)))
	}
}

// let tapes the let name:s = bound in (the body is the caller's): the bindings that
// compute bound, and name in the scope for the atom of its value (s nil: the atom's
// type), which it returns, with bound's Depth if it has worked it out on the way (0
// if not). With restore, the binding of name it hides is recorded, as chain's.
func (p *taper) let(pos Pos, name string, s Type, bound Term, restore bool) (Term, int) {
	var a Term
	d := 0
	if p.depth == 0 { // the top of the chain: room for any depth below
		a, d = p.redexAtom(bound)
	}
	if a == nil {
		a = p.atom(bound)
	}
	return p.name(pos, name, s, a, restore), d
}

// name is the rest of let once the bound term's atom is a: name bound to it.
func (p *taper) name(pos Pos, name string, s Type, a Term, restore bool) Term {
	p.pin(a) // Figure 6 evaluates the bound term of every let
	if s == nil {
		s = p.atomType(a)
	}
	if _, ok := a.(*Pair); ok {
		// A copy: the pair atom is not duplicated at each use.
		a = p.bind(pos, name, s, a, true)
	}
	if restore {
		old, had := p.scope.Get(name)
		p.undo = append(p.undo, shadowed{name, old, had})
	}
	p.scope.Set(name, a)
	return a
}

// projected is the atom of a projection's argument d, and the component types U, S
// of its type (the projection's subscripts u, s if the checker filled them in).
func (p *taper) projected(d Term, u, s Type) (Term, Type, Type) {
	a := p.atom(d)
	if u == nil || s == nil {
		u, s = p.prodOf(a)
	}
	return a, u, s
}

// bind appends the binding of a fresh variable (built on base) to prim to the tape.
func (p *taper) bind(pos Pos, base string, t Type, prim Term, copy bool) *tref {
	v := p.newVar(pos, base, t)
	v.active = p.activeAtom(prim)
	b := p.binds.next()
	b.v, b.prim, b.copy = v, prim, copy
	return &v.self
}

// activeAtom reports whether an atom or a prim depends on x.
func (p *taper) activeAtom(t Term) bool {
	switch t := t.(type) {
	case *tref:
		return t.v.active
	case *Pair:
		return p.activeAtom(t.X) || p.activeAtom(t.Y)
	case *Plus:
		return p.activeAtom(t.X) || p.activeAtom(t.Y)
	case *OpApp:
		return p.activeAtom(t.Arg)
	case *Fst:
		return p.activeAtom(t.X)
	case *Snd:
		return p.activeAtom(t.X)
	}
	return false
}

// need marks the variables of an atom or a prim as needed by the derivative term.
func (p *taper) need(t Term) { p.mark(t, nil) }

// pin marks the variables of an atom or a prim as needed, for the evaluation of the
// bindings that compute them; x' is not marked (its value is there already).
func (p *taper) pin(t Term) { p.mark(t, p.x) }

func (p *taper) mark(t Term, except *tvar) {
	switch t := t.(type) {
	case *tref:
		if t.v != except {
			t.v.used = true
		}
	case *Pair:
		p.mark(t.X, except)
		p.mark(t.Y, except)
	case *Plus:
		p.mark(t.X, except)
		p.mark(t.Y, except)
	case *OpApp:
		p.mark(t.Arg, except)
	case *Fst:
		p.mark(t.X, except)
	case *Snd:
		p.mark(t.X, except)
	}
}

// decide chooses the bindings the forward pass evaluates (see Tape), from the last to
// the first: every inactive binding, and every active binding whose value is needed.
func (p *taper) decide() {
	for i := p.binds.len() - 1; i >= 0; i-- {
		b := p.binds.at(i)
		b.keep = !b.v.active || b.v.used
		switch m := b.prim.(type) {
		case *OpApp:
			if b.v.active {
				p.need(m.Arg) // op_r(<arg, ā>) in the backward pass
			}
		case *Fst, *Snd:
			p.pin(m) // Figure 6 evaluates the argument of a projection
		}
		if b.keep {
			p.need(b.prim)
		}
	}
}

// atomType is the type of an atom.
func (p *taper) atomType(a Term) Type {
	switch a := a.(type) {
	case *tref:
		return a.v.t
	case *Var:
		if p.outer != nil {
			if t, ok := p.outer(a.Name); ok {
				return t
			}
		}
		p.fail(fmt.Errorf("the type of %s is unknown", a.Name))
	case *RealLit:
		return Real
	case *UnitLit:
		return Unit
	case *Pair:
		if a.T != nil && a.U != nil {
			return Times(a.T, a.U)
		}
		return Times(p.atomType(a.X), p.atomType(a.Y))
	}
	p.fail(fmt.Errorf("%s is not an atom", describe(a)))
	return nil
}

// prodOf is the component types of an atom of a product type.
func (p *taper) prodOf(a Term) (Type, Type) {
	pr, ok := p.atomType(a).(*Prod)
	if !ok {
		p.fail(fmt.Errorf("%s is not a pair", Format(p.write(a))))
	}
	return pr.Fst, pr.Snd
}

// The backward pass.

// backward propagates the adjoint of an active binding to its operands.
func (p *taper) backward(b *tbinding) {
	has := b.v.adj != nil
	switch m := b.prim.(type) {
	case *Plus:
		if has {
			a := p.use(b.v)
			p.contribute(a, m.X)
			p.contribute(a, m.Y)
		}
	case *OpApp:
		// let g:S = op_r(<D, ā>) in ...: op_r(<D, W>) is the cotangent of the argument
		// (Figure 6's op clause). With no adjoint, ā = 0: see Tape for why op_r is
		// still evaluated; its result, 0, is not propagated.
		op := m.Op
		if op.Order() >= MaxOrder {
			p.fail(fmt.Errorf("rd nests too deeply around %s: operators are differentiated at most %d times", op.Name, MaxOrder))
		}
		var cot Term
		if has {
			cot = p.use(b.v)
		} else {
			cot = Zero(op.Cod)
		}
		arg, argD := b.arg, b.argD
		if arg == nil {
			arg = p.write(m.Arg)
			argD = Depth(arg)
		}
		g := p.names.Fresh("g")
		d := 2 + max(argD, Depth(cot)) // op_r(<arg, cot>)
		p.emitDepth(m.P, g, op.Dom, p.nodes.OpApp(m.P, op.R(), p.nodes.Pair(m.P, arg, cot, op.Dom, op.Cod)), 1, d)
		if has {
			p.contribute(p.nodes.Var(m.P, g), m.Arg)
		}
	case *Fst:
		// fst_{U,S}(D): D's adjoint grows by <ā, 0_S>.
		if has {
			p.contribute(&Pair{X: p.use(b.v), Y: p.zero(m.U), T: m.T, U: m.U}, m.X)
		}
	case *Snd:
		// snd_{U,S}(D): D's adjoint grows by <0_U, ā>.
		if has {
			p.contribute(&Pair{X: p.zero(m.T), Y: p.use(b.v), T: m.T, U: m.U}, m.X)
		}
	default: // a copy
		if has {
			p.contribute(p.use(b.v), m)
		}
	}
}

// use returns the adjoint of v as a value, binding it to a fresh variable first if it
// is a sum not yet bound.
func (p *taper) use(v *tvar) Term {
	if !v.pending {
		return v.adj
	}
	n := p.names.Fresh(BaseName(v.ref.Name) + "bar")
	p.emit(Pos{}, n, v.t, v.adj, 0) // the sum's redexes were counted when it was made
	v.adj, v.pending = &Var{Name: n}, false
	return v.adj
}

// contribute adds the cotangent cot (a value) to the adjoint of the atom a.
func (p *taper) contribute(cot Term, a Term) {
	p.depth++
	if p.depth > 2*MaxDepth {
		p.fail(&interderive.DepthError{What: "symbolic differentiation", Limit: 2 * MaxDepth})
	}
	p.contribute1(cot, a)
	p.depth--
}

func (p *taper) contribute1(cot Term, a Term) {
	if p.isZero(cot) || !p.activeAtom(a) {
		return // adding 0, or to a constant: nothing to do
	}
	switch a := a.(type) {
	case *tref:
		v := a.v
		if !hasReals(v.t) {
			return // its adjoint is 0_T whatever is added
		}
		if v.adj == nil {
			v.adj = cot
			return
		}
		old := p.use(v)
		if op, ok := old.(*Pair); ok {
			if cp, ok := cot.(*Pair); ok {
				v.adj = p.sumPairs(v.t.(*Prod), op, cp)
				return
			}
		}
		p.add(plusRedexes(v.t))
		v.adj, v.pending = PlusT(p.names, v.t, old, cot), true
	case *Pair:
		u, s := a.T, a.U
		if cp, ok := cot.(*Pair); ok {
			p.contribute(cp.X, a.X)
			p.contribute(cp.Y, a.Y)
			return
		}
		left, right := p.activeAtom(a.X) && hasReals(u), p.activeAtom(a.Y) && hasReals(s)
		if left && right {
			// let <y:U, z:S> = cot in ..., as Figure 6's pair clause: let c = cot in
			// let y = fst(c) in let z = snd(c) in ...
			c := p.names.Fresh("z")
			p.emit(Pos{}, c, Times(u, s), cot, 0)
			cot = &Var{Name: c}
		}
		if left {
			y := p.names.Fresh("y")
			f := p.fsts.New()
			f.X, f.T, f.U = cot, u, s
			p.emitDepth(Pos{}, y, u, f, 1, 1+Depth(cot))
			p.contribute(p.nodes.Var(Pos{}, y), a.X)
		}
		if right {
			z := p.names.Fresh("z")
			p.emit(Pos{}, z, s, &Snd{X: cot, T: u, U: s}, 1)
			p.contribute(&Var{Name: z}, a.Y)
		}
	}
}

// sumPairs is a +_T b for two pairs of values, componentwise at the meta level: a 0
// summand is left out (<ā, 0> +_T <0, b̄> = <ā, b̄>, as fst and snd contribute), and
// the other sums are bound to fresh variables, so that the result is a value.
func (p *taper) sumPairs(t *Prod, a, b *Pair) *Pair {
	sum := func(t Type, x, y Term) Term {
		switch {
		case p.isZero(x):
			return y
		case p.isZero(y):
			return x
		}
		if xp, ok := x.(*Pair); ok {
			if yp, ok := y.(*Pair); ok {
				return p.sumPairs(t.(*Prod), xp, yp)
			}
		}
		n := p.names.Fresh("s")
		p.emit(Pos{}, n, t, PlusT(p.names, t, x, y), plusRedexes(t))
		return &Var{Name: n}
	}
	return &Pair{X: sum(t.Fst, a.X, b.X), Y: sum(t.Snd, a.Y, b.Y), T: t.Fst, U: t.Snd}
}

// zero is 0_T, written by the backward pass: a summand it can leave out.
func (p *taper) zero(t Type) Term {
	z := Zero(t)
	p.zeros[z] = true
	return z
}

// isZero reports whether a cotangent is a 0_T the backward pass wrote (or a pair of
// them): adding it changes nothing. A 0 that W holds is added like any other number,
// so that the floating-point operations do not depend on how W is written (0 + -0 is
// 0, not -0).
func (p *taper) isZero(t Term) bool {
	if len(p.zeros) > 0 && p.zeros[t] {
		return true
	}
	if pr, ok := t.(*Pair); ok {
		return p.isZero(pr.X) && p.isZero(pr.Y)
	}
	return false
}

// hasReals reports whether a type has a real coordinate: the cotangents of the others
// are () and pairs of them.
func hasReals(t Type) bool {
	switch t := t.(type) {
	case *Prod:
		return hasReals(t.Fst) || hasReals(t.Snd)
	case Base:
		return t == Real
	}
	return false
}
