package gradual

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// The metatheory of the gradual calculi, as functions of their inputs, for the
// properties that fuzz and the tests check: the blame theorem, the correctness of
// composition, progress and preservation. Each returns nil when the property holds.

// The blame theorem of Siek, Garcia & Taha (ESOP 2009, "Exploring the design space of
// higher-order casts"): a cast <T <= S>^l whose types respect the subtyping relation
// of the blame strategy is never the one blamed. Each strategy has its own relation
// (their Fig. 3; also jsiek/gradual-typing-in-agda, Subtyping.agda, <:₁ and <:₃):
//
// Downcast (D: LD, ED), where Dyn is the top of the ordinary subtyping:
//
//	S <: Dyn                 for every S (Dyn included)
//	B <: B
//	S1 -> S2 <: T1 -> T2     iff T1 <: S1 and S2 <: T2
//
// Upcast-downcast (UD: LUD, EUD), where a type is below Dyn only through a ground type:
//
//	Dyn <: Dyn
//	B <: B,  B <: Dyn
//	S1 -> S2 <: Dyn          iff S1 -> S2 <: Dyn -> Dyn, i.e. S1 = Dyn (Dyn <: S1
//	                         holds only for S1 = Dyn) and S2 <: Dyn
//	S1 -> S2 <: T1 -> T2     iff T1 <: S1 and S2 <: T2
//
// Nothing else is related (in particular Dyn <: T only for T = Dyn).
//
// Why it holds for the translations of spec §3.1: the only coercions that carry a
// label are I?^l and fail^l, and blame l comes from fail^l, made by InOut from a
// projection I?^l (or by a translation, which only gives fail^l between inconsistent
// types, and casts are between consistent ones). A cast that respects <:_D translates
// without projections (a projection needs Dyn at a covariant position of the target
// or a contravariant position of the source); one that respects <:_UD likewise (the
// UD translation of S1 -> S2 into Dyn projects only at S1, unless S1 = Dyn). So its
// label never reaches a fail.
//
// The same argument gives the form BlameSafe checks, for programs whose labels are
// shared (as the fuzzer's are) and which may hold explicit coercions and blame: a
// label that occurs only on casts that respect the strategy's subtyping occurs in no
// coercion of the translated program, and reduction makes no labels, so it is never
// blamed.

// subtypeD is <:_D.
func subtypeD(s, t g.Type) bool {
	if t == g.Dyn {
		return true
	}
	a, ok1 := s.(*g.Arrow)
	b, ok2 := t.(*g.Arrow)
	if ok1 && ok2 {
		return subtypeD(b.From, a.From) && subtypeD(a.To, b.To)
	}
	_, base := s.(g.Base)
	return base && s == t
}

// subtypeUD is <:_UD.
func subtypeUD(s, t g.Type) bool {
	a, sArrow := s.(*g.Arrow)
	switch {
	case s == g.Dyn:
		return t == g.Dyn
	case t == g.Dyn && sArrow:
		return subtypeUD(s, g.DynDyn)
	case t == g.Dyn:
		_, base := s.(g.Base)
		return base
	}
	if b, ok := t.(*g.Arrow); ok && sArrow {
		return subtypeUD(b.From, a.From) && subtypeUD(a.To, b.To)
	}
	_, base := s.(g.Base)
	return base && s == t
}

// blameSubtyping is the subtyping relation of sem's blame strategy, S <: T: <:_D for
// LD and ED, <:_UD for LUD and EUD, and nil for a semantics whose strategy the blame
// theorem does not know (a custom one).
func blameSubtyping(sem g.Semantics) func(s, t g.Type) bool {
	switch sem {
	case g.LD, g.ED:
		return subtypeD
	case g.LUD, g.EUD:
		return subtypeUD
	}
	return nil
}

// labelIndex tells where the labels of a cast-calculus term occur: on type-based
// casts (casts, by label), or elsewhere (other: in an explicit coercion, a blame, an
// ascription).
type labelIndex struct {
	casts map[g.Label][]*g.Cast
	other map[g.Label]bool
}

