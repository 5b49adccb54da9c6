package dpl_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// parseTerm parses an expected term, which may hold generated names.
func parseTerm(t *testing.T, src string) dpl.Term {
	t.Helper()
	p, err := dpl.ParseGenerated([]byte(src))
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return p
}

// TestNewRun: a run needs a strategy and a program no deeper than MaxDepth; it starts
// with no contraction, at layer 0.
func TestNewRun(t *testing.T) {
	prog := parseTerm(t, "1 + 2")
	if _, err := dpl.NewRun(nil, prog, interderive.Options{}, nil); !errors.Is(err, interderive.ErrStuck) {
		t.Errorf("no strategy: %v, want a stuck run", err)
	}
	neg, _ := dpl.LookupOperator("neg")
	var deep dpl.Term = &dpl.RealLit{R: 0}
	for range dpl.MaxDepth + 1 {
		deep = &dpl.OpApp{Op: neg, Arg: deep}
	}
	var de *interderive.DepthError
	if _, err := dpl.NewRun(dpl.Pruned, deep, interderive.Options{}, nil); !errors.As(err, &de) || de.Limit != dpl.MaxDepth {
		t.Errorf("a program %d deep: %v, want the depth bound %d", dpl.MaxDepth+1, err, dpl.MaxDepth)
	}
	r, err := dpl.NewRun(dpl.Pruned, prog, interderive.Options{}, nil)
	if err != nil || r.AD != dpl.Pruned || r.Fuel.Steps() != 0 || r.Layer() != 0 || r.Names == nil {
		t.Errorf("NewRun: %+v, %v", r, err)
	}
}

