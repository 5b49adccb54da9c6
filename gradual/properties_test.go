package gradual_test

import (
	"slices"
	"testing"

	g "github.com/interderive/interderive/gradual"
	gradualcalc "github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"pgregory.net/rapid"
)

// grammarNormal is the normal-form grammar of a standard semantics (spec §3.2, §3.3).
func grammarNormal(sem g.Semantics, c g.Coercion) bool {
	if g.Eager(sem) {
		return g.IsEagerNormal(c)
	}
	return g.IsLazyNormal(c)
}

// TestSeqCorrect is the correctness of composition (a conjecture of Siek & Garcia,
// proved for ED in PEPM 2014): for well-typed normal forms ĉ1 : S => T and
// ĉ2 : T => U, seq(ĉ1, ĉ2) is the normal form that one-step reduction reaches from
// ĉ1 ; ĉ2 (internal/calculi/gradual's SeqCorrect, on its DrawComposition's pairs).
func TestSeqCorrect(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(tt *testing.T) {
			fired := map[string]int{}
			rapid.Check(tt, func(t *rapid.T) {
				c := gradualcalc.DrawComposition(t, sem)
				rules, err := gradualcalc.SeqCorrect(sem, c.C1, c.C2)
				for _, r := range rules {
					fired[r]++
				}
				if err != nil {
					t.Fatal(err)
				}
				if c.Target != "" && !slices.Contains(rules, c.Target) {
					t.Fatalf("%s ; %s was drawn to fire %s, but reduces by %v", g.FormatCoercion(c.C1), g.FormatCoercion(c.C2), c.Target, rules)
				}
			})
			// The property is only as strong as the compositions it saw: every rule of
			// the semantics must have fired (FireEvery draws for those that did not).
			if err := gradualcalc.FireEvery(sem, gradualgen.Rules(sem), fired); err != nil {
				tt.Fatal(err)
			}
			tt.Logf("rules fired: %v", fired)
			for _, r := range gradualgen.Rules(sem) {
				if fired[r] == 0 {
					tt.Errorf("rule %s never fired: the generator is too weak (fired: %v)", r, fired)
				}
			}
		})
	}
}

// TestNormalFormsAgree: a well-typed coercion is irreducible exactly when the
// normal-form grammar of its semantics generates it, and reduction preserves its type.
func TestNormalFormsAgree(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := gradualgen.Type(t, 2, "S")
				u := gradualgen.Consistent(t, s, 2, "U")
				c := gradualgen.Coercion(t, s, u, gradualgen.For(sem), 4)
				for range 1000 {
					if irreducible, grammar := g.IsNormal(sem, c), grammarNormal(sem, c); irreducible != grammar {
						t.Fatalf("%s: irreducible %v but in the normal-form grammar %v", g.FormatCoercion(c), irreducible, grammar)
					}
					target, err := g.CoercionTarget(c, s)
					if err != nil || !g.Equal(target, u) {
						t.Fatalf("%s no longer has type %s => %s: %v, %v", g.FormatCoercion(c), s, u, target, err)
					}
					next, _, ok := g.Step(sem, c)
					if !ok {
						return
					}
					c = next
				}
				t.Fatalf("no normal form after 1000 steps")
			})
		})
	}
}

// TestTranslationsNormal: every translation ⟨⟨T ⇐ S⟩⟩^l between consistent types is a
// normal form of its semantics, of type S => T.
func TestTranslationsNormal(t *testing.T) {
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				s := gradualgen.Type(t, 3, "S")
				u := gradualgen.Type(t, 3, "T")
				if rapid.Bool().Draw(t, "consistent") {
					u = gradualgen.Consistent(t, s, 3, "T~S")
				}
				c := sem.Translate(u, s, "l")
				if !grammarNormal(sem, c) || !g.IsNormal(sem, c) {
					t.Fatalf("<<%s <= %s>> = %s is not normal", u, s, g.FormatCoercion(c))
				}
				if target, err := g.CoercionTarget(c, s); err != nil || !g.Equal(target, u) {
					t.Fatalf("<<%s <= %s>> = %s has target %v (%v)", u, s, g.FormatCoercion(c), target, err)
				}
			})
		})
	}
}

// TestSeqAssociative: composition of well-typed normal forms is associative in the
// lazy semantics — which is what makes merging pending coercions answer-preserving
// there (MergesSafely). The eager semantics are not: see TestSeqNotAssociativeEager.
func TestSeqAssociative(t *testing.T) {
	for _, sem := range []g.Semantics{g.LD, g.LUD} {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				t1 := gradualgen.Type(t, 2, "T1")
				t0 := gradualgen.Consistent(t, t1, 2, "T0")
				t2 := gradualgen.Consistent(t, t1, 2, "T2")
				t3 := gradualgen.Consistent(t, t2, 2, "T3")
				c1 := gradualgen.Normal(t, sem, t0, t1, 3)
				c2 := gradualgen.Normal(t, sem, t1, t2, 3)
				c3 := gradualgen.Normal(t, sem, t2, t3, 3)
				left, right := sem.Seq(sem.Seq(c1, c2), c3), sem.Seq(c1, sem.Seq(c2, c3))
				if !g.EqualCoercions(left, right) {
					t.Fatalf("(%s ; %s) ; %s = %s, but %s ; (%s ; %s) = %s",
						g.FormatCoercion(c1), g.FormatCoercion(c2), g.FormatCoercion(c3), g.FormatCoercion(left),
						g.FormatCoercion(c1), g.FormatCoercion(c2), g.FormatCoercion(c3), g.FormatCoercion(right))
				}
			})
		})
	}
}

// TestSeqNotAssociativeEager is the counterexample of MergesSafely, worked by hand:
// (c1 ; c2) ; c3 = (fail^l1 -> id) ; c3 = fail^l1 by FailL, but c2 ; c3 is the
// normal (Bool?^l3 ; Bool!) -> Int!, and c1 ; (c2 ; c3) = (Bool?^l3 ; fail^l1) -> Int!.
func TestSeqNotAssociativeEager(t *testing.T) {
	c1, c2, c3 := coercion(t, "Int?^l1 -> id"), coercion(t, "Bool! -> id"), coercion(t, "Bool?^l3 -> Int!")
	for _, sem := range []g.Semantics{g.ED, g.EUD} {
		if got := sem.Seq(sem.Seq(c1, c2), c3); !g.EqualCoercions(got, coercion(t, "fail^l1")) {
			t.Errorf("%s: (c1 ; c2) ; c3 = %s", sem.Name(), g.FormatCoercion(got))
		}
		if got := sem.Seq(c1, sem.Seq(c2, c3)); !g.EqualCoercions(got, coercion(t, "(Bool?^l3 ; fail^l1) -> Int!")) {
			t.Errorf("%s: c1 ; (c2 ; c3) = %s", sem.Name(), g.FormatCoercion(got))
		}
	}
}
