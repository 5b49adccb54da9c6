package abductive

import (
	"math"
	"sort"
	"strings"
)

// Store is σ: the value of each label, σ(ℓn) = Store[n-1]. Labels are given when a
// program is loaded and σ never changes: decoupling reads it, and so does the
// observation (direct mode, where {r} means r).
type Store []float64

// Sigma is the store of a program: the value r of each provisional constant {r},
// under the label Parse gave it.
func Sigma(e Expr) Store {
	var s Store
	for stack := []Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p, ok := e.(*Param); ok && p.Label > 0 {
			for len(s) < p.Label {
				s = append(s, 0)
			}
			s[p.Label-1] = p.R
		}
		stack = append(stack, Children(e)...)
	}
	return s
}

// Value is σ(ℓn); 0 for a label σ does not know (which a loaded program never has).
func (s Store) Value(n int) float64 {
	if n < 1 || n > len(s) {
		return 0
	}
	return s[n-1]
}

// Prim is δ on numbers: a op b in float64 (a division by 0 is an infinity or NaN, as
// IEEE 754 says).
func Prim(op Op, a, b float64) (float64, bool) {
	switch op {
	case OpAdd:
		return a + b, true
	case OpSub:
		return a - b, true
	case OpMul:
		return a * b, true
	case OpDiv:
		return a / b, true
	}
	return 0, false
}

// Arith is an operation of the field on two ground values: computed when neither
// has a label in it (two numbers), else the residual x op y (doc.go, "Ground values
// are residuals"). Its footprint is the union of theirs.
func Arith(p Pos, op Op, x, y Expr) Expr {
	foot := Union(FootprintOf(x), FootprintOf(y))
	a, ok1 := x.(*Num)
	b, ok2 := y.(*Num)
	if ok1 && ok2 {
		r, _ := Prim(op, a.V, b.V)
		return &Num{P: p, V: r, Foot: foot}
	}
	return &Resid{P: p, Op: op, X: x, Y: y, Foot: foot}
}

// Delta is δ, the operation op on the values x and y (doc.go, "delta"): the field's
// operations on ground values (Arith), + on two vectors and * of a ground value and
// a vector componentwise, and the dot product of two vectors, the sum from the left
// of the products of their components (0 for vectors of no component). The result's
// footprint is the union of the operands'. ok is false when the operands do not fit
// the operator (which the type system rules out).
func Delta(p Pos, op Op, x, y Expr) (Expr, bool) {
	vx, xvec := x.(*Vec)
	vy, yvec := y.(*Vec)
	switch {
	case !xvec && !yvec && IsGround(x) && IsGround(y) && op <= OpDiv:
		return Arith(p, op, x, y), true
	case xvec && yvec && len(vx.Elems) == len(vy.Elems) && (op == OpAdd || op == OpDot):
		foot := Union(vx.Foot, vy.Foot)
		if op == OpDot {
			var s Expr = &Num{P: p}
			for i := range vx.Elems {
				m := Arith(p, OpMul, vx.Elems[i], vy.Elems[i])
				if i == 0 {
					s = m
				} else {
					s = Arith(p, OpAdd, s, m)
				}
			}
			return WithFoot(s, foot), true
		}
		elems := make([]Expr, len(vx.Elems))
		for i := range elems {
			elems[i] = Arith(p, OpAdd, vx.Elems[i], vy.Elems[i])
		}
		return &Vec{P: p, Elems: elems, Foot: foot}, true
	case !xvec && yvec && IsGround(x) && op == OpMul:
		elems := make([]Expr, len(vy.Elems))
		for i := range elems {
			elems[i] = Arith(p, OpMul, x, vy.Elems[i])
		}
		return &Vec{P: p, Elems: elems, Foot: Union(FootprintOf(x), vy.Foot)}, true
	}
	return nil, false
}

// Basis is the k-th vector e_k of the standard basis of a space of n dimensions: 1 at
// k, 0 elsewhere, with no footprint.
func Basis(p Pos, k, n int) *Vec {
	elems := make([]Expr, n)
	for i := range elems {
		v := 0.0
		if i == k {
			v = 1
		}
		elems[i] = &Num{P: p, V: v}
	}
	return &Vec{P: p, Elems: elems}
}

