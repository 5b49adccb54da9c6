package machine_test

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/dplcases"
	"github.com/interderive/interderive/machine"
)

// The expectations of this file are derived by hand (most of them in the comments),
// or are the paper's and the spec's (differentiable.md §6).

// diffRun is a run: its answer, its contractions, and every rd's trace and derivative.
type diffRun struct {
	answer       dpl.Answer
	err          error
	events       []string
	traces, ders []dpl.Term
}

func run(ad dpl.Differentiator, prog dpl.Term, fuel int) diffRun {
	var r diffRun
	opts := interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.events = append(r.events, rule) }}
	r.answer, r.err = machine.EvalDiffTraced(ad, prog, opts, func(c, d dpl.Term) {
		r.traces = append(r.traces, c)
		r.ders = append(r.ders, d)
	})
	return r
}

// TestDiffCases runs the hand-derived cases shared by the stages (internal/dplcases):
// answers, whole contraction sequences, rd traces and derivatives, undefinedness,
// fuel.
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: machine.EvalDiffTraced}.Run(t)
}

// TestDiffCasesObserved runs the same cases with an observer, under which the machine
// takes every transition: Figure 5's C ⇒ V of a primitive redex in a nested ordinary
// layer rather than in the corridor bindPrimitive. The contractions must be the same.
func TestDiffCasesObserved(t *testing.T) {
	observed := func(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(c, d dpl.Term)) (dpl.Answer, error) {
		m := machine.NewDiff(ad, opts, onRd)
		m.Trace = func(*machine.DiffState) {}
		return m.Run(prog)
	}
	dplcases.Suite{Traced: observed}.Run(t)
}

// TestDiffLayers: the machine's layers, seen through its states. Three nested rd, each
// in the trivial context of the layer below, stack four layers: the program's and
// three symbolic ones (osss); in the innermost, x + y is a redex in the context [] + z,
// whose trace Figure 5 evaluates in a fifth, ordinary, layer (ossso).
func TestDiffLayers(t *testing.T) {
	m := machine.NewDiff(dpl.Pruned, interderive.Options{}, nil)
	most, modes := 0, map[string]bool{}
	m.Trace = func(s *machine.DiffState) {
		most = max(most, len(s.Layers))
		var b strings.Builder
		for _, l := range s.Layers {
			b.WriteString(l.Mode.String()[:1])
		}
		modes[b.String()] = true
	}
	a, err := m.Run(dplcases.Program(t, "1.rd[1](x:real. 1.rd[1](y:real. 1.rd[1](z:real. x + y + z)))"))
	if err != nil || a.Observe() != "0" || most != 5 || !modes["osss"] || !modes["ossso"] {
		t.Errorf("%v (%v): at most %d layers, %v; want 0 with 5 layers, osss and ossso", a, err, most, modes)
	}
	// Figure 5 stacks an ordinary layer on a symbolic one to evaluate a trace.
	modes = map[string]bool{}
	if _, err := m.Run(dplcases.Program(t, "1.rd[2](x:real. (x + 1) + 2)")); err != nil || !modes["oso"] {
		t.Errorf("%v: %v, want a state with layers oso", err, modes)
	}
}

// TestDiffDeep: the program's recursion and the nesting of layers grow the machine's
// stacks, not the Go stack; the nesting of layers is bounded as the reference
// semantics bounds it, and so are traces deeper than dpl.MaxDepth.
func TestDiffDeep(t *testing.T) {
	// The Go stack at every contraction: no deeper on deep programs than on small ones.
	depth := func(src string) (int, diffRun) {
		most := 0
		var pcs [512]uintptr
		var r diffRun
		opts := interderive.Options{OnContract: func(string) { most = max(most, runtime.Callers(0, pcs[:])) }}
		r.answer, r.err = machine.EvalDiffTraced(dpl.Pruned, dplcases.Program(t, src), opts, nil)
		return most, r
	}
	small, _ := depth("letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(2))")
	for _, tt := range []struct{ src, want string }{
		{"letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(2000)", "2.001e+06"},
		// Each pending call of g under rd is a nested layer (Figure 5): 300 of them.
		{"letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(300))", "300"},
		// rd nested 40 deep, each in the trivial context of the one around it.
		{strings.Repeat("1.rd[1](x:real. ", 40) + "x * x" + strings.Repeat(")", 40), "0"},
	} {
		d, r := depth(tt.src)
		if r.err != nil || r.answer.Observe() != tt.want || d > small {
			t.Errorf("%.60s...: %v (%v), Go stack %d deep at most, want %s with at most %d", tt.src, r.answer, r.err, d, tt.want, small)
		}
	}
	deep := dplcases.Program(t, "letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(20000))")
	if r := run(dpl.Pruned, deep, 0); !errors.Is(r.err, interderive.ErrTooDeep) {
		t.Errorf("20000 nested layers: %v, want too deep", r.err)
	}
	long := dplcases.Program(t, "letrec l(p:real * real):real = if snd(p) <. 0.5 then fst(p) else l(<fst(p) + 1, snd(p) + -1>) in 1.rd[1](x:real. l(<x, 60000>))")
	if r := run(dpl.Pruned, long, 0); !errors.Is(r.err, interderive.ErrTooDeep) {
		t.Errorf("a trace of 60000 iterations: %v, want too deep", r.err)
	}
}

// TestDiffStateString: the states print.
func TestDiffStateString(t *testing.T) {
	m := machine.NewDiff(dpl.Pruned, interderive.Options{}, nil)
	var lines []string
	m.Trace = func(s *machine.DiffState) { lines = append(lines, s.String()) }
	if _, err := m.Run(dplcases.Program(t, "1.rd[2](x:real. (x + 1) + 2)")); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(lines, "\n")
	for _, want := range []string{"eval", "continue", "return", "layer 1 symbolic, tape of", "x + []", "[].rd[2](x. "} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in the states:\n%s", want, all)
		}
	}
}

// TestDiffResolvedCall: a call that dpl.SubstClosure has resolved to its closure (as
// the reference semantics' terms hold them) runs that closure, its recursive calls
// resolved at call time: f(2) with f(x) = if x <. 0.5 then x else f(x + -1) is
// call, pred, if, plus, call, pred, if, plus, call, pred, if, and 0.
func TestDiffResolvedCall(t *testing.T) {
	l := dplcases.Program(t, "letrec f(x:real):real = if x <. 0.5 then x else f(x + -1) in f(2)").(*dpl.Letrec)
	clo := &dpl.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun}
	prog := dpl.SubstClosure(l.Body, l.Name, clo)
	want := []string{"call", "pred", "if", "plus", "call", "pred", "if", "plus", "call", "pred", "if"}
	if r := run(dpl.Pruned, prog, 0); r.err != nil || r.answer.Observe() != "0" || !slices.Equal(r.events, want) {
		t.Errorf("%v (%v), events %v; want 0 with %v", r.answer, r.err, r.events, want)
	}
}
