package main

import (
	"flag"
	"strings"
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
	n, c := fuzz(prop, 2000, 2, 0, func(int64) {})
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
	n, c := fuzz(prop, 1000, 2, 0, func(int64) {})
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
	n, c := fuzz(prop, 2000, 2, 0, func(int64) {})
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
	n, c := fuzz(prop, 1000, 2, 0, func(int64) {})
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
