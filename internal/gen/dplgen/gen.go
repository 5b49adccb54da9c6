// Package dplgen generates random well-typed programs of the differentiable language
// (package dpl) for property tests (rapid), so that every stage can reuse them. The
// generators are type-directed: every term they produce type-checks by construction
// (Program elaborates it with dpl.Check and fails the test if it does not). rapid
// shrinks failures through the choices they draw.
//
// Recursion is generated only as bounded loops, so that programs terminate:
//
//	letrec f(p:T * real):U = if snd(p) <. 0.5 then B else f(<S, snd(p) + -1>) in ...
//
// called with a small whole number as the counter, which therefore never meets the
// diagonal of <.
package dplgen

import (
	"fmt"

	"github.com/interderive/interderive/dpl"
	"pgregory.net/rapid"
)

// Config selects what the generators may produce.
type Config struct {
	// Depth bounds the depth of terms.
	Depth int
	// Rd allows rd, fd and grad (nested as deep as Depth allows).
	Rd bool
	// Letrec allows function definitions (bounded loops) and calls.
	Letrec bool
	// Partial allows the partial operators log and inv, and conditions, which make
	// programs undefined at some points.
	Partial bool
	// Trace restricts terms to trace terms (spec §3): no if, letrec, call or rd.
	Trace bool
}

// Full is the configuration with everything allowed.
func Full(depth int) Config { return Config{Depth: depth, Rd: true, Letrec: true, Partial: true} }

// Scope is a generator's typing environment: ordinary variables and functions.
type Scope struct {
	vars  []binding
	funcs []function
}

type binding struct {
	name string
	t    dpl.Type
}

type function struct {
	name string
	t, u dpl.Type
}

// Bind returns the scope extended with x:t (shadowing an earlier x).
func (sc Scope) Bind(x string, t dpl.Type) Scope {
	vars := make([]binding, 0, len(sc.vars)+1)
	for _, b := range sc.vars {
		if b.name != x {
			vars = append(vars, b)
		}
	}
	sc.vars = append(vars, binding{x, t})
	return sc
}

// only is the scope of a function body: its parameter and the functions.
func (sc Scope) only(x string, t dpl.Type) Scope {
	return Scope{vars: []binding{{x, t}}, funcs: sc.funcs}
}

// withFunc returns the scope extended with the function f : t -> u (shadowing an
// earlier f).
func (sc Scope) withFunc(f string, t, u dpl.Type) Scope {
	sc = sc.withoutFunc(f)
	sc.funcs = append(sc.funcs, function{f, t, u})
	return sc
}

// withoutFunc is the scope without the function f: where f is bound to a function
// that may not be called there.
func (sc Scope) withoutFunc(f string) Scope {
	funcs := make([]function, 0, len(sc.funcs)+1)
	for _, g := range sc.funcs {
		if g.name != f {
			funcs = append(funcs, g)
		}
	}
	sc.funcs = funcs
	return sc
}

// Generator draws terms; it numbers the names it makes.
type Generator struct {
	t     *rapid.T
	cfg   Config
	fresh int
	nodes int // the terms drawn so far, against NodeBudget
}

// NodeBudget bounds the number of compound terms a program of the given depth draws:
// past it every term is a leaf, so that a program's size is linear in its depth rather
// than exponential (the default depths' programs stay well under it).
func NodeBudget(depth int) int { return 100 * max(depth, 1) }

// New returns a generator.
func New(t *rapid.T, cfg Config) *Generator { return &Generator{t: t, cfg: cfg} }

func (g *Generator) name(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh)
}

// binder draws the name of a new variable binder: usually fresh, sometimes one already
// in scope (shadowing it, whatever its type), to exercise capture avoidance, and
// sometimes a function's name (functions and variables live apart: f(f) calls the
// function f on the variable f).
func (g *Generator) binder(sc Scope, label string) string {
	if len(sc.vars) > 0 && rapid.IntRange(0, 4).Draw(g.t, label+"-shadow") == 0 {
		return sc.vars[rapid.IntRange(0, len(sc.vars)-1).Draw(g.t, label+"-shadowed")].name
	}
	if len(sc.funcs) > 0 && rapid.IntRange(0, 6).Draw(g.t, label+"-like-function") == 3 {
		return sc.funcs[rapid.IntRange(0, len(sc.funcs)-1).Draw(g.t, label+"-function")].name
	}
	return g.name("x")
}

