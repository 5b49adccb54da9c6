package gogen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	g "github.com/interderive/interderive/gradual"
	gradualcalc "github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/sem"
)

// TestLockstepRandom runs well-typed programs drawn by the rule file's own typing
// judgment (sem's typed generator: shadowing of binders, closures passed and
// returned, every rule the types allow) on every stage of the generated package, in
// lockstep with the in-process stages: the corpus checks the programs someone
// wrote, this the ones nobody thought of. A disagreement names the draw. Runs stop
// after 2,000 contractions (a draw may loop, and the reduction semantics's steps
// grow with the term).
func TestLockstepRandom(t *testing.T) {
	draws := 400
	if testing.Short() {
		draws = 60
	}
	for _, file := range []string{"testdata/rules/cbv.sem", "testdata/rules/stlc.sem"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			l, err := sem.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			gen, err := l.NewTypedGenerator(sem.GenOptions{MaxDepth: 5})
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(25, 7))
			var progs []program
			seen := map[string]bool{}
			for len(progs) < draws {
				p, _, err := gen.GenerateTyped(r)
				if errors.Is(err, sem.ErrNoDerivation) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				s := sem.Format(p)
				if seen[s] {
					continue
				}
				seen[s] = true
				progs = append(progs, program{fmt.Sprintf("draw %d", len(progs)), s})
			}
			lockstepFuel(t, l, file, progs, 2000)
		})
	}
}

// TestLockstepRandomGradual runs random cast-calculus programs (the gradual
// generator's: casts and explicit coercions that fail, blame at every position) on
// every stage of the packages of two cast semantics written as rule files, in
// lockstep with the in-process stages: blame is an answer reached by a context rule
// that aborts to the root, and a cast's step is an inner layer's, so that the CPS
// evaluator's γ and the interpreter's aborts are exercised where nobody wrote a
// program for them.
func TestLockstepRandomGradual(t *testing.T) {
	draws := 300
	if testing.Short() {
		draws = 40
	}
	for _, c := range []struct {
		file string
		sem  g.Semantics // what its coercions may inject (gradualgen.For)
	}{{"gradual/rules/ed.sem", g.ED}, {"gradual/rules/lud.sem", g.LUD}} {
		file := c.file
		t.Run(filepath.Base(file), func(t *testing.T) {
			rs, err := gradualcalc.LoadRuleSemantics(filepath.Join(root, file))
			if err != nil {
				t.Fatal(err)
			}
			gen := gradualgen.ProgramGen(gradualgen.Config{Cast: true, Inj: gradualgen.For(c.sem), Depth: 4})
			var progs []program
			seen := map[string]bool{}
			for i := 0; len(progs) < draws; i++ {
				e := gen.Example(i)
				if _, err := g.TypeOf(e); err != nil {
					t.Fatalf("draw %d is not well-typed: %v", i, err)
				}
				var labels gradualcalc.Labels
				term, err := rs.Term(e, &labels)
				if err != nil {
					t.Fatalf("draw %d: %v", i, err)
				}
				s := sem.Format(term)
				if seen[s] {
					continue
				}
				seen[s] = true
				progs = append(progs, program{fmt.Sprintf("draw %d", i), s})
			}
			lockstepFuel(t, rs.Lang, file, progs, 2000)
		})
	}
}
