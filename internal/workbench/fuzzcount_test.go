package workbench

import (
	"testing"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// skipping is a property that draws a number after lockstep has run the case's
// program, and has rapid discard the case when the number is odd: rapid replaces the
// case with another, so that its program, its outcome and its lockstep check must not
// count (before the engine counted a run only when it ended, they did: more distinct
// programs, outcomes and lockstep checks than programs).
func skipping() Property {
	return Property{Name: "skipping", Doc: "discards half its cases", Failure: "never",
		Check: func(t *rapid.T, _ int, _ string, _ []interderive.Stage) *Counterexample {
			if rapid.IntRange(0, 1).Draw(t, "odd") == 1 {
				t.SkipNow()
			}
			return nil
		}}
}

// oneOnly is a property stated for the variant one alone (Property.Applies), whose
// input is a pair of numbers (Property.Unit).
func oneOnly() Property {
	return Property{Name: "one-only", Doc: "holds under one", Failure: "never", Unit: "pairs",
		Applies: func(variant string) bool { return variant == "one" },
		Check: func(t *rapid.T, _ int, variant string, _ []interderive.Stage) *Counterexample {
			if variant != "one" {
				t.Fatalf("checked under %s", variant)
			}
			rapid.IntRange(0, 9).Draw(t, "a")
			rapid.IntRange(0, 9).Draw(t, "b")
			return nil
		}}
}

// TestFuzzCountsAreConsistent: whatever a case's properties do after lockstep (a
// property that has rapid discard half the cases, one that applies to one variant of
// two), fuzz --count N reports N programs, at most N of them distinct, outcomes that
// add up to N (one per program, its reference run), lockstep checked on N programs,
// and a property that applies to some variants on fewer, in its unit.
func TestFuzzCountsAreConsistent(t *testing.T) {
	keepRapidFlags(t)
	c := newCounter()
	c.props = []Property{skipping(), oneOnly()}
	w := newBench(t, c)
	for _, tc := range []struct {
		count, jobs int
		seed        uint64
	}{{20, 1, 7}, {150, 2, 8}} {
		p, res := fuzzOne(t, w, FuzzOptions{Size: 5, Stages: []string{"quiet"}}, FuzzConfig{Count: tc.count, Jobs: tc.jobs, Seed: tc.seed})
		n := int64(tc.count)
		outcomes := res.Values + res.Errors + res.Stuck + res.OutOfFuel + res.Limited
		if res.Found != nil || res.Cases != n || res.Distinct > tc.count || res.Distinct < 1 || outcomes != n {
			t.Errorf("--count %d: %+v, outcomes %d: %s", tc.count, res, outcomes, p.Summary(res))
			continue
		}
		checks := map[string]int64{}
		for i, name := range res.Props {
			checks[name] = res.PropChecks[i]
		}
		// one-only applies under one, drawn about half the time: some cases, not all.
		if checks[Lockstep] != n || checks["skipping"] != n || checks["one-only"] < 1 || checks["one-only"] >= n {
			t.Errorf("--count %d: checks %v: %s", tc.count, checks, p.Summary(res))
		}
	}
}
