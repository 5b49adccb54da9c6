package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/interderive/interderive/internal/workbench"
)

// TestBench runs a two-program suite: a table per program and variant, the growth
// exponents, the chart; a stated answer that a run contradicts makes the exit status 1.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// count n = 0 after n + 1 calls, whatever n.
		"count.gtlc.in": "-- sizes: 10, 20\n-- answer 10: 0\nletrec count: Int -> Int = \\n:Int. if n = 0 then 0 else count (n - 1) in count {n}",
		// 1.5^n by a chain of n multiplications: 1.5^2 = 2.25.
		"pow.dpl.in": "-- sizes: 2\n-- answer 2: 2.25\nletrec p(x:real):real = if {1.5^n} <. x + 0.001 then x else p(x * 1.5) in p(1)",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	svg := filepath.Join(dir, "out.svg")
	stdout, stderr, code := runCmd("bench", "--dir", dir, "--stage", "machine,interp", "--semantics", "ed,lud", "--ad", "tape", "--plot", svg)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"count.gtlc (ed)", "count.gtlc (lud)", "pow.dpl (tape)", "growth exponent", "wrote " + svg} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
	if chart, err := os.ReadFile(svg); err != nil || !strings.Contains(string(chart), "<svg") || strings.Count(string(chart), "<polyline") < 4 {
		t.Errorf("chart: %v\n%.300s", err, chart)
	}

	// A wrong stated answer.
	if err := os.WriteFile(filepath.Join(dir, "count.gtlc.in"), []byte(strings.Replace(files["count.gtlc.in"], "answer 10: 0", "answer 10: 1", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code = runCmd("bench", "--dir", dir, "--program", "count", "--stage", "machine", "--semantics", "ed")
	if code != 1 || !strings.Contains(stdout, "MISMATCH, want 1") || !strings.Contains(stderr, "1 benchmark answers differ") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// An unknown stage is a usage error.
	if _, _, code := runCmd("bench", "--dir", dir, "--stage", "compiler"); code != 2 {
		t.Errorf("--stage compiler: exit %d, want 2", code)
	}
}

// TestBenchMeasuredNothing: a bench whose every run failed is an error: status 2 when
// a program does not load (one run: a stage stops at its first error), 3 when every run stopped at a limit (here interp's
// recursion bound, which sum 200000 exceeds). A bench that measured something
// prints a row per size it ran, --sizes included.
func TestBenchMeasuredNothing(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.gtlc.in":  "-- sizes: 1, 2\ninc true {n}",
		"deep.gtlc.in": "-- sizes: 200000\nletrec s: Int -> Int = \\n:Int. if n = 0 then 0 else n + s (n - 1) in s {n}",
		"count.gtlc.in": "-- sizes: 10\n-- answer 10: 0\n" +
			"letrec count: Int -> Int = \\n:Int. if n = 0 then 0 else count (n - 1) in count {n}",
	})
	args := []string{"bench", "--dir", dir, "--stage", "interp", "--semantics", "ed"}
	stdout, stderr, code := runCmd(append(args, "--program", "bad")...)
	if code != 2 || !strings.Contains(stderr, "bench measured nothing: 1 run, none with an answer") || !strings.Contains(stdout, "error: type error") {
		t.Errorf("a program that does not load: exit %d\n%s%s", code, stdout, stderr)
	}
	// The run at interp's recursion bound takes a second of stack growth: under -short
	// the full run checks it.
	if !testing.Short() {
		if stdout, stderr, code := runCmd(append(args, "--program", "deep")...); code != 3 || !strings.Contains(stderr, "bench measured nothing: 1 run, none with an answer") {
			t.Errorf("every run at a limit: exit %d\n%s%s", code, stdout, stderr)
		}
	}
	stdout, stderr, code = runCmd(append(args, "--program", "count", "--sizes", "5,10")...)
	rows := regexp.MustCompile(`(?m)^\s+interp\s+(\d+)\s`).FindAllStringSubmatch(stdout, -1)
	if code != 0 || len(rows) != 2 || rows[0][1] != "5" || rows[1][1] != "10" {
		t.Errorf("--sizes 5,10: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestBenchFormats: --format gobench prints one line per round in Go's benchmark
// format (what benchstat reads), --json one document with each row's rounds and
// spread; a format that is not known, or two formats at once, is a usage error.
func TestBenchFormats(t *testing.T) {
	dir := t.TempDir()
	// count n = 0 after n + 1 calls, whatever n. Every round of a run reports the
	// same contractions: the run is deterministic.
	src := "-- sizes: 10\n-- answer 10: 0\nletrec count: Int -> Int = \\n:Int. if n = 0 then 0 else count (n - 1) in count {n}"
	if err := os.WriteFile(filepath.Join(dir, "count.gtlc.in"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd("bench", "--dir", dir, "--stage", "machine", "--semantics", "ed", "--format", "gobench")
	if code != 0 {
		t.Fatalf("gobench: exit %d\n%s\n%s", code, stdout, stderr)
	}
	line := regexp.MustCompile(`^BenchmarkInterderive/program=count\.gtlc/variant=ed/stage=machine/n=10 \t[1-9][0-9]*\t[0-9.]+ ns/op\t([0-9]+) contractions/op\t[0-9]+ peak-heap-bytes$`)
	rounds, contractions := 0, map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if m := line.FindStringSubmatch(l); m != nil {
			rounds++
			contractions[m[1]] = true
		} else if !regexp.MustCompile(`^[a-z]+: `).MatchString(l) {
			t.Errorf("a line neither a benchmark nor a configuration: %q", l)
		}
	}
	if rounds != workbench.Rounds || len(contractions) != 1 {
		t.Errorf("%d rounds (want %d), contractions %v\n%s", rounds, workbench.Rounds, contractions, stdout)
	}

	stdout, stderr, code = runCmd("bench", "--dir", dir, "--stage", "machine,interp", "--semantics", "ed", "--json")
	if code != 0 {
		t.Fatalf("json: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var doc struct {
		Tables []struct {
			Program, Variant string
			Rows             []struct {
				Stage, N, Answer string
				MeanNs           float64 `json:"mean_ns"`
				Spread           *float64
				Rounds           []struct {
					Runs     int
					NsPerRun float64 `json:"ns_per_run"`
				}
			}
		}
		Runs, Measured int
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if doc.Runs != 2 || doc.Measured != 2 || len(doc.Tables) != 1 || doc.Tables[0].Program != "count.gtlc" || doc.Tables[0].Variant != "ed" || len(doc.Tables[0].Rows) != 2 {
		t.Fatalf("document: %+v", doc)
	}
	for i, r := range doc.Tables[0].Rows {
		if r.Stage != []string{"machine", "interp"}[i] || r.N != "10" || r.Answer != "0" || r.MeanNs <= 0 || r.Spread == nil || len(r.Rounds) != workbench.Rounds {
			t.Errorf("row %d: %+v", i, r)
		}
	}

	for _, args := range [][]string{
		{"--format", "csv"},
		{"--json", "--format", "table"},
		{"--targets", "--format", "json"},
	} {
		if stdout, stderr, code := runCmd(append([]string{"bench", "--dir", dir}, args...)...); code != 2 || stdout != "" {
			t.Errorf("%v: exit %d (want 2), %q, %q", args, code, stdout, stderr)
		}
	}
}

// TestBenchPeer runs bench --peer against a stand-in for racket (a script on PATH that
// prints what peer.rkt prints), so that the comparison's plumbing is tested wherever
// the suite runs: the peer's models and each stage, with the ratios; an answer other
// than the peer's fails; without the runtime the comparison is skipped and says so.
func TestBenchPeer(t *testing.T) {
	dir := t.TempDir()
	// count n = 0 for every n (its answer at 10 is 0).
	src := "-- sizes: 10\n-- peer redex: 10\nletrec count: Int -> Int = \\n:Int. if n = 0 then 0 else count (n - 1) in count {n}"
	if err := os.WriteFile(filepath.Join(dir, "count.gtlc.in"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "redex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "redex", "peer.rkt"), []byte("; stand-in"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	fake := func(answer string) {
		script := "#!/bin/sh\n[ \"$2 $3 $4\" = \"count.gtlc 10 ed\" ] || { echo \"args: $*\" >&2; exit 2; }\necho \"cast 99 " + answer + " 2.5\"\n"
		if err := os.WriteFile(filepath.Join(bin, "racket"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	fake("0")
	stdout, stderr, code := runCmd("bench", "--dir", dir, "--peer", "redex", "--stage", "machine", "--semantics", "ed")
	if code != 0 || !strings.Contains(stdout, "count.gtlc n=10 (ed), against redex") || !regexp.MustCompile(`redex cast +99 +0 +2\.5s`).MatchString(stdout) ||
		!regexp.MustCompile(`machine +[0-9]+ +0 +[0-9.]+[µm]?s ±[0-9.]+% +[0-9.e+]+`).MatchString(stdout) || !strings.Contains(stdout, "1 run compared with redex") {
		t.Errorf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	fake("1")
	if stdout, stderr, code := runCmd("bench", "--dir", dir, "--peer", "redex", "--stage", "machine", "--semantics", "ed"); code != 1 || !strings.Contains(stdout, "0 DIFFERS from redex") || !strings.Contains(stderr, "1 run failed or differ") {
		t.Errorf("a different answer: exit %d\n%s\n%s", code, stdout, stderr)
	}
	t.Setenv("PATH", t.TempDir())
	if stdout, stderr, code := runCmd("bench", "--dir", dir, "--peer", "redex"); code != 0 || stdout != "" || !strings.Contains(stderr, "bench --peer redex: skipped 1 program: redex: racket is not installed") {
		t.Errorf("no racket: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"--peer", "redx"},
		{"--peer", "redex", "--targets"},
		{"--peer", "redex", "--json"},
		{"--peer", "redex", "--dir", t.TempDir()},
	} {
		if stdout, stderr, code := runCmd(append([]string{"bench", "--dir", dir}, args...)...); code != 2 || stdout != "" {
			t.Errorf("%v: exit %d (want 2), %q, %q", args, code, stdout, stderr)
		}
	}
}

// TestRedexModels runs the Redex models' own tests (the specification's worked
// examples in all four semantics) where racket is installed.
func TestRedexModels(t *testing.T) {
	if testing.Short() {
		t.Skip("runs racket")
	}
	racket, err := exec.LookPath("racket")
	if err != nil {
		t.Skip("racket is not installed")
	}
	out, err := exec.Command(racket, filepath.Join("..", "..", "testdata", "bench", "redex", "cast-test.rkt")).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Errorf("%v\n%s", err, out)
	}
}

// TestBenchRuleFile: bench runs a rule file's programs (NAME.term.in, their settings
// in ";" comments), the rule file found each of the three ways run finds it: --rules,
// a "; semantics:" line, DIR.sem beside the program's directory. The program is
// beta-delta.term's at n = 2: (\x:Int. x + 1) 2 -> 2 + 1 (beta) -> 3 (delta), two
// contractions, by hand (testdata/rules/cbv/beta-delta.term). The table's title names
// the file's language and the file. A program with no rule file is a usage error
// before anything runs.
func TestBenchRuleFile(t *testing.T) {
	cbv, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "cbv.sem"))
	if err != nil {
		t.Fatal(err)
	}
	const prog = "; sizes: 2\n; answer 2: 3\n(app (lam x Int (add x 1)) {n})\n"
	root := t.TempDir()
	files := map[string]string{
		"lang.sem":           string(cbv),
		"flag/inc.term.in":   prog,
		"header/inc.term.in": "; semantics: ../lang.sem\n" + prog,
		"beside.sem":         string(cbv),
		"beside/inc.term.in": prog,
	}
	for name, src := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	row := regexp.MustCompile(`(?m)^\s+reduction\s+2\s+\S+\s+\S+\s+2\s+\S+\s+\S+ \S+\s+3$`)
	tests := []struct {
		name string
		args []string
		file string // the rule file the title names
	}{
		{"--rules", []string{"--dir", filepath.Join(root, "flag"), "--rules", filepath.Join(root, "lang.sem")}, filepath.Join(root, "lang.sem")},
		{"; semantics:", []string{"--dir", filepath.Join(root, "header")}, filepath.Join(root, "header", "..", "lang.sem")},
		{"DIR.sem", []string{"--dir", filepath.Join(root, "beside")}, filepath.Join(root, "beside.sem")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runCmd(append([]string{"bench", "--stage", "reduction"}, tc.args...)...)
			if code != 0 || !row.MatchString(stdout) || !strings.Contains(stdout, "inc.term, language cbv ("+tc.file+")") {
				t.Errorf("exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
	// No rule file: the program's error, before anything runs.
	stdout, stderr, code := runCmd("bench", "--dir", filepath.Join(root, "flag"), "--stage", "reduction")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "inc.term.in: a program of a rule-defined calculus needs its rule file") {
		t.Errorf("no rule file: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestBenchFailedRow: a run that fails measured nothing: its row is the stage, the
// size and the error alone, with no time, spread, rate or heap. By hand, at n = 1, on
// cbn.sem (untyped, so the program runs): (1 + (\y. y) (\x. x)) -> 1 + \x. x (beta),
// stuck on cbn.sem's shape "+ applied to a non-integer", at the addition: line 2,
// column 1 (line 1 is the sizes).
func TestBenchFailedRow(t *testing.T) {
	dir := writeFiles(t, map[string]string{"stuck.term.in": "; sizes: 1\n(add {n} (app (lam y y) (lam x x)))\n"})
	stdout, stderr, code := runCmd("bench", "--dir", dir, "--stage", "reduction,machine", "--rules", filepath.Join("..", "..", "testdata", "rules", "cbn.sem"))
	want := "      stage  n  time  spread  contractions  contractions/s  peak heap  answer\n" +
		"  reduction  1  error: run-time error at 2:1: + applied to a non-integer: (add 1 (lam x x))\n" +
		"    machine  1  error: run-time error at 2:1: + applied to a non-integer: (add 1 (lam x x))\n"
	if code != 2 || !strings.Contains(stdout, want) || !strings.Contains(stderr, "bench measured nothing: 2 runs") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestBenchSubstitutionStage: a rule file that does not qualify for environments (its
// rule isvar matches a variable, at line 10, column 22) runs on every derived stage,
// the calculus of closures and the machine by substitution, and each row measures it,
// its columns aligned with the header's (every cell right-aligned: a row as long as
// the header). By hand, at n = 2: (\y. isvar 2) ((\x. x) 2) -> (\y. isvar 2) 2 ->
// isvar 2 -> 0, three contractions.
func TestBenchSubstitutionStage(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"var.sem":   isvarRules,
		"p.term.in": "; sizes: 2\n; answer 2: 0\n(app (lam y (isvar {n})) (app (lam x x) 2))\n",
	})
	stdout, stderr, code := runCmd("bench", "--dir", dir, "--stage", "reduction,closures,machine", "--rules", filepath.Join(dir, "var.sem"))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	lines := strings.Split(stdout, "\n")
	header := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "      stage  n") })
	if header < 0 || len(lines) < header+4 {
		t.Fatalf("no table:\n%s", stdout)
	}
	width := utf8.RuneCountInString(lines[header])
	measured := regexp.MustCompile(`\s3\s+\S+\s+\S+ \S+\s+0$`) // 3 contractions, a rate, a heap, answer 0
	for i, want := range []string{"  reduction  2 ", "   closures  2 ", "    machine  2 "} {
		line := lines[header+1+i]
		if !strings.HasPrefix(line, want) || utf8.RuneCountInString(line) != width || !measured.MatchString(line) {
			t.Errorf("row %d: %q, want %q... (as long as the header, 3 contractions, answer 0)\n%s", i+1, line, want, stdout)
		}
	}
}

// TestBenchStageNotRun: a stage --stage names that the program's calculus does not have
// (compile, for the differentiable calculus) gets a row that says so: a stage asked
// for is never left out without a word. A rule file runs on every derived stage,
// compile among them (under a cast semantics written as a rule file, typed fib 5 makes
// 82 contractions on the derived machine and on the derived compile stage alike).
func TestBenchStageNotRun(t *testing.T) {
	bench := filepath.Join("..", "..", "testdata", "bench")
	stdout, stderr, code := runCmd("bench", "--program", "forward-chain", "--sizes", "2", "--dir", bench, "--stage", "reduction,compile")
	want := "    compile     skipped: the stage does not run the program: the dpl calculus has no compile stage (its stages: reduction, closures, machine, cps2, interp)"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d\n%s%s\nwant the row %q", code, stdout, stderr, want)
	}
	stdout, stderr, code = runCmd("bench", "--program", "fib-typed", "--sizes", "5", "--dir", bench,
		"--semantics", filepath.Join("..", "..", "gradual", "rules", "ed.sem"), "--stage", "machine,compile")
	rows := regexp.MustCompile(`(?m)^\s+(machine|compile)\s+5\s+\S+\s+\S+\s+82\s`).FindAllString(stdout, -1)
	if code != 0 || len(rows) != 2 || strings.Contains(stdout, "skipped") {
		t.Errorf("exit %d\n%s%s\nwant the rows of machine and compile, 82 contractions each", code, stdout, stderr)
	}
}
