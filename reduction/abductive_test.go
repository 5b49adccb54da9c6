package reduction_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/reduction"
)

// TestAbductiveCases runs the hand-derived programs of package abductivecases on the
// reduction semantics: answers and whole contraction sequences.
func TestAbductiveCases(t *testing.T) { abductivecases.Run(t, reduction.Stage{}.Abductive()) }

// TestAbductiveCorpus runs testdata/abductive on the reduction semantics.
func TestAbductiveCorpus(t *testing.T) {
	abductivecases.RunCorpus(t, reduction.Stage{}.Abductive(), abductivecases.Corpus)
}

// TestAbductiveSteps: the terms of a run, step by step, derived by hand from the rules
// of abductive/doc.go: E1 (every beta and abduct leaves a mark ^L, which the value
// climbing out of it absorbs) and E5a (a footprint the application adds).
func TestAbductiveSteps(t *testing.T) {
	for _, tt := range []struct {
		src   string
		steps []string // "RULE: TERM"
	}{
		{`let f @ p = {1} + 2 in f p`, []string{
			`param: let f @ p = ℓ1 + 2 in f p`,
			`delta: let f @ p = ⟨ℓ1 + 2⟩ in f p`,
			`abduct: ((\y:V. y . [1] + 2) [1]^{ℓ1})^{ℓ1}`,
			`beta: ([1]^{ℓ1} . [1] + 2)^{ℓ1}^{ℓ1}`,
			`delta: (1^{ℓ1} + 2)^{ℓ1}^{ℓ1}`,
			`delta: 3^{ℓ1}^{ℓ1}^{ℓ1}`,
		}},
		{`let f @ p = (\x:F. 0) {1} in p . p`, []string{
			`param: let f @ p = (\x:F. 0) ℓ1 in p . p`,
			`beta: let f @ p = 0^{ℓ1} in p . p`,
			`abduct: ([1]^{ℓ1} . [1]^{ℓ1})^{ℓ1}`,
			`delta: 1^{ℓ1}^{ℓ1}`,
		}},
	} {
		e, err := abductive.Parse([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		sigma := abductive.Sigma(e)
		step := reduction.Stage{}.Abductive().(abductive.Stepper)
		for i, want := range tt.steps {
			next, rule, done, err := step.Step(e, sigma)
			if err != nil || done {
				t.Fatalf("%s: step %d: done %v, %v", tt.src, i+1, done, err)
			}
			if got := rule + ": " + abductive.Format(next); got != want {
				t.Errorf("%s: step %d:\n  %s\nwant\n  %s", tt.src, i+1, got, want)
			}
			e = next
		}
		if _, _, done, err := step.Step(e, sigma); !done || err != nil {
			t.Errorf("%s: not an answer after %d steps (%v)", tt.src, len(tt.steps), err)
		}
	}
}

// TestAbductiveStuck: a term no rule applies to (which the type system rules out) is
// interderive's stuck error, not a panic.
func TestAbductiveStuck(t *testing.T) {
	for _, src := range []string{`x`, `1 2`, `1 . 2`, `(\x:F. x) 1 . 1`, `1 +L 2`, `let f @ p = 1 in p + 1`} {
		e, err := abductive.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = reduction.Stage{}.Abductive().Eval(e, interderive.Options{})
		var stuck *interderive.StuckError
		if !errors.As(err, &stuck) {
			t.Errorf("%s: %v, want stuck", src, err)
		}
	}
}
