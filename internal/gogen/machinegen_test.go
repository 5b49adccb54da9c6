package gogen

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMachineKnown runs the programs of testdata/known.sem on the generated machine,
// whose transitions take as known what the frames before tell (machinegen.go), and
// checks the events and answers derived by hand in each program's comment: a child
// passed over as a value of F is not a value of E on that account, so pair's second
// frame tests it, and (pair (wrap w) t) is contracted before t is evaluated.
func TestMachineKnown(t *testing.T) {
	bin := build(t, "internal/gogen/testdata/known.sem")
	for _, tt := range []struct {
		prog   string
		events []string
		answer string
		exit   int
	}{
		{"unwrap", []string{"unwrap", "delta", "pair"}, "21", 0},
		{"ints", []string{"delta", "pair"}, "12", 0},
		{"nested", nil, "an add where a wrap is wanted: (add 1 2)", 1},
	} {
		stdout, stderr, exit := runBin(t, bin, "-stage", "machine", "-events", filepath.Join(root, "internal/gogen/testdata/known", tt.prog+".term"))
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		if exit != tt.exit {
			t.Errorf("%s: exit %d (%s), want %d", tt.prog, exit, stderr, tt.exit)
			continue
		}
		if tt.exit != 0 {
			if !strings.Contains(stderr, tt.answer) {
				t.Errorf("%s: %q, want a message with %q", tt.prog, stderr, tt.answer)
			}
			continue
		}
		got := strings.Join(lines[:len(lines)-1], " ")
		if want := strings.Join(tt.events, " "); got != want || lines[len(lines)-1] != tt.answer {
			t.Errorf("%s: events %q, answer %q; want %q, %q", tt.prog, got, lines[len(lines)-1], want, tt.answer)
		}
	}
}

// TestNormalForms runs the programs of testdata/normal.sem, a kind whose values are
// its normal forms (normalForms: sem's reducible, negated), on every generated stage
// and checks the events and answers derived by hand in each program's comment: a
// condition that holds and one that does not (half), one that fails with an error and
// so counts as a redex (chk), a step condition read as "its term is not a value of
// the inner layer" (wrap), a context rule taken to fit (stop), a free variable, a
// metavariable met again in a sequence, which the redex test binds (find).
func TestNormalForms(t *testing.T) {
	bin := build(t, "internal/gogen/testdata/normal.sem")
	for _, tt := range []struct {
		prog   string
		events []string
		answer string // or, with an exit status other than 0, a part of the message
		exit   int
	}{
		{"under-binder", []string{"half"}, "(lam y 2)", 0},
		{"odd-half", nil, "(half 3)", 0},
		{"chk", []string{"chk"}, "1", 0},
		{"chk-error", nil, "function pos has no clause for (pos -1)", 2},
		{"wrap-value", nil, "(wrap 5)", 0},
		{"wrap-steps", []string{"wrap/beta"}, "(wrap 7)", 0},
		{"stop", []string{"stop"}, "3", 0},
		{"open", nil, "(lam y (app y 1))", 0},
		{"find", []string{"find"}, "(lam y 2)", 0},
		{"find-none", nil, "(lam y (find 5 (1 2)))", 0},
	} {
		for _, stage := range Stages {
			stdout, stderr, exit := runBin(t, bin, "-stage", stage, "-events", filepath.Join(root, "internal/gogen/testdata/normal", tt.prog+".term"))
			if exit != tt.exit {
				t.Errorf("%s on %s: exit %d (%s), want %d", tt.prog, stage, exit, stderr, tt.exit)
				continue
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if tt.exit != 0 {
				if !strings.Contains(stderr, tt.answer) || strings.TrimSpace(stdout) != "" {
					t.Errorf("%s on %s: %q, %q; want no event and a message with %q", tt.prog, stage, stdout, stderr, tt.answer)
				}
				continue
			}
			got := strings.Join(lines[:len(lines)-1], " ")
			if want := strings.Join(tt.events, " "); got != want || lines[len(lines)-1] != tt.answer {
				t.Errorf("%s on %s: events %q, answer %q; want %q, %q", tt.prog, stage, got, lines[len(lines)-1], want, tt.answer)
			}
		}
	}
}
