package handlers

import (
	"github.com/interderive/interderive/dpl"
)

// Derivative is the contractum of W.rd[V](x:T. N) (Def. 5.4): W.R_V(x:T. N), by the
// strategy ad (dpl.Differentiator, shared with the differentiable language). N is any
// term of the language: Fig. 6's last clause, W.R_V(x. M.rd[L](y. N')) =
// W.R_V(x. let z = M in let w = L in z.R_w(y. N')), first removes the rds nested in
// N, innermost first (ElimRd), so that R sees a trace term. steps is the run's
// contractions so far and budget its fuel left (≤ 0: none), as dpl.Derive takes them.
func Derivative(ad dpl.Differentiator, w, v dpl.Term, x string, t dpl.Type, n dpl.Term, steps, budget int) (dpl.Term, error) {
	names := dpl.NewNames(w, v, n)
	types := func(string) (dpl.Type, bool) { return nil, false }
	if hasRd(n) {
		var err error
		if n, err = ElimRd(ad, names, (*env)(nil).bind(x, t), n); err != nil {
			return nil, err
		}
	}
	return dpl.Derive(ad, dpl.DiffEnv{Types: types, Names: names, Budget: budget}, steps, w, v, x, t, n)
}

// hasRd reports whether t holds an rd.
func hasRd(t dpl.Term) bool {
	for stack := []dpl.Term{t}; len(stack) > 0; {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, ok := t.(*dpl.Rd); ok {
			return true
		}
		stack = dpl.AppendChildren(stack, t)
	}
	return false
}

// ElimRd replaces every rd of t, innermost first, by Fig. 6's last clause:
// M.rd[L](y:S. N) becomes let z = M in let w = L in z.R_w(y:S. N) (z, w fresh from
// names), for the free variables of t typed by e.
func ElimRd(ad dpl.Differentiator, names *dpl.Names, e *env, t dpl.Term) (dpl.Term, error) {
	switch n := t.(type) {
	case *dpl.Rd:
		cot, err := ElimRd(ad, names, e, n.Cotangent)
		if err != nil {
			return nil, err
		}
		pt, err := ElimRd(ad, names, e, n.Point)
		if err != nil {
			return nil, err
		}
		inner := e.bind(n.Param, n.T)
		body, err := ElimRd(ad, names, inner, n.Body)
		if err != nil {
			return nil, err
		}
		_, u, err := dpl.CheckIn(inner.lookup, body)
		if err != nil {
			return nil, err
		}
		z, w := names.Fresh("z"), names.Fresh("w")
		scope := e.bind(z, u).bind(w, n.T)
		der, err := ad.R(dpl.DiffEnv{Types: scope.lookup, Names: names}, &dpl.Var{Name: z}, &dpl.Var{Name: w}, n.Param, n.T, body)
		if err != nil {
			return nil, err
		}
		return &dpl.Let{P: n.P, Name: z, T: u, Bound: cot, Body: &dpl.Let{P: n.P, Name: w, T: n.T, Bound: pt, Body: der}}, nil
	case *dpl.Let:
		bound, err := ElimRd(ad, names, e, n.Bound)
		if err != nil {
			return nil, err
		}
		_, bt, err := dpl.CheckIn(e.lookup, bound)
		if err != nil {
			return nil, err
		}
		body, err := ElimRd(ad, names, e.bind(n.Name, bt), n.Body)
		if err != nil {
			return nil, err
		}
		return &dpl.Let{P: n.P, Name: n.Name, T: bt, Bound: bound, Body: body}, nil
	case *dpl.Plus:
		x, err := ElimRd(ad, names, e, n.X)
		if err != nil {
			return nil, err
		}
		y, err := ElimRd(ad, names, e, n.Y)
		if err != nil {
			return nil, err
		}
		return &dpl.Plus{P: n.P, X: x, Y: y}, nil
	case *dpl.Pair:
		x, err := ElimRd(ad, names, e, n.X)
		if err != nil {
			return nil, err
		}
		y, err := ElimRd(ad, names, e, n.Y)
		if err != nil {
			return nil, err
		}
		return &dpl.Pair{P: n.P, X: x, Y: y, T: n.T, U: n.U}, nil
	case *dpl.OpApp:
		a, err := ElimRd(ad, names, e, n.Arg)
		if err != nil {
			return nil, err
		}
		return &dpl.OpApp{P: n.P, Op: n.Op, Arg: a}, nil
	case *dpl.Fst:
		a, err := ElimRd(ad, names, e, n.X)
		if err != nil {
			return nil, err
		}
		return &dpl.Fst{P: n.P, X: a, T: n.T, U: n.U}, nil
	case *dpl.Snd:
		a, err := ElimRd(ad, names, e, n.X)
		if err != nil {
			return nil, err
		}
		return &dpl.Snd{P: n.P, X: a, T: n.T, U: n.U}, nil
	}
	return t, nil
}
