package handlers

import (
	"fmt"

	"github.com/interderive/interderive/dpl"
)

// The clauses of Fig. 7 (spec §3), shared by every stage: RH_H^V(<y1, ..., ym>. P) is
// an administrative command, contracted one clause at a time by the shape of its body
// (Lemma 5.6). The body is F^c[X], F^c the lets along the bound positions (Spine) and
// X the command at its hole:
//
//	rh/ret   X = [y_k], F^c empty
//	         RH^V(<y>. [y_k]) = let r <= P[V_k/x] in [<0, ..., r, ..., 0>]
//	rh/var   X = [y_j], F^c = F'^c[let x <= [] in R]
//	         RH^V(<y>. F'^c[let x <= [y_j] in R]) = RH^V(<y>. F'^c[R[y_j/x]])
//	rh/op    X = Op(y_i)
//	         let <b, d> <= Qf[V_i/x] in
//	         let t <= RH^{<b, V_L>}(<b, y_L>. F^c[[b]]) in
//	         let b' <= [proj_0(t)] in let a <= Qb[b'/y, d/z] in
//	         [let <_, y'_L> = t in <g_1, ..., g_i + a, ..., g_m>]
//	rh/nest  X = rev handle(y_j) <z>. R with H'
//	         RH^V(<y>. F^c[RH_{H'}^{y_j}(<z>. R)])
//	rh/pure  X = F^t[M] for [M], Op(M), rev handle(M), M not a variable
//	         let u <= [M[V/y]] in
//	         let t <= RH^{<u, V_L>}(<u, y_L>. F^c[X[u/M]]) in
//	         [let <w, y'_L> = t in <g_1 + w.rd[V_1](y_1. M[V_others/y_others]), ...>]
//
// where L is the variables y_j that the inner RH's body mentions (its live ones), V_L
// and y_L theirs, g_j = y'_j for a live y_j and 0 for the others (y'_j + 0 is y'_j, 0 + a
// is a); with every introduced name fresh, + at the components' types (dpl.PlusT), the
// command let-tuple <b, d> expanded as Def. 3.4 does (LetTuple) and the term
// let-tuples as the differentiable language expands them (dpl.LetTuple). When X is
// itself an RH (after rh/nest), the inner RH contracts first: RH is not a redex then
// (RHShape says so). In rh/nest, when the nested handle binds l ≥ 2 variables, V's
// components are the projections of y_j (fst and snd of it), which the contractions
// substitute as they substitute values: a variable's components are not values (the
// paper leaves it open).
//
// Three decisions keep the cost of Fig. 7 in check; none changes an answer (the
// gradients they leave out are 0):
//
//   - The tuple <y', y'_1, ..., y'_m> that Fig. 7 binds after the inner RH is bound
//     as one variable t and taken apart in the final term, rather than by Def. 3.4's
//     m + 2 command lets. An enclosing RH contracts each command let of its body by
//     rh/pure and rh/var, adding a handled variable each time: with Def. 3.4's
//     expansion, every clause of an inner RH with m variables gave the enclosing one
//     m + 2 more, so that the variables, and the size of every pending tuple, grew as
//     the square of the inner ones at each level of nesting (doubly exponential in the
//     nesting of rev handle: three nested handles with a heap reached 230 variables,
//     2.4 million nodes and out of memory). Bound once, they add a constant number.
//   - The inner RH handles only the variables its body mentions: Fig. 7 passes every
//     y_j on, so that an RH carries every variable handled so far and each clause
//     rebuilds the tuple of all their gradients, and a chain of n operations cost
//     about 2.5 n² contractions (14 n now).
//   - rh/pure makes an rd only for the y_i that M mentions: for the others the rd is
//     0 (Fig. 6's R of a term without its variable).

// Spine splits a command into its F^c — the lets along the bound positions, outermost
// first — and the command X at the hole.
func Spine(c Cmd) (lets []*Let, x Cmd) {
	for {
		l, ok := c.(*Let)
		if !ok {
			return lets, c
		}
		lets = append(lets, l)
		c = l.Bound
	}
}

// PlugSpine is F^c[x] for the spine lets (copied: the lets are not changed).
func PlugSpine(lets []*Let, x Cmd) Cmd {
	for i := len(lets) - 1; i >= 0; i-- {
		l := lets[i]
		x = &Let{P: l.P, Name: l.Name, T: l.T, Bound: x, Body: l.Body}
	}
	return x
}

