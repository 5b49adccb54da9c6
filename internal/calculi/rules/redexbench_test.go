package rules_test

// The Redex benchmark's stlc+lists and poly-stlc families, ported to rule files
// (testdata/redexbench/FAMILY: base.sem, Redex's redex-examples model, and bugN.sem,
// the rewrite of it in redex-benchmark's models/FAMILY/): the benchmark's property
// (rules.BenchmarkProperty) on each bug's small counterexamples, and the corpora
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

// benchDir holds the families' rule files and their corpora.
var benchDir = filepath.Join("..", "..", "..", "testdata", "redexbench")

// benchOpts bounds each typing search of the tests.
var benchOpts = interderive.Options{Timeout: 10 * time.Second}

// loadBench reads the rule file FAMILY/NAME.sem.
func loadBench(t *testing.T, family, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(benchDir, family, name+".sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatalf("%s.sem: %v", name, err)
	}
	return l
}

// readBench reads the program src of the rule file l: closed, or, open, with free
// variables (poly-stlc's bug 9 counterexamples are open terms).
func readBench(t *testing.T, l *sem.Language, src string, open bool) *sem.Term {
	t.Helper()
	p, err := l.ReadTermOf([]byte(src), l.Sorts[0], open)
	if err != nil {
		t.Fatalf("%s: %s: %v", l.Name, src, err)
	}
	return p
}

// benchCex is a bug's counterexample: the family, the bug, the program (open: with
// free variables), and what BenchmarkProperty says of it under bugN.sem, derived by
// hand (in the comments, and in FAMILY/bugN/*.term).
type benchCex struct {
	family  string
	bug     int
	program string
	open    bool
	want    string
}

