package workbench

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// script is one stage's run in a scripted program: n contractions named "r" (but the
// one at the 1-based index other, if any, is named "x"), then its end: err if set,
// else the answer; or a panic. probe, if set, is called after every contraction.
type script struct {
	n      int
	other  int
	answer string
	err    error
	panics bool
	probe  func(i int)
}

// scripted runs a script per stage: the comparison sees only contraction events and
// outcomes, so that its every case can be set up exactly.
type scripted map[string]script

func (scripted) Lang() string                                   { return "script" }
func (scripted) Source(interderive.PrintBudget) (string, error) { return "a script", nil }

func (p scripted) Run(s interderive.Stage, _ string, opts interderive.Options) (Outcome, error) {
	sc := p[s.Name()]
	for i := 1; i <= sc.n; i++ {
		rule := "r"
		if i == sc.other {
			rule = "x"
		}
		if opts.OnContract != nil {
			opts.OnContract(rule)
		}
		if sc.probe != nil {
			sc.probe(i)
		}
	}
	if sc.panics {
		panic("boom")
	}
	if sc.err != nil {
		return Outcome{Steps: sc.n}, sc.err
	}
	return Outcome{Observation: sc.answer, Value: sc.answer, Answer: sc.answer, Steps: sc.n}, nil
}

// scriptCalculus runs scripts on three stages, ref first, under one variant v.
type scriptCalculus struct{}

func (scriptCalculus) Name() string          { return "script" }
func (scriptCalculus) Doc() string           { return "scripts" }
func (scriptCalculus) Languages() []Language { return []Language{{Ext: "script"}} }
func (scriptCalculus) Variant() Parameter    { return Parameter{Flag: "variant", Values: []string{"v"}} }
func (scriptCalculus) Modes(string) []Mode {
	return []Mode{{Name: "only", Reference: true, Apply: func(*interderive.Options) {}}}
}
func (scriptCalculus) Supports(interderive.Stage) bool { return true }
func (scriptCalculus) Load(string, []byte) (Program, error) {
	return nil, errors.New("scripts are not loaded")
}
func (scriptCalculus) Generate(*rapid.T, int, string) Program { return scripted{} }
func (scriptCalculus) Properties() []Property                 { return nil }
func (scriptCalculus) Equal(a, b any) bool                    { return a == b }

