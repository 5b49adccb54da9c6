package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// write puts a program in a temporary file and returns its path.
func write(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCmd(args ...string) (stdout, stderr string, code int) {
	return runCmdIn("", args...)
}

// runCmdIn runs the command with stdin as its standard input.
func runCmdIn(stdin string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestRun(t *testing.T) {
	who := write(t, "who.cast", `(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`)
	dyn := write(t, "dyn.cast", `(\x:Dyn. x) (<Dyn <= Int>^l1 1)`)
	untyped := write(t, "untyped.gtlc", "(\\x. x) 1")
	fib := write(t, "fib.gtlc", "letrec fib: Int -> Int = \\k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in\nfib 10\n")
	tests := []struct {
		args   []string
		stdout string
		code   int
	}{
		{[]string{"run", who}, "blame l2\n", 0}, // default semantics: ED
		{[]string{"run", "--semantics", "lud", who}, "blame l1\n", 0},
		{[]string{"run", "--semantics", "ld", "--stage", "reduction", who}, "blame l2\n", 0},
		{[]string{"run", dyn}, "dynamic\n", 0},
		{[]string{"run", "--show", "value", dyn}, "<Int!> 1\n", 0},
		{[]string{"run", fib}, "55\n", 0},
		{[]string{"run", "--fuel", "10", fib}, "", 3},
		{[]string{"run", "--semantics", "xx", fib}, "", 2},
		{[]string{"run", "--stage", "nowhere", fib}, "", 2},
		{[]string{"run", "--show", "everything", fib}, "", 2},
		{[]string{"run"}, "", 2},
		{[]string{"run", "--lang", "cast", untyped}, "", 2}, // an unannotated lambda is not cast syntax
		{[]string{"run", untyped}, "dynamic\n", 0},          // (\\x:Dyn. x) 1 returns <Int!> 1
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmd(tt.args...)
		if stdout != tt.stdout || code != tt.code {
			t.Errorf("%v: stdout %q, exit %d, want %q, %d (stderr %q)", tt.args, stdout, code, tt.stdout, tt.code, stderr)
		}
	}
}

// TestPositionedErrors: static errors print FILE:LINE:COL: message, the line, and a
// caret under the column, and exit with status 2.
func TestPositionedErrors(t *testing.T) {
	tests := []struct {
		name, src string
		pos       string // LINE:COL
		caret     string // the caret line, tabs included
	}{
		{"bad.gtlc", "-- a comment\n(\\x:Int. inc x) true\n", "2:17", "\t                ^"},
		{"unbound.gtlc", "inc y", "1:5", "\t    ^"},
		{"syntax.gtlc", "1 +", "1:4", "\t   ^"},
		{"coercion.cast", "<Int!> true", "1:1", "\t^"},
	}
	for _, tt := range tests {
		path := write(t, tt.name, tt.src)
		stdout, stderr, code := runCmd("run", path)
		if code != 2 || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q; want 2 and nothing", tt.name, code, stdout)
		}
		if !strings.HasPrefix(stderr, path+":"+tt.pos+": ") {
			t.Errorf("%s: stderr %q does not start with %s:%s: ", tt.name, stderr, path, tt.pos)
		}
		if lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n"); len(lines) < 3 || lines[2] != tt.caret {
			t.Errorf("%s: caret line %q, want %q", tt.name, lines, tt.caret)
		}
	}
}

func TestTrace(t *testing.T) {
	path := write(t, "p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4")
	stdout, _, code := runCmd("trace", path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// Hand derivation: CmpCst, then InOut inside StepCst, then IdCst.
	steps := regexp.MustCompile(`contraction \d+: (\S+)`).FindAllStringSubmatch(stdout, -1)
	var rules []string
	for _, s := range steps {
		rules = append(rules, s[1])
	}
	if got := strings.Join(rules, " "); got != "CmpCst StepCst/InOut IdCst" {
		t.Errorf("trace rules %q\n%s", got, stdout)
	}
	for _, want := range []string{"coercion:  []  with redex  Int! ; Int?^l2  ->InOut  id", "answer     4"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("trace lacks %q:\n%s", want, stdout)
		}
	}
}

// TestCorpus runs the bundled corpus, as the README's first command does.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole corpus: go test without -short, or go run ./cmd/interderive check testdata")
	}
	stdout, _, code := runCmd("check", "../../testdata")
	if code != 0 {
		t.Errorf("check ../../testdata: exit %d\n%s", code, stdout)
	}
}

