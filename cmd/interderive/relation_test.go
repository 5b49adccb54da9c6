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
