package castval

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
)

// TestReadBackDeep: a closure over a closure over ... a million deep (10^5 under -short) —
// what a loop that wraps a function a million times builds — reads back without recursion:
// clo(0) = \x:Int. x, clo(i) = \y:Int. f y with f ↦ clo(i-1), which reads back as
// \y:Int. (clo(i-1)'s read-back) y, 2i + 2 deep (a lambda and an application a level).
func TestReadBackDeep(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		// 10^5 levels already exercise the iterative read-back; the full run covers a
		// million.
		n = 100_000
	}
	wrap := &g.Lam{Param: "y", T: g.Int, Body: &g.App{Fun: &g.Var{Name: "f"}, Arg: &g.Var{Name: "y"}}}
	clo := NewClosure(&g.Lam{Param: "x", T: g.Int, Body: &g.Var{Name: "x"}}, nil)
	for range n {
		clo = NewClosure(wrap, (*Env)(nil).Bind("f", clo))
	}
	e := ReadBack(clo)
	if d := g.Depth(e); d != 2*n+2 {
		t.Errorf("the read-back is %d deep, want %d", d, 2*n+2)
	}
	if _, ok := e.(*g.Lam); !ok {
		t.Errorf("the read-back is a %T, want a lambda", e)
	}
}

// TestReadBackFreeVariables: a closure reads back with the bindings of its free
// variables only. Each of 64 closures holds the ones before it in its environment,
// and uses none: reading back every binding, as σ once did, takes 2^64 steps.
func TestReadBackFreeVariables(t *testing.T) {
	id := &g.Lam{Param: "x", T: g.Int, Body: &g.Var{Name: "x"}}
	var rho *Env
	var clo *Closure
	for i := range 64 {
		clo = NewClosure(id, rho)
		rho = rho.Bind("f"+string(rune('a'+i%26))+string(rune('0'+i/26)), clo)
	}
	if e := ReadBack(clo); !g.AlphaEqual(e, id) {
		t.Errorf("ReadBack = %s, want %s", g.Format(e), g.Format(id))
	}
	// A free variable bound twice reads back as its innermost binding; a wrapped value
	// as its coercion over its simple value.
	f := &g.Lam{Param: "y", T: g.Int, Body: &g.Var{Name: "z"}}
	rho = (*Env)(nil).Bind("z", Int(1)).Bind("z", &Wrapped{C: &g.Inj{T: g.Int}, S: Int(2)})
	want := &g.Lam{Param: "y", T: g.Int, Body: &g.Coerce{C: &g.Inj{T: g.Int}, X: &g.IntLit{N: 2}}}
	if e := ReadBack(NewClosure(f, rho)); !g.AlphaEqual(e, want) {
		t.Errorf("ReadBack = %s, want %s", g.Format(e), g.Format(want))
	}
	if e := SubstEnv(&g.Var{Name: "z"}, rho); !g.AlphaEqual(e, want.Body) {
		t.Errorf("SubstEnv(z) = %s, want %s", g.Format(e), g.Format(want.Body))
	}
}
