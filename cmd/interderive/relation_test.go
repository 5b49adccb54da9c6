package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelation: run --all and trace --graph explore a rule file's relation whole.
// amb.sem's (add (amb 1 2) (amb 10 20)) reaches 11, 21, 12 and 22 by 16 steps over 13
// terms (derived in sem's TestReductsNondeterministic); the derived stages refuse the
// file, with the witness of two decompositions; a deterministic file's one normal form
// is its answer; a cut exploration exits with status 3.
func TestRelation(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "amb.term")
	if err := os.WriteFile(prog, []byte("(add (amb 1 2) (amb 10 20))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	amb := filepath.Join("..", "..", "testdata", "rules", "amb.sem")
	stdout, stderr, code := runCmd("run", "--all", "--rules", amb, prog)
	if code != 0 || stdout != "11\n21\n12\n22\n" || !strings.Contains(stderr, "4 normal forms, of 13 terms reached by 16 steps") {
		t.Errorf("run --all: exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runCmd("run", "--rules", amb, prog)
	if code != 2 || !strings.Contains(stderr, "is non-deterministic") || !strings.Contains(stderr, "frames overlap, so decomposition is not unique") {
		t.Errorf("run of a non-deterministic file: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runCmd("run", "--stage", "machine", "--rules", amb, prog)
	if code != 2 || !strings.Contains(stderr, "is non-deterministic") {
		t.Errorf("run --stage machine of a non-deterministic file: exit %d\n%s", code, stderr)
	}
	stdout, _, code = runCmd("trace", "--graph", "dot", "--rules", amb, prog)
	if code != 0 || strings.Count(stdout, " -> ") != 16 || strings.Count(stdout, "[label=") != 13+16 || strings.Count(stdout, "peripheries=2") != 4 {
		t.Errorf("trace --graph dot: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd("trace", "--graph", "svg", "--rules", amb, prog)
	var svg struct {
		Rects []struct{} `xml:"rect"`
		Lines []struct{} `xml:"line"`
		Paths []struct{} `xml:"path"`
	}
	if err := xml.Unmarshal([]byte(stdout), &svg); code != 0 || err != nil || len(svg.Rects) != 13 || len(svg.Lines)+len(svg.Paths) != 16 {
		t.Errorf("trace --graph svg: exit %d, %v, %d boxes, %d arrows", code, err, len(svg.Rects), len(svg.Lines)+len(svg.Paths))
	}
	_, stderr, code = runCmd("run", "--all", "--max-terms", "3", "--rules", amb, prog)
	if code != 3 || !strings.Contains(stderr, "the exploration stopped") {
		t.Errorf("run --all --max-terms 3: exit %d\n%s", code, stderr)
	}
	stdout, _, code = runCmd("run", "--all", filepath.Join("..", "..", "testdata", "rules", "stlc", "if0.term"))
	if code != 0 || stdout != "3\n" {
		t.Errorf("run --all of stlc's if0.term: exit %d, %q, want 3", code, stdout)
	}
	_, stderr, code = runCmd("trace", "--graph", "png", "--rules", amb, prog)
	if code != 2 || !strings.Contains(stderr, `unknown format "png" in --graph (known: dot, svg)`) {
		t.Errorf("trace --graph png: exit %d\n%s", code, stderr)
	}
	_, stderr, code = runCmd("run", "--all", filepath.Join("..", "..", "testdata", "lambda", "fib.lam"))
	if code != 2 || !strings.Contains(stderr, "explore a rule file's relation") {
		t.Errorf("run --all of a λ program: exit %d\n%s", code, stderr)
	}
}

// TestHoldsReplay: a counterexample fuzz saves names the property it breaks (holds:),
// and check replays it: under stlc.sem with βv keeping its body unsubstituted,
// ((λ (x num) x) 1) steps to x, free, which has no type (derived by hand): keeps and
// preservation fail; under stlc.sem itself it steps to 1, a num: they hold. A property
// the file does not state is a failure that names the ones it does.
func TestHoldsReplay(t *testing.T) {
	dir := t.TempDir()
	stlc, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "stlc.sem"))
	if err != nil {
		t.Fatal(err)
	}
	props := "\n(property preservation)\n(property keeps (e e_2) (typeof (empty) e τ) (typeof (empty) e_2 τ_2) (where (= τ τ_2)))\n"
	bug := strings.Replace(string(stlc), "(rule βv E (app (lam x τ e) v) (subst e x v))", "(rule βv E (app (lam x τ e) v) e)", 1)
	for name, src := range map[string]string{"ok.sem": string(stlc) + props, "bug.sem": bug + props} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		sem, holds, want string
		code             int
	}{
		{"ok.sem", "keeps, preservation", "1 file, 1 run: 1 passed, 0 failed", 0},
		{"bug.sem", "keeps, preservation", "keeps does not hold of ((λ (x num) x) 1) → x: rule keeps: premise 2", 1},
		{"bug.sem", "preservation", "βv does not preserve the type num: ((λ (x num) x) 1) steps to x, which has no type", 1},
		{"ok.sem", "parametricity", "states no property parametricity (its properties: preservation, keeps)", 1},
	} {
		prog := filepath.Join(dir, "cex.term")
		src := "; semantics: " + tc.sem + "\n; holds: " + tc.holds + "\n((λ (x num) x) 1)\n"
		if err := os.WriteFile(prog, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runCmd("check", prog)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("%s, holds: %s: exit %d\n%s%s\nwant %q", tc.sem, tc.holds, code, stdout, stderr, tc.want)
		}
	}
}
