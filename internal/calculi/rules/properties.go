package rules

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// The metatheory a rule file states by naming its typing judgment ((typing ...)):
// type soundness, which fuzz checks beside lockstep on random programs the judgment
// types. A file without a typing judgment states none.

// preservationSteps bounds the steps the property follows: random programs loop now
// and then, and the reduction semantics is quadratic.
const preservationSteps = 300

// lockstepFuel bounds the runs fuzz compares in lockstep (workbench.LockstepFueler),
// as propertyFuel bounds the gradual calculus's: random programs of a file with
// letrec loop now and then, and the reduction semantics is quadratic in the term, so
// that a looping program at the workbench's default fuel (20,000 contractions) costs
// seconds on each of six stages. A run cut short is compared up to the fuel.
const lockstepFuel = 3000

// LockstepFuel is the fuel of fuzz's lockstep runs (workbench.LockstepFueler).
func (Calculus) LockstepFuel() int { return lockstepFuel }

// typedDraws is how many programs of the grammar a check draws to find one the
// typing judgment types (about two in five of the grammar's small terms, for
// testdata/rules/stlc.sem).
const typedDraws = 50

// typingBudget bounds the search for a derivation of one term's type.
const typingBudget = 2 * time.Second

// Properties are the metatheory of the rule file (workbench.Calculus): those it
// states ((property ...)), or, where it names its typing judgment and states none,
// type soundness by steps (preservation), each checked as declared.go checks them.
func (c Calculus) Properties() []workbench.Property { return c.declared() }

// stated are the properties the file states, or, where it names its typing judgment
// and states none, preservation.
func (c Calculus) stated() []*sem.Property {
	if len(c.Lang.Properties) > 0 || c.Lang.Typing == nil {
		return c.Lang.Properties
	}
	return []*sem.Property{{Name: "preservation", Standard: "preservation"}}
}

// drawTyped draws a program the typing judgment types and its type: first from a
// random derivation of the judgment (sem's GenerateTyped, its choices rapid's draws),
// the type the one typing gives (TypeOf: the search's, should the judgment relate a
// program to several types); failing that, programs of the grammar until the judgment
// types one, at most typedDraws of them: the program and its type, or the last drawn
// and nil. A derivation's random choices are rapid's draws (choices): it shrinks as
// they do, to smaller derivations, each a well-typed program.
func (c Calculus) drawTyped(t *rapid.T, size int) (*sem.Term, *sem.Term) {
	if g, err := c.Lang.NewTypedGenerator(sem.GenOptions{MaxDepth: max(size, 1)}); err == nil {
		if p, _, err := g.GenerateTyped(rand.New(newChoices(t))); err == nil {
			if ty, _, err := c.Lang.TypeOf(p, interderive.Options{Timeout: typingBudget}); err == nil && ty != nil {
				return p, ty
			}
		}
	}
	g := Generator{Lang: c.Lang, Depth: size}
	var p *sem.Term
	for range typedDraws {
		p = g.Draw(t)
		if ty, _, err := c.Lang.TypeOf(p, interderive.Options{Timeout: typingBudget}); err == nil && ty != nil {
			return p, ty
		}
	}
	return p, nil
}

// Preservation follows the steps of the closed term t of type ty on the stepper (the
// reference semantics), at most budget of them: every step must decompose and
// contract (progress), its result have the type ty (preservation) unless it is an
// answer of the root kind that is not a value (an error: the run ends there), and the
// answer, once reached, be a value or an answer of the root kind. It reports the first
// step that does not. With ty nil, no type is checked (Soundness).
func Preservation(l *sem.Language, s sem.Stepper, t, ty *sem.Term, budget int) error {
	for range budget {
		next, rule, done, err := s.Step(l, t)
		if err != nil {
			return fmt.Errorf("no progress: %v, in %s", err, sem.FormatShort(t, 200))
		}
		if done {
			if !l.IsValue(next, l.Root()) && !l.IsAnswer(next, l.Root()) {
				return fmt.Errorf("the answer %s is neither a value nor an answer", sem.FormatShort(next, 200))
			}
			return nil
		}
		if ty == nil {
			t = next
			continue
		}
		if l.IsAnswer(next, l.Root()) && !l.IsValue(next, l.Root()) {
			// A step to an answer that is not a value ("error", an uncaught
			// exception) ends the run: answers are outside the types, as the Redex
			// benchmark's property has it (a well-typed term steps to an error or to a
			// term of its type).
			return nil
		}
		got, _, err := l.TypeOf(next, interderive.Options{Timeout: typingBudget})
		if err != nil || got == nil || !sem.AlphaEqual(got, ty) {
			have := "no type"
			if got != nil {
				have = "the type " + sem.Format(got)
			}
			return fmt.Errorf("%s does not preserve the type %s: %s steps to %s, which has %s",
				rule, sem.Format(ty), sem.FormatShort(t, 200), sem.FormatShort(next, 200), have)
		}
		t = next
	}
	return nil
}
