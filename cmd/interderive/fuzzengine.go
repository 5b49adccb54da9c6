package main

import (
	"flag"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"pgregory.net/rapid"
)

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

// counterexample is a failing program, kept as rapid shrinks it: the last one
// recorded is the smallest. It also counts the distinct cases its round draws.
type counterexample struct {
	mu      sync.Mutex
	prop    string // the property that failed (one of fuzzProps)
	program string // in input syntax
	ext     string
	comment []string
	round   int64    // the round that found it
	seen    *caseSet // every case drawn, nil when not counted
}

func (c *counterexample) record(prop, program, ext string, comment ...string) {
	c.mu.Lock()
	c.prop, c.program, c.ext, c.comment = prop, program, ext, comment
	c.mu.Unlock()
}

// drawn notes a case a property was checked on, as the text that identifies it (the
// program printed, with what else was drawn for it).
func (c *counterexample) drawn(text string) {
	if c.seen != nil {
		c.seen.add(text)
	}
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

// fuzzConfig says how much fuzz runs.
type fuzzConfig struct {
	count  int           // programs, rounded up to whole rounds (when budget is 0)
	jobs   int           // rounds run at once
	budget time.Duration // stop starting rounds after this long (0: run count programs)
	seed   uint64        // the seed rounds derive theirs from (0: a random one)
}

// fuzzResult is what fuzz found.
type fuzzResult struct {
	checked  int64           // property runs, shrinking included
	distinct int             // distinct cases among them
	seed     uint64          // the seed of the run: --seed, or the random one drawn
	found    *counterexample // the shrunk counterexample of the first failing round, if any
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

// fuzz runs a property in rounds of rapid checks, cfg.jobs rounds at once, until
// cfg.count programs have been checked (or the time budget is spent). Round i runs
// with the seed roundSeed(seed, i), so that the rounds differ from one another and a
// run with the same seed and count checks the same programs, on any number of cores;
// and when rounds fail, the counterexample is the first failing round's (the rounds
// after it stop, the ones before it finish), whatever the timing. It returns how many
// property runs were made, how many distinct cases they drew, the seed, and the shrunk
// counterexample, if any.
func fuzz(prop func(*rapid.T, *counterexample), cfg fuzzConfig, report func(int64)) fuzzResult {
	res := fuzzResult{seed: cfg.seed}
	for res.seed == 0 {
		res.seed = rand.Uint64()
	}
	jobs := max(1, cfg.jobs)
	var checked atomic.Int64
	seen := newCaseSet()
	deadline := time.Now().Add(cfg.budget)
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
	size := max(1, min(100, cfg.count/jobs))
	rounds := int64(math.MaxInt64)
	if cfg.budget == 0 {
		rounds = int64((cfg.count + size - 1) / size)
	}
	_ = flag.Set("rapid.nofailfile", "true") // a counterexample is written by fuzz itself
	// rapid reads its seed and its number of checks from global flags when a check
	// starts: a round holds settings until its property first runs, by which time
	// rapid has read them.
	var settings sync.Mutex
	var next atomic.Int64
	var first sync.Mutex // guards found
	var found *counterexample
	failed := func() int64 {
		first.Lock()
		defer first.Unlock()
		if found == nil {
			return math.MaxInt64
		}
		return found.round
	}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= rounds || i > failed() || cfg.budget > 0 && !time.Now().Before(deadline) {
					return
				}
				tb, c := &fuzzTB{}, &counterexample{round: i, seen: seen}
				var once sync.Once
				release := func() { once.Do(settings.Unlock) }
				settings.Lock()
				_ = flag.Set("rapid.seed", strconv.FormatUint(roundSeed(res.seed, i), 10))
				_ = flag.Set("rapid.checks", strconv.Itoa(size))
				rapid.Check(tb, func(t *rapid.T) {
					release()
					checked.Add(1)
					prop(t, c)
				})
				release()
				if tb.Failed() {
					first.Lock()
					if found == nil || i < found.round {
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
	res.checked, res.distinct, res.found = checked.Load(), seen.len(), found
	return res
}

// progress reports on a terminal how far a calculus has got.
func progress(w io.Writer, name string) func(int64) {
	if !isTerminal(w) {
		return func(int64) {}
	}
	return func(n int64) {
		if n < 0 {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		fmt.Fprintf(w, "\r%s: %d programs checked", name, n)
	}
}
