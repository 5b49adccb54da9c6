package differentiable

import (
	"os"
	"testing"

	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// The lockstep tests compare every stage with the reduction semantics
// (workbench.Lockstep): the same contractions, the same kind of error, the same answer
// (the same float64 bits, or undefined at the same redex), and for every rd the same
// trace and derivative (the stages' reports) up to α-renaming.

// TestDPLStagesAgreeOnCorpus runs every differentiable program of the corpus on every
// stage, under every strategy its expectations name.
func TestDPLStagesAgreeOnCorpus(t *testing.T) {
	w := newBench(t)
	files, err := w.SourceFiles([]string{"../../../testdata/differentiable"})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i, file := range testenv.Sample(files) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := Calculus.Load(ext, src)
		if err != nil {
			continue // a type error, on purpose
		}
		x, err := workbench.ParseExpectations(src, Calculus)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for j, ad := range dpl.Differentiators() {
			if _, ok := x.Answer[ad.Name()]; !ok {
				continue
			}
			// Under -short, each file under one strategy in turn (the full run: every
			// strategy its expectations name); the turn starts where it leaves the files of
			// the most contractions under figure6 (second-derivative-x4, fd-pair-valued,
			// a second or more each) to tape.
			if testing.Short() && (i+j+2)%len(dpl.Differentiators()) != 0 && ran > 0 {
				continue
			}
			if _, d := w.Lockstep(Calculus, prog, stages(), ad.Name(), only, 200_000); d != nil {
				t.Errorf("%s: %v", file, d)
			}
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("no corpus program ran")
	}
}

// TestDPLStagesAgree: on random well-typed programs (tuples, conditions on <.,
// letrec loops, nested rd and fd, every operator, the partial ones included), every
// stage agrees with the reduction semantics under every strategy.
func TestDPLStagesAgree(t *testing.T) {
	w := newBench(t)
	rapid.Check(t, func(t *rapid.T) {
		prog := program{term: dplgen.Program(t, dplgen.Full(5))}
		for _, ad := range dpl.Differentiators() {
			if _, d := w.Lockstep(Calculus, prog, stages(), ad.Name(), only, 20_000); d != nil {
				t.Fatalf("%v\nprogram: %s", d, dpl.Format(prog.term))
			}
		}
	})
}
