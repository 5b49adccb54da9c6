package workbench

import (
	"errors"
	"flag"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// The fuzz engine drives rapid's property checker (generation and shrinking) outside
// a test: rapid reads its settings (seed, number of checks) from the standard flag
// set, as in a test, so the engine sets them there, one round at a time.

// setUpRapid registers the testing flags rapid reads (testing.Short) and parses the
// standard flag set if nobody has (a command that is not a test), and keeps rapid
// from writing fail files: fuzz writes its counterexample itself.
func setUpRapid() {
	testing.Init()
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
	_ = flag.Set("rapid.nofailfile", "true")
}

// fuzzTB lets rapid's property checker (generation and shrinking) run outside a test.
type fuzzTB struct {
	mu     sync.Mutex
	failed bool
}

func (*fuzzTB) Helper()                 {}
func (*fuzzTB) Name() string            { return "interderive-fuzz" }
func (*fuzzTB) Logf(string, ...any)     {}
func (*fuzzTB) Log(...any)              {}
func (*fuzzTB) Skipf(string, ...any)    {}
func (*fuzzTB) Skip(...any)             {}
func (*fuzzTB) SkipNow()                {}
func (t *fuzzTB) Errorf(string, ...any) { t.Fail() }
func (t *fuzzTB) Error(...any)          { t.Fail() }
func (t *fuzzTB) Fatalf(string, ...any) { t.Fail() }
func (t *fuzzTB) Fatal(...any)          { t.Fail() }
func (t *fuzzTB) FailNow()              { t.Fail() }
func (t *fuzzTB) Fail() {
	t.mu.Lock()
	t.failed = true
	t.mu.Unlock()
}
func (t *fuzzTB) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}

// Found is a failing input, kept as rapid shrinks it: the last one recorded is the
// smallest. It also counts what its round's cases did: the distinct programs drawn,
// their outcomes, and each property's checks.
type Found struct {
	mu sync.Mutex
	// Prop is the property that failed, Failure what its failure is called
	// ("disagreement", "preservation fails").
	Prop, Failure string
	// Counterexample is the input, ready to be written to a file.
	Counterexample
	// Round is the round that found it.
	Round int64
	// LineComment starts the comment lines of Text ("--" when empty): the calculus's
	// (Commenter).
	LineComment string
	seen        *caseSet   // every case drawn, nil when not counted
	stats       *fuzzTally // what the run's cases did, nil when not counted
	show        func(string)
	// run is what the current run has done so far: a round's runs are one after
	// another. It counts only if the run turns out to be a case (see fuzz): a run
	// rapid discards (a property skips it, or its data is rejected) may already have
	// drawn a program, run it and checked properties on it, and it is replaced by
	// another; counted, it would make more programs, outcomes and checks than cases.
	run pendingRun
}

// pendingRun is what a run has drawn, reached and checked, until it is counted.
type pendingRun struct {
	drawn   []string
	outcome int // -1: none
	checked []string
}

// begin starts a run: what the previous one did is forgotten (counted or not).
func (c *Found) begin() {
	c.mu.Lock()
	c.run = pendingRun{outcome: -1}
	c.mu.Unlock()
}

// commit counts the current run as a case: its programs, its outcome, its checks.
func (c *Found) commit() {
	c.mu.Lock()
	run := c.run
	c.run = pendingRun{outcome: -1}
	c.mu.Unlock()
	if c.seen != nil {
		for _, text := range run.drawn {
			c.seen.add(text)
		}
	}
	if c.show != nil {
		for _, text := range run.drawn {
			c.show(text)
		}
	}
	if c.stats == nil {
		return
	}
	c.stats.cases.Add(1)
	if run.outcome >= 0 {
		c.stats.outcomes[run.outcome].Add(1)
	}
	for _, prop := range run.checked {
		if n := c.stats.props[prop]; n != nil {
			n.Add(1)
		}
	}
}

// record keeps a counterexample of a property, the last one found in the round.
func (c *Found) record(prop, failure string, ce Counterexample) {
	c.mu.Lock()
	c.Prop, c.Failure, c.Counterexample = prop, failure, ce
	c.mu.Unlock()
}

// shrinking reports whether the round has failed: its runs from then on are rapid's
// reproduction and shrinking of the failure, not cases of their own, and are not
// counted.
func (c *Found) shrinking() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Prop != ""
}

// drawn notes a program a property was checked on, as the text that identifies it
// (the program printed, with what else was drawn for it), counted with the run.
func (c *Found) drawn(text string) {
	c.mu.Lock()
	c.run.drawn = append(c.run.drawn, text)
	c.mu.Unlock()
}

