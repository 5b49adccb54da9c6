package gradualgen

import (
	g "github.com/interderive/interderive/gradual"
	"pgregory.net/rapid"
)

// Rules lists the coercion reduction rules of a standard semantics (spec §3.2 for the
// lazy ones, §3.3 for the eager ones).
func Rules(sem g.Semantics) []string {
	rules := []string{g.RuleIdL, g.RuleIdR, g.RuleInOut, g.RuleArr, g.RuleFailCo, g.RuleInFail}
	if g.Eager(sem) {
		return append(rules, g.RuleFailL, g.RuleFailR)
	}
	return append(rules, g.RuleArrFail)
}

// Composition is a pair of normal forms C1 : S => T and C2 : T => U, whose composition
// C1 ; C2 the seq property normalises.
type Composition struct {
	S, T, U g.Type
	C1, C2  g.Coercion
	// Target is the rule the composition was drawn to fire (Targeted), "" for a random
	// one.
	Target string
}

// grounds are the types every standard semantics injects (the ground types of UD, all
// injectable under D too).
var grounds = []g.Type{g.Int, g.Bool, g.DynDyn}

// Targeted draws a composition of normal forms of sem whose reduction fires rule (one
// of Rules(sem)): a test that needs the rule to fire makes it fire, rather than hoping
// a random pair meets it. The shape is the rule's left-hand side, reached as the first
// redex of leftmost-innermost reduction; the types, labels and ground types are drawn.
// By hand, with I, J, K, L ground types, I ≠ J where the rule needs them to differ:
//
//	IdL      id ; ĉ                                       ĉ : T => U a random normal form
//	IdR      I! ; id, or I?^l ; id
//	InOut    I! ; J?^l
//	Arr      (id -> id) ; (id -> id), or (I?^l -> J!) ; (K! -> L?^l')
//	FailCo   fail^l ; I?^l'
//	InFail   I! ; fail^l
//	ArrFail  (id -> id) ; fail^l, or (I?^l -> J!) ; fail^l'        (lazy)
//	FailL    (I?^l -> id) ; (J! -> id): Arr, InOut to fail^l, IdL, then
//	         (fail^l -> id) -> fail^l                              (eager)
//	FailR    (id -> J!) ; (id -> I?^l): Arr, id ; id, InOut to fail^l, then
//	         (id -> fail^l) -> fail^l                              (eager)
func Targeted(t *rapid.T, sem g.Semantics, rule string) Composition {
	c := targeted(t, sem, rule)
	c.Target = rule
	return c
}

func targeted(t *rapid.T, sem g.Semantics, rule string) Composition {
	ground := func(name string) g.Type { return rapid.SampledFrom(grounds).Draw(t, name) }
	// two distinct ground types
	two := func() (g.Type, g.Type) {
		i := rapid.IntRange(0, len(grounds)-1).Draw(t, "I")
		j := (i + 1 + rapid.IntRange(0, len(grounds)-2).Draw(t, "J")) % len(grounds)
		return grounds[i], grounds[j]
	}
	proj := func(ty g.Type, name string) g.Coercion { return &g.Proj{T: ty, L: Label(t, name)} }
	fail := func(name string) g.Coercion { return &g.Fail{L: Label(t, name)} }
	switch rule {
	case g.RuleIdL:
		m := Type(t, 2, "T")
		u := Consistent(t, m, 2, "U")
		return Composition{S: m, T: m, U: u, C1: g.Id, C2: Normal(t, sem, m, u, 3)}
	case g.RuleIdR:
		i := ground("I")
		if rapid.Bool().Draw(t, "injection") {
			return Composition{S: i, T: g.Dyn, U: g.Dyn, C1: &g.Inj{T: i}, C2: g.Id}
		}
		return Composition{S: g.Dyn, T: i, U: i, C1: proj(i, "l"), C2: g.Id}
	case g.RuleInOut:
		i, j := ground("I"), ground("J")
		return Composition{S: i, T: g.Dyn, U: j, C1: &g.Inj{T: i}, C2: proj(j, "l")}
	case g.RuleArr, g.RuleArrFail:
		var s, m g.Type
		var c1 g.Coercion
		if rapid.Bool().Draw(t, "identities") {
			m = g.Fn(Type(t, 1, "A"), Type(t, 1, "B"))
			s, c1 = m, &g.Func{Dom: g.Id, Cod: g.Id}
		} else {
			i, j := ground("I"), ground("J")
			s, m, c1 = g.Fn(i, j), g.DynDyn, &g.Func{Dom: proj(i, "l1"), Cod: &g.Inj{T: j}}
		}
		if rule == g.RuleArrFail {
			u := Type(t, 1, "U")
			return Composition{S: s, T: m, U: u, C1: c1, C2: fail("l2")}
		}
		if _, id := c1.(*g.Func).Dom.(g.IdC); id {
			return Composition{S: s, T: m, U: m, C1: c1, C2: &g.Func{Dom: g.Id, Cod: g.Id}}
		}
		k, l := ground("K"), ground("L")
		return Composition{S: s, T: m, U: g.Fn(k, l), C1: c1, C2: &g.Func{Dom: &g.Inj{T: k}, Cod: proj(l, "l2")}}
	case g.RuleFailCo:
		i := ground("I")
		s := Type(t, 1, "S")
		return Composition{S: s, T: g.Dyn, U: i, C1: fail("l1"), C2: proj(i, "l2")}
	case g.RuleInFail:
		i := ground("I")
		u := Type(t, 1, "U")
		return Composition{S: i, T: g.Dyn, U: u, C1: &g.Inj{T: i}, C2: fail("l")}
	case g.RuleFailL:
		i, j := two()
		b := Type(t, 1, "B")
		return Composition{S: g.Fn(i, b), T: g.Fn(g.Dyn, b), U: g.Fn(j, b),
			C1: &g.Func{Dom: proj(i, "l"), Cod: g.Id}, C2: &g.Func{Dom: &g.Inj{T: j}, Cod: g.Id}}
	case g.RuleFailR:
		i, j := two()
		a := Type(t, 1, "A")
		return Composition{S: g.Fn(a, j), T: g.Fn(a, g.Dyn), U: g.Fn(a, i),
			C1: &g.Func{Dom: g.Id, Cod: &g.Inj{T: j}}, C2: &g.Func{Dom: g.Id, Cod: proj(i, "l")}}
	}
	t.Fatalf("no composition targets rule %q of %s", rule, sem.Name())
	return Composition{}
}
