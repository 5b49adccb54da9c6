package driver

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
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

// TestBenchSuite loads the suite and runs every program (every typing configuration)
// at its smallest size on every stage: every stage agrees, and with the answer the
// program states at that size, if it states one.
func TestBenchSuite(t *testing.T) {
	progs, err := LoadBench("../../testdata/bench")
	if err != nil || len(progs) == 0 {
		t.Fatalf("%d programs, %v", len(progs), err)
	}
	for _, p := range progs {
		for _, cf := range p.Configurations() {
			size := cf.Program.Sizes[0]
			var answers []string
			for _, stage := range p.Lang.Stages() {
				r := RunOnce(cf.Program, size, stage, p.Lang.DefaultVariant(), interderive.Options{})
				if r.Err != nil || r.Mismatch != "" {
					t.Errorf("%s [%s] at %s on %s: %q (want %q), %v", p.Name, cf.Label(), size, stage, r.Answer, r.Mismatch, r.Err)
				}
				answers = append(answers, r.Answer)
			}
			for _, a := range answers[1:] {
				if a != answers[0] {
					t.Errorf("%s [%s]: the stages answer %v", p.Name, cf.Label(), answers)
				}
			}
		}
	}
}

// TestConfigurations expands two optional annotations, one written twice, into the
// four configurations, fully dynamic first.
func TestConfigurations(t *testing.T) {
	p, err := ParseBench("c.gtlc", []byte("-- sizes: 1\nletrec f: {a:Int} -> Int = \\x:{a:Int}. x in f ({b:Int} 1)"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Configurations() {
		got = append(got, c.Label()+" | "+c.Program.Source("1")[len("-- sizes: 1\n"):])
	}
	want := []string{
		`dynamic | letrec f: Dyn -> Int = \x:Dyn. x in f (Dyn 1)`,
		`a | letrec f: Int -> Int = \x:Int. x in f (Dyn 1)`,
		`b | letrec f: Dyn -> Int = \x:Dyn. x in f (Int 1)`,
		`a,b | letrec f: Int -> Int = \x:Int. x in f (Int 1)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBenchSource fills in {n} and {B^n}: 2^10 = 1024, 1.5^2 = 2.25.
func TestBenchSource(t *testing.T) {
	p := BenchProgram{Text: "{n} {2^n} {1.5^n}"}
	if got := p.Source("10"); got != "10 1024 57.6650390625" {
		t.Errorf("got %q", got)
	}
	if got := p.Source("2"); got != "2 4 2.25" {
		t.Errorf("got %q", got)
	}
}

// TestPhases: the tape target times R through a Differentiator that delegates to tape
// (timedR), so the gradient it cuts into phases is the program's: the same answer as
// the run under tape itself, with one R (the program has one rd) that took some time.
func TestPhases(t *testing.T) {
	progs, err := LoadBench("../../testdata/bench")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(progs, func(p BenchProgram) bool { return p.Name == "grad-chain.dpl" })
	if i < 0 {
		t.Fatal("no grad-chain.dpl")
	}
	p := progs[i]
	const size = "1000"
	prog, err := p.Lang.Load([]byte(p.Source(size)))
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"machine", "cps2", "interp"} {
		st, _, err := prog.(dplProgram).prepare(stage, "tape")
		if err != nil {
			t.Fatal(err)
		}
		want, err := prog.Run(stage, "tape", interderive.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var first, last time.Time
		var spent time.Duration
		a, err := st.Eval(timedR{dpl.Tape, &first, &last, &spent}, prog.(dplProgram).term, interderive.Options{})
		if err != nil || a.Observe() != want.Observation || spent <= 0 || last.Sub(first) != spent {
			t.Errorf("%s: %s (want %s), %v; R from %v to %v, %v in all", stage, a, want.Observation, err, first, last, spent)
		}
		if ph, err := phases(p, size, stage); err != nil || ph.Before <= 0 || ph.R <= 0 || ph.After <= 0 {
			t.Errorf("%s: phases %+v, %v", stage, ph, err)
		}
	}
	if _, err := phases(progs[slices.IndexFunc(progs, func(p BenchProgram) bool { return p.Name == "forward-chain.dpl" })], size, "interp"); err == nil {
		t.Error("phases of a program without rd: no error")
	}
}
