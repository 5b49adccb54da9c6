package targets

import (
	"path/filepath"
	"testing"

	"github.com/interderive/interderive"
)

func BenchmarkZZ(b *testing.B) {
	progs := suite(b)
	rules := filepath.Join("..", "..", RuleFile)
	for _, prog := range []struct{ name, size string }{{"fib-typed.gtlc", "14"}, {"fib-dynamic.gtlc", "15"}} {
		p := loadAt(b, named(b, progs, prog.name), prog.size)
		for _, v := range []struct{ name, variant, engine string }{{"hand", "ed", ""}, {"compiled", rules, interderive.EngineCompiled}} {
			b.Run(prog.name+"/"+v.name, func(b *testing.B) {
				opts := interderive.Options{Engine: v.engine}
				if _, err := p.Run(stageNamed("interp"), v.variant, opts); err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := p.Run(stageNamed("interp"), v.variant, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
