package handlers

import (
	"fmt"
	"sort"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// env is a typing environment Δ: the command variables in scope, innermost first.
type env struct {
	name string
	t    dpl.Type
	next *env
}

func (e *env) bind(x string, t dpl.Type) *env { return &env{name: x, t: t, next: e} }

// lookup is e as a dpl.TypeEnv.
func (e *env) lookup(x string) (dpl.Type, bool) {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e.t, true
		}
	}
	return nil, false
}

// envOf is the environment x1:T1, ..., xn:Tn.
func envOf(xs []string, ts []dpl.Type) *env {
	var e *env
	for i, x := range xs {
		e = e.bind(x, ts[i])
	}
	return e
}

func typeErr(p Pos, format string, args ...any) *interderive.Error {
	return interderive.Errorf(p, format, args...)
}

// Check type-checks a program by the rules of Figs. 2–3 with the decisions of spec §2,
// and elaborates it in place: it fills in the types of the terms' pairs and projections
// (dpl.CheckIn), of the command lets, of the handled variables, and of every handler
// (its handled type C and each clause's A, B and residual type D, the type of the
// second component of its Qf's result). It returns the program's type.
//
// Handlers are closed: a clause sees only its own binders; the body R of rev handle(M)
// <x1, ..., xn>. R sees only x1, ..., xn (Fig. 3: the outer Δ is dropped). A rev
// handle binding n variables has the type of its argument, A1 * ... * An (left-nested;
// A for n = 1). A handler need not mention every operation: the default clause
// (DefaultClause) forwards the others. Finally, every operation must be handled: the
// program may perform only the heap's get and put outside every handler that handles
// what it performs (Effects), so that a well-typed program never gets stuck.
//
// Errors are positioned (an interderive.ErrorList).
func Check(p *Program) (dpl.Type, error) {
	c := &checker{sigs: p.Signatures()}
	for _, h := range p.Heaps {
		init, t, err := dpl.CheckIn(nil, h.Init)
		if err != nil {
			return nil, err
		}
		if !dpl.Equal(t, h.T) {
			return nil, interderive.ErrorList{typeErr(h.P, "heap location %s is declared %s but its initial value has type %s", h.Name, h.T, t)}
		}
		h.Init = init
	}
	t, err := c.cmd(nil, p.Body)
	if err != nil {
		return nil, asList(err)
	}
	if err := CheckHandled(p); err != nil {
		return nil, err
	}
	return t, nil
}

// CheckCmd types a command (an RH included) whose free variables delta types, under
// the operations sigs: the stages' commands are checked with it (preservation).
func CheckCmd(sigs map[string]Signature, delta map[string]dpl.Type, c Cmd) (dpl.Type, error) {
	var e *env
	names := make([]string, 0, len(delta))
	for x := range delta {
		names = append(names, x)
	}
	sort.Strings(names)
	for _, x := range names {
		e = e.bind(x, delta[x])
	}
	t, err := (&checker{sigs: sigs, readonly: true}).cmd(e, c)
	if err != nil {
		return nil, asList(err)
	}
	return t, nil
}

func asList(err error) error {
	switch e := err.(type) {
	case *interderive.Error:
		return interderive.ErrorList{e}
	}
	return err
}

type checker struct {
	sigs map[string]Signature
	// readonly: check without elaborating (CheckCmd checks the commands of a run,
	// which share their nodes with the program and with each other).
	readonly bool
}

// term types a term under Δ and stores its elaboration.
func (c *checker) term(e *env, m *dpl.Term) (dpl.Type, error) {
	el, t, err := dpl.CheckIn(e.lookup, *m)
	if err != nil {
		return nil, err
	}
	if !c.readonly {
		*m = el
	}
	return t, nil
}

// Components splits the type of a tuple of n components, A1 * ... * An (left-nested:
// (A1 * A2) * A3), into its components; ok is false if t is not such a product.
func Components(t dpl.Type, n int) ([]dpl.Type, bool) {
	ts := make([]dpl.Type, n)
	for i := n - 1; i > 0; i-- {
		p, ok := t.(*dpl.Prod)
		if !ok {
			return nil, false
		}
		ts[i], t = p.Snd, p.Fst
	}
	ts[0] = t
	return ts, true
}

// TupleType is A1 * ... * An, left-nested (A1 for n = 1, unit for n = 0).
func TupleType(ts []dpl.Type) dpl.Type { return dpl.Iterated(ts) }

