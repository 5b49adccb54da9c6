package machine_test

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/machine"
)

// The expectations of this file are derived by hand (most of them in the comments),
// or are the paper's and its test vectors' (docs/differentiable.md); the shared cases are
// TestDiffCases' (package dplcases).

// TestDiffCases runs the hand-derived cases of package dplcases: answers, whole
// contraction sequences, rd traces and derivatives, symbolic evaluation, undefinedness,
// fuel, the bounds on nesting, and the stage's artefact as the workbench runs it
// (Stage.Differentiable, its observer).
func TestDiffCases(t *testing.T) {
	dplcases.Suite{Traced: machine.EvalDiffTraced, Stage: machine.Stage{}.Differentiable()}.Run(t)
}

// TestDiffCasesObserved runs the shared cases with an observer, under which the machine
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

// TestDiffFlatStack: the program's recursion and the nesting of layers grow the
// machine's stacks, not the Go stack.
func TestDiffFlatStack(t *testing.T) { dplcases.FlatStack(t, machine.EvalDiffTraced) }

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

// TestDiffFused: R fused with the evaluation of its output (the default under tape,
// when nothing observes the derivative) against the unfused evaluation, which builds
// and evaluates every derivative term: the same contractions, one by one, the same
// answers to the bit, the same definedness and errors (dplcases.Fused).
func TestDiffFused(t *testing.T) {
	dplcases.Fused(t, machine.EvalDiffTraced, machine.Stage{}.Differentiable(), "../testdata/differentiable")
}
