package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/abductiveval"
)

// The calculus of closures of the abductive calculus: its reduction semantics
// (package reduction) over closures e[ρ] instead of substitution,
//
//	ρ  ::= ε | (x ↦ v) : ρ          v ::= a[ε] | [a, ...][ε] | (\x:T. t)[ρ] | (abduct f, p. t)[ρ]
//	cl ::= e[ρ] | v | cl · cl | cl $ cl | let x = cl in e[ρ] | [cl, ...] | cl^L
//	E  ::= [] | E · cl | v · E | E $ cl | v $ E | let x = E in e[ρ] | [v, ..., E, cl, ...] | E^L
//
// (the value closures are abductiveval.Closure), with the same decomposeTerm,
// decomposeContext, contract, plug and iterate, and environment steps besides the
// contractions, which are administrative (they spend no fuel and are not contraction
// events):
//
//	lookup   x[ρ]                      ~> ρ(x)
//	expand   (e1 e2)[ρ]                ~> e1[ρ] · e2[ρ]
//	         (e1 $ e2)[ρ]              ~> e1[ρ] $ e2[ρ]
//	         (let x = e1 in e2)[ρ]     ~> let x = e1[ρ] in e2[ρ]
//	         [e1, ..., en][ρ]          ~> [e1[ρ], ..., en[ρ]]
//
//	beta     (\x:T. t)[ρ] · v          -> (t[(x ↦ v) : ρ])^L    L = fp((\x:T. t)[ρ]) ∪ fp(v)
//	         let x = v in t[ρ]         -> (t[(x ↦ v) : ρ])^L    L = fp((\x. t)[ρ]) ∪ fp(v)
//	delta    v1 $ v2                   -> δ($, v1, v2)[ε]
//	param    {r}[ρ]                    -> ℓn[ε]
//	abduct   (abduct f, p. t)[ρ] · m   -> (t[(p ↦ P) : (f ↦ F) : ρ])^L   F, P = Decouple(σ(m))
//	iterate  g $[k] v0                 -> g · e_k[ε] $' (g $[k+1] v0), or v0 with fp(g)
//
// where fp is a closure's footprint (abductiveval.Closure.Footprint: a function's
// counts the values its environment gives its free variables, as substitution would
// have put them in its body). A value climbing out of E^L gets L added, as in the
// reduction semantics. The answer is read back by σ (abductiveval.ReadBack).

// Abductive is the calculus of closures of the abductive calculus (abductive.StageOf).
func (Stage) Abductive() abductive.Stage { return abductiveCalculus{} }

// abductiveCalculus is the calculus of closures: decomposeTerm and decomposeContext
// (decompose), contract and envStep, plug, and iterate.
type abductiveCalculus struct{}

// abductiveClosure is a closure cl.
type abductiveClosure interface{ isAbductiveClosure() }

type (
	// abductiveClo is e[ρ], e not a value.
	abductiveClo struct {
		e   abductive.Expr
		env *abductiveval.Env
	}
	// abductiveValueCl is a value v.
	abductiveValueCl struct{ v *abductiveval.Closure }
	// abductiveAppCl is cl · cl.
	abductiveAppCl struct {
		p        abductive.Pos
		fun, arg abductiveClosure
		sugar    bool
	}
	// abductiveBinaryCl is cl $ cl (from: an iterator's index).
	abductiveBinaryCl struct {
		p    abductive.Pos
		op   abductive.Op
		from int
		x, y abductiveClosure
	}
	// abductiveLetCl is let x = cl in e[ρ] (let: the let node).
	abductiveLetCl struct {
		p     abductive.Pos
		name  string
		bound abductiveClosure
		body  abductive.Expr
		env   *abductiveval.Env
		let   *abductive.Let
	}
	// abductiveVecCl is [cl, ...].
	abductiveVecCl struct {
		p     abductive.Pos
		elems []abductiveClosure
		foot  abductive.Footprint
	}
	// abductiveMarkCl is cl^L.
	abductiveMarkCl struct {
		p    abductive.Pos
		foot abductive.Footprint
		body abductiveClosure
	}
)

