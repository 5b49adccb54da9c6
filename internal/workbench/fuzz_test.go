package workbench

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// keepRapidFlags restores the rapid settings that fuzz changes.
func keepRapidFlags(t *testing.T) {
	for _, name := range []string{"rapid.checks", "rapid.nofailfile", "rapid.seed"} {
		old := flag.Lookup(name).Value.String()
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// fueled is a counter that says its lockstep fuel.
type fueled struct{ *counter }

func (fueled) LockstepFuel() int { return 300 }

// TestPlanFuzz: the selection, and every unknown name or empty selection an error.
func TestPlanFuzz(t *testing.T) {
	c, o := newCounter(), newOther()
	w := newBench(t, c, o)
	plans, err := w.PlanFuzz(FuzzOptions{Size: 5})
	if err != nil || len(plans) != 2 || !cmp.Equal(plans[0].Props, []string{"lockstep", "small"}) || !cmp.Equal(plans[1].Props, []string{"lockstep"}) ||
		plans[0].Fuel != DefaultLockstepFuel || len(plans[0].Stages) != 4 || !cmp.Equal(plans[0].Variants, []string{"one", "two"}) {
		t.Errorf("every calculus and property: %+v %v", plans, err)
	}
	plans, err = w.PlanFuzz(FuzzOptions{Size: 5, Props: []string{"small"}, Stages: []string{"wrong"}, Only: map[string][]string{"speed": {"two"}}})
	if err != nil || len(plans) != 1 || plans[0].Calculus.Name() != "counter" || !cmp.Equal(plans[0].Props, []string{"small"}) ||
		!cmp.Equal(stageNames(plans[0].Stages), []string{"ref", "wrong"}) || !cmp.Equal(plans[0].Variants, []string{"two"}) {
		t.Errorf("a selection: %+v %v", plans, err)
	}
	if plans, err := newBench(t, fueled{newCounter()}).PlanFuzz(FuzzOptions{Size: 1}); err != nil || plans[0].Fuel != 300 {
		t.Errorf("a calculus's own fuel: %+v %v", plans, err)
	}
	for _, tc := range []struct {
		opts FuzzOptions
		want string
	}{
		{FuzzOptions{Size: 0}, "--size must be between 1 and 1000, not 0"},
		{FuzzOptions{Size: 1001}, "--size must be between 1 and 1000, not 1001"},
		{FuzzOptions{Size: 5, Props: []string{"lockstep", "blam"}}, `unknown property "blam" (--props takes all or a list of lockstep, small)`},
		{FuzzOptions{Size: 5, Calculi: []string{"count"}}, `unknown calculus "count" (known: counter, other)`},
		{FuzzOptions{Size: 5, Calculi: []string{"other"}, Props: []string{"small"}}, "--props small selects no property of other"},
		{FuzzOptions{Size: 5, Stages: []string{"fast"}}, `unknown stage "fast" (known: ref, quiet, wrong, stuck)`},
		{FuzzOptions{Size: 5, Only: map[string][]string{"speed": {"three"}}}, `unknown speed "three" in --speed (known: one, two)`},
		{FuzzOptions{Size: 5, Only: map[string][]string{"semantics": {"ld"}}}, "unknown parameter --semantics (known: --speed, --pace)"},
	} {
		if _, err := w.PlanFuzz(tc.opts); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// fuzzOne plans fuzz of the counter alone with the options given and runs it.
func fuzzOne(t *testing.T, w *Workbench, opts FuzzOptions, cfg FuzzConfig) (FuzzPlan, FuzzResult) {
	t.Helper()
	opts.Calculi = []string{"counter"}
	plans, err := w.PlanFuzz(opts)
	if err != nil {
		t.Fatal(err)
	}
	return plans[0], w.Fuzz(plans[0], cfg, func(int64) {})
}

// TestFuzzFindsThePlantedDisagreement: lockstep on ref, quiet and wrong finds where
// wrong parts from ref and shrinks it to the smallest program and variant: 4 under
// one, where wrong reports a total of 5 (the generator draws 0 to 50 at size 5, and
// wrong parts from ref on 4, 5 and 7 to 40, under both variants; 4 under one is the
// first). The counterexample is never lost: it reproduces the disparity, and its text
// is a file check reads, whose expectation ref meets (and wrong too: it parts from
// ref in what it reports, not in the answer).
func TestFuzzFindsThePlantedDisagreement(t *testing.T) {
	keepRapidFlags(t)
	w := newBench(t)
	c := newCounter()
	_, res := fuzzOne(t, w, FuzzOptions{Size: 5, Props: []string{Lockstep}, Stages: []string{"quiet", "wrong"}}, FuzzConfig{Count: 200, Jobs: 2, Seed: 3})
	f := res.Found
	if f == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted disagreement", res.Checked)
	}
	want := Counterexample{Lang: "count", Source: "4", Comment: []string{"wrong under one (plain): report 1 (total) is | total 5, but ref's is | total 4", "expect[one]: done after 4"}}
	got := f.Counterexample
	got.Err = nil
	if f.Prop != Lockstep || f.Failure != "disagreement" || !cmp.Equal(got, want) {
		t.Errorf("found %s (%s): %+v\nwant %+v", f.Prop, f.Failure, got, want)
	}
	prog := load(t, c, f.Lang, f.Source)
	if _, d := w.Lockstep(c, prog, []interderive.Stage{refStage, wrongStage}, "one", plain, DefaultLockstepFuel); d == nil {
		t.Errorf("the counterexample %s does not reproduce the disagreement", f.Source)
	}
	text := f.Text()
	if want := "-- found by interderive fuzz\n-- wrong under one (plain): report 1 (total) is | total 5, but ref's is | total 4\n-- expect[one]: done after 4\n4\n"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
	p, err := w.PlanCheck("found.count", []byte(text), c, "count", CheckOptions{Stages: []string{"ref", "wrong"}})
	if err != nil || len(p.Runs) != 4 || len(p.Run(p.Runs[0], CheckOptions{})) != 0 || len(p.Run(p.Runs[2], CheckOptions{})) != 0 {
		t.Errorf("check of the counterexample: %v %v", p, err)
	}
	if path := f.Path("out", "counter", 42); path != "out/fuzz-counter-lockstep-42.count" {
		t.Errorf("path %s", path)
	}
	if h := f.Headline("counter", res); !strings.HasPrefix(h, "counter: disagreement (") || !strings.Contains(h, fmt.Sprintf("; seed %d, round %d):", res.Seed, f.Round)) {
		t.Errorf("headline %q", h)
	}
}

// TestFuzzOutOfFuel: a disagreement past the reference's fuel is no disagreement, but
// one within it whose reference runs out of fuel gives an expectation of out of fuel
// with the fuel: stuck parts from ref from 5 on, before its contraction n-1 (under
// one); with a fuel of 4, it parts from ref on 5 and 6 alone (from 7 on both run out
// of fuel first), and ref runs out of fuel on both, so that the smallest
// counterexample is 5. At size 1 the programs are 0 to 10, two in eleven of which
// fail: some of the 20 cases a round checks (with -short) fail but by a chance of
// (9/11)^20, 2 in 1000, which the seed rules out.
func TestFuzzOutOfFuel(t *testing.T) {
	keepRapidFlags(t)
	w := newBench(t, fueledAt{newCounter(), 4})
	plans, err := w.PlanFuzz(FuzzOptions{Size: 1, Props: []string{Lockstep}, Stages: []string{"stuck"}, Only: map[string][]string{"speed": {"one"}}})
	if err != nil {
		t.Fatal(err)
	}
	res := w.Fuzz(plans[0], FuzzConfig{Count: 100, Jobs: 1, Seed: 1}, func(int64) {})
	if f := res.Found; f == nil || f.Source != "5" || !cmp.Equal(f.Comment[1:], []string{"expect[one]: out of fuel", "fuel: 4"}) {
		t.Errorf("found %+v", res.Found)
	}
}

// fueledAt is a counter of a given lockstep fuel.
type fueledAt struct {
	*counter
	fuel int
}

func (f fueledAt) LockstepFuel() int { return f.fuel }

// TestFuzzFindsAFailingProperty: the calculus's property small fails from 30 to 49;
// fuzz finds it and shrinks it to 30, and counts no distinct program (it sees none).
func TestFuzzFindsAFailingProperty(t *testing.T) {
	keepRapidFlags(t)
	_, res := fuzzOne(t, newBench(t), FuzzOptions{Size: 5, Props: []string{"small"}}, FuzzConfig{Count: 200, Jobs: 2, Seed: 3})
	f := res.Found
	if f == nil || f.Prop != "small" || f.Failure != "a number is not small" || f.Source != "30" || f.Comment[0] != "30 is not small" || res.Distinct != -1 {
		t.Errorf("found %+v, %d distinct", f, res.Distinct)
	}
}

// TestFuzzSummary: where every property holds (quiet agrees with ref), the summary
// says how many programs, how many distinct, and the seed; the same seed checks the
// same programs on any number of cores.
func TestFuzzSummary(t *testing.T) {
	keepRapidFlags(t)
	w := newBench(t)
	opts := FuzzOptions{Size: 5, Props: []string{Lockstep}, Stages: []string{"quiet"}}
	p, one := fuzzOne(t, w, opts, FuzzConfig{Count: 200, Jobs: 1, Seed: 5})
	_, four := fuzzOne(t, w, opts, FuzzConfig{Count: 200, Jobs: 4, Seed: 5})
	if one.Found != nil || one.Checked != four.Checked || one.Distinct != four.Distinct || one.Distinct < 2 {
		t.Errorf("one core %+v, four %+v", one, four)
	}
	if m := regexp.MustCompile(`^counter: 200 programs \((\d+) distinct; reference run: 200 values, 0 run-time errors, 0 stuck, 0 out of fuel\), every property holds \(lockstep 200 programs\); seed 5$`).FindStringSubmatch(p.Summary(one)); m == nil {
		t.Errorf("summary %q", p.Summary(one))
	}
	if s := p.Summary(FuzzResult{Cases: 3, Distinct: -1, Seed: 1, Props: []string{"small"}, PropChecks: []int64{3}}); s != "counter: 3 cases, every property holds (small 3 programs); seed 1" {
		t.Errorf("summary without distinct %q", s)
	}
	limited := FuzzResult{Cases: 4, Distinct: 3, Values: 1, Errors: 1, OutOfFuel: 1, Limited: 1, Seed: 1, Props: []string{Lockstep, "small"}, PropChecks: []int64{4, 4}}
	if s := p.Summary(limited); s != "counter: 4 programs (3 distinct; reference run: 1 values, 1 run-time errors, 0 stuck, 1 out of fuel, 1 at another limit), every property holds (lockstep 4 programs, small 4 programs); seed 1" {
		t.Errorf("summary with a limit %q", s)
	}
}

// TestFuzzCountsExactly: --count N checks exactly N cases, in whole rounds of 100 and
// a last one of what is left, whatever rapid discards (here every case whose number
// is a multiple of 3, which rapid replaces with another) and under -short (where
// rapid checks a fifth of what it is asked); the cases are counted independently here.
func TestFuzzCountsExactly(t *testing.T) {
	keepRapidFlags(t)
	for _, count := range []int{1, 7, 150} {
		var mu sync.Mutex
		kept := 0
		prop := func(t *rapid.T, c *Found) {
			n := rapid.IntRange(0, 1000).Draw(t, "n")
			if n%3 == 0 {
				t.SkipNow()
			}
			c.drawn(strconv.Itoa(n))
			mu.Lock()
			kept++
			mu.Unlock()
		}
		res := fuzz(prop, nil, FuzzConfig{Count: count, Jobs: 2, Seed: 11}, func(int64) {})
		if res.Cases != int64(count) || kept != count || res.Distinct > count || res.Checked < int64(count) {
			t.Errorf("--count %d: %d cases (%d kept here, %d distinct, %d runs)", count, res.Cases, kept, res.Distinct, res.Checked)
		}
	}
}

// TestFuzzOutcomes: fuzz counts how the programs ran. The counter under variant one
// counts down by one, a contraction a step: with a lockstep fuel of 4 (fueledAt), the
// programs of size 1, 0 to 10, end in a value from 0 to 4 and run out of fuel from 5
// to 10; so there are at most 11 distinct programs, both outcomes among 300 (rapid
// draws small numbers and large ones alike often), and nothing else.
func TestFuzzOutcomes(t *testing.T) {
	keepRapidFlags(t)
	w := newBench(t, fueledAt{newCounter(), 4})
	p, res := fuzzOne(t, w, FuzzOptions{Size: 1, Props: []string{Lockstep}, Stages: []string{"quiet"}, Only: map[string][]string{"speed": {"one"}}},
		FuzzConfig{Count: 300, Jobs: 2, Seed: 9})
	if res.Found != nil || res.Cases != 300 || res.Distinct > 11 || res.Values == 0 || res.OutOfFuel == 0 ||
		res.Values+res.OutOfFuel != 300 || res.Errors+res.Stuck+res.Limited != 0 || len(res.PropChecks) != 1 || res.PropChecks[0] != 300 {
		t.Errorf("%+v: %s", res, p.Summary(res))
	}
}

// TestFuzzSeedRounds: with a seed, every round draws other cases, the same ones on any
// number of cores and in every run; and the counterexample is the first failing
// round's, whatever the timing.
func TestFuzzSeedRounds(t *testing.T) {
	keepRapidFlags(t)
	run := func(jobs int, fail func(uint64) bool) (FuzzResult, map[string]bool) {
		var mu sync.Mutex
		cases := map[string]bool{}
		prop := func(t *rapid.T, c *Found) {
			n := rapid.Uint64().Draw(t, "n")
			text := strconv.FormatUint(n, 10)
			c.drawn(text)
			mu.Lock()
			cases[text] = true
			mu.Unlock()
			if fail(n) {
				c.record(Lockstep, "disagreement", Counterexample{Source: text})
				t.Fatalf("%d", n)
			}
		}
		return fuzz(prop, nil, FuzzConfig{Count: 400, Jobs: jobs, Seed: 42}, func(int64) {}), cases
	}
	never := func(uint64) bool { return false }
	one, cases1 := run(1, never)
	four, cases4 := run(4, never)
	// 4 rounds of 100 checks.
	if one.Checked != four.Checked || one.Cases != 400 {
		t.Fatalf("checked %d and %d programs", one.Checked, four.Checked)
	}
	if one.Distinct != len(cases1) || one.Distinct <= int(one.Checked)/2 {
		t.Errorf("%d distinct cases of %d (counted %d): the rounds repeat one another", len(cases1), one.Checked, one.Distinct)
	}
	if fmt.Sprint(cases1) != fmt.Sprint(cases4) || one.Seed != 42 {
		t.Errorf("one core and four drew different cases")
	}
	// A failure in some rounds: the same round is reported on one core and on four.
	odd := func(n uint64) bool { return n%97 == 3 }
	f1, _ := run(1, odd)
	f4, _ := run(4, odd)
	if f1.Found == nil || f4.Found == nil || f1.Found.Round != f4.Found.Round || f1.Found.Source != f4.Found.Source {
		t.Errorf("counterexamples %+v and %+v", f1.Found, f4.Found)
	}
	// Without a seed, a random one is drawn and reported.
	if r := fuzz(func(t *rapid.T, c *Found) { rapid.Bool().Draw(t, "b") }, nil, FuzzConfig{Count: 10, Jobs: 1}, func(int64) {}); r.Seed == 0 {
		t.Errorf("no seed reported")
	}
}

// TestFuzzRestoresRapidFlags: fuzz sets rapid's seed and count round by round, and
// gives them back as it found them, so that the rapid tests after it keep theirs.
func TestFuzzRestoresRapidFlags(t *testing.T) {
	keepRapidFlags(t)
	for name, v := range map[string]string{"rapid.checks": "37", "rapid.seed": "12345"} {
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	w := newBench(t, fueledAt{newCounter(), 4})
	plans, err := w.PlanFuzz(FuzzOptions{Size: 1, Props: []string{Lockstep}, Stages: []string{"stuck"}, Only: map[string][]string{"speed": {"one"}}})
	if err != nil {
		t.Fatal(err)
	}
	w.Fuzz(plans[0], FuzzConfig{Count: 100, Jobs: 2, Seed: 1}, func(int64) {})
	for name, want := range map[string]string{"rapid.checks": "37", "rapid.seed": "12345"} {
		if got := flag.Lookup(name).Value.String(); got != want {
			t.Errorf("%s is %s after fuzz, want %s", name, got, want)
		}
	}
}

// TestCounterexampleTextIsAProgram: a comment of several lines (an error with its
// source line and caret) is commented line by line, so that the counterexample's
// file stays a program of its language.
func TestCounterexampleTextIsAProgram(t *testing.T) {
	f := &Found{LineComment: ";", Counterexample: Counterexample{Source: "(go 0)",
		Comment: []string{"f.sem:7:1: function spin: calls nest too deep\n\t(function spin (t) t\n\t^", "the reference stage: too deep"}}}
	want := "; found by interderive fuzz\n; f.sem:7:1: function spin: calls nest too deep\n; \t(function spin (t) t\n; \t^\n; the reference stage: too deep\n(go 0)\n"
	if got := f.Text(); got != want {
		t.Errorf("text %q\nwant %q", got, want)
	}
}

// TestSameEndTooDeep: runs that all stop too deep (a rule file's function recursing
// without end, on every stage) agree, as runs out of fuel do; too deep agrees with
// nothing else.
func TestSameEndTooDeep(t *testing.T) {
	deep := &interderive.DepthError{What: "calls", Limit: 3}
	for _, tt := range []struct {
		a, b error
		want bool
	}{
		{deep, &interderive.DepthError{What: "calls", Limit: 3}, true},
		{deep, nil, false},
		{nil, deep, false},
		{deep, &interderive.FuelError{Steps: 3}, false},
		{&interderive.FuelError{Steps: 3}, deep, false},
	} {
		if got := sameEnd(tt.a, tt.b); got != tt.want {
			t.Errorf("sameEnd(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestLockstepCutShort: a run stopped by its time or memory budget (at a point that
// depends on the stage's speed) agrees with the others if the contractions agree up
// to where it stopped, whichever stage it is; one that parts before it stopped does
// not; a run cut short agrees with a reference out of fuel, but too deep and a
// panic are not cut short.
func TestLockstepCutShort(t *testing.T) {
	w := scriptBench(t)
	timeout := &interderive.TimeoutError{Steps: 2}
	memory := &interderive.MemoryError{Limit: 1, Live: 2, Steps: 5}
	fuel := &interderive.FuelError{Steps: 9}
	for _, tc := range []struct {
		prog scripted
		want string
	}{
		{scripted{"ref": {n: 9, err: fuel}, "s2": {n: 2, err: timeout}}, ""},
		{scripted{"ref": {n: 2, err: timeout}, "s2": {n: 9, answer: "1"}}, ""},
		{scripted{"ref": {n: 5, err: memory}, "s2": {n: 3, answer: "1"}}, ""},
		{scripted{"ref": {n: 9, answer: "1"}, "s2": {n: 5, other: 2, err: memory}}, "s2 under v: contraction 2 is x, but ref's is r"},
		{scripted{"ref": {n: 9, answer: "1"}, "s2": {n: 5, other: 6, err: memory}}, ""},
		{scripted{"ref": {n: 2, answer: "1"}, "s2": {n: 2, err: &interderive.DepthError{What: "recursion", Limit: 2}}}, "s2 under v: error recursion nests deeper than the limit of 2, but ref's <nil>"},
	} {
		_, d := w.Lockstep(scriptCalculus{}, tc.prog, w.Stages()[:2], "v", Mode{Name: "only", Reference: true}, 10)
		got := ""
		if d != nil {
			got = d.Error()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.prog, got, tc.want)
		}
	}
}
