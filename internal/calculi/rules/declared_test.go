package rules_test

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// stated are the properties TestDeclared states of stlc.sem.
const stated = `
(property progress)
(property preservation)
(property type-soundness)
(property determinism)
(property keeps (e e_2) (typeof (empty) e τ) (typeof (empty) e_2 τ_2) (where (= τ τ_2)))
`

// TestDeclared: the properties a file states are what fuzz checks, in its order, and
// they hold of stlc.sem on random well-typed programs.
func TestDeclared(t *testing.T) {
	c := stlcWith(t, "(typing (typeof (empty) e τ))", "(typing (typeof (empty) e τ))"+stated)
	props := c.Properties()
	var names []string
	for _, p := range props {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, " "); got != "progress preservation type-soundness determinism keeps" {
		t.Fatalf("properties: %s", got)
	}
	stages := calculi.Stages()[:1]
	for _, p := range props {
		rapid.Check(t, func(rt *rapid.T) {
			if ce := p.Check(rt, 4, "file", stages); ce != nil {
				rt.Fatalf("%s: %s\n%s", p.Name, ce.Comment, ce.Source)
			}
		})
	}
}

// TestDeclaredFindBugs: the properties fail where a seeded bug of stlc.sem shows
// (the steps derived by hand): βv that keeps its body unsubstituted steps ((λ (x num)
// x) 1) to x, free: no type (keeps fails), and stuck (type soundness fails).
func TestDeclaredFindBugs(t *testing.T) {
	bugged := stlcWith(t, "(rule βv E (app (lam x τ e) v) (subst e x v))", "(rule βv E (app (lam x τ e) v) e)")
	l, err := sem.Load(append(bugged.Lang.Source(), stated...))
	if err != nil {
		t.Fatal(err)
	}
	read := func(s string) *sem.Term {
		x, err := l.ReadTermOf([]byte(s), l.Sorts[0], true)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	keeps, _ := l.Property("keeps")
	ok, why, err := l.Holds(keeps, read("((λ (x num) x) 1)"), read("x"), interderive.Options{})
	if err != nil || ok || len(why) == 0 {
		t.Errorf("keeps of ((λ (x num) x) 1) → x: %v %v %v, want a failure", ok, why, err)
	}
	st, _ := sem.StageOf(calculi.Stages()[0])
	err = rules.Soundness(l, st.(sem.Stepper), read("((λ (x num) x) 1)"), 10)
	if err == nil || !strings.Contains(err.Error(), "no progress") {
		t.Errorf("soundness of ((λ (x num) x) 1) under the bug: %v, want no progress (x is free)", err)
	}
}
