package calculi_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/differentiable"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
)

// keepRapidFlags restores the rapid settings that fuzz changes.
func keepRapidFlags(t *testing.T) {
	for _, name := range []string{"rapid.checks", "rapid.nofailfile", "rapid.seed"} {
		old := flag.Lookup(name).Value.String()
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

// replaced is the registry's stages with the stage of s's name replaced by s.
func replaced(s interderive.Stage) []interderive.Stage {
	stages := calculi.Stages()
	for i := range stages {
		if stages[i].Name() == s.Name() {
			stages[i] = s
		}
	}
	return stages
}

// fuzz plans and runs fuzz on one calculus of a workbench, and returns what it found.
func fuzz(t *testing.T, wb *workbench.Workbench, o workbench.FuzzOptions, count int) workbench.FuzzResult {
	t.Helper()
	keepRapidFlags(t)
	plans, err := wb.PlanFuzz(o)
	if err != nil || len(plans) != 1 {
		t.Fatalf("plans %v, %v", plans, err)
	}
	return wb.Fuzz(plans[0], workbench.FuzzConfig{Count: count, Jobs: 2, Seed: 1}, nil)
}

// idrAsIdL is the interpreter, but for one rule: it reports StepCst/IdR contractions as
// StepCst/IdL.
type idrAsIdL struct{ interp.Stage }

func (idrAsIdL) Gradual() g.Stage { return idrAsIdLStage{} }

type idrAsIdLStage struct{}

func (idrAsIdLStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		if rule == g.StepCst(g.RuleIdR) {
			rule = g.StepCst(g.RuleIdL)
		}
		if on != nil {
			on(rule)
		}
	}
	return interp.Stage{}.Gradual().Eval(sem, e, opts)
}

// TestFuzzFindsAPlantedBug perturbs one rule in one stage — an interpreter that
// reports StepCst/IdR contractions as StepCst/IdL — and expects fuzz to find it and
// shrink it to a small program on which the perturbed stage, and only it, disagrees.
func TestFuzzFindsAPlantedBug(t *testing.T) {
	wb, err := workbench.New([]workbench.Calculus{gradual.Calculus}, replaced(idrAsIdL{}))
	if err != nil {
		t.Fatal(err)
	}
	res := fuzz(t, wb, workbench.FuzzOptions{Props: []string{workbench.Lockstep}, Size: 5}, 2000)
	c := res.Found
	if c == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted bug", res.Checked)
	}
	t.Logf("found after %d programs:\n%s", res.Checked, c.Text())
	if !strings.Contains(c.Comment[0], "interp") || !strings.Contains(c.Comment[0], "StepCst/IdL") {
		t.Errorf("the counterexample blames %q, not the perturbed rule in interp", c.Comment[0])
	}
	if len(c.Source) > 300 {
		t.Errorf("the counterexample is not shrunk: %d characters", len(c.Source))
	}
}

// blameAll is the reduction semantics, but every value it reaches becomes blame l1.
type blameAll struct{ reduction.Stage }

func (blameAll) Gradual() g.Stage { return blameAllStage{} }

type blameAllStage struct{}

func (blameAllStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	a, err := reduction.Stage{}.Gradual().Eval(sem, e, opts)
	if err == nil && !a.Blamed {
		a = g.Answer{Blamed: true, Blame: "l1"}
	}
	return a, err
}

// TestFuzzFindsABlameViolation perturbs the reference stage so that every value
// becomes blame l1, and expects fuzz --props blame to report it on a cast-calculus
// program.
func TestFuzzFindsABlameViolation(t *testing.T) {
	wb, err := workbench.New([]workbench.Calculus{gradual.Calculus}, replaced(blameAll{}))
	if err != nil {
		t.Fatal(err)
	}
	res := fuzz(t, wb, workbench.FuzzOptions{Props: []string{"blame"}, Size: 5}, 2000)
	c := res.Found
	if c == nil {
		t.Fatalf("fuzz checked %d programs and missed the planted blame", res.Checked)
	}
	t.Logf("found after %d programs:\n%s", res.Checked, c.Text())
	if c.Prop != "blame" || c.Lang != "cast" || !strings.Contains(c.Comment[0], "blame l1") {
		t.Errorf("counterexample %q (.%s): %q", c.Prop, c.Lang, c.Comment)
	}
	if _, err := g.Parse([]byte(c.Source), g.CastCalculus); err != nil {
		t.Errorf("the counterexample %s does not parse: %v", c.Source, err)
	}
}

// wrongSeq is ED with a broken seq: it forgets c2 when c1 is an injection.
type wrongSeq struct{ g.Semantics }

