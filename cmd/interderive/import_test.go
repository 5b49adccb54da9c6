package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/sem"
)

// TestImport: import translates Redex's own models (internal/redex/testdata/models,
// copied from redex-examples) and writes their test-->> tests as programs, which
// check then runs on the six derived stages: stlc.rkt's 10, poly-stlc.rkt's 18 and
// contracts.rkt's 21 tests (grep -c '(test-->>' on each), and the 16 that
// stlc-tests-lib.rkt writes for each stlc+lists model, pass with the answers Redex's
// tests state, on the tables and (not in -short) on the compiled engine, which runs
// every model derive --go writes (contracts.rkt's binders that are sequences among
// them). A model the rule language cannot say is refused, positioned (Racket's
// expt), and nothing is written over an existing file without --force.
func TestImport(t *testing.T) {
	models := filepath.Join("..", "..", "internal", "redex", "testdata", "models")
	dir := t.TempDir()
	for _, tc := range []struct {
		model, summary, check string
	}{
		{"stlc.rkt", "10 tests as programs", "10 files, 60 runs: 60 passed, 0 failed"},
		{"poly-stlc.rkt", "18 tests as programs", "18 files, 108 runs: 108 passed, 0 failed"},
		// Sequences ((e e ...), (λ (x ...) e), (v ... E e ...)), subst.rkt's subst-n,
		// Racket's tests of numbers, booleans and blame: its 21 tests.
		{"contracts.rkt", "21 tests as programs", "21 files, 126 runs: 126 passed, 0 failed"},
		// The three share their tests, redex-examples' stlc-tests-lib.rkt, whose macro
		// (stlc-tests ...) each calls: its 16 test-->> (grep -c 'test-->>').
		{"stlc+lists.rkt", "16 tests as programs", "16 files, 96 runs: 96 passed, 0 failed"},
		{"stlc+lists+subst.rkt", "16 tests as programs", "16 files, 96 runs: 96 passed, 0 failed"},
		{"stlc+lists-with-binding.rkt", "16 tests as programs", "16 files, 96 runs: 96 passed, 0 failed"},
	} {
		stdout, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, tc.model))
		if code != 0 || !strings.Contains(stdout, tc.summary) {
			t.Fatalf("import %s: exit %d\n%s%s", tc.model, code, stdout, stderr)
		}
		name := strings.TrimSuffix(tc.model, ".rkt")
		stdout, stderr, code = runCmd("check", filepath.Join(dir, name))
		if code != 0 || !strings.Contains(stdout+stderr, tc.check) {
			t.Errorf("check %s: exit %d\n%s%s", name, code, stdout, stderr)
		}
		if testing.Short() || !testenv.CompiledEngine(t) {
			continue // a plugin a model: the full run checks the compiled engine
		}
		// The compiled engine runs the six stages derive --go writes: the same tests
		// pass.
		var files int
		fmt.Sscanf(tc.check, "%d files", &files)
		want := fmt.Sprintf("%d files, %d runs: %d passed, 0 failed\n", files, 6*files, 6*files)
		stdout, stderr, code = runCmd("check", "--engine", "compiled", filepath.Join(dir, name))
		if code != 0 || !strings.Contains(stdout+stderr, want) {
			t.Errorf("check --engine compiled %s: exit %d, want %q\n%s%s", name, code, want, stdout, stderr)
		}
	}
	// combinators.rkt's context restricts no operand: its relation is
	// non-deterministic, explored whole. C* = ((J I) I) swaps: J a b c d → a b (a d
	// c), so ((J I) I) x y → (I I) ((I y) x) → ... → (y x), by every path (derived by
	// hand): one normal form, (abs2 abs1).
	if _, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, "combinators.rkt")); code != 0 {
		t.Fatalf("import combinators.rkt: exit %d\n%s", code, stderr)
	}
	cstar := filepath.Join(dir, "combinators", "cstar.term")
	if err := os.WriteFile(cstar, []byte("((((j i) i) abs1) abs2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCmd("run", "--all", cstar); code != 0 || stdout != "(abs2 abs1)\n" {
		t.Errorf("run --all of C* abs1 abs2: exit %d\n%s%s", code, stdout, stderr)
	}
	// omega.rkt's call/cc captures its context: ((λ (y) (y 3)) (call/cc (λ (k) (k (λ
	// (z) 7))))) steps by call-cc, βv, βv, abort, βv, βv to 7 (derived by hand: the
	// continuation aborts to ((λ (y) (y 3)) (λ (z) 7))), on every stage; Redex's own
	// model agrees, where racket is installed.
	if _, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, "omega.rkt")); code != 0 {
		t.Fatalf("import omega.rkt: exit %d\n%s", code, stderr)
	}
	escape := "((lambda (y) (y 3)) (call/cc (lambda (k) (k (lambda (z) 7)))))"
	prog := filepath.Join(dir, "omega", "escape.term")
	if err := os.WriteFile(prog, []byte("; expect: 7\n; rules: call-cc, βv, abort\n"+escape+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCmd("check", prog); code != 0 || !strings.Contains(stdout, "1 file, 6 runs: 6 passed, 0 failed") {
		t.Errorf("check omega's escape: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := exec.LookPath("racket"); err == nil && !testing.Short() {
		if r := redexRuns(t, redexModel("omega.rkt"), "reductions", []string{escape})[0]; r.steps != 6 || r.answer != "7" {
			t.Errorf("Redex on omega's escape: %d contractions to %s", r.steps, r.answer)
		}
	}
	_, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, "stlc.rkt"))
	if code != 2 || !strings.Contains(stderr, "exists: --force to overwrite") {
		t.Errorf("import over a rule file: exit %d, %s", code, stderr)
	}
	// arithmetic.rkt's numbers are Racket's (it divides and takes roots), its
	// relation non-deterministic: its example (traces/ps) has one normal form, 0
	// (sqrt 36 = 6, 1/2, 6 · 1/2 = 3, 1 + 2 = 3, 3 - 3 = 0, in any order).
	if _, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, "arithmetic.rkt")); code != 0 {
		t.Fatalf("import arithmetic.rkt: exit %d\n%s", code, stderr)
	}
	example := filepath.Join(dir, "arithmetic", "example.term")
	if err := os.WriteFile(example, []byte("(- (* (sqrt 36) (/ 1 2)) (+ 1 2))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCmd("run", "--all", example); code != 0 || stdout != "0\n" {
		t.Errorf("run --all of arithmetic.rkt's example: exit %d\n%s%s", code, stdout, stderr)
	}
	// A construct the rule language cannot say is refused, positioned, and nothing
	// is written: Racket's expt.
	bad := filepath.Join(t.TempDir(), "expt.rkt")
	if err := os.WriteFile(bad, []byte("#lang racket\n(define-language L (e ::= (f e) number) (E ::= hole (f E)))\n(define r (reduction-relation L (--> (in-hole E (f number)) (in-hole E ,(expt (term number) 2)))))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCmd("import", "-o", dir, bad)
	if code != 2 || !strings.Contains(stderr, "expt.rkt:3:73: ") || !strings.Contains(stderr, "Racket code is not translated") {
		t.Errorf("import expt.rkt: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "expt.sem")); err == nil {
		t.Error("a refused model wrote a rule file")
	}
}

// TestBenchModel: bench --peer redex --model compares the derived stages with Redex
// on the model's longest test: stlc.rkt's is line 153, ((λ (x num) (if0 x x (+ x 1)))
// 2), three contractions (βv, if0f, +) to 3, as the model's test states; every stage
// agrees with Redex. Without racket the comparison is skipped, and says so.
func TestBenchModel(t *testing.T) {
	if testing.Short() {
		t.Skip("racket and half a second of Redex's runs: not in -short")
	}
	model := filepath.Join("..", "..", "internal", "redex", "testdata", "models", "stlc.rkt")
	stdout, stderr, code := runCmd("bench", "--dir", filepath.Join("..", "..", "testdata", "bench"), "--peer", "redex", "--model", model)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "its longest test (line 153, 3 contractions on reduction): ((λ (x num) (if0 x x (+ x 1))) 2)") {
		t.Errorf("no longest test:\n%s", stdout)
	}
	for _, s := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
		if !strings.Contains(stdout, s+"             3       3") {
			t.Errorf("no row of %s with 3 contractions and answer 3:\n%s", s, stdout)
		}
	}
	if _, err := exec.LookPath("racket"); err != nil {
		if !strings.Contains(stderr, "Redex not run") {
			t.Errorf("racket absent, and the comparison does not say it skipped Redex:\n%s", stderr)
		}
		t.Skip("racket is not installed: Redex's side not checked")
	}
	if !strings.Contains(stdout, "redex             3       3") {
		t.Errorf("no Redex row with 3 contractions and answer 3:\n%s", stdout)
	}
}

// TestImportedAgainstRedex: programs of the imported models that have no tests of
// their own run on every derived stage to Redex's own answers (testdata/bench/redex/
// model.rkt runs the model's relation), compared up to α-equivalence in the rule
// file's terms. Skipped where racket is not installed, or under -short.
func TestImportedAgainstRedex(t *testing.T) {
	needRedex(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		model, relation string
		programs        []string
	}{
		{"stlc+lists.rkt", "red", []string{"(hd ((cons 1) nil))", "((λ (x int) ((+ x) 1)) 41)", "(tl nil)",
			"((λ (f (int → int)) (f (f 1))) (λ (y int) ((+ y) y)))"}},
		// A redex in the hole of a-ctxt, which e-ctxt includes: the rule applies there.
		// Reduction under λ (the kinds' values their normal forms): a normal form
		// whose argument holds a redex a-ctxt does not enter; and the model's own
		// example, 2 + 2 in Church numerals (its traces call), to the numeral 4.
		{"church.rkt", "reductions", []string{"(app (lambda (x) x) (lambda (y) y))",
			"(app (app (lambda (x) x) (lambda (y) y)) (lambda (z) z))", "(let (f (lambda (x) x)) (app f f))",
			"(lambda (y) (app (lambda (x) x) (lambda (z) (app (lambda (w) w) z))))",
			"(lambda (f) (app f (lambda (z) (app (lambda (w) w) z))))",
			"(let (plus (lambda (m) (lambda (n) (lambda (s) (lambda (z) (app (app m s) (app (app n s) z))))))) (let (two (lambda (s) (lambda (z) (app s (app s z))))) (app (app plus two) two)))"}},
	} {
		if _, stderr, code := runCmd("import", "-o", dir, redexModel(tc.model)); code != 0 {
			t.Fatalf("import %s: exit %d\n%s", tc.model, code, stderr)
		}
		name := strings.TrimSuffix(tc.model, ".rkt")
		src, err := os.ReadFile(filepath.Join(dir, name+".sem"))
		if err != nil {
			t.Fatal(err)
		}
		l, err := sem.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		runs := redexRuns(t, redexModel(tc.model), tc.relation, tc.programs)
		for i, prog := range tc.programs {
			want := runs[i].answer
			file := filepath.Join(dir, name, fmt.Sprintf("redex-%d.term", i))
			if err := os.WriteFile(file, []byte(prog+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
				got, stderr, code := runCmd("run", "--rules", filepath.Join(dir, name+".sem"), "--stage", stage, file)
				a, errA := l.ReadTerm([]byte(got))
				b, errB := l.ReadTerm([]byte(want))
				if code != 0 || errA != nil || errB != nil || !sem.AlphaEqual(a, b) {
					t.Errorf("%s %s on %s: %q (exit %d, %s), Redex %q", tc.model, prog, stage, got, code, stderr, want)
				}
			}
		}
	}
}

// TestOmegaAgainstRedex: omega.rkt's own examples (its three traces calls) do not
// end; each runs 24 steps on Redex's model and on the imported rule file's reduction
// stage, which must reach the same term at every step, up to α-equivalence (the
// fresh variables call/cc makes are x1, x2 in Redex, primed x here); every other stage
// runs out of its fuel of 24 with it (the stages agree in lockstep: fuzz). Skipped
// where racket is not installed, or under -short.
func TestOmegaAgainstRedex(t *testing.T) {
	needRedex(t)
	model := redexModel("omega.rkt")
	dir := t.TempDir()
	if _, stderr, code := runCmd("import", "-o", dir, model); code != 0 {
		t.Fatalf("import omega.rkt: exit %d\n%s", code, stderr)
	}
	rules := filepath.Join(dir, "omega.sem")
	src, err := os.ReadFile(rules)
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	const steps = 24
	for i, prog := range []string{
		"((lambda (x) (x x)) (lambda (x) (x x)))",
		"((call/cc call/cc) (call/cc call/cc))",
		"((lambda (x) ((call/cc call/cc) x)) (call/cc call/cc))",
	} {
		var redex []string
		for _, step := range redexLines(redexScript(t, model, "reductions", "", prog, strconv.Itoa(steps)), "step ") {
			_, term, _ := strings.Cut(step, " ") // K TERM
			redex = append(redex, term)
		}
		file := filepath.Join(dir, fmt.Sprintf("example-%d.term", i))
		if err := os.WriteFile(file, []byte(prog+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		trace, stderr, _ := runCmd("trace", "--rules", rules, "--stage", "reduction", "--fuel", strconv.Itoa(steps), file)
		var ours []string
		for _, line := range strings.Split(trace, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "plug:"); ok {
				ours = append(ours, strings.TrimSpace(rest))
			}
		}
		if len(redex) != steps || len(ours) != steps {
			t.Fatalf("%s: %d steps of Redex's, %d of ours, want %d each\n%s", prog, len(redex), len(ours), steps, stderr)
		}
		for k := range steps {
			a, errA := l.ReadTerm([]byte(ours[k]))
			b, errB := l.ReadTerm([]byte(redex[k]))
			if errA != nil || errB != nil || !sem.AlphaEqual(a, b) {
				t.Fatalf("%s, step %d: %s, Redex %s (%v, %v)", prog, k+1, ours[k], redex[k], errA, errB)
			}
		}
		for _, stage := range []string{"closures", "machine", "cps2", "interp", "compile"} {
			if stdout, _, code := runCmd("run", "--rules", rules, "--stage", stage, "--fuel", strconv.Itoa(steps), "--json", file); code != 3 || !strings.Contains(stdout, `"contractions":24`) {
				t.Errorf("%s on %s: exit %d, %s; want out of fuel after 24", prog, stage, code, stdout)
			}
		}
	}
}

// TestBenchModelByHand: bench --peer redex --model takes a rule file written by hand
// for a model (--model-rules: letrec.rkt's, testdata/rules/letrec.sem), and one
// program to compare on (--model-term: its set.term, 6 contractions by hand, let1,
// let0, set!, begin-many, begin-one, get, as Redex's own run of the model counts them,
// TestLetrecAgainstRedex; church.rkt's example, 8 contractions in Redex). The two
// flags go with --model only.
func TestBenchModelByHand(t *testing.T) {
	_, stderr, code := runCmd("bench", "--peer", "redex", "--model-rules", "x.sem")
	if code != 2 || !strings.Contains(stderr, "--model-rules and --model-term go with --model") {
		t.Errorf("--model-rules alone: exit %d, %s", code, stderr)
	}
	if testing.Short() {
		t.Skip("the stages' timed rounds, and Redex's where racket is installed: not in -short")
	}
	root := filepath.Join("..", "..")
	models := filepath.Join(root, "internal", "redex", "testdata", "models")
	church := filepath.Join(t.TempDir(), "plus.term")
	if err := os.WriteFile(church, []byte("(let (plus (lambda (m) (lambda (n) (lambda (s) (lambda (z) (app (app m s) (app (app n s) z))))))) (let (two (lambda (s) (lambda (z) (app s (app s z))))) (app (app plus two) two)))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		header string
		steps  string
	}{
		{[]string{"--model", filepath.Join(models, "letrec.rkt"), "--model-rules", filepath.Join(root, "testdata", "rules", "letrec.sem"),
			"--model-term", filepath.Join(root, "testdata", "rules", "letrec", "set.term")},
			"the program (set.term, 6 contractions on reduction): ((store) (output) (let ((x 5)) (begin (set! x 6) x)))", "6"},
		{[]string{"--model", filepath.Join(models, "church.rkt"), "--model-term", church},
			"the program (plus.term, 8 contractions on reduction): (let (plus", "8"},
	} {
		stdout, stderr, code := runCmd(append([]string{"bench", "--dir", filepath.Join(root, "testdata", "bench"), "--peer", "redex"}, tc.args...)...)
		if code != 0 || !strings.Contains(stdout, tc.header) {
			t.Errorf("bench %s: exit %d\n%s%s", strings.Join(tc.args, " "), code, stdout, stderr)
			continue
		}
		for _, s := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
			if !regexp.MustCompile(`(?m)^ *` + s + ` +` + tc.steps + ` `).MatchString(stdout) {
				t.Errorf("no row of %s with %s contractions:\n%s", s, tc.steps, stdout)
			}
		}
	}
}

// TestArithmeticAgainstRedex: arithmetic.rkt imported (Racket's numbers, a
// non-deterministic relation) has the normal forms Redex's own model has
// (apply-reduction-relation*, testdata/bench/redex/model.rkt's all mode) on its
// example and on programs of exact fractions, exact and inexact roots, and an
// inexact sum. Skipped where racket is not installed, or under -short.
func TestArithmeticAgainstRedex(t *testing.T) {
	needRedex(t)
	model := redexModel("arithmetic.rkt")
	dir := t.TempDir()
	if _, stderr, code := runCmd("import", "-o", dir, model); code != 0 {
		t.Fatalf("import arithmetic.rkt: exit %d\n%s", code, stderr)
	}
	for i, prog := range []string{
		"(- (* (sqrt 36) (/ 1 2)) (+ 1 2))",
		"(/ (* 2 3) (- 10 6))",
		"(sqrt (/ 9 4))",
		"(+ (sqrt 2) (/ 1 3))",
		"(- (sqrt 2) (sqrt 2))",
	} {
		redex := redexLines(redexScript(t, model, "reductions", "", prog, "all"), "normal ")
		file := filepath.Join(dir, "arithmetic", fmt.Sprintf("p%d.term", i))
		if err := os.WriteFile(file, []byte(prog+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runCmd("run", "--all", file)
		ours := strings.Fields(stdout)
		if code != 0 || len(redex) == 0 || strings.Join(ours, " ") != strings.Join(redex, " ") {
			t.Errorf("%s: normal forms %q (exit %d, %s), Redex's %q", prog, ours, code, stderr, redex)
		}
	}
}