// funcName draws the name of a new function: usually fresh, sometimes the name of a
// function in scope (which the new one hides) or of a variable.
func (g *Generator) funcName(sc Scope) string {
	switch rapid.IntRange(0, 6).Draw(g.t, "fun-name") {
	case 3:
		if len(sc.funcs) > 0 {
			return sc.funcs[rapid.IntRange(0, len(sc.funcs)-1).Draw(g.t, "fun-shadowed")].name
		}
	case 4:
		if len(sc.vars) > 0 {
			return sc.vars[rapid.IntRange(0, len(sc.vars)-1).Draw(g.t, "fun-like-var")].name
		}
	}
	return g.name("f")
}

var (
	real2    = dpl.Times(dpl.Real, dpl.Real)
	smallTys = []dpl.Type{dpl.Real, dpl.Real, real2, dpl.Unit, dpl.Times(real2, dpl.Real), dpl.Times(dpl.Real, dpl.Unit)}
)

// Type draws a small type (real most often).
func Type(t *rapid.T, label string) dpl.Type {
	return smallTys[rapid.IntRange(0, len(smallTys)-1).Draw(t, label)]
}

// Value draws a closed value of type ty with small, mostly whole, coordinates.
func Value(t *rapid.T, ty dpl.Type, label string) dpl.Term {
	switch ty := ty.(type) {
	case *dpl.Prod:
		return &dpl.Pair{X: Value(t, ty.Fst, label), Y: Value(t, ty.Snd, label), T: ty.Fst, U: ty.Snd}
	case dpl.Base:
		if ty == dpl.Unit {
			return &dpl.UnitLit{}
		}
	}
	return &dpl.RealLit{R: Real(t, label)}
}

// Real draws a small real constant.
func Real(t *rapid.T, label string) float64 {
	return rapid.SampledFrom([]float64{1, 2, 0.5, 3, -1, 0, 1.5, -2, 0.25}).Draw(t, label)
}

// Program draws a closed program of a random type and elaborates it.
func Program(t *rapid.T, cfg Config) dpl.Term {
	g := New(t, cfg)
	ty := Type(t, "program-type")
	return Elaborate(t, nil, g.Term(Scope{}, ty, cfg.Depth))
}

// Elaborate type-checks a generated term under gamma and returns it elaborated; a
// failure is a bug of the generator.
func Elaborate(t *rapid.T, gamma dpl.TypeEnv, m dpl.Term) dpl.Term {
	e, _, err := dpl.CheckIn(gamma, m)
	if err != nil {
		t.Fatalf("generated term is ill-typed: %v\n%s", err, dpl.Format(m))
	}
	return e
}

// Term draws a term of type ty in scope sc, of depth at most depth.
func (g *Generator) Term(sc Scope, ty dpl.Type, depth int) dpl.Term {
	t := g.t
	g.nodes++
	if depth <= 0 || g.nodes > NodeBudget(g.cfg.Depth) {
		return g.leaf(sc, ty)
	}
	// rapid favours small draws: the forms that build structure come first.
	switch rapid.IntRange(0, 11).Draw(t, "form") {
	case 0: // let
		s := Type(t, "let-type")
		x := g.binder(sc, "let")
		return &dpl.Let{Name: x, T: s, Bound: g.Term(sc, s, depth-1), Body: g.Term(sc.Bind(x, s), ty, depth-1)}
	case 1: // the type's own structure
		return g.structural(sc, ty, depth)
	case 2: // rd, fd or grad
		if g.cfg.Rd && !g.cfg.Trace {
			return g.derivative(sc, ty, depth)
		}
	case 3: // if
		if !g.cfg.Trace {
			return &dpl.If{Cond: g.condition(sc, depth-1), Then: g.Term(sc, ty, depth-1), Else: g.Term(sc, ty, depth-1)}
		}
	case 4: // a loop, or a call of a function in scope
		if g.cfg.Letrec && !g.cfg.Trace {
			return g.loop(sc, ty, depth)
		}
	case 5: // projections
		s := Type(t, "other")
		if rapid.Bool().Draw(t, "fst") {
			return &dpl.Fst{X: g.Term(sc, dpl.Times(ty, s), depth-1)}
		}
		return &dpl.Snd{X: g.Term(sc, dpl.Times(s, ty), depth-1)}
	case 6, 7:
		return g.structural(sc, ty, depth)
	}
	return g.leaf(sc, ty)
}

