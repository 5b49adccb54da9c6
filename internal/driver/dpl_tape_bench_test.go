package driver

import (
	"os"
	"testing"

	"github.com/interderive/interderive"
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
