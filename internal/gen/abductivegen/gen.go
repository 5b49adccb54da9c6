// Package abductivegen generates random closed, well-typed programs of the abductive
// calculus for property tests and fuzzing (rapid): every form of the calculus, so that
// every rule fires — provisional constants, decouplings (nested, with models of
// ground type, function type or an outer decoupling's vector type, with parameters
// that come through free variables), the vector operations and both iterators — and
// shadowing of the names that are not vectors.
package abductivegen

import (
	"fmt"

	"github.com/interderive/interderive/abductive"
	"pgregory.net/rapid"
)

// DefaultDepth is the depth of a program when Config.Depth is zero.
const DefaultDepth = 5

// Config selects what the generator may produce.
type Config struct {
	// Depth bounds the term's depth (DefaultDepth when zero).
	Depth int
	// Exact restricts numbers and operations to those float64 computes exactly
	// whatever the order, for the property that permuting labels changes no
	// observation: small integers; +, - and dot products; * only by a numeral; no
	// division and no *L (whose products of computed numbers would grow past 2^53,
	// where float64 rounds and the order of a sum shows).
	Exact bool
}

// NodeBudget bounds the number of compound terms a program of the given depth draws:
// past it every term is a leaf, so that size is linear in depth.
func NodeBudget(depth int) int { return 60 * max(depth, 1) }

// Program draws a closed, well-typed program, labelled as Parse labels it: mostly of
// type F, sometimes F -> F.
func Program(t *rapid.T, cfg Config) abductive.Expr {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	gen := &generator{t: t, cfg: cfg, budget: NodeBudget(cfg.Depth)}
	var ty gtype = field
	if gen.draw("program-type", 4) == 2 {
		ty = &gArrow{field, field}
	}
	return Relabel(gen.term(scope{}, ty, cfg.Depth))
}

// Model draws a closed, well-typed program of type F: a model for the property that
// decoupling leaves direct mode unchanged.
func Model(t *rapid.T, cfg Config) abductive.Expr {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	gen := &generator{t: t, cfg: cfg, budget: NodeBudget(cfg.Depth)}
	return Relabel(gen.term(scope{}, field, cfg.Depth))
}

// ProgramGen is Program as a rapid generator.
func ProgramGen(cfg Config) *rapid.Generator[abductive.Expr] {
	return rapid.Custom(func(t *rapid.T) abductive.Expr { return Program(t, cfg) })
}

// Relabel gives the provisional constants of e the labels Parse would, 1, 2, ... in
// source order: it prints e and reads it back.
func Relabel(e abductive.Expr) abductive.Expr {
	back, err := abductive.Parse([]byte(abductive.Format(e)))
	if err != nil {
		panic(fmt.Sprintf("abductivegen: %s does not read back: %v", abductive.Format(e), err))
	}
	return back
}

// gtype is a type in the generator: F, the vector type of one decoupling, or an
// arrow.
type gtype interface{}

type (
	gField struct{}
	gVec   struct{ id int }
	gArrow struct{ from, to gtype }
)

var field gtype = gField{}

func sameType(a, b gtype) bool {
	switch a := a.(type) {
	case gField:
		_, ok := b.(gField)
		return ok
	case *gVec:
		return a == b
	case *gArrow:
		c, ok := b.(*gArrow)
		return ok && sameType(a.from, c.from) && sameType(a.to, c.to)
	}
	return false
}

// annotation is the annotation of a generator type: V for every vector type.
func annotation(t gtype) abductive.Type {
	switch t := t.(type) {
	case *gVec:
		return &abductive.VecType{}
	case *gArrow:
		return abductive.Fn(annotation(t.from), annotation(t.to))
	}
	return abductive.Field
}

// hasVec reports whether t mentions a vector type.
func hasVec(t gtype) bool {
	switch t := t.(type) {
	case *gVec:
		return true
	case *gArrow:
		return hasVec(t.from) || hasVec(t.to)
	}
	return false
}

// scope is the generator's typing environment, innermost last, and the vector types
// of the decouplings in scope (whose parameters are always visible: names of types
// with vectors are never hidden).
type scope struct {
	names []string
	types []gtype
	vecs  []*gVec
}

