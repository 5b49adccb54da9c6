package gradual_test

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
)

// TestRuleNames: the contraction names are those of spec §4 (rules β, δ, If, StepCst,
// IdCst, CmpCst, AppCst, FailCst, FailFC, Blame, Let, Letrec), §6 (MergeCst) and the
// event names of docs/derivation.md (`beta`, `delta`, `StepCst/InOut`), written out
// here from the specification; a coercion step is StepCst/ + the coercion rule's name
// of §3.2–3.3, for any rule, also one of a semantics outside the four.
func TestRuleNames(t *testing.T) {
	names := []struct{ got, want string }{
		{g.RuleBeta, "beta"},
		{g.RuleDelta, "delta"},
		{g.RuleIf, "If"},
		{g.RuleStepCst, "StepCst"},
		{g.RuleIdCst, "IdCst"},
		{g.RuleCmpCst, "CmpCst"},
		{g.RuleAppCst, "AppCst"},
		{g.RuleFailCst, "FailCst"},
		{g.RuleFailFC, "FailFC"},
		{g.RuleBlame, "Blame"},
		{g.RuleLet, "Let"},
		{g.RuleLetrec, "Letrec"},
		{g.RuleMergeCst, "MergeCst"},
	}
	for _, n := range names {
		if n.got != n.want {
			t.Errorf("rule %q, want %q", n.got, n.want)
		}
	}
	steps := []struct{ rule, want string }{
		{"IdL", "StepCst/IdL"},
		{"IdR", "StepCst/IdR"},
		{"InOut", "StepCst/InOut"},
		{"Arr", "StepCst/Arr"},
		{"FailCo", "StepCst/FailCo"},
		{"InFail", "StepCst/InFail"},
		{"ArrFail", "StepCst/ArrFail"},
		{"FailL", "StepCst/FailL"},
		{"FailR", "StepCst/FailR"},
		{"Collapse", "StepCst/Collapse"}, // a rule of some other semantics
	}
	for _, s := range steps {
		if got := g.StepCst(s.rule); got != s.want {
			t.Errorf("StepCst(%q) = %q, want %q", s.rule, got, s.want)
		}
	}
}
