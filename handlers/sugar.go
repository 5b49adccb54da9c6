package handlers

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// The operators the language adds to the differentiable language's (spec §1): the
// logistic function and swish, with their reverse derivatives, which take <point,
// cotangent> as every op_r does:
//
//	sigm(M)    = inv(1 + exp(neg(M)))
//	swish(M)   = let s = M in s * sigm(s)
//	sigm_r(M)  = let p = M in let s = sigm(fst(p)) in snd(p) * (s * (1 + neg(s)))
//	swish_r(M) = let p = M in let s = sigm(fst(p)) in snd(p) * (s + fst(p) * (s * (1 + neg(s))))
//
// (s, p fresh). They are defined by these expansions over the shared operators, which
// the parser makes, so that every stage and R see only the differentiable language's
// operators; sigm_r(<v, u>) = u · σ(v)(1 − σ(v)) and swish_r(<v, u>) = u · (σ(v) +
// v · σ(v)(1 − σ(v))), the derivative of spec §3's erratum.
const (
	OpSigm   = "sigm"
	OpSwish  = "swish"
	OpSigmR  = "sigm_r"
	OpSwishR = "swish_r"
)

func shared(name string) *dpl.Operator {
	op, ok := dpl.LookupOperator(name)
	if !ok {
		panic("handlers: the differentiable language has no operator " + name)
	}
	return op
}

// Sigm is sigm(m): inv(1 + exp(neg(m))).
func Sigm(pos Pos, m dpl.Term) dpl.Term {
	return &dpl.OpApp{P: pos, Op: shared("inv"), Arg: &dpl.Plus{P: pos, X: &dpl.RealLit{P: pos, R: 1},
		Y: &dpl.OpApp{P: pos, Op: shared("exp"), Arg: &dpl.OpApp{P: pos, Op: shared("neg"), Arg: m}}}}
}

func mul(pos Pos, a, b dpl.Term) dpl.Term {
	return &dpl.OpApp{P: pos, Op: shared("mul"), Arg: &dpl.Pair{P: pos, X: a, Y: b}}
}

// sigmPrime is s * (1 + neg(s)) for the variable s = σ(v): σ'(v).
func sigmPrime(pos Pos, s string) dpl.Term {
	return mul(pos, &dpl.Var{P: pos, Name: s}, &dpl.Plus{P: pos, X: &dpl.RealLit{P: pos, R: 1},
		Y: &dpl.OpApp{P: pos, Op: shared("neg"), Arg: &dpl.Var{P: pos, Name: s}}})
}

// expand is the expansion of name(m) for one of the added operators.
func expand(pos Pos, name string, m dpl.Term, names *dpl.Names) dpl.Term {
	v := func(x string) dpl.Term { return &dpl.Var{P: pos, Name: x} }
	switch name {
	case OpSigm:
		return Sigm(pos, m)
	case OpSwish:
		s := names.Fresh("s")
		return &dpl.Let{P: pos, Name: s, T: dpl.Real, Bound: m, Body: mul(pos, v(s), Sigm(pos, v(s)))}
	case OpSigmR, OpSwishR:
		p, s := names.Fresh("p"), names.Fresh("s")
		pt := dpl.Times(dpl.Real, dpl.Real)
		point := &dpl.Fst{P: pos, X: v(p), T: dpl.Real, U: dpl.Real}
		cot := &dpl.Snd{P: pos, X: v(p), T: dpl.Real, U: dpl.Real}
		d := sigmPrime(pos, s)
		if name == OpSwishR {
			d = &dpl.Plus{P: pos, X: v(s), Y: mul(pos, &dpl.Fst{P: pos, X: v(p), T: dpl.Real, U: dpl.Real}, d)}
		}
		return &dpl.Let{P: pos, Name: p, T: pt, Bound: m,
			Body: &dpl.Let{P: pos, Name: s, T: dpl.Real, Bound: Sigm(pos, point), Body: mul(pos, cot, d)}}
	}
	return nil
}

// desugar moves the positions of a term parsed on its own to where it stands in the
// program (shift), expands the added operators, and refuses the forms of the
// differentiable language that this language does not have (spec §1: if, letrec,
// predicates, calls). It changes the freshly parsed tree in place.
func desugar(t dpl.Term, shift func(Pos) Pos, names *dpl.Names) (dpl.Term, *interderive.Error) {
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
			pos := shift(n.P)
			arg := walk(n.Arg)
			if e := expand(pos, n.Name, arg, names); e != nil {
				return e
			}
			bad = errAt(pos, "unknown operator %s (this language has no functions)", n.Name)
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
