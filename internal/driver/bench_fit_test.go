package driver

import (
	"math"
	"testing"
	"time"

	"github.com/interderive/interderive"
)

// TestGrowthExponent fits rows made to grow exactly as contractions^k.
func TestGrowthExponent(t *testing.T) {
	for _, k := range []float64{1, 2, 1.5} {
		var rows []BenchRow
		for _, n := range []int{100, 200, 400, 800} {
			rows = append(rows, BenchRow{Contractions: n, Time: time.Duration(3 * math.Pow(float64(n), k))})
		}
		if got := GrowthExponent(rows); math.Abs(got-k) > 1e-4 { // durations are whole nanoseconds
			t.Errorf("exponent %v, want %v", got, k)
		}
	}
	if got := GrowthExponent([]BenchRow{{Contractions: 10, Time: time.Second}}); !math.IsNaN(got) {
		t.Errorf("one point: %v, want NaN", got)
	}
}

// TestBenchSuite loads the suite and runs every program at its smallest size on every
// stage: the benchmarks' answers are those of the stages, and every stage agrees.
func TestBenchSuite(t *testing.T) {
	progs, err := LoadBench("../../testdata/bench")
	if err != nil || len(progs) == 0 {
		t.Fatalf("%d programs, %v", len(progs), err)
	}
	for _, p := range progs {
		var answers []string
		for _, stage := range p.Lang.Stages() {
			r := RunBench(p, p.Sizes[0], stage, p.Lang.DefaultVariant(), interderive.Options{})
			if r.Err != nil {
				t.Errorf("%s at %s on %s: %v", p.Name, p.Sizes[0], stage, r.Err)
			}
			answers = append(answers, r.Answer)
		}
		for _, a := range answers[1:] {
			if a != answers[0] {
				t.Errorf("%s: the stages answer %v", p.Name, answers)
			}
		}
	}
}
