package dpl_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// sink feeds the trace term c to a sink of run, let by let along its chain and then
// its last body, as a stage's symbolic evaluation would: the sink, and End's error.
func sink(run *dpl.Run, x string, t dpl.Type, c dpl.Term) (*dpl.TapeSink, error) {
	s := run.NewTapeSink(nil, x, t)
	for l, ok := c.(*dpl.Let); ok; l, ok = c.(*dpl.Let) {
		s.Let(l.P, l.Name, l.T, l.Bound)
		c = l.Body
	}
	return s, s.End(c)
}

// TestTapeSink: the trace fed to R let by let (TapeSink, Run.EvalSunk) against R on
// the trace term followed by the reference semantics' evaluation of the derivative
// term (the independent check, as TestEvalDerivative's), on random derivatives of
// random trace terms under budgets that cut some: R's failures are the sink's, with
// nothing reported; a derivative that evaluates to a value gives the same value, to
// the bit, with the same contractions in order; any other declines, with nothing
// reported, and gives R's term.
func TestTapeSink(t *testing.T) {
	fused := 0
	rapid.Check(t, func(t *rapid.T) {
		rd := dplcases.RandomRd(t).(*dpl.Rd)
		budget := rapid.SampledFrom([]int{0, 5, 40}).Draw(t, "budget")
		opts := interderive.Options{Fuel: budget}

		run, err := dpl.NewRun(dpl.Tape, rd, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		der0, rerr := run.Derive(nil, rd.Cotangent, rd.Point, rd.Param, rd.T, rd.Body)
		var a dpl.Answer
		var everr error
		if rerr == nil {
			a, everr = reduction.EvalDiff(dpl.Tape, der0, interderive.Options{Fuel: budget,
				OnContract: func(rule string) { want = append(want, rule) }})
		}

		var got []string
		opts.OnContract = func(rule string) { got = append(got, rule) }
		run, err = dpl.NewRun(dpl.Tape, rd, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sink(&run, rd.Param, rd.T, rd.Body)
		if err != nil {
			t.Fatalf("End: %v on a trace of Depth %d", err, dpl.Depth(rd.Body))
		}
		v, der, err := run.EvalSunk(s, rd.Cotangent, rd.Point, dpl.MaxDepth)
		src := dpl.Format(rd)
		switch {
		case rerr != nil:
			if err == nil || err.Error() != rerr.Error() || v != nil || der != nil || len(got) > 0 {
				t.Fatalf("%s: %v, %v, %v with %v; want R's error %v and nothing reported", src, v, der, err, got, rerr)
			}
		case everr == nil && a.Undefined == nil:
			if err != nil || der != nil {
				t.Fatalf("%s: declined (%v, %v), but the derivative term %s evaluates to %v", src, der, err, dpl.Format(der0), a)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: contractions %v, want %v (the evaluation of %s)", src, got, want, dpl.Format(der0))
			}
			if !dplcases.SameBits(v, a.Value) {
				t.Fatalf("%s: %s, want %s to the bit", src, dpl.Format(v), dpl.Format(a.Value))
			}
			fused++
		default:
			if err != nil || v != nil || der == nil || dpl.Format(der) != dpl.Format(der0) || len(got) > 0 {
				t.Fatalf("%s: %v, %v, %v with %v; want the term %s (which gives %v, %v) and nothing reported", src, v, der, err, got, dpl.Format(der0), a, everr)
			}
		}
	})
	if fused == 0 {
		t.Fatal("no derivative was fused")
	}
}

// TestTapeSinkErrors: what building the trace term would refuse, End refuses with
// LetChain's error (a trace deeper than MaxDepth, in a let's bound term or in the last
// body); R's failure on a let is kept until EvalSunk, which returns it as
// EvalDerivative does on the term (the lets after it are not taped), and a sink that
// has not ended is refused.
func TestTapeSinkErrors(t *testing.T) {
	x := &dpl.Var{Name: "x"}
	var deep dpl.Term = x // x + (x + ... (x + x)), MaxDepth + 1 deep
	for range dpl.MaxDepth {
		deep = &dpl.Plus{X: x, Y: deep}
	}
	for _, tt := range []struct {
		name string
		lets []*dpl.Let
		tail dpl.Term
	}{
		{"deep bound term", []*dpl.Let{{Name: "y", T: dpl.Real, Bound: deep}}, x},
		{"deep last body", []*dpl.Let{{Name: "y", T: dpl.Real, Bound: x}}, deep},
	} {
		_, want := dpl.LetChain(slices.Clone(tt.lets), tt.tail)
		var de *interderive.DepthError
		if !errors.As(want, &de) {
			t.Fatalf("%s: LetChain gives %v, not a depth error", tt.name, want)
		}
		run, err := dpl.NewRun(dpl.Tape, x, interderive.Options{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := run.NewTapeSink(nil, "x", dpl.Real)
		for _, l := range tt.lets {
			s.Let(l.P, l.Name, l.T, l.Bound)
		}
		if err := s.End(tt.tail); err == nil || err.Error() != want.Error() {
			t.Errorf("%s: End gives %v, want LetChain's %v", tt.name, err, want)
		}
		if v, der, err := run.EvalSunk(s, &dpl.RealLit{R: 1}, &dpl.RealLit{R: 1}, dpl.MaxDepth); err == nil || v != nil || der != nil {
			t.Errorf("%s: EvalSunk after End failed: %v, %v, %v; want an error", tt.name, v, der, err)
		}
	}

	// let y = (if true then x else x) in let z = y in z: not a trace term.
	bad := &dpl.If{Cond: &dpl.BoolLit{B: true}, Then: x, Else: x}
	c := &dpl.Let{Name: "y", T: dpl.Real, Bound: bad, Body: &dpl.Let{Name: "z", T: dpl.Real, Bound: &dpl.Var{Name: "y"}, Body: &dpl.Var{Name: "z"}}}
	one := &dpl.RealLit{R: 1}
	run, err := dpl.NewRun(dpl.Tape, c, interderive.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, want := run.EvalDerivative(nil, one, one, "x", dpl.Real, c, dpl.MaxDepth)
	if want == nil {
		t.Fatal("EvalDerivative on a trace with an if: no error")
	}
	run, err = dpl.NewRun(dpl.Tape, c, interderive.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sink(&run, "x", dpl.Real, c)
	if err != nil {
		t.Fatalf("End: %v, want R's error kept for EvalSunk", err)
	}
	if v, der, err := run.EvalSunk(s, one, one, dpl.MaxDepth); err == nil || err.Error() != want.Error() || v != nil || der != nil {
		t.Errorf("EvalSunk: %v, %v, %v; want EvalDerivative's error %v", v, der, err, want)
	}

	s = run.NewTapeSink(nil, "x", dpl.Real)
	if _, _, err := run.EvalSunk(s, one, one, dpl.MaxDepth); err == nil {
		t.Error("EvalSunk on a sink that has not ended: no error")
	}
}