// Iterate is one unfolding of the iterator g op[from] v0 (doc.go, "iterate"), op +L or
// *L, for the values g and v0 (a vector of n components): the fold of the basis
// vectors from e_from on,
//
//	g +L[k] v0  ->  g e_k + (g +L[k+1] v0)      (k < n)
//	g *L[k] v0  ->  g e_k * (g *L[k+1] v0)      (k < n)
//	g op[n] v0  ->  v0, with g's footprint added (an operation's result has its
//	                operands' footprints)
//
// so that g +L v0 = g e_0 + (g e_1 + (... + (g e_{n-1} + v0))) in n+1 unfoldings. ok is
// false when v0 is not a vector.
func Iterate(p Pos, op Op, from int, g, v0 Expr) (Expr, bool) {
	v, ok := v0.(*Vec)
	if !ok || !op.IsIterator() {
		return nil, false
	}
	n := len(v.Elems)
	if from >= n {
		return WithFoot(v, FootprintOf(g)), true
	}
	combine := OpAdd
	if op == OpIterMul {
		combine = OpMul
	}
	return &Binary{P: p, Op: combine,
		X: &App{P: p, Fun: g, Arg: Basis(p, from, n)},
		Y: &Binary{P: p, Op: op, X: g, Y: v0, From: from + 1}}, true
}

// Decouple is the decoupling of the model m, a value (doc.go, "Decoupling"): with
// ℓ_0 ... ℓ_{n-1} m's footprint in label order, the parameters p, the vector
// [σ(ℓ_0), ..., σ(ℓ_{n-1})] with that footprint, and the parameterised model f,
// \y:V. m[ℓ_i := y . e_i], which has no footprint (its application's result has its
// argument's). y is a name that occurs nowhere in m, so that nothing captures it.
func Decouple(p Pos, sigma Store, m Expr) (f *Lam, params *Vec) {
	foot := FootprintOf(m)
	n := len(foot)
	elems := make([]Expr, n)
	index := make(map[int]int, n)
	for i, l := range foot {
		elems[i] = &Num{P: p, V: sigma.Value(l)}
		index[l] = i
	}
	params = &Vec{P: p, Elems: elems, Foot: foot}
	y := FreshName("y", m)
	ls := labelSubst{p: p, index: index, y: y, n: n, done: map[Expr]Expr{}}
	return &Lam{P: p, Param: y, T: &VecType{}, Body: ls.expr(m)}, params
}

// labelSubst is m[ℓ_i := y . e_i] for every label of index: every label and every
// provisional constant of one of them becomes the projection y . e_i, a residual the
// operation it was the residual of, and every footprint is dropped (m's footprint is
// its labels', all replaced).
type labelSubst struct {
	p     Pos
	index map[int]int
	y     string
	n     int
	done  map[Expr]Expr // the functions substituted already: shared, not walked again
}

func (s labelSubst) project(l int) Expr {
	i, ok := s.index[l]
	if !ok {
		return nil
	}
	return &Binary{P: s.p, Op: OpDot, X: &Var{P: s.p, Name: s.y}, Y: Basis(s.p, i, s.n)}
}

func (s labelSubst) expr(e Expr) Expr {
	switch e := e.(type) {
	case *Num:
		if len(e.Foot) == 0 {
			return e
		}
		return &Num{P: e.P, V: e.V}
	case *Label:
		if x := s.project(e.N); x != nil {
			return x
		}
		return &Label{P: e.P, N: e.N, Foot: Single(e.N)}
	case *Param:
		if x := s.project(e.Label); x != nil {
			return x
		}
		return e
	case *Resid:
		return &Binary{P: e.P, Op: e.Op, X: s.expr(e.X), Y: s.expr(e.Y)}
	case *Vec:
		elems := make([]Expr, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = s.expr(x)
		}
		return &Vec{P: e.P, Elems: elems}
	case *Mark:
		return s.expr(e.Body)
	case *Lam:
		if d, ok := s.done[e]; ok {
			return d
		}
		d := &Lam{P: e.P, Param: e.Param, T: e.T, Body: s.expr(e.Body)}
		s.done[e] = d
		return d
	case *Abduct:
		if d, ok := s.done[e]; ok {
			return d
		}
		d := &Abduct{P: e.P, F: e.F, Par: e.Par, Body: s.expr(e.Body)}
		s.done[e] = d
		return d
	case *App:
		return &App{P: e.P, Fun: s.expr(e.Fun), Arg: s.expr(e.Arg), Sugar: e.Sugar}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: s.expr(e.X), Y: s.expr(e.Y), From: e.From}
	case *Let:
		return &Let{P: e.P, Name: e.Name, Bound: s.expr(e.Bound), Body: s.expr(e.Body)}
	}
	return e
}

