package main

import (
	"fmt"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestFunctionErrors: a meta-function with no clause for its argument is the rule
// file's error (exit status 2), positioned at the function's declaration, naming the
// function, the call and the rule, in an inner layer too; one that recurses past sem.MaxCallDepth is a
// resource limit (exit status 3) that names the limit. On every derived stage.
//
// By hand: (tally (join (coin 1) 2)) enters tally's frame, then join's: (coin 1) and
// 2 are values, so (join (coin 1) 2) is a value and tally contracts, calling worth on
// it; worth's join clause calls worth on (coin 1), which gives 1, and on 2, which no
// clause matches. (spin 1) contracts by spin at once, and (loop 1) calls (loop 1) for
// ever: the 10,001st nested call is past the limit.
func TestFunctionErrors(t *testing.T) {
	dir := t.TempDir()
	rules := writeIn(t, dir, "coins.sem", rulescases.FailingCoinsSem)
	tally := writeIn(t, dir, "tally.term", "(tally (join (coin 1) 2))")
	spin := writeIn(t, dir, "spin.term", "(spin 1)")
	layered := writeIn(t, dir, "layered.sem", rulescases.LayeredFlipSem)
	pay := writeIn(t, dir, "pay.term", "(pay (pair (h) (tl)) 1)")
	for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
		_, stderr, code := runCmd("run", "--rules", rules, "--stage", stage, tally)
		want := rules + ":7:1: function worth has no clause for (worth 2), called by rule tally"
		if code != exitStatic || !strings.Contains(stderr, want) || !strings.Contains(stderr, "\t(function worth (t) t\n\t^") || strings.Contains(stderr, "internal error") {
			t.Errorf("%s, no clause: exit %d, %s\nwant exit 2 and %s, with the line and a caret", stage, code, stderr, want)
		}
		_, stderr, code = runCmd("run", "--rules", layered, "--stage", stage, pay)
		want = layered + ":5:1: function flip has no clause for (flip (tl)), called by rule mixed"
		if code != exitStatic || !strings.Contains(stderr, want) {
			t.Errorf("%s, no clause in an inner layer: exit %d, %s\nwant exit 2 and %s", stage, code, stderr, want)
		}
		if testing.Short() {
			continue // the call-depth limit takes a second of stack growth: the full run checks it
		}
		_, stderr, code = runCmd("run", "--rules", rules, "--stage", stage, spin)
		want = rules + ":10:1: function loop: calls nest deeper than the limit of " + strconv.Itoa(sem.MaxCallDepth) + " (sem.MaxCallDepth) at (loop 1), called by rule spin"
		if code != exitFuel || !strings.Contains(stderr, want) || strings.Contains(stderr, "internal error") {
			t.Errorf("%s, endless recursion: exit %d, %s\nwant exit 3 and %s", stage, code, stderr, want)
		}
	}
}

// writeIn puts a file in dir and returns its path.
func writeIn(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// constants compares with integer constants in side conditions: (= n 0), (!= n 0),
// and a value metavariable against one, either side.
const constants = `(language constants)
(sort t (integer n) (con if0 t t t) (con zero t))
(kind E v)
(value E n)
(frame E (if0 (hole) t_1 t_2))
(frame E (zero (hole)))
(rule if0 E (if0 n t_1 t_2) t_1 (where (= n 0)))
(rule if0 E (if0 n t_1 t_2) t_2 (where (!= n 0)))
(rule zero E (zero v) 1 (where (= v 0)))
(rule zero E (zero v) 0 (where (!= 0 v)))
`

// TestConstantsInConditions: = and != take an integer constant, on every derived
// stage. By hand: (if0 0 7 8) is 7 by the first if0 rule (n = 0); (if0 5 7 8) is 8 by
// the second (5 != 0); (zero (if0 3 0 2)) evaluates (if0 3 0 2) to 2 (3 != 0), then
// (zero 2) is 0 by the second zero rule (0 != 2); (zero (if0 0 0 2)) is (zero 0), 1.
func TestConstantsInConditions(t *testing.T) {
	dir := t.TempDir()
	rules := writeIn(t, dir, "constants.sem", constants)
	for i, tt := range []struct{ src, want string }{
		{"(if0 0 7 8)", "7"},
		{"(if0 5 7 8)", "8"},
		{"(zero (if0 3 0 2))", "0"},
		{"(zero (if0 0 0 2))", "1"},
	} {
		prog := writeIn(t, dir, fmt.Sprintf("p%d.term", i), tt.src)
		for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
			if stdout, stderr, code := runCmd("run", "--rules", rules, "--stage", stage, prog); code != 0 || strings.TrimSpace(stdout) != tt.want {
				t.Errorf("%s on %s: exit %d, %q %s, want %s", tt.src, stage, code, stdout, stderr, tt.want)
			}
		}
	}
}

