package gogen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

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
