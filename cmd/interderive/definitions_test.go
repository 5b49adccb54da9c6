package main

import (
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDefinitions: programs of a calculus defined by a file (a rule file, *.sem): the
// definition by --rules, by a "; semantics:" line or beside the program's directory;
// a missing or ill-formed definition is a usage error (2), and so are the program's
// type error (cbv.sem types its programs) and its run-time error (a declared stuck
// shape, on the untyped cbn.sem), positioned; derive shows a definition. The answers
// are those the corpus files derive by hand. Under call by value, a divergent argument
// runs out of fuel where call by name would discard it (discard.term, whose Ω cbv.sem
// cannot type: a diverging letrec instead).
func TestDefinitions(t *testing.T) {
	rules := filepath.Join("..", "..", "testdata", "rules")
	cbv := filepath.Join(rules, "cbv.sem")
	plain := write(t, "plain.term", "(app (lam x Int (add x 1)) 2)\n")
	discard := write(t, "discard.term", "; expect: 7\n(app (lam x Int 7) (letrec f (Int -> Int) y Int (app f y) (app f 0)))\n")
	header := write(t, "header.term", "; semantics: "+mustAbs(t, cbv)+"\n(mul 6 7)\n")
	tests := []struct {
		stdin  string
		args   []string
		stdout string // the whole output, or a part of it after "~"
		stderr string // a part of it
		code   int
	}{
		{"", []string{"run", filepath.Join(rules, "cbn", "twice.term")}, "7\n", "", 0},
		{"", []string{"run", "--stage", "reduction", "--rules", cbv, plain}, "3\n", "", 0},
		{"", []string{"run", header}, "42\n", "", 0},
		{"(add 1 2)", []string{"run", "--lang", "term", "--rules", cbv, "-"}, "3\n", "", 0},
		{"", []string{"run", plain}, "", "needs its rule file: --rules FILE.sem", 2},
		{"", []string{"run", "--rules", filepath.Join(rules, "none.sem"), plain}, "", "none.sem", 2},
		{"", []string{"run", "--rules", filepath.Join(rules, "errors", "ambiguous.sem"), plain}, "", "ambiguous.sem:27:1: frames overlap", 2},
		{"", []string{"run", filepath.Join(rules, "cbv", "non-integer.term")}, "", "non-integer.term:7:1: the program has no type (typeof): rule t-add: premise 2", 2},
		{"", []string{"run", filepath.Join(rules, "cbn", "stuck.term")}, "", "stuck.term: run-time error at 7:1: application of a non-function: (app 1 (add 2 3))", 2},
		{"(add 1 x)", []string{"run", "--lang", "term", "--rules", cbv, "-"}, "", "<stdin>:1:8: unbound variable x", 2},
		{"", []string{"check", rules}, "~" + strconv.Itoa(countTerms(t, rules)) + " files, ", "", 0},
		// Ω under call by value runs out of fuel where call by name discards it.
		{"", []string{"check", "--fuel", "1000", "--rules", cbv, discard}, "~expected 7, got out of fuel on reduction, closures, machine, cps2, interp, compile under cbv (../../testdata/rules/cbv.sem)", "", 1},
		{"", []string{"compare", filepath.Join(rules, "cbv", "fact.term")}, "~all stages agree under cbv (" + cbv + ")", "", 0}, // the file's language and the file, not the variant "file"
		{"", []string{"fuzz", "--calculus", "rules", "--rules", cbv, "--count", "50", "--seed", "1"}, "~every property holds (lockstep 50 programs, preservation 50 programs); seed 1", "", 0},
		{"", []string{"fuzz", "--calculus", "rules", "--count", "50"}, "", "needs its definition: --rules FILE", 2},
		{"", []string{"derive", cbv}, "~continue([], v)", "", 0},
		{"", []string{"derive", plain}, "", "not a definition file (known: *.sem)", 2},
		{"", []string{"calculi"}, "~--rules FILE", "", 0},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmdIn(tt.stdin, tt.args...)
		ok := stdout == tt.stdout
		if want, part := strings.CutPrefix(tt.stdout, "~"); part {
			ok = strings.Contains(stdout, want)
		}
		if !ok || code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: stdout %q, stderr %q, exit %d; want %q, %q, %d", tt.args, stdout, stderr, code, tt.stdout, tt.stderr, tt.code)
		}
	}
}

// countTerms counts the programs under dir, as the file system lists them: what
// check must say it checked.
func countTerms(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".term") {
			n++
		}
		return err
	})
	if err != nil || n == 0 {
		t.Fatalf("%s: %d programs, %v", dir, n, err)
	}
	return n
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
