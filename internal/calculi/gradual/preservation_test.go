package gradual

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// testPreservationSteps bounds the steps followed per program (fuzz follows
// preservationSteps): every step re-checks the whole term, so a diverging program
// costs steps × size.
const testPreservationSteps = 1000

// preserve runs the translated program step by step with r and checks, at every
// step, progress (a well-typed term is an answer or decomposes: never stuck) and
// preservation (the next term has the program's type ty, up to Bot, the type of
// blame). At an answer, a value must have type ty too. (CastPreservation, which fuzz
// checks, follows fewer steps and leaves the answer's type alone.)
func preserve(t *rapid.T, r reduction.Cast, p program, ty g.Type) {
	e := g.Translate(r.Sem, p.term)
	if got, err := g.TypeOf(e); err != nil || !g.Equal(got, ty) {
		t.Fatalf("%s: translation changes the type %s to %v (%v)\n%s", r.Sem.Name(), ty, got, err, describe(p))
	}
	for i := range testPreservationSteps {
		step, done, err := r.Reduce(e)
		if err != nil {
			t.Fatalf("%s, step %d: stuck: %v\nterm: %s\n%s", r.Sem.Name(), i+1, err, g.Format(e), describe(p))
		}
		if done {
			if !step.Answer.Blamed {
				if got, err := g.TypeOf(step.Answer.Value); err != nil || !g.Equal(got, ty) {
					t.Fatalf("%s: the value %s has type %v (%v), not %s\n%s", r.Sem.Name(), step.Answer, got, err, ty, describe(p))
				}
			}
			return
		}
		next, err := g.TypeOf(step.Next)
		if err != nil || !g.Equal(next, ty) {
			t.Fatalf("%s, step %d: %s does not preserve the type %s: %v %v\nbefore: %s\nafter:  %s\n%s",
				r.Sem.Name(), i+1, step.Redex.Rule(), ty, next, err, g.Format(e), g.Format(step.Next), describe(p))
		}
		e = step.Next
	}
}

// TestPreservation: along the reference run (reduction.Cast's Reduce, the reduction
// semantics of spec §4), every intermediate term of a random well-typed program has
// the program's type (gradual.Equal), and no step gets stuck, for GTLC programs
// (after cast insertion) and cast-calculus programs, under every semantics. It also
// holds in the space-efficient mode, whose MergeCst turns <c> <d> e into <d ; c> e.
func TestPreservation(t *testing.T) {
	t.Parallel()
	for _, sem := range g.Standard() {
		for _, lang := range languages(sem) {
			t.Run(sem.Name()+"/"+lang.name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					p := drawProgram(t, lang.cfg)
					ty, err := g.TypeOf(p.term)
					if err != nil {
						t.Fatalf("ill-typed: %v\n%s", err, describe(p))
					}
					preserve(t, reduction.Cast{Sem: sem}, p, ty)
					preserve(t, reduction.Cast{Sem: sem, Merge: true}, p, ty)
				})
			})
		}
	}
}

// TestReduceCastIsTheReferenceStep: reduction.ReduceCast is the step of the unmerged
// reduction semantics that the preservation property follows.
func TestReduceCastIsTheReferenceStep(t *testing.T) {
	// <Int <= Dyn>^l2 <Dyn <= Int>^l1 4 (spec §7, first row), under LD: the inner
	// coercion application <Int!> 4 is a value, so the first step is CmpCst, giving
	// <Int! ; Int?^l2> 4 (spec §4, CmpCst), of type Int.
	e := g.Translate(g.LD, &g.Cast{Target: g.Int, Source: g.Dyn, L: "l2", X: &g.Cast{Target: g.Dyn, Source: g.Int, L: "l1", X: &g.IntLit{N: 4}}})
	step, done, err := reduction.ReduceCast(g.LD, e)
	if err != nil || done || step.Redex.Rule() != "CmpCst" {
		t.Fatalf("first step: %v %v %v", step.Redex, done, err)
	}
	want := &g.Coerce{C: g.Then(&g.Inj{T: g.Int}, &g.Proj{T: g.Int, L: "l2"}), X: &g.IntLit{N: 4}}
	if !g.AlphaEqual(step.Next, want) {
		t.Fatalf("after CmpCst: %s, want %s", g.Format(step.Next), g.Format(want))
	}
	if ty, err := g.TypeOf(step.Next); err != nil || !g.Equal(ty, g.Int) {
		t.Fatalf("type after CmpCst: %v %v", ty, err)
	}
}