func (*abductiveClo) isAbductiveClosure()      {}
func (*abductiveValueCl) isAbductiveClosure()  {}
func (*abductiveAppCl) isAbductiveClosure()    {}
func (*abductiveBinaryCl) isAbductiveClosure() {}
func (*abductiveLetCl) isAbductiveClosure()    {}
func (*abductiveVecCl) isAbductiveClosure()    {}
func (*abductiveMarkCl) isAbductiveClosure()   {}

// abductiveVal is the closure of a value.
func abductiveVal(v *abductiveval.Closure) abductiveClosure { return &abductiveValueCl{v: v} }

// The frames of the closure contexts E.
type (
	abductiveAppFun struct { // [] · cl
		p     abductive.Pos
		arg   abductiveClosure
		sugar bool
	}
	abductiveAppArg struct { // v · []
		p     abductive.Pos
		fun   *abductiveval.Closure
		sugar bool
	}
	abductiveBinaryLeft struct { // [] $ cl
		p     abductive.Pos
		op    abductive.Op
		from  int
		right abductiveClosure
	}
	abductiveBinaryRight struct { // v $ []
		p    abductive.Pos
		op   abductive.Op
		from int
		left *abductiveval.Closure
	}
	abductiveLetBound struct { // let x = [] in e[ρ]
		p    abductive.Pos
		name string
		body abductive.Expr
		env  *abductiveval.Env
		let  *abductive.Let
	}
	abductiveVecElem struct { // [v, ..., [], cl, ...]
		p    abductive.Pos
		done []*abductiveval.Closure
		rest []abductiveClosure
		foot abductive.Footprint
	}
	abductiveMarkFrame struct { // []^L
		p    abductive.Pos
		foot abductive.Footprint
	}
)

// abductiveFrame is a frame of a closure context.
type abductiveFrame interface {
	plug(cl abductiveClosure) abductiveClosure
}

func (f *abductiveAppFun) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveAppCl{p: f.p, fun: cl, arg: f.arg, sugar: f.sugar}
}
func (f *abductiveAppArg) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveAppCl{p: f.p, fun: abductiveVal(f.fun), arg: cl, sugar: f.sugar}
}
func (f *abductiveBinaryLeft) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveBinaryCl{p: f.p, op: f.op, from: f.from, x: cl, y: f.right}
}
func (f *abductiveBinaryRight) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveBinaryCl{p: f.p, op: f.op, from: f.from, x: abductiveVal(f.left), y: cl}
}
func (f *abductiveLetBound) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveLetCl{p: f.p, name: f.name, bound: cl, body: f.body, env: f.env, let: f.let}
}
func (f *abductiveVecElem) plug(cl abductiveClosure) abductiveClosure {
	elems := make([]abductiveClosure, 0, len(f.done)+1+len(f.rest))
	for _, v := range f.done {
		elems = append(elems, abductiveVal(v))
	}
	elems = append(append(elems, cl), f.rest...)
	return &abductiveVecCl{p: f.p, elems: elems, foot: f.foot}
}
func (f *abductiveMarkFrame) plug(cl abductiveClosure) abductiveClosure {
	return &abductiveMarkCl{p: f.p, foot: f.foot, body: cl}
}

// abductiveContext is a closure context, outermost frame first.
type abductiveContext []abductiveFrame

// abductiveRedex is what a decomposition finds in the context's hole: a redex of a
// contraction (rule) or of an environment step (env).
type abductiveRedex struct {
	rule string // the contraction's rule, or "" for an environment step
	env  string // the environment step, "lookup" or "expand"
	cl   abductiveClosure
}

// abductiveDecomposition is a closure decomposed: a context and a redex, or (redex.cl
// nil) a value.
type abductiveDecomposition struct {
	context abductiveContext
	redex   abductiveRedex
	value   *abductiveval.Closure
}

// decompose splits a closure into a context and a redex, or finds it is a value: the
// reduction semantics' decompose, over closures.
func (c abductiveCalculus) decompose(cl abductiveClosure) (abductiveDecomposition, error) {
	var E abductiveContext
	for {
		v, d, err := c.decomposeTerm(&E, cl)
		if v == nil {
			return d, err
		}
		if cl, d, err = c.decomposeContext(&E, v); cl == nil {
			return d, err
		}
	}
}

