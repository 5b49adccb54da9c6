package workbench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interderive/interderive"
)

// A BenchProgram is a program of the benchmark suite (testdata/bench/NAME.EXT.in),
// parameterised by a size n written {n} in its text, in the language of extension
// EXT. Comments carry its settings:
//
//	-- sizes: 10, 20, 40          the sizes the suite runs it at
//	-- answer 10: 55              the answer at a size (checked by every run at that size)
//	-- answer 10: ~ 1.99989       the same, to a relative 1e-9
//	-- peer redex: 14             the sizes a peer runs it at (bench --peer, Peers)
//
// Besides {n}, the text may write {B^n}: the real number B to the power n (so that a
// loop bounded by a real runs about n times), and {repeat n: TEXT}: TEXT n times (so
// that a calculus without recursion nests n applications: f ({repeat n:step (}p{repeat n:)})).
//
// A program of a calculus whose annotations are optional (a DynamicTyper) may also
// mark optional type annotations {name:T}: each name is one annotation (all its
// occurrences go together), and Configurations expands the program into one program
// per subset of the annotations kept, the others the calculus's DynamicType.
type BenchProgram struct {
	Name     string // NAME.EXT
	Calculus Calculus
	Lang     string // EXT
	Text     string
	Sizes    []string
	Answers  map[string]string   // size -> expected observation
	Peers    map[string][]string // peer -> sizes it runs the program at (-- peer NAME: sizes)
}

// LoadBench reads the suite's programs from a directory, each in the calculus of its
// extension (LoadBenchDefined with no definition flag).
func (w *Workbench) LoadBench(dir string) ([]BenchProgram, error) {
	return w.LoadBenchDefined(dir, nil)
}

// LoadBenchDefined reads the suite's programs from a directory, each in the calculus
// of its extension; a program of a Family is in the calculus its definition makes
// (Define), found as run, check and trace find it: the file the definition flag names
// in defs (by flag), else the one the program's text names, else the one beside its
// directory. A definition that cannot be made is the program's error, and the suite's:
// nothing runs.
func (w *Workbench) LoadBenchDefined(dir string, defs map[string]string) ([]BenchProgram, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.in"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var progs []BenchProgram
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p, err := w.ParseBench(strings.TrimSuffix(filepath.Base(f), ".in"), src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if p.Calculus, err = w.Define(p.Calculus, defs, f, src); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		progs = append(progs, p)
	}
	return progs, nil
}

