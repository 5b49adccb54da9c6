package driver

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"pgregory.net/rapid"
)

// dplRun is one stage's run of a differentiable program: answer, contractions, and
// the trace and derivative of every rd.
type dplRun struct {
	answer             dpl.Answer
	err                error
	rules              []string
	traces, derivative []dpl.Term
}

func runDPL(st DPLStage, ad dpl.Differentiator, prog dpl.Term, fuel int) dplRun {
	var r dplRun
	opts := interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.rules = append(r.rules, rule) }}
	r.answer, r.err = st.Traced(ad, prog, opts, func(c, d dpl.Term) {
		r.traces = append(r.traces, c)
		r.derivative = append(r.derivative, d)
	})
	return r
}

// agreeDPL compares a stage's run with the reference semantics': the same answer (the
// same float64 bits, printed in shortest round-trip form, or undefined), the same
// contractions, the same error kind, and for every rd the same trace and derivative up
// to α-renaming.
func agreeDPL(ref, got dplRun) error {
	if i := firstDiff(ref.rules, got.rules); i >= 0 {
		return fmt.Errorf("contraction %d differs: %s vs %s (%d and %d contractions)", i+1, ruleAt(ref.rules, i), ruleAt(got.rules, i), len(ref.rules), len(got.rules))
	}
	if (ref.err == nil) != (got.err == nil) || (ref.err != nil && errors.Is(ref.err, interderive.ErrOutOfFuel) != errors.Is(got.err, interderive.ErrOutOfFuel)) {
		return fmt.Errorf("errors differ: %v vs %v", ref.err, got.err)
	}
	if ref.err == nil && ref.answer.Observe() != got.answer.Observe() {
		return fmt.Errorf("answers differ: %s vs %s", ref.answer, got.answer)
	}
	if len(ref.traces) != len(got.traces) {
		return fmt.Errorf("%d rd traced, vs %d", len(ref.traces), len(got.traces))
	}
	for i := range ref.traces {
		if !dpl.AlphaEqual(ref.traces[i], got.traces[i]) {
			return fmt.Errorf("rd %d: traces differ:\n  %s\n  %s", i+1, dpl.Format(ref.traces[i]), dpl.Format(got.traces[i]))
		}
		if !dpl.AlphaEqual(ref.derivative[i], got.derivative[i]) {
			return fmt.Errorf("rd %d: derivatives differ:\n  %s\n  %s", i+1, dpl.Format(ref.derivative[i]), dpl.Format(got.derivative[i]))
		}
	}
	return nil
}

// TestDPLStagesAgreeOnCorpus runs every differentiable program of the corpus on every
// stage, under both strategies (figure6 on the programs small enough for it).
func TestDPLStagesAgreeOnCorpus(t *testing.T) {
	stages := DPLStages()
	if len(stages) < 2 {
		t.Skip("one stage only")
	}
	files, err := SourceFiles([]string{"../../testdata/differentiable"})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		src, _ := os.ReadFile(file)
		prog, err := DPL().Load(src)
		if err != nil {
			continue
		}
		x, _ := ParseExpectations(src, DPL())
		for _, ad := range dpl.Differentiators() {
			if _, ok := x.Answer[ad.Name()]; !ok {
				continue
			}
			term := prog.(dplProgram).term
			ref := runDPL(stages[0], ad, term, 200_000)
			for _, st := range stages[1:] {
				if err := agreeDPL(ref, runDPL(st, ad, term, 200_000)); err != nil {
					t.Errorf("%s, %s, %s: %v", file, ad.Name(), st.Name, err)
				}
			}
		}
	}
}

// TestDPLStagesAgree: on random well-typed programs (tuples, conditions on <.,
// letrec loops, nested rd and fd, every operator, the partial ones included), every
// stage agrees with the reduction semantics under both strategies.
func TestDPLStagesAgree(t *testing.T) {
	stages := DPLStages()
	if len(stages) < 2 {
		t.Skip("one stage only")
	}
	rapid.Check(t, func(t *rapid.T) {
		prog := dplgen.Program(t, dplgen.Full(5))
		for _, ad := range dpl.Differentiators() {
			ref := runDPL(stages[0], ad, prog, 20_000)
			for _, st := range stages[1:] {
				if err := agreeDPL(ref, runDPL(st, ad, prog, 20_000)); err != nil {
					t.Fatalf("%s, %s: %v\nprogram: %s", ad.Name(), st.Name, err, dpl.Format(prog))
				}
			}
		}
	})
}
