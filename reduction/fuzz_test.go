package reduction_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
)

// FuzzReduce runs every well-typed program the fuzzer finds, in both languages and
// under every semantics, with a small fuel bound: a run must end in an answer or out
// of fuel — never stuck, never a panic.
func FuzzReduce(f *testing.F) {
	testenv.AddFiles(f, "../testdata/gradual/*.*", "../testdata/gradual/examples/*.*")
	f.Fuzz(func(t *testing.T, src []byte) {
		var programs []g.Expr
		if e, err := g.Parse(src, g.GTLC); err == nil {
			if c, _, err := g.InsertCasts(e); err == nil {
				programs = append(programs, c)
			}
		}
		if e, err := g.Parse(src, g.CastCalculus); err == nil {
			if _, err := g.TypeOf(e); err == nil {
				programs = append(programs, e)
			}
		}
		for _, e := range programs {
			for _, sem := range g.Standard() {
				_, err := reduction.EvalCast(sem, g.Translate(sem, e), interderive.Options{Fuel: 2000})
				if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) {
					t.Fatalf("%s: %v\n%s", sem.Name(), err, g.Format(e))
				}
			}
		}
	})
}
