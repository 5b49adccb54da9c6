package rules_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
)

// What real rule files met in the derived stages, on the corpus of testdata/trust:
// each file's comments derive its expectations by hand.

// trust is the path of the corpus.
var trust = filepath.Join("testdata", "trust")

// loadTrust loads a program of the corpus in the calculus of its rule file.
func loadTrust(t *testing.T, w *workbench.Workbench, c workbench.Calculus, file string) (workbench.Calculus, workbench.Program) {
	t.Helper()
	path := filepath.Join(trust, file)
	src, err := workbench.ReadSource(path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	d, err := w.Define(c, nil, path, src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Load("term", src)
	if err != nil {
		t.Fatal(err)
	}
	return d, p
}

// TestTrustCheck: check on the corpus. alpha/const.term expects its answer up to the
// names of its binders; open.sem, which does not qualify for environments, runs on
// every stage (by substitution), each program with its answer derived by hand; every
// stage steps layer.sem's inner layer in its frames (the CPS evaluator, on a file
// without context rules, plugged a layer's contractum into no frame: 2 and 0 for 3 and
// the run-time error).
func TestTrustCheck(t *testing.T) {
	w, _ := bench(t)
	files, err := w.SourceFiles([]string{trust})
	if err != nil {
		t.Fatal(err)
	}
	plans, errs := w.PlanFiles(files, "", nil, workbench.CheckOptions{})
	var out strings.Builder
	r := workbench.RunCheck(files, plans, errs, workbench.CheckOptions{}, nil, func(i int, fs []workbench.Failure) {
		workbench.WriteCheckFile(&out, files[i], plans[i], errs[i], fs)
	})
	// alpha: 6 stages; open: 2 programs on 6 stages; layer: 2 programs on 6 stages.
	if r.Files != 5 || r.Runs != 6+2*6+2*6 || r.Passed != r.Runs || r.Errors != 0 || r.SkippedRuns != 0 {
		t.Errorf("%s, %d runs skipped; want 5 files, 30 runs, all passed, none skipped\n%s", r.Summary(), r.SkippedRuns, out.String())
	}
}

// TestTrustCompare: compare runs every stage, on a file that does not qualify for
// environments too (by substitution); the same run-time error, on every stage, agrees.
func TestTrustCompare(t *testing.T) {
	w, c := bench(t)
	for _, tc := range []struct {
		file    string
		stages  []string // the rows
		skipped []string
		outcome string // every row's answer
	}{
		{filepath.Join("open", "id.term"), []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}, nil, "1"},
		{filepath.Join("alpha", "const.term"), []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}, nil, "(lambda t1 (lambda f2 t1))"},
		{filepath.Join("layer", "zero.term"), []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}, nil, "run-time error"},
	} {
		d, p := loadTrust(t, w, c, tc.file)
		cmp, err := w.Compare(d, p, nil, "", interderive.Options{Fuel: 100})
		if err != nil {
			t.Fatal(err)
		}
		var stages, skipped []string
		for _, r := range cmp.Rows {
			stages = append(stages, r.Stage)
			var rt *interderive.RuntimeError
			if got := r.Answer(); got != tc.outcome && !(errors.As(r.Err, &rt) && tc.outcome == "run-time error") {
				t.Errorf("%s on %s: %s, want %s", tc.file, r.Stage, got, tc.outcome)
			}
		}
		for _, s := range cmp.Skipped {
			skipped = append(skipped, s.Stage)
		}
		if !slices.Equal(stages, tc.stages) || !slices.Equal(skipped, tc.skipped) || len(cmp.Disagreements) > 0 || len(cmp.Partial) > 0 {
			t.Errorf("%s: rows %v, skipped %v, %v, %v; want rows %v, skipped %v, and agreement", tc.file, stages, skipped, cmp.Disagreements, cmp.Partial, tc.stages, tc.skipped)
		}
	}
}

// TestTrustRunPicksAStageThatRuns: run, with no --stage, runs the last stage that runs
// the file: the compiled interpreter, for a file that qualifies for environments and
// for one that does not.
func TestTrustRunPicksAStageThatRuns(t *testing.T) {
	w, c := bench(t)
	for file, want := range map[string]string{filepath.Join("open", "id.term"): "compile", filepath.Join("alpha", "const.term"): "compile"} {
		d, _ := loadTrust(t, w, c, file)
		s, err := w.StageUnder(d, "file", "", "")
		if err != nil || s.Name() != want {
			t.Errorf("%s: %v, %v; want %s", file, s, err, want)
		}
	}
}

// TestTrustFuzz: fuzz's lockstep on open.sem, which does not qualify for environments:
// the six stages, by substitution, agree.
func TestTrustFuzz(t *testing.T) {
	w, _ := bench(t)
	plans, err := w.PlanFuzz(workbench.FuzzOptions{Calculi: []string{"rules"}, Size: 4,
		Definitions: map[string]string{"rules": filepath.Join(trust, "open.sem")}})
	if err != nil || len(plans) != 1 {
		t.Fatalf("%v, %d plans", err, len(plans))
	}
	r := w.Fuzz(plans[0], workbench.FuzzConfig{Count: 30, Jobs: 1, Seed: 1}, nil)
	if r.Found != nil || r.Checked == 0 {
		t.Errorf("%d checked, found %v", r.Checked, r.Found)
	}
}