// benchCexes are the counterexamples of redex-benchmark's models/stlc+lists/stlc-N.rkt
// and models/poly-stlc/poly-stlc-N.rkt: small-counter-example, and
// enum-small-counter-example where the file defines one.
var benchCexes = []benchCex{
	// hd : ((list int) → int) at 0 : int types as int under bug 1; (hd 0) has no reduct.
	{"stlc+lists", 1, "(hd 0)", false, "(hd 0), of the type int, is no value and has 0 reducts"},
	// ((cons 0) nil) is no value under bug 2, and nothing contracts it.
	{"stlc+lists", 2, "((cons 0) nil)", false, "((cons 0) nil), of the type (list int), is no value and has 0 reducts"},
	// int under bug 3; βv gives cons, of cons's type.
	{"stlc+lists", 3, "((λ (a int) cons) cons)", false, "βv does not preserve the type int: ((λ (a int) cons) cons) steps to cons, which has the type (int → ((list int) → (list int)))"},
	// cons's bad type makes the list an int; + of a list has no reduct.
	{"stlc+lists", 4, "((+ 0) ((cons 0) nil))", false, "((+ 0) ((cons 0) nil)), of the type int, is no value and has 0 reducts"},
	// tl gives the head.
	{"stlc+lists", 5, "(tl ((cons 0) nil))", false, "tl does not preserve the type (list int): (tl ((cons 0) nil)) steps to 0, which has the type int"},
	// hd takes (cons v) only.
	{"stlc+lists", 6, "(hd ((cons 0) nil))", false, "(hd ((cons 0) nil)), of the type int, is no value and has 0 reducts"},
	// no (v E): the argument is never evaluated.
	{"stlc+lists", 7, "((+ 1) ((+ 2) 3))", false, "((+ 1) ((+ 2) 3)), of the type int, is no value and has 0 reducts"},
	{"stlc+lists", 7, "(cons (hd nil))", false, "(cons (hd nil)), of the type ((list int) → (list int)), is no value and has 0 reducts"},
	// a : int in the body; βv gives (cons nil), which has no type.
	{"stlc+lists", 8, "((λ (a (list int)) (cons a)) nil)", false, "βv does not preserve the type ((list int) → (list int)): ((λ (a (list int)) (cons a)) nil) steps to (cons nil), which has no type"},
	// a gets b's type; after βv the body 1 is an int.
	{"stlc+lists", 9, "((λ (a int) (λ (b (list int)) a)) 1)", false, "βv does not preserve the type ((list int) → (list int)): ((λ (a int) (λ (b (list int)) a)) 1) steps to (λ (b (list int)) 1), which has the type ((list int) → int)"},

	// [hd @ int] at 0 : int types as int under bug 1; no rule takes it.
	{"poly-stlc", 1, "((hd @ int) 0)", false, "((hd @ int) 0), of the type int, is no value and has 0 reducts"},
	// the full list is no value under bug 2, and nothing contracts it.
	{"poly-stlc", 2, "(((cons @ int) 0) (nil @ int))", false, "(((cons @ int) 0) (nil @ int)), of the type (list int), is no value and has 0 reducts"},
	// (int → (list int)) read as (σ_2 → σ): int; βv gives [nil @ int].
	{"poly-stlc", 3, "((λ (x int) (nil @ int)) (nil @ int))", false, "βv does not preserve the type int: ((λ (x int) (nil @ int)) (nil @ int)) steps to (nil @ int), which has the type (list int)"},
	// ((int → int) → int) read as (σ_2 → σ): (int → int); βv gives 0.
	{"poly-stlc", 3, "((λ (a (int → int)) 0) 0)", false, "βv does not preserve the type (int → int): ((λ (a (int → int)) 0) 0) steps to 0, which has the type int"},
	// cons's bad type makes the list an int; + of a list has no reduct.
	{"poly-stlc", 4, "((+ 0) (((cons @ int) 0) (nil @ int)))", false, "((+ 0) (((cons @ int) 0) (nil @ int))), of the type int, is no value and has 0 reducts"},
	// tl gives the head.
	{"poly-stlc", 5, "((tl @ int) (((cons @ int) 0) (nil @ int)))", false, "tl does not preserve the type (list int): ((tl @ int) (((cons @ int) 0) (nil @ int))) steps to 0, which has the type int"},
	// hd takes ([cons @ τ] v) only.
	{"poly-stlc", 6, "((hd @ int) (((cons @ int) 0) (nil @ int)))", false, "((hd @ int) (((cons @ int) 0) (nil @ int))), of the type int, is no value and has 0 reducts"},
	// no (v E): the argument is never evaluated.
	{"poly-stlc", 7, "((+ 1) ((+ 2) 3))", false, "((+ 1) ((+ 2) 3)), of the type int, is no value and has 0 reducts"},
	{"poly-stlc", 7, "((λ (a int) 0) ((λ (a int) 0) 0))", false, "((λ (a int) 0) ((λ (a int) 0) 0)), of the type int, is no value and has 0 reducts"},
	// x : int in the body; βv gives (+ [nil @ int]), which has no type.
	{"poly-stlc", 8, "((λ (x (list int)) (+ x)) (nil @ int))", false, "βv does not preserve the type (int → int): ((λ (x (list int)) (+ x)) (nil @ int)) steps to (+ (nil @ int)), which has no type"},
	// a : int in the body: int; βv gives (λ (a int) 0) : (int → int).
	{"poly-stlc", 8, "((λ (a (int → int)) a) (λ (a int) 0))", false, "βv does not preserve the type int: ((λ (a (int → int)) a) (λ (a int) 0)) steps to (λ (a int) 0), which has the type (int → int)"},
	// open: the free x gets y's type, (list int), under bug 9: int; after βv, Γ = • and
	// lookup gives #f: no type. Under base.sem lookup gives #f at once: no type.
	{"poly-stlc", 9, "((λ (y (list int)) ((hd @ int) x)) (nil @ int))", true, "βv does not preserve the type int: ((λ (y (list int)) ((hd @ int) x)) (nil @ int)) steps to ((hd @ int) x), which has no type"},
	// open: the free a gets b's type, int: (int → ...) at 0: int; βv gives a, untyped.
	{"poly-stlc", 9, "((λ (b int) a) 0)", true, "βv does not preserve the type int: ((λ (b int) a) 0) steps to a, which has no type"},
}

