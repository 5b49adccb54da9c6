package gogen

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive/sem"
)

// TestHostileGenerated runs the hostile rule files (cmd/interderive/testdata/hostile:
// rule files a researcher may write by mistake, that loop or explode) through the
// package derive --go writes, on every stage, with small limits: each run ends, in
// bounded time, with the exit status the in-process stages give (0 with the answer,
// or 3 at a resource limit, its message naming it), and nothing crashes (no Go panic
// or fatal error: a recursion as deep as a term, such as the million boxes of
// tower.sem, stops at the term-depth bound instead of exhausting the Go stack). A
// file that derive --go refuses is checked to be refused.
func TestHostileGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package a hostile file (about 20 s); go test without -short runs it")
	}
	dir := filepath.Join(root, "cmd/interderive/testdata/hostile")
	// want is the exit status and a word of the message, as the in-process stages
	// give them with these limits (cmd/interderive's TestHostileRuleFiles).
	want := map[string]struct {
		code int
		says string
	}{
		"meta-loop":      {3, "deeper than the limit"},
		"meta-deep":      {3, "deeper than the limit"},
		"meta-wide":      {3, "-timeout allows more"},
		"doubling":       {3, "out of"},
		"doubling-value": {3, "-print-limit allows more"},
		"inner-loop":     {3, "out of fuel"},
		"escape":         {3, "out of fuel"},
		"self-class":     {0, "1"},
		"tower":          {3, "out of fuel"},
		"binder":         {3, "out of fuel"},
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.sem"))
	if len(files) == 0 {
		t.Fatalf("no hostile rule file in %s", dir)
	}
	ran := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sem")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			l, err := sem.Load(src)
			if err != nil {
				if name == "self-class-alone" {
					return // refused by the checks, as the in-process stages refuse it
				}
				t.Fatalf("%s does not load: %v", name, err)
			}
			if _, err := Generate(l, file); err != nil {
				t.Logf("derive --go refuses %s: %v", name, err)
				return
			}
			w, ok := want[name]
			if !ok {
				t.Fatalf("hostile file %s has no expectation here: add it", name)
			}
			bin := build(t, filepath.Join("cmd/interderive/testdata/hostile", name+".sem"))
			prog := filepath.Join(dir, name+".term")
			for _, stage := range Stages {
				start := time.Now()
				stdout, stderr, code := runBin(t, bin, "-stage", stage, "-fuel", "10000", "-timeout", "1s", "-memory", "200", "-print-limit", "65536", prog)
				out := stdout + stderr
				if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic:") || strings.Contains(out, "fatal error") {
					t.Fatalf("%s on %s crashed:\n%s", name, stage, cut(out, 2000))
				}
				if code != w.code || !strings.Contains(out, w.says) {
					t.Errorf("%s on %s: exit %d, %q; want exit %d, a message with %q", name, stage, code, cut(out, 300), w.code, w.says)
				}
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("%s on %s took %v", name, stage, d)
				}
				ran++
			}
		})
	}
	t.Logf("%d runs of hostile files on the generated stages", ran)
}

// runBin runs the generated command bin on args: its standard output, its standard
// error and its exit status.
func runBin(t *testing.T, bin string, args ...string) (stdout, stderr string, exit int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var e *exec.ExitError
	if errors.As(err, &e) {
		exit = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errs.String(), exit
}

// cut is s cut to at most n bytes.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
