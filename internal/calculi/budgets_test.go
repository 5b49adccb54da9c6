package calculi_test

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
)

// loopSrc loops for ever, on every stage.
const loopSrc = `letrec loop: Int -> Int = \x:Int. loop x in loop 0`

// probeWriter discards what it is given, and once it has been given at bytes, looks
// at the live heap after a collection.
type probeWriter struct {
	n, at int
	live  int64
}

func (w *probeWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	if w.live == 0 && w.n >= w.at {
		runtime.GC()
		w.live = interderive.LiveHeap()
	}
	return len(p), nil
}

// TestSideBySideStreams: trace --stage all of a loop writes its rows as the stages go,
// keeping a few rows per stage: after 12 MB of text (of about 18 MB for 20,000
// contractions, at some 900 bytes a contraction), the live heap is a few mebibytes,
// where a trace collected whole would hold it all. The fuel ran out on every stage.
func TestSideBySideStreams(t *testing.T) {
	w := newBench(t)
	c, p := load(t, w, "gtlc", loopSrc)
	out := &probeWriter{at: 12 << 20}
	err := w.WriteSideBySide(out, c, p, "ed", "", interderive.Options{Fuel: 20_000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 20_000 {
		t.Errorf("error %v, want out of fuel after 20000", err)
	}
	if out.live == 0 || out.live > 8<<20 {
		t.Errorf("live heap %s after %d bytes of trace, want under 8 MiB", interderive.FormatBytes(out.live), out.n)
	}
}

// TestSideBySideBudgets: every lane of trace --stage all stops at the budget, and the
// trace says which (Err): out of fuel after 50 contractions; timed out, the stages
// running within one time budget, each lane saying so.
func TestSideBySideBudgets(t *testing.T) {
	w := newBench(t)
	c, p := load(t, w, "gtlc", loopSrc)
	s, err := w.SideBySide(c, p, "ed", "", interderive.Options{Fuel: 50})
	if err != nil || !errors.Is(s.Err(), interderive.ErrOutOfFuel) {
		t.Fatalf("%v, %v", err, s.Err())
	}
	for _, l := range s.Lanes {
		if l.Error != "out of fuel after 50 contractions" || len(l.Rules) != 50 {
			t.Errorf("%s: %q after %d contractions", l.Stage, l.Error, len(l.Rules))
		}
	}
	start := time.Now()
	var b bytes.Buffer
	err = w.WriteSideBySide(&b, c, p, "ed", "", interderive.Options{Fuel: 1 << 40, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, interderive.ErrTimeout) || strings.Count(b.String(), "timed out after 200ms") != len(s.Lanes) {
		t.Errorf("%v after %s; the trace ends:\n%s", err, time.Since(start), b.String()[max(0, b.Len()-500):])
	}
}

// shared40 is a differentiable program whose value is a tuple of 2^40 leaves, built by
// sharing: printed, eight terabytes.
func shared40() string {
	var b strings.Builder
	b.WriteString("let a0 = 1 in ")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "let a%d = <a%d, a%d> in ", i, i-1, i-1)
	}
	b.WriteString("a40")
	return b.String()
}

// TestAnswerWithinBudgets: a value of 2^40 leaves is not printed whole: within an
// output budget it is an *interderive.OutputError, and without one, printing stops at
// the time budget or the memory budget.
func TestAnswerWithinBudgets(t *testing.T) {
	w := newBench(t)
	c, p := load(t, w, "dpl", shared40())
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(64 << 20) // as the command sets it for --memory
	for _, tc := range []struct {
		name string
		opts interderive.Options
		want error
	}{
		{"output", interderive.Options{Output: 1 << 20}, interderive.ErrOutputLimit},
		{"time", interderive.Options{Timeout: 100 * time.Millisecond}, interderive.ErrTimeout},
		{"memory", interderive.Options{Memory: 64 << 20}, interderive.ErrOutOfMemory},
	} {
		if testing.Short() && tc.name == "memory" {
			continue // filling 64 MiB takes over a second: the full run checks the memory budget
		}
		out, err := p.Run(stage(t, w, c, "interp"), "tape", tc.opts)
		if !errors.Is(err, tc.want) || out.Value != "" {
			t.Errorf("%s: %v (%d bytes), want %v", tc.name, err, len(out.Value), tc.want)
		}
	}
	var oe *interderive.OutputError
	if _, err := p.Run(stage(t, w, c, "machine"), "tape", interderive.Options{Output: 1 << 20}); !errors.As(err, &oe) || oe.Error() != "the value prints in more than 1 MiB" {
		t.Errorf("%v", err)
	}
	// A trace cuts its items at the budget and marks them, and stops at the answer.
	var b bytes.Buffer
	_, err := w.Trace(&b, c, p, "interp", "tape", "", interderive.Options{Output: 1 << 10})
	if !errors.Is(err, interderive.ErrOutputLimit) || !strings.Contains(b.String(), " … [cut at 1 KiB]") || b.Len() > 64<<10 {
		t.Errorf("trace: %v, %d bytes", err, b.Len())
	}
}

// TestCompareLoop: a real loop under a budget of a few milliseconds, in which the
// stages stop at different points (each at its clock): no disagreement, a partial
// comparison naming every stage as cut by the time budget.
func TestCompareLoop(t *testing.T) {
	w := newBench(t)
	c, p := load(t, w, "gtlc", loopSrc)
	cmp, err := w.Compare(c, p, []string{"ed"}, "", interderive.Options{Timeout: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Disagreements) > 0 || len(cmp.Partial) != 1 || len(cmp.Partial[0].Cut) != len(w.StagesOf(c)) {
		t.Fatalf("disagreements %v, partial %+v; want every stage cut and no disagreement", cmp.Disagreements, cmp.Partial)
	}
	for _, r := range cmp.Partial[0].Cut {
		if !errors.Is(r.Err, interderive.ErrTimeout) || r.Answer() != "timed out" {
			t.Errorf("%s: %v", r.Stage, r.Err)
		}
	}
}
