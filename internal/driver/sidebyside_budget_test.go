package driver

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

func loadGradual(t *testing.T, cast bool, src string) Program {
	t.Helper()
	p, err := gradualLang{cast: cast}.Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const loopSrc = `letrec loop: Int -> Int = \x:Int. loop x in loop 0`

// TestTraceClosuresNamesEnvironments: the calculus of closures' trace of PEPM 2014's
// example, by hand: beta binds x to the value <Int!> 1[ε] in front of the lambda's
// environment ε, an environment the trace names ρ1 where it first appears and uses
// by name after; the lookup of x in ρ1 finds the value.
func TestTraceClosuresNamesEnvironments(t *testing.T) {
	p := loadGradual(t, true, `(\x:Dyn. x) (<Dyn <= Int>^l1 1)`)
	var b bytes.Buffer
	if _, err := p.Trace(&b, "closures", "ed", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	want := `semantics ed, stage closures
term       (\x:Dyn. x) (<Int!> 1)
  (expand) ((\x:Dyn. x) (<Int!> 1))[ε]  ~>  ((\x:Dyn. x)[ε]) · ((<Int!> 1)[ε])
  (expand) (<Int!> 1)[ε]  ~>  <Int!> 1[ε]

step 1: beta
  ρ1 = (x ↦ <Int!> 1[ε]) : ε
  context    []
  redex      ((\x:Dyn. x)[ε]) · (<Int!> 1[ε])
  contractum x[ρ1]
  closure    x[ρ1]
  (lookup) x[ρ1]  ~>  <Int!> 1[ε]
answer     <Int!> 1
`
	if b.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", b.String(), want)
	}
}

// nestedLets is n nested lets of functions, each calling the one before, applied to 0:
// every function's closure holds the environment of all the ones before it.
func nestedLets(n int) string {
	var b strings.Builder
	b.WriteString(`let f1 = \y:Int. y in `)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, `let f%d = \y:Int. f%d y in `, i, i-1)
	}
	fmt.Fprintf(&b, "f%d 0", n)
	return b.String()
}

// TestTraceClosuresGrowsWithTheRun: with its environments printed whole, the closures'
// trace of 16 nested lets of functions was 8.3 MB, doubling with every let; named, it
// grows with the run: the steps and the terms they show are linear in the number of
// lets, so the trace is at most quadratic, about 4 times longer for twice as many.
func TestTraceClosuresGrowsWithTheRun(t *testing.T) {
	size := func(n int) int {
		var b bytes.Buffer
		if _, err := loadGradual(t, false, nestedLets(n)).Trace(&b, "closures", "ed", interderive.Options{}); err != nil {
			t.Fatal(err)
		}
		return b.Len()
	}
	if s8, s16 := size(8), size(16); s16 > 6*s8 {
		t.Errorf("the trace of 8 lets is %d bytes, of 16 lets %d: more than quadratic", s8, s16)
	}
}

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
	p := loadGradual(t, false, loopSrc).(SideBySider)
	w := &probeWriter{at: 12 << 20}
	err := p.WriteSideBySide(w, "ed", interderive.Options{Fuel: 20_000})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 20_000 {
		t.Errorf("error %v, want out of fuel after 20000", err)
	}
	if w.live == 0 || w.live > 8<<20 {
		t.Errorf("live heap %s after %d bytes of trace, want under 8 MiB", interderive.FormatBytes(w.live), w.n)
	}
}

// TestSideBySideBudgets: every lane of trace --stage all stops at the budget, and the
// trace says which (Err): out of fuel after 50 contractions; timed out, the stages
// running within one time budget.
func TestSideBySideBudgets(t *testing.T) {
	p := loadGradual(t, false, loopSrc).(SideBySider)
	s, err := p.SideBySide("ed", interderive.Options{Fuel: 50})
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
	err = p.WriteSideBySide(&b, "ed", interderive.Options{Fuel: 1 << 40, Timeout: 200 * time.Millisecond})
	if !errors.Is(err, interderive.ErrTimeout) || strings.Count(b.String(), "timed out after 200ms") != 5 {
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
	p, err := DPL().Load([]byte(shared40()))
	if err != nil {
		t.Fatal(err)
	}
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
		out, err := p.Run("interp", "tape", tc.opts)
		if !errors.Is(err, tc.want) || out.Value != "" {
			t.Errorf("%s: %v (%d bytes), want %v", tc.name, err, len(out.Value), tc.want)
		}
	}
	var oe *interderive.OutputError
	if _, err := p.Run("machine", "tape", interderive.Options{Output: 1 << 20}); !errors.As(err, &oe) || oe.Error() != "the value prints in more than 1 MiB" {
		t.Errorf("%v", err)
	}
	// A trace cuts its items at the budget and marks them, and stops at the answer.
	var b bytes.Buffer
	_, err = p.Trace(&b, "interp", "tape", interderive.Options{Output: 1 << 10})
	if !errors.Is(err, interderive.ErrOutputLimit) || !strings.Contains(b.String(), " … [cut at 1 KiB]") || b.Len() > 64<<10 {
		t.Errorf("trace: %v, %d bytes", err, b.Len())
	}
}
