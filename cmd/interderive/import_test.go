package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImport: import translates Redex's own models (internal/redex/testdata/models,
// copied from redex-examples) and writes their test-->> tests as programs, which
// check then runs on the six derived stages: stlc.rkt's 10 and poly-stlc.rkt's 18
// tests (grep -c '(test-->>' on each) pass with the answers Redex's tests state. A
// model the rule language cannot say is refused, positioned (arithmetic.rkt's / is
// at 32:11), and nothing is written over an existing file without --force.
func TestImport(t *testing.T) {
	models := filepath.Join("..", "..", "internal", "redex", "testdata", "models")
	dir := t.TempDir()
	for _, tc := range []struct {
		model, summary, check string
	}{
		{"stlc.rkt", "10 tests as programs", "10 files, 60 runs: 60 passed, 0 failed"},
		{"poly-stlc.rkt", "18 tests as programs", "18 files, 108 runs: 108 passed, 0 failed"},
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
	}
	_, stderr, code := runCmd("import", "-o", dir, filepath.Join(models, "stlc.rkt"))
	if code != 2 || !strings.Contains(stderr, "exists: --force to overwrite") {
		t.Errorf("import over a rule file: exit %d, %s", code, stderr)
	}
	_, stderr, code = runCmd("import", "-o", dir, filepath.Join(models, "arithmetic.rkt"))
	if code != 2 || !strings.Contains(stderr, "arithmetic.rkt:32:11: ") || !strings.Contains(stderr, "Racket code is not translated") {
		t.Errorf("import arithmetic.rkt: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "arithmetic.sem")); err == nil {
		t.Error("a refused model wrote a rule file")
	}
}
