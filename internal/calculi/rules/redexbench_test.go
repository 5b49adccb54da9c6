package rules_test

// The Redex benchmark's stlc+lists family, ported to rule files
// (testdata/redexbench/stlc+lists: base.sem, Redex's stlc+lists.rkt, and bugN.sem,
// models/stlc+lists/stlc-N.rkt's rewrite of it): the benchmark's property
// (rules.BenchmarkProperty) on each bug's small counterexample, and the corpora
// against Redex's own models where racket is installed.

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
)

// stlcListsDir holds the family's rule files and their corpora.
var stlcListsDir = filepath.Join("..", "..", "..", "testdata", "redexbench", "stlc+lists")

// benchOpts bounds each typing search of the tests.
var benchOpts = interderive.Options{Timeout: 10 * time.Second}

// loadBench reads the rule file NAME.sem of the family.
func loadBench(t *testing.T, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(stlcListsDir, name+".sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatalf("%s.sem: %v", name, err)
	}
	return l
}

// readBench reads the program src of the rule file l.
func readBench(t *testing.T, l *sem.Language, src string) *sem.Term {
	t.Helper()
	p, err := l.ReadTerm([]byte(src))
	if err != nil {
		t.Fatalf("%s: %s: %v", l.Name, src, err)
	}
	return p
}

// TestRedexBenchCounterexamples: each bug's small counterexample, as
// models/stlc+lists/stlc-N.rkt defines it (small-counter-example, and
// enum-small-counter-example for bug 7), violates the benchmark's property under
// bugN.sem, in the way derived by hand below (and in bugN/*.term), and satisfies it
// under base.sem (derived by hand in base/bugN-cex.term: a type error, a value, or a
// step that keeps the type).
func TestRedexBenchCounterexamples(t *testing.T) {
	base := loadBench(t, "base")
	for _, tc := range []struct {
		bug     int
		program string
		want    string // what BenchmarkProperty says, derived by hand
	}{
		// hd : ((list int) → int) at 0 : int types as int under bug 1; (hd 0) has no reduct.
		{1, "(hd 0)", "(hd 0), of the type int, is no value and has 0 reducts"},
		// ((cons 0) nil) is no value under bug 2, and nothing contracts it.
		{2, "((cons 0) nil)", "((cons 0) nil), of the type (list int), is no value and has 0 reducts"},
		// int under bug 3; βv gives cons, of cons's type.
		{3, "((λ (a int) cons) cons)", "βv does not preserve the type int: ((λ (a int) cons) cons) steps to cons, which has the type (int → ((list int) → (list int)))"},
		// cons's bad type makes it int; + of a list has no reduct.
		{4, "((+ 0) ((cons 0) nil))", "((+ 0) ((cons 0) nil)), of the type int, is no value and has 0 reducts"},
		// tl gives the head.
		{5, "(tl ((cons 0) nil))", "tl does not preserve the type (list int): (tl ((cons 0) nil)) steps to 0, which has the type int"},
		// hd takes (cons v) only.
		{6, "(hd ((cons 0) nil))", "(hd ((cons 0) nil)), of the type int, is no value and has 0 reducts"},
		// no (v E): the argument is never evaluated.
		{7, "((+ 1) ((+ 2) 3))", "((+ 1) ((+ 2) 3)), of the type int, is no value and has 0 reducts"},
		{7, "(cons (hd nil))", "(cons (hd nil)), of the type ((list int) → (list int)), is no value and has 0 reducts"},
		// a : int in the body; βv gives (cons nil), which has no type.
		{8, "((λ (a (list int)) (cons a)) nil)", "βv does not preserve the type ((list int) → (list int)): ((λ (a (list int)) (cons a)) nil) steps to (cons nil), which has no type"},
		// a gets b's type; after βv the body 1 is an int.
		{9, "((λ (a int) (λ (b (list int)) a)) 1)", "βv does not preserve the type ((list int) → (list int)): ((λ (a int) (λ (b (list int)) a)) 1) steps to (λ (b (list int)) 1), which has the type ((list int) → int)"},
	} {
		t.Run(fmt.Sprintf("bug%d/%s", tc.bug, tc.program), func(t *testing.T) {
			l := loadBench(t, fmt.Sprintf("bug%d", tc.bug))
			err := rules.BenchmarkProperty(l, readBench(t, l, tc.program), benchOpts)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("under bug%d.sem: %v, want a violation: %s", tc.bug, err, tc.want)
			}
			if err := rules.BenchmarkProperty(base, readBench(t, base, tc.program), benchOpts); err != nil {
				t.Errorf("under base.sem: %v, want the property to hold", err)
			}
		})
	}
}

