package driver

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// script is one stage's run in a fake program: n contractions named "r" (but the one
// at the 1-based index other, if any, is named "x"), then its end: err if set, else
// the answer; or a panic. probe, if set, is called after every contraction.
type script struct {
	n      int
	other  int
	answer string
	err    error
	panics bool
	probe  func(i int)
}

// fakeProgram runs a script per stage: the comparison sees only contraction events
// and outcomes, so that its every case can be set up exactly.
type fakeProgram map[string]script

func (p fakeProgram) Run(stage, _ string, opts interderive.Options) (Outcome, error) {
	s := p[stage]
	for i := 1; i <= s.n; i++ {
		rule := "r"
		if i == s.other {
			rule = "x"
		}
		if opts.OnContract != nil {
			opts.OnContract(rule)
		}
		if s.probe != nil {
			s.probe(i)
		}
	}
	if s.panics {
		panic("boom")
	}
	if s.err != nil {
		return Outcome{Steps: s.n}, s.err
	}
	return Outcome{Observation: s.answer, Value: s.answer, Steps: s.n}, nil
}

func (fakeProgram) Trace(io.Writer, string, string, interderive.Options) (Outcome, error) {
	return Outcome{}, errors.New("no trace")
}

// fakeLang has three stages, ref first.
type fakeLang struct{}

func (fakeLang) Name() string                 { return "fake" }
func (fakeLang) Variants() []string           { return []string{"v"} }
func (fakeLang) DefaultVariant() string       { return "v" }
func (fakeLang) Stages() []string             { return []string{"ref", "s2", "s3"} }
func (fakeLang) Load([]byte) (Program, error) { return nil, errors.New("fake") }