// TestRedexBenchCounterexamples: each bug's counterexample violates the benchmark's
// property under bugN.sem, in the way derived by hand above, and satisfies it under
// base.sem (derived by hand in FAMILY/base/bugN-cex.term: a type error, a value, or a
// step that keeps the type; for the open terms of poly-stlc's bug 9, no type).
func TestRedexBenchCounterexamples(t *testing.T) {
	for _, tc := range benchCexes {
		t.Run(fmt.Sprintf("%s/bug%d/%s", tc.family, tc.bug, tc.program), func(t *testing.T) {
			l := loadBench(t, tc.family, fmt.Sprintf("bug%d", tc.bug))
			err := rules.BenchmarkProperty(l, readBench(t, l, tc.program, tc.open), benchOpts)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("under bug%d.sem: %v, want a violation: %s", tc.bug, err, tc.want)
			}
			base := loadBench(t, tc.family, "base")
			if err := rules.BenchmarkProperty(base, readBench(t, base, tc.program, tc.open), benchOpts); err != nil {
				t.Errorf("under base.sem: %v, want the property to hold", err)
			}
		})
	}
}

// TestRedexBenchBug2Relation: bug2.sem is (nondeterministic), as Redex's relation
// is once the full list is no value: hd of a full list decomposes at the root, where
// hd contracts it, and in the argument, where nothing contracts the list; its one
// reduct is the head by hd, as Redex's apply-reduction-relation gives (by hand:
// E = hole matches hd's left-hand side; E = (hd hole) puts the list in the hole,
// which no rule's left-hand side matches). The property then holds of it (0 : int).
func TestRedexBenchBug2Relation(t *testing.T) {
	for _, tc := range []struct{ family, program string }{
		{"stlc+lists", "(hd ((cons 0) nil))"},
		{"poly-stlc", "((hd @ int) (((cons @ int) 0) (nil @ int)))"},
	} {
		l := loadBench(t, tc.family, "bug2")
		if !l.Nondeterministic {
			t.Fatalf("%s/bug2.sem is not (nondeterministic)", tc.family)
		}
		p := readBench(t, l, tc.program, false)
		rs, err := l.Reducts(p)
		if err != nil || len(rs) != 1 || sem.Format(rs[0].Term) != "0" || rs[0].Event != "hd" {
			t.Errorf("%s: reducts %v, %v: want 0 by hd", tc.family, rs, err)
		}
		if err := rules.BenchmarkProperty(l, p, benchOpts); err != nil {
			t.Errorf("%s: the property: %v, want it to hold", tc.family, err)
		}
	}
}

// TestRedexBenchProperty: the property's parts on the base files, derived by hand: a
// value holds (whatever its type), an ill-typed term holds (implies), a step to
// "error" holds, a step that keeps the type holds.
func TestRedexBenchProperty(t *testing.T) {
	for _, tc := range []struct{ family, src string }{
		{"stlc+lists", "(λ (x int) x)"},                                               // a value
		{"stlc+lists", "((cons 1) nil)"},                                              // a value ((cons v) v)
		{"stlc+lists", "(5 5)"},                                                       // no type: the property holds vacuously
		{"stlc+lists", "((+ 1) (hd nil))"},                                            // steps to "error" by hd-err
		{"stlc+lists", "((λ (x int) x) 7)"},                                           // int, steps to 7 : int
		{"stlc+lists", "((+ ((+ 1) 2)) ((+ 3) 4))"},                                   // int, steps to ((+ 3) ((+ 3) 4)) : int
		{"poly-stlc", "((hd @ int) (nil @ int))"},                                     // steps to "error" by hd-err
		{"poly-stlc", "(map @ int)"},                                                  // a value (C), of no type
		{"poly-stlc", "((((map @ int) @ int) (+ 1)) (((cons @ int) 1) (nil @ int)))"}, // (list int), map-cons keeps it
	} {
		l := loadBench(t, tc.family, "base")
		if err := rules.BenchmarkProperty(l, readBench(t, l, tc.src, false), benchOpts); err != nil {
			t.Errorf("%s: %s: %v", tc.family, tc.src, err)
		}
	}
}