// Subst is e[x := v] for a closed value v: since v has no free variables, no binder of
// e can capture it, and substitution stops only where x is rebound. It marks v, if it
// is a function, as closed, and goes into no function so marked, which has no free
// variable to substitute: a value a run substitutes is never walked again (the
// terms of a run share their subterms, which walking would unfold).
func Subst(e Expr, x string, v Expr) Expr {
	switch v := v.(type) {
	case *Lam:
		v.fn.closed.Store(true)
	case *Abduct:
		v.fn.closed.Store(true)
	}
	return subst(e, x, v)
}

func subst(e Expr, x string, v Expr) Expr {
	switch e := e.(type) {
	case *Var:
		if e.Name == x {
			return v
		}
		return e
	case *Lam:
		if e.Param == x || e.fn.closed.Load() {
			return e
		}
		return &Lam{P: e.P, Param: e.Param, T: e.T, Body: subst(e.Body, x, v), Foot: e.Foot}
	case *Abduct:
		if e.F == x || e.Par == x || e.fn.closed.Load() {
			return e
		}
		return &Abduct{P: e.P, F: e.F, Par: e.Par, Body: subst(e.Body, x, v), Foot: e.Foot}
	case *App:
		return &App{P: e.P, Fun: subst(e.Fun, x, v), Arg: subst(e.Arg, x, v), Sugar: e.Sugar}
	case *Binary:
		return &Binary{P: e.P, Op: e.Op, X: subst(e.X, x, v), Y: subst(e.Y, x, v), From: e.From}
	case *Let:
		body := e.Body
		if e.Name != x {
			body = subst(body, x, v)
		}
		return &Let{P: e.P, Name: e.Name, Bound: subst(e.Bound, x, v), Body: body}
	case *Vec:
		if IsValue(e) {
			return e
		}
		elems := make([]Expr, len(e.Elems))
		for i, y := range e.Elems {
			elems[i] = subst(y, x, v)
		}
		return &Vec{P: e.P, Elems: elems, Foot: e.Foot}
	case *Mark:
		return &Mark{P: e.P, Foot: e.Foot, Body: subst(e.Body, x, v)}
	}
	return e // Num, Param, Label, Resid: no variable in them
}

// FreshName is x followed by as many primes as it takes for a name that occurs
// nowhere in e, free or bound: renaming a variable to it captures nothing. (x itself
// if it occurs nowhere.) It walks each function of e once, however often e shares it.
func FreshName(x string, e Expr) string {
	used := map[string]bool{}
	seen := map[Expr]bool{} // the functions walked: a term shares its subterms
	for stack := []Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Var:
			used[e.Name] = true
		case *Lam:
			if seen[e] {
				continue
			}
			seen[e], used[e.Param] = true, true
		case *Abduct:
			if seen[e] {
				continue
			}
			seen[e], used[e.F], used[e.Par] = true, true, true
		case *Let:
			used[e.Name] = true
		}
		stack = append(stack, Children(e)...)
	}
	for used[x] {
		x += "'"
	}
	return x
}

// FreeVars is the set of the variables free in e. It walks e without recursion, but
// for the functions in it (and the bodies of its lets, as functions), whose free
// variables FunFreeVars computes once each: so that the free variables of all the
// functions of a program take time linear in it. A closed function (Subst was given
// it as a value) has none.
func FreeVars(e Expr) map[string]bool {
	e0 := e
	fv := map[string]bool{}
	bound := map[string]int{}
	type item struct {
		e      Expr
		unbind []string // after the item's subterms: leave the binders of these names
		leave  bool
	}
	stack := []item{{e: e}}
	under := func(body Expr, xs ...string) {
		for _, x := range xs {
			bound[x]++
		}
		stack = append(stack, item{unbind: xs, leave: true}, item{e: body})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.leave {
			for _, x := range it.unbind {
				bound[x]--
			}
			continue
		}
		switch e := it.e.(type) {
		case *Var:
			if bound[e.Name] == 0 {
				fv[e.Name] = true
			}
		case *Lam, *Abduct:
			if it.e != e0 { // a function inside: its own free variables, computed once
				for _, x := range FunFreeVars(e) {
					if bound[x] == 0 {
						fv[x] = true
					}
				}
				continue
			}
			if l, ok := e.(*Lam); ok {
				under(l.Body, l.Param)
			} else if a, ok := e.(*Abduct); ok {
				under(a.Body, a.F, a.Par)
			}
		case *Let:
			stack = append(stack, item{e: e.Bound})
			for _, x := range FunFreeVars(LetFunction(e)) { // its body, as a function
				if bound[x] == 0 {
					fv[x] = true
				}
			}
		default:
			for _, k := range Children(e) {
				stack = append(stack, item{e: k})
			}
		}
	}
	return fv
}

