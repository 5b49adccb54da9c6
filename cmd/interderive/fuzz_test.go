package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// keepRapidFlags restores the rapid settings that fuzz changes.
func keepRapidFlags(t *testing.T) {
	for _, name := range []string{"rapid.checks", "rapid.nofailfile", "rapid.seed"} {
		old := flag.Lookup(name).Value.String()
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// TestFuzzMetatheory runs the command on the metatheory properties alone: the blame
// theorem and seq correctness for gradual, Proposition 3.5 and finite differences for
// dpl. They hold, so fuzz passes.
func TestFuzzMetatheory(t *testing.T) {
	keepRapidFlags(t)
	n, m := 200, 100
	if testing.Short() {
		n, m = 50, 25 // a quarter of the full run's cases
	}
	for _, tt := range []struct {
		args  []string
		holds string // each property checked once a case, on its own input
	}{
		{[]string{"--calculus", "gradual", "--count", strconv.Itoa(n), "--props", "blame,seq"}, fmt.Sprintf("%d cases, every property holds (blame %[1]d programs, seq %[1]d compositions)", n)},
		{[]string{"--calculus", "dpl", "--count", strconv.Itoa(m), "--props", "interpolation,finite-differences"}, fmt.Sprintf("%d cases, every property holds (interpolation %[1]d programs, finite-differences %[1]d programs)", m)},
	} {
		args := tt.args
		stdout, stderr, code := runCmd(append([]string{"fuzz", "--out", t.TempDir()}, args...)...)
		if code != 0 || !strings.Contains(stdout, tt.holds) {
			t.Errorf("fuzz %s: status %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if _, stderr, code := runCmd("fuzz", "--props", "lockstep,blam"); code != 2 || !strings.Contains(stderr, `unknown property "blam"`) {
		t.Errorf("--props blam: status %d, %s", code, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--calculus", "dpl", "--props", "blame"); code != 2 || !strings.Contains(stderr, "selects no property") {
		t.Errorf("--calculus dpl --props blame: status %d, %s", code, stderr)
	}
	if stdout, stderr, code := runCmd("fuzz", "--calculus", "gradual", "--count", strconv.Itoa(m), "--stage", "machine,interp", "--out", t.TempDir()); code != 0 || !strings.Contains(stdout, "every property holds") {
		t.Errorf("--stage machine,interp: status %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--stage", "compiler"); code != 2 || !strings.Contains(stderr, `unknown stage "compiler"`) {
		t.Errorf("--stage compiler: status %d, %s", code, stderr)
	}
}

// TestFuzzSeedReproducible: the command with a seed reports the same programs, distinct
// programs and seed in every run, on all cores; --count N checks exactly N programs
// (--count 50 once checked 58: rapid's discarded runs were counted), and the summary
// says how many were distinct, how they ran, and how many times each property was
// checked.
func TestFuzzSeedReproducible(t *testing.T) {
	keepRapidFlags(t)
	for _, count := range []int{7, 50} {
		args := []string{"fuzz", "--calculus", "gradual", "--props", "lockstep", "--count", strconv.Itoa(count), "--seed", "5", "--out", t.TempDir()}
		first, stderr, code := runCmd(args...)
		m := regexp.MustCompile(`^gradual: (\d+) programs \((\d+) distinct; reference run: (\d+) values, (\d+) run-time errors, 0 stuck, (\d+) out of fuel\), every property holds \(lockstep (\d+) programs\); seed 5\n$`).FindStringSubmatch(first)
		if code != 0 || m == nil {
			t.Fatalf("exit %d: %q %q", code, first, stderr)
		}
		n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
		if n(1) != count || n(2) > count || n(2) < 1 || n(3)+n(4)+n(5) != count || n(6) != count {
			t.Errorf("--count %d: %q", count, first)
		}
		if again, _, _ := runCmd(args...); again != first {
			t.Errorf("a second run: %q, the first %q", again, first)
		}
	}
}

// TestFuzzCountsEveryProperty: with every property of the gradual calculi, --count 20
// is 20 programs, at most 20 distinct, 20 outcomes, and each property's count in its
// unit: every program for lockstep, preservation and blame, every composition for
// seq, and fewer for rulefiles, which applies to the semantics with a rule file (edn
// has none). Before, rulefiles skipped edn's cases after lockstep had run on them, and
// fuzz counted those programs too (seed 1: 25 distinct, 25 outcomes, lockstep 25).
func TestFuzzCountsEveryProperty(t *testing.T) {
	keepRapidFlags(t)
	out, stderr, code := runCmd("fuzz", "--calculus", "gradual", "--count", "20", "--jobs", "1", "--seed", "1", "--size", "3", "--out", t.TempDir())
	m := regexp.MustCompile(`^gradual: 20 programs \((\d+) distinct; reference run: (\d+) values, (\d+) run-time errors, 0 stuck, (\d+) out of fuel\), ` +
		`every property holds \(lockstep 20 programs, preservation 20 programs, blame 20 programs, rulefiles (\d+) programs, seq 20 compositions\); seed 1\n$`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("exit %d: %q %q", code, out, stderr)
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	if n(1) > 20 || n(1) < 1 || n(2)+n(3)+n(4) != 20 || n(5) < 1 || n(5) >= 20 {
		t.Errorf("%q", out)
	}
}

// TestFuzzSize: --size is bounded, and a large size stays small in memory and time,
// since the generators' node budget makes a program's size linear in its depth (before
// it, --size 1000 ran minutes and gigabytes for two programs).
func TestFuzzSize(t *testing.T) {
	keepRapidFlags(t)
	for _, size := range []string{"0", "1001", "-3"} {
		if _, stderr, code := runCmd("fuzz", "--size", size, "--count", "1"); code != exitStatic || !strings.Contains(stderr, "--size must be between 1 and 1000") {
			t.Errorf("fuzz --size %s: exit %d, %s; want 2", size, code, stderr)
		}
	}
	if testing.Short() {
		return
	}
	if stdout, stderr, code := runCmd("fuzz", "--calculus", "lambda", "--size", "1000", "--count", "2", "--jobs", "1", "--seed", "7"); code != 0 {
		t.Errorf("fuzz --size 1000: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestFuzzShow: --show prints every program lockstep draws, under its variant, each
// followed by a blank line, before the summary: --count 3 prints three, each a program
// the rule file's typing judgment types (stlc.sem draws those), so each runs to a value.
func TestFuzzShow(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "rules", "stlc.sem")
	stdout, stderr, code := runCmd("fuzz", "--calculus", "rules", "--rules", file, "--count", "3", "--seed", "1", "--jobs", "1", "--show")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "under file:\n"); n != 3 {
		t.Errorf("%d programs shown, want 3:\n%s", n, stdout)
	}
	if !strings.Contains(stdout, "rules: 3 programs") || !strings.Contains(stdout, "3 values, 0 run-time errors") {
		t.Errorf("summary:\n%s", stdout)
	}
}
