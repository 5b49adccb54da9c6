package main

import (
	"encoding/json"
	"html"
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
// ends with the same rule ("⇒ RULE"), and the row says that they agree (✓); the last
// row ends the run. The rules, from the
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
	labelRE := regexp.MustCompile(`^(\d+)\. <b>(.*)</b> <span class="ok" title="every stage contracts (.*)">✓</span>$`)
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
			if m[1] != "step agree" || l == nil || l[1] != strconv.Itoa(i+1) || l[3] != l[2] {
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

// firstMarks are the redex and the contractum first marked in the table of a page
// (the legend above it marks the words "redex" and "contractum").
func firstMarks(page string) (redex, contractum string) {
	_, table, _ := strings.Cut(page, "<tbody>")
	for _, m := range []struct {
		class string
		into  *string
	}{{"redex", &redex}, {"contractum", &contractum}} {
		if g := regexp.MustCompile(`<mark class="` + m.class + `">(.*?)</mark>`).FindStringSubmatch(table); g != nil {
			*m.into = html.UnescapeString(g[1])
		}
	}
	return redex, contractum
}

// TestTraceMarksRedex: the page of trace --stage all marks the first contraction's
// redex in the term before it and its contractum in the term after it, and its
// title names the calculus or the rule file's language, and the files; --json gives
// the same redex and contractum as data, placed in their terms in characters. The
// first contractions, by hand:
//   - cbv on (\x:Int. x * 2) ((\y:Int. y + 1) 3): the operator is a value, the
//     argument the redex (\y:Int. y + 1) 3, whose contractum is 3 + 1; in the term
//     the redex stands in parentheses after the 17 characters "(\x:Int. x * 2) (";
//   - the rule file cbv.sem on (app (lam x Int (add x 1)) 2) (the file's comment):
//     the whole term, 29 characters, is a beta redex, whose contractum (add 2 1) is
//     the whole term after;
//   - the cast, under ed (spec §3.1, TestTrace): <Int?^l2> <Int!> 4 as a whole, which
//     CmpCst contracts to <Int! ; Int?^l2> 4.
func TestTraceMarksRedex(t *testing.T) {
	data := filepath.Join("..", "..", "testdata")
	lam := write(t, "first.lam", `(\x:Int. x * 2) ((\y:Int. y + 1) 3)`)
	cast := write(t, "p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4")
	rules := filepath.Join(data, "rules", "cbv", "beta-delta.term")
	tests := []struct {
		path              string
		title             []string
		redex, contractum string
		start, end        int // the redex's characters in the term before
	}{
		{lam, []string{"lambda, evaluation cbv", "program " + lam}, `(\y:Int. y + 1) 3`, "3 + 1", 17, 34},
		{rules, []string{"language cbv (" + filepath.Join(data, "rules", "cbv.sem") + ")", "program " + rules}, "(app (lam x Int (add x 1)) 2)", "(add 2 1)", 0, 29},
		{cast, []string{"gradual, semantics ed", "program " + cast}, "<Int?^l2> <Int!> 4", "<Int! ; Int?^l2> 4", 0, 18},
	}
	for _, tt := range tests {
		page := filepath.Join(t.TempDir(), "trace.html")
		if _, stderr, code := runCmd("trace", "--stage", "all", "--html", page, tt.path); code != 0 {
			t.Errorf("%s: exit %d: %s", tt.path, code, stderr)
			continue
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		h := string(b)
		title := regexp.MustCompile(`<title>(.*)</title>`).FindStringSubmatch(h)
		for _, want := range tt.title {
			if title == nil || !strings.Contains(html.UnescapeString(title[1]), want) {
				t.Errorf("%s: the title %q does not name %q", tt.path, title, want)
			}
		}
		if r, c := firstMarks(h); r != tt.redex || c != tt.contractum {
			t.Errorf("%s: marked redex %q and contractum %q, want %q and %q", tt.path, r, c, tt.redex, tt.contractum)
		}
		if strings.Contains(h, "break-all") {
			t.Errorf("%s: the page breaks tokens anywhere (word-break: break-all)", tt.path)
		}

		stdout, _, code := runCmd("trace", "--stage", "all", "--json", tt.path)
		var doc struct {
			Version int
			Steps   []struct {
				N                 int
				Rule              string
				Agree             bool
				Redex, Contractum *struct {
					Term, Text string
					Start, End int
				}
				Stages []struct{ Stage, Rule string }
			}
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil || code != 0 {
			t.Errorf("%s: --json: exit %d, %v", tt.path, code, err)
			continue
		}
		if doc.Version != 2 || len(doc.Steps) < 2 || doc.Steps[0].Redex == nil || doc.Steps[0].Contractum == nil {
			t.Errorf("%s: --json: %s", tt.path, stdout)
			continue
		}
		st := doc.Steps[0]
		r, c := st.Redex, st.Contractum
		if !st.Agree || st.N != 1 || st.Rule == "" || len(st.Stages) < 5 || r.Text != tt.redex || r.Start != tt.start || r.End != tt.end ||
			string([]rune(r.Term)[r.Start:r.End]) != tt.redex || c.Text != tt.contractum || string([]rune(c.Term)[c.Start:c.End]) != tt.contractum {
			t.Errorf("%s: --json step 1: %+v, redex %+v, contractum %+v", tt.path, st, r, c)
		}
	}
}
