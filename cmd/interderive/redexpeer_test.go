package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The Redex side of the cross-checks: testdata/bench/redex/model.rkt run on a model
// of internal/redex/testdata/models.

// needRedex skips a cross-check under -short (each Redex run loads its model, for
// seconds) and where racket is not installed (Redex's answers cannot be had).
func needRedex(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: each Redex run loads the model (seconds)")
	}
	if _, err := exec.LookPath("racket"); err != nil {
		t.Skip("racket is not installed: Redex's answers cannot be had")
	}
}

// redexModel is the path of a model of internal/redex/testdata/models.
func redexModel(name string) string {
	return filepath.Join("..", "..", "internal", "redex", "testdata", "models", name)
}

// redexScript runs model.rkt on the model's relation with args (and stdin, if not
// ""), and returns what it printed.
func redexScript(t *testing.T, model, relation, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("racket", append([]string{filepath.Join("..", "..", "testdata", "bench", "redex", "model.rkt"), model, relation}, args...)...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Redex on %s %v: %v\n%s", filepath.Base(model), args, err, out)
	}
	return string(out)
}

// redexRun is one program's run by Redex: its contractions and normal form.
type redexRun struct {
	steps  int
	answer string
}

// redexRuns reduces each program by the model's relation, in one run of model.rkt
// (its - mode: the model loaded once).
func redexRuns(t *testing.T, model, relation string, progs []string) []redexRun {
	t.Helper()
	out := redexScript(t, model, relation, strings.Join(progs, "\n"), "-")
	var runs []redexRun
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "redex "); ok {
			fields := strings.Fields(rest) // CONTRACTIONS ANSWER 0
			n, _ := strconv.Atoi(fields[0])
			runs = append(runs, redexRun{steps: n, answer: strings.Join(fields[1:len(fields)-1], " ")})
		}
	}
	if len(runs) != len(progs) {
		t.Fatalf("Redex ran %d of the %d programs:\n%s", len(runs), len(progs), out)
	}
	return runs
}

// redexLines are the lines of model.rkt's output that start with prefix, the prefix
// cut (its step mode's "step K TERM", its all mode's "normal TERM").
func redexLines(out, prefix string) []string {
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			lines = append(lines, rest)
		}
	}
	return lines
}
