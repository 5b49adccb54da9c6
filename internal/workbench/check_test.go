package workbench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPlanCheck: the runs of a file, once per stage, variant and mode of the variant.
// By hand: a counter file expecting under both variants runs under one in its two
// modes and under two in one: 3 runs a stage, 12 on the four stages; --stage and
// --speed narrow them; a file that no run checks is an error.
func TestPlanCheck(t *testing.T) {
	w := newBench(t)
	c := newCounter()
	both := []byte("-- expect: done after 3\n3")
	tests := []struct {
		name string
		src  []byte
		opts CheckOptions
		runs int
		err  string
	}{
		{"every run", both, CheckOptions{}, 12, ""},
		{"two stages", both, CheckOptions{Stages: []string{"ref", "quiet"}}, 6, ""},
		{"two only", both, CheckOptions{Only: map[string][]string{"speed": {"two"}}}, 4, ""},
		{"one only", both, CheckOptions{Only: map[string][]string{"speed": {"one"}}}, 8, ""},
		{"only one expected", []byte("-- expect[two]: done after 2\n3"), CheckOptions{}, 4, ""},
		{"excluded", []byte("-- expect[two]: 4\n3"), CheckOptions{Only: map[string][]string{"speed": {"one"}}}, 0,
			"no run: the file expects something only under two, and --speed selects one"},
		{"no expectation", []byte("3"), CheckOptions{}, 0, "no expectation: write -- expect: ANSWER"},
		{"an unknown stage", both, CheckOptions{Stages: []string{"ref", "fast"}}, 0, `unknown stage "fast" (known: ref, quiet, wrong, stuck)`},
		{"an unknown variant", both, CheckOptions{Only: map[string][]string{"speed": {"three"}}}, 0, `unknown speed "three" in --speed (known: one, two)`},
		// A program that does not load: one run per variant, on no stage.
		{"type error", []byte("-- expect: type error\n-3"), CheckOptions{}, 2, ""},
	}
	for _, tt := range tests {
		p, err := w.PlanCheck("f", tt.src, c, "count", tt.opts)
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
	p, _ := w.PlanCheck("f", both, c, "count", CheckOptions{Stages: []string{"ref"}})
	want := []CheckRun{{"ref", "one", "plain"}, {"ref", "one", "quick"}, {"ref", "two", "plain"}}
	if !slices.Equal(p.Runs, want) {
		t.Errorf("runs %v, want %v", p.Runs, want)
	}
}

// TestCheckRun: a run's failures, derived by hand from the counter: 3 counts down in
// three dec under one (skip in the quick mode), in dec2, dec under two.
func TestCheckRun(t *testing.T) {
	w := newBench(t)
	refOne := CheckRun{Stage: "ref", Variant: "one", Mode: "plain"}
	tests := []struct {
		src  string
		run  CheckRun
		opts CheckOptions
		want []string // failures, each a prefix of one
	}{
		{"-- expect: done after 3\n-- rules: dec\n3", refOne, CheckOptions{}, nil},
		{"-- expect: done after 5\n3", refOne, CheckOptions{}, []string{"expected done after 5, got done after 3"}},
		{"-- expect: done *\n3", refOne, CheckOptions{}, nil},
		{"-- expect: done after 3\n-- rules: dec2\n3", refOne, CheckOptions{}, []string{"rule dec2 never fired (fired: dec)"}},
		// The rules lines hold in the reference mode only.
		{"-- expect: done after 3\n-- rules: dec\n3", CheckRun{"ref", "one", "quick"}, CheckOptions{}, nil},
		{"-- expect: done after 2\n-- rules[two]: dec2, dec\n3", CheckRun{"quiet", "two", "plain"}, CheckOptions{}, nil},
		// Three contractions take three of fuel; --fuel replaces the file's.
		{"-- expect: done after 3\n-- fuel: 3\n3", refOne, CheckOptions{}, nil},
		{"-- expect: done after 3\n-- fuel: 3\n3", refOne, CheckOptions{Fuel: 2}, []string{"expected done after 3, got out of fuel"}},
		{"-- expect: out of fuel\n-- fuel: 2\n3", refOne, CheckOptions{}, nil},
		{"-- expect: done after 1\n1000000000000", refOne, CheckOptions{Timeout: time.Millisecond, Fuel: 1 << 50},
			[]string{"expected done after 1, but the run timed out after 1ms"}},
		{"-- expect: done after 6\n6", CheckRun{"stuck", "one", "plain"}, CheckOptions{},
			[]string{"expected done after 6, but internal error: the stuck stage is stuck: nothing counts down from 2\n  stuck term: 2\n"}},
		{"-- expect: type error\n-3", CheckRun{Variant: "one"}, CheckOptions{}, nil},
		{"-- expect: 3\n-3", CheckRun{Variant: "two"}, CheckOptions{}, []string{"expected 3, got a type error"}},
	}
	for _, tt := range tests {
		p, err := w.PlanCheck("f", []byte(tt.src), newCounter(), "count", tt.opts)
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		var got []string
		fs := p.Run(tt.run, tt.opts)
		for _, f := range fs {
			got = append(got, f.What)
		}
		ok := len(got) == len(tt.want)
		for i := range tt.want {
			ok = ok && strings.HasPrefix(got[i], tt.want[i])
		}
		if !ok {
			t.Errorf("%q on %v: failures %q, want %q", tt.src, tt.run, got, tt.want)
		}
		if tt.run.Stage == "" && len(fs) == 1 && !strings.HasPrefix(fs[0].Detail, "f:1:1: a count is not negative") {
			t.Errorf("%q: detail %q, want the positioned type error", tt.src, fs[0].Detail)
		}
	}
}

// writeFiles puts programs in a new directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// check runs check on paths as the command does, and returns what it prints and the
// report.
func check(t *testing.T, w *Workbench, opts CheckOptions, paths ...string) (string, *CheckReport) {
	t.Helper()
	files, err := w.SourceFiles(paths)
	if err != nil {
		t.Fatal(err)
	}
	plans, errs := w.PlanFiles(files, "", nil, opts)
	var out strings.Builder
	report := RunCheck(files, plans, errs, opts, func(int, int, int) {}, func(i int, fs []Failure) {
		WriteCheckFile(&out, files[i], plans[i], errs[i], fs)
	})
	return out.String() + report.Summary() + "\n", report
}

// TestCheck counts files and runs, groups a file's identical failures, and reports a
// file that cannot be checked. The counts, by hand: good.count expects under both
// variants, 12 runs (TestPlanCheck); typeerr.count runs once per variant, 2; loop.count
// runs out of its fuel of 5 on every stage (stuck and wrong part from ref only past
// it), 12.
func TestCheck(t *testing.T) {
	w := newBench(t)
	dir := writeFiles(t, map[string]string{
		"good.count":    "-- expect[one]: done after 3\n-- expect[two]: done after 2\n-- rules[one]: dec\n3",
		"typeerr.count": "-- expect: type error\n-1",
		"loop.count":    "-- expect: out of fuel\n-- fuel: 5\n100",
		"notes.txt":     "not a program",
	})
	if out, _ := check(t, w, CheckOptions{}, dir); out != "3 files, 26 runs: 26 passed, 0 failed\n" {
		t.Errorf("check: %q", out)
	}
	// wrong.count: 12 runs fail, answering 3 under one and 2 under two. norule.count:
	// 8 runs, the 4 in the plain mode fail. six.count: 8 runs, stuck gets stuck in
	// both modes.
	os.WriteFile(filepath.Join(dir, "wrong.count"), []byte("-- expect: done after 5\n3"), 0o644)
	os.WriteFile(filepath.Join(dir, "norule.count"), []byte("-- expect[one]: done after 3\n-- rules[one]: dec2\n3"), 0o644)
	os.WriteFile(filepath.Join(dir, "six.count"), []byte("-- expect[one]: done after 6\n6"), 0o644)
	out, report := check(t, w, CheckOptions{}, dir)
	want := "FAIL " + filepath.Join(dir, "norule.count") + "\n" +
		"    rule dec2 never fired (fired: dec) on ref, quiet, wrong, stuck under one (plain)\n" +
		"FAIL " + filepath.Join(dir, "six.count") + "\n" +
		"    expected done after 6, but internal error: the stuck stage is stuck: nothing counts down from 2\n" +
		"      stuck term: 2\n" +
		"      a well-typed program never gets stuck: this is a bug in interderive; please report it with the program on stuck under one\n" +
		"FAIL " + filepath.Join(dir, "wrong.count") + "\n" +
		"    expected done after 5, got done after 3 on ref, quiet, wrong, stuck under one\n" +
		"    expected done after 5, got done after 2 on ref, quiet, wrong, stuck under two\n" +
		"6 files, 54 runs: 36 passed, 18 failed\n"
	if out != want || report.Failed != 18 || len(report.Failures) != 18 {
		t.Errorf("check with failures:\n%s\nwant\n%s", out, want)
	}
	// A malformed expectation: the file is not checked, the others are.
	os.WriteFile(filepath.Join(dir, "bad.count"), []byte("-- expect[one] 4\n3"), 0o644)
	out, report = check(t, w, CheckOptions{}, dir)
	if report.Errors != 1 || !strings.HasPrefix(out, "ERROR "+filepath.Join(dir, "bad.count")+"\n    "+filepath.Join(dir, "bad.count")+":1:16: a colon must follow expect[...]\n") ||
		!strings.HasSuffix(out, "7 files, 54 runs: 36 passed, 18 failed; 1 file not checked (errors above)\n") {
		t.Errorf("check with an error:\n%s", out)
	}
}

// TestCheckJSON: the report's failures, a run each, with the mode of a calculus that
// has modes.
func TestCheckJSON(t *testing.T) {
	w := newBench(t)
	dir := writeFiles(t, map[string]string{"wrong.count": "-- expect: done after 5\n3"})
	_, report := check(t, w, CheckOptions{Stages: []string{"quiet"}}, dir)
	b, err := json.Marshal(report)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "wrong.count")
	// By hand: quiet under one in both modes, under two in the plain one.
	want := fmt.Sprintf(`{"files":1,"runs":3,"passed":0,"failed":3,"errors":0,"skipped":0,"skipped_runs":0,"failures":[`+
		`{"file":%[1]q,"stage":"quiet","variant":"one","mode":"plain","message":"expected done after 5, got done after 3"},`+
		`{"file":%[1]q,"stage":"quiet","variant":"one","mode":"quick","message":"expected done after 5, got done after 3"},`+
		`{"file":%[1]q,"stage":"quiet","variant":"two","mode":"plain","message":"expected done after 5, got done after 2"}],"file_errors":[],"skips":[]}`, path)
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestCheckOrder: the runs go over every core, the report comes in file order, the
// same every time.
func TestCheckOrder(t *testing.T) {
	w := newBench(t)
	files := map[string]string{}
	for i := range 12 {
		// File i expects 4 to take i contractions under two: all fail but the
		// third, f02 (4 is dec2, dec2), which passes.
		files[fmt.Sprintf("f%02d.count", i)] = fmt.Sprintf("-- expect[two]: done after %d\n4", i)
	}
	dir := writeFiles(t, files)
	first, _ := check(t, w, CheckOptions{Stages: []string{"quiet", "ref"}}, dir)
	var want strings.Builder
	for i := range 12 {
		if i != 2 {
			fmt.Fprintf(&want, "FAIL %s\n    expected done after %d, got done after 2 on ref, quiet under two\n", filepath.Join(dir, fmt.Sprintf("f%02d.count", i)), i)
		}
	}
	want.WriteString("12 files, 24 runs: 2 passed, 22 failed\n")
	if first != want.String() {
		t.Errorf("got\n%s\nwant\n%s", first, want.String())
	}
	for range 3 {
		if again, _ := check(t, w, CheckOptions{Stages: []string{"quiet", "ref"}}, dir); again != first {
			t.Fatalf("a second run differs:\n%s", again)
		}
	}
}

// TestGroupFailures: the stages that fail under the same variants go together; a
// variant that failed in only some of its modes names them.
func TestGroupFailures(t *testing.T) {
	stages, variants := []string{"ref", "quiet", "wrong"}, []string{"one", "two"}
	var runs []CheckRun
	for _, s := range stages {
		runs = append(runs, CheckRun{s, "one", "plain"}, CheckRun{s, "one", "quick"}, CheckRun{s, "two", "plain"})
	}
	f := func(stage, variant, mode, what string) Failure {
		return Failure{CheckRun: CheckRun{Stage: stage, Variant: variant, Mode: mode}, What: what}
	}
	fs := []Failure{
		f("ref", "one", "plain", "expected 3, got 4"),
		f("ref", "one", "quick", "expected 3, got 4"),
		f("ref", "two", "plain", "expected 3, got 4"),
		f("quiet", "one", "quick", "expected 3, got 4"),
		f("wrong", "one", "plain", "expected 3, got 4"),
		f("wrong", "one", "quick", "expected 3, got 4"),
		f("wrong", "two", "plain", "expected 3, got 4"),
		f("quiet", "two", "plain", "rule dec never fired (fired: skip)"),
	}
	got := GroupFailures(fs, runs, stages, variants)
	want := []string{
		"expected 3, got 4 on ref, wrong under one, two; on quiet under one (quick)",
		"rule dec never fired (fired: skip) on quiet under two",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A program that does not load fails on no stage, with its error below.
	got = GroupFailures([]Failure{{CheckRun: CheckRun{Variant: "one"}, What: "expected 3, got a type error", Detail: "f:1:1: no"}},
		[]CheckRun{{Variant: "one"}}, stages, variants)
	if want := "expected 3, got a type error under one:\nf:1:1: no"; len(got) != 1 || got[0] != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
