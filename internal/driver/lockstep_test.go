package driver

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// run is one stage's run: its answer (or error) and its contraction sequence.
type run struct {
	answer g.Answer
	err    error
	rules  []string
}

func runStage(st CastStage, sem g.Semantics, e g.Expr, fuel int) run {
	var r run
	r.answer, r.err = st.Eval(sem, e, interderive.Options{Fuel: fuel, Merging: interderive.Unmerged, OnContract: func(rule string) { r.rules = append(r.rules, rule) }})
	return r
}

// agree compares a stage's run with the reference run: the same answer (values up to
// α-renaming, after read-back), the same error kind, and the same contraction sequence.
func agree(ref, got run) error {
	if i := firstDifference(ref.rules, got.rules); i >= 0 {
		return fmt.Errorf("contraction %d differs: %s vs %s\nreference: %v\nstage:     %v", i+1, at(ref.rules, i), at(got.rules, i), ref.rules, got.rules)
	}
	if (ref.err == nil) != (got.err == nil) || (ref.err != nil && !sameKind(ref.err, got.err)) {
		return fmt.Errorf("errors differ: %v vs %v", ref.err, got.err)
	}
	if ref.err != nil {
		return nil
	}
	if ref.answer.Blamed != got.answer.Blamed || ref.answer.Blame != got.answer.Blame {
		return fmt.Errorf("answers differ: %s vs %s", ref.answer, got.answer)
	}
	if !ref.answer.Blamed && !g.AlphaEqual(ref.answer.Value, got.answer.Value) {
		return fmt.Errorf("values differ: %s vs %s", ref.answer, got.answer)
	}
	return nil
}

func sameKind(a, b error) bool {
	return errors.Is(a, interderive.ErrOutOfFuel) == errors.Is(b, interderive.ErrOutOfFuel)
}

func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(rules []string, i int) string {
	if i < len(rules) {
		return rules[i]
	}
	return "(end)"
}

// TestStagesAgreeOnCorpus runs every corpus program on every stage under every
// semantics, in lockstep with the reduction semantics.
func TestStagesAgreeOnCorpus(t *testing.T) {
	files, err := SourceFiles([]string{"../../testdata/gradual"})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		l, _ := LanguageFor(file, "")
		src, _ := os.ReadFile(file)
		prog, err := l.Load(src)
		if err != nil {
			continue
		}
		e := prog.(gradualProgram).term
		for _, sem := range g.Standard() {
			te := g.Translate(sem, e)
			ref := runStage(CastStages()[0], sem, te, 20000)
			for _, st := range CastStages()[1:] {
				if err := agree(ref, runStage(st, sem, te, 20000)); err != nil {
					t.Errorf("%s, %s, %s: %v", file, sem.Name(), st.Name, err)
				}
			}
		}
	}
}

// TestStagesAgree: on random well-typed programs (GTLC through cast insertion, and the
// cast calculus with explicit coercions and blame), every stage gives the reduction
// semantics' answer and contraction sequence, under every semantics.
func TestStagesAgree(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				var e g.Expr
				if rapid.Bool().Draw(t, "gtlc") {
					src := gradualgen.Program(t, gradualgen.Config{Depth: 5})
					var err error
					if e, _, err = g.InsertCasts(src); err != nil {
						t.Fatalf("generated program rejected: %v", err)
					}
				} else {
					e = gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem), Depth: 5})
				}
				te := g.Translate(sem, e)
				ref := runStage(CastStages()[0], sem, te, 3000)
				for _, st := range CastStages()[1:] {
					if err := agree(ref, runStage(st, sem, te, 3000)); err != nil {
						t.Fatalf("%s: %v\nprogram: %s", st.Name, err, g.Format(e))
					}
				}
			})
		})
	}
}
