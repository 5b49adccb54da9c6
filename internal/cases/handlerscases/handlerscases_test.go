package handlerscases

import (
	"testing"

	"github.com/interderive/interderive/handlers"
)

// Every case parses and type-checks, and its rules are the language's.
func TestCasesWellFormed(t *testing.T) {
	known := map[string]bool{}
	for _, r := range handlers.Rules() {
		known[r] = true
	}
	seen := map[string]bool{}
	for _, c := range Cases {
		if seen[c.Name] {
			t.Errorf("two cases named %s", c.Name)
		}
		seen[c.Name] = true
		Load(t, c.Program)
		for _, rs := range []string{c.Rules, c.Commands} {
			for _, r := range splitRules(rs) {
				if !known[r] {
					t.Errorf("%s: unknown rule %q", c.Name, r)
				}
			}
		}
		if (c.Observe == "") == (c.Approx == nil) {
			t.Errorf("%s: give Observe or Approx", c.Name)
		}
	}
	// Every rule of Fig. 7 fires in some case (by the hand derivations).
	fired := map[string]bool{}
	for _, c := range Cases {
		for _, rs := range []string{c.Rules, c.Commands} {
			for _, r := range splitRules(rs) {
				fired[r] = true
			}
		}
	}
	for _, r := range []string{handlers.RuleRHRet, handlers.RuleRHVar, handlers.RuleRHOp, handlers.RuleRHNest, handlers.RuleRHPure,
		handlers.RuleCLet, handlers.RuleHandle, handlers.RuleGet, handlers.RulePut} {
		if !fired[r] {
			t.Errorf("no case derives %s", r)
		}
	}
}

func splitRules(s string) []string {
	if s == "" || s == "-" {
		return nil
	}
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
