// Package dplval holds the run-time values and environments of the environment-based
// stages of the differentiable language (closures, machine, cps2, interp): a value as
// a layer sees it, the value environment ρ and the function environment φ of Figures
// 2–5, and function closures. It is data only: no evaluator lives here (as internal/values/castval for
// the cast calculus).
package dplval

import (
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/names"
)

// Value is a value of the stages. Term is the value V as the current layer sees it: in
// a symbolic layer its symbolic variables stay names (it is what goes into a trace);
// Val is ρ(V), closed. In an ordinary layer the two are the same closed value.
type Value struct {
	Term dpl.Term
	Val  dpl.Term
}

// Closed makes the value of a closed term.
func Closed(v dpl.Term) Value { return Value{Term: v, Val: v} }

// Pair is the value <a, b> of type t * u: closed if a and b are, else the pair of
// their terms (made by nodes: it goes into a trace) with the pair of their values.
func Pair(nodes *dpl.Nodes, p dpl.Pos, a, b Value, t, u dpl.Type) Value {
	val := &dpl.Pair{P: p, X: a.Val, Y: b.Val, T: t, U: u}
	if a.Term == a.Val && b.Term == b.Val {
		return Closed(val)
	}
	return Value{Term: nodes.Pair(p, a.Term, b.Term, t, u), Val: val}
}

// Env is a value environment ρ: a persistent list mapping variables to closed values.
// Sym marks the variables bound by a symbolic layer, which its traces keep as names;
// the others are bound by ordinary evaluation, and a trace holds their value.
//
// The list alone is ρ: Bind never changes a cell's binding, and Lookup answers what a
// scan of the list from the cell answers. A scan costs the distance to the binding,
// and the bindings a tape's backward pass reads lie far back in a long let-chain, so
// Lookup scans only a few cells (scanBound); past them it consults an index of the
// chain (envIndex), built at the first long scan and extended lazily, which answers in
// constant time (amortized) whenever the stages use environments last-in-first-out,
// as they do: short-lived environments (a call starts from nil.Bind(param)) never
// build one. The index is a cache: it is kept in unexported fields of the cells and
// decides nothing the list does not (see envIndex for the invariant). Lookup updates
// it, so an Env is not safe for concurrent use (a run uses its environments in one
// goroutine).
type Env struct {
	Name string
	Val  dpl.Term
	Next *Env

	idx   *envIndex // the index this cell belongs to, or nil (none built yet)
	same  *Env      // in idx's stack of Name's key, the cell below this one
	level int32     // the number of cells below this one (Next's level + 1; 0 at the bottom)
	Sym   bool      // (see above; next to level, so that a cell takes 64 bytes, not 80)
}

// scanBound is how many cells Lookup scans before it turns to the index.
const scanBound = 16

// envIndex indexes the cells of one tree of Envs (the lists that share a bottom cell;
// the first cell of a tree to need an index makes it, and the others adopt it):
// spine[i] is the cell at level i of the list last looked up, and top(x) is the top of
// the stack of the cells put on the spine whose names have x's key (the name itself,
// or for a fresh name its number: see dpl.FreshNumber), linked through their same
// fields by strictly decreasing level.
//
// Invariant: if spine[c.level] == c for a cell c, then spine[0..c.level] are the cells
// of c's list, bottom to top (spine[i].Next == spine[i-1], since a cell's level is one
// more than its Next's and cells are compared by identity); such a cell is on the
// spine. Every cell on the spine is in the stack of its name's key. A cell in a stack
// that is no longer on the spine (the spine was cut below it and grown again by other
// cells) is stale: lookups skip it, and pushing a cell at level l first pops the
// entries of its key at levels ≥ l, all stale (the spine is l long at that moment), so
// a cell that comes back on the spine is never in a stack when its same field is set.
// So the innermost binding of x in the list of a cell e on the spine is the entry
// named x of highest level ≤ e.level on the spine in the stack of x's key, if any.
type envIndex struct {
	spine []*Env
	names map[string]*Env // the stacks of the other names
	slots dpl.FreshSlots  // the slots of fresh names in fresh
	fresh []*Env          // the stacks of fresh names base#k (dpl.Names), by slot
}