// RHShape is the clause of Fig. 7 an RH contracts by, "" when its body's hole holds
// an RH (which contracts first), with the spine of its body and the command at the
// hole.
func RHShape(rh *RH) (rule string, lets []*Let, x Cmd) {
	lets, x = Spine(rh.Body)
	switch x := x.(type) {
	case *Pure:
		if _, ok := x.M.(*dpl.Var); ok {
			if len(lets) == 0 {
				return RuleRHRet, lets, x
			}
			return RuleRHVar, lets, x
		}
	case *Perform:
		if _, ok := x.Arg.(*dpl.Var); ok {
			return RuleRHOp, lets, x
		}
	case *Handle:
		if _, ok := x.Arg.(*dpl.Var); ok {
			return RuleRHNest, lets, x
		}
	case *RH:
		return "", lets, x
	}
	return RuleRHPure, lets, x
}

// RHEnv is what contracting an RH needs besides the RH: the program's operations and a
// supply of fresh names (fresh for every name the run has met).
type RHEnv struct {
	Sigs  map[string]Signature
	Names *dpl.Names
}

// index is the position of the variable x among rh's variables.
func (rh *RH) index(x string) (int, error) {
	for i, y := range rh.Vars {
		if y == x {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s is not a variable of %s", x, FormatCmd(rh))
}

// ContractRH contracts rh by the clause rule (RHShape's, not ""), with lets and x its
// body's spine and hole: the command it stands for. An error is a stuck state.
func ContractRH(env RHEnv, rh *RH, rule string, lets []*Let, x Cmd) (Cmd, error) {
	switch rule {
	case RuleRHRet:
		return env.ret(rh, x.(*Pure).M.(*dpl.Var).Name)
	case RuleRHVar:
		l := lets[len(lets)-1]
		body := Subst(l.Body, l.Name, x.(*Pure).M, env.Names)
		return &RH{P: rh.P, H: rh.H, Vals: rh.Vals, Vars: rh.Vars, Types: rh.Types, Body: PlugSpine(lets[:len(lets)-1], body)}, nil
	case RuleRHOp:
		return env.op(rh, lets, x.(*Perform))
	case RuleRHNest:
		h := x.(*Handle)
		return &RH{P: rh.P, H: rh.H, Vals: rh.Vals, Vars: rh.Vars, Types: rh.Types,
			Body: PlugSpine(lets, &RH{P: h.P, H: h.H, Vals: typedProjections(h.Arg, h.Types), Vars: h.Vars, Types: h.Types, Body: h.Body})}, nil
	case RuleRHPure:
		return env.pure(rh, lets, x)
	}
	return nil, fmt.Errorf("RH: no clause of Fig. 7 for %s", FormatCmd(rh))
}

// Projections are the n components of the tuple term v (left-nested): v itself for
// n = 1, the components for a tuple value, the projections fst and snd of it
// otherwise.
func Projections(v dpl.Term, n int) []dpl.Term {
	out := make([]dpl.Term, n)
	for i := n - 1; i > 0; i-- {
		if p, ok := v.(*dpl.Pair); ok {
			out[i], v = p.Y, p.X
			continue
		}
		out[i] = &dpl.Snd{P: v.Pos(), X: v}
		v = &dpl.Fst{P: v.Pos(), X: v}
	}
	out[0] = v
	return out
}

func v(name string) *dpl.Var { return &dpl.Var{Name: name} }

// tuple is the left-nested tuple of ms with its type subscripts.
func tuple(ms []dpl.Term, ts []dpl.Type) dpl.Term {
	t, ty := ms[0], ts[0]
	for i := 1; i < len(ms); i++ {
		t = &dpl.Pair{X: t, Y: ms[i], T: ty, U: ts[i]}
		ty = dpl.Times(ty, ts[i])
	}
	return t
}

// LetTuple is let <x1, ..., xn> <= P in Q as Def. 3.4 expands it: let z <= P in let x1
// <= [proj1(z)] in ... in Q, z fresh, for the left-nested tuple type of ts.
func LetTuple(names *dpl.Names, xs []string, ts []dpl.Type, p, q Cmd) Cmd {
	if len(xs) == 1 {
		return &Let{Name: xs[0], T: ts[0], Bound: p, Body: q}
	}
	z := names.Fresh("z")
	projs := typedProjections(v(z), ts)
	body := q
	for i := len(xs) - 1; i >= 0; i-- {
		body = &Let{Name: xs[i], T: ts[i], Bound: &Pure{M: projs[i]}, Body: body}
	}
	return &Let{Name: z, T: TupleType(ts), Bound: p, Body: body}
}

func (env RHEnv) ret(rh *RH, y string) (Cmd, error) {
	k, err := rh.index(y)
	if err != nil {
		return nil, err
	}
	r := env.Names.Fresh("r")
	ws := make([]dpl.Term, len(rh.Vars))
	for i, t := range rh.Types {
		ws[i] = dpl.Zero(t)
	}
	ws[k] = v(r)
	return &Let{P: rh.P, Name: r, T: rh.Types[k], Bound: Subst(rh.H.Ret, rh.H.RetVar, rh.Vals[k], env.Names),
		Body: &Pure{P: rh.P, M: tuple(ws, rh.Types)}}, nil
}

func (env RHEnv) op(rh *RH, lets []*Let, x *Perform) (Cmd, error) {
	i, err := rh.index(x.Arg.(*dpl.Var).Name)
	if err != nil {
		return nil, err
	}
	sig, ok := env.Sigs[x.OpName()]
	if !ok {
		return nil, fmt.Errorf("unknown operation %s", x.OpName())
	}
	cl := rh.H.ClauseFor(sig)
	n := env.Names
	b, d, b2, a := n.Fresh("b"), n.Fresh("d"), n.Fresh("b"), n.Fresh("a")
	cont := PlugSpine(lets, &Pure{P: x.P, M: &dpl.Var{P: x.P, Name: b}})
	inner, ys := rh.inner(n, b, v(b), sig.Cod, cont)
	qb := Subst(Subst(cl.Bwd, cl.Y, v(b2), n), cl.Z, v(d), n)
	out := make([]dpl.Term, len(ys))
	for j := range ys {
		out[j] = dpl.Zero(rh.Types[j])
		if ys[j] != "" {
			out[j] = v(ys[j])
		}
	}
	out[i] = v(a)
	if ys[i] != "" {
		out[i] = dpl.PlusT(n, rh.Types[i], v(ys[i]), v(a))
	}
	t := n.Fresh("t")
	return LetTuple(n, []string{b, d}, []dpl.Type{sig.Cod, cl.D}, Subst(cl.Fwd, cl.X, rh.Vals[i], n),
		&Let{P: rh.P, Name: t, T: TupleType(inner.Types), Bound: inner,
			Body: &Let{P: rh.P, Name: b2, T: sig.Cod, Bound: &Pure{P: rh.P, M: typedProjections(v(t), inner.Types)[0]},
				Body: &Let{Name: a, T: sig.Dom, Bound: qb,
					Body: &Pure{P: rh.P, M: untuple(n, t, "", inner, ys, tuple(out, rh.Types))}}}}), nil
}

// inner is the RH that rh/op and rh/pure make for the continuation cont, whose hole
// holds the new variable b of type bt, at the value bv: RH^{<bv, V_live>}(<b,
// y_live>. cont), over the variables of rh that cont mentions (the others' gradient
// is 0: the paper's RH carries them all, and rebuilds the tuple of their gradients at
// every clause, so that a chain of n operations cost n² contractions). ys names, for
// each variable of rh, its gradient in the inner RH's tuple: fresh for the live
// ones, "" for the others.
func (rh *RH) inner(n *dpl.Names, b string, bv dpl.Term, bt dpl.Type, cont Cmd) (*RH, []string) {
	fv := FreeVarsCmd(cont)
	in := &RH{P: rh.P, H: rh.H, Vals: []dpl.Term{bv}, Vars: []string{b}, Types: []dpl.Type{bt}, Body: cont}
	ys := make([]string, len(rh.Vars))
	for j, y := range rh.Vars {
		if fv[y] {
			ys[j] = n.Fresh(y)
			in.Vals, in.Vars, in.Types = append(in.Vals, rh.Vals[j]), append(in.Vars, y), append(in.Types, rh.Types[j])
		}
	}
	return in, ys
}

// untuple is let <first, y'_live...> = t in m at the term level (dpl.LetTuple: a chain
// of term lets, linear in the tuple's size), for t the tuple the inner RH returns: its
// first component bound to first (a fresh name when first is ""), the others to the
// names ys gives the live variables. When the tuple has one component, it is
// let first = t in m, or m alone when first is "".
func untuple(n *dpl.Names, t, first string, inner *RH, ys []string, m dpl.Term) dpl.Term {
	if len(inner.Vars) == 1 {
		if first == "" {
			return m
		}
		return &dpl.Let{Name: first, T: inner.Types[0], Bound: v(t), Body: m}
	}
	if first == "" {
		first = n.Fresh("w")
	}
	names := []string{first}
	for _, y := range ys {
		if y != "" {
			names = append(names, y)
		}
	}
	return dpl.LetTuple(Pos{}, n, names, inner.Types, v(t), m)
}

func (env RHEnv) pure(rh *RH, lets []*Let, x Cmd) (Cmd, error) {
	n := env.Names
	u, w := n.Fresh("u"), n.Fresh("w")
	var m dpl.Term
	var hole Cmd
	uv := &dpl.Var{P: x.Pos(), Name: u}
	switch x := x.(type) {
	case *Pure:
		m, hole = x.M, &Pure{P: x.P, M: uv}
	case *Perform:
		m, hole = x.Arg, &Perform{P: x.P, Kind: x.Kind, Name: x.Name, Arg: uv}
	case *Handle:
		m, hole = x.Arg, &Handle{P: x.P, Arg: uv, Vars: x.Vars, Types: x.Types, Body: x.Body, H: x.H}
	default:
		return nil, fmt.Errorf("RH: no clause of Fig. 7 for %s", FormatCmd(rh))
	}
	gamma := envOf(rh.Vars, rh.Types)
	_, mt, err := dpl.CheckIn(gamma.lookup, m)
	if err != nil {
		return nil, fmt.Errorf("RH: %s: %v", dpl.Format(m), err)
	}
	// M[V/y], and for each i, M with every V_j but V_i substituted (simultaneously:
	// a V_j may mention an outer variable named like one of the y).
	fv := dpl.FreeVars(m)
	all := substAll(m, fv, rh.Vars, rh.Vals, -1, n)
	inner, ys := rh.inner(n, u, v(u), mt, PlugSpine(lets, hole))
	out := make([]dpl.Term, len(ys))
	for i, yi := range rh.Vars {
		var grad dpl.Term // y'_i, when y_i is live
		if ys[i] != "" {
			grad = v(ys[i])
		}
		if fv[yi] {
			// M's gradient for y_i; none when M does not mention y_i (its rd is 0:
			// Fig. 6's R of a term without the variable).
			p := n.Fresh(yi)
			mi := substAll(dpl.Subst(m, yi, v(p)), fv, rh.Vars, rh.Vals, i, n)
			rd := &dpl.Rd{Cotangent: v(w), Point: rh.Vals[i], Param: p, T: rh.Types[i], Body: mi}
			if grad == nil {
				grad = rd
			} else {
				grad = dpl.PlusT(n, rh.Types[i], grad, rd)
			}
		}
		if grad == nil {
			grad = dpl.Zero(rh.Types[i])
		}
		out[i] = grad
	}
	t := n.Fresh("t")
	return &Let{P: x.Pos(), Name: u, T: mt, Bound: &Pure{P: x.Pos(), M: all},
		Body: &Let{P: rh.P, Name: t, T: TupleType(inner.Types), Bound: inner,
			Body: &Pure{P: rh.P, M: untuple(n, t, w, inner, ys, tuple(out, rh.Types))}}}, nil
}

// substAll is the simultaneous substitution m[V_j/y_j] for every j but skip: each y_j
// free in m (fv, m's free variables) is first renamed to a fresh name, so that a V_j
// that mentions a variable named like a y_k is not substituted into.
func substAll(m dpl.Term, fv map[string]bool, ys []string, vals []dpl.Term, skip int, names *dpl.Names) dpl.Term {
	fresh := make([]string, len(ys))
	for j, y := range ys {
		if j != skip && fv[y] {
			fresh[j] = names.Fresh(y)
			m = dpl.Subst(m, y, v(fresh[j]))
		}
	}
	for j, f := range fresh {
		if f != "" {
			m = dpl.Subst(m, f, vals[j])
		}
	}
	return m
}

// typedProjections is Projections with the projections' type subscripts, for a tuple
// of the left-nested tuple type of ts: linear in the number of components (the
// prefixes' types are built once, and the projections share their paths).
func typedProjections(t dpl.Term, ts []dpl.Type) []dpl.Term {
	k := len(ts) - 1
	out := make([]dpl.Term, len(ts))
	if k == 0 {
		out[0] = t
		return out
	}
	inits := make([]dpl.Type, k+1) // inits[i] = T0 * ... * T(i-1), for i ≥ 1
	inits[1] = ts[0]
	for i := 2; i <= k; i++ {
		inits[i] = dpl.Times(inits[i-1], ts[i-1])
	}
	for i := k; i >= 1; i-- {
		if p, ok := t.(*dpl.Pair); ok {
			out[i], t = p.Y, p.X
			continue
		}
		out[i] = &dpl.Snd{P: t.Pos(), X: t, T: inits[i], U: ts[i]}
		t = &dpl.Fst{P: t.Pos(), X: t, T: inits[i], U: ts[i]}
	}
	out[0] = t
	return out
}