// TestEveryStageEndsCleanly: on a divergent program every stage runs out of fuel, and
// on a deep non-tail recursion the machine and the CPS evaluator answer (their stacks
// are data) while the interpreter stops at its depth bound; all with exit status 3
// and a message, never a crash.
func TestEveryStageEndsCleanly(t *testing.T) {
	loop := write(t, "loop.gtlc", "letrec loop: Int -> Int = \\x:Int. loop x in loop 0")
	// sum 200000 = 200000 * 200001 / 2, by hand; under -short sum 20000 = 20000 * 20001 / 2
	// (the full run's recursion, past the interpreter's bound, takes seconds).
	n, sum := 200000, "20000100000\n"
	if testing.Short() {
		n, sum = 20000, "200010000\n"
	}
	deep := write(t, "deep.gtlc", fmt.Sprintf("letrec sum: Int -> Int = \\n:Int. if n = 0 then 0 else n + sum (n - 1) in sum %d", n))
	for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp"} {
		stdout, stderr, code := runCmd("run", "--stage", stage, "--fuel", "5000", loop)
		if code != 3 || stdout != "" || !strings.Contains(stderr, "out of fuel after 5000 contractions") {
			t.Errorf("%s on a loop: exit %d, stdout %q, stderr %q", stage, code, stdout, stderr)
		}
	}
	for _, stage := range []string{"machine", "cps2"} {
		if stdout, stderr, code := runCmd("run", "--stage", stage, deep); code != 0 || stdout != sum {
			t.Errorf("%s on a deep recursion: exit %d, stdout %q, stderr %q", stage, code, stdout, stderr)
		}
	}
	if testing.Short() {
		return // the interpreter's depth bound takes a second to reach: the full run checks it
	}
	stdout, stderr, code := runCmd("run", "--stage", "interp", deep)
	if code != 3 || stdout != "" || !strings.Contains(stderr, "deeper than the limit") {
		t.Errorf("interp on a deep recursion: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestCompare(t *testing.T) {
	who := write(t, "who.cast", `(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`)
	stdout, _, code := runCmd("compare", who)
	if code != 0 || !strings.HasSuffix(stdout, "all stages agree under ld, lud, ed, eud, edn\n") {
		t.Fatalf("compare: exit %d\n%s", code, stdout)
	}
	// The table has a row per semantics and stage, with the answers of spec §7.
	for _, row := range []string{"ld         interp     blame l2", "lud        machine    blame l1", "eud        cps2       blame l2"} {
		if !strings.Contains(stdout, row) {
			t.Errorf("compare lacks the row %q:\n%s", row, stdout)
		}
	}
	stdout, _, code = runCmd("compare", "--semantics", "lud,ed", who)
	if code != 0 || strings.Contains(stdout, "ld    ") || !strings.Contains(stdout, "under lud, ed") {
		t.Errorf("compare --semantics lud,ed: exit %d\n%s", code, stdout)
	}
}

func TestJSONAndTimeout(t *testing.T) {
	dyn := write(t, "dyn.cast", `(\x:Dyn. x) (<Dyn <= Int>^l1 1)`)
	stdout, _, code := runCmd("run", "--json", "--stage", "machine", dyn)
	// beta is the only contraction: <Int!> 1 is already a value.
	want := `{"file":"` + dyn + `","language":"cast","calculus":"gradual","stage":"machine","variant":"ed","parameter":"semantics","outcome":"answer","answer":"dynamic","value":"<Int!> 1","contractions":1}` + "\n"
	if code != 0 || stdout != want {
		t.Errorf("run --json: exit %d\n got %s\nwant %s", code, stdout, want)
	}
	loop := write(t, "loop.gtlc", "letrec loop: Int -> Int = \\x:Int. loop x in loop 0")
	stdout, stderr, code := runCmd("run", "--timeout", "50ms", "--fuel", "1000000000", loop)
	if code != 3 || stdout != "" || !strings.Contains(stderr, "timed out after 50ms") {
		t.Errorf("run --timeout: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	stdout, _, code = runCmd("compare", "--json", "--semantics", "ed", dyn)
	if code != 0 || !strings.Contains(stdout, `"stage":"cps2","outcome":"answer","answer":"dynamic"`) || !strings.Contains(stdout, `"disagreements":[]`) {
		t.Errorf("compare --json: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd("compare", "--mode", "merged", "--semantics", "ld", dyn)
	if code != 0 || !strings.Contains(stdout, "all stages agree") {
		t.Errorf("compare --mode merged: exit %d\n%s", code, stdout)
	}
}

// TestDifferentiable runs the differentiable language through the command: the
// spec's vectors (§6), undefined as an answer, and trace --reports.
func TestDifferentiable(t *testing.T) {
	tests := []struct {
		src, ad, want string
		code          int
	}{
		{"1.rd[1](x:real. x * 1.rd[1](y:real. x + y))", "pruned", "1\n", 0},
		{"1.rd[<2, 3>](z:real * real. fst(z) * snd(z))", "figure6", "<3, 2>\n", 0},
		{"let x:real = 3 in x.rd[2](x:real. x * x)", "pruned", "12\n", 0},
		{"1.rd[-1](x:real. log(x))", "pruned", "undefined\n", 0},
		{"1.rd[0](x:real. if x <. 0 then 0 else x)", "figure6", "undefined\n", 0},
		{"1.fd[3](x:real. x * x)", "pruned", "6\n", 0},
		{"1.rd[1](x:real. y)", "pruned", "", 2},
	}
	for _, tt := range tests {
		path := write(t, "p.dpl", tt.src)
		stdout, stderr, code := runCmd("run", "--ad", tt.ad, path)
		if stdout != tt.want || code != tt.code {
			t.Errorf("%s (%s): %q, exit %d, want %q, %d (stderr %q)", tt.src, tt.ad, stdout, code, tt.want, tt.code, stderr)
		}
	}
	// The spec's expected trace: under {x ↦ 1}, x * 1.rd[1](y:real. x + y) traces to
	// let s:real = 0 + 1 in mul(<x, s>), up to renaming.
	path := write(t, "nested.dpl", "1.rd[1](x:real. x * 1.rd[1](y:real. x + y))")
	stdout, _, code := runCmd("trace", "--reports", "--ad", "pruned", path)
	if code != 0 || !regexp.MustCompile(`trace: +let (s#\d+):real = 0 \+ 1 in mul\(<x, (s#\d+)>\)`).MatchString(stdout) {
		t.Errorf("trace --reports: exit %d\n%s", code, stdout)
	}
	if stdout, _, code := runCmd("run", "--ad", "tape", path); code != 0 || strings.TrimSpace(stdout) != "1" {
		t.Errorf("--ad tape: exit %d, %q, want 1", code, stdout)
	}
	if _, _, code := runCmd("run", "--ad", "forward", path); code != 2 {
		t.Errorf("--ad forward: exit %d, want 2 (no such strategy)", code)
	}
}

// TestTraceAll aligns the stages on their contractions (the sequence of
// TestTrace, derived by hand), as text, JSON and an HTML page.
func TestTraceAll(t *testing.T) {
	path := write(t, "p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4")
	stdout, _, code := runCmd("trace", "--stage", "all", path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"contraction 1: CmpCst", "contraction 2: StepCst/InOut", "contraction 3: IdCst",
		"expand: (<Int?^l2> <Int!> 4)[ε]", "c-eval     Int! ; Int?^l2  on 4", "interp     4"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("trace --stage all lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = runCmd("trace", "--stage", "all", "--json", path)
	if code != 0 || !strings.Contains(stdout, `"rules":["CmpCst","StepCst/InOut","IdCst"]`) {
		t.Errorf("trace --stage all --json: exit %d\n%s", code, stdout)
	}
	page := filepath.Join(t.TempDir(), "trace.html")
	if _, _, code := runCmd("trace", "--stage", "all", "--html", page, path); code != 0 {
		t.Fatalf("--html: exit %d", code)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<b>StepCst/InOut</b>") || !strings.Contains(string(html), "<th>machine</th>") {
		t.Errorf("the page lacks the rows or columns: %v", err)
	}
}

// TestTraceAllDPL: trace --stage all for the differentiable language. By hand:
// d/dx x² at 3 is 2·3 = 6; the rd's body x * x is mul(<x, x>), its own trace (one
// sym/op); the derivative term then runs on the ordinary layer.
func TestTraceAllDPL(t *testing.T) {
	path := write(t, "p.dpl", "1.rd[3](x:real. x * x)")
	stdout, _, code := runCmd("trace", "--stage", "all", "--ad", "pruned", path)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	for _, want := range []string{"contraction 1: rd", "contraction 2: sym/op", "contraction 1 (rd) completes",
		"trace:      mul(<x, x>)", "derivative: let x:real = 3 in", "| decompose: []  with redex  mul(<x, x>)   (layer 1, symbolic)",
		"reduction  6", "closures   6", "machine    6", "cps2       6", "interp     6"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("trace --stage all lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "DISAGREE") {
		t.Errorf("the stages disagree:\n%s", stdout)
	}
	stdout, _, code = runCmd("trace", "--stage", "all", "--json", "--ad", "figure6", path)
	if code != 0 || !strings.Contains(stdout, `"variant":"figure6"`) || !strings.Contains(stdout, `"rules":["rd","sym/op",`) {
		t.Errorf("trace --stage all --json: exit %d\n%s", code, stdout)
	}
	page := filepath.Join(t.TempDir(), "trace.html")
	if _, _, code := runCmd("trace", "--stage", "all", "--html", page, path); code != 0 {
		t.Fatalf("--html: exit %d", code)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "<b>sym/op</b>") || !strings.Contains(string(html), "trace:      mul(&lt;x, x&gt;)") {
		t.Errorf("the page lacks the rows or the rd: %v", err)
	}
}

// TestTracePageRendersInChromium takes a screenshot of the side-by-side page with
// headless Chromium, where it is installed (apt-get install chromium); elsewhere it
// is skipped. The README gives the same command.
func TestTracePageRendersInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser, seconds a page: go test without -short")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed")
	}
	for _, prog := range []struct{ name, src string }{
		{"p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4"},
		{"p.dpl", "1.rd[3](x:real. x * x)"},
	} {
		dir := t.TempDir()
		path := write(t, prog.name, prog.src)
		page, shot := filepath.Join(dir, "trace.html"), filepath.Join(dir, "trace.png")
		if _, _, code := runCmd("trace", "--stage", "all", "--html", page, path); code != 0 {
			t.Fatalf("%s: --html: exit %d", prog.name, code)
		}
		cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1400,900", "--screenshot="+shot, "file://"+page)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: chromium: %v\n%s", prog.name, err, out)
		}
		info, err := os.Stat(shot)
		if err != nil || info.Size() < 10_000 {
			t.Fatalf("%s: no screenshot, or an empty one: %v", prog.name, err)
		}
	}
}

// TestDPLEveryStageEndsCleanly: a long loop answers on the environment-based stages
// and runs out of fuel, cleanly, on the reduction semantics and the calculus of
// closures (quadratic by design); a deep non-tail recursion answers on the machine and
// the CPS evaluator and stops at the interpreter's bound. Never a crash.
func TestDPLEveryStageEndsCleanly(t *testing.T) {
	// Under -short a loop of 20,000 and a recursion 20,000 deep (the full run: 100,000
	// and 200,000, past the interpreter's bound, which it checks).
	n, m := 100000, 200000
	if testing.Short() {
		n, m = 20000, 20000
	}
	loop := write(t, "loop.dpl", fmt.Sprintf("letrec f(n:real):real = if n <. 0.5 then 0 else f(n + -1) in f(%d)", n))
	deep := write(t, "deep.dpl", fmt.Sprintf("letrec f(n:real):real = if n <. 0.5 then 0 else 1 + f(n + -1) in f(%d)", m))
	for _, stage := range []string{"machine", "cps2", "interp"} {
		if stdout, stderr, code := runCmd("run", "--stage", stage, loop); code != 0 || stdout != "0\n" {
			t.Errorf("%s on the loop: exit %d, %q, %q", stage, code, stdout, stderr)
		}
	}
	for _, stage := range []string{"reduction", "closures"} {
		if stdout, stderr, code := runCmd("run", "--stage", stage, "--fuel", "5000", loop); code != 3 || stdout != "" || !strings.Contains(stderr, "out of fuel after 5000") {
			t.Errorf("%s on the loop: exit %d, %q, %q", stage, code, stdout, stderr)
		}
	}
	for _, stage := range []string{"machine", "cps2"} {
		if stdout, stderr, code := runCmd("run", "--stage", stage, deep); code != 0 || stdout != fmt.Sprintln(m) {
			t.Errorf("%s on the deep recursion: exit %d, %q, %q", stage, code, stdout, stderr)
		}
	}
	if testing.Short() {
		return // the interpreter's depth bound: the full run checks it
	}
	if stdout, stderr, code := runCmd("run", "--stage", "interp", deep); code != 3 || stdout != "" || !strings.Contains(stderr, "deeper than the limit") {
		t.Errorf("interp on the deep recursion: exit %d, %q, %q", code, stdout, stderr)
	}
}
