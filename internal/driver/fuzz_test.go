package driver

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
)

// FuzzCastStages runs every well-typed program the fuzzer finds on every stage, under
// every semantics, merged and unmerged, with a small fuel bound: no stage may panic,
// get stuck, or part from the reduction semantics.
func FuzzCastStages(f *testing.F) {
	testenv.AddFiles(f, "../../testdata/gradual/*.*", "../../testdata/gradual/examples/*.*")
	f.Fuzz(func(t *testing.T, src []byte) {
		var programs []g.Expr
		if e, err := g.Parse(src, g.GTLC); err == nil {
			if c, _, err := g.InsertCasts(e); err == nil {
				programs = append(programs, c)
			}
		}
		if e, err := g.Parse(src, g.CastCalculus); err == nil {
			if _, err := g.TypeOf(e); err == nil {
				programs = append(programs, e)
			}
		}
		for _, e := range programs {
			for _, sem := range g.Standard() {
				te := g.Translate(sem, e)
				for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
					var ref []string
					refAns, refErr := CastStages()[0].Eval(sem, te, interderive.Options{Fuel: 500, Merging: mode, OnContract: func(r string) { ref = append(ref, r) }})
					if refErr != nil && !errors.Is(refErr, interderive.ErrOutOfFuel) {
						t.Fatalf("reduction, %s, %s: %v\n%s", sem.Name(), mode, refErr, g.Format(e))
					}
					for _, st := range CastStages()[1:] {
						var rules []string
						a, err := st.Eval(sem, te, interderive.Options{Fuel: 500, Merging: mode, OnContract: func(r string) { rules = append(rules, r) }})
						if i := firstDiff(ref, rules); i >= 0 {
							t.Fatalf("%s, %s, %s: contraction %d is %s, not %s\n%s", st.Name, sem.Name(), mode, i+1, ruleAt(rules, i), ruleAt(ref, i), g.Format(e))
						}
						if (err == nil) != (refErr == nil) || (err == nil && !sameAnswer(a, refAns)) {
							t.Fatalf("%s, %s, %s: %v %v, reduction %v %v\n%s", st.Name, sem.Name(), mode, a, err, refAns, refErr, g.Format(e))
						}
					}
				}
			}
		}
	})
}

// FuzzDPLStages runs every well-typed differentiable program the fuzzer finds on every
// stage under every differentiation strategy, with a small fuel bound: no stage may
// panic or part from the reduction semantics (contractions, answer, and every rd's
// trace and derivative).
func FuzzDPLStages(f *testing.F) {
	testenv.AddFiles(f, "../../testdata/differentiable/*.dpl", "../../testdata/differentiable/examples/*.dpl")
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := dpl.Parse(src)
		if err != nil {
			return
		}
		prog, _, err := dpl.Check(p)
		if err != nil {
			return
		}
		for _, ad := range dpl.Differentiators() {
			if _, d := DPLLockstep(DPLStages(), ad, prog, 500); d != nil {
				t.Fatalf("%v\n%s", d, dpl.Format(prog))
			}
		}
	})
}
