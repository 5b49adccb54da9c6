package dpl

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
)

// Differentiator is a strategy for symbolic reverse-mode differentiation of trace
// terms, W.R_V(x:T. C) (Figure 6, spec §4): a trace term denoting the reverse-mode
// derivative of x:T ↦ C at V, applied to W. It is a meta-level function that every
// stage shares, chosen by name like a cast semantics (--ad NAME). Every strategy gives
// the same values (up to the association of sums) and the same definedness.
type Differentiator interface {
	// Name is the strategy's name: "pruned", "figure6", "tape".
	Name() string
	// R returns W.R_V(x:T. C) for a trace term C with x:T ⊢ C : U, V : T and W : U
	// (Proposition 3.3: the result has type T). V, W and C may have free variables
	// besides x; env.Types types them. R renames as Figure 6 assumes: the binder x away
	// from FV(V, W), and every let binder of C to a fresh name, so the caller need not.
	// It refuses (an *interderive.DepthError) a result that nests deeper than MaxDepth
	// (Depth), so the caller need not walk it to check.
	R(env DiffEnv, w, v Term, x string, t Type, c Term) (Term, error)
}

// DiffEnv is what a Differentiator needs besides its arguments.
type DiffEnv struct {
	// Types types the free variables of W, V and C other than x (nil: none).
	Types TypeEnv
	// Names supplies the fresh names; it must be fresh for W, V and C.
	Names *Names
	// Budget bounds the number of redexes (+, op, let, fst, snd) of the derivative
	// term: evaluating a trace term contracts each of its redexes once, so a derivative
	// with more redexes than the fuel left cannot be evaluated to a value. R stops with a
	// *BudgetError as soon as the term it builds holds more. Budget ≤ 0 means no
	// fuel bound; Figure 6's strategies also stop at MaxRedexes, tape at none.
	Budget int
}

// MaxRedexes bounds the size of a derivative term of Figure 6's strategies (figure6,
// pruned) whatever the fuel: Figure 6 read literally is exponential in the length of
// the trace, so that the term could exhaust memory long before its evaluation would
// exhaust the fuel. Tape's terms are linear in the trace, and the fuel bounds them.
const MaxRedexes = 1 << 20

// ErrOverBudget is returned (wrapped in a *BudgetError) by a Differentiator whose
// derivative term would hold more redexes than its budget.
var ErrOverBudget = errors.New("derivative term over budget")

// BudgetError reports that a strategy gave up for size: its derivative term would hold
// more than Limit redexes. It is a resource limit (errors.Is(err,
// interderive.ErrResourceLimit)), not a meaning: the message names the strategy that
// would run the program.
type BudgetError struct {
	Strategy string // the strategy that gave up
	Limit    int
}

