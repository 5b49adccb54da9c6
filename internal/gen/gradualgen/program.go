package gradualgen

import (
	"fmt"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"pgregory.net/rapid"
)

// scope is the generator's typing environment; letrec marks the letrec functions.
type scope struct {
	names  []string
	types  []g.Type
	letrec []bool
}

// bind extends the scope with x:ty, which hides an earlier x (whatever its type).
func (sc scope) bind(x string, ty g.Type) scope { return sc.add(x, ty, false) }

// bindRec extends the scope with the letrec function f:ty.
func (sc scope) bindRec(f string, ty g.Type) scope { return sc.add(f, ty, true) }

func (sc scope) add(x string, ty g.Type, letrec bool) scope {
	out := sc.hide(x)
	out.names, out.types, out.letrec = append(out.names, x), append(out.types, ty), append(out.letrec, letrec)
	return out
}

// hide is the scope without x: where a binder of that name is in force but its
// binding is not to be used.
func (sc scope) hide(x string) scope {
	n := len(sc.names) + 1
	out := scope{names: make([]string, 0, n), types: make([]g.Type, 0, n), letrec: make([]bool, 0, n)}
	for i, y := range sc.names {
		if y != x {
			out.names, out.types, out.letrec = append(out.names, y), append(out.types, sc.types[i]), append(out.letrec, sc.letrec[i])
		}
	}
	return out
}

// Config selects what a program generator may produce.
type Config struct {
	// Cast allows the cast calculus' own forms: type-based casts, explicit coercions
	// (with the injections of Inj) and blame. Without it the program is GTLC.
	Cast bool
	Inj  Injectable
	// Depth bounds the term's depth (DefaultDepth when zero).
	Depth int
	// BlameFree leaves out explicit coercions and `blame l`: only type-based casts
	// (in GTLC, the casts that cast insertion makes) can fail.
	BlameFree bool
	// DistinctLabels gives every cast and ascription a label of its own (c1, c2, ...)
	// and every explicit blame and fail^l of the generator too (the labels inside
	// random coercions are still drawn from l1, l2, l3).
	DistinctLabels bool
}

// Program draws a closed well-typed program. For GTLC it returns a source term (to be
// checked with g.InsertCasts); for the cast calculus a term that g.TypeOf accepts.
// Every node of a GTLC program has a position of its own (line n, column 1), so the
// casts that cast insertion makes for different nodes have different labels.
func Program(t *rapid.T, cfg Config) g.Expr {
	if cfg.Inj == nil {
		cfg.Inj = D
	}
	if cfg.Depth == 0 {
		cfg.Depth = DefaultDepth
	}
	gen := &generator{t: t, cfg: cfg}
	// Mostly a first-order result, so that the program runs (a function is a value
	// at once); sometimes a function, to compare wrapped values after read-back.
	ty := []g.Type{g.Int, g.Dyn, g.Bool, nil, g.Int}[gen.draw("program-type", 5)]
	if ty == nil {
		ty = gen.typ(1, "program-fun-type")
	}
	return gen.term(scope{}, ty, cfg.Depth)
}

// NodeBudget bounds the number of compound terms a program of the given depth draws:
// past it every term is a leaf. A term's size is otherwise exponential in its depth
// (each form has up to three subterms), so that a large depth would exhaust memory;
// the budget makes size linear in depth, and leaves the default depths' programs as
// they are (they stay well under it).
func NodeBudget(depth int) int { return 100 * max(depth, 1) }

// ProgramGen is Program as a rapid generator.
func ProgramGen(cfg Config) *rapid.Generator[g.Expr] {
	return rapid.Custom(func(t *rapid.T) g.Expr { return Program(t, cfg) })
}

type generator struct {
	t      *rapid.T
	cfg    Config
	nodes  int   // the terms drawn so far, against NodeBudget
	fresh  int   // variables x1, x2, ...
	nlabel int   // distinct labels c1, c2, ...
	line   int32 // positions of GTLC nodes
}

func (gen *generator) name() string {
	gen.fresh++
	return fmt.Sprintf("x%d", gen.fresh)
}

// binder draws the name of a new binder: usually fresh, sometimes (about one time in
// four) a name already in scope, whatever its type and whatever bound it (a variable, a
// parameter, a letrec function), which the new binder hides: shadowing of every kind,
// so that every rule that puts a term under a binder (substitution, unfolding,
// closures' environments) meets capture.
func (gen *generator) binder(sc scope, name string) string {
	if len(sc.names) == 0 || gen.draw(name+"-shadow", 4) != 2 {
		return gen.name()
	}
	// Half of the time a letrec function, if there is one: letrecs are rarer than the
	// other binders.
	var recs []string
	for i, f := range sc.names {
		if sc.letrec[i] {
			recs = append(recs, f)
		}
	}
	if len(recs) > 0 && gen.draw(name+"-shadow-letrec", 2) == 1 {
		return recs[gen.draw(name+"-shadowed", len(recs))]
	}
	return sc.names[gen.draw(name+"-shadowed", len(sc.names))]
}