func indexLabels(e g.Expr) labelIndex {
	ix := labelIndex{casts: map[g.Label][]*g.Cast{}, other: map[g.Label]bool{}}
	var coercion func(c g.Coercion)
	coercion = func(c g.Coercion) {
		switch c := c.(type) {
		case *g.Proj:
			ix.other[c.L] = true
		case *g.Fail:
			ix.other[c.L] = true
		case *g.Func:
			coercion(c.Dom)
			coercion(c.Cod)
		case *g.Seq:
			coercion(c.Fst)
			coercion(c.Snd)
		}
	}
	stack := []g.Expr{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *g.Lam:
			stack = append(stack, e.Body)
		case *g.App:
			stack = append(stack, e.Fun, e.Arg)
		case *g.Unary:
			stack = append(stack, e.X)
		case *g.Binary:
			stack = append(stack, e.X, e.Y)
		case *g.If:
			stack = append(stack, e.Cond, e.Then, e.Else)
		case *g.Let:
			stack = append(stack, e.Bound, e.Body)
		case *g.Letrec:
			stack = append(stack, e.Fun, e.Body)
		case *g.Cast:
			ix.casts[e.L] = append(ix.casts[e.L], e)
			stack = append(stack, e.X)
		case *g.Coerce:
			coercion(e.C)
			stack = append(stack, e.X)
		case *g.Blame:
			ix.other[e.L] = true
		case *g.Asc:
			ix.other[e.L] = true
			stack = append(stack, e.X)
		}
	}
	return ix
}

// BlameSafe checks the blame theorem (Siek, Garcia & Taha 2009) on one outcome: a is
// the answer of the cast-calculus program prog (before translation, so that its casts
// keep their types) under sem, on any stage and in either merging mode. If a is
// blame l, then l must be the label of something in prog, and not only of casts that
// respect the subtyping of sem's blame strategy (<:_D for LD and ED, <:_UD for LUD and
// EUD; see the relations above). A label that also occurs in an explicit coercion or
// blame is not judged, nor is blame under a semantics whose strategy is not known
// (custom ones: only the first check applies).
//
// It takes the answer rather than running the program, so that callers judge the runs
// they make anyway: the test every stage's, fuzz the lockstep's reference.
func BlameSafe(sem g.Semantics, prog g.Expr, a g.Answer) error {
	if !a.Blamed {
		return nil
	}
	ix := indexLabels(prog)
	casts := ix.casts[a.Blame]
	if len(casts) == 0 && !ix.other[a.Blame] {
		return fmt.Errorf("blame %s under %s names no cast, coercion or blame of the program", a.Blame, sem.Name())
	}
	sub := blameSubtyping(sem)
	if sub == nil || ix.other[a.Blame] {
		return nil
	}
	var shown []string
	for _, c := range casts {
		if !sub(c.Source, c.Target) {
			return nil
		}
		shown = append(shown, fmt.Sprintf("<%s <= %s>", g.FormatType(c.Target), g.FormatType(c.Source)))
	}
	its := "its cast " + shown[0] + " respects"
	if len(shown) > 1 {
		its = "its casts " + strings.Join(shown, ", ") + " respect"
	}
	return fmt.Errorf("blame %s, but %s the subtyping of %s (blame theorem)", a.Blame, its, sem.Name())
}

// normalizeLimit bounds the reduction of a composition to its normal form.
const normalizeLimit = 10_000

// SeqCorrect is the correctness of composition (a conjecture of Siek & Garcia, proved
// for ED in PEPM 2014): for well-typed normal forms c1 : S => T and c2 : T => U of sem,
// sem.Seq(c1, c2) is the normal form that one-step coercion reduction (g.Normalize)
// reaches from c1 ; c2. It returns the rules the reduction used, so that a test can
// tell which rules its inputs exercised.
func SeqCorrect(sem g.Semantics, c1, c2 g.Coercion) (rules []string, err error) {
	want, rules, ok := g.Normalize(sem, g.Then(c1, c2), normalizeLimit)
	if !ok {
		return rules, fmt.Errorf("%s ; %s does not normalise under %s in %d steps", g.FormatCoercion(c1), g.FormatCoercion(c2), sem.Name(), normalizeLimit)
	}
	if got := sem.Seq(c1, c2); !g.EqualCoercions(got, want) {
		return rules, fmt.Errorf("under %s, seq(%s, %s) = %s, but reduction reaches %s by %v",
			sem.Name(), g.FormatCoercion(c1), g.FormatCoercion(c2), g.FormatCoercion(got), g.FormatCoercion(want), rules)
	}
	return rules, nil
}

