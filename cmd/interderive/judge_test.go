package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestJudge: judge searches a judgment of a rule file by its modes and prints the
// derivation (derived by hand: t-app's premises are the function's typing, t-lam,
// whose premise looks x up, and the argument's, t-num), or why there is none (exit
// 1); an unknown judgment, a wrong number of inputs and an unreadable input are
// errors (exit 2).
func TestJudge(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "rules", "stlc.sem")
	derivation := `(typeof · ((λ (x num) x) 1) num)   by t-app
  (typeof · (λ (x num) x) (num -> num))   by t-lam
    (typeof (x num ·) x num)   by t-var
      (lookup (x num ·) x num)   by here
  (typeof · 1 num)   by t-num
1 derivation of (typeof · ((λ (x num) x) 1) _)
`
	for _, tc := range []struct {
		args           []string
		stdout, stderr string // stdout whole, or a part after ~
		code           int
	}{
		{[]string{"judge", file, "typeof", "·", "((λ (x num) x) 1)"}, derivation, "", 0},
		{[]string{"judge", file, "((λ (x num) x) 1)"}, derivation, "", 0}, // typed by the file's (typing ...)
		{[]string{"judge", file, "(1 1"}, "", "<program>:1:1", 2},
		{[]string{"judge", file, "typeof", "(y (num -> num) ·)", "(y 3)"}, "~1 derivation of (typeof (y (num -> num) ·) (y 3) _)", "", 0},
		{[]string{"judge", file, "typeof", "·", "(1 1)"}, "~rule t-app: premise 1, (typeof Γ e_1 (arrow τ_2 τ)), does not hold", "", 1},
		{[]string{"judge", file, "typo", "·"}, "", "declares no judgment typo (its judgments: lookup, typeof)", 2},
		{[]string{"judge", file, "typeof", "·"}, "", "typeof takes 2 inputs (its mode: (typeof I I O)), not 1", 2},
		{[]string{"judge", file, "typeof", "·", "(1 1"}, "", "<input 2>:1:1", 2},
		{[]string{"judge", "stlc.lam", "typeof"}, "", "not a rule file", 2},
	} {
		stdout, stderr, code := runCmd(tc.args...)
		okOut := stdout == tc.stdout
		if strings.HasPrefix(tc.stdout, "~") {
			okOut = strings.Contains(stdout, tc.stdout[1:])
		}
		if code != tc.code || !okOut || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q\nwant exit %d, stdout %q, stderr with %q", tc.args[1:], code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}
