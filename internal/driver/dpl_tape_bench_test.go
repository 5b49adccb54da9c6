package driver

import (
	"os"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/interp"
)

// BenchmarkTapeChain runs the programs of the tape target (TargetTape) on the
// refocused stages: go test -bench TapeChain -cpuprofile ... ./internal/driver/.
// DPL_BENCH_N sets the chain's length (default 10000).
func BenchmarkTapeChain(b *testing.B) {
	n := os.Getenv("DPL_BENCH_N")
	if n == "" {
		n = "10000"
	}
	suite, err := LoadBench("../../testdata/bench")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"forward-chain.dpl", "grad-chain.dpl"} {
		var p BenchProgram
		for _, q := range suite {
			if q.Name == name {
				p = q
			}
		}
		prog, err := p.Lang.Load([]byte(p.Source(n)))
		if err != nil {
			b.Fatal(err)
		}
		for _, stage := range []string{"machine", "cps2", "interp"} {
			b.Run(name+"/"+stage, func(b *testing.B) {
				for b.Loop() {
					if _, err := prog.Run(stage, "tape", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkTapePhases times the phases of the tape target's gradient on its own: the
// symbolic evaluation of the chain (interp's trace), R on the trace, and interp's
// evaluation of the derivative term R gives (DPL_BENCH_N sets the length, default
// 10000).
func BenchmarkTapePhases(b *testing.B) {
	n := os.Getenv("DPL_BENCH_N")
	if n == "" {
		n = "10000"
	}
	var src string
	suite, err := LoadBench("../../testdata/bench")
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range suite {
		if q.Name == "grad-chain.dpl" {
			src = q.Source(n)
		}
	}
	// The body of rd, traced at x = 1: the same chain as the program's.
	i := strings.Index(src, "1.rd[1](x:real. p(x))")
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
