package main

import (
	"flag"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/driver"
	"github.com/interderive/interderive/interp"
	"pgregory.net/rapid"
)

// TestFuzzFindsAPlantedBug perturbs one rule in one stage — an interpreter that
// reports StepCst/IdR contractions as StepCst/IdL — and expects fuzz to find it and
// shrink it to a small program on which the perturbed stage, and only it, disagrees.
func TestFuzzFindsAPlantedBug(t *testing.T) {
	perturbed := func(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
		on := opts.OnContract
		opts.OnContract = func(rule string) {
			if rule == "StepCst/IdR" {
				rule = "StepCst/IdL"
			}
			if on != nil {
				on(rule)
			}
		}
		return interp.EvalCast(sem, e, opts)
	}
	stages := driver.CastStages()
	for i := range stages {
		if stages[i].Name == "interp" {
			stages[i].Eval = perturbed
		}
	}
	checks := flag.Lookup("rapid.checks").Value.String()
	defer flag.Set("rapid.checks", checks)
	prop := func(t *rapid.T, c *counterexample) { fuzzGradual(t, c, stages, g.Standard(), 5) }
	n, c := fuzz(prop, 2000, 2, 0, func(int64) {})
	if c == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted bug", n)
	}
	t.Logf("found after %d programs:\n%s\n%s", n, strings.Join(c.comment, "\n"), c.program)
	if !strings.Contains(c.comment[0], "interp under") || !strings.Contains(c.comment[0], "StepCst/IdL") {
		t.Errorf("the counterexample blames %q, not the perturbed rule in interp", c.comment[0])
	}
	if len(c.program) > 300 {
		t.Errorf("the counterexample is not shrunk: %d characters", len(c.program))
	}
}
