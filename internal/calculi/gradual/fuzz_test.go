package gradual

import (
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
)

// FuzzCastStages runs every well-typed program the fuzzer finds, read as GTLC and as
// the cast calculus, on every stage, under every standard semantics, merged and
// unmerged, with a small fuel bound: no stage may panic, get stuck, or part from the
// reduction semantics (workbench.Lockstep).
func FuzzCastStages(f *testing.F) {
	testenv.AddFiles(f, "../../../testdata/gradual/*.*", "../../../testdata/gradual/examples/*.*")
	w := newBench(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var programs []workbench.Program
		for _, lang := range []string{gtlc, cast} {
			if p, err := Calculus.Load(lang, src); err == nil {
				programs = append(programs, p)
			}
		}
		for _, p := range programs {
			for _, sem := range g.Standard() {
				for _, mode := range modes() {
					if _, d := w.Lockstep(Calculus, p, stages(), sem.Name(), mode, 500); d != nil {
						text, _ := p.Source(interderive.PrintBudget{})
						t.Fatalf("%v\n%s", d, text)
					}
				}
			}
		}
	})
}
