package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	needRedex(t)
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
	runs := redexRuns(t, redexModel("letrec.rkt"), "reductions", progs)
	checked := 0
	for i, f := range names {
		steps, want := runs[i].steps, runs[i].answer
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