// A Composition is an input of SeqCorrect: well-typed normal forms C1 : S => T and
// C2 : T => U.
type Composition = gradualgen.Composition

// DrawComposition draws a Composition of normal forms of sem. Half the time it is
// drawn to fire a rule of sem drawn first (gradualgen.Targeted: every rule fires
// however few compositions a run draws); else at random, half of those with a middle
// type that is a function type through Dyn, where composition meets Arr and, inside
// it, failures (FailL, FailR, ArrFail).
func DrawComposition(t *rapid.T, sem g.Semantics) Composition {
	if rapid.Bool().Draw(t, "targeted") {
		return gradualgen.Targeted(t, sem, rapid.SampledFrom(gradualgen.Rules(sem)).Draw(t, "target"))
	}
	m := gradualgen.Type(t, 2, "T")
	switch rapid.IntRange(0, 3).Draw(t, "through-dyn") {
	case 0:
		m = g.Fn(gradualgen.Type(t, 1, "T-dom"), g.Dyn)
	case 1:
		m = g.Fn(g.Dyn, gradualgen.Type(t, 1, "T-cod"))
	}
	s := gradualgen.Consistent(t, m, 2, "S")
	u := gradualgen.Consistent(t, m, 2, "U")
	return Composition{S: s, T: m, U: u,
		C1: gradualgen.Normal(t, sem, s, m, 3),
		C2: gradualgen.Normal(t, sem, m, u, 3)}
}

// FireEvery makes every rule of rules fire in SeqCorrect: for each that fired has not
// counted yet, it checks SeqCorrect on compositions drawn to fire it
// (gradualgen.Targeted, at fixed seeds, so that the top-up is the same on every run),
// counting the rules they use in fired, until the rule fires or fireTries seeds are
// spent. A random run draws as many cases as -rapid.checks asks (a fifth under -short),
// which may be too few for a rare rule; a test that needs every rule to fire calls this
// after it. It returns the first composition SeqCorrect refutes.
func FireEvery(sem g.Semantics, rules []string, fired map[string]int) error {
	for _, r := range rules {
		gen := rapid.Custom(func(t *rapid.T) Composition { return gradualgen.Targeted(t, sem, r) })
		for seed := 0; fired[r] == 0 && seed < fireTries; seed++ {
			c := gen.Example(seed)
			used, err := SeqCorrect(sem, c.C1, c.C2)
			if err != nil {
				return err
			}
			for _, u := range used {
				fired[u]++
			}
		}
	}
	return nil
}

// fireTries bounds the compositions FireEvery draws for one rule.
const fireTries = 64

// CastPreservation steps the reduction semantics on a well-typed, translated term of
// type ty (with at most budget steps): every step must decompose (progress) and give a
// term of the same type (preservation). It reports the first step that does not.
func CastPreservation(sem g.Semantics, e g.Expr, ty g.Type, budget int, mode interderive.Merging) error {
	r := reduction.Cast{Sem: sem, Merge: mode == interderive.Merged}
	for range budget {
		step, done, err := r.Reduce(e)
		if err != nil {
			return fmt.Errorf("stuck under %s: %v in %s", sem.Name(), err, g.Format(e))
		}
		if done {
			return nil
		}
		if got, err := g.TypeOf(step.Next); err != nil || !g.Equal(got, ty) {
			return fmt.Errorf("%s under %s does not preserve the type %s (%v, %v): %s becomes %s",
				step.Redex.Rule(), sem.Name(), ty, got, err, g.Format(e), g.Format(step.Next))
		}
		e = step.Next
	}
	return nil
}
