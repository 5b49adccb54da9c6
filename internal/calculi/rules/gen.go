package rules

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// Generator draws closed terms of a rule file's grammar, of depth about Depth: every
// constructor of a sort, integers (small, and the file's corner cases 0 and 1 often)
// and the variables bound around, with binders named from a small set so that
// shadowing and capture are common. A term of depth Depth is a leaf when its sort has
// one (an integer, a variable in scope), else the constructor with the fewest term
// arguments: the size of a term is linear in its depth for the grammars whose
// constructors have at most a few term arguments.
type Generator struct {
	Lang  *sem.Language
	Depth int

	has map[*sem.Sort]bool // the sorts with closed terms (sem.Inhabited), found by Draw
}

// maxOverrun bounds how far below depth 0 a term may go to reach a leaf (a sort whose
// every constructor has a term argument, and no leaf in scope).
const maxOverrun = 16

// names are the binders' names: few, so that terms shadow and capture.
var names = []string{"x", "y", "f"}

// Draw draws a closed term of the program sort.
func (g Generator) Draw(t *rapid.T) *sem.Term {
	g.has = sem.Inhabited(g.Lang)
	return g.term(t, g.Lang.Sorts[0], max(g.Depth, 1), map[*sem.Sort][]string{})
}

// term draws a term of sort so within depth, scope listing the variables bound
// around by sort.
func (g Generator) term(t *rapid.T, so *sem.Sort, depth int, scope map[*sem.Sort][]string) *sem.Term {
	if depth < -maxOverrun {
		t.Fatalf("sort %s has no closed term of small depth", so.Name)
	}
	var choices []func() *sem.Term
	if so.Ints {
		choices = append(choices, func() *sem.Term {
			return sem.Int(sem.Pos{}, rapid.Int64Range(-2, 5).Draw(t, "n"))
		})
	}
	for _, a := range so.Atoms {
		choices = append(choices, func() *sem.Term {
			return sem.AtomOf(sem.Pos{}, a, rapid.SampledFrom(a.Samples).Draw(t, a.Name))
		})
	}
	if so.Vars && len(scope[so]) > 0 {
		vs := scope[so]
		choices = append(choices, func() *sem.Term { return sem.Var(sem.Pos{}, rapid.SampledFrom(vs).Draw(t, "x")) })
	}
	leaves := len(choices)
	if depth > 1 || leaves == 0 {
		// Only the constructors that have closed nodes: one with an argument of a sort
		// without closed terms would never end.
		var cons []*sem.Con
		for _, c := range so.Cons {
			if sem.ConInhabited(c, g.has) {
				cons = append(cons, c)
			}
		}
		if depth <= 1 {
			cons = smallest(cons)
		}
		for _, c := range cons {
			choices = append(choices, func() *sem.Term { return g.con(t, c, depth, scope) })
		}
	}
	if len(choices) == 0 {
		t.Fatalf("sort %s has no closed term of depth %d", so.Name, depth)
	}
	// Leaves and constructors are drawn alike: a leaf ends the branch early.
	i := rapid.IntRange(0, len(choices)-1).Draw(t, fmt.Sprintf("%s-choice", so.Name))
	return choices[i]()
}

// con draws the constructor c applied to arguments of depth at most depth-1, its
// binders named from names and in scope in the arguments they bind in.
func (g Generator) con(t *rapid.T, c *sem.Con, depth int, scope map[*sem.Sort][]string) *sem.Term {
	args := make([]*sem.Term, len(c.Args))
	for i, a := range c.Args {
		if a.Kind == sem.ArgVar {
			args[i] = sem.Var(sem.Pos{}, rapid.SampledFrom(names).Draw(t, "binder"))
		}
	}
	for i, a := range c.Args {
		switch a.Kind {
		case sem.ArgInt:
			args[i] = sem.Int(sem.Pos{}, rapid.Int64Range(-2, 5).Draw(t, "n"))
		case sem.ArgTerm:
			inner := scope
			if bs := c.BindersOf(i); len(bs) > 0 {
				inner = map[*sem.Sort][]string{}
				for so, vs := range scope {
					inner[so] = vs
				}
				for _, b := range bs {
					so := c.Args[b].Sort
					if so.IsSeq() { // a sequence of binders
						so = so.Elem.Sort
					}
					inner[so] = append(append([]string(nil), inner[so]...), slices.Collect(sem.BinderNames(args[b]))...)
				}
			}
			args[i] = g.term(t, a.Sort, depth-1, inner)
		}
	}
	return sem.App(sem.Pos{}, c, args...)
}

// smallest are the constructors with the fewest term arguments.
func smallest(cons []*sem.Con) []*sem.Con {
	best, out := -1, []*sem.Con(nil)
	for _, c := range cons {
		n := 0
		for _, a := range c.Args {
			if a.Kind == sem.ArgTerm {
				n++
			}
		}
		switch {
		case best < 0 || n < best:
			best, out = n, []*sem.Con{c}
		case n == best:
			out = append(out, c)
		}
	}
	return out
}

// choices is a source of random numbers (math/rand/v2's Source) drawn from rapid, one
// draw a number, for the random derivations of drawTyped: a derivation is then made
// of rapid's draws, and rapid shrinks a counterexample by shrinking them, each
// shrunk candidate a derivation again (a well-typed program). rapid draws small
// integers more often than large ones, and shrinks toward 0: a number is its draw
// with its bits reversed, so that its high bits, which the choices of a derivation
// read, are the draw's random low bits, and a draw shrunk to 0 makes the first
// choice, the smallest (a rule without a recursive premise, the first clause, the
// smallest term: sem's order of candidates).
type choices struct {
	t   *rapid.T
	gen *rapid.Generator[uint64]
}

// newChoices is the source of t's draws.
func newChoices(t *rapid.T) choices { return choices{t: t, gen: rapid.Uint64()} }

// Uint64 is the next draw, its bits reversed.
func (c choices) Uint64() uint64 { return bits.Reverse64(c.gen.Draw(c.t, "choice")) }