// TestRedexBenchBug2Relation: bug2.sem is (nondeterministic), as Redex's relation
// is once ((cons v) v) is no value: (hd ((cons 0) nil)) decomposes at the root, where
// hd contracts it, and in the argument, where nothing contracts ((cons 0) nil); its
// one reduct is 0 by hd, as Redex's apply-reduction-relation gives (by hand: E = hole
// matches hd's left-hand side; E = (hd hole) puts ((cons 0) nil) in the hole, which
// no rule's left-hand side matches). The property then holds of it (0 : int).
func TestRedexBenchBug2Relation(t *testing.T) {
	l := loadBench(t, "bug2")
	if !l.Nondeterministic {
		t.Fatal("bug2.sem is not (nondeterministic)")
	}
	p := readBench(t, l, "(hd ((cons 0) nil))")
	rs, err := l.Reducts(p)
	if err != nil || len(rs) != 1 || sem.Format(rs[0].Term) != "0" || rs[0].Event != "hd" {
		t.Fatalf("reducts %v, %v: want 0 by hd", rs, err)
	}
	if err := rules.BenchmarkProperty(l, p, benchOpts); err != nil {
		t.Errorf("the property: %v, want it to hold", err)
	}
}

// TestRedexBenchProperty: the property's parts on base.sem, derived by hand: a value
// holds (whatever its type), an ill-typed term holds (implies), a step to "error"
// holds, a step that keeps the type holds.
func TestRedexBenchProperty(t *testing.T) {
	l := loadBench(t, "base")
	for _, src := range []string{
		"(λ (x int) x)",             // a value
		"((cons 1) nil)",            // a value ((cons v) v)
		"(5 5)",                     // no type: the property holds vacuously
		"((+ 1) (hd nil))",          // steps to "error" by hd-err
		"((λ (x int) x) 7)",         // int, steps to 7 : int
		"((+ ((+ 1) 2)) ((+ 3) 4))", // int, steps to ((+ 3) ((+ 3) 4)) : int
	} {
		if err := rules.BenchmarkProperty(l, readBench(t, l, src), benchOpts); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// benchProgram is a program of the family's corpus: its file, its model (base or
// bugN), its source, and its expectations.
type benchProgram struct {
	file, model, src, expect, typ string
}

// benchCorpus reads the programs of base/ and bugN/.
func benchCorpus(t *testing.T) []benchProgram {
	t.Helper()
	var out []benchProgram
	for _, model := range []string{"base", "bug1", "bug2", "bug3", "bug4", "bug5", "bug6", "bug7", "bug8", "bug9"} {
		files, err := filepath.Glob(filepath.Join(stlcListsDir, model, "*.term"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no programs (%v)", model, err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := benchProgram{file: f, model: model}
			var prog []string
			for line := range strings.Lines(string(src)) {
				line = strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(line, "; expect:"):
					p.expect = strings.TrimSpace(strings.TrimPrefix(line, "; expect:"))
				case strings.HasPrefix(line, "; type:"):
					p.typ = strings.TrimSpace(strings.TrimPrefix(line, "; type:"))
				case strings.HasPrefix(line, ";"), line == "":
				default:
					prog = append(prog, line)
				}
			}
			p.src = strings.Join(prog, " ")
			if p.expect == "" || p.src == "" {
				t.Fatalf("%s: no program or no expectation", f)
			}
			out = append(out, p)
		}
	}
	return out
}

// racketModule requires Redex's models, and prints, for each program, one line of
// tab-separated fields: the number of normal forms apply-reduction-relation* gives,
// the first written, its type-check, whether it is a value (v?), and the benchmark's
// check (generators.rkt's check-mod) of the program.
const racketModule = `#lang racket/base
(require redex/reduction-semantics racket/string)
%s
(define (show red type-check v? check p)
  (define res (apply-reduction-relation* red p))
  (define ans (car res))
  (define ok (with-handlers ([exn:fail? (λ (e) 'exn)]) (check p)))
  (printf "~a\t~s\t~s\t~a\t~a\n" (length res) ans (type-check p)
          (and (not (equal? ans "error")) (v? ans)) ok))
%s
`

// TestRedexBenchAgainstRedex: every program of the corpora runs on Redex's own
// model (base/: redex/examples/stlc+lists; bugN/: the rewritten model of
// redex-benchmark's models/stlc+lists/stlc-N.rkt), which must give the answer and
// the type the program's expectations say (a run-time error: a normal form that is
// neither a value nor "error"; a type error: type-check's #f), and on the bug
// corpora the benchmark's check must fail, on base's counterexamples
// (base/bugN-cex.term) hold. An independent check of the hand derivations: Redex,
// not the rule files, computes. Skipped where racket is not installed.
func TestRedexBenchAgainstRedex(t *testing.T) {
	racket, err := exec.LookPath("racket")
	if err != nil {
		t.Skipf("racket is not installed (Debian package racket, with PLT Redex): %v", err)
	}
	progs := benchCorpus(t)
	var mods, calls strings.Builder
	mods.WriteString("(require (prefix-in base: redex/examples/stlc+lists) (prefix-in base: (submod redex/benchmark/models/stlc+lists/generators check-mod)))\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&mods, "(require (prefix-in bug%[1]d: (submod redex/benchmark/models/stlc+lists/stlc-%[1]d stlc)) (prefix-in bug%[1]d: (submod redex/benchmark/models/stlc+lists/stlc-%[1]d generators check-mod)))\n", i)
	}
	for _, p := range progs {
		fmt.Fprintf(&calls, "(show %[1]s:red %[1]s:type-check %[1]s:v? %[1]s:check (term %[2]s))\n", p.model, p.src)
	}
	file := filepath.Join(t.TempDir(), "bench.rkt")
	if err := os.WriteFile(file, fmt.Appendf(nil, racketModule, mods.String(), calls.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(racket, file).Output()
	if err != nil {
		t.Fatalf("racket: %v\n%s", err, out)
	}
	var lines []string
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	if len(lines) != len(progs) {
		t.Fatalf("racket printed %d lines for %d programs:\n%s", len(lines), len(progs), out)
	}
	langs := map[string]*sem.Language{}
	for i, p := range progs {
		f := strings.Split(lines[i], "\t")
		if len(f) != 5 {
			t.Fatalf("%s: racket printed %q", p.file, lines[i])
		}
		n, ans, typ, value, check := f[0], f[1], f[2], f[3], f[4]
		l := langs[p.model]
		if l == nil {
			l = loadBench(t, p.model)
			langs[p.model] = l
		}
		name := filepath.Join(p.model, filepath.Base(p.file))
		switch {
		case p.expect == "type error":
			if typ != "#f" {
				t.Errorf("%s: Redex's type-check gives %s, the file expects a type error", name, typ)
			}
		case p.typ != typ:
			t.Errorf("%s: Redex's type-check gives %s, the file expects %s", name, typ, p.typ)
		}
		if p.expect != "type error" {
			switch {
			case n != "1":
				t.Errorf("%s: Redex gives %s normal forms", name, n)
			case strings.HasPrefix(p.expect, "run-time error:"):
				if value != "#f" || ans == `"error"` {
					t.Errorf("%s: Redex gives %s (a value: %s), the file expects it stuck: %s", name, ans, value, p.expect)
				}
			default:
				want := readBench(t, l, p.expect)
				got, err := l.ReadTerm([]byte(ans))
				if err != nil || !sem.AlphaEqual(got, want) || value == "#f" && ans != `"error"` {
					t.Errorf("%s: Redex gives %s (a value: %s), the file expects %s", name, ans, value, p.expect)
				}
			}
		}
		wantCheck := "#t"
		if p.model != "base" {
			wantCheck = "#f"
		}
		if strings.HasPrefix(p.model, "bug") || strings.HasPrefix(filepath.Base(p.file), "bug") {
			if check != wantCheck {
				t.Errorf("%s: the benchmark's check gives %s, want %s", name, check, wantCheck)
			}
		}
	}
	if !t.Failed() {
		t.Logf("%d programs agree with Redex's models", len(progs))
	}
}
