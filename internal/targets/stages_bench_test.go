package targets

import (
	"fmt"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// BenchmarkStagePairs runs each hand-written stage of the gradual calculi beside the
// stage it should keep pace with, on typed fib 14 and dynamic fib 15 under ED: the
// calculus of closures beside the reduction semantics, the two-level CPS evaluator
// beside the machine. The second of a pair reports its time as a multiple of the
// first's (x-reduction, x-machine): the target is at most 2 (docs/performance.md).
//
//	go test -run XXX -bench StagePairs -benchtime 20x ./internal/targets
func BenchmarkStagePairs(b *testing.B) {
	programs := []struct {
		name    string
		n       int
		dynamic bool
	}{{"typed/n=14", 14, false}, {"dyn/n=15", 15, true}}
	pairs := [][2]string{{"reduction", "closures"}, {"machine", "cps2"}}
	for _, p := range programs {
		e := g.Translate(g.ED, fibProgram(b, p.n, p.dynamic))
		for _, pair := range pairs {
			var base float64 // ns per run of the first of the pair
			for i, name := range pair {
				st, ok := g.StageOf(stageNamed(name))
				if !ok {
					b.Fatalf("%s does not run the gradual calculi", name)
				}
				b.Run(fmt.Sprintf("%s/%s", p.name, name), func(b *testing.B) {
					for b.Loop() {
						if _, err := st.Eval(g.ED, e, interderive.Options{}); err != nil {
							b.Fatal(err)
						}
					}
					ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
					if i == 0 {
						base = ns
					} else if base > 0 {
						b.ReportMetric(ns/base, "x-"+pair[0])
					}
				})
			}
		}
	}
}