// ParseBench reads a benchmark program's settings; name is NAME.EXT, EXT a registered
// language's extension. The settings are line comments of the calculus ("-- sizes:",
// or "; sizes:" for a calculus whose comments start with ";": a Commenter).
func (w *Workbench) ParseBench(name string, src []byte) (BenchProgram, error) {
	c, l, err := w.LanguageFor(name, "")
	if err != nil {
		return BenchProgram{}, err
	}
	cm := lineComment(c)
	p := BenchProgram{Name: name, Calculus: c, Lang: l.Ext, Text: string(src), Answers: map[string]string{}, Peers: map[string][]string{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		comment, ok := strings.CutPrefix(line, cm+" ")
		if !ok {
			continue
		}
		if rest, ok := strings.CutPrefix(comment, "sizes:"); ok {
			for _, s := range strings.Split(rest, ",") {
				p.Sizes = append(p.Sizes, strings.TrimSpace(s))
			}
		}
		if rest, ok := strings.CutPrefix(comment, "peer "); ok {
			if err := parsePeerLine(rest, p.Peers); err != nil {
				return BenchProgram{}, err
			}
		}
		if rest, ok := strings.CutPrefix(comment, "answer "); ok {
			size, ans, ok := strings.Cut(rest, ":")
			if !ok {
				return BenchProgram{}, fmt.Errorf("%q: want %s answer SIZE: ANSWER", line, cm)
			}
			ans = strings.TrimSpace(ans)
			if v, ok := strings.CutPrefix(ans, "~"); ok {
				ans = approxPrefix + strings.TrimSpace(v)
			}
			p.Answers[strings.TrimSpace(size)] = ans
		}
	}
	if len(p.Sizes) == 0 {
		return BenchProgram{}, fmt.Errorf("no %s sizes: comment", cm)
	}
	return p, nil
}

// power matches a placeholder {B^n}.
var power = regexp.MustCompile(`\{([0-9.]+)\^n\}`)

// repeat matches a placeholder {repeat n: TEXT}, whose TEXT may hold braces one deep
// (a handler's { ... }).
var repeat = regexp.MustCompile(`\{repeat n:((?:[^{}]|\{[^{}]*\})*)\}`)

// Source is the program's text at a size: {n} is the size, {B^n} is B to its power,
// {repeat n: TEXT} is TEXT that many times.
func (p BenchProgram) Source(size string) string {
	n, _ := strconv.ParseFloat(size, 64)
	s := repeat.ReplaceAllStringFunc(p.Text, func(m string) string {
		return strings.Repeat(repeat.FindStringSubmatch(m)[1], max(0, int(n)))
	})
	s = power.ReplaceAllStringFunc(s, func(m string) string {
		b, _ := strconv.ParseFloat(power.FindStringSubmatch(m)[1], 64)
		return strconv.FormatFloat(math.Pow(b, n), 'g', -1, 64)
	})
	return strings.ReplaceAll(s, "{n}", size)
}

// annotation matches an optional annotation {name:T}.
var annotation = regexp.MustCompile(`\{(\w+):([^{}]*)\}`)

// A Configuration is one typing configuration of a program with optional
// annotations: Typed lists the annotations kept (sorted), the others are Dyn.
type Configuration struct {
	Typed   []string
	Program BenchProgram
}

// Label names the configuration: the annotations kept, "dynamic" for none.
func (c Configuration) Label() string {
	if len(c.Typed) == 0 {
		return "dynamic"
	}
	return strings.Join(c.Typed, ",")
}

// Configurations expands a program with optional annotations into its 2^k typing
// configurations, the fully dynamic one first and the fully typed one last; a program
// without any has one configuration, itself, and so has a program of a calculus that
// is not a DynamicTyper: every annotation kept.
func (p BenchProgram) Configurations() []Configuration {
	dyn, ok := p.Calculus.(DynamicTyper)
	if !ok {
		q := p
		q.Text = annotation.ReplaceAllString(p.Text, "$2")
		var typed []string
		for _, m := range annotation.FindAllStringSubmatch(p.Text, -1) {
			if !slices.Contains(typed, m[1]) {
				typed = append(typed, m[1])
			}
		}
		sort.Strings(typed)
		return []Configuration{{Typed: typed, Program: q}}
	}
	var names []string
	seen := map[string]bool{}
	for _, m := range annotation.FindAllStringSubmatch(p.Text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			names = append(names, m[1])
		}
	}
	sort.Strings(names)
	var out []Configuration
	for mask := 0; mask < 1<<len(names); mask++ {
		keep := map[string]bool{}
		var typed []string
		for i, n := range names {
			if mask&(1<<i) != 0 {
				keep[n] = true
				typed = append(typed, n)
			}
		}
		q := p
		q.Text = annotation.ReplaceAllStringFunc(p.Text, func(s string) string {
			m := annotation.FindStringSubmatch(s)
			if keep[m[1]] {
				return m[2]
			}
			return dyn.DynamicType()
		})
		out = append(out, Configuration{Typed: typed, Program: q})
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Typed) < len(out[j].Typed) })
	return out
}

// A BenchRow is one measured run; Stage is the stage's name.
type BenchRow struct {
	Program, Size, Stage, Variant string
	Answer                        string
	Contractions                  int
	Time                          time.Duration // the mean of the repetitions (Timing.Mean)
	Timing                        Timing        // the repetitions, in rounds
	PeakHeap                      uint64        // heap in use at the highest sample, above the heap before the run
	PeakAbs                       uint64        // heap in use at the highest sample, the process's whole heap
	Err                           error
	// Mismatch is set when the program states an answer at this size and the run
	// gave another.
	Mismatch string
}

// MinBenchTime is how long RunBench repeats a fast run to time it, over all its rounds.
// It reports the mean time of the repetitions, so that every run pays its share of
// collecting the garbage the runs make: the fastest repetition of a small run would be
// one that no collection interrupted, and a small run would look cheaper per
// contraction than a large one.
const MinBenchTime = 60 * time.Millisecond