// The stacks of fresh names — every binding of a derivative term or a trace, and so
// every binding a long chain holds — are kept in a slice by the names' numbers,
// counted from the first number the index met (numbers grow through a run), rather
// than in the map: no hashing on the tape's hot path. Two supplies may number two
// names alike (a#5 and s#5): a stack holds the cells of every name with its key, and
// lookups skip the cells of other names. Numbers below the first, or maxFreshKeys past
// it, go to the map.

// maxFreshKeys bounds the slice.
const maxFreshKeys = 1 << 24

// slot is the index in fresh of x's stack, or -1 if x's stack is in the map.
func (ix *envIndex) slot(x string) int { return ix.slots.Slot(x, maxFreshKeys) }

// top is the top of the stack of x's key.
func (ix *envIndex) top(x string) *Env {
	if i := ix.slot(x); i >= 0 {
		if i < len(ix.fresh) {
			return ix.fresh[i]
		}
		return nil
	}
	return ix.names[x]
}

// setTop makes c the top of the stack of its name's key.
func (ix *envIndex) setTop(c *Env) {
	if i := ix.slot(c.Name); i >= 0 {
		if i >= len(ix.fresh) {
			// At least double when moving: the numbers of a long chain arrive in
			// increasing order, and append's growth by a quarter would copy over and
			// over.
			if i >= cap(ix.fresh) {
				bigger := make([]*Env, len(ix.fresh), max(i+1, 2*cap(ix.fresh), 16))
				copy(bigger, ix.fresh)
				ix.fresh = bigger
			}
			ix.fresh = ix.fresh[:i+1]
		}
		ix.fresh[i] = c
		return
	}
	if ix.names == nil {
		ix.names = map[string]*Env{}
	}
	ix.names[c.Name] = c
}

// Bind is ρ[v/x].
func (e *Env) Bind(x string, v dpl.Term, sym bool) *Env {
	if e == nil {
		return &Env{Name: x, Val: v, Sym: sym}
	}
	return &Env{Name: x, Val: v, Sym: sym, Next: e, level: e.level + 1, idx: e.idx}
}

// Lookup finds the innermost binding of x.
func (e *Env) Lookup(x string) (*Env, bool) {
	c := e
	for i := 0; c != nil; c, i = c.Next, i+1 {
		if i == scanBound {
			return e.lookupIndexed(x)
		}
		if names.Same(c.Name, x) {
			return c, true
		}
	}
	return nil, false
}

// lookupIndexed is Lookup through the index of e's tree (made, adopted or extended
// first, so that e is on its spine).
func (e *Env) lookupIndexed(x string) (*Env, bool) {
	ix := e.idx
	if ix == nil {
		// The index of the tree, if a cell below has one.
		for c := e.Next; c != nil && ix == nil; c = c.Next {
			ix = c.idx
		}
		if ix == nil {
			ix = &envIndex{}
		}
	}
	ix.extend(e)
	for c := ix.top(x); c != nil; c = c.same {
		if c.level <= e.level && ix.spine[c.level] == c && names.Same(c.Name, x) {
			return c, true
		}
	}
	return nil, false
}

// onSpine reports whether c is on the spine.
func (ix *envIndex) onSpine(c *Env) bool {
	return int(c.level) < len(ix.spine) && ix.spine[c.level] == c
}

// extend puts e on the spine: it finds the highest cell of e's list already on the
// spine (or the bottom), cuts the spine above it, and grows it by the cells from there
// up to e, which join the index, bottom first.
func (ix *envIndex) extend(e *Env) {
	if ix.onSpine(e) {
		return
	}
	c := e
	for c != nil && !ix.onSpine(c) {
		c = c.Next
	}
	keep := 0
	if c != nil {
		keep = int(c.level) + 1
	}
	clear(ix.spine[keep:]) // let the cells cut off be collected
	need := int(e.level) + 1
	if need > cap(ix.spine) {
		// At least double: a long chain's spine grows by a few cells at a time, and
		// append's growth by a quarter would copy it over and over.
		bigger := make([]*Env, keep, max(need, 2*cap(ix.spine)))
		copy(bigger, ix.spine)
		ix.spine = bigger
	}
	ix.spine = ix.spine[:need]
	for d := e; d != c; d = d.Next {
		ix.spine[d.level] = d
	}
	for _, d := range ix.spine[keep:] {
		top := ix.top(d.Name)
		for top != nil && top.level >= d.level {
			top = top.same // stale: the spine was d.level long when d joined
		}
		d.same, d.idx = top, ix
		ix.setTop(d)
	}
}

