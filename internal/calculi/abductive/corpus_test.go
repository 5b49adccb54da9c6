package abductive_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	abd "github.com/interderive/interderive/abductive"
	calculus "github.com/interderive/interderive/internal/calculi/abductive"
	"github.com/interderive/interderive/internal/workbench"
)

// corpus is the calculus's corpus, from the repository's root.
const corpus = "../../../testdata/abductive"

// expectation is what a corpus file's comments promise (testdata/abductive/README.md).
type expectation struct {
	answer string   // what run prints, "type error" or "out of fuel"
	rules  []string // contractions that must occur
	fuel   int      // 0: the default
}

// expectations reads a file's directives (ok is false, and the errors reported, when
// one is malformed): -- expect: A (or expect[labelled]: A), -- rules:
// R1, R2, -- fuel: N. Any other comment line is prose, unless its first word is a
// directive's (a misspelt bracket or a missing colon is an error, not prose).
func expectations(t *testing.T, file string, src []byte) (expectation, bool) {
	var x expectation
	ok := true
	for i, line := range strings.Split(string(src), "\n") {
		text, ok := strings.CutPrefix(strings.TrimSpace(line), "--")
		if !ok {
			continue
		}
		word, arg, colon := strings.Cut(strings.TrimSpace(text), ":")
		word = strings.TrimSpace(word)
		arg = strings.TrimSpace(arg)
		at := func(format string, args ...any) {
			ok = false
			t.Errorf("%s:%d: "+format, append([]any{file, i + 1}, args...)...)
		}
		switch {
		case !colon || strings.ContainsAny(word, " ,"):
			if f := strings.Fields(text); len(f) > 0 && slices.Contains([]string{"expect", "rules", "fuel"}, strings.TrimRight(f[0], ":")) {
				at("%q: a directive needs its colon", line)
			}
		case word == "expect" || word == "expect[labelled]":
			if x.answer != "" {
				at("a second expectation")
			}
			x.answer = arg
		case word == "rules":
			for _, r := range strings.Split(arg, ",") {
				r = strings.TrimSpace(r)
				if !slices.Contains(abd.Rules(), r) {
					at("unknown rule %q (the rules: %v)", r, abd.Rules())
				}
				x.rules = append(x.rules, r)
			}
		case word == "fuel":
			n, err := strconv.Atoi(arg)
			if err != nil || n <= 0 {
				at("fuel must be a positive number, not %q", arg)
			}
			x.fuel = n
		case strings.HasPrefix(word, "expect") || word == "rule" || word == "fuels":
			at("unknown directive %q", word)
		}
	}
	if x.answer == "" {
		t.Errorf("%s: no expectation", file)
		ok = false
	}
	return x, ok
}

// TestCorpus: every program of testdata/abductive gives on every stage the answer its
// comments derive by hand, and fires the rules they list; a program expected to be a
// type error is one, with a position; one expected to run out of fuel does, on every
// stage, after the same contractions.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*.abd"))
	if err != nil || len(files) < 10 {
		t.Fatalf("the corpus: %d files (%v)", len(files), err)
	}
	all := stages(t)
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		x, ok := expectations(t, file, src)
		if !ok {
			continue
		}
		p, err := calculus.Calculus.Load("abd", src)
		if x.answer == "type error" {
			var le *workbench.LoadError
			var list interderive.ErrorList
			if !errors.As(err, &le) || le.Phase != "type" || !errors.As(err, &list) || !list[0].Pos.IsValid() {
				t.Errorf("%s: %v, want a positioned type error", file, err)
			}
			checked++
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		ref := lockstep(t, p, all, interderive.Options{Fuel: x.fuel})
		switch {
		case x.answer == "out of fuel":
			if !errors.Is(ref.err, interderive.ErrOutOfFuel) {
				t.Errorf("%s: %v, %s, want out of fuel", file, ref.err, ref.out.Observation)
			}
		case ref.err != nil || ref.out.Observation != x.answer:
			t.Errorf("%s: %s (%v), want %s", file, ref.out.Observation, ref.err, x.answer)
		}
		for _, r := range x.rules {
			if !slices.Contains(ref.rules, r) {
				t.Errorf("%s: no %s contraction", file, r)
			}
		}
		checked += len(all)
	}
	t.Logf("%d files, %d runs and load checks", len(files), checked)
}