// batchTime is how long a batch of runs TimeRounds times at once grows to.
const batchTime = 100 * time.Microsecond

// Rounds is how many rounds TimeRounds times a run in: each repeats the run, at least
// once, for MinBenchTime/Rounds, so that the spread of the rounds' means says how far
// the mean can be trusted (benchstat reads one line per round: bench --format
// gobench; it needs six for a confidence interval). A run longer than LongRun is
// timed in MinRounds rounds only.
const (
	Rounds    = 6
	MinRounds = 3
	LongRun   = time.Second
)

// A Round is one round of a timing: N runs whose mean time is PerRun.
type Round struct {
	N      int
	PerRun time.Duration
}

// A Timing is the rounds of repeated runs that time one run.
type Timing struct {
	Rounds []Round
}

// Mean is the mean time of every run of every round.
func (t Timing) Mean() time.Duration {
	var total time.Duration
	n := 0
	for _, r := range t.Rounds {
		total += r.PerRun * time.Duration(r.N)
		n += r.N
	}
	if n == 0 {
		return 0
	}
	return total / time.Duration(n)
}

// Spread is half the range of the rounds' means, relative to the mean: the mean is
// within ±Spread of every round's (NaN with fewer than two rounds).
func (t Timing) Spread() float64 {
	if len(t.Rounds) < 2 {
		return math.NaN()
	}
	lo, hi := t.Rounds[0].PerRun, t.Rounds[0].PerRun
	for _, r := range t.Rounds[1:] {
		lo, hi = min(lo, r.PerRun), max(hi, r.PerRun)
	}
	return float64(hi-lo) / 2 / float64(t.Mean())
}

// RunBench runs a program at one size on one stage under one variant, with opts as
// given (in each stage's default mode, unless the caller applied one): once while
// sampling the heap (RunOnce), for its answer, contractions and peak heap, then again
// in Rounds rounds (TimeRounds); the time is the mean of the runs after the first. (The
// sampling stops the world every millisecond to read the heap, which slows a long run
// with a large heap by a third or more: timing that run would weigh on long runs only,
// as the gradient against its forward run.)
func RunBench(p BenchProgram, size string, stage interderive.Stage, variant string, opts interderive.Options) BenchRow {
	row, prog := runOnce(p, size, stage, variant, opts)
	if row.Err != nil {
		return row
	}
	opts.OnContract = nil
	t, err := TimeRounds(func() error {
		_, err := runSafely(prog, stage, variant, opts)
		return err
	})
	if err != nil {
		row.Err = err
		return row
	}
	row.Timing, row.Time = t, t.Mean()
	return row
}

// TimeIt returns the mean time of runs of f (TimeRounds).
func TimeIt(f func() error) (time.Duration, error) {
	t, err := TimeRounds(f)
	return t.Mean(), err
}

// TimeRounds times f in Rounds rounds (MinRounds if a run takes longer than LongRun),
// each repeating f, at least once, until MinBenchTime/Rounds has passed. The runs are
// timed in batches, as testing.B times its b.N: a batch doubles until it takes
// batchTime, so that a run of a microsecond is not timed with the clock's own reads
// (some 40 ns each) in it.
func TimeRounds(f func() error) (Timing, error) { return TimeRoundsOver(MinBenchTime, f) }

// TimeRoundsOver is TimeRounds with its rounds repeating f for total, all told, in
// place of MinBenchTime: a time compared with a peer's is measured over as long as the
// peer's (bench --peer redex --model).
func TimeRoundsOver(total time.Duration, f func() error) (Timing, error) {
	var t Timing
	for len(t.Rounds) < Rounds {
		spent, n := time.Duration(0), 0
		for batch := 1; n == 0 || spent < total/Rounds; n += batch {
			start := time.Now()
			for range batch {
				if err := f(); err != nil {
					return t, err
				}
			}
			d := time.Since(start)
			spent += d
			if d < batchTime {
				batch *= 2
			}
		}
		t.Rounds = append(t.Rounds, Round{N: n, PerRun: spent / time.Duration(n)})
		if len(t.Rounds) >= MinRounds && spent/time.Duration(n) > LongRun {
			break
		}
	}
	return t, nil
}