// TestRunLayers: MaxLayers layers nest, one more is a DepthError at MaxLayers, for
// the stages that count their layers (Enter) and those that keep them as data
// (CheckLayers).
func TestRunLayers(t *testing.T) {
	r, err := dpl.NewRun(dpl.Pruned, parseTerm(t, "1"), interderive.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range dpl.MaxLayers {
		if err := r.Enter(); err != nil {
			t.Fatalf("layer %d: %v", i+1, err)
		}
	}
	var de *interderive.DepthError
	if err := r.Enter(); !errors.As(err, &de) || de.Limit != dpl.MaxLayers || r.Layer() != dpl.MaxLayers {
		t.Errorf("layer %d: %v at layer %d, want the layer bound at %d", dpl.MaxLayers+1, err, r.Layer(), dpl.MaxLayers)
	}
	r.Leave()
	if r.Layer() != dpl.MaxLayers-1 || r.Enter() != nil {
		t.Errorf("after Leave: layer %d, and Enter refused", r.Layer())
	}
	if dpl.CheckLayers(dpl.MaxLayers-1) != nil || !errors.As(dpl.CheckLayers(dpl.MaxLayers), &de) {
		t.Errorf("CheckLayers: %v below the bound, %v at it", dpl.CheckLayers(dpl.MaxLayers-1), dpl.CheckLayers(dpl.MaxLayers))
	}
}

// TestRunDerive: Derive is R of the run's strategy, held to the fuel left. 1.R_2(x.
// mul(<x, x>)) is, by Figure 6's op clause and the pair clause's let-tuple (see
// internal/cases/dplcases' Events), let x = 2 in let y = mul_r(<<x, x>, 1>) in let z = y
// in let y1 = fst(z) in let z1 = snd(z) in y1 + z1: nine redexes (five lets, op, fst,
// snd, plus), more than a run with one contraction left can evaluate.
func TestRunDerive(t *testing.T) {
	c := parseTerm(t, "mul(<x, x>)")
	one, two := &dpl.RealLit{R: 1}, &dpl.RealLit{R: 2}
	want := parseTerm(t, "let x:real = 2 in let y:real*real = mul_r(<<x, x>, 1>) in let z:real*real = y in let y1:real = fst(z) in let z1:real = snd(z) in y1 + z1")
	r, err := dpl.NewRun(dpl.Pruned, c, interderive.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if der, err := r.Derive(nil, one, two, "x", dpl.Real, c); err != nil || !dpl.AlphaEqual(der, want) {
		t.Errorf("1.R_2(x. mul(<x, x>)) = %v (%v), want %s", der, err, dpl.Format(want))
	}
	r, err = dpl.NewRun(dpl.Pruned, c, interderive.Options{Fuel: 2}, nil)
	if err != nil || r.Fuel.Contract(dpl.RuleRd) != nil {
		t.Fatal(err)
	}
	var fe *interderive.FuelError
	if _, err := r.Derive(nil, one, two, "x", dpl.Real, c); !errors.As(err, &fe) || fe.Steps != 1 {
		t.Errorf("with one contraction left: %v, want out of fuel after 1", err)
	}
}

// TestRunBindFresh: Figure 5's binding let s:T_V = C, s fresh for the term and the
// environment of an open run (after their generated names), and s standing for V.
func TestRunBindFresh(t *testing.T) {
	rho := map[string]dpl.Term{"y#7": &dpl.RealLit{R: 2}}
	m := parseTerm(t, "y#7 + 1")
	r, err := dpl.NewOpenRun(dpl.Pruned, rho, m, interderive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var lets []*dpl.Let
	p := dpl.Pos{Line: 3, Col: 4}
	v := &dpl.Pair{X: &dpl.RealLit{R: 3}, Y: &dpl.UnitLit{}, T: dpl.Real, U: dpl.Unit}
	x := r.BindFresh(&lets, p, m, v)
	if len(lets) != 1 || lets[0].Name != x.Name || lets[0].Bound != m || lets[0].P != p || x.P != p ||
		dpl.FormatType(lets[0].T) != "real * unit" {
		t.Fatalf("lets %v, variable %v", lets, x)
	}
	if !strings.HasPrefix(x.Name, "s#") || dpl.FreshNumber(x.Name) <= 7 {
		t.Errorf("fresh name %s, want s#k with k > 7", x.Name)
	}
	if y := r.BindFresh(&lets, p, m, v); y.Name == x.Name || len(lets) != 2 {
		t.Errorf("two bindings named %s and %s", x.Name, y.Name)
	}
}

// TestTraceOf: a symbolic evaluation ends with a trace, no trace and why (undefined),
// or an error.
func TestTraceOf(t *testing.T) {
	c := parseTerm(t, "x + 1")
	undef := &dpl.Undefined{Redex: parseTerm(t, "log(0)")}
	if got, u, err := dpl.TraceOf(c, nil); got != c || u != nil || err != nil {
		t.Errorf("a trace: %v, %v, %v", got, u, err)
	}
	if got, u, err := dpl.TraceOf(nil, undef); got != nil || u != undef || err != nil {
		t.Errorf("undefined: %v, %v, %v", got, u, err)
	}
	fuel := &interderive.FuelError{Steps: 3}
	if got, u, err := dpl.TraceOf(nil, fuel); got != nil || u != nil || err != fuel {
		t.Errorf("out of fuel: %v, %v, %v", got, u, err)
	}
}

// reports is an observer that records the reports of a run.
type reports struct{ labels, lines []string }

func (r *reports) Step(string)       {}
func (r *reports) About(int, string) {}
func (r *reports) Report(n int, label string, value any, line string) {
	r.labels = append(r.labels, label)
	r.lines = append(r.lines, line)
}

// TestTracedEval: a stage with no steps of its own to show reports every rd to the
// observer, trace then derivative, and runs without a reporter when nothing observes.
func TestTracedEval(t *testing.T) {
	c, der := parseTerm(t, "mul(<x, x>)"), parseTerm(t, "2 + 2")
	var got func(trace, derivative dpl.Term)
	stage := dpl.Traced(func(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
		got = onRd
		if onRd != nil {
			onRd(c, der)
		}
		return dpl.Answer{Value: prog}, nil
	})
	if _, err := stage.Eval(dpl.Pruned, c, interderive.Options{}); err != nil || got != nil {
		t.Errorf("without an observer: %v, reporter %v", err, got != nil)
	}
	obs := &reports{}
	if _, err := stage.Eval(dpl.Pruned, c, interderive.Options{Observer: obs}); err != nil {
		t.Fatal(err)
	}
	want := []string{"trace:      mul(<x, x>)", "derivative: 2 + 2"}
	if strings.Join(obs.labels, " ") != dpl.ReportTrace+" "+dpl.ReportDerivative || strings.Join(obs.lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("reports %v %q, want trace and derivative %q", obs.labels, obs.lines, want)
	}
}