// draw draws an integer in [0, n).
func (gen *generator) draw(name string, n int) int {
	return rapid.IntRange(0, n-1).Draw(gen.t, name)
}

// oneIn is true with probability about 1/n: the rare outcome is a middle value, which
// rapid's bias (towards small values and the maximum) does not favour and shrinking
// (towards 0) removes.
func (gen *generator) oneIn(name string, n int) bool {
	return gen.draw(name, n) == n/2
}

// pos gives a GTLC node a position of its own (its inserted casts are labelled by
// it); cast-calculus nodes need none.
func (gen *generator) pos() interderive.Pos {
	if gen.cfg.Cast {
		return interderive.Pos{}
	}
	gen.line++
	return interderive.Pos{Line: gen.line, Col: 1}
}

// label is the label of a cast or ascription.
func (gen *generator) label(name string) g.Label {
	if gen.cfg.DistinctLabels {
		gen.nlabel++
		return g.Label(fmt.Sprintf("c%d", gen.nlabel))
	}
	return Label(gen.t, name)
}

// typ draws the type of an intermediate term: base types, Dyn, and arrows (first,
// since they make the interesting casts), of at most the given depth.
func (gen *generator) typ(depth int, name string) g.Type {
	k := gen.draw(name, 7)
	if depth <= 0 && k <= 1 {
		k += 2
	}
	switch k {
	case 0, 1:
		return g.Fn(gen.typ(depth-1, name+"-dom"), gen.typ(depth-1, name+"-cod"))
	case 2, 6:
		return g.Int
	case 3:
		return g.Dyn
	case 4:
		return g.DynDyn
	}
	return g.Bool
}

// neighbour draws a type to inject into Dyn and project back out as ty: ty itself
// (the round trip succeeds), or ty with a part changed (so that the projection, or a
// check deep inside a function coercion, fails), or a less precise version of ty.
func (gen *generator) neighbour(ty g.Type, depth int, name string) g.Type {
	switch gen.draw(name, 10) {
	case 7:
		return gen.mutate(ty, depth, name+"-mutate")
	case 8:
		return gen.dynify(ty, name+"-dynify")
	case 9:
		return gen.refine(gen.dynify(ty, name+"-dynify"), name+"-refine")
	}
	return ty
}

// mutate changes one part of ty.
func (gen *generator) mutate(ty g.Type, depth int, name string) g.Type {
	switch ty := ty.(type) {
	case *g.Arrow:
		if depth > 0 {
			switch gen.draw(name, 5) {
			case 0, 1:
				return g.Fn(gen.mutate(ty.From, depth-1, name+"-dom"), ty.To)
			case 2, 3:
				return g.Fn(ty.From, gen.mutate(ty.To, depth-1, name+"-cod"))
			}
		}
		return g.Bool
	case g.Base:
		if gen.draw(name, 3) == 0 {
			return g.Fn(g.Int, g.Int)
		}
		if ty == g.Int {
			return g.Bool
		}
		return g.Int
	}
	return gen.typ(1, name+"-any") // Dyn: anything
}

// dynify replaces parts of ty by Dyn: a less precise type, consistent with ty.
func (gen *generator) dynify(ty g.Type, name string) g.Type {
	if ty == g.Dyn || gen.draw(name, 3) == 0 {
		return g.Dyn
	}
	if a, ok := ty.(*g.Arrow); ok {
		return g.Fn(gen.dynify(a.From, name+"-dom"), gen.dynify(a.To, name+"-cod"))
	}
	return ty
}

// refine replaces the Dyn parts of ty by arbitrary types: a type consistent with ty.
func (gen *generator) refine(ty g.Type, name string) g.Type {
	switch ty := ty.(type) {
	case g.DynType:
		if gen.draw(name, 3) == 0 {
			return g.Dyn
		}
		return gen.typ(1, name+"-any")
	case *g.Arrow:
		return g.Fn(gen.refine(ty.From, name+"-dom"), gen.refine(ty.To, name+"-cod"))
	}
	return ty
}

