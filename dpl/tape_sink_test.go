package dpl_test

import (
	"errors"
	"fmt"
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

// TestTapeSinkBindFreshOp: Figure 5's lets given to the sink as redexes op(<a, b>)
// on values with their values (BindFreshOp, without the term when a and b are leaves)
// against R on the trace term they make and the reference semantics' evaluation of the
// derivative term (the independent check): the same contractions, the same bits. The
// trace, at x = 3 (V) with W = 1:
//
//	let s1 = mul(<x, 1.5>) in let s2 = mul(<s1, x>) in
//	let s3 = dprod2(<<s2, x>, <x, 2>>) in s3
//
// (the last with pairs for operands: BindFresh on the term). The values are δ's on the
// closed values (dpl.EvPair), as a stage's Figure 5 computes them.
func TestTapeSinkBindFreshOp(t *testing.T) {
	mul, _ := dpl.LookupOperator("mul")
	dprod2, _ := dpl.LookupOperator("dprod2")
	rr := dpl.Times(dpl.Real, dpl.Real)
	three, one, half3, two := &dpl.RealLit{R: 3}, &dpl.RealLit{R: 1}, &dpl.RealLit{R: 1.5}, &dpl.RealLit{R: 2}
	type redex struct {
		op   *dpl.Operator
		a, b func(vars map[string]dpl.Term, closed bool) dpl.Term
		t, u dpl.Type
	}
	leaf := func(name string, c dpl.Term) func(map[string]dpl.Term, bool) dpl.Term {
		return func(vars map[string]dpl.Term, closed bool) dpl.Term {
			if c != nil {
				return c
			}
			if closed {
				return vars[name]
			}
			return &dpl.Var{Name: name}
		}
	}
	pair := func(a, b func(map[string]dpl.Term, bool) dpl.Term) func(map[string]dpl.Term, bool) dpl.Term {
		return func(vars map[string]dpl.Term, closed bool) dpl.Term {
			return &dpl.Pair{X: a(vars, closed), Y: b(vars, closed), T: dpl.Real, U: dpl.Real}
		}
	}
	redexes := []redex{
		{mul, leaf("x", nil), leaf("", half3), dpl.Real, dpl.Real},
		{mul, leaf("s1", nil), leaf("x", nil), dpl.Real, dpl.Real},
		{dprod2, pair(leaf("s2", nil), leaf("x", nil)), pair(leaf("x", nil), leaf("", two)), rr, rr},
	}

	// The reference: the trace term, R, and the reference semantics.
	var lets []*dpl.Let
	for i, r := range redexes {
		lets = append(lets, &dpl.Let{Name: fmt.Sprintf("s%d", i+1), T: dpl.Real,
			Bound: &dpl.OpApp{Op: r.op, Arg: &dpl.Pair{X: r.a(nil, false), Y: r.b(nil, false), T: r.t, U: r.u}}})
	}
	c, err := dpl.LetChain(lets, &dpl.Var{Name: "s3"})
	if err != nil {
		t.Fatal(err)
	}
	run, err := dpl.NewRun(dpl.Tape, c, interderive.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	der, err := run.Derive(nil, one, three, "x", dpl.Real, c)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	a, err := reduction.EvalDiff(dpl.Tape, der, interderive.Options{OnContract: func(rule string) { want = append(want, rule) }})
	if err != nil || a.Value == nil {
		t.Fatalf("the derivative term: %v, %v", a, err)
	}

	// The sink, given the redexes and their values, as a stage's Figure 5 would.
	var got []string
	run, err = dpl.NewRun(dpl.Tape, c, interderive.Options{OnContract: func(rule string) { got = append(got, rule) }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := run.NewTapeSink(nil, "x", dpl.Real)
	vars := map[string]dpl.Term{"x": three}
	var last *dpl.Var
	for i, r := range redexes {
		v, err := dpl.EvPair(r.op, r.a(vars, true), r.b(vars, true), dpl.Pos{})
		if err != nil {
			t.Fatal(err)
		}
		// The operands as the trace writes them: the variables the sink gave back.
		name := func(f func(map[string]dpl.Term, bool) dpl.Term) dpl.Term {
			return rename(f(nil, false), vars, last, i)
		}
		last = s.BindFreshOp(&run, dpl.Pos{}, dpl.Pos{}, r.op, name(r.a), name(r.b), r.t, r.u, v)
		vars[fmt.Sprintf("s%d", i+1)] = v
		vars[last.Name] = v
	}
	if err := s.End(last); err != nil {
		t.Fatal(err)
	}
	v, d, err := run.EvalSunk(s, one, three, dpl.MaxDepth)
	if err != nil || d != nil {
		t.Fatalf("EvalSunk: %v, %v, %v", v, d, err)
	}
	if !slices.Equal(got, want) || !dplcases.SameBits(v, a.Value) {
		t.Errorf("sink: %s after %v\nwant %s after %v", dpl.Format(v), got, dpl.Format(a.Value), want)
	}
}

// rename writes the trace's variable s<i> (the last bound, i its index) as the
// variable the sink gave back for it.
func rename(t dpl.Term, vars map[string]dpl.Term, last *dpl.Var, i int) dpl.Term {
	switch t := t.(type) {
	case *dpl.Var:
		if last != nil && t.Name == fmt.Sprintf("s%d", i) {
			return last
		}
	case *dpl.Pair:
		return &dpl.Pair{X: rename(t.X, vars, last, i), Y: rename(t.Y, vars, last, i), T: t.T, U: t.U}
	}
	return t
}