// structural draws a term built by the constructors of ty: pairs, (), and for real
// constants, +, and the operators.
func (g *Generator) structural(sc Scope, ty dpl.Type, depth int) dpl.Term {
	t := g.t
	switch ty := ty.(type) {
	case *dpl.Prod:
		return &dpl.Pair{X: g.Term(sc, ty.Fst, depth-1), Y: g.Term(sc, ty.Snd, depth-1)}
	case dpl.Base:
		if ty == dpl.Unit {
			return &dpl.UnitLit{}
		}
	}
	ops := []string{"plus", "mul", "neg", "sin", "cos", "exp", "dprod2", "minus"}
	if g.cfg.Partial {
		ops = append(ops, "log", "inv", "div")
	}
	sub := func() dpl.Term { return g.Term(sc, dpl.Real, depth-1) }
	op := func(name string, arg dpl.Term) dpl.Term {
		o, _ := dpl.LookupOperator(name)
		return &dpl.OpApp{Op: o, Arg: arg}
	}
	switch name := rapid.SampledFrom(ops).Draw(t, "op"); name {
	case "plus":
		return &dpl.Plus{X: sub(), Y: sub()}
	case "minus":
		return &dpl.Plus{X: sub(), Y: op("neg", sub())}
	case "mul":
		return op(name, &dpl.Pair{X: sub(), Y: sub()})
	case "div":
		return op("mul", &dpl.Pair{X: sub(), Y: op("inv", sub())})
	case "dprod2":
		return op(name, &dpl.Pair{X: g.Term(sc, real2, depth-1), Y: g.Term(sc, real2, depth-1)})
	default:
		return op(name, sub())
	}
}

// condition draws a boolean term: M <. N mostly, sometimes true or false.
func (g *Generator) condition(sc Scope, depth int) dpl.Term {
	if !g.cfg.Partial || rapid.IntRange(0, 5).Draw(g.t, "const-cond") == 0 {
		return &dpl.BoolLit{B: rapid.Bool().Draw(g.t, "bool")}
	}
	return &dpl.PredApp{Pred: dpl.Lt, Arg: &dpl.Pair{X: g.Term(sc, dpl.Real, depth), Y: g.Term(sc, dpl.Real, depth)}}
}

// derivative draws M.rd[L](x:S. N) : ty, M.fd[L](x:ty. N), or grad.
func (g *Generator) derivative(sc Scope, ty dpl.Type, depth int) dpl.Term {
	t := g.t
	x := g.binder(sc, "rd")
	switch rapid.IntRange(0, 2).Draw(t, "rd-form") {
	case 1: // M.fd[L](x:S. N) : ty with M, L : S and N : ty
		s := Type(t, "fd-type")
		return &dpl.Fd{Cotangent: g.Term(sc, s, depth-1), Point: g.Term(sc, s, depth-1), Param: x, T: s,
			Body: g.Term(sc.Bind(x, s), ty, depth-1)}
	case 2: // grad[L](x:ty. N) with N : real
		return &dpl.Rd{Cotangent: &dpl.RealLit{R: 1}, Point: g.Term(sc, ty, depth-1), Param: x, T: ty,
			Body: g.Term(sc.Bind(x, ty), dpl.Real, depth-1)}
	}
	u := Type(t, "rd-body-type")
	return &dpl.Rd{Cotangent: g.Term(sc, u, depth-1), Point: g.Term(sc, ty, depth-1), Param: x, T: ty,
		Body: g.Term(sc.Bind(x, ty), u, depth-1)}
}