// bind extends the scope with x:ty, which hides an earlier x.
func (sc scope) bind(x string, ty gtype) scope {
	out := scope{vecs: sc.vecs}
	for i, y := range sc.names {
		if y != x {
			out.names, out.types = append(out.names, y), append(out.types, sc.types[i])
		}
	}
	out.names, out.types = append(out.names, x), append(out.types, ty)
	return out
}

type generator struct {
	t      *rapid.T
	cfg    Config
	budget int
	nodes  int
	fresh  int
	vecs   int
}

func (gen *generator) draw(name string, n int) int { return rapid.IntRange(0, n-1).Draw(gen.t, name) }

func (gen *generator) name() string {
	gen.fresh++
	return fmt.Sprintf("x%d", gen.fresh)
}

// binder draws the name of a new binder: usually fresh, one time in four a name in
// scope whose type has no vector (which the binder hides).
func (gen *generator) binder(sc scope, name string) string {
	var free []string
	for i, x := range sc.names {
		if !hasVec(sc.types[i]) {
			free = append(free, x)
		}
	}
	if len(free) == 0 || gen.draw(name+"-shadow", 4) != 2 {
		return gen.name()
	}
	return free[gen.draw(name+"-shadowed", len(free))]
}

// small draws a small type: F, F -> F, or with a vector type in scope V, V -> F,
// V -> V.
func (gen *generator) small(sc scope, name string) gtype {
	n := 3 // F (twice as likely) or F -> F
	if len(sc.vecs) > 0 {
		n = 6
	}
	switch gen.draw(name, n) - 1 {
	case 1:
		return &gArrow{field, field}
	case 2:
		return sc.vecs[gen.draw(name+"-vec", len(sc.vecs))]
	case 3:
		v := sc.vecs[gen.draw(name+"-vec", len(sc.vecs))]
		return &gArrow{v, field}
	case 4:
		v := sc.vecs[gen.draw(name+"-vec", len(sc.vecs))]
		return &gArrow{v, v}
	}
	return field
}

// numbers are the numerals drawn: exact ones, and others.
var (
	exactNumbers = []float64{0, 1, 2, -1}
	numbers      = []float64{0, 1, 2, 3, -1, 0.5, 1e300, 0.1}
)

func (gen *generator) number(name string) float64 {
	ns := numbers
	if gen.cfg.Exact {
		ns = exactNumbers
	}
	return ns[gen.draw(name, len(ns))]
}

// term draws a term of type ty; a leaf once the depth or the budget is spent, or when
// the draw says stop (0, towards which rapid shrinks).
func (gen *generator) term(sc scope, ty gtype, depth int) abductive.Expr {
	gen.nodes++
	if depth <= 0 || gen.nodes > gen.budget || gen.draw("stop", 12) == 0 {
		return gen.leaf(sc, ty)
	}
	switch gen.draw("form", 8) {
	case 0: // an application
		a := gen.small(sc, "app-arg-type")
		return &abductive.App{Fun: gen.term(sc, &gArrow{a, ty}, depth-1), Arg: gen.term(sc, a, depth-1)}
	case 1: // let
		s := gen.small(sc, "let-type")
		x := gen.binder(sc, "let")
		if hasVec(s) {
			x = gen.name()
		}
		return &abductive.Let{Name: x, Bound: gen.term(sc, s, depth-1), Body: gen.term(sc.bind(x, s), ty, depth-1)}
	case 2: // a decoupling
		return gen.decoupling(sc, ty, depth)
	}
	switch t := ty.(type) {
	case *gArrow:
		x := gen.binder(sc, "lambda")
		if hasVec(t.from) {
			x = gen.name()
		}
		return &abductive.Lam{Param: x, T: annotation(t.from), Body: gen.term(sc.bind(x, t.from), t.to, depth-1)}
	case *gVec:
		switch gen.draw("vec-form", 4) {
		case 0:
			return &abductive.Binary{Op: abductive.OpAdd, X: gen.term(sc, t, depth-1), Y: gen.term(sc, t, depth-1)}
		case 1:
			return &abductive.Binary{Op: abductive.OpMul, X: gen.factor(sc, depth-1), Y: gen.term(sc, t, depth-1)}
		case 2:
			return &abductive.Binary{Op: abductive.OpIterAdd, X: gen.term(sc, &gArrow{t, t}, depth-1), Y: gen.term(sc, t, depth-1)}
		default:
			if gen.cfg.Exact {
				return &abductive.Binary{Op: abductive.OpAdd, X: gen.term(sc, t, depth-1), Y: gen.term(sc, t, depth-1)}
			}
			return &abductive.Binary{Op: abductive.OpIterMul, X: gen.term(sc, &gArrow{t, field}, depth-1), Y: gen.term(sc, t, depth-1)}
		}
	}
	if len(sc.vecs) > 0 && gen.draw("dot", 4) == 0 {
		v := sc.vecs[gen.draw("dot-vec", len(sc.vecs))]
		return &abductive.Binary{Op: abductive.OpDot, X: gen.term(sc, v, depth-1), Y: gen.term(sc, v, depth-1)}
	}
	ops := []abductive.Op{abductive.OpAdd, abductive.OpSub, abductive.OpMul, abductive.OpDiv}
	if gen.cfg.Exact {
		ops = ops[:3]
	}
	op := ops[gen.draw("op", len(ops))]
	if op == abductive.OpMul {
		return &abductive.Binary{Op: op, X: gen.factor(sc, depth-1), Y: gen.term(sc, field, depth-1)}
	}
	return &abductive.Binary{Op: op, X: gen.term(sc, field, depth-1), Y: gen.term(sc, field, depth-1)}
}

