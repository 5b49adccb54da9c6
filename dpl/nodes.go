package dpl

import "github.com/interderive/interderive/internal/slab"

// Nodes makes the nodes of the terms built at run time — the lets of a trace, the
// variables that stand for their values, the primitives and pairs the trace holds,
// and the same in a derivative (Tape's R) — from slabs (internal/slab), so that they
// lie in memory in the order they are made, which is the order R and then the stages
// walk them: a trace of a long loop is walked without a cache miss per node. The zero
// Nodes is ready to use; a run of a stage has its own.
type Nodes struct {
	lets   slab.Slab[Let]
	vars   slab.Slab[Var]
	pairs  slab.Slab[Pair]
	ops    slab.Slab[OpApp]
	pluses slab.Slab[Plus]
}

// Let is let name:t = bound in (its body left to the caller).
func (n *Nodes) Let(p Pos, name string, t Type, bound Term) *Let {
	l := n.lets.New()
	l.P, l.Name, l.T, l.Bound = p, name, t, bound
	return l
}

// Var is the variable name.
func (n *Nodes) Var(p Pos, name string) *Var {
	v := n.vars.New()
	v.P, v.Name = p, name
	return v
}

// Pair is <x, y> of type t * u.
func (n *Nodes) Pair(p Pos, x, y Term, t, u Type) *Pair {
	q := n.pairs.New()
	q.P, q.X, q.Y, q.T, q.U = p, x, y, t, u
	return q
}

// OpApp is op(arg).
func (n *Nodes) OpApp(p Pos, op *Operator, arg Term) *OpApp {
	o := n.ops.New()
	o.P, o.Op, o.Arg = p, op, arg
	return o
}

// Plus is x + y.
func (n *Nodes) Plus(p Pos, x, y Term) *Plus {
	s := n.pluses.New()
	s.P, s.X, s.Y = p, x, y
	return s
}
