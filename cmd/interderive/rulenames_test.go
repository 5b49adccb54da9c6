package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRuleFileNames: a rule file's one variant, "file", names nothing a person
// wrote: a trace's header, the side-by-side trace's and compare's table name the
// file's language, (language cbv) in cbv.sem, and the file instead; calculi says
// what the variant is: the rule file itself.
func TestRuleFileNames(t *testing.T) {
	cbv := filepath.Join("..", "..", "testdata", "rules", "cbv.sem")
	prog := filepath.Join("..", "..", "testdata", "rules", "cbv", "beta-delta.term")
	named := "cbv (" + cbv + ")"
	tests := []struct {
		args []string
		want []string // lines of the output, in order
	}{
		{[]string{"trace", "--stage", "machine", prog}, []string{"language " + named + ", stage machine", "program    (app (lam x Int (add x 1)) 2)"}},
		{[]string{"trace", "--stage", "all", prog}, []string{"language  " + named, "program   (app (lam x Int (add x 1)) 2)"}},
		{[]string{"compare", "--rules", cbv, prog}, []string{
			"language" + strings.Repeat(" ", len(named)-len("language")+2) + "stage      answer  contractions  time",
			named + "  reduction  3       2 ",
			"all stages agree under " + named,
		}},
		{[]string{"calculi"}, []string{"  --rules-variant the semantics: the rule file itself (--rules, or the one the program names), which its one value stands for: file (default)"}},
	}
	for _, tc := range tests {
		stdout, stderr, code := runCmd(tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d\n%s%s", tc.args, code, stdout, stderr)
			continue
		}
		lines, at := strings.Split(stdout, "\n"), 0
		for _, want := range tc.want {
			for at < len(lines) && !strings.HasPrefix(lines[at], want) {
				at++
			}
			if at == len(lines) {
				t.Errorf("%v: no line %q (in order) in\n%s", tc.args, want, stdout)
				break
			}
		}
		if strings.Contains(stdout, "rules-variant file") || strings.Contains(stdout, "under file") {
			t.Errorf("%v: the variant \"file\" named in\n%s", tc.args, stdout)
		}
	}
}