// benchFamily is a family of the benchmark: its directory under testdata/redexbench,
// the prefix of its models' names in the Racket module, Redex's base model, and the
// module path of its bug N's model (the rewritten model's submodule) with %d for N.
type benchFamily struct {
	dir, prefix, base, bug, generators string
}

// benchFamilies are the families ported, with redex-benchmark's module paths.
var benchFamilies = []benchFamily{
	{"stlc+lists", "sl", "redex/examples/stlc+lists", "(submod redex/benchmark/models/stlc+lists/stlc-%d stlc)", "redex/benchmark/models/stlc+lists/stlc-%d"},
	{"poly-stlc", "ps", "redex/examples/poly-stlc", "(submod redex/benchmark/models/poly-stlc/poly-stlc-%d poly-stlc)", "redex/benchmark/models/poly-stlc/poly-stlc-%d"},
}

// benchProgram is a program of a family's corpus: its file, its family, its model
// (base or bugN), its source, and its expectations.
type benchProgram struct {
	file, model, src, expect, typ string
	family                        benchFamily
}

// name is the program's model's name in the Racket module.
func (p benchProgram) name() string { return p.family.prefix + "-" + p.model }

// benchCorpus reads the programs of FAMILY/base/ and FAMILY/bugN/.
func benchCorpus(t *testing.T, fam benchFamily) []benchProgram {
	t.Helper()
	var out []benchProgram
	for _, model := range []string{"base", "bug1", "bug2", "bug3", "bug4", "bug5", "bug6", "bug7", "bug8", "bug9"} {
		files, err := filepath.Glob(filepath.Join(benchDir, fam.dir, model, "*.term"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no programs (%v)", model, err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := benchProgram{file: f, model: model, family: fam}
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
// model (base/: redex-examples' model; bugN/: the rewritten model of
// redex-benchmark's models/FAMILY/...-N.rkt), which must give the answer and
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
	var progs []benchProgram
	mods := benchRequires()
	var calls strings.Builder
	for _, fam := range benchFamilies {
		progs = append(progs, benchCorpus(t, fam)...)
	}
	for _, p := range progs {
		fmt.Fprintf(&calls, "(show %[1]s:red %[1]s:type-check %[1]s:v? %[1]s:check (term %[2]s))\n", p.name(), p.src)
	}
	file := filepath.Join(t.TempDir(), "bench.rkt")
	if err := os.WriteFile(file, fmt.Appendf(nil, racketModule, mods, calls.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(racket, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("racket: %v\n%s%s", err, out, stderr.Bytes())
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
		l := langs[p.name()]
		if l == nil {
			l = loadBench(t, p.family.dir, p.model)
			langs[p.name()] = l
		}
		name := filepath.Join(p.family.dir, p.model, filepath.Base(p.file))
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
				want := readBench(t, l, p.expect, false)
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

// benchRequires is the Racket that requires every model of the Redex benchmark's
// families, base and bugs, each with its generators' check, prefixed FAMILY-base: and
// FAMILY-bugN:.
func benchRequires() string {
	var mods strings.Builder
	for _, fam := range benchFamilies {
		gen := filepath.Dir(fam.generators) + "/generators"
		fmt.Fprintf(&mods, "(require (prefix-in %[1]s-base: %[2]s) (prefix-in %[1]s-base: (submod %[3]s check-mod)))\n", fam.prefix, fam.base, gen)
		for i := 1; i <= 9; i++ {
			fmt.Fprintf(&mods, "(require (prefix-in %s-bug%d: %s) (prefix-in %[1]s-bug%[2]d: (submod %[4]s generators check-mod)))\n",
				fam.prefix, i, fmt.Sprintf(fam.bug, i), fmt.Sprintf(fam.generators, i))
		}
	}
	return mods.String()
}
