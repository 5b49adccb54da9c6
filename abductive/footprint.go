package abductive

import (
	"strconv"
	"strings"
)

// Footprint is a set of labels, sorted and without repeats (doc.go, "Footprints").
// The empty footprint is nil. Footprints are never changed in place: Union makes a
// new one when it must.
type Footprint []int

// Single is the footprint {ℓn}.
func Single(n int) Footprint { return Footprint{n} }

// Union is a ∪ b.
func Union(a, b Footprint) Footprint {
	switch {
	case len(b) == 0:
		return a
	case len(a) == 0:
		return b
	}
	u := make(Footprint, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			u = append(u, a[i])
			i++
		case a[i] > b[j]:
			u = append(u, b[j])
			j++
		default:
			u = append(u, a[i])
			i, j = i+1, j+1
		}
	}
	u = append(u, a[i:]...)
	u = append(u, b[j:]...)
	if len(u) == len(a) {
		return a // b ⊆ a: share a
	}
	return u
}

// Has reports whether ℓn is in f.
func (f Footprint) Has(n int) bool {
	for _, m := range f {
		if m == n {
			return true
		}
	}
	return false
}

// Equal reports whether f and g are the same set.
func (f Footprint) Equal(g Footprint) bool {
	if len(f) != len(g) {
		return false
	}
	for i := range f {
		if f[i] != g[i] {
			return false
		}
	}
	return true
}

// String prints f as {ℓ1, ℓ3}.
func (f Footprint) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range f {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(LabelName(n))
	}
	b.WriteByte('}')
	return b.String()
}

// LabelName is how the label n prints: ℓn.
func LabelName(n int) string { return "ℓ" + strconv.Itoa(n) }

// FootprintOf is the footprint of a value v: for a ground value or a vector, the one it
// carries; for a lambda or an abduct, the one it carries (added by a run) and the
// labels of its body — those of its provisional constants and the footprints of the
// values a run substituted into it (the values it captures). It walks the body without
// recursion.
func FootprintOf(v Expr) Footprint {
	switch v := v.(type) {
	case *Num:
		return v.Foot
	case *Label:
		return v.Foot
	case *Resid:
		return v.Foot
	case *Vec:
		return v.Foot
	case *Lam:
		return funFootprint(&v.fn, v.Foot, v.Body)
	case *Abduct:
		return funFootprint(&v.fn, v.Foot, v.Body)
	}
	return labelsIn(v)
}

// funFootprint is a function's footprint, foot and its body's labels, computed once.
func funFootprint(c *funCache, foot Footprint, body Expr) Footprint {
	if f := c.foot.Load(); f != nil {
		return *f
	}
	f := Union(foot, labelsIn(body))
	c.foot.Store(&f)
	return f
}

// labelsIn is the union of the labels of e's provisional constants and labels and
// the footprints e's values and marks carry. It walks e without recursion, but for
// the functions in it (and the bodies of its lets, as functions), whose footprints
// FootprintOf computes once each: so that the footprints of all the functions of a
// program take time linear in it.
func labelsIn(e Expr) Footprint {
	var f Footprint
	for stack := []Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Param:
			f = Union(f, Single(e.Label))
		case *Num:
			f = Union(f, e.Foot)
		case *Label:
			f = Union(f, e.Foot)
		case *Resid:
			f = Union(f, e.Foot)
		case *Vec:
			f = Union(f, e.Foot)
		case *Lam, *Abduct:
			f = Union(f, FootprintOf(e)) // computed once per function, not walked again
			continue
		case *Let: // its body as the function it is, computed once
			f = Union(f, FootprintOf(LetFunction(e)))
			stack = append(stack, e.Bound)
			continue
		case *Mark:
			f = Union(f, e.Foot)
		}
		stack = append(stack, Children(e)...)
	}
	return f
}

// WithFoot is the value v with the footprint add added to its own (v itself when add
// adds nothing).
func WithFoot(v Expr, add Footprint) Expr {
	if len(add) == 0 {
		return v
	}
	switch v := v.(type) {
	case *Num:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Num{P: v.P, V: v.V, Foot: u}
		}
	case *Label:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Label{P: v.P, N: v.N, Foot: u}
		}
	case *Resid:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Resid{P: v.P, Op: v.Op, X: v.X, Y: v.Y, Foot: u}
		}
	case *Vec:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Vec{P: v.P, Elems: v.Elems, Foot: u}
		}
	case *Lam:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Lam{P: v.P, Param: v.Param, T: v.T, Body: v.Body, Foot: u}
		}
	case *Abduct:
		if u := Union(v.Foot, add); len(u) != len(v.Foot) {
			return &Abduct{P: v.P, F: v.F, Par: v.Par, Body: v.Body, Foot: u}
		}
	}
	return v
}