// scriptBench is a workbench of the scripts' calculus on the stages ref, s2, s3.
func scriptBench(t *testing.T) *Workbench {
	t.Helper()
	w, err := New([]Calculus{scriptCalculus{}}, []interderive.Stage{fakeStage("ref"), fakeStage("s2"), fakeStage("s3")})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestCompareAsTheRunsGo: the comparison of contraction sequences as the runs go,
// case by case, the expectations derived by hand from the scripts (batches are
// batchSize = 1024 events, so that 2048 and 3072 end on a batch's boundary). A run
// cut short agrees with a longer one when it is a prefix of it; one that ends with an
// answer where the other goes on parts from it at the next contraction, "(end)".
func TestCompareAsTheRunsGo(t *testing.T) {
	w := scriptBench(t)
	zero := func(at interderive.Pos) error { return interderive.Runtime(at, "(use (coin 0))", "a zero coin") }
	fuel := func(n int) error { return &interderive.FuelError{Steps: n} }
	timeout := &interderive.TimeoutError{Steps: 2048}
	same := script{n: 5000, answer: "4"}
	for _, tc := range []struct {
		name    string
		prog    scripted
		diffs   []string
		partial string // "agreed: cut stages", or "" for none
	}{
		{"all agree", scripted{"ref": same, "s2": same, "s3": same}, nil, ""},
		{"one parts", scripted{"ref": same, "s2": {n: 5000, other: 3000, answer: "4"}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 3000: x instead of r"}, ""},
		{"parts at the first", scripted{"ref": same, "s2": same, "s3": {n: 5000, other: 1, answer: "4"}},
			[]string{"v: s3 parts from ref at contraction 1: x instead of r"}, ""},
		{"the reference cut", scripted{"ref": {n: 3000, err: fuel(3000)}, "s2": same, "s3": same}, nil, "3000: ref"},
		{"a stage cut on a batch's boundary", scripted{"ref": same, "s2": {n: 2048, err: timeout}, "s3": same}, nil, "2048: s2"},
		{"all cut at the same point", scripted{"ref": {n: 1000, err: fuel(1000)}, "s2": {n: 1000, err: fuel(1000)}, "s3": {n: 1000, err: fuel(1000)}}, nil, "1000: ref, s2, s3"},
		{"all cut at a batch's boundary", scripted{"ref": {n: 2048, err: fuel(2048)}, "s2": {n: 2048, err: fuel(2048)}, "s3": {n: 2048, err: fuel(2048)}}, nil, "2048: ref, s2, s3"},
		{"two cut at different points", scripted{"ref": {n: 3072, err: fuel(3072)}, "s2": {n: 1500, err: timeout}, "s3": same}, nil, "1500: ref, s2"},
		{"a stage cut after it parts", scripted{"ref": same, "s2": {n: 2000, other: 1999, err: timeout}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 1999: x instead of r"}, ""},
		{"the reference ends first", scripted{"ref": {n: 3000, answer: "4"}, "s2": {n: 3001, answer: "4"}, "s3": {n: 3000, answer: "4"}},
			[]string{"v: s2 parts from ref at contraction 3001: r instead of (end)"}, ""},
		{"a stage ends first, on a batch's boundary", scripted{"ref": {n: 2049, answer: "4"}, "s2": {n: 2048, answer: "4"}, "s3": {n: 2049, answer: "4"}},
			[]string{"v: s2 parts from ref at contraction 2049: (end) instead of r"}, ""},
		{"no contraction at all", scripted{"ref": {answer: "1"}, "s2": {answer: "1"}, "s3": {n: 1, answer: "1"}},
			[]string{"v: s3 parts from ref at contraction 1: r instead of (end)"}, ""},
		{"different answers", scripted{"ref": same, "s2": {n: 5000, answer: "5"}, "s3": same},
			[]string{"v: s2 answers 5, but ref answers 4"}, ""},
		{"a panic", scripted{"ref": same, "s2": {n: 100, panics: true}, "s3": same},
			[]string{"v: s2 parts from ref at contraction 101: (end) instead of r"}, ""},
		{"an error that is not a limit", scripted{"ref": same, "s2": {n: 5000, err: errors.New("stuck")}, "s3": same},
			[]string{"v: s2 answers error: stuck, but ref answers 4"}, ""},
		// The program's run-time error compares by its reason and redex, not by where
		// a stage could position it (a redex a meta-function built has no position
		// in a stage that builds it anew).
		{"the same run-time error, positioned or not", scripted{"ref": {n: 3, err: zero(interderive.Pos{Line: 2, Col: 7})},
			"s2": {n: 3, err: zero(interderive.Pos{})}, "s3": {n: 3, err: zero(interderive.Pos{Line: 1, Col: 1})}}, nil, ""},
		{"run-time errors for different reasons", scripted{"ref": {n: 3, err: zero(interderive.Pos{Line: 2, Col: 7})},
			"s2": {n: 3, err: interderive.Runtime(interderive.Pos{Line: 2, Col: 7}, "(use (coin 0))", "a single coin")}, "s3": {n: 3, err: zero(interderive.Pos{})}},
			[]string{"v: s2 answers error: run-time error at 2:7: a single coin: (use (coin 0)), but ref answers error: run-time error at 2:7: a zero coin: (use (coin 0))"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := w.Compare(scriptCalculus{}, tc.prog, nil, "", interderive.Options{})
			if err != nil {
				t.Fatal(err)
			}
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
	if testing.Short() {
		t.Skip("three runs of 3,000,000 contractions")
	}
	const n = 3_000_000
	var live int64
	probe := func(i int) {
		if i == n-1000 {
			runtime.GC()
			live = interderive.LiveHeap()
		}
	}
	long := script{n: n, answer: "4"}
	c, err := scriptBench(t).Compare(scriptCalculus{}, scripted{"ref": long, "s2": {n: n, answer: "4", probe: probe}, "s3": long}, nil, "", interderive.Options{})
	if err != nil || len(c.Disagreements) > 0 || len(c.Partial) > 0 {
		t.Fatalf("%v %v %v", err, c.Disagreements, c.Partial)
	}
	if live == 0 || live > 32<<20 {
		t.Errorf("live heap %s near the end of the runs, want under 32 MiB", interderive.FormatBytes(live))
	}
}

// TestCompareCounter compares the counter's stages, by hand: on 3 every stage agrees
// under both variants; on 7 wrong parts from ref at its third contraction (oops for
// dec under one, for dec2 under two); on 6 stuck stops when 2 are left, after 4 dec
// (under one; 7 after 5 dec, and never under two, which counts 7, 5, 3, 1), with an
// error that is no answer; in the quick mode, which two takes
// from one, 2 is one skip under two and two under one; a loop cut by a time budget of a few milliseconds is a
// partial comparison that names every stage as cut by --timeout.
func TestCompareCounter(t *testing.T) {
	w, c := newBench(t), newCounter()
	for _, tc := range []struct {
		src      string
		variants []string
		mode     string
		opts     interderive.Options
		diffs    []string
		table    string
	}{
		{"3", nil, "", interderive.Options{}, nil, "all stages agree under one, two"},
		{"7", nil, "", interderive.Options{}, []string{"one: wrong parts from ref at contraction 3: oops instead of dec",
			"one: stuck parts from ref at contraction 6: (end) instead of dec", "two: wrong parts from ref at contraction 3: oops instead of dec2"}, "DISAGREE one: wrong"},
		{"6", []string{"one"}, "", interderive.Options{}, []string{"one: stuck parts from ref at contraction 5: (end) instead of dec"}, "one    stuck  error: internal error: the stuck stage is stuck"},
		{"2", []string{"two", "one"}, "quick", interderive.Options{}, nil, "all stages agree under two, one"},
		{"1000000000000", []string{"one"}, "", interderive.Options{Timeout: 5 * time.Millisecond, Fuel: 1 << 50}, nil,
			"PARTIAL one: the stages agree on the first "},
	} {
		w := w
		if tc.opts.Timeout > 0 {
			var err error
			if w, err = New([]Calculus{c}, []interderive.Stage{refStage, quietStage, stuckStage}); err != nil {
				t.Fatal(err)
			}
		}
		cmp, err := w.Compare(c, load(t, c, "count", tc.src), tc.variants, tc.mode, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var diffs []string
		for _, d := range cmp.Disagreements {
			diffs = append(diffs, d.String())
		}
		if fmt.Sprint(diffs) != fmt.Sprint(tc.diffs) {
			t.Errorf("%s: disagreements %q, want %q", tc.src, diffs, tc.diffs)
		}
		variants := tc.variants
		if variants == nil {
			variants = []string{"one", "two"}
		}
		var table strings.Builder
		cmp.WriteTable(&table, "speed", variants)
		if !strings.Contains(table.String(), tc.table) {
			t.Errorf("%s: the table\n%s\nlacks %q", tc.src, table.String(), tc.table)
		}
		if tc.mode == "quick" && (cmp.Rows[0].Mode != "quick" || cmp.Rows[0].Contractions != 1 || cmp.Rows[len(cmp.Rows)-1].Contractions != 2) {
			t.Errorf("quick: rows %+v", cmp.Rows)
		}
		if tc.opts.Timeout > 0 {
			if len(cmp.Partial) != 1 || len(cmp.Partial[0].Cut) != 3 || !strings.HasSuffix(cmp.Partial[0].Message(), "; ref, quiet, stuck cut by --timeout") {
				t.Errorf("a loop under a time budget: %+v", cmp.Partial)
			}
			rep := cmp.Report()
			if len(rep.Partial) != 1 || rep.Partial[0].Cut[0].By != "--timeout" || rep.Rows[0].Outcome != "timeout" {
				t.Errorf("its report: %+v", rep)
			}
		}
	}
	if _, err := w.Compare(c, load(t, c, "count", "1"), []string{"three"}, "", interderive.Options{}); err == nil || err.Error() != `unknown speed "three" for counter (known: one, two)` {
		t.Errorf("an unknown variant: %v", err)
	}
	if _, err := w.Compare(c, load(t, c, "count", "1"), nil, "slow", interderive.Options{}); err == nil || !strings.HasPrefix(err.Error(), `unknown mode "slow"`) {
		t.Errorf("an unknown mode: %v", err)
	}
}
