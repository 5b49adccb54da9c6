package reduction_test

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// progressAndPreservation runs a well-typed, translated program step by step: every
// step must decompose (progress: never stuck) and give a term of the original type
// (preservation), until an answer or the step budget.
func progressAndPreservation(t *rapid.T, sem g.Semantics, e g.Expr, budget int) {
	ty, err := g.TypeOf(e)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v\n%s", err, g.Format(e))
	}
	e = g.Translate(sem, e)
	for range budget {
		step, done, err := reduction.ReduceCast(sem, e)
		if err != nil {
			t.Fatalf("%s: stuck: %v\nterm: %s", sem.Name(), err, g.Format(e))
		}
		if done {
			return
		}
		next, err := g.TypeOf(step.Next)
		if err != nil || !g.Equal(next, ty) {
			t.Fatalf("%s: %s does not preserve the type %s: %v %v\nbefore: %s\nafter:  %s",
				sem.Name(), step.Redex.Rule(), ty, next, err, g.Format(e), g.Format(step.Next))
		}
		e = step.Next
	}
}

// TestCastProgramsProgressAndPreserve: random well-typed cast-calculus programs (with
// type-based casts, explicit coercions and blame) never get stuck, and every step
// preserves their type, under every semantics.
func TestCastProgramsProgressAndPreserve(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				e := gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem), Depth: 4})
				progressAndPreservation(t, sem, e, 300)
			})
		})
	}
}

// TestGTLCProgramsProgressAndPreserve: cast insertion turns random well-typed GTLC
// programs into cast-calculus programs of the same type, which then never get stuck
// and preserve their type at every step.
func TestGTLCProgramsProgressAndPreserve(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				src := gradualgen.Program(t, gradualgen.Config{Depth: 4})
				e, ty, err := g.InsertCasts(src)
				if err != nil {
					t.Fatalf("generated GTLC program rejected: %v\n%s", err, g.Format(src))
				}
				if got, err := g.TypeOf(e); err != nil || !g.Equal(got, ty) {
					t.Fatalf("cast insertion gave type %s, but the result has type %v (%v)\n%s", ty, got, err, g.Format(e))
				}
				progressAndPreservation(t, sem, e, 300)
			})
		})
	}
}

// TestStepCstAgreesWithStep: the reduction semantics' inner layer (explicit coercion
// contexts) takes the same step as the coercion reduction relation of package gradual.
func TestStepCstAgreesWithStep(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				c := gradualgen.Coercion(t, g.Int, g.Dyn, gradualgen.For(sem), 4)
				term := &g.Coerce{C: c, X: &g.IntLit{N: 1}}
				want, wantRule, reducible := g.Step(sem, c)
				step, done, err := reduction.ReduceCast(sem, term)
				if err != nil {
					t.Fatalf("%s: %v", g.FormatCoercion(c), err)
				}
				if done { // <c̄> 1 is a value: c̄ must be normal
					if reducible {
						t.Fatalf("<%s> 1 is taken for a value, but %s applies", g.FormatCoercion(c), wantRule)
					}
					return
				}
				cst, isStep := step.Redex.(*reduction.StepCst)
				if isStep != reducible {
					t.Fatalf("%s: StepCst %v, but reducible %v", g.FormatCoercion(c), isStep, reducible)
				}
				if !isStep {
					return
				}
				got := step.Next.(*g.Coerce).C
				if cst.CRule != wantRule || !g.EqualCoercions(got, want) {
					t.Fatalf("%s: StepCst/%s gives %s; Step gives %s by %s", g.FormatCoercion(c), cst.CRule, g.FormatCoercion(got), g.FormatCoercion(want), wantRule)
				}
			})
		})
	}
}
