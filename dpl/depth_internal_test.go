package dpl

import "testing"

// TestShallowDepth checks the depth R works out for the terms it binds against the
// definition (a leaf 1, any other node 1 + its deepest child), counted by hand, and
// against Depth; past its budget of levels it falls back on Depth.
func TestShallowDepth(t *testing.T) {
	x, one := &Var{Name: "x"}, &RealLit{R: 1}
	mul, _ := LookupOperator("mul")
	deep := Term(one) // <<...<1, ()>...>, ()>: 40 pairs
	for range 40 {
		deep = &Pair{X: deep, Y: &UnitLit{}}
	}
	for _, tc := range []struct {
		name string
		m    Term
		want int
	}{
		{"a variable", x, 1},
		{"a constant", one, 1},
		{"a pair of atoms", &Pair{X: x, Y: one}, 2},
		{"an operator on a pair", &OpApp{Op: mul, Arg: &Pair{X: x, Y: one}}, 3},
		{"fst of nested pairs", &Fst{X: &Pair{X: &Pair{X: x, Y: one}, Y: x}}, 4},
		{"a sum of a sum", &Plus{X: &Plus{X: x, Y: one}, Y: x}, 3},
		{"40 nested pairs", deep, 41},
	} {
		if got := shallowDepth(tc.m); got != tc.want || got != Depth(tc.m) {
			t.Errorf("%s: shallowDepth = %d, want %d (Depth: %d)", tc.name, got, tc.want, Depth(tc.m))
		}
	}
}
