package driver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// The metatheory: the properties the property tests check, as functions of their
// inputs, so that `interderive fuzz` checks them outside the tests too. Each returns
// nil when the property holds (or when the run it judges ended inconclusively: out of
// fuel, over a strategy's budget) and otherwise an error that describes the
// violation. The Draw functions generate the inputs the tests and fuzz use.

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

// Inconclusive reports whether a differentiable program's run ended without an answer
// for a reason the properties do not judge: fuel, or a strategy's budget.
func Inconclusive(err error) bool {
	return errors.Is(err, interderive.ErrOutOfFuel) || errors.Is(err, dpl.ErrOverBudget)
}

// SameDPLAnswer reports whether two answers are the same: both undefined at the same
// redex, or the same value, its reals compared by their bits (up to α-renaming).
func SameDPLAnswer(a, b dpl.Answer) bool {
	if (a.Undefined == nil) != (b.Undefined == nil) {
		return false
	}
	if a.Undefined != nil {
		return dpl.AlphaEqual(a.Undefined.Redex, b.Undefined.Redex)
	}
	return a.Value == nil && b.Value == nil || a.Value != nil && b.Value != nil && dpl.AlphaEqual(a.Value, b.Value)
}

// Interpolation is Proposition 3.5 of Abadi & Plotkin: M ⇒ V iff M ⇝ C and C ⇒ V for
// some trace term C. Both computations perform the same floating-point operations, so
// V is the same to the bit. prog is a closed, elaborated, well-typed program, run on
// the reduction semantics under ad with the given fuel (for each of the three runs).
func Interpolation(ad dpl.Differentiator, prog dpl.Term, fuel int) error {
	opts := interderive.Options{Fuel: fuel}
	a, err := reduction.EvalDiff(ad, prog, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: M ⇒ fails: %v", ad.Name(), err)
	}
	c, undef, err := reduction.TraceDiff(ad, nil, prog, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: M ⇝ fails: %v", ad.Name(), err)
	}
	if undef != nil {
		if a.Undefined == nil {
			return fmt.Errorf("%s: M ⇒ %s, but M ⇝ is undefined (%v) (Proposition 3.5)", ad.Name(), a, undef)
		}
		return nil
	}
	if !dpl.IsTrace(c) {
		return fmt.Errorf("%s: M ⇝ %s, which is not a trace term (Proposition 3.5)", ad.Name(), dpl.Format(c))
	}
	b, err := reduction.EvalDiff(ad, c, opts)
	if Inconclusive(err) {
		return nil
	}
	if err != nil || !SameDPLAnswer(a, b) {
		return fmt.Errorf("%s: M ⇒ %s, but M ⇝ C and C ⇒ %s (%v), with C = %s (Proposition 3.5)", ad.Name(), a, b, err, dpl.Format(c))
	}
	return nil
}

// FiniteDifferences is the adequacy of the derivative (Abadi & Plotkin, Theorems 6.1
// and 6.2): the derivative the operational semantics computes is the true derivative.
// body is an elaborated term of type real whose only free variable is x : ty (ty made
// of real, unit and products), and point a closed value of type ty. The derivative
// 1.rd[point](x:ty. body), computed under ad on the reduction semantics, is compared,
// coordinate by coordinate, with the central difference (f(a + h) - f(a - h)) / 2h of
// f = x ↦ body, evaluated as let x = a ± h in body, at several steps h: one of them must
// agree to a relative 1e-4. Points where f is undefined or not smooth nearby (the trace
// of body, which fixes the branches taken, differs at a ± h) are not judged.
func FiniteDifferences(ad dpl.Differentiator, body dpl.Term, ty dpl.Type, point dpl.Term, fuel int) error {
	grad := GradientCase{Body: body, T: ty, Point: point}.Program()
	d, err := reduction.EvalDiff(ad, grad, interderive.Options{Fuel: fuel})
	if Inconclusive(err) || err == nil && d.Undefined != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v", ad.Name(), err)
	}
	at := coordinates(point)
	ds := coordinates(d.Value)
	if len(ds) != len(at) {
		return fmt.Errorf("%s: the derivative %s does not have the shape of the point %s", ad.Name(), dpl.Format(d.Value), dpl.Format(point))
	}
	for i := range at {
		if ok, seen := finiteDifferenceAgrees(ad, body, ty, at, i, ds[i], fuel); !ok {
			return fmt.Errorf("%s: coordinate %d of the derivative is %v, but central differences give %s (Theorems 6.1, 6.2)",
				ad.Name(), i+1, ds[i], strings.Join(seen, ", "))
		}
	}
	return nil
}

