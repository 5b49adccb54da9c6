package handlers

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// The operators sigm (the logistic function) and swish (x · sigm(x)) that spec §1
// adds are the differentiable language's (dpl.LookupOperator), with their reverse
// derivatives sigm_r and swish_r, which take <point, cotangent> as every op_r does:
// sigm_r(<v, u>) = u · σ(v)(1 − σ(v)) and swish_r(<v, u>) = u · (σ(v) + v · σ(v)(1 −
// σ(v))), the derivative of spec §3's erratum.

// desugar moves the positions of a term parsed on its own to where it stands in the
// program (shift) and refuses the forms of the differentiable language that this
// language does not have (spec §1: if, letrec, predicates, calls). It changes the
// freshly parsed tree in place.
func desugar(t dpl.Term, shift func(Pos) Pos) (dpl.Term, *interderive.Error) {
	var bad *interderive.Error
	var walk func(t dpl.Term) dpl.Term
	walk = func(t dpl.Term) dpl.Term {
		if bad != nil {
			return t
		}
		switch n := t.(type) {
		case *dpl.Var:
			n.P = shift(n.P)
		case *dpl.RealLit:
			n.P = shift(n.P)
		case *dpl.UnitLit:
			n.P = shift(n.P)
		case *dpl.Plus:
			n.P = shift(n.P)
			n.X, n.Y = walk(n.X), walk(n.Y)
		case *dpl.OpApp:
			n.P = shift(n.P)
			n.Arg = walk(n.Arg)
		case *dpl.Let:
			// Along the chain of lets, without recursion.
			for l := n; ; {
				l.P = shift(l.P)
				l.Bound = walk(l.Bound)
				next, ok := l.Body.(*dpl.Let)
				if !ok {
					l.Body = walk(l.Body)
					break
				}
				l = next
			}
		case *dpl.Pair:
			n.P = shift(n.P)
			n.X, n.Y = walk(n.X), walk(n.Y)
		case *dpl.Fst:
			n.P = shift(n.P)
			n.X = walk(n.X)
		case *dpl.Snd:
			n.P = shift(n.P)
			n.X = walk(n.X)
		case *dpl.Rd:
			n.P = shift(n.P)
			n.Cotangent, n.Point, n.Body = walk(n.Cotangent), walk(n.Point), walk(n.Body)
		case *dpl.Fd:
			n.P = shift(n.P)
			n.Cotangent, n.Point, n.Body = walk(n.Cotangent), walk(n.Point), walk(n.Body)
		case *dpl.Call:
			bad = errAt(shift(n.P), "unknown operator %s (this language has no functions)", n.Name)
		case *dpl.If:
			bad = errAt(shift(n.P), "if is not a term of this language (spec §1)")
		case *dpl.Letrec:
			bad = errAt(shift(n.P), "letrec is not a term of this language (spec §1)")
		case *dpl.PredApp:
			bad = errAt(shift(n.P), "predicates are not terms of this language (spec §1)")
		case *dpl.BoolLit:
			bad = errAt(shift(n.P), "booleans are not terms of this language (spec §1)")
		}
		return t
	}
	t = walk(t)
	return t, bad
}
