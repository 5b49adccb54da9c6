package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTracePageNamesRules: for a program of every calculus, the page of trace --stage
// all --html names the rule of each contraction in its row, and every stage's cell
// ends with the same rule ("⇒ RULE"); the last row ends the run. The rules, from the
// programs' comments, derived there by hand: the whole sequence where the comment
// gives it, else rules that must occur.
func TestTracePageNamesRules(t *testing.T) {
	data := filepath.Join("..", "..", "testdata")
	tests := []struct {
		path  string // a file of testdata, or a new file with src
		src   string
		rules []string
		whole bool // rules is the whole sequence
	}{
		{"p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4", []string{"CmpCst", "StepCst/InOut", "IdCst"}, true},
		{"p.dpl", "1.rd[3](x:real. x * x)", []string{"rd", "sym/op"}, false},
		{filepath.Join(data, "lambda", "negative.lam"), "", []string{"let", "delta", "delta"}, true},
		{filepath.Join(data, "abductive", "x1.abd"), "", []string{"param", "delta", "abduct"}, false},
		{filepath.Join(data, "handlers", "straight-through.rh"), "", []string{"rh/op", "rh/var", "rh/pure", "rh/ret"}, false},
		{filepath.Join(data, "rules", "cbv", "beta-delta.term"), "", []string{"beta", "delta"}, true},
	}
	rowRE := regexp.MustCompile(`(?s)<tr class="([^"]*)" id="row\d+"><td>(.*?)</td>\n(.*?)</tr>`)
	labelRE := regexp.MustCompile(`^(\d+)\. <b>(.*)</b>$`)
	cellRE := regexp.MustCompile(`(?s)<td><pre>(.*?)</pre></td>`)
	for _, tt := range tests {
		path := tt.path
		if tt.src != "" {
			path = write(t, tt.path, tt.src)
		}
		page := filepath.Join(t.TempDir(), "trace.html")
		if _, stderr, code := runCmd("trace", "--stage", "all", "--html", page, path); code != 0 {
			t.Errorf("%s: exit %d: %s", tt.path, code, stderr)
			continue
		}
		html, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rows := rowRE.FindAllStringSubmatch(string(html), -1)
		if len(rows) < 2 {
			t.Errorf("%s: %d rows", tt.path, len(rows))
			continue
		}
		var rules []string
		for i, m := range rows {
			cells := cellRE.FindAllStringSubmatch(m[3], -1)
			if len(cells) < 5 {
				t.Errorf("%s: row %d has %d stages", tt.path, i+1, len(cells))
			}
			if i == len(rows)-1 {
				if m[1] != "step" || m[2] != "end" || strings.Contains(m[3], "⇒") {
					t.Errorf("%s: the last row is not the end: %q", tt.path, m[0])
				}
				continue
			}
			l := labelRE.FindStringSubmatch(m[2])
			if m[1] != "step" || l == nil || l[1] != strconv.Itoa(i+1) {
				t.Errorf("%s: row %d names no rule: %q", tt.path, i+1, m[0])
				continue
			}
			rules = append(rules, l[2])
			for _, c := range cells {
				if !strings.HasSuffix(c[1], "⇒ "+l[2]) {
					t.Errorf("%s: row %d (%s): a cell does not end with its rule: %q", tt.path, i+1, l[2], c[1])
				}
			}
		}
		if tt.whole && !slices.Equal(rules, tt.rules) {
			t.Errorf("%s: rules %v, want %v", tt.path, rules, tt.rules)
		}
		for _, r := range tt.rules {
			if !slices.Contains(rules, r) {
				t.Errorf("%s: rules %v lack %s", tt.path, rules, r)
			}
		}
	}
}