// factor draws the left operand of a product: any term of type F, or with Exact a
// numeral (not a provisional constant, which a decoupling may replace by any number).
func (gen *generator) factor(sc scope, depth int) abductive.Expr {
	if !gen.cfg.Exact {
		return gen.term(sc, field, depth)
	}
	return &abductive.Num{V: gen.number("factor-value")}
}

// decoupling draws let f @ p = m in t: the model of type F, F -> F or an outer
// decoupling's vector type, and t of type ty with f and p in scope.
func (gen *generator) decoupling(sc scope, ty gtype, depth int) abductive.Expr {
	var model gtype = field
	switch gen.draw("model-type", 4) {
	case 1:
		model = &gArrow{field, field}
	case 2:
		if len(sc.vecs) > 0 {
			model = sc.vecs[gen.draw("model-vec", len(sc.vecs))]
		}
	}
	gen.vecs++
	v := &gVec{id: gen.vecs}
	f, p := gen.name(), gen.name()
	inner := sc.bind(f, &gArrow{v, model}).bind(p, v)
	inner.vecs = append(sc.vecs[:len(sc.vecs):len(sc.vecs)], v)
	body := gen.term(inner, ty, depth-1)
	if gen.draw("use-model", 2) == 0 { // make sure the model is used: f p in the body
		use := &abductive.App{Fun: &abductive.Var{Name: f}, Arg: &abductive.Var{Name: p}}
		x := gen.name()
		body = &abductive.Let{Name: x, Bound: use, Body: body}
	}
	return &abductive.App{Fun: &abductive.Abduct{F: f, Par: p, Body: body}, Arg: gen.term(sc, model, depth-1), Sugar: true}
}

// leaf draws a variable of type ty if one is in scope (two times in three; always
// for a vector type), else a numeral or a provisional constant, or a function whose
// body is a leaf.
func (gen *generator) leaf(sc scope, ty gtype) abductive.Expr {
	var vars []string
	for i, s := range sc.types {
		if sameType(s, ty) {
			vars = append(vars, sc.names[i])
		}
	}
	_, isVec := ty.(*gVec)
	if len(vars) > 0 && (isVec || gen.draw("use-var", 3) < 2) {
		return &abductive.Var{Name: vars[gen.draw("var", len(vars))]}
	}
	switch t := ty.(type) {
	case *gArrow:
		x := gen.binder(sc, "leaf-param")
		if hasVec(t.from) {
			x = gen.name()
		}
		return &abductive.Lam{Param: x, T: annotation(t.from), Body: gen.leaf(sc.bind(x, t.from), t.to)}
	case *gVec:
		panic("abductivegen: a vector type with no variable in scope")
	}
	if gen.draw("param", 2) == 0 {
		return &abductive.Param{R: gen.number("param-value")}
	}
	return &abductive.Num{V: gen.number("number")}
}
