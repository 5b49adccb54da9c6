package main

import (
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/calculi"
)

// TestUnknownNames: in every command an unknown stage, semantics, strategy, program or
// directory is a usage error (status 2) whose message lists the known names; names
// are exact. A flag that does not apply to the file's language is checked too.
func TestUnknownNames(t *testing.T) {
	gtlc := write(t, "p.gtlc", "inc 3")
	dpl := write(t, "p.dpl", "1.rd[3](x:real. x * x)")
	suite := writeFiles(t, map[string]string{"count.gtlc.in": "-- sizes: 2\nletrec c: Int -> Int = \\n:Int. if n = 0 then 0 else c (n - 1) in c {n}"})
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--stage", "Machine", gtlc}, `unknown stage "Machine" in --stage (known: reduction, closures, machine, cps2, interp, compile)`},
		{[]string{"run", "--stage", "machine,interp", gtlc}, "--stage takes one name here"},
		{[]string{"run", "--semantics", "ED", gtlc}, `unknown cast semantics "ED" in --semantics (known: ld, lud, ed, eud, edn, or a FILE.sem)`},
		{[]string{"run", "--semantics", "xx", dpl}, `unknown cast semantics "xx"`},
		{[]string{"run", "--ad", "xx", gtlc}, `unknown differentiation strategy "xx" in --ad (known: tape, pruned, figure6)`},
		{[]string{"trace", "--stage", "bogus", gtlc}, `unknown stage "bogus"`},
		{[]string{"compare", "--semantics", "bogus", gtlc}, `unknown cast semantics "bogus"`},
		{[]string{"fuzz", "--semantics", "LD"}, `unknown cast semantics "LD" in --semantics`},
		{[]string{"fuzz", "--ad", "Tape"}, `unknown differentiation strategy "Tape"`},
		{[]string{"fuzz", "--stage", "machine,Interp"}, `unknown stage "Interp"`},
		{[]string{"bench", "--dir", suite, "--program", "typo"}, `unknown program "typo" in --program (known: count)`},
		{[]string{"bench", "--dir", suite, "--program", "coun"}, `unknown program "coun"`},
		{[]string{"bench", "--dir", suite, "--targets", "--program", "sum"}, `unknown target "sum" in --program (known: refocusing, fib, compiled, configurations, space, tape, derived, engine)`},
		{[]string{"bench", "--dir", "/nonexistent"}, "--dir /nonexistent: stat /nonexistent: no such file or directory"},
		{[]string{"bench", "--dir", t.TempDir()}, "holds no benchmark program"},
		{[]string{"bench", "--dir", suite, "--stage", "compiler"}, `unknown stage "compiler"`},
		{[]string{"bench", "--dir", suite, "--semantics", "xx"}, `unknown cast semantics "xx"`},
		{[]string{"bench", "--dir", suite, "--ad", "xx"}, `unknown differentiation strategy "xx"`}, // though the suite has no dpl program
		{[]string{"bench", "--dir", suite, "--sizes", "10,x"}, `--sizes: "x" is not a positive integer`},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmd(tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.msg) {
			t.Errorf("%s: exit %d, stderr %q, want 2 and %q (stdout %q)", strings.Join(tt.args, " "), code, stderr, tt.msg, stdout)
		}
	}
}

// registeredExtensions are the extensions of every registered calculus's languages, in
// the registry's order.
func registeredExtensions() []string {
	var exts []string
	for _, c := range calculi.All() {
		for _, l := range c.Languages() {
			exts = append(exts, l.Ext)
		}
	}
	return exts
}

// TestCompletion: cobra's completion command, and the values of the name flags.
func TestCompletion(t *testing.T) {
	if stdout, _, code := runCmd("completion", "bash"); code != 0 || !strings.Contains(stdout, "bash completion") {
		t.Errorf("completion bash: exit %d, %.80q", code, stdout)
	}
	tests := []struct {
		args []string
		want []string // the completions, in order
	}{
		{[]string{"run", "--stage", ""}, []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}},
		{[]string{"trace", "--stage", "c"}, []string{"closures", "cps2", "compile"}},
		{[]string{"trace", "--stage", "a"}, []string{"all"}},
		{[]string{"run", "--semantics", "e"}, []string{"ed", "eud", "edn"}},
		{[]string{"run", "--ad", ""}, []string{"tape", "pruned", "figure6"}},
		{[]string{"check", "--stage", "machine,"}, []string{"machine,reduction", "machine,closures", "machine,cps2", "machine,interp", "machine,compile"}},
		{[]string{"fuzz", "--ad", "tape,p"}, []string{"tape,pruned"}},
		{[]string{"bench", "--semantics", "l"}, []string{"ld", "lud"}},
		{[]string{"run", "--lang", ""}, registeredExtensions()}, // so that a new calculus changes only the registry
	}
	for _, tt := range tests {
		stdout, _, code := runCmd(append([]string{"__complete"}, tt.args...)...)
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		got := lines[:len(lines)-1] // the last line is the directive
		if code != 0 || strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%s: exit %d, completions %q, want %q", strings.Join(tt.args, " "), code, got, tt.want)
		}
	}
}
