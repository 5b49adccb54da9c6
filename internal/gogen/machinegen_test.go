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
