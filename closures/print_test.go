package closures

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

func lam(x string, body g.Expr) g.Expr { return &g.Lam{Param: x, T: g.Int, Body: body} }
func vr(x string) g.Expr               { return &g.Var{Name: x} }

// TestPrinterNames: environments are named in the order their definitions need, each
// once. By hand, for ρ1 = (x ↦ 1[ε]) : ε and ρ2 = (y ↦ (\z:Int. x)[ρ1]) : ρ1, the
// closure (y x)[ρ2] needs ρ2, whose definition needs ρ1 (twice: its rest and the
// environment of the closure it binds).
func TestPrinterNames(t *testing.T) {
	env1 := (*Env)(nil).Bind("x", &Clo{E: &g.IntLit{N: 1}})
	env2 := env1.Bind("y", &Clo{E: lam("z", vr("x")), Env: env1})
	cl := &Clo{E: &g.App{Fun: vr("y"), Arg: vr("x")}, Env: env2}
	p := NewPrinter(interderive.PrintBudget{})
	for i, want := range []struct {
		item string
		defs []string
	}{
		{"(y x)[ρ2]", []string{"ρ1 = (x ↦ 1[ε]) : ε", `ρ2 = (y ↦ (\z:Int. x)[ρ1]) : ρ1`}},
		{"(y x)[ρ2]", nil}, // printed before: no definition again
	} {
		s, err := p.Closure(cl)
		defs := p.Defs()
		if s != want.item || err != nil || fmt.Sprint(defs) != fmt.Sprint(want.defs) {
			t.Errorf("print %d: %q %v, definitions %q; want %q, %q", i+1, s, err, defs, want.item, want.defs)
		}
	}
	// An environment equal to ρ1 but another one gets a name of its own.
	other := (*Env)(nil).Bind("x", &Clo{E: &g.IntLit{N: 1}})
	if s, _ := p.Closure(&Clo{E: vr("x"), Env: other}); s != "x[ρ3]" || fmt.Sprint(p.Defs()) != "[ρ3 = (x ↦ 1[ε]) : ε]" {
		t.Errorf("an equal environment: %q", s)
	}
	// A context: its hole prints as [].
	E := Context{&AppFun{Arg: &Clo{E: vr("x"), Env: env1}}}
	if s, err := p.Context(E); s != "([]) · (x[ρ1])" || err != nil {
		t.Errorf("context %q, %v", s, err)
	}
}

// chain is the environment of sixteen (n) nested lets of functions, each calling the
// one before: f_i ↦ (\y:Int. f_(i-1) y)[ρ_(i-1)].
func chain(n int) *Env {
	env := (*Env)(nil).Bind("f0", &Clo{E: lam("y", vr("y"))})
	for i := 1; i < n; i++ {
		env = env.Bind(fmt.Sprintf("f%d", i), &Clo{E: lam("y", &g.App{Fun: vr(fmt.Sprintf("f%d", i-1)), Arg: vr("y")}), Env: env})
	}
	return env
}

// TestPrinterLinear: Format prints the environment of n nested lets of functions in
// 2^n pieces (each binding's closure carries the environment before it); the printer
// in n definitions of a line each.
func TestPrinterLinear(t *testing.T) {
	const n = 30
	cl := &Clo{E: vr("f29"), Env: chain(n)}
	p := NewPrinter(interderive.PrintBudget{})
	s, err := p.Closure(cl)
	defs := p.Defs()
	if s != "f29[ρ30]" || err != nil || len(defs) != n {
		t.Fatalf("%q %v, %d definitions; want f29[ρ30] and %d", s, err, len(defs), n)
	}
	if want := `ρ30 = (f29 ↦ (\y:Int. f28 y)[ρ29]) : ρ29`; defs[n-1] != want {
		t.Errorf("the last definition is %q, want %q", defs[n-1], want)
	}
	// The same at a small size through Format, whose length doubles with every let.
	if a, b := len(Format(&Clo{E: vr("f9"), Env: chain(10)})), len(Format(&Clo{E: vr("f10"), Env: chain(11)})); b < 2*a {
		t.Errorf("Format: %d bytes for 10 lets, %d for 11: not the doubling this test is about", a, b)
	}
}

// TestPrinterBudget: a closure longer than the budget is cut, with an
// *interderive.OutputError.
func TestPrinterBudget(t *testing.T) {
	p := NewPrinter(interderive.PrintBudget{Max: 10})
	cl := &App{Fun: &Clo{E: lam("y", vr("y"))}, Arg: &Clo{E: &g.IntLit{N: 12345}}}
	s, err := p.Closure(cl) // whole: ((\y:Int. y)[ε]) · (12345[ε])
	if s != `((\y:Int. ` || !errors.Is(err, interderive.ErrOutputLimit) {
		t.Errorf("%q, %v", s, err)
	}
}

// TestPrinterForgets: the printer does not keep the environments it named alive, and
// goes on numbering after it forgets them.
func TestPrinterForgets(t *testing.T) {
	p := NewPrinter(interderive.PrintBudget{})
	for i := range 20_000 {
		env := (*Env)(nil).Bind("x", &Clo{E: &g.IntLit{N: int64(i)}})
		if _, err := p.Closure(&Clo{E: vr("x"), Env: env}); err != nil {
			t.Fatal(err)
		}
		p.Defs()
		if i%1000 == 0 {
			runtime.GC()
		}
	}
	// How many names the namer holds after the sweeps: envnames.TestNamerForgets.
	if !strings.HasPrefix(p.envs.Name((*Env)(nil).Bind("x", nil)), "ρ20001") {
		t.Errorf("names are not fresh after a sweep")
	}
}
