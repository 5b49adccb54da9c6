package main

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/driver"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// keepRapidFlags restores the rapid settings that fuzz changes.
func keepRapidFlags(t *testing.T) {
	for _, name := range []string{"rapid.checks", "rapid.nofailfile", "rapid.seed"} {
		old := flag.Lookup(name).Value.String()
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// TestFuzzFindsAPlantedBug perturbs one rule in one stage — an interpreter that
// reports StepCst/IdR contractions as StepCst/IdL — and expects fuzz to find it and
// shrink it to a small program on which the perturbed stage, and only it, disagrees.
func TestFuzzFindsAPlantedBug(t *testing.T) {
	perturbed := func(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
		on := opts.OnContract
		opts.OnContract = func(rule string) {
			if rule == "StepCst/IdR" {
				rule = "StepCst/IdL"
			}
			if on != nil {
				on(rule)
			}
		}
		return interp.EvalCast(sem, e, opts)
	}
	stages := driver.CastStages()
	for i := range stages {
		if stages[i].Name == "interp" {
			stages[i].Eval = perturbed
		}
	}
	keepRapidFlags(t)
	props := propSet{"lockstep": true, "preservation": true}
	prop := func(t *rapid.T, c *counterexample) { fuzzGradual(t, c, stages, g.Standard(), 5, props) }
	res := fuzz(prop, fuzzConfig{count: 2000, jobs: 2}, func(int64) {})
	n, c := res.checked, res.found
	if c == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted bug", n)
	}
	t.Logf("found after %d programs:\n%s\n%s", n, strings.Join(c.comment, "\n"), c.program)
	if !strings.Contains(c.comment[0], "interp under") || !strings.Contains(c.comment[0], "StepCst/IdL") {
		t.Errorf("the counterexample blames %q, not the perturbed rule in interp", c.comment[0])
	}
	if len(c.program) > 300 {
		t.Errorf("the counterexample is not shrunk: %d characters", len(c.program))
	}
}

// TestFuzzMetatheory runs the command on the metatheory properties alone: the blame
// theorem and seq correctness for gradual, Proposition 3.5 and finite differences for
// dpl. They hold, so fuzz passes.
func TestFuzzMetatheory(t *testing.T) {
	keepRapidFlags(t)
	for _, args := range [][]string{
		{"--calculus", "gradual", "--count", "200", "--props", "blame,seq"},
		{"--calculus", "dpl", "--count", "100", "--props", "interpolation,finite-differences"},
	} {
		stdout, stderr, code := runCmd(append([]string{"fuzz", "--out", t.TempDir()}, args...)...)
		if code != 0 || !strings.Contains(stdout, "every property holds ("+strings.ReplaceAll(args[5], ",", ", ")+")") {
			t.Errorf("fuzz %s: status %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if _, stderr, code := runCmd("fuzz", "--props", "lockstep,blam"); code != 2 || !strings.Contains(stderr, `unknown property "blam"`) {
		t.Errorf("--props blam: status %d, %s", code, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--calculus", "dpl", "--props", "blame"); code != 2 || !strings.Contains(stderr, "selects no property") {
		t.Errorf("--calculus dpl --props blame: status %d, %s", code, stderr)
	}
	if stdout, stderr, code := runCmd("fuzz", "--calculus", "gradual", "--count", "100", "--stage", "machine,interp", "--out", t.TempDir()); code != 0 || !strings.Contains(stdout, "every property holds") {
		t.Errorf("--stage machine,interp: status %d\n%s%s", code, stdout, stderr)
	}
	if _, stderr, code := runCmd("fuzz", "--stage", "compiler"); code != 2 || !strings.Contains(stderr, `unknown stage "compiler"`) {
		t.Errorf("--stage compiler: status %d, %s", code, stderr)
	}
}

// wrongSeq is ED with a broken seq: it forgets c2 when c1 is an injection.
type wrongSeq struct{ g.Semantics }

func (s wrongSeq) Seq(c1, c2 g.Coercion) g.Coercion {
	if _, ok := c1.(*g.Inj); ok {
		return c1
	}
	return s.Semantics.Seq(c1, c2)
}

// TestFuzzFindsAWrongSeq: fuzz --props seq finds a broken seq and writes the
// composition applied to a value, a well-typed cast-calculus program.
func TestFuzzFindsAWrongSeq(t *testing.T) {
	keepRapidFlags(t)
	prop := func(t *rapid.T, c *counterexample) {
		fuzzGradual(t, c, driver.CastStages(), []g.Semantics{wrongSeq{g.ED}}, 5, propSet{"seq": true})
	}
	res := fuzz(prop, fuzzConfig{count: 1000, jobs: 2}, func(int64) {})
	n, c := res.checked, res.found
	if c == nil {
		t.Fatalf("fuzz checked %d compositions and missed the broken seq", n)
	}
	t.Logf("found after %d draws:\n%s\n%s", n, strings.Join(c.comment, "\n"), c.program)
	if c.prop != "seq" || c.ext != "cast" || !strings.Contains(c.comment[0], "seq(") {
		t.Errorf("counterexample %q (.%s): %q", c.prop, c.ext, c.comment)
	}
	e, err := g.Parse([]byte(c.program), g.CastCalculus)
	if err == nil {
		_, err = g.TypeOf(e)
	}
	if err != nil {
		t.Errorf("the counterexample %s is not a well-typed program: %v", c.program, err)
	}
}

// TestFuzzFindsABlameViolation perturbs the reference stage so that every value
// becomes blame l1, and expects fuzz --props blame to report it on a cast-calculus
// program.
func TestFuzzFindsABlameViolation(t *testing.T) {
	keepRapidFlags(t)
	stages := driver.CastStages()
	stages[0].Eval = func(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
		a, err := reduction.EvalCast(sem, e, opts)
		if err == nil && !a.Blamed {
			a = g.Answer{Blamed: true, Blame: "l1"}
		}
		return a, err
	}
	prop := func(t *rapid.T, c *counterexample) {
		fuzzGradual(t, c, stages, g.Standard(), 5, propSet{"blame": true})
	}
	res := fuzz(prop, fuzzConfig{count: 2000, jobs: 2}, func(int64) {})
	n, c := res.checked, res.found
	if c == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted blame", n)
	}
	t.Logf("found after %d programs:\n%s\n%s", n, strings.Join(c.comment, "\n"), c.program)
	if c.prop != "blame" || c.ext != "cast" || !strings.Contains(c.comment[0], "blame l1") {
		t.Errorf("counterexample %q (.%s): %q", c.prop, c.ext, c.comment)
	}
	if _, err := g.Parse([]byte(c.program), g.CastCalculus); err != nil {
		t.Errorf("the counterexample %s does not parse: %v", c.program, err)
	}
}

// zeroAD is a differentiation strategy whose derivatives are all zero.
type zeroAD struct{}

func (zeroAD) Name() string { return "zero" }
func (zeroAD) R(_ dpl.DiffEnv, _, _ dpl.Term, _ string, t dpl.Type, _ dpl.Term) (dpl.Term, error) {
	return dpl.Zero(t), nil
}

// TestFuzzFindsAWrongDerivative: fuzz --props finite-differences finds a strategy
// whose derivatives are zero, and writes the derivative as a program.
func TestFuzzFindsAWrongDerivative(t *testing.T) {
	keepRapidFlags(t)
	prop := func(t *rapid.T, c *counterexample) {
		fuzzDPL(t, c, driver.DPLStages(), []dpl.Differentiator{zeroAD{}}, 5, propSet{"finite-differences": true})
	}
	res := fuzz(prop, fuzzConfig{count: 1000, jobs: 2}, func(int64) {})
	n, c := res.checked, res.found
	if c == nil {
		t.Fatalf("fuzz checked %d derivatives and missed the wrong strategy", n)
	}
	t.Logf("found after %d draws:\n%s\n%s", n, strings.Join(c.comment, "\n"), c.program)
	if c.prop != "finite-differences" || !strings.Contains(c.comment[0], "central differences give") {
		t.Errorf("counterexample %q: %q", c.prop, c.comment)
	}
	if p, err := dpl.Parse([]byte(c.program)); err != nil {
		t.Errorf("the counterexample %s does not parse: %v", c.program, err)
	} else if _, _, err := dpl.Check(p); err != nil {
		t.Errorf("the counterexample %s is ill-typed: %v", c.program, err)
	}
}

// TestDPLSource: a counterexample with generated names is written so that the command
// parses it (let-tuples elaborate to fresh z#n).
func TestDPLSource(t *testing.T) {
	prog, err := dpl.Parse([]byte("let <a:real, b:real> = <1, 2> in a + b"))
	if err != nil {
		t.Fatal(err)
	}
	text := dplSource(prog)
	if strings.Contains(text, "#") {
		t.Fatalf("%s still has generated names", text)
	}
	if _, err := dpl.Parse([]byte(text)); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
}

// TestFuzzSeedRounds: with a seed, every round draws other cases (rounds that reused
// the seed drew the same ones, so that a run of 4 rounds had at most a round's worth
// of distinct cases), the same ones on any number of cores and in every run; and the
// counterexample is the first failing round's, whatever the timing.
func TestFuzzSeedRounds(t *testing.T) {
	keepRapidFlags(t)
	run := func(jobs int, fail func(uint64) bool) (fuzzResult, map[string]bool) {
		var mu sync.Mutex
		cases := map[string]bool{}
		prop := func(t *rapid.T, c *counterexample) {
			n := rapid.Uint64().Draw(t, "n")
			text := strconv.FormatUint(n, 10)
			c.drawn(text)
			mu.Lock()
			cases[text] = true
			mu.Unlock()
			if fail(n) {
				c.record("lockstep", text, "gtlc")
				t.Fatalf("%d", n)
			}
		}
		return fuzz(prop, fuzzConfig{count: 400, jobs: jobs, seed: 42}, func(int64) {}), cases
	}
	never := func(uint64) bool { return false }
	one, cases1 := run(1, never)
	four, cases4 := run(4, never)
	// 4 rounds of 100 checks (20 with -short).
	if one.checked != four.checked || one.checked < 80 {
		t.Fatalf("checked %d and %d programs", one.checked, four.checked)
	}
	if one.distinct != len(cases1) || one.distinct <= int(one.checked)/2 {
		t.Errorf("%d distinct cases of %d (counted %d): the rounds repeat one another", len(cases1), one.checked, one.distinct)
	}
	if fmt.Sprint(cases1) != fmt.Sprint(cases4) || one.seed != 42 {
		t.Errorf("one core and four drew different cases")
	}
	// A failure in some rounds: the same round is reported on one core and on four.
	odd := func(n uint64) bool { return n%97 == 3 }
	f1, _ := run(1, odd)
	f4, _ := run(4, odd)
	if f1.found == nil || f4.found == nil || f1.found.round != f4.found.round || f1.found.program != f4.found.program {
		t.Errorf("counterexamples %+v and %+v", f1.found, f4.found)
	}
	// Without a seed, a random one is drawn and reported.
	if r := fuzz(func(t *rapid.T, c *counterexample) { rapid.Bool().Draw(t, "b") }, fuzzConfig{count: 10, jobs: 1}, func(int64) {}); r.seed == 0 {
		t.Errorf("no seed reported")
	}
}

// TestFuzzSeedReproducible: the command with a seed reports the same programs, distinct
// programs and seed in every run, on all cores.
func TestFuzzSeedReproducible(t *testing.T) {
	keepRapidFlags(t)
	args := []string{"fuzz", "--calculus", "gradual", "--props", "seq", "--count", "200", "--seed", "5", "--out", t.TempDir()}
	first, stderr, code := runCmd(args...)
	m := regexp.MustCompile(`^gradual: (\d+) programs \((\d+) distinct\), every property holds \(seq\); seed 5\n$`).FindStringSubmatch(first)
	if code != 0 || m == nil {
		t.Fatalf("exit %d: %q %q", code, first, stderr)
	}
	if again, _, _ := runCmd(args...); again != first {
		t.Errorf("a second run: %q, the first %q", again, first)
	}
}

// TestFuzzSize: --size is bounded, and a large size stays small in memory and time,
// since the generators' node budget makes a program's size linear in its depth (before
// it, --size 1000 ran minutes and gigabytes for two programs).
func TestFuzzSize(t *testing.T) {
	keepRapidFlags(t)
	for _, size := range []string{"0", "1001", "-3"} {
		if _, stderr, code := runCmd("fuzz", "--size", size, "--count", "1"); code != exitStatic || !strings.Contains(stderr, "--size must be between 1 and 1000") {
			t.Errorf("fuzz --size %s: exit %d, %s; want 2", size, code, stderr)
		}
	}
	if testing.Short() {
		return
	}
	if stdout, stderr, code := runCmd("fuzz", "--size", "1000", "--count", "2", "--jobs", "1", "--seed", "7"); code != 0 {
		t.Errorf("fuzz --size 1000: exit %d\n%s%s", code, stdout, stderr)
	}
}