// BindValue extends ρ with the variables of the value v as it stands in a trace, each
// bound (symbolic) to the part of ρ(v) it stands for, so that a trace built from v can
// be evaluated.
func (e *Env) BindValue(v Value) *Env { return bindMatching(e, v.Term, v.Val) }

func bindMatching(e *Env, t, val dpl.Term) *Env {
	if t == val {
		return e // a closed value
	}
	switch t := t.(type) {
	case *dpl.Var:
		return e.Bind(t.Name, val, true)
	case *dpl.Pair:
		if p, ok := val.(*dpl.Pair); ok {
			return bindMatching(bindMatching(e, t.X, p.X), t.Y, p.Y)
		}
	}
	return e
}

// Funs is a function environment φ: a persistent list mapping function variables to
// closures.
type Funs struct {
	Name string
	Clo  *Closure
	Next *Funs
}

// Bind is φ[clo/f].
func (p *Funs) Bind(f string, clo *Closure) *Funs {
	return &Funs{Name: f, Clo: clo, Next: p}
}

// Lookup finds the closure of f.
func (p *Funs) Lookup(f string) (*Closure, bool) {
	for ; p != nil; p = p.Next {
		if p.Name == f {
			return p.Clo, true
		}
	}
	return nil, false
}

// Types types the free variables of the terms an rd hands to R (dpl.DiffEnv.Types):
// by their values in ρ, else by those of the fresh variables of Figure 5 in fresh
// (nil: none).
func Types(rho *Env, fresh *dpl.NameMap[dpl.Term]) dpl.TypeEnv {
	return func(y string) (dpl.Type, bool) {
		if e, ok := rho.Lookup(y); ok {
			return dpl.TypeOfValue(e.Val)
		}
		if v, ok := fresh.Get(y); ok {
			return dpl.TypeOfValue(v)
		}
		return nil, false
	}
}

// Called is φ(f) for the call c of f. A call already resolved (c.Clo, set by
// dpl.SubstClosure: a program built from the reference semantics' intermediate terms)
// carries its closure, whose body's other calls are resolved in turn: its φ is ε.
func (p *Funs) Called(c *dpl.Call) (*Closure, bool) {
	if k := c.Clo; k != nil {
		return &Closure{Name: k.Name, Param: k.Param, ParamT: k.ParamT, ResT: k.ResT, Body: k.Body}, true
	}
	return p.Lookup(c.Name)
}

// Closure is clo_φ(f(x:T):U. M): the function's body M has no free ordinary variable
// but x, and its free function variables other than f are resolved in Phi.
type Closure struct {
	Name, Param  string
	ParamT, ResT dpl.Type
	Body         dpl.Term
	Phi          *Funs
}

// Tape is the trace a symbolic layer has built so far (the machine's layers and the
// CPS evaluator's meta-continuations keep one): Lets, the let-chain let x1:T1 = C1 in
// ... whose body is still to come (each let's body nil until Finish); and Fresh, the
// values of the fresh variables of Figure 5 it binds, which occur in values and
// traces, never in the program, so that no environment of the program binds them. The
// values of the other bindings (a let's variable, a call's parameter) are in the
// environment ρ the layer goes on under, marked symbolic. A layer that evaluates a
// trace (C ⇒ V) has no lets and shares the Fresh of the layer whose trace it is. (A
// NameMap rather than a Go map: a long trace binds hundreds of thousands, by number.)
type Tape struct {
	Lets  []*dpl.Let
	Fresh *dpl.NameMap[dpl.Term]
}

// BindFresh is the end of Figure 5 once C ⇒ V, for the run r: the tape grows by
// let x:T_V = C, x fresh (dpl.Run.BindFresh), whose value Fresh records; it returns
// x ▷ V, what the redex leaves in its context.
func (t *Tape) BindFresh(r *dpl.Run, p dpl.Pos, c, v dpl.Term) Value {
	x := r.BindFresh(&t.Lets, p, c, v)
	if t.Fresh == nil {
		t.Fresh = &dpl.NameMap[dpl.Term]{}
	}
	t.Fresh.Set(x.Name, v)
	return Value{Term: x, Val: v}
}

// Finish is the trace of a layer whose tape this is and whose last body is tail: let
// x1:T1 = C1 in ... in tail (dpl.LetChain).
func (t *Tape) Finish(tail dpl.Term) (dpl.Term, error) { return dpl.LetChain(t.Lets, tail) }
