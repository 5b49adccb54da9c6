package calculi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive/internal/workbench"
)

// The engines of check are tested in internal/workbench on a calculus of their own;
// these tests are about what the registered calculi make of them: which runs a file
// of theirs plans, and the names in their messages.

// TestPlanCheck: the runs of a file, once per stage, variant and mode that applies. By
// hand: a gradual file with a plain expectation expects under the four standard
// semantics (not the custom ones, which run where a file names them), runs unmerged
// under each (4) and merged under LD and LUD, where merging preserves answers (2): 6
// per stage, 36 in all on the six stages of the gradual calculi (compile among them); a
// dpl file once per strategy and stage, in its one mode, on its five stages, 15;
// --stage and --semantics narrow them, and --semantics leaves dpl alone; a file that
// does not load runs once per variant it expects under, on no stage; a file that no
// run checks is an error.
func TestPlanCheck(t *testing.T) {
	w := newBench(t)
	gtlc := []byte("-- expect: 4\ninc 3")
	dplSrc := []byte("-- expect: 2\n1.rd[1](x:real. x + x)")
	semantics := func(v ...string) map[string][]string { return map[string][]string{"semantics": v} }
	tests := []struct {
		name string
		src  []byte
		lang string
		opts workbench.CheckOptions
		runs int
		err  string
	}{
		{"gradual", gtlc, "gtlc", workbench.CheckOptions{}, 36, ""},
		{"dpl", dplSrc, "dpl", workbench.CheckOptions{}, 15, ""},
		{"two stages", gtlc, "gtlc", workbench.CheckOptions{Stages: []string{"machine", "interp"}}, 12, ""},
		{"ed only", gtlc, "gtlc", workbench.CheckOptions{Only: semantics("ed")}, 6, ""},
		{"ld only", gtlc, "gtlc", workbench.CheckOptions{Only: semantics("ld")}, 12, ""},
		{"--semantics leaves dpl alone", dplSrc, "dpl", workbench.CheckOptions{Only: semantics("ld")}, 15, ""},
		{"tape only", dplSrc, "dpl", workbench.CheckOptions{Only: map[string][]string{"ad": {"tape"}}}, 5, ""},
		{"excluded", []byte("-- expect[ed]: 4\ninc 3"), "gtlc", workbench.CheckOptions{Only: semantics("ld")}, 0,
			"no run: the file expects something only under ed, and --semantics selects ld"},
		{"no expectation", []byte("inc 3"), "gtlc", workbench.CheckOptions{}, 0, "no expectation: write -- expect: ANSWER"},
		{"type error", []byte("-- expect: type error\ninc true"), "gtlc", workbench.CheckOptions{}, 4, ""},
	}
	for _, tt := range tests {
		c, _, err := w.LanguageNamed(tt.lang)
		if err != nil {
			t.Fatal(err)
		}
		p, err := w.PlanCheck("f", tt.src, c, tt.lang, tt.opts)
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
	plan := func(src []byte, lang string, opts workbench.CheckOptions) []workbench.CheckRun {
		c, _, _ := w.LanguageNamed(lang)
		p, err := w.PlanCheck("f", src, c, lang, opts)
		if err != nil {
			t.Fatal(err)
		}
		return p.Runs
	}
	got := plan(dplSrc, "dpl", workbench.CheckOptions{Stages: []string{"machine"}, Only: map[string][]string{"ad": {"tape"}}})
	if want := []workbench.CheckRun{{Stage: "machine", Variant: "tape", Mode: "default"}}; !slices.Equal(got, want) {
		t.Errorf("dpl runs %v, want %v", got, want)
	}
	got = plan(gtlc, "gtlc", workbench.CheckOptions{Stages: []string{"machine"}, Only: semantics("ld", "ed")})
	want := []workbench.CheckRun{{Stage: "machine", Variant: "ld", Mode: "unmerged"}, {Stage: "machine", Variant: "ld", Mode: "merged"}, {Stage: "machine", Variant: "ed", Mode: "unmerged"}}
	if !slices.Equal(got, want) {
		t.Errorf("gradual runs %v, want %v", got, want)
	}
}

// TestExpectations: expectation comments as the registered calculi read them: per cast
// semantics, a plain expect-approx for every differentiation strategy (an
// approximation: 0.5 matches 0.5000000000001), and a name that is none of the
// calculus's variants, called by its noun, at its column (counted by hand).
func TestExpectations(t *testing.T) {
	w := newBench(t)
	gradual, _, _ := w.LanguageNamed("gtlc")
	dplCalc, _, _ := w.LanguageNamed("dpl")
	src := "-- expect[ld,lud]: blame l1\n-- expect[ed, eud]: 4\n-- rules[lud]: beta, delta\n-- fuel: 50\n-- note: prose\n1"
	x, err := workbench.ParseExpectations([]byte(src), gradual)
	if err != nil {
		t.Fatal(err)
	}
	want := workbench.Expectations{Answer: map[string]string{"ld": "blame l1", "lud": "blame l1", "ed": "4", "eud": "4"},
		Rules: map[string][]string{"lud": {"beta", "delta"}}, Fuel: 50}
	if diff := cmp.Diff(want, x); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	x, err = workbench.ParseExpectations([]byte("-- expect-approx: 0.5\n1"), dplCalc)
	if err != nil || len(x.Answer) != 3 {
		t.Fatalf("expect-approx: %v, %v", x.Answer, err)
	}
	for _, v := range []string{"tape", "pruned", "figure6"} {
		if !workbench.Matches(x.Answer[v], "0.5000000000001") || workbench.Matches(x.Answer[v], "0.6") {
			t.Errorf("expect-approx under %s: %q", v, x.Answer[v])
		}
	}
	_, err = workbench.ParseExpectations([]byte("-- expect[ld, xx]: 4\ninc 3"), gradual)
	if err == nil || !strings.Contains(err.Error(), `1:15: unknown cast semantics "xx" (known: ld, lud, ed, eud, edn)`) {
		t.Errorf("an unknown semantics: %v", err)
	}
}