// LetFunction is the function \x. body a let x = v in body applies (its beta): the
// function whose footprint the contraction adds. It is built once per let node.
func LetFunction(l *Let) *Lam {
	if f := l.fun.Load(); f != nil {
		return f
	}
	l.fun.CompareAndSwap(nil, &Lam{P: l.P, Param: l.Name, T: Field, Body: l.Body})
	return l.fun.Load()
}

// FunFreeVars is the free variables of a function (a lambda or an abduct), sorted,
// computed once per node; nil for any other term.
func FunFreeVars(e Expr) []string {
	var c *funCache
	switch e := e.(type) {
	case *Lam:
		c = &e.fn
	case *Abduct:
		c = &e.fn
	default:
		return nil
	}
	if fv := c.free.Load(); fv != nil {
		return *fv
	}
	if c.closed.Load() {
		return nil
	}
	set := FreeVars(e)
	fv := make([]string, 0, len(set))
	for x := range set {
		fv = append(fv, x)
	}
	sort.Strings(fv)
	c.free.Store(&fv)
	return fv
}

// Ground is the number a ground value denotes under σ (direct mode: ℓn means σ(ℓn)),
// computed in the order of the residual's operations. It uses no recursion.
func Ground(sigma Store, v Expr) float64 {
	type item struct {
		e    Expr
		done bool // the operands are on the value stack
	}
	var vals []float64
	for stack := []item{{e: v}}; len(stack) > 0; {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := it.e.(type) {
		case *Num:
			vals = append(vals, e.V)
		case *Label:
			vals = append(vals, sigma.Value(e.N))
		case *Resid:
			if !it.done {
				stack = append(stack, item{e: e, done: true}, item{e: e.Y}, item{e: e.X})
				continue
			}
			a, b := vals[len(vals)-2], vals[len(vals)-1]
			r, _ := Prim(e.Op, a, b)
			vals = append(vals[:len(vals)-2], r)
		default:
			vals = append(vals, math.NaN())
		}
	}
	return vals[0]
}

// Answer is the outcome of a run: a value, and σ, under which it is observed.
type Answer struct {
	Value Expr
	Sigma Store
}

// Observe is what a run prints (doc.go, "Observation"): a ground value as the number
// it denotes under σ, a vector as [a, b, ...], a function as "function".
func (a Answer) Observe() string {
	switch v := a.Value.(type) {
	case *Num, *Label, *Resid:
		return FormatReal(Ground(a.Sigma, v))
	case *Vec:
		var b strings.Builder
		b.WriteByte('[')
		for i, x := range v.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(FormatReal(Ground(a.Sigma, x)))
		}
		b.WriteByte(']')
		return b.String()
	case *Lam, *Abduct:
		return "function"
	}
	return "?"
}

// String prints the answer's value in the syntax of terms at run time.
func (a Answer) String() string { return Format(a.Value) }

// Decoupling is what every stage reports of a decoupling (the report "decoupling"):
// the model's footprint, in label order, and σ of each of its labels — the
// parameters.
type Decoupling struct {
	Labels Footprint
	Values []float64
}

// DecouplingOf is the report of the decoupling whose parameters are params (as
// Decouple returns them).
func DecouplingOf(params *Vec) Decoupling {
	d := Decoupling{Labels: params.Foot, Values: make([]float64, len(params.Elems))}
	for i, x := range params.Elems {
		if n, ok := x.(*Num); ok {
			d.Values[i] = n.V
		}
	}
	return d
}

// Equal reports whether two reports are the same (numbers bit for bit).
func (d Decoupling) Equal(e Decoupling) bool {
	if !d.Labels.Equal(e.Labels) || len(d.Values) != len(e.Values) {
		return false
	}
	for i := range d.Values {
		if !sameReal(d.Values[i], e.Values[i]) {
			return false
		}
	}
	return true
}

// String prints the report: footprint {ℓ1, ℓ2}, σ: ℓ1 ↦ 2, ℓ2 ↦ 3.
func (d Decoupling) String() string {
	var b strings.Builder
	b.WriteString("footprint " + d.Labels.String() + ", σ:")
	if len(d.Labels) == 0 {
		b.WriteString(" (no parameter)")
	}
	for i, l := range d.Labels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(" " + LabelName(l) + " ↦ " + FormatReal(d.Values[i]))
	}
	return b.String()
}
