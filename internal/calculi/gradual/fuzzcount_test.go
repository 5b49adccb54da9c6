package gradual

import (
	"testing"

	"github.com/interderive/interderive/internal/workbench"
)

// TestFuzzCountsPrograms: fuzz --count 20 of the gradual calculi runs 20 programs:
// at most 20 distinct, one outcome each (20 in all), lockstep, preservation, blame
// and seq checked on every case, and rulefiles on the cases of a semantics with a
// rule file, fewer than 20 (edn, one of the five, has none). Before rulefiles said
// which semantics it applies to, it skipped edn's cases, rapid discarded them after
// lockstep had run, and fuzz counted their programs: 25 distinct programs and 25
// outcomes of 20 (seed 1).
func TestFuzzCountsPrograms(t *testing.T) {
	w := newBench(t)
	plans, err := w.PlanFuzz(workbench.FuzzOptions{Calculi: []string{Calculus.Name()}, Size: 3})
	if err != nil {
		t.Fatal(err)
	}
	res := w.Fuzz(plans[0], workbench.FuzzConfig{Count: 20, Jobs: 1, Seed: 1}, nil)
	summary := plans[0].Summary(res)
	outcomes := res.Values + res.Errors + res.Stuck + res.OutOfFuel + res.Limited
	if res.Found != nil || res.Cases != 20 || res.Distinct > 20 || res.Distinct < 1 || outcomes != 20 {
		t.Fatalf("%+v, outcomes %d: %s", res, outcomes, summary)
	}
	for i, name := range res.Props {
		n := res.PropChecks[i]
		if name == "rulefiles" && (n < 1 || n >= 20) || name != "rulefiles" && n != 20 {
			t.Errorf("%s checked %d times of 20: %s", name, n, summary)
		}
	}
	if len(res.Props) != 5 {
		t.Errorf("properties %v: %s", res.Props, summary)
	}
}
