package driver

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive"
)

func TestMatches(t *testing.T) {
	tests := []struct {
		expected, actual string
		want             bool
	}{
		{"4", "4", true},
		{"4", "5", false},
		{"blame *", "blame l1", true},
		{"blame *", "4", false},
		{"blame l1", "blame l2", false},
		{approxPrefix + "0.8414709848078965", "0.8414709848078964", true},
		{approxPrefix + "0.84147", "0.8414709848078965", false},
		{approxPrefix + "<1, <2.5, 1e-3>>", "<1.0000000000001, <2.5, 0.001>>", true},
		{approxPrefix + "<1, 2>", "<<1, 2>, 3>", false},
		{approxPrefix + "0", "1e-12", true},
		{approxPrefix + "0", "1e-3", false},
		{approxPrefix + "1", "undefined", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.expected, tt.actual); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.expected, tt.actual, got, tt.want)
		}
	}
}

// TestParseExpectationsErrors: a comment line shaped as a directive that is not a
// valid one is an error at its line and column, with a suggestion when the word is
// a directive's name misspelt; prose comments pass. Every position is counted by
// hand (columns count runes from 1).
func TestParseExpectationsErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the error, "" for none
	}{
		{"misspelt, brackets", "-- expct[ld]: 4\ninc 3", `1:4: unknown directive "expct": did you mean "expect"?`},
		{"misspelt, no brackets", "-- expext: 4\ninc 3", `1:4: unknown directive "expext": did you mean "expect"?`},
		{"upper case", "-- Expect: 4\ninc 3", `1:4: unknown directive "Expect": did you mean "expect"?`},
		{"rule for rules", "-- expect: 4\n  -- rule: delta\ninc 3", `2:6: unknown directive "rule": did you mean "rules"?`},
		{"expected", "-- expected: 4\ninc 3", `1:4: unknown directive "expected": did you mean "expect"?`},
		{"unknown word in brackets", "-- answer[ld]: 4\ninc 3", `1:4: unknown directive "answer" (the directives: expect, expect-approx, rules, fuel)`},
		{"unknown semantics", "-- expect[ld, xx]: 4\ninc 3", `1:15: unknown semantics "xx" (known: ld, lud, ed, eud, edn)`},
		{"missing colon", "-- expect[ld] 4\ninc 3", `1:15: a colon must follow expect[...]`},
		{"unclosed", "-- expect[ld: 4\ninc 3", `1:10: expect[ has no closing ]`},
		{"empty answer", "-- expect:\ninc 3", `1:11: an empty expectation: write the answer after the colon`},
		{"bad fuel", "-- expect: 4\n-- fuel: many\ninc 3", `2:10: fuel must be a positive number, not "many"`},
		{"second fuel", "-- expect: 4\n-- fuel: 5\n-- fuel: 6\ninc 3", `3:4: a second fuel line (the first is line 2)`},
		{"duplicate", "-- expect: 4\n-- expect[ed]: 4\ninc 3", `2:4: a second expectation for ed (already "4")`},
		{"rules without expect", "-- expect[ld]: 4\n-- rules[lud]: delta\ninc 3", `2:4: rules for lud, which has no expectation`},
		// Prose: a first word far from every directive, a word with no colon or
		// bracket after it, a first token that is not a word, a directive in the
		// middle of a line.
		{"prose", "-- expect: 4\n-- LD: slow\n-- note: x\n-- Total: 3\n-- expect the answer\n-- -beta-> x\ninc 3 -- expct: 5", ""},
	}
	for _, tt := range tests {
		_, err := ParseExpectations([]byte(tt.src), gradualLang{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	// Several errors are all reported, in line order.
	_, err := ParseExpectations([]byte("-- expct: 4\n-- expect[q]: 4\n"), gradualLang{})
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) != 2 || list[0].Pos.Line != 1 || list[1].Pos.Line != 2 {
		t.Errorf("two errors: got %v", err)
	}
}

// TestExpectations reads well-formed comments: per variant, approximations marked,
// rules per variant, fuel.
func TestExpectations(t *testing.T) {
	src := "-- expect[ld,lud]: blame l1\n-- expect[ed, eud]: 4\n-- rules[lud]: beta, delta\n-- fuel: 50\n-- note: prose\n1"
	x, err := ParseExpectations([]byte(src), gradualLang{})
	if err != nil {
		t.Fatal(err)
	}
	want := Expectations{Answer: map[string]string{"ld": "blame l1", "lud": "blame l1", "ed": "4", "eud": "4"},
		Rules: map[string][]string{"lud": {"beta", "delta"}}, Fuel: 50}
	if diff := cmp.Diff(want, x); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	x, err = ParseExpectations([]byte("-- expect-approx: 0.5\n1"), DPL())
	if err != nil || x.Answer["tape"] != approxPrefix+"0.5" {
		t.Errorf("expect-approx: %v, %v", x.Answer, err)
	}
}

// TestPlanCheck: the runs of a file, once per stage, variant and merging mode that
// applies. By hand: a gradual file with four standard expectations runs unmerged
// under each (4) and merged under LD and LUD, where merging preserves answers (2): 6
// per stage, 30 in all; a dpl file once per strategy and stage, 15; --stage and
// --semantics narrow them; a file that no run checks is an error.
func TestPlanCheck(t *testing.T) {
	gtlc := []byte("-- expect: 4\ninc 3")
	dplSrc := []byte("-- expect: 2\n1.rd[1](x:real. x + x)")
	tests := []struct {
		name string
		src  []byte
		l    Language
		opts CheckOptions
		runs int
		err  string
	}{
		{"gradual", gtlc, gradualLang{}, CheckOptions{}, 30, ""},
		{"dpl", dplSrc, DPL(), CheckOptions{}, 15, ""},
		{"two stages", gtlc, gradualLang{}, CheckOptions{Stages: []string{"machine", "interp"}}, 12, ""},
		{"ed only", gtlc, gradualLang{}, CheckOptions{Only: map[string][]string{"semantics": {"ed"}}}, 5, ""},
		{"ld only", gtlc, gradualLang{}, CheckOptions{Only: map[string][]string{"semantics": {"ld"}}}, 10, ""},
		{"--semantics leaves dpl alone", dplSrc, DPL(), CheckOptions{Only: map[string][]string{"semantics": {"ld"}}}, 15, ""},
		{"tape only", dplSrc, DPL(), CheckOptions{Only: map[string][]string{"ad": {"tape"}}}, 5, ""},
		{"excluded", []byte("-- expect[ed]: 4\ninc 3"), gradualLang{}, CheckOptions{Only: map[string][]string{"semantics": {"ld"}}}, 0,
			"no run: the file expects something only under ed, and --semantics selects ld"},
		{"no expectation", []byte("inc 3"), gradualLang{}, CheckOptions{}, 0, "no expectation: write -- expect: ANSWER"},
		// A program that does not load: one run per variant, on no stage.
		{"type error", []byte("-- expect: type error\ninc true"), gradualLang{}, CheckOptions{}, 4, ""},
	}
	for _, tt := range tests {
		p, err := PlanCheck("f", tt.src, tt.l, tt.opts)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case len(p.Runs) != tt.runs:
			t.Errorf("%s: %d runs, want %d: %v", tt.name, len(p.Runs), tt.runs, p.Runs)
		}
	}
	// dpl runs in its one mode; LD both unmerged and merged; ED unmerged only.
	p, _ := PlanCheck("f", dplSrc, DPL(), CheckOptions{Stages: []string{"machine"}, Only: map[string][]string{"ad": {"tape"}}})
	if want := []CheckRun{{"machine", "tape", interderive.MergeDefault}}; !slices.Equal(p.Runs, want) {
		t.Errorf("dpl runs %v, want %v", p.Runs, want)
	}
	p, _ = PlanCheck("f", gtlc, gradualLang{}, CheckOptions{Stages: []string{"machine"}, Only: map[string][]string{"semantics": {"ld", "ed"}}})
	want := []CheckRun{{"machine", "ld", interderive.Unmerged}, {"machine", "ld", interderive.Merged}, {"machine", "ed", interderive.Unmerged}}
	if !slices.Equal(p.Runs, want) {
		t.Errorf("gradual runs %v, want %v", p.Runs, want)
	}
}