// between draws a type consistent with both s and u (which need not be consistent
// with each other): Dyn; or their common shape, with Dyn where they differ (a less
// precise middle); or, when they are consistent, a refinement of their meet (a more
// precise middle, so that a value is checked at a precise type between two imprecise
// ones, as when a function typed Dyn -> Dyn is passed through Int -> Int).
func (gen *generator) between(s, u g.Type, name string) g.Type {
	_, ok1 := s.(*g.Arrow)
	_, ok2 := u.(*g.Arrow)
	k := gen.draw(name, 8)
	precise := k >= 3 && k <= 5
	if !ok1 || !ok2 { // not two functions: Dyn, or a quarter of the time the precise middle
		precise = k%4 == 1
	} else if k <= 2 {
		return lub(s, u)
	}
	if m, ok := g.Meet(s, u); ok && precise {
		return gen.refine(m, name+"-refine")
	}
	return g.Dyn
}

// lub is the common shape of s and u, with Dyn where they differ: the most precise
// type that is less precise than both (so consistent with both).
func lub(s, u g.Type) g.Type {
	if g.Identical(s, u) {
		return s
	}
	a, ok1 := s.(*g.Arrow)
	b, ok2 := u.(*g.Arrow)
	if ok1 && ok2 {
		return g.Fn(lub(a.From, b.From), lub(a.To, b.To))
	}
	return g.Dyn
}

// cast converts e : from to the consistent type to: a type-based cast in the cast
// calculus, an ascription in GTLC.
func (gen *generator) cast(e g.Expr, from, to g.Type, name string) g.Expr {
	if gen.cfg.Cast {
		return &g.Cast{Target: to, Source: from, L: gen.label(name), X: e}
	}
	l := g.Label("")
	if gen.cfg.DistinctLabels || gen.draw(name+"-labelled", 2) == 0 {
		l = gen.label(name)
	}
	return &g.Asc{P: gen.pos(), X: e, T: to, L: l}
}

// implicit converts e : from to the consistent type to at a position where GTLC's
// cast insertion does it by itself (an argument, an operand, a condition, a bound
// value): an explicit cast in the cast calculus, nothing in GTLC.
func (gen *generator) implicit(e g.Expr, from, to g.Type, name string) g.Expr {
	if g.Identical(from, to) || !gen.cfg.Cast {
		return e
	}
	return gen.cast(e, from, to, name)
}

// loose draws the type at which to generate a term needed at type ty in an implicit
// position: ty itself, or in GTLC sometimes a consistent type (cast insertion makes
// up the difference).
func (gen *generator) loose(ty g.Type, name string) g.Type {
	if gen.cfg.Cast || gen.draw(name, 3) != 1 {
		return ty
	}
	return gen.consistent(ty, name+"-consistent")
}

// consistent draws a type consistent with ty: ty with parts replaced by Dyn, and its
// Dyn parts by anything.
func (gen *generator) consistent(ty g.Type, name string) g.Type {
	switch ty := ty.(type) {
	case g.DynType:
		return gen.refine(ty, name)
	case *g.Arrow:
		if gen.draw(name, 3) == 1 {
			return g.Dyn
		}
		return g.Fn(gen.consistent(ty.From, name+"-dom"), gen.consistent(ty.To, name+"-cod"))
	}
	if gen.draw(name, 3) == 1 {
		return g.Dyn
	}
	return ty
}

// arg draws a term of type ty for an implicit position. In GTLC it is sometimes a
// term of a consistent type s: mostly a term of type ty ascribed s (the implicit cast
// back to ty then succeeds, through Dyn or a function coercion), else any term of
// type s (which may well fail).
func (gen *generator) arg(sc scope, ty g.Type, depth int, name string) g.Expr {
	s := gen.loose(ty, name+"-type")
	if g.Identical(s, ty) {
		return gen.term(sc, ty, depth)
	}
	if gen.draw(name+"-round-trip", 3) != 2 {
		return gen.cast(gen.term(sc, ty, depth), ty, s, name+"-up")
	}
	return gen.term(sc, s, depth)
}

// small is the depth of the new types that a form introduces (an argument's type):
// 1, or 0 once ty is already large, so that types do not grow with the term.
func small(ty g.Type) int {
	var size func(g.Type) int
	size = func(t g.Type) int {
		if a, ok := t.(*g.Arrow); ok {
			return size(a.From) + size(a.To)
		}
		return 1
	}
	if size(ty) > 2 {
		return 0
	}
	return 1
}

