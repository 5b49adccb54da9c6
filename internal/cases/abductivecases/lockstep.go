package abductivecases

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
)

// reports collects what a run reports (its decouplings), ignoring its own steps.
type reports struct{ decouplings []abductive.Decoupling }

func (*reports) Step(string)       {}
func (*reports) About(int, string) {}
func (r *reports) Report(_ int, label string, value any, _ string) {
	if d, ok := value.(abductive.Decoupling); ok && label == "decoupling" {
		r.decouplings = append(r.decouplings, d)
	}
}

// run is one run of a stage: its contractions, its reports, its answer or error.
type run struct {
	rules   []string
	reports reports
	answer  abductive.Answer
	err     error
}

func runOn(stage abductive.Stage, e abductive.Expr, fuel int) run {
	var r run
	r.answer, r.err = stage.Eval(e, interderive.Options{Fuel: fuel, Observer: &r.reports,
		OnContract: func(rule string) { r.rules = append(r.rules, rule) }})
	return r
}

// Programs are the cases' programs and the corpus's well-typed ones (dir: Corpus from
// a stage package), by name.
func Programs(t *testing.T, dir string) map[string]abductive.Expr {
	t.Helper()
	progs := map[string]abductive.Expr{}
	for _, c := range Cases {
		e, err := abductive.Parse([]byte(c.Program))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		progs[c.Name] = e
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.abd"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		e, err := abductive.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if _, err := abductive.TypeOf(e); err == nil {
			progs[file] = e
		}
	}
	return progs
}

// Lockstep checks stage against the reference ref on the cases and the corpus: the
// same contractions in the same order, the same decouplings reported (footprint and
// σ), and the same answer up to α-renaming (or both out of fuel).
func Lockstep(t *testing.T, ref, stage abductive.Stage, dir string) {
	t.Helper()
	for name, e := range Programs(t, dir) {
		const fuel = 100000
		a, b := runOn(ref, e, fuel), runOn(stage, e, fuel)
		if !slices.Equal(a.rules, b.rules) {
			t.Errorf("%s: contractions\n  %v\nwant\n  %v", name, b.rules, a.rules)
			continue
		}
		if !slices.EqualFunc(a.reports.decouplings, b.reports.decouplings, abductive.Decoupling.Equal) {
			t.Errorf("%s: decouplings %v, want %v", name, b.reports.decouplings, a.reports.decouplings)
		}
		if a.err != nil || b.err != nil {
			if !errors.Is(a.err, interderive.ErrOutOfFuel) || !errors.Is(b.err, interderive.ErrOutOfFuel) {
				t.Errorf("%s: %v, want %v", name, b.err, a.err)
			}
			continue
		}
		if !abductive.AlphaEqual(a.answer.Value, b.answer.Value) {
			t.Errorf("%s: answer %s, want %s", name, b.answer, a.answer)
		}
	}
}