// TestCompareAsTheRunsGo: the comparison of contraction sequences as the runs go,
// case by case, the expectations derived by hand from the scripts (batches are
// batchSize = 1024 events, so that 2048 and 3072 end on a batch's boundary). A run
// cut short agrees with a longer one when it is a prefix of it; one that ends with an
// answer where the other goes on parts from it at the next contraction, "(end)".
func TestCompareAsTheRunsGo(t *testing.T) {
	fuel := func(n int) error { return &interderive.FuelError{Steps: n} }
	timeout := &interderive.TimeoutError{Steps: 2048}
	same := script{n: 5000, answer: "4"}
	for _, tc := range []struct {
		name    string
		prog    fakeProgram
		diffs   []string
		partial string // "agreed: cut stages", or "" for none
	}{
		{"all agree", fakeProgram{"ref": same, "s2": same, "s3": same}, nil, ""},
		{"one parts", fakeProgram{"ref": same, "s2": {n: 5000, other: 3000, answer: "4"}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 3000: x instead of r"}, ""},
		{"parts at the first", fakeProgram{"ref": same, "s2": same, "s3": {n: 5000, other: 1, answer: "4"}},
			[]string{"v: s3 parts from ref at contraction 1: x instead of r"}, ""},
		{"the reference cut", fakeProgram{"ref": {n: 3000, err: fuel(3000)}, "s2": same, "s3": same}, nil, "3000: ref"},
		{"a stage cut on a batch's boundary", fakeProgram{"ref": same, "s2": {n: 2048, err: timeout}, "s3": same}, nil, "2048: s2"},
		{"all cut at the same point", fakeProgram{"ref": {n: 1000, err: fuel(1000)}, "s2": {n: 1000, err: fuel(1000)}, "s3": {n: 1000, err: fuel(1000)}}, nil, "1000: ref, s2, s3"},
		{"all cut at a batch's boundary", fakeProgram{"ref": {n: 2048, err: fuel(2048)}, "s2": {n: 2048, err: fuel(2048)}, "s3": {n: 2048, err: fuel(2048)}}, nil, "2048: ref, s2, s3"},
		{"two cut at different points", fakeProgram{"ref": {n: 3072, err: fuel(3072)}, "s2": {n: 1500, err: timeout}, "s3": same}, nil, "1500: ref, s2"},
		{"a stage cut after it parts", fakeProgram{"ref": same, "s2": {n: 2000, other: 1999, err: timeout}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 1999: x instead of r"}, ""},
		{"the reference ends first", fakeProgram{"ref": {n: 3000, answer: "4"}, "s2": {n: 3001, answer: "4"}, "s3": {n: 3000, answer: "4"}},
			[]string{"v: s2 parts from ref at contraction 3001: r instead of (end)"}, ""},
		{"a stage ends first, on a batch's boundary", fakeProgram{"ref": {n: 2049, answer: "4"}, "s2": {n: 2048, answer: "4"}, "s3": {n: 2049, answer: "4"}},
			[]string{"v: s2 parts from ref at contraction 2049: (end) instead of r"}, ""},
		{"no contraction at all", fakeProgram{"ref": {answer: "1"}, "s2": {answer: "1"}, "s3": {n: 1, answer: "1"}},
			[]string{"v: s3 parts from ref at contraction 1: r instead of (end)"}, ""},
		{"different answers", fakeProgram{"ref": same, "s2": {n: 5000, answer: "5"}, "s3": same},
			[]string{"v: s2 answers 5, but ref answers 4"}, ""},
		{"a panic", fakeProgram{"ref": same, "s2": {n: 100, panics: true}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 101: (end) instead of r"}, ""},
		{"an error that is not a limit", fakeProgram{"ref": same, "s2": {n: 5000, err: errors.New("stuck")}, "s3": same},
			[]string{"v: s2 answers error: stuck, but ref answers 4"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compare(fakeLang{}, tc.prog, []string{"v"}, interderive.Options{})
			var diffs []string
			for _, d := range c.Disagreements {
				diffs = append(diffs, d.String())
			}
			if fmt.Sprint(diffs) != fmt.Sprint(tc.diffs) {
				t.Errorf("disagreements %q, want %q", diffs, tc.diffs)
			}
			partial := ""
			for _, p := range c.Partial {
				var cut []string
				for _, r := range p.Cut {
					cut = append(cut, r.Stage)
				}
				partial = fmt.Sprintf("%d: %s", p.Agreed, strings.Join(cut, ", "))
			}
			if partial != tc.partial {
				t.Errorf("partial %q, want %q", partial, tc.partial)
			}
			for i, r := range c.Rows {
				if want := tc.prog[r.Stage].n; r.Contractions != want && !tc.prog[r.Stage].panics {
					t.Errorf("row %d (%s): %d contractions, want %d", i, r.Stage, r.Contractions, want)
				}
			}
		})
	}
}

// TestCompareInBoundedMemory: three runs of 3,000,000 contractions each are compared
// in a live heap of a few batches: the comparison keeps counts, not sequences (which
// would take 3 × 3,000,000 × 16 bytes, 144 MB, of string headers).
func TestCompareInBoundedMemory(t *testing.T) {
	const n = 3_000_000
	var live int64
	probe := func(i int) {
		if i == n-1000 {
			runtime.GC()
			live = interderive.LiveHeap()
		}
	}
	long := script{n: n, answer: "4"}
	c := Compare(fakeLang{}, fakeProgram{"ref": long, "s2": {n: n, answer: "4", probe: probe}, "s3": long}, []string{"v"}, interderive.Options{})
	if len(c.Disagreements) > 0 || len(c.Partial) > 0 {
		t.Fatalf("%v %v", c.Disagreements, c.Partial)
	}
	if live == 0 || live > 32<<20 {
		t.Errorf("live heap %s near the end of the runs, want under 32 MiB", interderive.FormatBytes(live))
	}
}

// TestCompareLoop: a real loop under a budget of a few milliseconds, in which the
// stages stop at different points (each at its clock): no disagreement, a partial
// comparison naming every stage as cut by the time budget.
func TestCompareLoop(t *testing.T) {
	l := gradualLang{}
	prog, err := l.Load([]byte("letrec loop: Int -> Int = \\x:Int. loop x in loop 0"))
	if err != nil {
		t.Fatal(err)
	}
	c := Compare(l, prog, []string{"ed"}, interderive.Options{Timeout: 5e6})
	if len(c.Disagreements) > 0 || len(c.Partial) != 1 || len(c.Partial[0].Cut) != len(l.Stages()) {
		t.Fatalf("disagreements %v, partial %+v; want every stage cut and no disagreement", c.Disagreements, c.Partial)
	}
	for _, r := range c.Partial[0].Cut {
		if !errors.Is(r.Err, interderive.ErrTimeout) || r.Answer() != "timed out" {
			t.Errorf("%s: %v", r.Stage, r.Err)
		}
	}
}
