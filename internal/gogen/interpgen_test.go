package gogen

import (
	"regexp"
	"slices"
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

// TestSeesInnerFrames: the compiled interpreter keeps γ's record of every call only
// for a file with a context rule that reads frames other than the outermost, as read
// from the files by hand: a delimited rule (exceptions.sem's raise, under its
// handle; prompts.sem's control, under its prompt) or one that captures its context
// (callcc.sem's callcc; refs.sem's, store.sem's and letrec.sem's rules, which plug
// the context they capture under the configuration). The cast semantics' one context
// rule, Blame, discards the whole context and reads its outermost frame's position
// only; cbv.sem has no context rule.
func TestSeesInnerFrames(t *testing.T) {
	for _, tt := range []struct {
		file string
		want bool
	}{
		{"testdata/rules/exceptions.sem", true},
		{"testdata/rules/prompts.sem", true},
		{"testdata/rules/callcc.sem", true},
		{"testdata/rules/refs.sem", true},
		{"testdata/rules/store.sem", true},
		{"testdata/rules/letrec.sem", true},
		{"gradual/rules/ed.sem", false},
		{"gradual/rules/lud.sem", false},
		{"testdata/rules/cbv.sem", false},
	} {
		files, err := Generate(loadRules(t, tt.file), tt.file)
		if err != nil {
			t.Fatal(err)
		}
		want := "const seesInnerFrames = " + map[bool]string{false: "false", true: "true"}[tt.want]
		if !strings.Contains(string(files["match.go"]), want+"\n") {
			t.Errorf("%s: match.go has no %q", tt.file, want)
		}
	}
}

// TestCompiledChildrenLazily: the compiled interpreter keeps the children its frames
// fill in variables only, with no array of them, in the cases whose code reads them
// through those variables, as read from the files by hand. In ed.sem: every root with
// a frame (the operators, if, application and coercion application of E; sequence
// and arrow of C) but let, whose rule takes its body under its binder through the
// node (kidOpen). In exceptions.sem none: its handler rule reads the frames of γ,
// and a frame's node needs its children.
func TestCompiledChildrenLazily(t *testing.T) {
	lazyCases := func(file string) []string {
		files, err := Generate(loadRules(t, file), file)
		if err != nil {
			t.Fatal(err)
		}
		var lazy []string
		text := string(files["compile.go"])
		for _, m := range regexp.MustCompile(`(?m)^func \(compiler\) (\w+)\(`).FindAllStringSubmatchIndex(text, -1) {
			name := text[m[2]:m[3]]
			body := text[m[1]:]
			if end := strings.Index(body, "\nfunc "); end >= 0 {
				body = body[:end]
			}
			if strings.Contains(body, "var filled uint64") {
				lazy = append(lazy, name)
			}
		}
		slices.Sort(lazy)
		return lazy
	}
	want := []string{"kC_cArrow", "kC_cSeq", "kE_cAdd", "kE_cApp", "kE_cCrc", "kE_cDec", "kE_cEq", "kE_cIf", "kE_cInc", "kE_cLt", "kE_cMul", "kE_cSub", "kE_cZero"}
	if diff := cmp.Diff(want, lazyCases("gradual/rules/ed.sem")); diff != "" {
		t.Errorf("ed.sem's cases with their children in variables (-want +got):\n%s", diff)
	}
	if got := lazyCases("testdata/rules/exceptions.sem"); len(got) != 0 {
		t.Errorf("exceptions.sem's cases with their children in variables: %v, want none", got)
	}
}
