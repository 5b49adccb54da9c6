package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/workbench"
)

// TestCreateOutput: a new file is created; an existing one only with force; an input
// never, under any of its names.
func TestCreateOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.gtlc")
	os.WriteFile(in, []byte("inc 3"), 0o644)
	old := filepath.Join(dir, "old.svg")
	os.WriteFile(old, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(in, link); err != nil {
		link = in
	}
	tests := []struct {
		path  string
		force bool
		err   string // "" for success
	}{
		{filepath.Join(dir, "new.svg"), false, ""},
		{old, false, "old.svg exists: give --force to overwrite it"},
		{old, true, ""},
		{in, false, "in.gtlc is an input of this command: it is not overwritten, even with --force"},
		{in, true, "is an input of this command"},
		{link, true, "is an input of this command"},
		{filepath.Join(dir, ".", "in.gtlc"), true, "is an input of this command"},
		{dir, true, "is a directory"},
	}
	for _, tt := range tests {
		f, err := createOutput(tt.path, []string{in}, tt.force)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s (force %v): %v", tt.path, tt.force, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s (force %v): error %v, want %q", tt.path, tt.force, err, tt.err)
		}
		if f != nil {
			f.Close()
		}
	}
	if src, _ := os.ReadFile(in); string(src) != "inc 3" {
		t.Errorf("the input became %q", src)
	}
}

// TestNoOverwrite: trace --html never replaces its program, and no command replaces
// an existing file without --force; the refusal comes before anything runs.
func TestNoOverwrite(t *testing.T) {
	prog := write(t, "p.cast", "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4")
	if _, stderr, code := runCmd("trace", "--stage", "all", "--html", prog, prog); code != 2 || !strings.Contains(stderr, "is an input of this command") {
		t.Errorf("--html the program: exit %d, %q", code, stderr)
	}
	if _, _, code := runCmd("trace", "--stage", "all", "--html", prog, "--force", prog); code != 2 {
		t.Errorf("--html the program --force: exit %d", code)
	}
	if src, _ := os.ReadFile(prog); string(src) != "<Int <= Dyn>^l2 <Dyn <= Int>^l1 4" {
		t.Fatalf("the program became %.60q", src)
	}
	page := write(t, "page.html", "mine")
	if _, stderr, code := runCmd("trace", "--stage", "all", "--html", page, prog); code != 2 || !strings.Contains(stderr, "exists: give --force") {
		t.Errorf("--html an existing file: exit %d, %q", code, stderr)
	}
	if _, _, code := runCmd("trace", "--stage", "all", "--html", page, "--force", prog); code != 0 {
		t.Errorf("--html --force: exit %d", code)
	}
	if html, _ := os.ReadFile(page); !bytes.Contains(html, []byte("<b>CmpCst</b>")) {
		t.Errorf("--force did not write the page")
	}
	if _, stderr, code := runCmd("trace", "--html", filepath.Join(t.TempDir(), "x.html"), prog); code != 2 || !strings.Contains(stderr, "--html and --json are for --stage all") {
		t.Errorf("--html without --stage all: exit %d, %q", code, stderr)
	}

	suite := writeFiles(t, map[string]string{"count.gtlc.in": "-- sizes: 2\nletrec c: Int -> Int = \\n:Int. if n = 0 then 0 else c (n - 1) in c {n}"})
	for _, flag := range []string{"--plot", "--cpuprofile"} {
		out := write(t, "out", "mine")
		stdout, stderr, code := runCmd("bench", "--dir", suite, "--stage", "interp", "--semantics", "ed", flag, out)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "exists: give --force") {
			t.Errorf("bench %s an existing file: exit %d, %q, %q", flag, code, stdout, stderr)
		}
		if stdout, stderr, code := runCmd("bench", "--dir", suite, "--stage", "interp", "--semantics", "ed", flag, filepath.Join(suite, "count.gtlc.in"), "--force"); code != 2 || stdout != "" || !strings.Contains(stderr, "is an input") {
			t.Errorf("bench %s a program of the suite: exit %d, %q, %q", flag, code, stdout, stderr)
		}
		if got, _ := os.ReadFile(out); string(got) != "mine" {
			t.Errorf("bench %s overwrote the file", flag)
		}
	}
}

// TestCounterexampleNeverLost: the shrunk counterexample is printed before it is
// written, so that a write that fails loses nothing; an existing file is not
// overwritten.
func TestCounterexampleNeverLost(t *testing.T) {
	found := &workbench.Found{Prop: "lockstep", Failure: "disagreement", Round: 2,
		Counterexample: workbench.Counterexample{Lang: "gtlc", Source: "inc 3", Comment: []string{"expect[ed]: 4"}}}
	res := workbench.FuzzResult{Checked: 12, Seed: 7, Found: found}
	var stdout, stderr bytes.Buffer
	a := &app{stdout: &stdout, stderr: &stderr}
	a.reportCounterexample("gradual", res, filepath.Join(t.TempDir(), "missing", "dir"))
	want := "gradual: disagreement (12 runs, shrinking included; seed 7, round 2):\n-- found by interderive fuzz\n-- expect[ed]: 4\ninc 3\n"
	if stdout.String() != want || !strings.Contains(stderr.String(), "the counterexample above is not saved") {
		t.Errorf("stdout %q\nstderr %q", stdout.String(), stderr.String())
	}
	dir := t.TempDir()
	stdout.Reset()
	a.reportCounterexample("gradual", res, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "fuzz-gradual-lockstep-*.gtlc"))
	if len(files) != 1 || !strings.HasSuffix(stdout.String(), "saved to "+files[0]+"\n") {
		t.Fatalf("files %v, stdout %q", files, stdout.String())
	}
	if src, _ := os.ReadFile(files[0]); string(src) != "-- found by interderive fuzz\n-- expect[ed]: 4\ninc 3\n" {
		t.Errorf("the file holds %q", src)
	}
	// A counterexample whose name is taken (the same calculus, property and second)
	// goes to a new file beside it: neither is overwritten.
	taken := strings.TrimSuffix(files[0], ".gtlc")
	if err := os.WriteFile(taken+"-2.gtlc", []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := freshPath(files[0]); got != taken+"-3.gtlc" {
		t.Errorf("the fresh name beside %s and -2: %s, want -3", files[0], got)
	}
	a.reportCounterexample("gradual", res, dir)
	files, _ = filepath.Glob(filepath.Join(dir, "fuzz-gradual-lockstep-*.gtlc"))
	if len(files) < 3 {
		t.Errorf("after a second counterexample, the files %v: one was overwritten", files)
	}
	if mine, _ := os.ReadFile(taken + "-2.gtlc"); string(mine) != "mine" {
		t.Errorf("the existing file became %q", mine)
	}
}
