package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/dplgen"
	"github.com/interderive/interderive/internal/driver"
	"github.com/interderive/interderive/internal/gradualgen"
	"github.com/spf13/cobra"
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
// recorded is the smallest.
type counterexample struct {
	mu      sync.Mutex
	program string // in input syntax
	ext     string
	comment []string
}

func (c *counterexample) record(program, ext string, comment ...string) {
	c.mu.Lock()
	c.program, c.ext, c.comment = program, ext, comment
	c.mu.Unlock()
}

func newFuzzCmd(stdout, stderr io.Writer) *cobra.Command {
	var calculus, semantics, ad, out string
	var count, size, jobs int
	var seed uint64
	var budget time.Duration
	cmd := &cobra.Command{
		Use:   "fuzz [flags]",
		Short: "Check random well-typed programs on every stage, in lockstep",
		Long: `Fuzz generates random well-typed programs (the generators of the differential tests)
and runs each on every stage, under every requested semantics (gradual: both merging
modes) or differentiation strategy (dpl), checking that every stage gives the reference
semantics' answer, contraction sequence and (dpl) rd traces, and (gradual) that the
reference semantics makes progress and preserves the program's type at every step. A failure is shrunk to a
small program, written to --out as a program file with the reference answer as its
expectation comment, ready for testdata; the exit status is then 1.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var sems []g.Semantics
			for _, name := range splitList(semantics) {
				if name == "all" {
					sems = driver.CastSemantics()
					break
				}
				s, ok := g.Lookup(name, driver.CastSemantics()...)
				if !ok {
					return fmt.Errorf("unknown semantics %q", name)
				}
				sems = append(sems, s)
			}
			var ads []dpl.Differentiator
			for _, name := range splitList(ad) {
				if name == "all" {
					ads = dpl.Differentiators()
					break
				}
				d, ok := dpl.LookupDifferentiator(name)
				if !ok {
					return fmt.Errorf("unknown differentiation strategy %q", name)
				}
				ads = append(ads, d)
			}
			props := map[string]func(*rapid.T, *counterexample){
				"gradual": func(t *rapid.T, c *counterexample) { fuzzGradual(t, c, driver.CastStages(), sems, size) },
				"dpl":     func(t *rapid.T, c *counterexample) { fuzzDPL(t, c, driver.DPLStages(), ads, size) },
			}
			var names []string
			switch calculus {
			case "all":
				names = []string{"gradual", "dpl"}
			case "gradual", "dpl":
				names = []string{calculus}
			default:
				return fmt.Errorf("--calculus must be gradual, dpl or all, not %q", calculus)
			}
			// rapid reads its settings from the standard flag set, as in a test.
			testing.Init()
			if err := flag.CommandLine.Parse(nil); err != nil {
				return err
			}
			if seed != 0 {
				jobs = 1 // one seed, one deterministic run
				_ = flag.Set("rapid.seed", strconv.FormatUint(seed, 10))
			}
			if jobs <= 0 {
				jobs = runtime.NumCPU()
			}
			failed := false
			for _, name := range names {
				n, c := fuzz(props[name], count, jobs, budget, progress(stderr, name))
				if c == nil {
					fmt.Fprintf(stdout, "%s: %d programs, every stage agrees\n", name, n)
					continue
				}
				failed = true
				path := filepath.Join(out, fmt.Sprintf("fuzz-%s-%d.%s", name, time.Now().Unix(), c.ext))
				text := "-- found by interderive fuzz\n"
				for _, line := range c.comment {
					text += "-- " + line + "\n"
				}
				text += c.program + "\n"
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%s: disagreement (%d runs, shrinking included), shrunk to %s:\n%s", name, n, path, text)
			}
			if failed {
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&calculus, "calculus", "all", "gradual, dpl or all")
	cmd.Flags().IntVar(&count, "count", 1000, "programs per calculus")
	cmd.Flags().DurationVar(&budget, "time", 0, "stop each calculus after this long (0: run --count programs)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "random seed, for a reproducible run on one core (0: random, on all cores)")
	cmd.Flags().IntVar(&size, "size", 5, "depth of the generated programs")
	cmd.Flags().StringVar(&semantics, "semantics", "all", "gradual: cast semantics to check, all or a comma-separated list")
	cmd.Flags().StringVar(&ad, "ad", "all", "dpl: differentiation strategies to check, all or a comma-separated list")
	cmd.Flags().StringVar(&out, "out", ".", "directory for the shrunk counterexample")
	cmd.Flags().IntVar(&jobs, "jobs", 0, "parallel checkers (0: one per core)")
	return cmd
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// fuzz runs a property on count programs (or until the time budget is spent) over
// jobs goroutines, and returns how many programs were checked and the shrunk
// counterexample, if any.
func fuzz(prop func(*rapid.T, *counterexample), count, jobs int, budget time.Duration, report func(int64)) (int64, *counterexample) {
	var checked atomic.Int64
	var found atomic.Pointer[counterexample]
	deadline := time.Now().Add(budget)
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
	// Every checker runs rounds of the same size (rapid's setting is global), until
	// the count is reached (rounded up to a whole round) or the time is spent.
	round := max(1, min(100, count/jobs))
	_ = flag.Set("rapid.checks", strconv.Itoa(round))
	_ = flag.Set("rapid.nofailfile", "true") // a counterexample is written by fuzz itself
	var started atomic.Int64
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for found.Load() == nil && (budget == 0 || time.Now().Before(deadline)) {
				if budget == 0 && started.Add(int64(round)) > int64(count)+int64(round)-1 {
					return
				}
				tb, c := &fuzzTB{}, &counterexample{}
				rapid.Check(tb, func(t *rapid.T) {
					checked.Add(1)
					prop(t, c)
				})
				if tb.Failed() {
					found.CompareAndSwap(nil, c)
				}
			}
		}()
	}
	wg.Wait()
	close(done)
	report(-1)
	return checked.Load(), found.Load()
}

// progress reports on a terminal how far a calculus has got.
func progress(w io.Writer, name string) func(int64) {
	f, ok := w.(*os.File)
	if !ok {
		return func(int64) {}
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
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

// fuzzGradual checks one random program, GTLC or cast calculus, on every stage under
// every semantics, unmerged and merged.
func fuzzGradual(t *rapid.T, c *counterexample, stages []driver.CastStage, sems []g.Semantics, size int) {
	sem := rapid.SampledFrom(sems).Draw(t, "semantics")
	var src, cast g.Expr // the program as written, and its cast-calculus form
	ext := "cast"
	if rapid.Bool().Draw(t, "gtlc") {
		src, ext = gradualgen.Program(t, gradualgen.Config{Depth: size}), "gtlc"
		var err error
		if cast, _, err = g.InsertCasts(src); err != nil {
			t.Fatalf("generated program rejected: %v", err)
		}
	} else {
		src = gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem), Depth: size})
		cast = src
	}
	ty, err := g.TypeOf(cast)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v", err)
	}
	for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
		if err := driver.CastPreservation(sem, g.Translate(sem, cast), ty, 300, mode); err != nil {
			c.record(g.Format(src), ext, err.Error())
			t.Fatalf("%v", err)
		}
		ref, d := driver.CastLockstep(stages, sem, g.Translate(sem, cast), 3000, mode)
		if d != nil {
			want := ref.Answer.Observe()
			if ref.Err != nil {
				want = "out of fuel\n-- fuel: 3000"
			}
			c.record(g.Format(src), ext, d.Error(), fmt.Sprintf("expect[%s]: %s", sem.Name(), want))
			t.Fatalf("%v", d)
		}
	}
}

// fuzzDPL checks one random differentiable program on every stage under every
// strategy.
func fuzzDPL(t *rapid.T, c *counterexample, stages []driver.DPLStage, ads []dpl.Differentiator, size int) {
	prog := dplgen.Program(t, dplgen.Full(size))
	for _, ad := range ads {
		ref, d := driver.DPLLockstep(stages, ad, prog, 20_000)
		if d != nil {
			want := ref.Answer.Observe()
			if ref.Err != nil {
				want = "out of fuel\n-- fuel: 20000"
			}
			c.record(dpl.Format(prog), "dpl", d.Error(), fmt.Sprintf("expect[%s]: %s", ad.Name(), want))
			t.Fatalf("%v", d)
		}
	}
}
