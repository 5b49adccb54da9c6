package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/workbench"
)

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

// TestCheck counts files and runs, groups a file's identical failures, and exits 2
// when a file cannot be checked, else 1 when a run failed. The counts, by hand: a
// gradual file with an expectation under the four standard semantics runs on 6 stages
// unmerged under each (24) and merged under LD and LUD (12), 36 runs; one with a type
// error runs once per semantics (4); good.cast expects under all four (36).
func TestCheck(t *testing.T) {
	good := "-- expect[ld]: blame l2\n-- expect[lud]: blame l1\n-- expect[ed,eud]: blame *\n" +
		"-- rules[lud]: StepCst/Arr\n" +
		`(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`
	dir := writeFiles(t, map[string]string{
		"good.cast":    good,
		"typeerr.gtlc": "-- expect: type error\ninc true\n",
		"loop.gtlc":    "-- expect: out of fuel\n-- fuel: 50\nletrec f:Int -> Int = \\x:Int. f x in f 0\n",
		"notes.txt":    "not a program",
	})
	stdout, _, code := runCmd("check", dir)
	if code != 0 || stdout != "3 files, 76 runs: 76 passed, 0 failed\n" {
		t.Errorf("check: exit %d, output %q", code, stdout)
	}

	os.WriteFile(filepath.Join(dir, "wrong.gtlc"), []byte("-- expect: 5\ninc 3\n"), 0o644)                  // 36 runs fail
	os.WriteFile(filepath.Join(dir, "norule.gtlc"), []byte("-- expect: 4\n-- rules: beta\ninc 3\n"), 0o644) // 24 unmerged runs fail, 12 merged pass
	os.WriteFile(filepath.Join(dir, "partial.gtlc"), []byte("-- expect[ld]: 4\ninc 3\n"), 0o644)            // 12 runs pass
	stdout, _, code = runCmd("check", dir)
	want := "FAIL " + filepath.Join(dir, "norule.gtlc") + "\n" +
		"    rule beta never fired (fired: delta) on reduction, closures, machine, cps2, interp, compile under ld (unmerged), lud (unmerged), ed, eud\n" +
		"FAIL " + filepath.Join(dir, "wrong.gtlc") + "\n" +
		"    expected 5, got 4 on reduction, closures, machine, cps2, interp, compile under ld, lud, ed, eud\n" +
		"6 files, 160 runs: 100 passed, 60 failed\n"
	if code != 1 || stdout != want {
		t.Errorf("check with failures: exit %d, output\n%s\nwant\n%s", code, stdout, want)
	}

	// A malformed expectation: the file is not checked, the others are, exit 2.
	os.WriteFile(filepath.Join(dir, "none.gtlc"), []byte("-- expect[ld] 4\ninc 3\n"), 0o644)
	stdout, _, code = runCmd("check", dir)
	if code != 2 || !strings.Contains(stdout, "none.gtlc:1:15: a colon must follow expect[...]") ||
		!strings.HasSuffix(stdout, "7 files, 160 runs: 100 passed, 60 failed; 1 file not checked (errors above)\n") {
		t.Errorf("check with an error: exit %d\n%s", code, stdout)
	}
}

