package targets

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/interderive/interderive"
)

// BenchmarkDerived runs typed fib 14 and dynamic fib 15 under ED on the reduction
// semantics, the machine, the CPS evaluator, the interpreter and the compiled
// interpreter, hand-written ("ed") and derived from the rule file (RuleFile), and
// reports the contractions and the allocations per contraction beside the time:
// compare the ratios within one run.
//
//	go test -run XXX -bench Derived -benchmem ./internal/targets
func BenchmarkDerived(b *testing.B) {
	progs := suite(b)
	rules := filepath.Join("..", "..", RuleFile)
	for _, prog := range []struct{ name, size string }{{"fib-typed.gtlc", "14"}, {"fib-dynamic.gtlc", "15"}} {
		p := loadAt(b, named(b, progs, prog.name), prog.size)
		for _, stage := range []string{"reduction", "machine", "cps2", "interp", "compile"} {
			for _, v := range []struct{ name, variant string }{{"hand", "ed"}, {"derived", rules}} {
				b.Run(prog.name+"/"+prog.size+"/"+stage+"/"+v.name, func(b *testing.B) {
					out, err := p.Run(stageNamed(stage), v.variant, interderive.Options{})
					if err != nil {
						b.Fatal(err)
					}
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					for b.Loop() {
						if _, err := p.Run(stageNamed(stage), v.variant, interderive.Options{}); err != nil {
							b.Fatal(err)
						}
					}
					runtime.ReadMemStats(&after)
					b.ReportMetric(float64(out.Steps), "contractions/op")
					b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N)/float64(out.Steps), "allocs/contraction")
				})
			}
		}
	}
}
