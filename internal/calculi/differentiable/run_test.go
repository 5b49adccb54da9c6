package differentiable

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
)

// TestDPLLanguage: the language as the workbench lists it: its name and extension,
// its strategies (the default first), its stages in derivation order, and the phase of
// its static errors.
func TestDPLLanguage(t *testing.T) {
	w := newBench(t)
	p := Calculus.Variant()
	if Calculus.Name() != "dpl" || len(Calculus.Languages()) != 1 || Calculus.Languages()[0].Ext != "dpl" ||
		p.Flag != "ad" || p.Default != "tape" || !slices.Equal(p.Values, []string{"tape", "pruned", "figure6"}) {
		t.Fatalf("dpl: %s %+v %+v", Calculus.Name(), Calculus.Languages(), p)
	}
	var names []string
	for _, s := range w.StagesOf(Calculus) {
		names = append(names, s.Name())
	}
	if !slices.Equal(names, []string{"reduction", "closures", "machine", "cps2", "interp"}) {
		t.Fatalf("dpl stages %v", names)
	}
	for _, tt := range []struct{ src, phase string }{{"1 +", "syntax"}, {"1 + ()", "type"}} {
		_, err := Calculus.Load(ext, []byte(tt.src))
		var le *workbench.LoadError
		if !errors.As(err, &le) || le.Phase != tt.phase {
			t.Errorf("Load(%q): %v, want a %s error", tt.src, err, tt.phase)
		}
	}
}

// nowhere is a stage that has no artefact for the language.
type nowhere struct{}

func (nowhere) Name() string { return "nowhere" }
func (nowhere) Doc() string  { return "no stage" }

// TestDPLRun: runs on the reduction semantics under every strategy: the observation,
// the value as run --show value prints it, and the contractions, by hand; a divergent
// program runs out of fuel; an unknown strategy, or a stage without an artefact for
// the language, is refused.
func TestDPLRun(t *testing.T) {
	tests := []struct {
		src, observation, value string
		steps                   int
	}{
		// rd, sym/op, then the derivative's let, op, let, let, fst, let, snd, let, plus.
		{"1.rd[2](x:real. x * x)", "4", "4", 11},
		{"<1, ()>", "<1, ()>", "<1, ()>", 0},
		{"1 + log(0)", "undefined", "undefined: log(0)", 1},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "undefined", "undefined: lt(<0, 0>)", 2},
	}
	for _, tt := range tests {
		p := load(t, tt.src)
		for _, variant := range Calculus.Variant().Values {
			out, err := p.Run(stages()[0], variant, interderive.Options{})
			if err != nil || out.Observation != tt.observation || out.Value != tt.value || out.Steps != tt.steps {
				t.Errorf("%s/%s: %+v (%v), want %s / %s in %d steps", tt.src, variant, out, err, tt.observation, tt.value, tt.steps)
			}
		}
	}
	p := load(t, "letrec f(x:real):real = f(x) in f(1)")
	if _, err := p.Run(stages()[0], "pruned", interderive.Options{Fuel: 50}); !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("a divergent program: %v, want out of fuel", err)
	}
	if _, err := p.Run(stages()[0], "forward", interderive.Options{Fuel: 50}); err == nil || errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("an unknown strategy: %v, want it refused", err)
	}
	if _, err := p.Run(nowhere{}, "pruned", interderive.Options{Fuel: 50}); err == nil || errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("an unknown stage: %v, want it refused", err)
	}
}

// nestedRd is the program of the trace tests: x · (d/dy (x + y)) = x · 1, whose
// derivative at 1 is 1.
const nestedRd = "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))"

// sameOutcome reports whether a trace's outcome is a run's: the same observation,
// value and contractions.
func sameOutcome(a, b workbench.Outcome) bool {
	return a.Observation == b.Observation && a.Value == b.Value && a.Steps == b.Steps
}

