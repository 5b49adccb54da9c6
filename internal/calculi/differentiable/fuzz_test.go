package differentiable

import (
	"testing"

	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/testenv"
)

// FuzzDPLStages runs every well-typed differentiable program the fuzzer finds on every
// stage under every differentiation strategy, with a small fuel bound: no stage may
// panic or part from the reduction semantics (workbench.Lockstep: contractions,
// answer, and every rd's trace and derivative).
func FuzzDPLStages(f *testing.F) {
	testenv.AddFiles(f, "../../../testdata/differentiable/*.dpl", "../../../testdata/differentiable/examples/*.dpl")
	w := newBench(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Calculus.Load(ext, src)
		if err != nil {
			return
		}
		for _, ad := range dpl.Differentiators() {
			if _, d := w.Lockstep(Calculus, p, stages(), ad.Name(), only, 500); d != nil {
				t.Fatalf("%v\n%s", d, dpl.Format(p.(program).term))
			}
		}
	})
}