// checked notes a check of the property prop, counted with the run.
func (c *Found) checked(prop string) {
	c.mu.Lock()
	c.run.checked = append(c.run.checked, prop)
	c.mu.Unlock()
}

// reached notes the outcome of the run's program on the reference (its first run,
// in the variant's first mode), counted with the run: a case's program has one
// outcome, however many modes and stages it runs in.
func (c *Found) reached(err error) {
	c.mu.Lock()
	c.run.outcome = outcomeOf(err)
	c.mu.Unlock()
}

// The outcomes of a program's reference run, as fuzz counts them.
const (
	reachedValue = iota // an answer
	reachedError        // the program's run-time error (interderive.RuntimeError)
	reachedStuck        // a stuck state, or another failure: a bug, which lockstep reports
	reachedFuel         // out of fuel
	reachedLimit        // another resource limit: time, memory, depth, output
	outcomeKinds
)

// outcomeOf classifies the error that ended a reference run (nil: an answer).
func outcomeOf(err error) int {
	var rt *interderive.RuntimeError
	switch {
	case err == nil:
		return reachedValue
	case errors.As(err, &rt):
		return reachedError
	case errors.Is(err, interderive.ErrOutOfFuel):
		return reachedFuel
	case errors.Is(err, interderive.ErrResourceLimit):
		return reachedLimit
	}
	return reachedStuck
}

// fuzzTally counts what a run's cases did, shrinking left out: the cases, the
// outcomes of their programs' reference runs, and each property's checks.
type fuzzTally struct {
	cases    atomic.Int64
	outcomes [outcomeKinds]atomic.Int64
	props    map[string]*atomic.Int64 // by property, made before the run
}

func newFuzzTally(props []string) *fuzzTally {
	t := &fuzzTally{props: map[string]*atomic.Int64{}}
	for _, p := range props {
		t.props[p] = new(atomic.Int64)
	}
	return t
}

// caseSet counts distinct texts by their hashes.
type caseSet struct {
	mu     sync.Mutex
	seed   maphash.Seed
	hashes map[uint64]struct{}
}

func newCaseSet() *caseSet {
	return &caseSet{seed: maphash.MakeSeed(), hashes: map[uint64]struct{}{}}
}

func (s *caseSet) add(text string) {
	h := maphash.String(s.seed, text)
	s.mu.Lock()
	s.hashes[h] = struct{}{}
	s.mu.Unlock()
}

func (s *caseSet) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.hashes)
}

// FuzzConfig says how much fuzz runs.
type FuzzConfig struct {
	Count int           // cases (programs), exactly (when Time is 0)
	Jobs  int           // rounds run at once (0: one per core)
	Time  time.Duration // stop starting rounds after this long (0: run Count programs)
	Seed  uint64        // the seed rounds derive theirs from (0: a random one)
	// Show, when not nil, is given the text of every case's program the engine
	// draws (lockstep's), as the case is counted: from the rounds' goroutines, at
	// once, in no order.
	Show func(text string)
}

// FuzzResult is what fuzz found.
type FuzzResult struct {
	Checked int64 // property runs, shrinking and the runs rapid discards included
	// Cases is how many cases were checked, shrinking left out: FuzzConfig.Count
	// (when Time is 0), unless a round failed and the rounds after it stopped.
	Cases int64
	// Distinct is how many distinct cases they drew, of those the engine sees (the
	// variants and programs lockstep draws): -1 when it sees none (the properties of
	// a calculus draw their own inputs).
	Distinct int
	// Values, Errors, Stuck, OutOfFuel and Limited count how the cases' programs ran
	// on the reference stage (the first mode, under lockstep): to an answer, to the
	// program's run-time error, stuck (or failed otherwise), out of fuel, or stopped
	// by another resource limit. Each case's program is counted once, so that under
	// lockstep they add up to Cases, and Distinct is at most Cases.
	Values, Errors, Stuck, OutOfFuel, Limited int64
	// Props are the properties checked, in order, and PropChecks how many cases
	// each was checked on (shrinking and discarded runs left out): Cases, or fewer
	// for a property that applies to some variants only (Property.Applies).
	Props      []string
	PropChecks []int64
	Seed       uint64 // the seed of the run: FuzzConfig.Seed, or the random one drawn
	Found      *Found // the shrunk counterexample of the first failing round, if any
}

// roundSeed is the seed of round i of a run with seed s (splitmix64 of s and i), never
// 0, which rapid reads as "random". Rounds get seeds far apart: rapid checks the cases
// of a round at seeds seed, seed+1, seed+3, ...
func roundSeed(s uint64, i int64) uint64 {
	x := s + uint64(i+1)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	if x == 0 {
		return 1
	}
	return x
}

// roundSize is the most cases a round checks.
const roundSize = 100