// term draws a term of type ty (exactly, for the cast calculus; in GTLC the inserted
// casts make up the difference where the generator relies on consistency).
//
// Every node first draws whether to stop at a leaf, stopping at 0: rapid shrinks
// draws towards 0, so a failing program shrinks subterm by subterm to leaves, while
// the forms that build structure come first in the form draw (rapid favours small
// draws when it generates, and the stop draw is 0 only about one time in nine).
func (gen *generator) term(sc scope, ty g.Type, depth int) g.Expr {
	gen.nodes++
	if depth <= 0 || gen.nodes > NodeBudget(gen.cfg.Depth) || gen.draw("stop", 32) == 0 {
		return gen.leaf(sc, ty)
	}
	if gen.explicitBlame() && gen.oneIn("blame-here", 64) {
		return &g.Blame{L: gen.label("blame")}
	}
	// The forms that build structure come first (rapid favours small draws).
	switch gen.draw("form", 16) {
	case 0: // application, often of a function in scope
		return gen.app(sc, ty, depth)
	case 1: // a value of another type, through Dyn
		return gen.throughDyn(sc, ty, depth)
	case 2: // a function passed to a function that applies it
		return gen.higherOrder(sc, ty, depth)
	case 3: // a function returned by a function, then applied
		a, b := gen.typ(small(ty), "curry-a"), gen.typ(0, "curry-b")
		f := gen.fun(sc, g.Fn(a, g.Fn(b, ty)), depth-1)
		inner := &g.App{P: gen.pos(), Fun: f, Arg: gen.arg(sc, a, depth-1, "curry-arg1")}
		return &g.App{P: gen.pos(), Fun: inner, Arg: gen.arg(sc, b, depth-1, "curry-arg2")}
	case 4: // let
		s := gen.typ(small(ty), "let-type")
		x := gen.binder(sc, "let")
		return &g.Let{P: gen.pos(), Name: x, T: s, Bound: gen.arg(sc, s, depth-1, "let-bound"), Body: gen.term(sc.bind(x, s), ty, depth-1)}
	case 5: // GTLC's dynamic application: e1 : Dyn applied, the result cast to ty
		return gen.dynApp(sc, ty, depth)
	case 6:
		return gen.letrec(sc, ty, depth)
	case 7:
		return gen.ifte(sc, ty, depth)
	case 8:
		if e := gen.prim(sc, ty, depth); e != nil {
			return e
		}
		return gen.app(sc, ty, depth)
	case 9: // an explicit coercion (cast calculus), or a function through Dyn
		if gen.cfg.Cast && !gen.cfg.BlameFree {
			return gen.coerce(sc, ty, depth)
		}
		return gen.throughDyn(sc, ty, depth)
	case 10, 11:
		if a, ok := ty.(*g.Arrow); ok {
			x := gen.binder(sc, "lambda")
			return &g.Lam{Param: x, T: a.From, Body: gen.term(sc.bind(x, a.From), a.To, depth-1)}
		}
		if e := gen.prim(sc, ty, depth); e != nil {
			return e
		}
	case 12: // another explicit coercion
		if gen.explicitBlame() {
			return gen.coerce(sc, ty, depth)
		}
	}
	return gen.leaf(sc, ty)
}

func (gen *generator) explicitBlame() bool { return gen.cfg.Cast && !gen.cfg.BlameFree }

// coerce draws an explicit coercion application <c> e : ty (cast calculus): a random
// well-typed coercion with the strategy's injections; or fail^l, applied to a value
// that is usually injected or wrapped (so that it meets I! or a function coercion:
// InFail, ArrFail, FailFC); or, for a function type, a function coercion with a
// failing part (FailL, FailR, and, once composed with a wrapper, ArrFail and InFail).
func (gen *generator) coerce(sc scope, ty g.Type, depth int) g.Expr {
	t := gen.t
	switch gen.draw("coerce-kind", 9) {
	case 1: // fail^l on an injected value: I! ; fail^l (InFail)
		s := gen.typ(1, "fail-source")
		x := gen.cast(gen.term(sc, s, depth-1), s, g.Dyn, "fail-inject")
		return &g.Coerce{C: &g.Fail{L: gen.label("fail")}, X: x}
	case 4: // fail^l on a function, often wrapped: (c -> d) ; fail^l (ArrFail, FailFC)
		s := g.Fn(gen.typ(0, "fail-fun-dom"), gen.typ(0, "fail-fun-cod"))
		return &g.Coerce{C: &g.Fail{L: gen.label("fail")}, X: gen.fun(sc, s, depth-1)}
	case 3:
		if a, ok := ty.(*g.Arrow); ok {
			s, ok := gen.refine(gen.dynify(ty, "cfun-dynify"), "cfun-refine").(*g.Arrow)
			if !ok {
				s = a
			}
			var dom, cod g.Coercion = &g.Fail{L: gen.label("fail")}, Coercion(t, s.To, a.To, gen.cfg.Inj, 1)
			if gen.draw("fail-side", 2) == 1 {
				dom, cod = Coercion(t, a.From, s.From, gen.cfg.Inj, 1), &g.Fail{L: gen.label("fail")}
			}
			return &g.Coerce{C: &g.Func{Dom: dom, Cod: cod}, X: gen.term(sc, s, depth-1)}
		}
	}
	s := Consistent(t, ty, 2, "coerce-source")
	return &g.Coerce{C: Coercion(t, s, ty, gen.cfg.Inj, 2), X: gen.term(sc, s, depth-1)}
}

