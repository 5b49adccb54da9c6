package handlers

import (
	"fmt"

	"github.com/interderive/interderive/dpl"
)

// The paper defines RH statically (Def. 5.7): RH_H^V(<y>. P) is a command, made by
// recursion on P by the clauses of Fig. 7, the inner RH of rh/nest expanded before the
// outer one. The stages contract it one clause at a time, interleaved with the run
// (spec §3); Elaborate is the paper's translation, a meta-level function that no stage
// calls, by which a property checks that the two agree.

// Elaborate is the program p with every rev handle translated away: each rev
// handle(M) <x>. R with H becomes let v <= [M] in RH_H^v(<x>. R) (v fresh; the
// components of v its projections), and every RH is expanded by the clauses of Fig. 7
// (ContractRH) until none is left. The result has the commands [M], Op(M), get, put and
// let only, and runs to the answer of p. limit bounds the size of the result
// (Size): past it, Elaborate fails.
func Elaborate(p *Program, limit int) (*Program, error) {
	names := &dpl.Names{}
	ReserveNames(names, p)
	e := &elaborator{env: RHEnv{Sigs: p.Signatures(), Names: names}, limit: limit}
	body, err := e.cmd(p.Body)
	if err != nil {
		return nil, err
	}
	return &Program{Ops: p.Ops, Heaps: p.Heaps, Body: body}, nil
}

type elaborator struct {
	env   RHEnv
	limit int
	steps int
}

// cmd elaborates the rev handles and RHs of c.
func (e *elaborator) cmd(c Cmd) (Cmd, error) {
	switch c := c.(type) {
	case *Let:
		bound, err := e.cmd(c.Bound)
		if err != nil {
			return nil, err
		}
		body, err := e.cmd(c.Body)
		if err != nil {
			return nil, err
		}
		return &Let{P: c.P, Name: c.Name, T: c.T, Bound: bound, Body: body}, nil
	case *Handle:
		v := e.env.Names.Fresh("v")
		rh := &RH{P: c.P, H: c.H, Vals: typedProjections(&dpl.Var{P: c.P, Name: v}, c.Types), Vars: c.Vars, Types: c.Types, Body: c.Body}
		x, err := e.rh(rh)
		if err != nil {
			return nil, err
		}
		return &Let{P: c.P, Name: v, T: TupleType(c.Types), Bound: &Pure{P: c.P, M: c.Arg}, Body: x}, nil
	case *RH:
		return e.rh(c)
	}
	return c, nil
}

// rh expands an RH by the clauses of Fig. 7: an inner RH at the hole first, then the
// clause of its body's shape, then whatever RHs the contractum holds.
func (e *elaborator) rh(rh *RH) (Cmd, error) {
	e.steps++
	if e.steps > e.limit || Size(rh) > e.limit {
		return nil, fmt.Errorf("the elaboration passes %d nodes or steps", e.limit)
	}
	rule, lets, x := RHShape(rh)
	if rule == "" {
		inner, err := e.rh(x.(*RH))
		if err != nil {
			return nil, err
		}
		return e.rh(&RH{P: rh.P, H: rh.H, Vals: rh.Vals, Vars: rh.Vars, Types: rh.Types, Body: PlugSpine(lets, inner)})
	}
	c, err := ContractRH(e.env, rh, rule, lets, x)
	if err != nil {
		return nil, err
	}
	return e.cmd(c)
}