// RunOnce runs a program at one size on one stage under one variant, once, sampling
// the heap every millisecond (the peak is approximate, and grows with the live data
// the run holds), and checks the answer the program states at that size.
// opts.OnContract is not available: the run counts its contractions.
func RunOnce(p BenchProgram, size string, stage interderive.Stage, variant string, opts interderive.Options) BenchRow {
	row, _ := runOnce(p, size, stage, variant, opts)
	return row
}

func runOnce(p BenchProgram, size string, stage interderive.Stage, variant string, opts interderive.Options) (BenchRow, Program) {
	row := BenchRow{Program: p.Name, Size: size, Stage: stage.Name(), Variant: variant}
	prog, err := p.Calculus.Load(p.Lang, []byte(p.Source(size)))
	if err != nil {
		row.Err = err
		return row, nil
	}
	opts.OnContract = nil
	var out Outcome
	row.PeakHeap, row.PeakAbs, row.Time, out, err = measure(func() (Outcome, error) { return runSafely(prog, stage, variant, opts) })
	row.Answer, row.Contractions, row.Err = out.Observation, out.Steps, err
	if want, ok := p.Answers[size]; ok && err == nil && !MatchesIn(p.Calculus, want, row.Answer, out) {
		row.Mismatch = want
	}
	return row, prog
}

// measure runs f once, sampling the heap every millisecond, and returns the highest
// heap in use above the heap in use before the run, the highest heap in use, and the
// run's time.
func measure(f func() (Outcome, error)) (peak, abs uint64, d time.Duration, out Outcome, err error) {
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peakA, absA atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func(m *runtime.MemStats) {
		runtime.ReadMemStats(m)
		if m.HeapInuse > absA.Load() {
			absA.Store(m.HeapInuse)
		}
		if m.HeapInuse > base.HeapInuse && m.HeapInuse-base.HeapInuse > peakA.Load() {
			peakA.Store(m.HeapInuse - base.HeapInuse)
		}
	}
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				sample(&m)
			}
		}
	}()
	start := time.Now()
	out, err = f()
	d = time.Since(start)
	close(stop)
	wg.Wait()
	var m runtime.MemStats
	sample(&m) // a run shorter than a millisecond has one sample
	return peakA.Load(), absA.Load(), d, out, err
}

// ErrNoRSS says that the peak memory of a process cannot be measured here (PeakRSS).
var ErrNoRSS = errors.New("the peak memory of a process is not available on this system")

// NextTime extrapolates the time of a run at size next from two runs at smaller
// sizes: t_last · (next/last)^k, where k is the exponent of the two runs' times
// against their sizes, at least 1 (a time that grew less than linearly is taken as
// linear). ok is false when a size is not a number or a run failed.
func NextTime(prev, last BenchRow, next string) (time.Duration, bool) {
	s0, err0 := strconv.ParseFloat(prev.Size, 64)
	s1, err1 := strconv.ParseFloat(last.Size, 64)
	s2, err2 := strconv.ParseFloat(next, 64)
	if err0 != nil || err1 != nil || err2 != nil || prev.Err != nil || last.Err != nil || s0 <= 0 || s1 <= s0 || s2 <= s1 || prev.Time <= 0 || last.Time <= 0 {
		return 0, false
	}
	k := max(1, math.Log(last.Time.Seconds()/prev.Time.Seconds())/math.Log(s1/s0))
	return time.Duration(float64(last.Time) * math.Pow(s2/s1, k)), true
}

// GrowthExponent fits time = a · contractions^k by least squares on the logarithms and
// returns k (NaN with fewer than two usable points).
func GrowthExponent(rows []BenchRow) float64 {
	var xs, ys []float64
	for _, r := range rows {
		if r.Err == nil && r.Contractions > 0 && r.Time > 0 {
			xs = append(xs, math.Log(float64(r.Contractions)))
			ys = append(ys, math.Log(r.Time.Seconds()))
		}
	}
	n := float64(len(xs))
	if n < 2 {
		return math.NaN()
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / den
}

// Named reports whether a program is the one a name names: its file name without .in
// (sum.EXT), or that without its extension (sum).
func (p BenchProgram) Named(name string) bool {
	return p.Name == name || strings.TrimSuffix(p.Name, filepath.Ext(p.Name)) == name
}
