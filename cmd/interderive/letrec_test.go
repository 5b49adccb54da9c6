package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestLetrecAgainstRedex: testdata/rules/letrec.sem is redex-examples' letrec.rkt
// written by hand; each program of its corpus that ends (not the two that run out of
// fuel) runs on Redex's own model (testdata/bench/redex/model.rkt, the relation
// reductions of internal/redex/testdata/models/letrec.rkt) and on every derived stage,
// which must reach Redex's normal form, up to the names of binders and locations, by
// as many contractions (a program that is stuck, by as many, at a normal form of
// Redex's that is no value). Skipped where racket is not installed, or under -short.
func TestLetrecAgainstRedex(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: each Redex run loads the model (seconds)")
	}
	if _, err := exec.LookPath("racket"); err != nil {
		t.Skip("racket is not installed: Redex's answers cannot be had")
	}
	root := filepath.Join("..", "..")
	src, err := os.ReadFile(filepath.Join(root, "testdata", "rules", "letrec.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "testdata", "rules", "letrec", "*.term"))
	// The programs that end (not the two that run out of fuel: Redex's driver
	// loops, or stops at its own count), to Redex in one run of the model.
	var progs, names []string
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var prog []string
		fuel := false
		for _, line := range strings.Split(string(text), "\n") {
			fuel = fuel || strings.HasPrefix(line, "; fuel:")
			if !strings.HasPrefix(line, ";") {
				prog = append(prog, line)
			}
		}
		if !fuel {
			progs, names = append(progs, strings.Join(prog, " ")), append(names, f)
		}
	}
	cmd := exec.Command("racket", filepath.Join(root, "testdata", "bench", "redex", "model.rkt"),
		filepath.Join(root, "internal", "redex", "testdata", "models", "letrec.rkt"), "reductions", "-")
	cmd.Stdin = strings.NewReader(strings.Join(progs, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Redex: %v\n%s", err, out)
	}
	var runs []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "redex ") {
			runs = append(runs, line)
		}
	}
	if len(runs) != len(progs) {
		t.Fatalf("Redex ran %d of the %d programs:\n%s", len(runs), len(progs), out)
	}
	checked := 0
	for i, f := range names {
		fields := strings.Fields(runs[i])
		steps, _ := strconv.Atoi(fields[1])
		want := strings.Join(fields[2:len(fields)-1], " ") // redex CONTRACTIONS ANSWER 0
		w, err := l.ReadTerm([]byte(want))
		if err != nil {
			t.Fatalf("%s: Redex's answer %q does not read: %v", f, want, err)
		}
		for _, stage := range []string{"reduction", "closures", "machine", "cps2", "interp", "compile"} {
			stdout, stderr, code := runCmd("run", "--json", "--stage", stage, f)
			var got struct {
				Outcome, Answer string
				Contractions    int
			}
			if json.Unmarshal([]byte(stdout), &got) != nil {
				t.Errorf("%s on %s: exit %d, %s%s", f, stage, code, stdout, stderr)
				continue
			}
			if got.Outcome == "run-time error" {
				// A stuck term, the file's declared shape: Redex's normal form is no
				// value, reached by as many contractions.
				if l.IsValue(w, l.Root()) || got.Contractions != steps {
					t.Errorf("%s on %s: stuck after %d contractions, Redex %s by %d", f, stage, got.Contractions, want, steps)
				}
				continue
			}
			g, err := l.ReadTerm([]byte(got.Answer))
			if err != nil || !sem.AlphaEqual(g, w) || got.Contractions != steps {
				t.Errorf("%s on %s: %s by %d contractions, Redex %s by %d", f, stage, got.Answer, got.Contractions, want, steps)
			}
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("%d programs checked against Redex, want the corpus's 15 that end", checked)
	}
}