func (c *checker) cmd(e *env, p Cmd) (dpl.Type, error) {
	switch p := p.(type) {
	case *Pure:
		return c.term(e, &p.M)
	case *Perform:
		sig, ok := c.sigs[p.OpName()]
		if !ok {
			if p.Kind == UserOp {
				return nil, typeErr(p.P, "unknown operation %s (declare it: op %s : A -> B)", p.Name, p.Name)
			}
			return nil, typeErr(p.P, "unknown heap location %s (declare it: heap %s : T = V)", p.Name, p.Name)
		}
		t, err := c.term(e, &p.Arg)
		if err != nil {
			return nil, err
		}
		if !dpl.Equal(t, sig.Dom) {
			return nil, typeErr(p.Arg.Pos(), "%s takes %s, not %s", p.OpName(), sig.Dom, t)
		}
		return sig.Cod, nil
	case *Let:
		// Along the chain of lets, without recursion into the bodies.
		for {
			a, err := c.cmd(e, p.Bound)
			if err != nil {
				return nil, err
			}
			if p.T != nil && !dpl.Equal(p.T, a) {
				return nil, typeErr(p.P, "%s is declared %s but bound to a command of type %s", p.Name, p.T, a)
			}
			if !c.readonly {
				p.T = a
			}
			e = e.bind(p.Name, a)
			next, ok := p.Body.(*Let)
			if !ok {
				return c.cmd(e, p.Body)
			}
			p = next
		}
	case *Handle:
		t, err := c.term(e, &p.Arg)
		if err != nil {
			return nil, err
		}
		ts, ok := Components(t, len(p.Vars))
		if !ok {
			return nil, typeErr(p.Arg.Pos(), "rev handle binds %d variables, but its argument has type %s, not a product of %d components", len(p.Vars), t, len(p.Vars))
		}
		if !c.readonly {
			p.Types = ts
		}
		ct, err := c.cmd(envOf(p.Vars, ts), p.Body)
		if err != nil {
			return nil, err
		}
		if err := c.handler(p.H, ct); err != nil {
			return nil, err
		}
		return t, nil
	case *RH:
		if len(p.Vals) != len(p.Vars) || len(p.Types) != len(p.Vars) {
			return nil, typeErr(p.P, "RH with %d values for %d variables", len(p.Vals), len(p.Vars))
		}
		for i := range p.Vals {
			t, err := c.term(e, &p.Vals[i])
			if err != nil {
				return nil, err
			}
			if !dpl.Equal(t, p.Types[i]) {
				return nil, typeErr(p.P, "RH: value %d has type %s, not %s", i+1, t, p.Types[i])
			}
		}
		ct, err := c.cmd(envOf(p.Vars, p.Types), p.Body)
		if err != nil {
			return nil, err
		}
		if p.H.C != nil && !dpl.Equal(ct, p.H.C) {
			return nil, typeErr(p.P, "RH: the body has type %s but the handler handles %s", ct, p.H.C)
		}
		return TupleType(p.Types), nil
	}
	return nil, fmt.Errorf("handlers: unknown command %T", p)
}

// handler checks h : rev handler(C) (T-RHANDLER), with closed clauses.
func (c *checker) handler(h *Handler, ct dpl.Type) error {
	rt, err := c.cmd((*env)(nil).bind(h.RetVar, ct), h.Ret)
	if err != nil {
		return err
	}
	if !dpl.Equal(rt, ct) {
		return typeErr(h.Ret.Pos(), "the return clause has type %s, but the handled command has type %s (they must be equal)", rt, ct)
	}
	if c.readonly {
		return nil // checked when the program was
	}
	h.C = ct
	for _, cl := range h.Clauses {
		sig, ok := c.sigs[cl.Op]
		if !ok || sig.Kind != UserOp {
			return typeErr(cl.P, "the handler has a clause for %s, which is not a declared operation", cl.Op)
		}
		cl.A, cl.B = sig.Dom, sig.Cod
		ft, err := c.cmd((*env)(nil).bind(cl.X, sig.Dom), cl.Fwd)
		if err != nil {
			return err
		}
		pt, ok := ft.(*dpl.Prod)
		if !ok || !dpl.Equal(pt.Fst, sig.Cod) {
			return typeErr(cl.Fwd.Pos(), "the forward clause of %s : %s -> %s has type %s, not %s * D", cl.Op, sig.Dom, sig.Cod, ft, sig.Cod)
		}
		cl.D = pt.Snd
		bt, err := c.cmd((*env)(nil).bind(cl.Y, sig.Cod).bind(cl.Z, cl.D), cl.Bwd)
		if err != nil {
			return err
		}
		if !dpl.Equal(bt, sig.Dom) {
			return typeErr(cl.Bwd.Pos(), "the backward clause of %s : %s -> %s has type %s, not %s", cl.Op, sig.Dom, sig.Cod, bt, sig.Dom)
		}
	}
	return nil
}