// TestCheckNothingPassesByAccident: unknown names are usage errors, and a file that
// no run checks is an error, not a pass.
func TestCheckNothingPassesByAccident(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"wrong.gtlc":   "-- expect: 5\ninc 3\n",
		"only-ed.gtlc": "-- expect[ed]: 4\ninc 3\n",
		"none.gtlc":    "-- a program with no expectation\ninc 3\n",
		"none.term":    "; a rule file's program with no expectation: its comments start with ;\n(add 1 2)\n",
		"wrong.term":   "; expect: 4\n(add 1 2)\n",
		"typo.gtlc":    "-- expect: 4\n-- expct[ld]: 5\ninc 3\n",
		"typo2.gtlc":   "-- expect: 4\n-- expect[xx]: 5\ninc 3\n",
	})
	wrong := filepath.Join(dir, "wrong.gtlc")
	tests := []struct {
		args   []string
		code   int
		output string // in stdout or stderr
	}{
		{[]string{"--stage", "bogus", wrong}, 2, `unknown stage "bogus" in --stage (known: reduction, closures, machine, cps2, interp, compile)`},
		{[]string{"--stage", "Machine", wrong}, 2, `unknown stage "Machine"`},
		{[]string{"--stage", "machine,interp", wrong}, 1, "expected 5, got 4 on machine, interp under ld, lud, ed, eud\n1 file, 12 runs: 0 passed, 12 failed"},
		{[]string{"--stage", "machine,bogus", wrong}, 2, `unknown stage "bogus"`},
		{[]string{"--stage", "", wrong}, 2, "--stage is empty"},
		{[]string{"--semantics", "LD", wrong}, 2, `unknown cast semantics "LD" in --semantics (known: ld, lud, ed, eud, edn, or a FILE.sem)`},
		{[]string{"--ad", "fast", wrong}, 2, `unknown differentiation strategy "fast" in --ad (known: tape, pruned, figure6)`},
		{[]string{"--semantics", "ld", filepath.Join(dir, "only-ed.gtlc")}, 2, "no run: the file expects something only under ed, and --semantics selects ld"},
		{[]string{filepath.Join(dir, "none.gtlc")}, 2, "no expectation: write -- expect: ANSWER"},
		{[]string{"--rules", "../../testdata/rules/cbv.sem", filepath.Join(dir, "none.term")}, 2, "no expectation: write ; expect: ANSWER"},
		// 1 + 2 = 3, by hand; the semantics is named by its language and file, not "file".
		{[]string{"--rules", "../../testdata/rules/cbv.sem", filepath.Join(dir, "wrong.term")}, 1, "expected 4, got 3 on reduction, closures, machine, cps2, interp, compile under cbv (../../testdata/rules/cbv.sem)"},
		{[]string{filepath.Join(dir, "typo.gtlc")}, 2, `typo.gtlc:2:4: unknown directive "expct": did you mean "expect"?`},
		{[]string{filepath.Join(dir, "typo2.gtlc")}, 2, `typo2.gtlc:2:11: unknown cast semantics "xx"`},
		{[]string{filepath.Join(dir, "nowhere")}, 2, "no such file or directory"},
		{[]string{t.TempDir()}, 2, "no program files here"},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmd(append([]string{"check"}, tt.args...)...)
		if code != tt.code || !strings.Contains(stdout+stderr, tt.output) {
			t.Errorf("check %s: exit %d, want %d with %q\n%s%s", strings.Join(tt.args, " "), code, tt.code, tt.output, stdout, stderr)
		}
	}
}

// TestCheckDifferentiableOnce: a dpl file runs once per stage and strategy (merging
// means nothing there): 5 × 3 = 15 runs, by hand; --ad narrows it to 5.
func TestCheckDifferentiableOnce(t *testing.T) {
	path := write(t, "p.dpl", "-- expect: 6\n1.rd[3](x:real. x * x)\n")
	if stdout, _, code := runCmd("check", path); code != 0 || stdout != "1 file, 15 runs: 15 passed, 0 failed\n" {
		t.Errorf("exit %d: %q", code, stdout)
	}
	if stdout, _, code := runCmd("check", "--ad", "tape", path); code != 0 || stdout != "1 file, 5 runs: 5 passed, 0 failed\n" {
		t.Errorf("--ad tape: exit %d: %q", code, stdout)
	}
}

// TestCheckJSON: one object with the counts and every failed run.
func TestCheckJSON(t *testing.T) {
	path := write(t, "wrong.gtlc", "-- expect: 5\ninc 3\n")
	stdout, _, code := runCmd("check", "--json", "--stage", "interp", "--semantics", "ld,ed", path)
	var got workbench.CheckReport
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, stdout)
	}
	// By hand: interp under LD unmerged and merged, under ED unmerged.
	want := workbench.CheckReport{Files: 1, Runs: 3, Failed: 3, Problems: []workbench.CheckError{}, Failures: []workbench.CheckFailure{
		{File: path, Stage: "interp", Variant: "ld", Mode: "unmerged", Message: "expected 5, got 4"},
		{File: path, Stage: "interp", Variant: "ld", Mode: "merged", Message: "expected 5, got 4"},
		{File: path, Stage: "interp", Variant: "ed", Mode: "unmerged", Message: "expected 5, got 4"},
	}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	stdout, _, code = runCmd("check", "--json", write(t, "bad.gtlc", "-- expct: 4\n1"))
	if code != 2 || !strings.Contains(stdout, `"errors":1`) || !strings.Contains(stdout, `unknown directive \"expct\"`) {
		t.Errorf("exit %d: %s", code, stdout)
	}
}

