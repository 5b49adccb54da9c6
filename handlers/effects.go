package handlers

import (
	"sort"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// DefaultClause is the clause a handler has for an operation Op : A -> B that it does
// not mention (spec §2):
//
//	Op(x) -> let y <= Op(x) in [<y, 0_B>] | y, z -> [0_A]
//
// It forwards Op to the enclosing handler, or to the heap, and contributes no
// gradient. Its residual type D is B.
func DefaultClause(sig Signature) *Clause {
	const x, y, z = "x", "y", "z"
	op := OpName(sig.Kind, sig.Name)
	return &Clause{Op: op, X: x, Y: y, Z: z, A: sig.Dom, B: sig.Cod, D: sig.Cod,
		Fwd: &Let{Name: y, T: sig.Cod,
			Bound: &Perform{Kind: sig.Kind, Name: sig.Name, Arg: &dpl.Var{Name: x}},
			Body:  &Pure{M: &dpl.Pair{X: &dpl.Var{Name: y}, Y: dpl.Zero(sig.Cod), T: sig.Cod, U: sig.Cod}}},
		Bwd: &Pure{M: dpl.Zero(sig.Dom)}}
}

// ClauseFor is h's clause for the operation sig, or its default clause.
func (h *Handler) ClauseFor(sig Signature) *Clause {
	if c := h.Clause(OpName(sig.Kind, sig.Name)); c != nil {
		return c
	}
	return DefaultClause(sig)
}

// Effects is the set of operations a command may perform that no handler inside it
// handles, each with the position of a command that performs it: for rev handle(M)
// <x>. R with H, the operations of H's return clause, and for each operation R
// performs, those of H's clauses for it (the operation itself when H does not mention
// it: its default clause forwards it).
func Effects(c Cmd) map[string]Pos {
	eff := map[string]Pos{}
	effects(c, eff)
	return eff
}

func effects(c Cmd, eff map[string]Pos) {
	add := func(op string, p Pos) {
		if _, ok := eff[op]; !ok {
			eff[op] = p
		}
	}
	switch c := c.(type) {
	case *Perform:
		add(c.OpName(), c.P)
	case *Let:
		for l := c; ; {
			effects(l.Bound, eff)
			next, ok := l.Body.(*Let)
			if !ok {
				effects(l.Body, eff)
				return
			}
			l = next
		}
	case *Handle:
		handled(c.Body, c.H, eff)
	case *RH:
		handled(c.Body, c.H, eff)
	}
}

// handled adds the effects of body handled by h.
func handled(body Cmd, h *Handler, eff map[string]Pos) {
	effects(h.Ret, eff)
	inner := Effects(body)
	for op, p := range inner {
		cl := h.Clause(op)
		if cl == nil {
			if _, ok := eff[op]; !ok {
				eff[op] = p
			}
			continue
		}
		effects(cl.Fwd, eff)
		effects(cl.Bwd, eff)
	}
}

// CheckHandled refuses a program that may perform an operation other than the heap's
// get and put outside every handler that handles it: nothing gives such an operation a
// meaning, and its run would get stuck.
func CheckHandled(p *Program) error {
	var errs interderive.ErrorList
	for op, pos := range Effects(p.Body) {
		if sig, ok := p.Signatures()[op]; ok && sig.Kind != UserOp {
			continue
		}
		errs.Add(pos, "operation "+op+" is performed outside every handler that handles it")
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Msg < errs[j].Msg })
	errs.Sort()
	return errs.Err()
}
