package targets

import (
	"fmt"
	"time"

	"github.com/interderive/interderive/internal/workbench"
)

// RuleFile is the rule file the derived target runs, from the repository's root (as
// bench runs the suite from testdata/bench): ED written as a rule file.
const RuleFile = "gradual/rules/ed.sem"

// TargetDerived measures the stages derived from a rule file (issue 17, point 7):
// on sum.gtlc the derived reduction semantics is quadratic and the derived machine
// linear in the contractions, and on dynamic fib, where the coercions work, the
// derived machine is within 5× of the hand-written machine, both under ED.
func TargetDerived(c Config) (Target, error) {
	t := Target{Name: "semantics as data: the stages derived from " + RuleFile,
		Bound: "on sum.gtlc derived reduction exponent ≥ 1.8, derived machine ≤ 1.1; on fib-dynamic.gtlc derived machine ≤ 5× the hand-written machine"}
	sum, err := c.program("sum.gtlc")
	if err != nil {
		return t, err
	}
	exps := map[string]float64{}
	sizes := sum.Sizes
	for _, stage := range []string{"reduction", "machine"} {
		var rows []workbench.BenchRow
		for _, size := range sizes {
			r := bestOfThree(sum, size, stage, RuleFile)
			line := "derived " + describeRow(r)
			c.logf("  %s", line)
			t.Details = append(t.Details, line)
			if r.Err != nil {
				return t, fmt.Errorf("sum.gtlc on the derived %s at %s: %w", stage, size, r.Err)
			}
			rows = append(rows, r)
			if stage == "reduction" && r.Time > c.Second {
				sizes = sizes[:len(rows)] // the machine over the same range of contractions
				break
			}
		}
		exps[stage] = workbench.GrowthExponent(rows)
	}
	fib, err := c.program("fib-dynamic.gtlc")
	if err != nil {
		return t, err
	}
	const n = "15"
	hand := bestOfThree(fib, n, "machine", "ed")
	derived := bestOfThree(fib, n, "machine", RuleFile)
	for _, r := range []workbench.BenchRow{hand, derived} {
		if r.Err != nil {
			return t, fmt.Errorf("fib-dynamic.gtlc on the machine: %w", r.Err)
		}
	}
	if hand.Contractions != derived.Contractions {
		return t, fmt.Errorf("fib-dynamic.gtlc %s: the hand-written machine makes %d contractions, the derived one %d", n, hand.Contractions, derived.Contractions)
	}
	for _, r := range []struct {
		who string
		row workbench.BenchRow
	}{{"hand-written", hand}, {"derived", derived}} {
		line := r.who + " " + describeRow(r.row)
		c.logf("  %s", line)
		t.Details = append(t.Details, line)
	}
	ratio := derived.Time.Seconds() / hand.Time.Seconds()
	t.Measured = fmt.Sprintf("sum.gtlc exponents: derived reduction %.2f, derived machine %.2f; fib-dynamic %s: derived machine %s, hand-written %s: %.1f×",
		exps["reduction"], exps["machine"], n, derived.Time.Round(time.Microsecond), hand.Time.Round(time.Microsecond), ratio)
	t.Met = exps["reduction"] >= 1.8 && exps["machine"] <= 1.1 && ratio <= 5
	return t, nil
}
