package workbench

import (
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteHTMLNamesRules: every row of the page names its contraction's rule, and
// every stage's cell the rule it contracted there; a row where the stages contract
// different rules, or where one has ended and another contracts, says that they
// disagree (not the first stage's rule, nor "end"); a row where they agree says so
// (class agree, ✓). The rows, by hand: a's lane
// contracts r1, r2 and ends; b's r1, r3, r4 and ends.
func TestWriteHTMLNamesRules(t *testing.T) {
	s := SideBySide{Program: "p", Variant: "v", Parameter: "--v", Lanes: []Lane{
		{Stage: "a", Rules: []string{"r1", "r2"}, Steps: [][]string{{"a1"}, {}, {"a-end"}}, Answer: "1"},
		{Stage: "b", Rules: []string{"r1", "r3", "r4"}, Steps: [][]string{{}, {"b2"}, {"b3", "b3'"}, {}}, Answer: "2"},
	}}
	var page strings.Builder
	if err := s.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	rowRE := regexp.MustCompile(`(?s)<tr class="([^"]*)" id="row\d+"><td>(.*?)</td>\n(.*?)</tr>`)
	cellRE := regexp.MustCompile(`(?s)<td><pre>(.*?)</pre></td>`)
	type row struct {
		Class, Label string
		Cells        []string
	}
	var got []row
	for _, m := range rowRE.FindAllStringSubmatch(page.String(), -1) {
		r := row{Class: m[1], Label: m[2]}
		for _, c := range cellRE.FindAllStringSubmatch(m[3], -1) {
			r.Cells = append(r.Cells, c[1])
		}
		got = append(got, r)
	}
	want := []row{
		{"step agree", `1. <b>r1</b> <span class="ok" title="every stage contracts r1">✓</span>`, []string{"a1\n⇒ r1", "⇒ r1"}},
		{"step disagree", "2. <b>the stages disagree</b>", []string{"⇒ r2", "b2\n⇒ r3"}},
		{"step disagree", "3. <b>the stages disagree</b>", []string{"a-end", "b3\nb3&#39;\n⇒ r4"}},
		{"step", "end", []string{"", ""}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the page's rows (-want +got):\n%s\n%s", d, page.String())
	}
}

// TestLocate: where a printed decomposition puts its redex in the printed term. The
// places, by hand: the hole of the context, where the term is the context's text
// around it, and the redex in it (in parentheses, or with parentheses it did not have
// printed alone, or printed otherwise, but for the program's text, which the stage did
// not print); else its only occurrence; else nowhere. Start
// and End count characters, not bytes (ρ and ↦ are two and three bytes).
func TestLocate(t *testing.T) {
	tests := []struct {
		name, term, context, part string
		program                   bool   // term is the program's text, not the stage's printing
		want                      string // the part located, "" for none
		start                     int
	}{
		{"exact", "-5 * -5 - -3", "[] - -3", "-5 * -5", false, "-5 * -5", 0},
		{"in parentheses", `(\x:Int. x * 2) ((\y:Int. y + 1) 3)`, `(\x:Int. x * 2) []`, `(\y:Int. y + 1) 3`, false, `(\y:Int. y + 1) 3`, 17},
		{"parentheses it lacked alone", `(\f. f) (\x. x) 5`, "[] 5", `(\f. f) \x. x`, false, `(\f. f) (\x. x)`, 0},
		{"printed otherwise", "a (1^{l}^{l} - 3) b", "a [] b", "1^{l} - 3", false, "1^{l}^{l} - 3", 3},
		{"the program's text, printed otherwise", "<Int <= Dyn>^l2 4", "[]", "<Int?^l2> 4", true, "", -1},
		{"the program's text, as printed", "(f 1) 2", "[] 2", "f 1", true, "f 1", 1},
		{"a literal [] before the hole", "cons [] (f 1)", "cons [] []", "f 1", false, "f 1", 9},
		{"another notation, once", "rev handle(2) x", "[[]]", "rev handle(2) x", false, "rev handle(2) x", 0},
		{"another notation, twice", "f x x", "g []", "x", false, "", -1},
		{"characters", "ρ ↦ (λy. y) 1", "ρ ↦ []", "(λy. y) 1", false, "(λy. y) 1", 4},
	}
	for _, tt := range tests {
		from, to := locate(tt.term, tt.context, tt.part, !tt.program)
		f := located(tt.term, tt.part, from, to)
		got := ""
		if from >= 0 {
			got = f.Text
		}
		if got != tt.want || f.Start != tt.start || tt.want != "" && f.End != tt.start+len([]rune(tt.want)) {
			t.Errorf("%s: located %q at [%d, %d), want %q at %d", tt.name, got, f.Start, f.End, tt.want, tt.start)
		}
	}
}

// TestFocusRows: the redex and the contractum of each row of a reduction lane. The
// lines are a run of 1.rd[3](x:real. x * x) as the reduction semantics prints it
// (cut short): the rd's decomposition in row 1, completed in row 3 (its contract and
// plug, not row 3's own, which follow its decomposition); row 2 is a nested layer's
// (no redex at top level); the last row has none. The first term is the
// decomposition's: the program's text is not the stage's printing.
func TestFocusRows(t *testing.T) {
	rows := [][]string{
		{"decompose: []  with redex  1.rd[3](x:real. mul(<x, x>))"},
		{"| decompose: []  with redex  mul(<x, x>)   (layer 1, symbolic)", "| finished:  mul(<x, x>)"},
		{"contraction 1 (rd) completes", "trace:      mul(<x, x>)", "contract:  let x:real = 3 in mul(<x, x>)", "plug:      let x:real = 3 in mul(<x, x>)",
			"decompose: []  with redex  let x:real = 3 in mul(<x, x>)", "contract:  mul(<3, 3>)", "plug:      mul(<3, 3>)"},
		{"decompose: []  with redex  mul(<3, 3>)  of kind E", "contract:  9", "plug:      9"},
		{},
	}
	type part struct{ Term, Text string }
	show := func(f *Focus) *part {
		if f == nil {
			return nil
		}
		_, p, _, ok := f.split()
		if !ok {
			return &part{f.Term, "?"}
		}
		return &part{f.Term, p}
	}
	var got [][2]*part
	for _, f := range focusRows(rows, "1.rd[3](x:real. x * x)") {
		got = append(got, [2]*part{show(f.redex), show(f.contractum)})
	}
	want := [][2]*part{
		{{"1.rd[3](x:real. mul(<x, x>))", "1.rd[3](x:real. mul(<x, x>))"}, nil},
		{nil, nil},
		{{"let x:real = 3 in mul(<x, x>)", "let x:real = 3 in mul(<x, x>)"}, {"mul(<3, 3>)", "mul(<3, 3>)"}},
		{{"mul(<3, 3>)", "mul(<3, 3>)"}, {"9", "9"}},
		{nil, nil},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestWriteJSONSteps: the JSON of a trace (version 2) has a step per row, with the
// redex located in the term before it and the contractum in the term after, in
// characters. By hand: in "(λx. x) ((λy. y) 1)" the redex (λy. y) 1 starts at
// character 9 and ends at 18; the contractum 1 of "(λx. x) 1" is character 8.
func TestWriteJSONSteps(t *testing.T) {
	s := SideBySide{Calculus: "lambda", File: "p.lam", Program: "(λx. x) ((λy. y) 1)", Parameter: "evaluation", Variant: "cbv", Mode: "default", Reference: "reduction",
		Lanes: []Lane{
			{Stage: "reduction", Rules: []string{"beta"}, Steps: [][]string{{"decompose: (λx. x) []  with redex  (λy. y) 1", "contract:  1", "plug:      (λx. x) 1"}, {}}, Answer: "…"},
			{Stage: "machine", Rules: []string{"beta"}, Steps: [][]string{{"eval"}}, Error: "stuck"},
		}}
	var b strings.Builder
	if err := s.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"version":2,"title":"lambda, evaluation cbv, mode default, program p.lam","calculus":"lambda","file":"p.lam","program":"(λx. x) ((λy. y) 1)",` +
		`"parameter":"evaluation","variant":"cbv","mode":"default","reference":"reduction",` +
		`"lanes":[{"stage":"reduction","rules":["beta"],"answer":"…"},{"stage":"machine","rules":["beta"],"answer":"","error":"stuck"}],` +
		`"steps":[{"n":1,"rule":"beta","agree":true,` +
		`"redex":{"term":"(λx. x) ((λy. y) 1)","text":"(λy. y) 1","start":9,"end":18},"contractum":{"term":"(λx. x) 1","text":"1","start":8,"end":9},` +
		`"stages":[{"stage":"reduction","rule":"beta","lines":["decompose: (λx. x) []  with redex  (λy. y) 1","contract:  1","plug:      (λx. x) 1"]},{"stage":"machine","rule":"beta","lines":["eval"]}]},` +
		`{"n":2,"rule":"","agree":true,"redex":null,"contractum":null,"stages":[{"stage":"reduction","rule":"","lines":[]},{"stage":"machine","rule":"","lines":[],"ended":true}]}]}` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
