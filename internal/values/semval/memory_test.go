package semval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
)

// liveAt runs (run (gen n (lam x x) (nil))) of testdata/layer-growth.sem on a stage
// and returns how much the live heap grew from before the run to its n-th contraction,
// where the live term is a list of n elements (the file's comment derives it).
func liveAt(t *testing.T, s sem.Stage, l *sem.Language, n int) int64 {
	t.Helper()
	prog, err := l.ReadTerm(fmt.Appendf(nil, "(run (gen %d (lam x x) (nil)))", n))
	if err != nil {
		t.Fatal(err)
	}
	live := func() int64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	var at int64
	steps := 0
	before := live()
	a, err := s.Eval(l, prog, interderive.Options{OnContract: func(string) {
		if steps++; steps == n {
			at = live()
		}
	}})
	if err != nil || sem.Format(a.Value) != "0" || steps != n+2 {
		t.Fatalf("(gen %d ...): %v, %v after %d contractions; want 0 after %d", n, a.Value, err, steps, n+2)
	}
	return at - before
}

// TestMemoryFollowsTheLiveTerm: on the stages over closures, a rule whose inner layer
// calls a function on a term that grows (testdata/layer-growth.sem) takes memory in
// proportion to the live term, not to the run's history: at 4N contractions the heap
// has grown about 4 times what it had at N (a list 4 times as long), where a stage that
// keeps every intermediate term (the read-back of every closure the function was
// given, N²/2 list cells) grows 16 times as much. The bound allows twice the linear
// growth, and a constant for the collector's noise.
func TestMemoryFollowsTheLiveTerm(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "layer-growth.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	const n = 150
	for _, s := range []struct {
		name  string
		stage sem.Stage
	}{
		{"closures", closures.Stage{}.Rules()},
		{"machine", machine.Stage{}.Rules()},
		{"cps2", cps2.Stage{}.Rules()},
		{"interp", interp.Stage{}.Rules()},
	} {
		small, large := liveAt(t, s.stage, l, n), liveAt(t, s.stage, l, 4*n)
		if large > 8*max(small, 0)+256<<10 {
			t.Errorf("%s: the live heap grew by %s at %d contractions and by %s at %d: more than the live term's growth",
				s.name, interderive.FormatBytes(small), n, interderive.FormatBytes(large), 4*n)
		}
	}
}
