package gogen

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInterpValueContractum checks which rules of gradual/rules/ed.sem the generated
// interpreter ends by returning the contractum as the call's value
// (valueContractum), as read from the file by hand: δ's integers and booleans (true
// and false are simple values, s) return at once; IdCst's v does where it is not a
// variable; If's branch, β's and Let's substitutions, Letrec's, and CmpCst's and
// AppCst's casts (crc is a value only of some coercions) go back to interp's loop,
// and so do the contractions of C, whose case is of another kind than the rule's
// contractum's value test would need (nc, fail: C's values by root); the context rule
// Blame aborts. The events of these rules on the corpus are TestLockstep's.
func TestInterpValueContractum(t *testing.T) {
	files, err := Generate(loadRules(t, "gradual/rules/ed.sem"), "ed.sem")
	if err != nil {
		t.Fatal(err)
	}
	// Each rule written in a case of interp, by its comment line, and how it ends.
	ruleAt := regexp.MustCompile(`(?m)^\s*// rule (\S+): `)
	guarded := regexp.MustCompile(`if \w+\.t\.Tag != tagVar \{\s*goto contractedValue`)
	text := string(files["interp.go"])
	marks := ruleAt.FindAllStringSubmatchIndex(text, -1)
	got := map[string]string{}
	for i, m := range marks {
		end := len(text)
		if i+1 < len(marks) {
			end = marks[i+1][0]
		}
		body, name := text[m[1]:end], text[m[2]:m[3]]
		how := "loop"
		switch {
		case guarded.MatchString(body):
			how = "value unless a variable"
		case strings.Contains(body, "goto contractedValue"):
			how = "value"
		}
		if prev, ok := got[name]; ok && prev != how {
			t.Errorf("rule %s ends both ways: %s and %s", name, prev, how)
		}
		got[name] = how
	}
	want := map[string]string{
		"delta": "value", "IdCst": "value unless a variable",
		"If": "loop", "beta": "loop", "Let": "loop", "Letrec": "loop",
		"CmpCst": "loop", "StepCst": "loop", "FailCst": "loop", "FailFC": "loop", "AppCst": "loop",
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			delete(got, name) // C's rules and Blame: checked below
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("how interp's rules end (-want +got):\n%s", diff)
	}
}
