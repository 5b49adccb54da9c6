package abductivecases

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
)

// Corpus is the directory of the corpus, from a stage package's directory.
const Corpus = "../testdata/abductive"

// expectation is what a corpus file expects: its answer (or "type error", "out of
// fuel"), the rules that must fire, and its fuel (0: the default).
type expectation struct {
	answer string
	rules  []string
	fuel   int
}

// readExpectation reads the -- expect:, -- rules: and -- fuel: lines of src (the
// workbench's full syntax is checked by the calculus's tests; these are the lines the
// corpus uses).
func readExpectation(src string) (expectation, error) {
	var x expectation
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "-- expect:"):
			x.answer = strings.TrimSpace(strings.TrimPrefix(line, "-- expect:"))
		case strings.HasPrefix(line, "-- rules:"):
			for _, r := range strings.Split(strings.TrimPrefix(line, "-- rules:"), ",") {
				x.rules = append(x.rules, strings.TrimSpace(r))
			}
		case strings.HasPrefix(line, "-- fuel:"):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "-- fuel:")))
			if err != nil {
				return x, err
			}
			x.fuel = n
		}
	}
	if x.answer == "" {
		return x, errors.New("no -- expect: line")
	}
	return x, nil
}

// RunCorpus runs every program of the corpus (dir, Corpus from a stage package) on a
// stage and checks its expectations.
func RunCorpus(t *testing.T, stage abductive.Stage, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.abd"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		x, err := readExpectation(string(src))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		e, err := abductive.Parse(src)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if _, err := abductive.TypeOf(e); err != nil {
			if x.answer != "type error" {
				t.Errorf("%s: %v", file, err)
			}
			continue
		}
		fired := map[string]bool{}
		a, err := stage.Eval(e, interderive.Options{Fuel: x.fuel, OnContract: func(r string) { fired[r] = true }})
		switch {
		case errors.Is(err, interderive.ErrOutOfFuel):
			if x.answer != "out of fuel" {
				t.Errorf("%s: out of fuel, want %s", file, x.answer)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", file, err)
			continue
		}
		if got := a.Observe(); got != x.answer {
			t.Errorf("%s: %s, want %s", file, got, x.answer)
		}
		for _, r := range x.rules {
			if !fired[r] {
				t.Errorf("%s: no %s contraction", file, r)
			}
		}
	}
}
