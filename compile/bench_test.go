package compile_test

import (
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/compile"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/targets"
	"github.com/interderive/interderive/interp"
)

// fibTyped is fully typed fib, as testdata/bench/fib-typed.gtlc.in has it.
const fibTyped = `letrec fib:Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib 25`

// fib25 is fib 25 (0, 1, 1, 2, 3, 5, ...: targets.NativeFib, checked by its test).
const fib25 = "75025"

// BenchmarkFib runs typed fib 25 on the compiled stage, on interp, and natively in Go:
//
//	go test ./compile -run XXX -bench Fib
func BenchmarkFib(b *testing.B) {
	e, err := g.Parse([]byte(fibTyped), g.GTLC)
	if err != nil {
		b.Fatal(err)
	}
	prog, _, err := g.InsertCasts(e)
	if err != nil {
		b.Fatal(err)
	}
	term := g.Translate(g.ED, prog)
	for _, st := range []struct {
		name string
		eval func(g.Semantics, g.Expr, interderive.Options) (g.Answer, error)
	}{{"compile", compile.EvalCast}, {"interp", interp.EvalCast}} {
		b.Run(st.name, func(b *testing.B) {
			for b.Loop() {
				a, err := st.eval(g.ED, term, interderive.Options{})
				if err != nil || a.Observe() != fib25 {
					b.Fatalf("%s: %v, %v", st.name, a.Observe(), err)
				}
			}
		})
	}
	b.Run("native", func(b *testing.B) {
		for b.Loop() {
			if targets.NativeFib(25) != 75025 {
				b.Fatal("native fib")
			}
		}
	})
}
