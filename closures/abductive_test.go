package closures_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/reduction"
)

// TestAbductiveCases runs the hand-derived programs of package abductivecases on this
// stage: answers and whole contraction sequences.
func TestAbductiveCases(t *testing.T) { abductivecases.Run(t, closures.Stage{}.Abductive()) }

// TestAbductiveCorpus runs testdata/abductive on this stage.
func TestAbductiveCorpus(t *testing.T) {
	abductivecases.RunCorpus(t, closures.Stage{}.Abductive(), abductivecases.Corpus)
}

// TestAbductiveLockstep: the calculus of closures performs the reduction semantics'
// contractions, reports its decouplings and reaches its answers.
func TestAbductiveLockstep(t *testing.T) {
	abductivecases.Lockstep(t, reduction.Stage{}.Abductive(), closures.Stage{}.Abductive(), abductivecases.Corpus)
}

// abductiveLines collects a run's steps and reports.
type abductiveLines struct{ lines []string }

func (o *abductiveLines) Step(l string)         { o.lines = append(o.lines, l) }
func (o *abductiveLines) About(_ int, l string) { o.lines = append(o.lines, l) }
func (o *abductiveLines) Report(_ int, label string, _ any, l string) {
	o.lines = append(o.lines, label+": "+l)
}

// TestAbductiveTrace: the observer sees the environment steps and the decoupling's
// report (the lines derived by hand from the rules of closures/abductive.go).
func TestAbductiveTrace(t *testing.T) {
	e, err := abductive.Parse([]byte(`let f @ p = {1} + 2 in f p`))
	if err != nil {
		t.Fatal(err)
	}
	var o abductiveLines
	stage := closures.Stage{}.Abductive()
	if _, err := stage.Eval(e, interderive.Options{Observer: &o}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`expand: (let f @ p = {1} + 2 in f p)[ε]  ~>  ((abduct f, p. f p)[ε]) · (({1} + 2)[ε])`,
		`expand: ({1} + 2)[ε]  ~>  ({1}[ε]) + (2)`,
		`contract:  ℓ1`,
		`decoupling: footprint {ℓ1}, σ: ℓ1 ↦ 1`,
		`ρ1 = (f ↦ (\y:V. y . [1] + 2)[ε]) : ε`,
	} {
		if !slices.Contains(o.lines, want) {
			t.Errorf("no line %s in\n%s", want, strings.Join(o.lines, "\n"))
		}
	}
}
