// Package gradualgen generates random well-typed types, coercions and programs of the
// gradual calculi for property tests (rapid). Generators are type-directed, so every
// program they produce type-checks by construction; rapid shrinks failures through
// the choices they draw.
//
// The program generator aims at the behaviour that distinguishes the cast semantics
// and that the derivation stages must reproduce step for step: higher-order functions
// that are passed to and returned from functions and then applied, functions crossing
// Dyn at mismatched types (so that CmpCst, AppCst and the coercion rules Arr, IdL,
// IdR, InOut, FailL, FailR and ArrFail fire), blame in every evaluation context, and
// letrec loops, most of them terminating and a few not.
//
// rapid favours small draws (and shrinks towards them): every choice puts the forms
// that build structure at the small values, and rare features (explicit blame,
// divergence) at a middle value that neither the bias nor shrinking favours.
package gradualgen

import (
	g "github.com/interderive/interderive/gradual"
	"pgregory.net/rapid"
)

// DefaultDepth is the program depth the differential tests use: deep enough for
// functions to be passed, returned, cast through Dyn and applied, shallow enough for
// thousands of programs to run on every stage in seconds.
const DefaultDepth = 6

// Type draws a type of at most the given depth. (rapid favours small draws, so the
// arrow, which makes the interesting casts, comes first.)
func Type(t *rapid.T, depth int, label string) g.Type {
	k := rapid.IntRange(0, 3).Draw(t, label)
	if depth <= 0 && k == 0 {
		k = rapid.IntRange(1, 3).Draw(t, label+"-base")
	}
	switch k {
	case 1:
		return g.Int
	case 2:
		return g.Bool
	case 3:
		return g.Dyn
	}
	return g.Fn(Type(t, depth-1, label+"-dom"), Type(t, depth-1, label+"-cod"))
}

// TypeGen is Type as a rapid generator.
func TypeGen(depth int) *rapid.Generator[g.Type] {
	return rapid.Custom(func(t *rapid.T) g.Type { return Type(t, depth, "type") })
}

// Consistent draws a type consistent with t.
func Consistent(t *rapid.T, ty g.Type, depth int, label string) g.Type {
	if rapid.IntRange(0, 4).Draw(t, label) == 4 {
		return g.Dyn
	}
	switch ty := ty.(type) {
	case g.DynType:
		return Type(t, depth, label+"-any")
	case *g.Arrow:
		return g.Fn(Consistent(t, ty.From, depth-1, label+"-dom"), Consistent(t, ty.To, depth-1, label+"-cod"))
	}
	return ty
}

// Injectable tells which types a strategy injects into Dyn.
type Injectable func(g.Type) bool

// D injects every type but Dyn; UD only the ground types.
var (
	D  Injectable = func(t g.Type) bool { return t != g.Dyn }
	UD Injectable = g.IsGround
)

// For returns the injectable types of a standard semantics.
func For(sem g.Semantics) Injectable {
	if sem == g.LUD || sem == g.EUD {
		return UD
	}
	return D
}

var labels = []g.Label{"l1", "l2", "l3"}

// Label draws a blame label.
func Label(t *rapid.T, name string) g.Label {
	return rapid.SampledFrom(labels).Draw(t, name)
}

// Coercion draws a well-typed coercion c : s => u, using only the injections inj
// allows.
func Coercion(t *rapid.T, s, u g.Type, inj Injectable, depth int) g.Coercion {
	type option func() g.Coercion
	var opts []option
	if g.Identical(s, u) {
		opts = append(opts, func() g.Coercion { return g.Id })
	}
	if u == g.Dyn && s != g.Dyn && inj(s) {
		opts = append(opts, func() g.Coercion { return &g.Inj{T: s} })
	}
	if s == g.Dyn && u != g.Dyn && inj(u) {
		opts = append(opts, func() g.Coercion { return &g.Proj{T: u, L: Label(t, "proj")} })
	}
	sa, sArrow := s.(*g.Arrow)
	ua, uArrow := u.(*g.Arrow)
	if sArrow && uArrow {
		opts = append(opts, func() g.Coercion {
			return &g.Func{Dom: Coercion(t, ua.From, sa.From, inj, depth-1), Cod: Coercion(t, sa.To, ua.To, inj, depth-1)}
		})
	}
	if depth > 0 {
		if s == g.Dyn && uArrow && !inj(u) { // through the ground type Dyn -> Dyn
			opts = append(opts, func() g.Coercion {
				return g.Then(&g.Proj{T: g.DynDyn, L: Label(t, "proj")}, Coercion(t, g.DynDyn, u, inj, depth-1))
			})
		}
		if u == g.Dyn && sArrow && !inj(s) {
			opts = append(opts, func() g.Coercion {
				return g.Then(Coercion(t, s, g.DynDyn, inj, depth-1), &g.Inj{T: g.DynDyn})
			})
		}
		opts = append(opts, func() g.Coercion {
			m := Consistent(t, s, 2, "middle")
			if rapid.Bool().Draw(t, "middle-from-target") {
				m = Consistent(t, u, 2, "middle")
			}
			return g.Then(Coercion(t, s, m, inj, depth-1), Coercion(t, m, u, inj, depth-1))
		})
	}
	// fail^l has every type: it is always possible, but drawn rarely unless nothing
	// else fits.
	fail := func() g.Coercion { return &g.Fail{L: Label(t, "fail")} }
	if len(opts) == 0 || rapid.IntRange(0, 15).Draw(t, "fail?") == 15 {
		return fail()
	}
	return opts[rapid.IntRange(0, len(opts)-1).Draw(t, "coercion")]()
}

// Normal draws a well-typed coercion s => u and normalises it under sem: a random
// well-typed normal form of sem.
func Normal(t *rapid.T, sem g.Semantics, s, u g.Type, depth int) g.Coercion {
	c := Coercion(t, s, u, For(sem), depth)
	n, _, ok := g.Normalize(sem, c, 10_000)
	if !ok {
		t.Fatalf("%s: coercion %s does not normalise", sem.Name(), g.FormatCoercion(c))
	}
	return n
}