// decomposeTerm descends into cl, pushing frames onto E, and returns the value it
// meets (or, for a redex found on the way down, the decomposition).
func (abductiveCalculus) decomposeTerm(E *abductiveContext, cl abductiveClosure) (*abductiveval.Closure, abductiveDecomposition, error) {
	found := func(rule, env string) (*abductiveval.Closure, abductiveDecomposition, error) {
		return nil, abductiveDecomposition{context: *E, redex: abductiveRedex{rule: rule, env: env, cl: cl}}, nil
	}
	for {
		switch c := cl.(type) {
		case *abductiveValueCl:
			return c.v, abductiveDecomposition{}, nil
		case *abductiveClo:
			if abductive.IsValue(c.e) {
				return &abductiveval.Closure{E: c.e, Env: c.env}, abductiveDecomposition{}, nil
			}
			switch c.e.(type) {
			case *abductive.Var:
				return found("", "lookup")
			case *abductive.Param:
				return found(abductive.RuleParam, "")
			case *abductive.App, *abductive.Binary, *abductive.Let, *abductive.Vec, *abductive.Mark:
				return found("", "expand")
			}
			return nil, abductiveDecomposition{}, interderive.Stuck(abductive.FormatShort(c.e, interderive.MaxStuckShown), "no rule applies")
		case *abductiveAppCl:
			*E, cl = append(*E, &abductiveAppFun{p: c.p, arg: c.arg, sugar: c.sugar}), c.fun
		case *abductiveBinaryCl:
			*E, cl = append(*E, &abductiveBinaryLeft{p: c.p, op: c.op, from: c.from, right: c.y}), c.x
		case *abductiveLetCl:
			*E, cl = append(*E, &abductiveLetBound{p: c.p, name: c.name, body: c.body, env: c.env, let: c.let}), c.bound
		case *abductiveVecCl:
			if len(c.elems) == 0 {
				return abductiveval.Closed(&abductive.Vec{P: c.p, Foot: c.foot}), abductiveDecomposition{}, nil
			}
			*E, cl = append(*E, &abductiveVecElem{p: c.p, rest: c.elems[1:], foot: c.foot}), c.elems[0]
		case *abductiveMarkCl:
			*E, cl = append(*E, &abductiveMarkFrame{p: c.p, foot: c.foot}), c.body
		default:
			return nil, abductiveDecomposition{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// decomposeContext climbs out of E with the value v until it finds a redex or the
// empty context (an answer), or a closure still to evaluate, which it returns with
// the frame that waits for it pushed onto E. Climbing out of a mark adds its
// footprint to the value, and out of a vector's last component makes the vector.
func (abductiveCalculus) decomposeContext(E *abductiveContext, v *abductiveval.Closure) (abductiveClosure, abductiveDecomposition, error) {
	for {
		if len(*E) == 0 {
			return nil, abductiveDecomposition{value: v}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		found := func(rule string) (abductiveClosure, abductiveDecomposition, error) {
			return nil, abductiveDecomposition{context: *E, redex: abductiveRedex{rule: rule, cl: frame.plug(abductiveVal(v))}}, nil
		}
		switch f := frame.(type) {
		case *abductiveMarkFrame:
			v = v.WithFoot(f.foot)
			continue
		case *abductiveVecElem:
			done := append(f.done[:len(f.done):len(f.done)], v)
			if len(f.rest) > 0 {
				*E = append(*E, &abductiveVecElem{p: f.p, done: done, rest: f.rest[1:], foot: f.foot})
				return f.rest[0], abductiveDecomposition{}, nil
			}
			elems := make([]abductive.Expr, len(done))
			foot := f.foot
			for i, w := range done {
				elems[i] = w.E
				foot = abductive.Union(foot, w.Footprint())
			}
			v = abductiveval.Closed(&abductive.Vec{P: f.p, Elems: elems, Foot: foot})
			continue
		case *abductiveAppFun:
			*E = append(*E, &abductiveAppArg{p: f.p, fun: v, sugar: f.sugar})
			return f.arg, abductiveDecomposition{}, nil
		case *abductiveAppArg:
			if _, ok := f.fun.E.(*abductive.Abduct); ok {
				return found(abductive.RuleAbduct)
			}
			return found(abductive.RuleBeta)
		case *abductiveBinaryLeft:
			*E = append(*E, &abductiveBinaryRight{p: f.p, op: f.op, from: f.from, left: v})
			return f.right, abductiveDecomposition{}, nil
		case *abductiveBinaryRight:
			if f.op.IsIterator() {
				return found(abductive.RuleIterate)
			}
			return found(abductive.RuleDelta)
		case *abductiveLetBound:
			return found(abductive.RuleBeta)
		}
		return nil, abductiveDecomposition{}, interderive.Stuck("", "unknown frame %T", frame)
	}
}

// abductiveMarked is cl^L, or cl when L is empty.
func abductiveMarked(p abductive.Pos, foot abductive.Footprint, cl abductiveClosure) abductiveClosure {
	if len(foot) == 0 {
		return cl
	}
	return &abductiveMarkCl{p: p, foot: foot, body: cl}
}

// abductiveValueOf is the value closure cl is, if it is one.
func abductiveValueOf(cl abductiveClosure) (*abductiveval.Closure, bool) {
	v, ok := cl.(*abductiveValueCl)
	if !ok {
		return nil, false
	}
	return v.v, true
}

// contract is the contraction of a redex by its rule, under the store sigma; for a
// decoupling, also its report.
func (abductiveCalculus) contract(r abductiveRedex, sigma abductive.Store) (abductiveClosure, *abductive.Decoupling, error) {
	stuck := func(reason string) (abductiveClosure, *abductive.Decoupling, error) {
		return nil, nil, interderive.Stuck("", "%s", reason)
	}
	switch cl := r.cl.(type) {
	case *abductiveAppCl:
		f, ok1 := abductiveValueOf(cl.fun)
		v, ok2 := abductiveValueOf(cl.arg)
		if !ok1 || !ok2 {
			return stuck("application of a non-value")
		}
		foot := abductive.Union(f.Footprint(), v.Footprint())
		switch fun := f.E.(type) {
		case *abductive.Lam: // beta: (\x:T. t)[ρ] · v -> (t[(x ↦ v) : ρ])^L
			return abductiveMarked(cl.p, foot, &abductiveClo{e: fun.Body, env: f.Env.Bind(fun.Param, v)}), nil, nil
		case *abductive.Abduct: // abduct: (abduct f, p. t)[ρ] · m -> (t[(p ↦ P) : (f ↦ F) : ρ])^L
			model, params, d := abductiveval.Decouple(cl.p, sigma, v)
			env := f.Env.Bind(fun.F, model).Bind(fun.Par, params)
			return abductiveMarked(cl.p, foot, &abductiveClo{e: fun.Body, env: env}), &d, nil
		}
		return stuck("application of a non-function")
	case *abductiveBinaryCl:
		x, ok1 := abductiveValueOf(cl.x)
		y, ok2 := abductiveValueOf(cl.y)
		if !ok1 || !ok2 {
			return stuck("operation on a non-value")
		}
		if !cl.op.IsIterator() { // delta: v1 $ v2 -> δ($, v1, v2)[ε]
			if w, ok := abductiveval.Delta(cl.p, cl.op, x, y); ok {
				return abductiveVal(w), nil, nil
			}
			return stuck("no δ for " + cl.op.String() + " on these operands")
		}
		// iterate: g $[k] v0 -> g · e_k $' (g $[k+1] v0), or v0 with fp(g) when k = n
		n, ok := abductiveval.Dimension(y)
		if !ok {
			return stuck("the iterator's operand is not a vector")
		}
		if cl.from >= n {
			return abductiveVal(y.WithFoot(x.Footprint())), nil, nil
		}
		return &abductiveBinaryCl{p: cl.p, op: abductiveval.Combine(cl.op),
			x: &abductiveAppCl{p: cl.p, fun: abductiveVal(x), arg: abductiveVal(abductiveval.Basis(cl.p, cl.from, n))},
			y: &abductiveBinaryCl{p: cl.p, op: cl.op, from: cl.from + 1, x: abductiveVal(x), y: abductiveVal(y)}}, nil, nil
	case *abductiveLetCl: // beta: let x = v in t[ρ] -> (t[(x ↦ v) : ρ])^L
		v, ok := abductiveValueOf(cl.bound)
		if !ok {
			return stuck("let of a non-value")
		}
		foot := abductive.Union(abductiveval.LetFootprint(cl.let, cl.env), v.Footprint())
		return abductiveMarked(cl.p, foot, &abductiveClo{e: cl.body, env: cl.env.Bind(cl.name, v)}), nil, nil
	case *abductiveClo: // param: {r}[ρ] -> ℓn[ε]
		if p, ok := cl.e.(*abductive.Param); ok {
			return abductiveVal(abductiveval.Closed(&abductive.Label{P: p.P, N: p.Label, Foot: abductive.Single(p.Label)})), nil, nil
		}
	}
	return nil, nil, interderive.Stuck("", "no %s redex: %T", r.rule, r.cl)
}

// envStep is an environment step: a lookup or an expansion.
func (abductiveCalculus) envStep(r abductiveRedex) (abductiveClosure, error) {
	c, ok := r.cl.(*abductiveClo)
	if !ok {
		return nil, interderive.Stuck("", "no environment step on %T", r.cl)
	}
	rho := c.env
	at := func(e abductive.Expr) abductiveClosure { return &abductiveClo{e: e, env: rho} }
	switch e := c.e.(type) {
	case *abductive.Var:
		if v, ok := rho.Lookup(e.Name); ok {
			return abductiveVal(v), nil
		}
		return nil, interderive.Stuck("", "unbound variable %s", e.Name)
	case *abductive.App:
		return &abductiveAppCl{p: e.P, fun: at(e.Fun), arg: at(e.Arg), sugar: e.Sugar}, nil
	case *abductive.Binary:
		return &abductiveBinaryCl{p: e.P, op: e.Op, from: e.From, x: at(e.X), y: at(e.Y)}, nil
	case *abductive.Let:
		return &abductiveLetCl{p: e.P, name: e.Name, bound: at(e.Bound), body: e.Body, env: rho, let: e}, nil
	case *abductive.Vec:
		elems := make([]abductiveClosure, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = at(x)
		}
		return &abductiveVecCl{p: e.P, elems: elems, foot: e.Foot}, nil
	case *abductive.Mark:
		return &abductiveMarkCl{p: e.P, foot: e.Foot, body: at(e.Body)}, nil
	}
	return nil, interderive.Stuck("", "no environment step on %T", c.e)
}

// plug is E[c]: the contractum put back into the context.
func (abductiveCalculus) plug(E abductiveContext, cl abductiveClosure) abductiveClosure {
	for i := len(E) - 1; i >= 0; i-- {
		cl = E[i].plug(cl)
	}
	return cl
}

// Eval runs a closed, well-typed term as the closure e[ε] and reads the answer back.
func (c abductiveCalculus) Eval(e abductive.Expr, opts interderive.Options) (abductive.Answer, error) {
	return c.iterate(e, abductive.Sigma(e), opts)
}

// iterate is evaluation: decompose the whole closure into a context and a redex, take
// the step (a contraction, or an environment step), plug the result back into the
// context, and again from the root, until the closure is a value. Each contraction
// spends one unit of fuel and goes to opts.OnContract; an observer (opts.Observer) sees
// each step before it is taken, and each decoupling's report.
func (c abductiveCalculus) iterate(e abductive.Expr, sigma abductive.Store, opts interderive.Options) (abductive.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newAbductiveShow(opts, fuel)
	var env envSteps
	var cl abductiveClosure = &abductiveClo{e: e}
	for {
		d, err := c.decompose(cl)
		if err != nil {
			return abductive.Answer{}, err
		}
		if d.redex.cl == nil {
			return abductive.Answer{Value: abductiveval.ReadBack(d.value), Sigma: sigma}, nil
		}
		var next abductiveClosure
		if d.redex.rule == "" {
			if next, err = c.envStep(d.redex); err != nil {
				return abductive.Answer{}, err
			}
			if err := show.step(d, next); err != nil {
				return abductive.Answer{}, err
			}
			if err := env.step(fuel); err != nil {
				return abductive.Answer{}, err
			}
		} else {
			var dec *abductive.Decoupling
			if next, dec, err = c.contract(d.redex, sigma); err != nil {
				return abductive.Answer{}, err
			}
			if err := show.step(d, next); err != nil {
				return abductive.Answer{}, err
			}
			if err := fuel.Contract(d.redex.rule); err != nil {
				return abductive.Answer{}, err
			}
			show.report(fuel.Steps(), dec)
		}
		cl = c.plug(d.context, next)
	}
}

// abductiveHole is the closure of the hole, for printing a context.
var abductiveHole = &abductiveClo{e: &abductive.Var{Name: contexts.Hole}}
