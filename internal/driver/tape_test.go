package driver

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// TestTapeAgreesWithPruned runs every differentiable program of the corpus and of the
// shared examples on every stage under the tape strategy and under pruned (the
// default): the same answers, values to a relative 1e-12 (sums associate differently),
// and the same definedness; or both out of fuel.
func TestTapeAgreesWithPruned(t *testing.T) {
	dirs := []string{"../../testdata/differentiable"}
	if _, err := os.Stat("../../../shared/examples/differentiable"); err == nil {
		dirs = append(dirs, "../../../shared/examples/differentiable")
	}
	files, err := SourceFiles(dirs)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := DPL().Load(src)
		if err != nil {
			continue // the te-* files: a type error, nothing runs
		}
		x, err := ParseExpectations(src, DPL())
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		term := prog.(dplProgram).term
		for _, st := range DPLStages() {
			opts := interderive.Options{Fuel: x.Fuel}
			want, errP := st.Eval(dpl.Pruned, term, opts)
			got, errT := st.Eval(dpl.Tape, term, opts)
			ran++
			switch {
			case errP != nil || errT != nil:
				if !errors.Is(errP, interderive.ErrOutOfFuel) || !errors.Is(errT, interderive.ErrOutOfFuel) {
					t.Errorf("%s, %s: pruned: %v, tape: %v", file, st.Name, errP, errT)
				}
			case (want.Value == nil) != (got.Value == nil):
				t.Errorf("%s, %s: pruned: %s, tape: %s", file, st.Name, want, got)
			case want.Value != nil && !closeDPL(want.Value, got.Value, 1e-12):
				t.Errorf("%s, %s: pruned: %s, tape: %s", file, st.Name, want, got)
			}
		}
	}
	if ran == 0 {
		t.Fatal("no program ran")
	}
}

// closeDPL compares two closed values: the same shape, and reals within a relative
// tol (absolute below 1).
func closeDPL(a, b dpl.Term, tol float64) bool {
	switch a := a.(type) {
	case *dpl.RealLit:
		b, ok := b.(*dpl.RealLit)
		return ok && math.Abs(a.R-b.R) <= tol*math.Max(1, math.Max(math.Abs(a.R), math.Abs(b.R)))
	case *dpl.UnitLit:
		_, ok := b.(*dpl.UnitLit)
		return ok
	case *dpl.Pair:
		b, ok := b.(*dpl.Pair)
		return ok && closeDPL(a.X, b.X, tol) && closeDPL(a.Y, b.Y, tol)
	}
	return false
}

// TestCloseDPL: the comparison itself.
func TestCloseDPL(t *testing.T) {
	r := func(x float64) dpl.Term { return &dpl.RealLit{R: x} }
	p := func(a, b dpl.Term) dpl.Term { return &dpl.Pair{X: a, Y: b} }
	tests := []struct {
		a, b dpl.Term
		want bool
	}{
		{r(1), r(1 + 1e-13), true},
		{r(1), r(1 + 1e-11), false},
		{r(1e10), r(1e10 + 1e-3), true}, // relative 1e-13
		{r(0), r(1e-13), true},
		{p(r(1), &dpl.UnitLit{}), p(r(1), &dpl.UnitLit{}), true},
		{p(r(1), r(2)), p(r(1), &dpl.UnitLit{}), false},
		{p(r(1), r(2)), r(1), false},
	}
	for _, tt := range tests {
		if got := closeDPL(tt.a, tt.b, 1e-12); got != tt.want {
			t.Errorf("closeDPL(%s, %s) = %v", dpl.Format(tt.a), dpl.Format(tt.b), got)
		}
	}
}

// chainProgram is the benchmark: a loop multiplying by 1 + eps until past e,
// about 1/eps multiplications; grad differentiates it with respect to its start.
func chainProgram(eps string, grad bool) string {
	loop := "letrec p(x:real):real = if 2.718281828459045 <. x then x else p(x * 1" + eps + ") in "
	if grad {
		return "1.rd[1](x:real. " + loop + "p(x))"
	}
	return loop + "p(1)"
}

// BenchmarkGradientChain measures the gradient of a loop of multiplications against
// the loop itself, under the tape strategy, on the machine and the interpreter: the
// issue's target is a gradient costing at most 5 times the forward evaluation. The
// gradient reports that ratio as x-forward. The chain (eps = 0.00001, about
// 100,000 multiplications) has a trace of about 200,000 nested lets (each call binds
// its parameter, and Figure 5 binds x * 1.00001), which every stage refuses as
// deeper than dpl.MaxDepth: its gradient is skipped with the error. The chain of
// eps = 0.0001 (about 10,000 multiplications) fits.
func BenchmarkGradientChain(b *testing.B) {
	for _, eps := range []string{".00001", ".0001"} {
		b.Run("eps=0"+eps, func(b *testing.B) {
			for _, stage := range []string{"machine", "interp"} {
				b.Run(stage, func(b *testing.B) {
					var st DPLStage
					for _, s := range DPLStages() {
						if s.Name == stage {
							st = s
						}
					}
					var forward float64 // ns per run
					for _, mode := range []string{"forward", "gradient"} {
						b.Run(mode, func(b *testing.B) {
							prog, err := DPL().Load([]byte(chainProgram(eps, mode == "gradient")))
							if err != nil {
								b.Fatal(err)
							}
							term := prog.(dplProgram).term
							if _, err := st.Eval(dpl.Tape, term, interderive.Options{}); err != nil {
								b.Skipf("%s does not run: %v", mode, err)
							}
							b.ResetTimer()
							for range b.N {
								a, err := st.Eval(dpl.Tape, term, interderive.Options{})
								if err != nil || a.Value == nil {
									b.Fatalf("%v %v", a, err)
								}
							}
							ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
							if mode == "forward" {
								forward = ns
							} else if forward > 0 {
								b.ReportMetric(ns/forward, "x-forward")
							}
						})
					}
				})
			}
		})
	}
}
