package main

import (
	"flag"
	"regexp"
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
	for _, args := range [][]string{
		{"--calculus", "gradual", "--count", "200", "--props", "blame,seq"},
		{"--calculus", "dpl", "--count", "100", "--props", "interpolation,finite-differences"},
	} {
		stdout, stderr, code := runCmd(append([]string{"fuzz", "--out", t.TempDir()}, args...)...)
		if code != 0 || !strings.Contains(stdout, "every property holds ("+strings.ReplaceAll(args[5], ",", ", ")+")") {
			t.Errorf("fuzz %s: status %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if _, stderr, code := runCmd("fuzz", "--props", "lockstep,blam"); code != 2 || !strings.Contains(stderr, `unknown property "blam"`) {
		t.Errorf("--props blam: status %d, %s", code, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--calculus", "dpl", "--props", "blame"); code != 2 || !strings.Contains(stderr, "selects no property") {
		t.Errorf("--calculus dpl --props blame: status %d, %s", code, stderr)
	}
	if stdout, stderr, code := runCmd("fuzz", "--calculus", "gradual", "--count", "100", "--stage", "machine,interp", "--out", t.TempDir()); code != 0 || !strings.Contains(stdout, "every property holds") {
		t.Errorf("--stage machine,interp: status %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--stage", "compiler"); code != 2 || !strings.Contains(stderr, `unknown stage "compiler"`) {
		t.Errorf("--stage compiler: status %d, %s", code, stderr)
	}
}

// TestFuzzSeedReproducible: the command with a seed reports the same programs, distinct
// programs and seed in every run, on all cores.
func TestFuzzSeedReproducible(t *testing.T) {
	keepRapidFlags(t)
	args := []string{"fuzz", "--calculus", "gradual", "--props", "lockstep", "--count", "100", "--seed", "5", "--out", t.TempDir()}
	first, stderr, code := runCmd(args...)
	m := regexp.MustCompile(`^gradual: (\d+) programs \((\d+) distinct\), every property holds \(lockstep\); seed 5\n$`).FindStringSubmatch(first)
	if code != 0 || m == nil {
		t.Fatalf("exit %d: %q %q", code, first, stderr)
	}
	if again, _, _ := runCmd(args...); again != first {
		t.Errorf("a second run: %q, the first %q", again, first)
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
	if stdout, stderr, code := runCmd("fuzz", "--size", "1000", "--count", "2", "--jobs", "1", "--seed", "7"); code != 0 {
		t.Errorf("fuzz --size 1000: exit %d\n%s%s", code, stdout, stderr)
	}
}
