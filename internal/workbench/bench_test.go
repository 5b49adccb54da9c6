package workbench

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive"
)

// typed is a counter of its own extension whose annotations are optional.
type typed struct{ *counter }

func (typed) DynamicType() string { return "Any" }

func newTyped() typed {
	return typed{&counter{name: "typed", exts: []string{"typ"}, flag: "speed"}}
}

// TestParseBench reads a program's settings, by hand: its sizes, its answers (an
// approximate one marked), and its language by the extension before .in.
func TestParseBench(t *testing.T) {
	w := newBench(t, newCounter(), newTyped())
	p, err := w.ParseBench("down.count", []byte("-- sizes: 10, 20\n-- answer 10: done after 10\n-- answer 20: ~ 1.5\n{n}"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"10": "done after 10", "20": approxPrefix + "1.5"}
	if p.Calculus.Name() != "counter" || p.Lang != "count" || !cmp.Equal(p.Sizes, []string{"10", "20"}) || !cmp.Equal(p.Answers, want) {
		t.Errorf("%+v", p)
	}
	if !p.Named("down") || !p.Named("down.count") || p.Named("down.tally") {
		t.Errorf("Named")
	}
	for _, tc := range []struct{ name, src, want string }{
		{"c.count", "{n}", "no -- sizes: comment"},
		{"c.count", "-- sizes: 1\n-- answer 1 done\n{n}", `"-- answer 1 done": want -- answer SIZE: ANSWER`},
		{"c.txt", "-- sizes: 1\n{n}", `c.txt: cannot tell the language from the extension ".txt"; use --lang`},
	} {
		if _, err := w.ParseBench(tc.name, []byte(tc.src)); err == nil || err.Error() != tc.want {
			t.Errorf("%s %q: error %v, want %q", tc.name, tc.src, err, tc.want)
		}
	}
}

// TestBenchSource fills in {n} and {B^n}: 2^10 = 1024, 1.5^10 = 57.6650390625, 1.5^2 =
// 2.25.
func TestBenchSource(t *testing.T) {
	p := BenchProgram{Text: "{n} {2^n} {1.5^n}"}
	if got := p.Source("10"); got != "10 1024 57.6650390625" {
		t.Errorf("got %q", got)
	}
	if got := p.Source("2"); got != "2 4 2.25" {
		t.Errorf("got %q", got)
	}
	// n nested applications, for a calculus without recursion.
	p = BenchProgram{Text: "f ({repeat n:g (}x{repeat n:)}) {n}"}
	for size, want := range map[string]string{"3": "f (g (g (g (x)))) 3", "0": "f (x) 0"} {
		if got := p.Source(size); got != want {
			t.Errorf("at %s: got %q, want %q", size, got, want)
		}
	}
	// A repeated text may hold braces one deep (a handler), and {n} inside it.
	p = BenchProgram{Text: "{repeat n:h {n} { r } in }x"}
	if got, want := p.Source("2"), "h 2 { r } in h 2 { r } in x"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestConfigurations expands two optional annotations, one written twice, into the
// four configurations, the fully unannotated one first (the calculus's DynamicType in
// place of each annotation dropped); a calculus that is not a DynamicTyper keeps them.
func TestConfigurations(t *testing.T) {
	w := newBench(t, newCounter(), newTyped())
	src := []byte("-- sizes: 1\n{f:(A -> B)} {a:A} {a:A}")
	configs := func(name string) []string {
		p, err := w.ParseBench(name, src)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range p.Configurations() {
			got = append(got, c.Label()+" | "+c.Program.Source("1")[len("-- sizes: 1\n"):])
		}
		return got
	}
	want := []string{"dynamic | Any Any Any", "a | Any A A", "f | (A -> B) Any Any", "a,f | (A -> B) A A"}
	if got := configs("c.typ"); !cmp.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := configs("c.count"), []string{"a,f | (A -> B) A A"}; !cmp.Equal(got, want) {
		t.Errorf("without a dynamic type: %q, want %q", got, want)
	}
}

// TestLoadBench reads a suite, sorted, and runs it: by hand, 4 counts down in four
// contractions on every stage, which the stated answer at 4 checks; a wrong stated
// answer is a mismatch; stuck gets stuck from 5 on.
func TestLoadBench(t *testing.T) {
	w := newBench(t)
	dir := writeFiles(t, map[string]string{
		"down.count.in":  "-- sizes: 2, 4\n-- answer 4: done after 4\n-- answer 2: done after 3\n{n}",
		"again.count.in": "-- sizes: 6\n{n}",
		"notes.txt":      "not a program",
	})
	suite, err := w.LoadBench(dir)
	if err != nil || len(suite) != 2 || suite[0].Name != "again.count" || suite[1].Name != "down.count" {
		t.Fatalf("%+v %v", suite, err)
	}
	down := suite[1]
	if r := RunOnce(down, "4", quietStage, "one", interderive.Options{}); r.Err != nil || r.Answer != "done after 4" || r.Contractions != 4 || r.Mismatch != "" || r.Stage != "quiet" {
		t.Errorf("at 4: %+v", r)
	}
	if r := RunBench(down, "2", refStage, "two", interderive.Options{}); r.Err != nil || r.Answer != "done after 1" || r.Mismatch != "done after 3" || r.Time <= 0 {
		t.Errorf("at 2 under two: %+v", r)
	}
	if r := RunBench(suite[0], "6", stuckStage, "one", interderive.Options{}); !errors.Is(r.Err, interderive.ErrStuck) {
		t.Errorf("stuck: %+v", r)
	}
	if _, err := w.LoadBench(filepath.Join(dir, "nowhere")); err != nil {
		t.Errorf("a directory with no program: %v (a suite of none, which bench refuses)", err)
	}
	os.WriteFile(filepath.Join(dir, "bad.count.in"), []byte("{n}"), 0o644)
	if _, err := w.LoadBench(dir); err == nil || !strings.HasSuffix(err.Error(), "bad.count.in: no -- sizes: comment") {
		t.Errorf("a program without sizes: %v", err)
	}
}

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

// TestPeakRSS: a child process's high-water mark is read while it runs (Linux).
func TestPeakRSS(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if runtime.GOOS != "linux" || err != nil {
		t.Skip("reads /proc, runs sleep")
	}
	if peak, err := PeakRSS(exec.Command(sleep, "0.05")); err != nil || peak == 0 {
		t.Errorf("peak %d, %v", peak, err)
	}
}

// TestTiming: the mean is over every run of every round (not the mean of the rounds'
// means), the spread half the range of the rounds' means over the mean.
func TestTiming(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		rounds []Round
		mean   time.Duration
		spread float64 // NaN: fewer than two rounds
	}{
		{nil, 0, math.NaN()},
		{[]Round{{N: 4, PerRun: 2 * ms}}, 2 * ms, math.NaN()},
		// (1·1 + 3·3) / 4 = 2.5 ms; (3 − 1) / 2 / 2.5 = 0.4.
		{[]Round{{N: 1, PerRun: 1 * ms}, {N: 3, PerRun: 3 * ms}}, 2500 * time.Microsecond, 0.4},
		// Equal rounds: no spread.
		{[]Round{{N: 2, PerRun: 5 * ms}, {N: 7, PerRun: 5 * ms}, {N: 1, PerRun: 5 * ms}}, 5 * ms, 0},
	}
	for _, tt := range tests {
		tm := Timing{Rounds: tt.rounds}
		if got := tm.Mean(); got != tt.mean {
			t.Errorf("%v: mean %v, want %v", tt.rounds, got, tt.mean)
		}
		if got := tm.Spread(); !(math.IsNaN(tt.spread) && math.IsNaN(got)) && math.Abs(got-tt.spread) > 1e-12 {
			t.Errorf("%v: spread %v, want %v", tt.rounds, got, tt.spread)
		}
	}
}

// TestTimeRounds: Rounds rounds of at least one run each, every round at least
// MinBenchTime/Rounds long; a run longer than LongRun would make MinRounds (not
// measured here: it would take seconds).
func TestTimeRounds(t *testing.T) {
	calls := 0
	tm, err := TimeRounds(func() error { calls++; time.Sleep(time.Millisecond); return nil })
	if err != nil || len(tm.Rounds) != Rounds {
		t.Fatalf("%v rounds, %v", len(tm.Rounds), err)
	}
	n := 0
	for _, r := range tm.Rounds {
		n += r.N
		if r.N < 1 || time.Duration(r.N)*r.PerRun < MinBenchTime/Rounds {
			t.Errorf("round %+v shorter than %v", r, MinBenchTime/Rounds)
		}
	}
	if n != calls {
		t.Errorf("rounds count %d runs, f ran %d times", n, calls)
	}
	boom := errors.New("boom")
	if _, err := TimeRounds(func() error { return boom }); err != boom {
		t.Errorf("error %v, want boom", err)
	}
}
