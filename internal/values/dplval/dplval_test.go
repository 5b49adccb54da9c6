package dplval

import (
	"fmt"
	"testing"

	"github.com/interderive/interderive/dpl"
	"pgregory.net/rapid"
)

func real(r float64) dpl.Term { return &dpl.RealLit{R: r} }

// valueOf is the real a lookup finds, or NaN-free -1000 when x is unbound.
func valueOf(t *testing.T, e *Env, x string) float64 {
	t.Helper()
	c, ok := e.Lookup(x)
	if !ok {
		return -1000
	}
	return c.Val.(*dpl.RealLit).R
}

// chain binds names[i] to i on top of e, for i from 0.
func chain(e *Env, names ...string) []*Env {
	var cells []*Env
	for i, x := range names {
		e = e.Bind(x, real(float64(i)), false)
		cells = append(cells, e)
	}
	return cells
}

func TestEnvLookupLongChain(t *testing.T) {
	// x0 ... x99 bound to 0 ... 99, then a bound three times: at levels 100, 150, 199.
	var names []string
	for i := range 100 {
		names = append(names, fmt.Sprintf("x%d", i))
	}
	for i := 100; i < 200; i++ {
		switch i {
		case 100, 150, 199:
			names = append(names, "a")
		default:
			names = append(names, fmt.Sprintf("y%d", i))
		}
	}
	cells := chain(nil, names...)
	top := cells[199]
	for _, c := range []struct {
		at   int
		x    string
		want float64
	}{
		{199, "x3", 3}, {199, "x0", 0}, {199, "a", 199}, {199, "zz", -1000},
		{160, "a", 150}, {149, "a", 100}, {99, "a", -1000}, {120, "y110", 110},
		{120, "y130", -1000}, // bound above the cell looked up from
		{199, "y198", 198}, {5, "x2", 2},
	} {
		if got := valueOf(t, cells[c.at], c.x); got != c.want {
			t.Errorf("at level %d, %s = %v, want %v", c.at, c.x, got, c.want)
		}
	}
	if got := valueOf(t, top, "a"); got != 199 {
		t.Errorf("a = %v after lookups from below, want 199", got)
	}
}

func TestEnvLookupBranches(t *testing.T) {
	// A trunk of 60 cells t0..t59 (ti = i), then two branches from t29: one binds
	// t5 and b0..b39 (t5 = 0, bi = i+1), the other c0..c39 (ci = i). Lookups alternate
	// between the branches, so the index's spine is cut and regrown each time.
	var trunk []string
	for i := range 60 {
		trunk = append(trunk, fmt.Sprintf("t%d", i))
	}
	tc := chain(nil, trunk...)
	left := []string{"t5"}
	var right []string
	for i := range 40 {
		left = append(left, fmt.Sprintf("b%d", i))
		right = append(right, fmt.Sprintf("c%d", i))
	}
	lc := chain(tc[29], left...)
	rc := chain(tc[29], right...)
	l, r := lc[len(lc)-1], rc[len(rc)-1]
	for range 3 {
		for _, c := range []struct {
			e    *Env
			x    string
			want float64
		}{
			{l, "t5", 0}, {r, "t5", 5}, {l, "t20", 20}, {r, "t20", 20},
			{l, "t40", -1000}, {r, "t40", -1000}, {tc[59], "t40", 40}, {tc[59], "t5", 5},
			{l, "c3", -1000}, {r, "c3", 3}, {l, "b3", 4}, {r, "b3", -1000},
			{lc[10], "b0", 1}, {lc[10], "b20", -1000},
		} {
			if got := valueOf(t, c.e, c.x); got != c.want {
				t.Errorf("%s = %v, want %v", c.x, got, c.want)
			}
		}
	}
}

// scan is Lookup by a scan of the list: the specification.
func scan(e *Env, x string) (*Env, bool) {
	for ; e != nil; e = e.Next {
		if e.Name == x {
			return e, true
		}
	}
	return nil, false
}