// TestDPLTrace: the reduction semantics' trace (trace, workbench.Trace) shows every
// contraction with its decomposition, a nested layer's lines marked "| " once per
// layer and its decompositions with their layer and mode, and the trace term and
// derivative of every rd where its contraction completes (a row "contraction N (RULE)
// completes"), with what the trace grows by. By hand: rd (1) starts the symbolic
// evaluation of its body, mul(<x, 1.rd[1](y:real. x + y)>), in layer 1, where the
// inner rd (sym/rd, 2) in the context mul(<x, []>) starts layer 2, which traces x + y
// (sym/plus, 3); Figure 5 evaluates the inner rd's derivative 0 + 1 (plus, 4) before
// the inner rd completes: its trace x + y, its derivative 0 + 1, bound to s#1 in the
// outer trace; mul(<x, s#1>) (sym/op, 5) ends the outer trace, and the outer rd is
// complete; its derivative evaluates to 1.
func TestDPLTrace(t *testing.T) {
	w := newBench(t)
	p := load(t, nestedRd)
	var b strings.Builder
	out, err := w.Trace(&b, Calculus, p, "reduction", "pruned", "", interderive.Options{})
	if err != nil || out.Observation != "1" {
		t.Fatalf("%+v (%v)", out, err)
	}
	run, _ := p.Run(stages()[0], "pruned", interderive.Options{})
	if !sameOutcome(run, out) {
		t.Errorf("trace outcome %+v, run outcome %+v", out, run)
	}
	for _, want := range []string{
		"ad pruned, stage reduction\n",
		"\ncontraction 1: rd\n  decompose: []  with redex  1.rd[1](x:real. mul(<x, 1.rd[1](y:real. x + y)>))\n",
		"\ncontraction 2: sym/rd\n  | decompose: mul(<x, []>)  with redex  1.rd[1](y:real. x + y)   (layer 1, symbolic)\n",
		"\ncontraction 3: sym/plus\n  | | decompose: []  with redex  x + y   (layer 2, symbolic)\n",
		"  | contraction 2 (sym/rd) completes\n  | trace:      x + y\n  | derivative: 0 + 1\n  | trace +=   let s#1:real = 0 + 1 in\n",
		"  contraction 1 (rd) completes\n  trace:      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
		"\nanswer     1\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the trace lacks %q:\n%s", want, b.String())
		}
	}
}

// TestDPLTraceDerived: every derived stage traces the program of TestDPLTrace as its
// lane: the reference's contractions (TestDPLTrace), every rd's trace and derivative,
// and the answer; out of fuel after 3 contractions, the rows so far and the fuel
// error. Its reports alone (trace --reports, workbench.TraceReports) come under the
// contraction that the rd completes, for a stage that knows it (the calculus of
// closures: sym/rd, 2, and rd, 1), else under the contraction made before the report
// (the machine, cps2 and interp): plus (4), the inner rd's derivative, and sym/op (5),
// the end of the outer trace.
func TestDPLTraceDerived(t *testing.T) {
	w := newBench(t)
	p := load(t, nestedRd)
	run, _ := p.Run(stages()[0], "pruned", interderive.Options{})
	for _, s := range stages()[1:] {
		stage := s.Name()
		var b strings.Builder
		out, err := w.Trace(&b, Calculus, p, stage, "pruned", "", interderive.Options{})
		if err != nil || !sameOutcome(run, out) {
			t.Fatalf("%s: trace outcome %+v (%v), run outcome %+v", stage, out, err, run)
		}
		for _, want := range []string{
			"ad pruned, stage " + stage + "\n",
			"contraction 1: rd\n", "contraction 2: sym/rd\n", "contraction 3: sym/plus\n",
			"contraction 4: plus\n", "contraction 5: sym/op\n",
			"trace:      x + y\n", "derivative: 0 + 1\n",
			"trace:      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
			"\nanswer     1\n",
		} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the trace lacks %q:\n%s", stage, want, b.String())
			}
		}
		// Out of fuel after 3 contractions: the rows so far, and the fuel error.
		b.Reset()
		var fe *interderive.FuelError
		out, err = w.Trace(&b, Calculus, p, stage, "pruned", "", interderive.Options{Fuel: 3})
		if !errors.As(err, &fe) || out.Steps != 3 || !strings.Contains(b.String(), "contraction 3: sym/plus\n") || strings.Contains(b.String(), "contraction 4") {
			t.Errorf("%s with fuel 3: %+v, %v\n%s", stage, out, err, b.String())
		}
		b.Reset()
		out, err = w.TraceReports(&b, Calculus, p, stage, "pruned", "", interderive.Options{})
		if err != nil || !sameOutcome(run, out) {
			t.Fatalf("%s: the reports' outcome %+v (%v), run outcome %+v", stage, out, err, run)
		}
		want := []string{
			"\nafter contraction 4 (plus)\n  trace:      x + y\n  derivative: 0 + 1\n",
			"\nafter contraction 5 (sym/op)\n  trace:      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
		}
		if stage == "closures" {
			want = []string{
				"\ncontraction 2 (sym/rd)\n  | trace:      x + y\n  | derivative: 0 + 1\n",
				"\ncontraction 1 (rd)\n  trace:      let s#1:real = 0 + 1 in mul(<x, s#1>)\n",
			}
		}
		for _, want := range append(want, "\nanswer     1\n") {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: the reports lack %q:\n%s", stage, want, b.String())
			}
		}
	}
}