// TestCheckFuelAndTimeout: --fuel replaces the file's budget; --timeout stops a run,
// which fails.
func TestCheckFuelAndTimeout(t *testing.T) {
	// inc inc 3 takes two contractions, by hand.
	path := write(t, "p.gtlc", "-- expect: 5\n-- fuel: 2\ninc inc 3\n")
	if stdout, _, code := runCmd("check", "--stage", "machine", "--semantics", "ed", path); code != 0 {
		t.Errorf("the file's fuel: exit %d\n%s", code, stdout)
	}
	stdout, _, code := runCmd("check", "--stage", "machine", "--semantics", "ed", "--fuel", "1", path)
	if code != 1 || !strings.Contains(stdout, "expected 5, got out of fuel on machine under ed") {
		t.Errorf("--fuel 1: exit %d\n%s", code, stdout)
	}
	loop := write(t, "loop.gtlc", "-- expect: 4\nletrec f:Int -> Int = \\x:Int. f x in f 0\n")
	stdout, _, code = runCmd("check", "--stage", "interp", "--semantics", "ed", "--fuel", "1000000000000", "--timeout", "50ms", loop)
	if code != 1 || !strings.Contains(stdout, "expected 4, but the run timed out after 50ms on interp under ed") {
		t.Errorf("--timeout: exit %d\n%s", code, stdout)
	}
}

// TestCheckOrder: the runs go over every core, the report comes in file order, the
// same every time.
func TestCheckOrder(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		// File i expects i + 1 of inc 3: all fail but the third, which passes.
		files[fmt.Sprintf("f%02d.gtlc", i)] = fmt.Sprintf("-- expect: %d\ninc 3\n", i+1)
	}
	dir := writeFiles(t, files)
	first, _, code := runCmd("check", "--stage", "interp,machine", dir)
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var want strings.Builder
	for i := range 12 {
		if i+1 != 4 {
			fmt.Fprintf(&want, "FAIL %s\n    expected %d, got 4 on machine, interp under ld, lud, ed, eud\n", filepath.Join(dir, fmt.Sprintf("f%02d.gtlc", i)), i+1)
		}
	}
	want.WriteString("12 files, 144 runs: 12 passed, 132 failed\n")
	if first != want.String() {
		t.Errorf("got\n%s\nwant\n%s", first, want.String())
	}
	for range 3 {
		if again, _, _ := runCmd("check", "--stage", "interp,machine", dir); again != first {
			t.Fatalf("a second run differs:\n%s", again)
		}
	}
}

// TestCheckSkipsCalculiWithoutTheStage: --stage names a stage some calculi lack; their
// files are skipped and counted, the others checked. By hand: inc 3 expects 4 under
// the four semantics, unmerged, and merged under LD and LUD: 6 runs on compile. A check
// whose every file was skipped ran nothing, and fails.
func TestCheckSkipsCalculiWithoutTheStage(t *testing.T) {
	dir := t.TempDir()
	gtlc := filepath.Join(dir, "inc.gtlc")
	dpl := filepath.Join(dir, "double.dpl")
	if err := os.WriteFile(gtlc, []byte("-- expect: 4\ninc 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dpl, []byte("-- expect: 2\n1.rd[1](x:real. x + x)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd("check", "--stage", "compile", dir)
	if code != 0 || stdout != "2 files, 6 runs: 6 passed, 0 failed; 1 file skipped (no selected stage)\n" {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	stdout, stderr, code = runCmd("check", "--stage", "compile", dpl)
	if code != 2 || !strings.Contains(stdout, "1 file, 0 runs") || !strings.Contains(stderr, "check ran nothing: no file's calculus has the stages compile") {
		t.Errorf("only skipped: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestCheckUnreadableExpectation: a rule file's program whose expectation does not
// read as a term of the file (an extra parenthesis) fails, and the failure says why
// the expectation does not read, not only that the run gave something else.
func TestCheckUnreadableExpectation(t *testing.T) {
	head, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "head.sem"))
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"head.sem": string(head)})
	if err := os.Mkdir(filepath.Join(dir, "head"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "head", "t.term"), []byte("; expect: (lam y y))\n(app (lam x x) (lam y y))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd("check", filepath.Join(dir, "head"))
	if code != 1 || !strings.Contains(stdout+stderr, "expected (lam y y)), which does not read as an answer (1:10: unexpected )), got (lam y y)") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}