// warned is a rule file Load accepts whose static checks warn twice: the rule never,
// at 8:1, is shadowed by the second if0 rule (7:1), which has no side condition and
// matches every (if0 0 t_1 t_2); and the stuck shape at 9:1 is contracted whole by
// the same rule. The witness of both is the smallest instance, (if0 0 0 0).
const warned = `(language warned)
(sort t (integer n) (con if0 t t t))
(kind E v)
(value E n)
(frame E (if0 (hole) t_1 t_2))
(rule if0 E (if0 n t_1 t_2) t_1 (where (= n 0)))
(rule if0 E (if0 n t_1 t_2) t_2)
(rule never E (if0 0 t_1 t_2) t_2)
(stuck E (if0 n t_1 t_2) "dead")
`

// TestStrict: check and derive print the static checks' warnings, positioned, with
// their witness, once a rule file, and go on; check --strict fails on them with exit
// status 2, after making every run. (if0 5 7 8) is 8 by the second if0 rule.
func TestStrict(t *testing.T) {
	dir := t.TempDir()
	rules := writeIn(t, dir, "warned.sem", warned)
	prog := writeIn(t, dir, "p.term", "; expect: 8\n(if0 5 7 8)\n")
	prog2 := writeIn(t, dir, "q.term", "; expect: 7\n(if0 0 7 8)\n")
	wants := []string{
		rules + ":8:1: warning: rule never can never fire: rule if0 at 7:1, tried first, has no side condition that may fail and matches every term this one matches, e.g. (if0 0 0 0)\n\t(rule never E (if0 0 t_1 t_2) t_2)\n\t^",
		rules + ":9:1: warning: stuck shape (if0 n t_1 t_2) can no longer be reached: rule if0 at 7:1, which has no side condition that may fail, contracts every term it matches, e.g. (if0 0 0 0)",
	}
	for _, tt := range []struct {
		args []string
		code int
		last string
	}{
		{[]string{"check", "--rules", rules, prog, prog2}, exitOK, "2 warnings in 1 rule file\n"},
		{[]string{"check", "--strict", "--rules", rules, prog, prog2}, exitStatic, "2 warnings in 1 rule file: --strict makes them errors (exit status 2)\n"},
		{[]string{"derive", rules}, exitOK, "2 warnings\n"},
	} {
		stdout, stderr, code := runCmd(tt.args...)
		if code != tt.code || !strings.HasSuffix(stderr, tt.last) {
			t.Errorf("%v: exit %d, stderr %s; want exit %d, ending %q", tt.args, code, stderr, tt.code, tt.last)
		}
		for _, w := range wants {
			if strings.Count(stderr, w) != 1 {
				t.Errorf("%v: stderr %s\nwant once %s", tt.args, stderr, w)
			}
		}
		if tt.args[0] == "check" && !strings.Contains(stdout, "2 files, 12 runs: 12 passed, 0 failed") {
			t.Errorf("%v: %s, want every run made and passed", tt.args, stdout)
		}
	}
}
