package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
)

// FuzzStages runs every derived stage on random semantics: a small well-formed rule
// file and a program of it, both made from the fuzzer's bytes (rules.GenerateFile).
// The stages agree in lockstep — the same contractions, and the same answer up to
// α-renaming, the same run-time error, or all out of the same fuel — or stop at a
// resource limit (time, memory, depth), agreeing up to where they stopped; none
// panics, none is stuck. Its corpus is Go's, testdata/fuzz/FuzzStages in this
// package's directory (the layout go test -fuzz reads and writes), seeded with the
// bytes of the bundled rule files (read as draws, not as text) and a few by hand.
//
//	go test -run '^$' -fuzz '^FuzzStages$' -fuzztime 10m -parallel 1 ./internal/calculi/rules
func FuzzStages(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(testdata, "*.sem"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src[:min(len(src), 256)])
	}
	f.Add([]byte{})
	f.Add([]byte{1, 3, 1, 2, 1, 0, 1, 2, 2, 0, 1, 5, 7, 9, 1, 2, 0, 0, 3, 1, 2, 2, 2, 1, 1, 1, 3, 4, 5, 6, 7, 8, 9})
	stages := derivedStages()
	if len(stages) < 2 {
		f.Fatalf("%d derived stages, want them all", len(stages))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, program := rules.GenerateFile(data)
		l, err := sem.Load([]byte(file))
		if err != nil {
			t.Fatalf("a generated file fails the checks: %v\n%s", err, file)
		}
		term, err := l.ReadTerm([]byte(program))
		if err != nil {
			t.Fatalf("a generated program does not read: %v\n%s\n%s", err, file, program)
		}
		var ref *stageRun
		for _, s := range stages {
			r := runStage(l, term, s)
			if ref == nil {
				ref = r
				continue
			}
			if msg := agree(ref, r); msg != "" {
				t.Fatalf("%s: %s\n%s\nprogram: %s", s.Name(), msg, file, program)
			}
		}
	})
}

// stageRun is what a stage did: its contractions, and its answer or error.
type stageRun struct {
	stage  string
	rules  []string
	answer *sem.Term
	err    error
}

// The budgets of a run: fuel small enough for a run to end in milliseconds, the time
// and output a bound on a run that grows its term.
const (
	fuzzFuel    = 300
	fuzzTimeout = 2 * time.Second
	fuzzOutput  = 1 << 16
)

func runStage(l *sem.Language, term *sem.Term, s interderive.Stage) *stageRun {
	st, _ := sem.StageOf(s)
	r := &stageRun{stage: s.Name()}
	a, err := st.Eval(l, term, interderive.Options{
		Fuel: fuzzFuel, Timeout: fuzzTimeout, Output: fuzzOutput,
		OnContract: func(rule string) { r.rules = append(r.rules, rule) },
	})
	r.answer, r.err = a.Value, err
	return r
}

// agree says how run differs from the reference ref, "" when it does not: a run
// stopped by time, memory or depth agrees with ref up to where it stopped.
func agree(ref, run *stageRun) string {
	var stuck *interderive.StuckError
	for _, r := range []*stageRun{ref, run} {
		if errors.As(r.err, &stuck) {
			return r.stage + " is stuck: " + r.err.Error()
		}
	}
	limited := func(err error) bool {
		return errors.Is(err, interderive.ErrResourceLimit) && !errors.Is(err, interderive.ErrOutOfFuel)
	}
	if limited(ref.err) || limited(run.err) {
		n := min(len(ref.rules), len(run.rules))
		if !slices.Equal(ref.rules[:n], run.rules[:n]) {
			return "the contractions differ before a limit"
		}
		return ""
	}
	if !slices.Equal(ref.rules, run.rules) {
		return "the contractions differ"
	}
	var re1, re2 *interderive.RuntimeError
	var fe1, fe2 *sem.FunctionError
	switch {
	case errors.As(ref.err, &fe1) || errors.As(run.err, &fe2):
		if !errors.As(ref.err, &fe1) || !errors.As(run.err, &fe2) || fe1.Error() != fe2.Error() {
			return "the functions' errors differ: " + errString(ref.err) + " / " + errString(run.err)
		}
	case errors.Is(ref.err, interderive.ErrOutOfFuel) || errors.Is(run.err, interderive.ErrOutOfFuel):
		if !errors.Is(ref.err, interderive.ErrOutOfFuel) || !errors.Is(run.err, interderive.ErrOutOfFuel) {
			return "one stage is out of fuel, not the other: " + errString(ref.err) + " / " + errString(run.err)
		}
	case errors.As(ref.err, &re1) || errors.As(run.err, &re2):
		if !errors.As(ref.err, &re1) || !errors.As(run.err, &re2) || re1.Reason != re2.Reason {
			return "the run-time errors differ: " + errString(ref.err) + " / " + errString(run.err)
		}
	case ref.err != nil || run.err != nil:
		return "the errors differ: " + errString(ref.err) + " / " + errString(run.err)
	case !sem.AlphaEqual(ref.answer, run.answer):
		return "the answers differ: " + sem.FormatShort(ref.answer, 200) + " / " + sem.FormatShort(run.answer, 200)
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// TestGenerateFile: the rule files GenerateFile makes from any bytes pass the static
// checks, and their programs read (FuzzStages relies on it: a generated file that
// the checks refuse is its failure); and they vary: lambda or not, values and redexes,
// aborts, calls of a meta-function.
func TestGenerateFile(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	shapes := map[string]bool{}
	for i := range n {
		data := make([]byte, 64)
		x := uint32(i*2654435761 + 1)
		for j := range data {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			data[j] = byte(x)
		}
		file, program := rules.GenerateFile(data)
		l, err := sem.Load([]byte(file))
		if err != nil {
			t.Fatalf("bytes %v: %v\n%s", data, err, file)
		}
		if _, err := l.ReadTerm([]byte(program)); err != nil {
			t.Fatalf("bytes %v: the program %s: %v\n%s", data, program, err, file)
		}
		for _, feature := range []string{"(con lam", "(value E (c", "(rule r", "(context", "(f "} {
			if strings.Contains(file, feature) {
				shapes[feature] = true
			}
		}
	}
	if len(shapes) != 5 {
		t.Errorf("the files have only %v", shapes)
	}
}