func (wrongSeq) Name() string { return "wrong" }

func (s wrongSeq) Seq(c1, c2 g.Coercion) g.Coercion {
	if _, ok := c1.(*g.Inj); ok {
		return c1
	}
	return s.Semantics.Seq(c1, c2)
}

// withSeq is the gradual calculi under the one semantics wrongSeq, whose properties
// judge it.
type withSeq struct{ workbench.Calculus }

func (withSeq) Variant() workbench.Parameter {
	return workbench.Parameter{Flag: "semantics", Values: []string{"wrong"}, Default: "wrong"}
}

func (withSeq) Properties() []workbench.Property {
	return gradual.Properties(func(string) (g.Semantics, bool) { return wrongSeq{g.ED}, true })
}

// TestFuzzFindsAWrongSeq: fuzz --props seq finds a broken seq and writes the
// composition applied to a value, a well-typed cast-calculus program.
func TestFuzzFindsAWrongSeq(t *testing.T) {
	wb, err := workbench.New([]workbench.Calculus{withSeq{gradual.Calculus}}, calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	res := fuzz(t, wb, workbench.FuzzOptions{Props: []string{"seq"}, Size: 5}, 1000)
	c := res.Found
	if c == nil {
		t.Fatalf("fuzz checked %d compositions and missed the broken seq", res.Checked)
	}
	t.Logf("found after %d draws:\n%s", res.Checked, c.Text())
	if c.Prop != "seq" || c.Lang != "cast" || !strings.Contains(c.Comment[0], "seq(") {
		t.Errorf("counterexample %q (.%s): %q", c.Prop, c.Lang, c.Comment)
	}
	e, err := g.Parse([]byte(c.Source), g.CastCalculus)
	if err == nil {
		_, err = g.TypeOf(e)
	}
	if err != nil {
		t.Errorf("the counterexample %s is not a well-typed program: %v", c.Source, err)
	}
}

// zeroAD is a differentiation strategy whose derivatives are all zero.
type zeroAD struct{}

func (zeroAD) Name() string { return "zero" }
func (zeroAD) R(_ dpl.DiffEnv, _, _ dpl.Term, _ string, t dpl.Type, _ dpl.Term) (dpl.Term, error) {
	return dpl.Zero(t), nil
}

// withZero is the differentiable language under the one strategy zeroAD.
type withZero struct{ workbench.Calculus }

func (withZero) Variant() workbench.Parameter {
	return workbench.Parameter{Flag: "ad", Values: []string{"zero"}, Default: "zero"}
}

func (withZero) Properties() []workbench.Property {
	return differentiable.Properties(func(string) (dpl.Differentiator, bool) { return zeroAD{}, true })
}

// TestFuzzFindsAWrongDerivative: fuzz --props finite-differences finds a strategy
// whose derivatives are zero, and writes the derivative as a program.
func TestFuzzFindsAWrongDerivative(t *testing.T) {
	wb, err := workbench.New([]workbench.Calculus{withZero{differentiable.Calculus}}, calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	res := fuzz(t, wb, workbench.FuzzOptions{Props: []string{"finite-differences"}, Size: 5}, 1000)
	c := res.Found
	if c == nil {
		t.Fatalf("fuzz checked %d derivatives and missed the wrong strategy", res.Checked)
	}
	t.Logf("found after %d draws:\n%s", res.Checked, c.Text())
	if c.Prop != "finite-differences" || !strings.Contains(c.Comment[0], "central differences give") {
		t.Errorf("counterexample %q: %q", c.Prop, c.Comment)
	}
	if p, err := dpl.Parse([]byte(c.Source)); err != nil {
		t.Errorf("the counterexample %s does not parse: %v", c.Source, err)
	} else if _, _, err := dpl.Check(p); err != nil {
		t.Errorf("the counterexample %s is ill-typed: %v", c.Source, err)
	}
}

// TestDPLSource: a program with generated names is printed so that the command
// parses it (let-tuples elaborate to fresh z#n).
func TestDPLSource(t *testing.T) {
	prog, err := differentiable.Calculus.Load("dpl", []byte("let <a:real, b:real> = <1, 2> in a + b"))
	if err != nil {
		t.Fatal(err)
	}
	text, err := prog.Source(interderive.PrintBudget{})
	if err != nil || strings.Contains(text, "#") {
		t.Fatalf("%s (%v) still has generated names", text, err)
	}
	if _, err := dpl.Parse([]byte(text)); err != nil {
		t.Fatalf("%s: %v", text, err)
	}
}

// TestMain runs rapid properties with the project's number of checks.
func TestMain(m *testing.M) { testenv.Main(m) }
