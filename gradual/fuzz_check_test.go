package gradual_test

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
)

// FuzzCheck feeds arbitrary text to the parser and, when it parses, to the type
// checkers and the translations: none may panic, and whatever cast insertion accepts
// must be a well-typed cast-calculus term of the same type.
func FuzzCheck(f *testing.F) {
	testenv.AddFiles(f, "../testdata/gradual/*.*", "../../shared/examples/gradual/*.*")
	f.Add([]byte(`letrec f:Int -> Int = \x:Int. if x < 1 then 0 else f (x - 1) in f 3`))
	f.Add([]byte(`(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`))
	f.Fuzz(func(t *testing.T, src []byte) {
		if e, err := g.Parse(src, g.GTLC); err == nil {
			if c, ty, err := g.InsertCasts(e); err == nil {
				got, err := g.TypeOf(c)
				if err != nil || !g.Equal(got, ty) {
					t.Fatalf("cast insertion gave %s : %s, but the cast-calculus checker says %v, %v", g.Format(c), ty, got, err)
				}
				for _, sem := range g.Standard() {
					if _, err := g.TypeOf(g.Translate(sem, c)); err != nil {
						t.Fatalf("%s translation of %s is ill-typed: %v", sem.Name(), g.Format(c), err)
					}
				}
			}
		}
		if e, err := g.Parse(src, g.CastCalculus); err == nil {
			if _, err := g.TypeOf(e); err == nil {
				for _, sem := range g.Standard() {
					g.Translate(sem, e)
				}
			}
		}
	})
}
