package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