// coordinates lists the reals of a value, left to right.
func coordinates(v dpl.Term) []float64 {
	switch v := v.(type) {
	case *dpl.RealLit:
		return []float64{v.R}
	case *dpl.Pair:
		return append(coordinates(v.X), coordinates(v.Y)...)
	}
	return nil
}

// pointAt builds the value of type ty whose coordinates are xs: coordinates' inverse.
func pointAt(ty dpl.Type, xs []float64) dpl.Term {
	var build func(ty dpl.Type) dpl.Term
	build = func(ty dpl.Type) dpl.Term {
		switch ty := ty.(type) {
		case *dpl.Prod:
			return &dpl.Pair{X: build(ty.Fst), Y: build(ty.Snd), T: ty.Fst, U: ty.Snd}
		case dpl.Base:
			if ty == dpl.Unit {
				return &dpl.UnitLit{}
			}
		}
		r := &dpl.RealLit{R: xs[0]}
		xs = xs[1:]
		return r
	}
	return build(ty)
}

// finiteDifferenceAgrees compares d with central differences of x ↦ body along
// coordinate i, at several step sizes: one of them must agree to a relative 1e-4,
// where the body is defined and traces the same way on the whole stencil. It also
// returns the differences it judged, for the report.
func finiteDifferenceAgrees(ad dpl.Differentiator, body dpl.Term, ty dpl.Type, at []float64, i int, d float64, fuel int) (bool, []string) {
	opts := interderive.Options{Fuel: fuel}
	eval := func(xs []float64) (float64, dpl.Term, bool) {
		p := pointAt(ty, xs)
		a, err := reduction.EvalDiff(ad, &dpl.Let{Name: "x", T: ty, Bound: p, Body: body}, opts)
		if err != nil || a.Value == nil {
			return 0, nil, false
		}
		r, ok := a.Value.(*dpl.RealLit)
		if !ok {
			return 0, nil, false
		}
		c, undef, err := reduction.TraceDiff(ad, map[string]dpl.Term{"x": p}, body, opts)
		if err != nil || undef != nil {
			return 0, nil, false
		}
		return r.R, c, true
	}
	f0, c0, ok := eval(at)
	if !ok {
		return true, nil
	}
	var seen []string
	for _, h := range []float64{1e-4, 1e-6, 1e-7, 1e-3} {
		h *= math.Max(1, math.Abs(at[i]))
		plus, minus := slices.Clone(at), slices.Clone(at)
		plus[i] += h
		minus[i] -= h
		fp, cp, ok1 := eval(plus)
		fm, cm, ok2 := eval(minus)
		if !ok1 || !ok2 || !dpl.AlphaEqual(cp, c0) || !dpl.AlphaEqual(cm, c0) {
			continue // undefined or not the same smooth piece on the stencil
		}
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-d) <= 1e-4*math.Max(1, math.Max(math.Abs(d), math.Abs(f0))) {
			return true, nil
		}
		seen = append(seen, fmt.Sprintf("%v (h = %v)", fd, h))
	}
	return len(seen) == 0, seen
}

// A GradientCase is an input of FiniteDifferences: a body of type real over x : T,
// and a point of type T.
type GradientCase struct {
	Body  dpl.Term
	T     dpl.Type
	Point dpl.Term
}

// Program is the derivative FiniteDifferences judges, 1.rd[Point](x:T. Body): a
// closed program, for a counterexample file.
func (c GradientCase) Program() dpl.Term {
	return &dpl.Rd{Cotangent: &dpl.RealLit{R: 1}, Point: c.Point, Param: "x", T: c.T, Body: c.Body}
}

// DrawGradientCase draws a GradientCase: x is real or real*real (coordinate by
// coordinate), the body a term of the given depth with every construct (dplgen.Full)
// in which x occurs free (when ten draws manage it), the point small and mostly whole.
func DrawGradientCase(t *rapid.T, depth int) GradientCase {
	cfg := dplgen.Full(depth)
	ty := dpl.Type(dpl.Real)
	if rapid.Bool().Draw(t, "pair-point") {
		ty = dpl.Times(dpl.Real, dpl.Real)
	}
	gen := dplgen.New(t, cfg)
	sc := dplgen.Scope{}.Bind("x", ty)
	gamma := func(x string) (dpl.Type, bool) {
		if x == "x" {
			return ty, true
		}
		return nil, false
	}
	var body dpl.Term
	for try := 0; try < 10 && (body == nil || !dpl.OccursFree("x", body)); try++ {
		body = dplgen.Elaborate(t, gamma, gen.Term(sc, dpl.Real, cfg.Depth))
	}
	return GradientCase{Body: body, T: ty, Point: dplgen.Value(t, ty, "point")}
}
