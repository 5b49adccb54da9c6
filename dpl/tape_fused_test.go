package dpl_test

import (
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/cases/dplcases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// TestEvalDerivative: R fused with the evaluation of its output against R followed
// by the reference semantics' evaluation of the term R emits (the independent check),
// on random derivatives W.R_V(x:T. C) of random trace terms C, under budgets that cut
// some of them: where R fails, the fused evaluation fails the same way, having
// reported nothing; where the term evaluates to a value, the fused evaluation gives
// the same value, to the bit, with the same contractions, in order, and builds no
// term; where the term's evaluation does not end with a value (undefined, out of
// fuel), the fused evaluation declines, having reported nothing, and gives the term R
// gives, names and all.
func TestEvalDerivative(t *testing.T) {
	fused := 0
	rapid.Check(t, func(t *rapid.T) {
		rd := dplcases.RandomRd(t).(*dpl.Rd)
		budget := rapid.SampledFrom([]int{0, 5, 40}).Draw(t, "budget")
		opts := interderive.Options{Fuel: budget}

		// Unfused: the term, then its evaluation on the reference semantics.
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

		// Fused.
		var got []string
		opts.OnContract = func(rule string) { got = append(got, rule) }
		run, err = dpl.NewRun(dpl.Tape, rd, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, der, err := run.EvalDerivative(nil, rd.Cotangent, rd.Point, rd.Param, rd.T, rd.Body, dpl.MaxDepth)
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

// TestFuses: a run fuses under tape alone, when no rd is reported.
func TestFuses(t *testing.T) {
	prog := dplcases.Program(t, "1.rd[1](x:real. x)")
	tests := []struct {
		ad   dpl.Differentiator
		onRd func(c, d dpl.Term)
		want bool
	}{
		{dpl.Tape, nil, true},
		{dpl.Tape, func(c, d dpl.Term) {}, false},
		{dpl.Unfused(dpl.Tape), nil, false},
		{dpl.Pruned, nil, false},
		{dpl.Figure6, nil, false},
	}
	for _, tt := range tests {
		run, err := dpl.NewRun(tt.ad, prog, interderive.Options{}, tt.onRd)
		if err != nil {
			t.Fatal(err)
		}
		if got := run.Fuses(); got != tt.want {
			t.Errorf("%s (reported: %v): Fuses() = %v, want %v", tt.ad.Name(), tt.onRd != nil, got, tt.want)
		}
	}
	if dpl.Unfused(dpl.Tape).Name() != "tape" {
		t.Errorf("Unfused(Tape) is named %q, want tape", dpl.Unfused(dpl.Tape).Name())
	}
}

// BenchmarkTapeFused shows the phases of the tape target's gradient
// (testdata/bench/grad-chain.dpl.in) before and after the fusion, and the whole runs
// on the refocused stages:
//
//		go test -run XXX -bench TapeFused ./dpl   (DPL_BENCH_N: the chain's length, default 10000)
//
//	  - phase/trace: the symbolic evaluation of the rd's body (interp's), as before;
//	  - phase/R and phase/derivative: before, R builds the derivative term and a stage
//	    (interp) evaluates it;
//	  - phase/fused: after, R fused with the evaluation of its output;
//	  - phase/sink: the same with the trace fed to R let by let (TapeSink: a stage
//	    whose symbolic run feeds it builds no trace term; the values of its
//	    bindings are not given here, so the forward pass computes them);
//	  - STAGE/forward, STAGE/gradient, STAGE/unfused: the forward run, the gradient
//	    (fused), the gradient with the fusion off (dpl.Unfused).
func BenchmarkTapeFused(b *testing.B) {
	n := os.Getenv("DPL_BENCH_N")
	if n == "" {
		n = "10000"
	}
	grad, fwd := benchSource(b, "grad-chain.dpl.in", n), benchSource(b, "forward-chain.dpl.in", n)
	// The body of rd, traced at x = 1: the same chain as the program's.
	i := strings.Index(grad, "1.rd[1](x:real. p(x))")
	parsed, err := dpl.Parse([]byte(grad[:i] + "p(x)"))
	if err != nil {
		b.Fatal(err)
	}
	body, _, err := dpl.CheckIn(func(x string) (dpl.Type, bool) { return dpl.Real, x == "x" }, parsed)
	if err != nil {
		b.Fatal(err)
	}
	one := &dpl.RealLit{R: 1}
	rho := map[string]dpl.Term{"x": one}
	b.Run("phase/trace", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := interp.TraceDiff(dpl.Tape, rho, body, interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	c, _, err := interp.TraceDiff(dpl.Tape, rho, body, interderive.Options{})
	if err != nil {
		b.Fatal(err)
	}
	base, err := dpl.NewRun(dpl.Tape, c, interderive.Options{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	newRun := func() dpl.Run { // as a stage's run has it: names fresh for c, fuel
		run := base
		names := *base.Names
		run.Names, run.Fuel = &names, interderive.NewCounter(interderive.Options{})
		return run
	}
	b.Run("phase/R", func(b *testing.B) {
		for b.Loop() {
			run := newRun()
			if _, err := run.Derive(nil, one, one, "x", dpl.Real, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	run := newRun()
	der, err := run.Derive(nil, one, one, "x", dpl.Real, c)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("phase/derivative", func(b *testing.B) {
		for b.Loop() {
			if _, err := interp.EvalDiff(dpl.Tape, der, interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("phase/fused", func(b *testing.B) {
		for b.Loop() {
			run := newRun()
			if v, _, err := run.EvalDerivative(nil, one, one, "x", dpl.Real, c, dpl.MaxDepth); v == nil || err != nil {
				b.Fatal("not fused", err)
			}
		}
	})
	b.Run("phase/sink", func(b *testing.B) {
		for b.Loop() {
			run := newRun()
			s, err := sink(&run, "x", dpl.Real, c)
			if err != nil {
				b.Fatal(err)
			}
			if v, _, err := run.EvalSunk(s, one, one, dpl.MaxDepth); v == nil || err != nil {
				b.Fatal("not fused", err)
			}
		}
	})
	progs := map[string]dpl.Term{"forward": benchProgram(b, fwd), "gradient": benchProgram(b, grad)}
	stages := []struct {
		name string
		eval func(dpl.Differentiator, dpl.Term, interderive.Options) (dpl.Answer, error)
	}{{"machine", machine.EvalDiff}, {"cps2", cps2.EvalDiff}, {"interp", interp.EvalDiff}}
	for _, st := range stages {
		for _, run := range []struct {
			name, prog string
			ad         dpl.Differentiator
		}{{"forward", "forward", dpl.Tape}, {"gradient", "gradient", dpl.Tape}, {"unfused", "gradient", dpl.Unfused(dpl.Tape)}} {
			b.Run(st.name+"/"+run.name, func(b *testing.B) {
				for b.Loop() {
					if _, err := st.eval(run.ad, progs[run.prog], interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchSource is a program of testdata/bench at size n, as the bench suite writes it
// ({n} the size, {B^n} the real B to the power n).
func benchSource(b *testing.B, file, n string) string {
	src, err := os.ReadFile("../testdata/bench/" + file)
	if err != nil {
		b.Fatal(err)
	}
	size, err := strconv.Atoi(n)
	if err != nil {
		b.Fatal(err)
	}
	s := strings.ReplaceAll(string(src), "{n}", n)
	return strings.ReplaceAll(s, "{1.00001^n}", strconv.FormatFloat(math.Pow(1.00001, float64(size)), 'g', -1, 64))
}

func benchProgram(b *testing.B, src string) dpl.Term {
	return dplcases.Program(b, src)
}