func (e *BudgetError) Error() string {
	msg := fmt.Sprintf("differentiation gave up for size: more than %d redexes in the derivative term", e.Limit)
	if e.Strategy != "" && e.Strategy != Tape.Name() {
		msg = fmt.Sprintf("%s under --ad %s; --ad %s differentiates in time linear in the trace", msg, e.Strategy, Tape.Name())
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrOverBudget) hold.
func (e *BudgetError) Unwrap() error { return ErrOverBudget }

// Is makes errors.Is(err, interderive.ErrResourceLimit) hold.
func (e *BudgetError) Is(target error) bool { return target == interderive.ErrResourceLimit }

// Derive is W.R_V(x:T. C) by d for a run that has made steps contractions and has
// env.Budget of fuel left. Evaluating a trace term contracts each of its redexes once,
// so a derivative with more redexes than the fuel left cannot reach a value: the run
// is out of fuel (an *interderive.FuelError), on every stage alike, as soon as R
// knows it.
func Derive(d Differentiator, env DiffEnv, steps int, w, v Term, x string, t Type, c Term) (Term, error) {
	der, err := d.R(env, w, v, x, t, c)
	var be *BudgetError
	if errors.As(err, &be) && be.Limit == env.Budget {
		return nil, &interderive.FuelError{Steps: steps}
	}
	return der, err
}

// The two strategies of spec §4.
var (
	// Figure6 is Figure 6 read literally, clause by clause: the reference. Its
	// derivative terms grow as 2^k for a chain of k lets, so it is for small traces.
	Figure6 Differentiator = figure6{pruned: false}
	// Pruned is Figure 6 except that a trace term C (other than a variable or a
	// constant, which Figure 6 already maps to 0_T) in which the variable of
	// differentiation does not occur differentiates as let z:U = C in 0_T (z fresh):
	// C is still evaluated, so the result is defined exactly where Figure 6's is, but
	// the work of differentiating a constant is skipped. Loops and let-chains become
	// polynomial.
	Pruned Differentiator = figure6{pruned: true}
)

// Differentiators lists the strategies, the default (tape, spec §4) first.
func Differentiators() []Differentiator { return []Differentiator{Tape, Pruned, Figure6} }

// Figure6Strategies are the strategies that build Figure 6's derivative terms (pruned
// adds one clause): tests that compare derivative terms clause by clause, or the
// contractions that evaluate them, use these; tape builds other terms with the same
// values.
func Figure6Strategies() []Differentiator { return []Differentiator{Pruned, Figure6} }

// LookupDifferentiator finds a strategy by name.
func LookupDifferentiator(name string) (Differentiator, bool) {
	for _, d := range Differentiators() {
		if d.Name() == name {
			return d, true
		}
	}
	return nil, false
}

// figure6 implements both strategies: pruned adds one clause in front of Figure 6's.
type figure6 struct{ pruned bool }

func (d figure6) Name() string {
	if d.pruned {
		return "pruned"
	}
	return "figure6"
}

// abort carries an error out of the recursion of R.
type abort struct{ err error }

// recoverAbort, deferred by R, turns an abort into R's error (other panics go on).
func recoverAbort(res *Term, err *error) {
	if p := recover(); p != nil {
		a, ok := p.(abort)
		if !ok {
			panic(p)
		}
		*res, *err = nil, a.err
	}
}

// setup returns the fresh-name supply (env.Names, or one fresh for W, V and C) and the
// redex budget of a derivative term: the fuel left (env.Budget), or the strategy's own
// bound most if that is smaller.
func (env DiffEnv) setup(w, v, c Term, most int) (*Names, int) {
	names := env.Names
	if names == nil {
		names = NewNames(w, v, c)
	}
	limit := env.Budget
	if limit <= 0 || limit > most {
		limit = most
	}
	return names, limit
}

// R refuses (an *interderive.DepthError) a trace term that nests deeper than MaxDepth
// counting a let's body as nested (NestingDepth): Figure 6's let clause recurses into
// the body, and renames and substitutes into it at every let, so a long let-chain
// would cost time quadratic in its length and Go stack linear in it. Tape takes
// let-chains of any length.
func (d figure6) R(env DiffEnv, w, v Term, x string, t Type, c Term) (res Term, err error) {
	if NestingDepth(c) > MaxDepth {
		return nil, &interderive.DepthError{What: "the trace term under --ad " + d.Name(), Limit: MaxDepth,
			Hint: "--ad " + Tape.Name() + " takes let-chains of any length"}
	}
	names, limit := env.setup(w, v, c, MaxRedexes)
	r := &differ{strategy: d.Name(), pruned: d.pruned, names: names, outer: env.Types, limit: limit}
	defer recoverAbort(&res, &err)
	// Figure 6 assumes x ∉ FV(V, W) and all binders different: rename.
	c = RenameBinders(c, names)
	if OccursFree(x, w) || OccursFree(x, v) {
		x1 := names.Fresh(x)
		c = Subst(c, x, &Var{Name: x1})
		x = x1
	}
	res = r.r(w, v, x, t, c, &tyEnv{name: x, t: t}).t
	if err := CheckDepth("derivative term", res); err != nil {
		return nil, err
	}
	return res, nil
}

// tyEnv types the variables bound around the trace term being differentiated (the
// differentiation variable included), for the pruned clause.
type tyEnv struct {
	name string
	t    Type
	next *tyEnv
}

func (g *tyEnv) bind(x string, t Type) *tyEnv { return &tyEnv{name: x, t: t, next: g} }

type differ struct {
	strategy string
	pruned   bool
	names    *Names
	outer    TypeEnv
	limit    int
	depth    int
}

func (d *differ) fail(err error) { panic(abort{err}) }

// A built term comes with the number of its redex occurrences (+, op, let, fst, snd):
// derivative terms share subterms, and evaluation contracts each occurrence once.
type built struct {
	t Term
	n int
}

// counted returns the built term t whose redexes, besides the parts already counted,
// number n; it stops R when the budget is exceeded.
func (d *differ) counted(t Term, n int) built {
	if n > d.limit {
		d.fail(&BudgetError{Strategy: d.strategy, Limit: d.limit})
	}
	return built{t, n}
}

// redexes counts the redex occurrences of a trace term met in C.
func redexes(t Term) int {
	n := 0
	for stack := []Term{t}; len(stack) > 0; {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t.(type) {
		case *Plus, *OpApp, *Let, *Fst, *Snd:
			n++
		}
		stack = AppendChildren(stack, t)
	}
	return n
}

func (d *differ) fresh(base string) string { return d.names.Fresh(base) }

// let builds let x:T = M in N.
func (d *differ) let(x string, t Type, m, n built) built {
	return d.counted(&Let{Name: x, T: t, Bound: m.t, Body: n.t}, 1+m.n+n.n)
}

// plusT builds M +_T N: one + at real; at unit 2 lets; at T*U 6 lets, 2 fst and 2 snd
// around the components' sums.
func (d *differ) plusT(t Type, m, n built) built {
	return d.counted(PlusT(d.names, t, m.t, n.t), m.n+n.n+plusRedexes(t))
}

func plusRedexes(t Type) int {
	switch t := t.(type) {
	case *Prod:
		return 10 + plusRedexes(t.Fst) + plusRedexes(t.Snd)
	case Base:
		if t == Unit {
			return 2
		}
	}
	return 1
}

// value is a value (W, V, 0_T, ...): no redexes.
func value(t Term) built { return built{t, 0} }

// trace is a subterm of the trace being differentiated.
func trace(t Term) built { return built{t, redexes(t)} }

// r is W.R_V(x:T. C); g types the variables that may be free in C. W and V are values.
func (d *differ) r(w, v Term, x string, t Type, c Term, g *tyEnv) built {
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > 2*MaxDepth {
		d.fail(&interderive.DepthError{What: "symbolic differentiation", Limit: 2 * MaxDepth})
	}
	if d.pruned && !OccursFree(x, c) {
		switch c.(type) {
		case *Var, *RealLit, *UnitLit: // Figure 6: 0_T
		default:
			// W.R_V(x:T. C) = let z:U = C in 0_T, when x ∉ FV(C)
			return d.let(d.fresh("z"), d.typeOf(g, c), trace(c), value(Zero(t)))
		}
	}
	switch c := c.(type) {
	case *Var:
		// W.R_V(x:T. y) = W if y = x, else 0_T
		if c.Name == x {
			return value(w)
		}
		return value(Zero(t))
	case *RealLit, *UnitLit:
		// W.R_V(x:T. r) = 0_T;  W.R_V(x:T. ()) = 0_T
		return value(Zero(t))
	case *Plus:
		// W.R_V(x:T. D + E) = W.R_V(x:T. D) +_T W.R_V(x:T. E)
		return d.plusT(t, d.r(w, v, x, t, c.X, g), d.r(w, v, x, t, c.Y, g))
	case *OpApp:
		// W.R_V(x:T. op(D)) = let x:T = V in let y:S = op_r(<D, W>) in y.R_V(x:T. D)
		// (op : S -> U, y fresh)
		op := c.Op
		if op.Order() >= MaxOrder {
			d.fail(fmt.Errorf("rd nests too deeply around %s: operators are differentiated at most %d times", op.Name, MaxOrder))
		}
		y := d.fresh("y")
		dd := trace(c.Arg)
		opr := d.counted(&OpApp{P: c.P, Op: op.R(), Arg: &Pair{P: c.P, X: c.Arg, Y: w, T: op.Dom, U: op.Cod}}, 1+dd.n)
		return d.let(x, t, value(v), d.let(y, op.Dom, opr, d.r(&Var{Name: y}, v, x, t, c.Arg, g)))
	case *Let:
		// W.R_V(x:T. let y:S = D in E) =
		//   let x:T = V in let y:S = D in
		//     W.R_V(x:T. E) +_T (let ȳ:S = W.R_y(y':S. E[y'/y]) in ȳ.R_V(x:T. D))
		y, s, e := c.Name, c.T, c.Body
		y1, ybar := d.fresh(y), d.fresh(y)
		left := d.r(w, v, x, t, e, g.bind(y, s))
		inner := d.r(w, &Var{Name: y}, y1, s, Subst(e, y, &Var{Name: y1}), g.bind(y1, s))
		right := d.let(ybar, s, inner, d.r(&Var{Name: ybar}, v, x, t, c.Bound, g))
		return d.let(x, t, value(v), d.let(y, s, trace(c.Bound), d.plusT(t, left, right)))
	case *Pair:
		// W.R_V(x:T. <D, E>_{U,S}) = let <y:U, z:S> = W in y.R_V(x:T. D) +_T z.R_V(x:T. E)
		u, s := c.T, c.U
		if u == nil || s == nil {
			u, s = d.typeOf(g, c.X), d.typeOf(g, c.Y)
		}
		y, z := d.fresh("y"), d.fresh("z")
		sum := d.plusT(t, d.r(&Var{Name: y}, v, x, t, c.X, g), d.r(&Var{Name: z}, v, x, t, c.Y, g))
		// let <y:U, z:S> = W in ... is 3 lets, a fst and a snd.
		return d.counted(LetTuple(Pos{}, d.names, []string{y, z}, []Type{u, s}, w, sum.t), sum.n+5)
	case *Fst, *Snd:
		// W.R_V(x:T. fst_{U,S}(D)) = let x:T = V in let y:U*S = D in <W, 0_S>.R_V(x:T. D)
		// W.R_V(x:T. snd_{U,S}(D)) = let x:T = V in let y:U*S = D in <0_U, W>.R_V(x:T. D)
		dd, u, s := projParts(c)
		if u == nil || s == nil {
			p, ok := d.typeOf(g, dd).(*Prod)
			if !ok {
				d.fail(fmt.Errorf("%s is not a pair in %s", Format(dd), Format(c)))
			}
			u, s = p.Fst, p.Snd
		}
		cot := &Pair{X: w, Y: Zero(s), T: u, U: s}
		if _, snd := c.(*Snd); snd {
			cot = &Pair{X: Zero(u), Y: w, T: u, U: s}
		}
		y := d.fresh("y")
		return d.let(x, t, value(v), d.let(y, Times(u, s), trace(dd), d.r(cot, v, x, t, dd, g)))
	}
	d.fail(fmt.Errorf("%s is not a trace term", describe(c)))
	return built{}
}

func projParts(t Term) (Term, Type, Type) {
	if f, ok := t.(*Fst); ok {
		return f.X, f.T, f.U
	}
	s := t.(*Snd)
	return s.X, s.T, s.U
}

// typeOf synthesises the type of the trace term c, whose free variables g or the
// outer environment type. Lets, pairs and projections carry their types, so it only
// walks let bodies (in a loop) and looks up variables.
func (d *differ) typeOf(g *tyEnv, c Term) Type {
	for {
		switch t := c.(type) {
		case *Var:
			for e := g; e != nil; e = e.next {
				if e.name == t.Name {
					return e.t
				}
			}
			if d.outer != nil {
				if ty, ok := d.outer(t.Name); ok {
					return ty
				}
			}
			d.fail(fmt.Errorf("the type of %s is unknown", t.Name))
		case *RealLit, *Plus:
			return Real
		case *UnitLit:
			return Unit
		case *OpApp:
			return t.Op.Cod
		case *Pair:
			if t.T != nil && t.U != nil {
				return Times(t.T, t.U)
			}
			return Times(d.typeOf(g, t.X), d.typeOf(g, t.Y))
		case *Fst:
			if t.T != nil {
				return t.T
			}
			return d.prod(g, t.X).Fst
		case *Snd:
			if t.U != nil {
				return t.U
			}
			return d.prod(g, t.X).Snd
		case *Let:
			ty := t.T
			if ty == nil {
				ty = d.typeOf(g, t.Bound)
			}
			g, c = g.bind(t.Name, ty), t.Body
			continue
		}
		d.fail(fmt.Errorf("%s is not a trace term", describe(c)))
	}
}

// prod is the type of c, which must be a product.
func (d *differ) prod(g *tyEnv, c Term) *Prod {
	p, ok := d.typeOf(g, c).(*Prod)
	if !ok {
		d.fail(fmt.Errorf("%s is not a pair", describe(c)))
	}
	return p
}