// loop draws a call of a function in scope, or defines a bounded loop and uses it.
func (g *Generator) loop(sc Scope, ty dpl.Type, depth int) dpl.Term {
	t := g.t
	var callable []function
	for _, f := range sc.funcs {
		if dpl.Equal(f.u, ty) {
			callable = append(callable, f)
		}
	}
	if len(callable) > 0 && rapid.Bool().Draw(t, "call-existing") {
		f := rapid.SampledFrom(callable).Draw(t, "callee")
		return g.call(sc, f, depth-1)
	}
	// letrec f(p:S*real):U = if snd(p) <. 0.5 then B else f(<STEP, snd(p) + -1>) in N
	s, u := Type(t, "loop-state"), Type(t, "loop-result")
	f, p, a := g.funcName(sc), g.name("p"), g.name("a")
	// The parameter sometimes named like the function (f(f) calls the function on the
	// parameter), or like a variable of the scope around (which the body cannot see),
	// and a like the function.
	switch rapid.IntRange(0, 6).Draw(t, "param-name") {
	case 3:
		p = f
	case 4:
		if len(sc.vars) > 0 {
			p = sc.vars[rapid.IntRange(0, len(sc.vars)-1).Draw(t, "param-like-var")].name
		}
	case 5:
		a = f
	}
	st := dpl.Times(s, dpl.Real)
	// The body sees p (through a = fst(p)) and the functions around, but may call f only
	// in its recursive call (sometimes through its own derivative): every call
	// terminates. (An outer function of f's name is hidden by f.)
	inner := sc.withoutFunc(f).only(p, st).Bind(a, s)
	pv := &dpl.Var{Name: p}
	counter := &dpl.Snd{X: pv}
	minus1 := &dpl.Plus{X: counter, Y: &dpl.RealLit{R: -1}}
	bodyDepth := min(depth-1, 2)
	base := g.Term(inner, u, bodyDepth)
	step := g.Term(inner, s, bodyDepth)
	var recur dpl.Term = &dpl.Call{Name: f, Arg: &dpl.Pair{X: step, Y: minus1}}
	if dpl.Equal(u, dpl.Real) && rapid.IntRange(0, 3).Draw(t, "recur-through-rd") == 3 {
		// Recursion through the function's own derivative: the recursive call sits in
		// the body of an rd, 1.rd[L](z:real. mul(<f(...), z>)), so every iteration
		// nests a symbolic layer.
		z := g.name("z")
		if f != p && f != a && rapid.IntRange(0, 4).Draw(t, "z-like-function") == 2 {
			z = f // the variable named like the function (not like p or a, which it would hide)
		}
		mul, _ := dpl.LookupOperator("mul")
		recur = &dpl.Rd{Cotangent: &dpl.RealLit{R: 1}, Point: g.Term(inner, dpl.Real, 0), Param: z, T: dpl.Real,
			Body: &dpl.OpApp{Op: mul, Arg: &dpl.Pair{X: recur, Y: &dpl.Var{Name: z}}}}
	}
	fun := &dpl.Let{Name: a, T: s, Bound: &dpl.Fst{X: pv}, Body: &dpl.If{
		Cond: &dpl.PredApp{Pred: dpl.Lt, Arg: &dpl.Pair{X: counter, Y: &dpl.RealLit{R: 0.5}}},
		Then: base,
		Else: recur,
	}}
	outer := sc.withFunc(f, st, u)
	body := g.Term(outer, ty, depth-1)
	if rapid.IntRange(0, 2).Draw(t, "loop-called") == 1 {
		// The loop called at once, its result bound (let r:U = f(<M, k>) in N), so that
		// every loop drawn is likely to run, whatever its names.
		r := g.binder(outer, "loop-result")
		body = &dpl.Let{Name: r, T: u, Bound: g.call(outer, function{f, st, u}, depth-1), Body: g.Term(outer.Bind(r, u), ty, depth-1)}
	}
	return &dpl.Letrec{Name: f, Param: p, ParamT: st, ResT: u, Fun: fun, Body: body}
}

// call draws f(<M, k>) for a loop f : S * real -> U, k a small whole number.
func (g *Generator) call(sc Scope, f function, depth int) dpl.Term {
	st := f.t.(*dpl.Prod)
	k := float64(rapid.IntRange(0, 3).Draw(g.t, "iterations"))
	return &dpl.Call{Name: f.name, Arg: &dpl.Pair{X: g.Term(sc, st.Fst, depth), Y: &dpl.RealLit{R: k}}}
}

// leaf draws a variable of type ty if one is in scope, else a closed value.
func (g *Generator) leaf(sc Scope, ty dpl.Type) dpl.Term {
	var vars []string
	for _, b := range sc.vars {
		if dpl.Equal(b.t, ty) {
			vars = append(vars, b.name)
		}
	}
	if len(vars) > 0 && rapid.IntRange(0, 2).Draw(g.t, "use-var") < 2 {
		return &dpl.Var{Name: rapid.SampledFrom(vars).Draw(g.t, "var")}
	}
	if p, ok := ty.(*dpl.Prod); ok && rapid.Bool().Draw(g.t, "pair-leaf") {
		return &dpl.Pair{X: g.leaf(sc, p.Fst), Y: g.leaf(sc, p.Snd)}
	}
	return Value(g.t, ty, "const")
}