// app draws an application of type ty: of a function in scope (a parameter that a
// higher-order function received, a let-bound function, a recursive function) half
// the time when there is one, else of a random function term.
func (gen *generator) app(sc scope, ty g.Type, depth int) g.Expr {
	if e := gen.applyVar(sc, ty, depth); e != nil {
		return e
	}
	s := gen.typ(small(ty), "arg-type")
	return &g.App{P: gen.pos(), Fun: gen.fun(sc, g.Fn(s, ty), depth-1), Arg: gen.arg(sc, s, depth-1, "app-arg")}
}

// fun draws a term of function type fty that is about to be applied: a third of the
// time one that crosses Dyn (or a less or more precise function type) first.
func (gen *generator) fun(sc scope, fty g.Type, depth int) g.Expr {
	if _, ok := fty.(*g.Arrow); ok && depth > 0 && gen.draw("fun-through", 3) == 1 {
		return gen.throughDyn(sc, fty, depth)
	}
	return gen.term(sc, fty, depth)
}

// applyVar applies a variable of function type, or of type Dyn, whose result can be
// cast to ty; nil when none is in scope or the draw says no.
func (gen *generator) applyVar(sc scope, ty g.Type, depth int) g.Expr {
	var cands []int
	for i, s := range sc.types {
		if a, ok := s.(*g.Arrow); ok && g.Consistent(a.To, ty) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 || gen.draw("apply-var", 2) == 1 {
		// A variable of type Dyn holds a function only sometimes: apply one rarely.
		cands = cands[:0]
		for i, s := range sc.types {
			if s == g.Dyn {
				cands = append(cands, i)
			}
		}
		if len(cands) == 0 || !gen.oneIn("apply-dyn-var", 6) {
			return nil
		}
	}
	i := cands[gen.draw("var-fun", len(cands))]
	f := &g.Var{Name: sc.names[i]}
	if a, ok := sc.types[i].(*g.Arrow); ok {
		call := &g.App{P: gen.pos(), Fun: f, Arg: gen.arg(sc, a.From, depth-1, "var-arg")}
		if g.Identical(a.To, ty) {
			return call
		}
		return gen.cast(call, a.To, ty, "var-result")
	}
	return gen.applyDyn(sc, f, gen.typ(small(ty), "dyn-arg-type"), ty, depth)
}

// applyDyn applies f : Dyn to an argument of type a and casts the result to ty.
func (gen *generator) applyDyn(sc scope, f g.Expr, a, ty g.Type, depth int) g.Expr {
	x := gen.term(sc, a, depth-1)
	if !gen.cfg.Cast { // AppDyn: cast insertion casts f to a -> Dyn
		return gen.result(&g.App{P: gen.pos(), Fun: f, Arg: x}, g.Dyn, ty)
	}
	fun := gen.cast(f, g.Dyn, g.Fn(a, g.Dyn), "dyn-fun")
	return gen.result(&g.App{Fun: fun, Arg: x}, g.Dyn, ty)
}

// result casts e : s to ty unless they are identical.
func (gen *generator) result(e g.Expr, s, ty g.Type) g.Expr {
	if g.Identical(s, ty) {
		return e
	}
	return gen.cast(e, s, ty, "result")
}

// throughDyn draws a term of a neighbouring type s, casts it to a type m consistent
// with s and ty (usually Dyn) and from there to ty.
//
// For a function type, a third of the time s is ty with one part changed and m has
// Dyn exactly there: the two function coercions then compose (Arr) into one whose
// domain or codomain fails (FailL, FailR in the eager semantics; a wrapper that fails
// when applied, or ArrFail, in the lazy ones), even under the D strategy, which
// otherwise checks a function through Dyn in one InOut step. A sixth of the time the
// function goes through a more precise type (m refines the Dyn parts of s = ty) and
// back, which leaves I?^l ; I! in its wrapper: applied to a value of another type,
// the projection fails in the middle of a sequence (FailCo).
func (gen *generator) throughDyn(sc scope, ty g.Type, depth int) g.Expr {
	s := gen.neighbour(ty, 2, "dyn-source")
	m := gen.between(s, ty, "dyn-middle")
	if _, ok := ty.(*g.Arrow); ok {
		switch gen.draw("fun-mismatch", 6) {
		case 1, 4:
			s = gen.mutate(ty, 2, "fun-mismatch-source")
			m = lub(s, ty)
		case 3: // through a more precise type and back: (I?^l ; I!) parts
			s = ty
			m = gen.refine(ty, "fun-precise")
		}
	}
	e := gen.fun(sc, s, depth-1) // a function may already be wrapped
	return gen.cast(gen.cast(e, s, m, "up"), m, ty, "down")
}

// dynApp is an application through Dyn: a function of a neighbouring type injected
// into Dyn (GTLC: ascribed Dyn), applied (cast insertion's AppDyn), the result cast to
// ty.
func (gen *generator) dynApp(sc scope, ty g.Type, depth int) g.Expr {
	a := gen.typ(small(ty), "dynapp-arg-type")
	fty := g.Type(g.Fn(a, ty))
	var fun g.Expr
	switch gen.draw("dynapp-fun-type", 4) {
	case 1: // a wrapped function of another domain: the projection (InOut) fails
		// with the wrapper still on, (c -> d) ; fail^l (FailFC, ArrFail)
		fty = g.Fn(gen.mutate(a, 1, "dynapp-fun-dom"), ty)
		m := []g.Type{g.Dyn, lub(fty, g.DynDyn)}[gen.draw("dynapp-wrap", 2)]
		fun = gen.cast(gen.cast(gen.term(sc, fty, depth-1), fty, m, "wrap-up"), m, fty, "wrap-down")
	case 3:
		fty = gen.neighbour(fty, 2, "dynapp-fun-neighbour")
	}
	if fun == nil {
		fun = gen.fun(sc, fty, depth-1)
	}
	f := gen.cast(fun, fty, g.Dyn, "dynapp-inject")
	return gen.applyDyn(sc, f, a, ty, depth)
}

// higherOrder passes a function g to a function that applies it:
// (\f:P. ... f arg ...) g, where P is the function's type a -> ty, Dyn, or a less
// precise function type (so that g crosses Dyn before it is applied).
func (gen *generator) higherOrder(sc scope, ty g.Type, depth int) g.Expr {
	a := gen.typ(small(ty), "ho-arg-type")
	fty := g.Fn(a, ty)
	f := gen.binder(sc, "ho-param")
	var p, gty, bodyTy g.Type
	var body func(inner scope) g.Expr
	switch gen.draw("ho-kind", 4) {
	case 0, 1: // P = a -> ty; twice, f (f arg), when a = ty
		p, gty, bodyTy = fty, fty, ty
		body = func(inner scope) g.Expr {
			x := gen.arg(inner, a, depth-1, "ho-arg")
			if g.Identical(a, ty) && gen.draw("twice", 2) == 0 {
				x = &g.App{P: gen.pos(), Fun: &g.Var{Name: f}, Arg: x}
			}
			return &g.App{P: gen.pos(), Fun: &g.Var{Name: f}, Arg: x}
		}
	case 2: // P = Dyn: f is applied dynamically
		p, gty, bodyTy = g.Dyn, gen.neighbour(fty, 2, "ho-fun-type"), g.Dyn
		body = func(inner scope) g.Expr {
			x := gen.term(inner, a, depth-1)
			if !gen.cfg.Cast {
				return &g.App{P: gen.pos(), Fun: &g.Var{Name: f}, Arg: x}
			}
			return &g.App{Fun: gen.cast(&g.Var{Name: f}, g.Dyn, g.Fn(a, g.Dyn), "ho-project"), Arg: x}
		}
	default: // P = a less precise function type
		pa := gen.dynify(fty, "ho-param-type")
		pf, ok := pa.(*g.Arrow)
		if !ok {
			pf = g.DynDyn
		}
		p, gty, bodyTy = pf, gen.refine(pf, "ho-fun-type"), pf.To
		body = func(inner scope) g.Expr {
			x := gen.implicit(gen.term(inner, a, depth-1), a, pf.From, "ho-arg")
			return &g.App{P: gen.pos(), Fun: &g.Var{Name: f}, Arg: x}
		}
	}
	inner := sc.bind(f, p)
	lam := &g.Lam{Param: f, T: p, Body: body(inner)}
	fun := gen.implicit(gen.fun(sc, gty, depth-1), gty, p, "ho-pass")
	return gen.result(&g.App{P: gen.pos(), Fun: lam, Arg: fun}, bodyTy, ty)
}

// ifte draws a conditional; in GTLC the condition may be Dyn and one branch less
// precise than ty (their meet is ty).
func (gen *generator) ifte(sc scope, ty g.Type, depth int) g.Expr {
	cond := gen.arg(sc, g.Bool, depth-1, "cond")
	th, el := gen.term(sc, ty, depth-1), g.Expr(nil)
	if !gen.cfg.Cast && gen.draw("if-loose", 3) == 1 {
		el = gen.term(sc, gen.dynify(ty, "else-type"), depth-1)
	} else {
		el = gen.term(sc, ty, depth-1)
	}
	if gen.draw("if-swap", 2) == 1 {
		th, el = el, th
	}
	return &g.If{P: gen.pos(), Cond: cond, Then: th, Else: el}
}

// prim draws a primitive operation of type ty (Int or Bool), nil for other types.
func (gen *generator) prim(sc scope, ty g.Type, depth int) g.Expr {
	var ops []g.Op
	switch ty {
	case g.Int:
		ops = []g.Op{g.OpInc, g.OpAdd, g.OpDec, g.OpSub, g.OpMul}
	case g.Bool:
		ops = []g.Op{g.OpZero, g.OpLt, g.OpEq}
	default:
		return nil
	}
	op := ops[gen.draw("op", len(ops))]
	if op.IsBinary() {
		return &g.Binary{P: gen.pos(), Op: op, X: gen.arg(sc, g.Int, depth-1, "left"), Y: gen.arg(sc, g.Int, depth-1, "right")}
	}
	return &g.Unary{P: gen.pos(), Op: op, X: gen.arg(sc, g.Int, depth-1, "operand")}
}

// letrec draws a loop
//
//	letrec f:P -> ty = \n:P. if zero? n then base else step (f (dec n)) in use f k
//
// with P Int or Dyn, the recursive reference to f sometimes cast through Dyn (so
// that its wrappers compose on every call), step the identity (a tail call) or, for
// Int, an addition (a growing context), and use f k a call of f, direct, through Dyn,
// or by a higher-order function. The start k is a small natural number, so the loop
// ends; rarely it is negative, and a tail-recursive loop then runs out of fuel.
//
// The names shadow as binder draws them (f and n may hide names in scope); the use may
// bind f's name again, by a let or by another letrec; and sometimes the parameter is
// named like the function (\f:P. ...): the body then sees
// the parameter, not the function, and makes no recursive call (the case of spec §4's
// erratum to the Letrec rule).
func (gen *generator) letrec(sc scope, ty g.Type, depth int) g.Expr {
	return gen.letrecNamed(sc, ty, depth, gen.binder(sc, "rec-fun"))
}

// letrecNamed is letrec with the function named f.
func (gen *generator) letrecNamed(sc scope, ty g.Type, depth int, f string) g.Expr {
	p := g.Type(g.Int)
	if gen.draw("rec-param", 3) == 1 {
		p = g.Dyn
	}
	fty := g.Fn(p, ty)
	n := gen.binder(sc, "rec-param-name")
	if gen.draw("rec-param-is-fun", 4) == 2 {
		n = f
	}
	ref := func(name string) g.Expr {
		if gen.draw(name, 4) == 1 {
			return gen.cast(gen.cast(&g.Var{Name: f}, fty, g.Dyn, name+"-up"), g.Dyn, fty, name+"-down")
		}
		return &g.Var{Name: f}
	}
	nInt := gen.implicit(&g.Var{Name: n}, p, g.Int, "rec-n")
	inner := sc.bindRec(f, fty).bind(n, p) // n hides f when they are one name
	var call g.Expr
	diverge := false
	if n == f { // no recursive call: a term that may use the parameter
		call = gen.term(inner, ty, depth-1)
	} else {
		dec := &g.Unary{P: gen.pos(), Op: g.OpDec, X: nInt}
		call = &g.App{P: gen.pos(), Fun: ref("rec-ref"), Arg: gen.implicit(dec, g.Int, p, "rec-arg")}
		diverge = gen.oneIn("diverge", 24)
		if ty == g.Int && !diverge && gen.draw("rec-step", 2) == 0 {
			call = &g.Binary{P: gen.pos(), Op: g.OpAdd, X: gen.implicit(&g.Var{Name: n}, p, g.Int, "rec-n2"), Y: call}
		}
	}
	// The base case sees the parameter but not the function (so that it does not loop).
	base := gen.term(sc.hide(f).bind(n, p), ty, depth-1)
	cond := &g.Unary{P: gen.pos(), Op: g.OpZero, X: gen.implicit(&g.Var{Name: n}, p, g.Int, "rec-n3")}
	fun := &g.Lam{Param: n, T: p, Body: &g.If{P: gen.pos(), Cond: cond, Then: base, Else: call}}

	k := int64(gen.draw("start", 5))
	if diverge {
		k = -1
	}
	start := gen.implicit(&g.IntLit{N: k}, g.Int, p, "rec-start")
	outer := sc.bindRec(f, fty)
	var use g.Expr
	switch gen.draw("rec-use", 7) {
	case 0, 1:
		use = &g.App{P: gen.pos(), Fun: ref("use-ref"), Arg: start}
	case 2: // passed to a function that applies it
		h := gen.binder(outer, "rec-use-param")
		use = &g.App{P: gen.pos(), Fun: &g.Lam{Param: h, T: fty, Body: &g.App{P: gen.pos(), Fun: &g.Var{Name: h}, Arg: start}}, Arg: &g.Var{Name: f}}
	case 5: // the function's result bound by a let of its name, which hides it
		bound := &g.App{P: gen.pos(), Fun: ref("use-ref"), Arg: start}
		use = &g.Let{P: gen.pos(), Name: f, T: ty, Bound: bound, Body: gen.term(outer.bind(f, ty), ty, depth-1)}
	case 6: // another loop of the same name, which hides this one
		if depth > 1 {
			use = gen.letrecNamed(outer, ty, depth-1, f)
			break
		}
		use = gen.term(outer, ty, depth-1)
	default:
		use = gen.term(outer, ty, depth-1)
	}
	return &g.Letrec{P: gen.pos(), Name: f, T: fty, Fun: fun, Body: use}
}

// leaf draws a variable of type ty if one is in scope, else a constant, a lambda, or
// (for Dyn) an injected value.
func (gen *generator) leaf(sc scope, ty g.Type) g.Expr {
	t := gen.t
	var vars []string
	for i, s := range sc.types {
		if g.Identical(s, ty) {
			vars = append(vars, sc.names[i])
		}
	}
	if len(vars) > 0 && gen.draw("use-var", 3) < 2 {
		return &g.Var{Name: rapid.SampledFrom(vars).Draw(t, "var")}
	}
	if gen.explicitBlame() && gen.oneIn("blame-leaf", 96) {
		return &g.Blame{L: gen.label("blame")}
	}
	switch ty := ty.(type) {
	case g.Base:
		if ty == g.Int {
			return &g.IntLit{N: int64(gen.draw("int", 6))}
		}
		return &g.BoolLit{B: gen.draw("bool", 2) == 1}
	case *g.Arrow:
		x := gen.binder(sc, "leaf-param")
		return &g.Lam{Param: x, T: ty.From, Body: gen.useParam(sc.bind(x, ty.From), x, ty.From, ty.To)}
	}
	// Dyn: a value of some other type, cast (or ascribed) to Dyn.
	// Mostly an integer, which is what most code that projects from Dyn expects.
	s := rapid.SampledFrom([]g.Type{g.Int, g.DynDyn, g.Int, g.Fn(g.Int, g.Int), g.Int, g.Bool, g.Fn(g.Dyn, g.Int), g.Fn(g.Bool, g.Bool)}).Draw(t, "dyn-source")
	return gen.cast(gen.leaf(sc, s), s, g.Dyn, "inject")
}

// useParam is the body of a leaf lambda \x:from. body : to: it uses x when it can
// (so that the argument's casts matter), else it is a leaf.
func (gen *generator) useParam(sc scope, x string, from, to g.Type) g.Expr {
	v := &g.Var{Name: x}
	if gen.draw("use-param", 3) == 2 {
		return gen.leaf(sc, to)
	}
	switch {
	case g.Identical(from, to):
		return v
	case to == g.Int && g.Consistent(from, g.Int):
		return &g.Unary{P: gen.pos(), Op: g.OpInc, X: gen.implicit(v, from, g.Int, "param")}
	case to == g.Bool && g.Consistent(from, g.Int):
		return &g.Unary{P: gen.pos(), Op: g.OpZero, X: gen.implicit(v, from, g.Int, "param")}
	case g.Consistent(from, to):
		return gen.cast(v, from, to, "param")
	}
	return gen.leaf(sc, to)
}
