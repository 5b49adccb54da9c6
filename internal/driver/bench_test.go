package driver

import (
	"fmt"
	"testing"
	"time"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// fibProgram is fib n, fully typed or fully dynamic (every annotation Dyn).
func fibProgram(b *testing.B, n int, dynamic bool) g.Expr {
	src := fmt.Sprintf(`letrec fib: Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib %d`, n)
	if dynamic {
		src = fmt.Sprintf(`letrec fib: Dyn -> Dyn = \k. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib %d`, n)
	}
	e, err := g.Parse([]byte(src), g.GTLC)
	if err != nil {
		b.Fatal(err)
	}
	c, _, err := g.InsertCasts(e)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func nativeFib(n int) int {
	if n < 2 {
		return n
	}
	return nativeFib(n-1) + nativeFib(n-2)
}

// BenchmarkFib runs fib on every stage, typed and dynamic, beside the same function
// written in Go: compare the ratios within one run.
func BenchmarkFib(b *testing.B) {
	for _, dynamic := range []bool{false, true} {
		for _, n := range []int{10, 15} {
			e := g.Translate(g.ED, fibProgram(b, n, dynamic))
			for _, st := range CastStages() {
				if st.Name == "reduction" && n > 10 || st.Name == "closures" && n > 10 {
					continue
				}
				b.Run(fmt.Sprintf("dyn=%v/n=%d/%s", dynamic, n, st.Name), func(b *testing.B) {
					for b.Loop() {
						if _, err := st.Eval(g.ED, e, interderive.Options{}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
	b.Run("native/n=15", func(b *testing.B) {
		for b.Loop() {
			nativeFib(15)
		}
	})
	b.Run("floor/n=15", func(b *testing.B) { // floor.go
		for b.Loop() {
			FloorFib(15)
		}
	})
}

// TestNextTime checks the extrapolation by hand: 1 s at 1000 and 4 s at 2000 grow as
// n², so 4000 takes 16 s; a time that grew less than linearly (1 s, then 1.5 s at
// twice the size) is taken as linear (3 s at 4000).
func TestNextTime(t *testing.T) {
	for _, tc := range []struct {
		t0, t1 time.Duration
		want   time.Duration
	}{
		{time.Second, 4 * time.Second, 16 * time.Second},
		{time.Second, 1500 * time.Millisecond, 3 * time.Second},
	} {
		got, ok := NextTime(BenchRow{Size: "1000", Time: tc.t0}, BenchRow{Size: "2000", Time: tc.t1}, "4000")
		if !ok || (got-tc.want).Abs() > time.Millisecond {
			t.Errorf("NextTime(%s, %s) = %s, %v; want %s", tc.t0, tc.t1, got, ok, tc.want)
		}
	}
	if _, ok := NextTime(BenchRow{Size: "a", Time: time.Second}, BenchRow{Size: "2000", Time: time.Second}, "4000"); ok {
		t.Errorf("NextTime extrapolated from a size that is not a number")
	}
}

// BenchmarkSum runs the refocusing target's non-tail recursion (testdata/bench
// sum.gtlc) on the refocused stages at a shallow and a deep size: the time per
// contraction should not grow with the depth.
func BenchmarkSum(b *testing.B) {
	suite, err := LoadBench("../../testdata/bench")
	if err != nil {
		b.Fatal(err)
	}
	var p BenchProgram
	for _, q := range suite {
		if q.Name == "sum.gtlc" {
			p = q
		}
	}
	for _, n := range []string{"125", "2000"} {
		prog, err := p.Lang.Load([]byte(p.Source(n)))
		if err != nil {
			b.Fatal(err)
		}
		for _, stage := range []string{"machine", "cps2", "interp"} {
			b.Run("n="+n+"/"+stage, func(b *testing.B) {
				for b.Loop() {
					if _, err := prog.Run(stage, "ed", interderive.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