// fuzz runs a property in rounds of rapid checks (of roundSize cases, or Count if
// fewer), cfg.Jobs rounds at once, until
// cfg.Count programs have been checked (or the time budget is spent). Round i runs
// with the seed roundSeed(seed, i), so that the rounds differ from one another and a
// run with the same seed and count checks the same programs, on any number of cores;
// and when rounds fail, the counterexample is the first failing round's (the rounds
// after it stop, the ones before it finish), whatever the timing. It returns how many
// property runs were made, how many distinct cases they drew, the seed, and the shrunk
// counterexample, if any.
func fuzz(prop func(*rapid.T, *Found), props []string, cfg FuzzConfig, report func(int64)) FuzzResult {
	if report == nil {
		report = func(int64) {}
	}
	res := FuzzResult{Seed: cfg.Seed}
	for res.Seed == 0 {
		res.Seed = rand.Uint64()
	}
	jobs := cfg.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	setUpRapid()
	var checked atomic.Int64
	seen, tally := newCaseSet(), newFuzzTally(props)
	deadline := time.Now().Add(cfg.Time)
	done := make(chan struct{})
	go func() { // progress
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				report(checked.Load())
			}
		}
	}()
	// A round's size depends on the count alone, not on the number of jobs, so that
	// the rounds, and their seeds, are the same on any number of cores; the last
	// round checks what is left of the count, so that a run checks exactly Count
	// cases.
	size := max(1, min(roundSize, cfg.Count))
	rounds := int64(math.MaxInt64)
	if cfg.Time == 0 {
		rounds = int64((max(cfg.Count, 1) + size - 1) / size)
	}
	sizeOf := func(i int64) int {
		if cfg.Time == 0 && i == rounds-1 {
			return max(cfg.Count, 1) - int(rounds-1)*size
		}
		return size
	}
	// rapid reads its seed and its number of checks from global flags when a check
	// starts: a round holds settings until its property first runs, by which time
	// rapid has read them.
	var settings sync.Mutex
	var next atomic.Int64
	var first sync.Mutex // guards found
	var found *Found
	failed := func() int64 {
		first.Lock()
		defer first.Unlock()
		if found == nil {
			return math.MaxInt64
		}
		return found.Round
	}
	// rapid's flags are the process's: the rounds set them, and a test that fuzzes
	// gives them back as it found them, for the rapid tests that run after it.
	for _, name := range []string{"rapid.seed", "rapid.checks"} {
		if f := flag.Lookup(name); f != nil {
			defer func(v string) { _ = flag.Set(name, v) }(f.Value.String())
		}
	}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= rounds || i > failed() || cfg.Time > 0 && !time.Now().Before(deadline) {
					return
				}
				tb, c := &fuzzTB{}, &Found{Round: i, seen: seen, stats: tally, show: cfg.Show}
				var once sync.Once
				release := func() { once.Do(settings.Unlock) }
				settings.Lock()
				_ = flag.Set("rapid.seed", strconv.FormatUint(roundSeed(res.Seed, i), 10))
				// rapid checks a fifth of its count under -short (a test's): the
				// round asks for five times its size then.
				checks := sizeOf(i)
				if testing.Short() {
					checks *= 5
				}
				_ = flag.Set("rapid.checks", strconv.Itoa(checks))
				rapid.Check(tb, func(t *rapid.T) {
					release()
					checked.Add(1)
					// A case is a run that ends, or the run that fails the round;
					// not one rapid discards (its data rejected), which rapid
					// replaces with another, so that the round checks its size;
					// nor a run of the shrinking. (Every run calls prop from here:
					// rapid shrinks a failure only if it fails where it did.)
					// What the run draws, reaches and checks is counted with it,
					// or not at all: a case is a program, an outcome, and a check
					// of each property that applies.
					counted, ended := !c.shrinking(), false
					c.begin()
					defer func() {
						if counted && (ended || c.shrinking()) {
							c.commit()
						}
					}()
					prop(t, c)
					ended = true
				})
				release()
				if tb.Failed() {
					first.Lock()
					if found == nil || i < found.Round {
						found = c
					}
					first.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	report(-1)
	res.Checked, res.Distinct, res.Found = checked.Load(), seen.len(), found
	res.Cases = tally.cases.Load()
	o := &tally.outcomes
	res.Values, res.Errors, res.Stuck = o[reachedValue].Load(), o[reachedError].Load(), o[reachedStuck].Load()
	res.OutOfFuel, res.Limited = o[reachedFuel].Load(), o[reachedLimit].Load()
	res.Props = props
	for _, p := range props {
		res.PropChecks = append(res.PropChecks, tally.props[p].Load())
	}
	return res
}
