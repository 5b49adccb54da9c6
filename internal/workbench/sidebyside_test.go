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
// disagree (not the first stage's rule, nor "end"). The rows, by hand: a's lane
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
		{"step", "1. <b>r1</b>", []string{"a1\n⇒ r1", "⇒ r1"}},
		{"step disagree", "2. <b>the stages disagree</b>", []string{"⇒ r2", "b2\n⇒ r3"}},
		{"step disagree", "3. <b>the stages disagree</b>", []string{"a-end", "b3\nb3&#39;\n⇒ r4"}},
		{"step", "end", []string{"", ""}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("the page's rows (-want +got):\n%s\n%s", d, page.String())
	}
}
