package targets

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/differentiable"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
)

// The benchmarks behind the targets, one stage at a time: go test -run XXX -bench .
// ./internal/targets (-cpuprofile to profile one).

// suite loads the benchmark suite, testdata/bench.
func suite(tb testing.TB) []workbench.BenchProgram {
	tb.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		tb.Fatal(err)
	}
	progs, err := w.LoadBench("../../testdata/bench")
	if err != nil {
		tb.Fatal(err)
	}
	return progs
}

// named is the suite's program of that name (NAME.EXT).
func named(tb testing.TB, progs []workbench.BenchProgram, name string) workbench.BenchProgram {
	tb.Helper()
	i := slices.IndexFunc(progs, func(p workbench.BenchProgram) bool { return p.Name == name })
	if i < 0 {
		tb.Fatalf("no %s in the suite", name)
	}
	return progs[i]
}

// loadAt loads a program of the suite at a size.
func loadAt(tb testing.TB, p workbench.BenchProgram, size string) workbench.Program {
	tb.Helper()
	prog, err := p.Calculus.Load(p.Lang, []byte(p.Source(size)))
	if err != nil {
		tb.Fatal(err)
	}
	return prog
}

// fibProgram is fib n, fully typed or fully dynamic (every annotation Dyn), its casts
// inserted.
func fibProgram(b *testing.B, n int, dynamic bool) g.Expr {
	src := fmt.Sprintf(`letrec fib: Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib %d`, n)
	if dynamic {
		src = fmt.Sprintf(`letrec fib: Dyn -> Dyn = \k. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib %d`, n)
	}
	e, err := g.Parse([]byte(src), g.GTLC)
	if err != nil {
		b.Fatal(err)
	}
	c, _, err := g.InsertCasts(e)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkFib runs fib on every stage, typed and dynamic, beside the same function
// written in Go (NativeFib) and the floor interpreter (FloorFib): compare the ratios
// within one run.
func BenchmarkFib(b *testing.B) {
	for _, dynamic := range []bool{false, true} {
		for _, n := range []int{10, 15} {
			e := g.Translate(g.ED, fibProgram(b, n, dynamic))
			for _, s := range calculi.Stages() {
				st, ok := g.StageOf(s)
				if !ok || s.Name() == "reduction" && n > 10 || s.Name() == "closures" && n > 10 {
					continue
				}
				b.Run(fmt.Sprintf("dyn=%v/n=%d/%s", dynamic, n, s.Name()), func(b *testing.B) {
					for b.Loop() {
						if _, err := st.Eval(g.ED, e, interderive.Options{}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
	b.Run("native/n=15", func(b *testing.B) {
		for b.Loop() {
			NativeFib(15)
		}
	})
	b.Run("floor/n=15", func(b *testing.B) { // floor.go
		for b.Loop() {
			FloorFib(15)
		}
	})
}

// BenchmarkSum runs the refocusing target's non-tail recursion (testdata/bench
// sum.gtlc) on the refocused stages at a shallow and a deep size: the time per
// contraction should not grow with the depth.
func BenchmarkSum(b *testing.B) {
	p := named(b, suite(b), "sum.gtlc")
	for _, n := range []string{"125", "2000"} {
		prog := loadAt(b, p, n)
		for _, stage := range []string{"machine", "cps2", "interp"} {
			b.Run("n="+n+"/"+stage, func(b *testing.B) {
				for b.Loop() {
					if _, err := prog.Run(stageNamed(stage), "ed", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchN is the length of the tape target's chains in the benchmarks: DPL_BENCH_N, or
// 10000.
func benchN() string {
	if n := os.Getenv("DPL_BENCH_N"); n != "" {
		return n
	}
	return "10000"
}

// BenchmarkTapeChain runs the programs of the tape target (TargetTape) on the
// refocused stages: go test -run XXX -bench TapeChain -cpuprofile ... ./internal/targets.
// DPL_BENCH_N sets the chain's length (default 10000).
func BenchmarkTapeChain(b *testing.B) {
	progs := suite(b)
	for _, name := range []string{"forward-chain.dpl", "grad-chain.dpl"} {
		prog := loadAt(b, named(b, progs, name), benchN())
		for _, stage := range []string{"machine", "cps2", "interp"} {
			b.Run(name+"/"+stage, func(b *testing.B) {
				for b.Loop() {
					if _, err := prog.Run(stageNamed(stage), "tape", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkTapePhases times the phases of the tape target's gradient on their own: the
// symbolic evaluation of the chain (interp's trace), R on the trace, and interp's
// evaluation of the derivative term R gives (DPL_BENCH_N sets the length, default
// 10000).
func BenchmarkTapePhases(b *testing.B) {
	src := named(b, suite(b), "grad-chain.dpl").Source(benchN())
	// The body of rd, traced at x = 1: the same chain as the program's.
	i := strings.Index(src, "1.rd[1](x:real. p(x))")
	if i < 0 {
		b.Fatal("grad-chain.dpl has no 1.rd[1](x:real. p(x))")
	}
	body := src[:i] + "p(x)"
	parsed, err := dpl.Parse([]byte(body))
	if err != nil {
		b.Fatal(err)
	}
	m, _, err := dpl.CheckIn(func(x string) (dpl.Type, bool) { return dpl.Real, x == "x" }, parsed)
	if err != nil {
		b.Fatal(err)
	}
	rho := map[string]dpl.Term{"x": &dpl.RealLit{R: 1}}
	b.Run("trace", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := interp.TraceDiff(dpl.Tape, rho, m, interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	c, _, err := interp.TraceDiff(dpl.Tape, rho, m, interderive.Options{})
	if err != nil {
		b.Fatal(err)
	}
	base := dpl.NewNames(c) // as the stages do: their supply is fresh for the trace already
	b.Run("R", func(b *testing.B) {
		for b.Loop() {
			names := *base
			env := dpl.DiffEnv{Names: &names}
			if _, err := dpl.Tape.R(env, &dpl.RealLit{R: 1}, &dpl.RealLit{R: 1}, "x", dpl.Real, c); err != nil {
				b.Fatal(err)
			}
		}
	})
	names := *base
	der, err := dpl.Tape.R(dpl.DiffEnv{Names: &names}, &dpl.RealLit{R: 1}, &dpl.RealLit{R: 1}, "x", dpl.Real, c)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("eval", func(b *testing.B) {
		for b.Loop() {
			if _, err := interp.EvalDiff(dpl.Tape, der, interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// chainProgram is the tape target's benchmark: a loop multiplying by 1 + eps until past
// e, about 1/eps multiplications; grad differentiates it with respect to its start.
func chainProgram(eps string, grad bool) string {
	loop := "letrec p(x:real):real = if 2.718281828459045 <. x then x else p(x * 1" + eps + ") in "
	if grad {
		return "1.rd[1](x:real. " + loop + "p(x))"
	}
	return loop + "p(1)"
}

// BenchmarkGradientChain measures the gradient of a loop of multiplications against
// the loop itself, under the tape strategy, on the machine and the interpreter: the
// target is a gradient costing at most 5 times the forward evaluation. The gradient
// reports that ratio as x-forward. The chain of eps = 0.00001 (about 100,000
// multiplications) has a trace of about 200,000 nested lets (each call binds its
// parameter, and Figure 5 binds x * 1.00001), that of eps = 0.0001 (about 10,000
// multiplications) a tenth of it; a run that a stage refuses (a depth bound) is
// skipped with the error.
func BenchmarkGradientChain(b *testing.B) {
	for _, eps := range []string{".00001", ".0001"} {
		b.Run("eps=0"+eps, func(b *testing.B) {
			for _, stage := range []string{"machine", "interp"} {
				b.Run(stage, func(b *testing.B) {
					st, ok := dpl.StageOf(stageNamed(stage))
					if !ok {
						b.Fatalf("%s does not run the differentiable language", stage)
					}
					var forward float64 // ns per run
					for _, mode := range []string{"forward", "gradient"} {
						b.Run(mode, func(b *testing.B) {
							prog, err := differentiable.Calculus.Load("dpl", []byte(chainProgram(eps, mode == "gradient")))
							if err != nil {
								b.Fatal(err)
							}
							term := prog.(interface{ Term() dpl.Term }).Term()
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

// TestPhases: the tape target times R through a Differentiator that delegates to tape
// (timedR), so the gradient it cuts into phases is the program's: the same answer as
// the run under tape itself, with one R (the program has one rd) that took some time;
// a program without rd has no phases.
func TestPhases(t *testing.T) {
	progs := suite(t)
	p := named(t, progs, "grad-chain.dpl")
	const size = "1000"
	prog := loadAt(t, p, size)
	term := prog.(interface{ Term() dpl.Term }).Term()
	for _, stage := range []string{"machine", "cps2", "interp"} {
		st, ok := dpl.StageOf(stageNamed(stage))
		if !ok {
			t.Fatalf("%s does not run the differentiable language", stage)
		}
		want, err := prog.Run(stageNamed(stage), "tape", interderive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var first, last time.Time
		var spent time.Duration
		a, err := st.Eval(timedR{dpl.Tape, &first, &last, &spent}, term, interderive.Options{})
		if err != nil || a.Observe() != want.Observation || spent <= 0 || last.Sub(first) != spent {
			t.Errorf("%s: %s (want %s), %v; R from %v to %v, %v in all", stage, a, want.Observation, err, first, last, spent)
		}
		if ph, err := phases(p, size, stage); err != nil || ph.Before <= 0 || ph.R <= 0 || ph.After <= 0 {
			t.Errorf("%s: phases %+v, %v", stage, ph, err)
		}
	}
	if _, err := phases(named(t, progs, "forward-chain.dpl"), size, "interp"); err == nil {
		t.Error("phases of a program without rd: no error")
	}
}
