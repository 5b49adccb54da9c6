package envnames

import (
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/interderive/interderive"
)

// env is a toy environment: x ↦ v : next, where v is a number or the environments
// it refers to, printed as their names.
type env struct {
	x    string
	v    []*env
	next *env
}

func newNamer(b interderive.PrintBudget) *Namer[env] {
	var n *Namer[env]
	n = New(Cut(b), Binding[env]{
		Next: func(rho *env) *env { return rho.next },
		Refs: func(rho *env) []*env { return rho.v },
		Var:  func(rho *env) string { return rho.x },
		Write: func(w *interderive.BoundedBuilder, rho *env) {
			w.WriteString("v")
			for _, e := range rho.v {
				w.WriteString(" " + n.Name(e))
			}
		},
	})
	return n
}

// TestNamer: names and definitions, hand-derived. The walk pushes the rest of the
// chain, then what the binding refers to, and defines the top of the stack first.
func TestNamer(t *testing.T) {
	a := &env{x: "a"}                        // (a ↦ v) : ε
	b := &env{x: "b", next: a}               // (b ↦ v) : a
	c := &env{x: "c", v: []*env{b}}          // (c ↦ v b) : ε
	d := &env{x: "d", v: []*env{c}, next: b} // (d ↦ v c) : b
	tests := []struct {
		name string
		look []*env // named in this order
		want []string
		defs []string
	}{
		{"empty", []*env{nil}, []string{"ε"}, nil},
		{"chain", []*env{b, a, b}, []string{"ρ2", "ρ1", "ρ2"},
			[]string{"ρ1 = (a ↦ v) : ε", "ρ2 = (b ↦ v) : ρ1"}},
		// d: stack [d, b, c]; c first: [.., c, ε, b]; b: [.., b, a]: a ρ1, b ρ2, c ρ3,
		// then b is named, d ρ4.
		{"refs first", []*env{d, c}, []string{"ρ4", "ρ3"},
			[]string{"ρ1 = (a ↦ v) : ε", "ρ2 = (b ↦ v) : ρ1", "ρ3 = (c ↦ v ρ2) : ε",
				"ρ4 = (d ↦ v ρ3) : ρ2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNamer(interderive.PrintBudget{})
			var got []string
			for _, e := range tt.look {
				got = append(got, n.Name(e))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("names %q, want %q", got, tt.want)
			}
			if defs := n.Defs(); !slices.Equal(defs, tt.defs) {
				t.Errorf("defs %q, want %q", defs, tt.defs)
			}
			if defs := n.Defs(); defs != nil {
				t.Errorf("defs again %q, want none", defs)
			}
		})
	}
}

// TestNamerBudget: a definition longer than the budget is cut and marked " …".
func TestNamerBudget(t *testing.T) {
	n := newNamer(interderive.PrintBudget{Max: 8})
	n.Name(&env{x: "long"}) // whole: ρ1 = (long ↦ v) : ε; 8 bytes: ρ is two
	if defs := n.Defs(); !slices.Equal(defs, []string{"ρ1 = (l …"}) {
		t.Errorf("%q", defs)
	}
}

// TestNamerForgets: the namer does not keep the environments it named alive, forgets
// their names once they are collected, and goes on numbering.
func TestNamerForgets(t *testing.T) {
	n := newNamer(interderive.PrintBudget{})
	for i := range 20_000 {
		n.Name(&env{x: "x" + strconv.Itoa(i)})
		n.Defs()
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	if len(n.names) > 5000 {
		t.Errorf("%d names held after 20,000 environments that died", len(n.names))
	}
	if got := n.Name(&env{x: "y"}); got != "ρ20001" {
		t.Errorf("%s after a sweep, want ρ20001", got)
	}
}