// TestEnvLookupAgreesWithScan binds and looks up at random cells of a random tree of
// environments (a few names, so that shadowing is common; long chains, so that the
// index is used): Lookup always finds the cell the scan finds.
func TestEnvLookupAgreesWithScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Source names, and fresh names whose keys collide (a#1 and s#1).
		names := []string{"a", "b", "c", "a#1", "s#1", "b#12", "x#"}
		cells := []*Env{nil}
		steps := rapid.IntRange(1, 400).Draw(t, "steps")
		for range steps {
			// Mostly extend the newest cell (last-in-first-out), sometimes an old one.
			from := len(cells) - 1
			if rapid.IntRange(0, 9).Draw(t, "branch?") == 0 {
				from = rapid.IntRange(0, len(cells)-1).Draw(t, "from")
			}
			if rapid.Bool().Draw(t, "bind?") {
				x := rapid.SampledFrom(names).Draw(t, "x")
				cells = append(cells, cells[from].Bind(x, real(float64(len(cells))), false))
				continue
			}
			x := rapid.SampledFrom(append(names, "z")).Draw(t, "lookup")
			want, wok := scan(cells[from], x)
			got, ok := cells[from].Lookup(x)
			if ok != wok || got != want {
				t.Fatalf("Lookup(%s) from cell %d: %p %v, scan %p %v", x, from, got, ok, want, wok)
			}
		}
	})
}

// TestFunsCalled checks φ(f) for a call by hand: an unresolved call finds f's closure
// in φ, a resolved one carries its own (with φ = ε), and an unbound f is not found.
func TestFunsCalled(t *testing.T) {
	g := &Closure{Name: "g", Param: "y", ParamT: dpl.Real, ResT: dpl.Real, Body: real(1)}
	phi := (*Funs)(nil).Bind("g", g)
	if got, ok := phi.Called(&dpl.Call{Name: "g", Arg: real(0)}); !ok || got != g {
		t.Errorf("g(0) in φ = {g}: %v, %v; want g's closure", got, ok)
	}
	k := &dpl.Closure{Name: "f", Param: "x", ParamT: dpl.Real, ResT: dpl.Real, Body: real(2)}
	got, ok := phi.Called(&dpl.Call{Name: "f", Arg: real(0), Clo: k})
	if !ok || got.Name != "f" || got.Param != "x" || got.Body != k.Body || got.Phi != nil {
		t.Errorf("a resolved call of f: %+v, %v; want f's closure from the call, with φ = ε", got, ok)
	}
	if _, ok := phi.Called(&dpl.Call{Name: "h", Arg: real(0)}); ok {
		t.Errorf("h(0) in φ = {g} was found")
	}
}

// TestTypes types by hand: x bound in ρ to 1 is real, the fresh s#1 ↦ <1, 2> is
// real * real, x shadows a fresh x, and an unbound name, or any name with neither ρ nor
// fresh, has no type.
func TestTypes(t *testing.T) {
	rho := (*Env)(nil).Bind("x", real(1), true)
	fresh := &dpl.NameMap[dpl.Term]{}
	fresh.Set("s#1", &dpl.Pair{X: real(1), Y: real(2), T: dpl.Real, U: dpl.Real})
	fresh.Set("x", &dpl.UnitLit{})
	types := Types(rho, fresh)
	for _, c := range []struct {
		name string
		want dpl.Type
	}{{"x", dpl.Real}, {"s#1", dpl.Times(dpl.Real, dpl.Real)}, {"y", nil}} {
		got, ok := types(c.name)
		if ok != (c.want != nil) || ok && dpl.FormatType(got) != dpl.FormatType(c.want) {
			t.Errorf("%s: %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
	if _, ok := Types(nil, nil)("x"); ok {
		t.Errorf("x typed with neither ρ nor fresh variables")
	}
}