// TestCheckRun: a run's failures. By hand: inc 3 is 4 with one delta contraction.
func TestCheckRun(t *testing.T) {
	tests := []struct {
		src  string
		opts CheckOptions
		want []string
	}{
		{"-- expect: 4\n-- rules: delta\ninc 3", CheckOptions{}, nil},
		{"-- expect: 5\ninc 3", CheckOptions{}, []string{"expected 5, got 4"}},
		{"-- expect: 4\n-- rules: beta\ninc 3", CheckOptions{}, []string{"rule beta never fired (fired: delta)"}},
		// One contraction of fuel is enough; none would be out of fuel, but 0 means
		// the file's (none here: the default).
		{"-- expect: 4\n-- fuel: 1\ninc 3", CheckOptions{}, nil},
		{"-- expect: 4\ninc inc 3", CheckOptions{Fuel: 1}, []string{"expected 4, got out of fuel"}},
		{"-- expect: out of fuel\n-- fuel: 1\ninc inc 3", CheckOptions{}, nil},
		{"-- expect: 4\nletrec f:Int -> Int = \\x:Int. f x in f 0", CheckOptions{Timeout: time.Millisecond, Fuel: 1 << 40},
			[]string{"expected 4, but the run timed out after 1ms"}},
	}
	for _, tt := range tests {
		p, err := PlanCheck("f", []byte(tt.src), gradualLang{}, tt.opts)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		for _, f := range p.Run(CheckRun{Stage: "interp", Variant: "ed", Mode: interderive.Unmerged}, tt.opts) {
			got = append(got, f.What)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: failures %q, want %q", tt.src, got, tt.want)
		}
	}
}
