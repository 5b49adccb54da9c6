package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/contexts"
)

// The reduction semantics of the abductive calculus (abductive/doc.go): decompose the
// term into a context E (contexts.Abductive) and a redex, contract the redex, plug the
// contractum back into E, and again from the root (iterate).

// Abductive is the reduction semantics of the abductive calculus (abductive.StageOf);
// it also takes one step at a time (abductive.Stepper), for the calculus's
// metatheory.
func (Stage) Abductive() abductive.Stage { return abductiveSemantics{} }

// abductiveSemantics is the reduction semantics: its functions are decomposeTerm and
// decomposeContext (decompose), contract, plug and iterate.
type abductiveSemantics struct{}

// abductiveRedex is a redex: the rule that contracts it, and the redex as a term.
type abductiveRedex interface {
	rule() string
	term() abductive.Expr
}

// The redexes, one per rule (beta has two forms).
type (
	// abductiveBeta is (\x:T. t) v.
	abductiveBeta struct {
		p     abductive.Pos
		fun   *abductive.Lam
		arg   abductive.Expr
		sugar bool
	}
	// abductiveLet is let x = v in t.
	abductiveLet struct{ let *abductive.Let }
	// abductiveDelta is v1 $ v2, $ not an iterator.
	abductiveDelta struct {
		p    abductive.Pos
		op   abductive.Op
		x, y abductive.Expr
	}
	// abductiveParam is {r}.
	abductiveParam struct{ param *abductive.Param }
	// abductiveAbduct is (abduct f, p. t) m.
	abductiveAbduct struct {
		p     abductive.Pos
		fun   *abductive.Abduct
		model abductive.Expr
		sugar bool
	}
	// abductiveIterate is g +L[k] v0 or g *L[k] v0.
	abductiveIterate struct {
		p     abductive.Pos
		op    abductive.Op
		from  int
		g, v0 abductive.Expr
	}
)

func (*abductiveBeta) rule() string    { return abductive.RuleBeta }
func (*abductiveLet) rule() string     { return abductive.RuleBeta }
func (*abductiveDelta) rule() string   { return abductive.RuleDelta }
func (*abductiveParam) rule() string   { return abductive.RuleParam }
func (*abductiveAbduct) rule() string  { return abductive.RuleAbduct }
func (*abductiveIterate) rule() string { return abductive.RuleIterate }

func (r *abductiveBeta) term() abductive.Expr {
	return &abductive.App{P: r.p, Fun: r.fun, Arg: r.arg, Sugar: r.sugar}
}
func (r *abductiveLet) term() abductive.Expr { return r.let }
func (r *abductiveDelta) term() abductive.Expr {
	return &abductive.Binary{P: r.p, Op: r.op, X: r.x, Y: r.y}
}
func (r *abductiveParam) term() abductive.Expr { return r.param }
func (r *abductiveAbduct) term() abductive.Expr {
	return &abductive.App{P: r.p, Fun: r.fun, Arg: r.model, Sugar: r.sugar}
}
func (r *abductiveIterate) term() abductive.Expr {
	return &abductive.Binary{P: r.p, Op: r.op, X: r.g, Y: r.v0, From: r.from}
}

// abductiveDecomposition is a term decomposed: a context and the redex in its hole, or
// (redex nil) an answer.
type abductiveDecomposition struct {
	context contexts.Abductive
	redex   abductiveRedex
	answer  abductive.Expr
}

// decompose splits a term into a context and a redex, or finds it is an answer: Danvy's
// pair of mutually tail-recursive functions, as one loop. decomposeTerm descends from
// the root until it meets a value, decomposeContext climbs back through the context
// with that value until it finds a redex, or a subterm still to evaluate.
func (s abductiveSemantics) decompose(e abductive.Expr) (abductiveDecomposition, error) {
	var E contexts.Abductive
	for {
		v, d, err := s.decomposeTerm(&E, e)
		if v == nil {
			return d, err
		}
		if e, d, err = s.decomposeContext(&E, v); e == nil {
			return d, err
		}
	}
}

// abductiveStuck is the error of a term with no rule.
func abductiveStuck(e abductive.Expr, reason string) error {
	return interderive.Stuck(abductive.FormatShort(e, interderive.MaxStuckShown), "%s", reason)
}

// decomposeTerm descends into e, pushing frames onto E, and returns the value it meets
// (or, for a redex found on the way down, the decomposition).
func (abductiveSemantics) decomposeTerm(E *contexts.Abductive, e abductive.Expr) (abductive.Expr, abductiveDecomposition, error) {
	for {
		switch t := e.(type) {
		case *abductive.Num, *abductive.Label, *abductive.Resid, *abductive.Lam, *abductive.Abduct:
			return t, abductiveDecomposition{}, nil
		case *abductive.Param:
			return nil, abductiveDecomposition{context: *E, redex: &abductiveParam{param: t}}, nil
		case *abductive.Vec:
			i := abductiveNextElem(t.Elems, 0)
			if i == len(t.Elems) {
				return abductiveVecValue(t.P, t.Elems, t.Foot), abductiveDecomposition{}, nil
			}
			*E, e = append(*E, &contexts.AbductiveVecElem{P: t.P, Done: t.Elems[:i], Rest: t.Elems[i+1:], Foot: t.Foot}), t.Elems[i]
		case *abductive.App:
			*E, e = append(*E, &contexts.AbductiveAppFun{P: t.P, Arg: t.Arg, Sugar: t.Sugar}), t.Fun
		case *abductive.Binary:
			*E, e = append(*E, &contexts.AbductiveBinaryLeft{P: t.P, Op: t.Op, From: t.From, Right: t.Y}), t.X
		case *abductive.Let:
			*E, e = append(*E, &contexts.AbductiveLetBound{P: t.P, Name: t.Name, Body: t.Body}), t.Bound
		case *abductive.Mark:
			*E, e = append(*E, &contexts.AbductiveMark{P: t.P, Foot: t.Foot}), t.Body
		default: // a free variable: the term is not closed
			return nil, abductiveDecomposition{}, abductiveStuck(e, "no rule applies")
		}
	}
}

// abductiveNextElem is the index of the first component from i on that is not a
// value yet (len(elems) if none).
func abductiveNextElem(elems []abductive.Expr, i int) int {
	for i < len(elems) && abductive.IsGround(elems[i]) {
		i++
	}
	return i
}

// abductiveVecValue is the vector of the values elems: its footprint is foot and its
// components' (a vector is built as an operation is).
func abductiveVecValue(p abductive.Pos, elems []abductive.Expr, foot abductive.Footprint) *abductive.Vec {
	for _, x := range elems {
		foot = abductive.Union(foot, abductive.FootprintOf(x))
	}
	return &abductive.Vec{P: p, Elems: elems, Foot: foot}
}

// decomposeContext climbs out of E with the value v until it finds a redex or the
// empty context (an answer), or a subterm still to evaluate, which it returns with the
// frame that waits for it pushed onto E. Climbing out of a mark adds its footprint
// to the value, and out of the last component of a vector makes the vector the
// value: neither is a contraction.
func (abductiveSemantics) decomposeContext(E *contexts.Abductive, v abductive.Expr) (abductive.Expr, abductiveDecomposition, error) {
	for {
		if len(*E) == 0 {
			return nil, abductiveDecomposition{answer: v}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		found := func(r abductiveRedex) (abductive.Expr, abductiveDecomposition, error) {
			return nil, abductiveDecomposition{context: *E, redex: r}, nil
		}
		switch f := frame.(type) {
		case *contexts.AbductiveMark:
			v = abductive.WithFoot(v, f.Foot)
			continue
		case *contexts.AbductiveVecElem:
			elems := make([]abductive.Expr, 0, len(f.Done)+1+len(f.Rest))
			elems = append(append(append(elems, f.Done...), v), f.Rest...)
			i := abductiveNextElem(elems, len(f.Done)+1)
			if i == len(elems) {
				v = abductiveVecValue(f.P, elems, f.Foot)
				continue
			}
			*E = append(*E, &contexts.AbductiveVecElem{P: f.P, Done: elems[:i], Rest: elems[i+1:], Foot: f.Foot})
			return elems[i], abductiveDecomposition{}, nil
		case *contexts.AbductiveAppFun:
			*E = append(*E, &contexts.AbductiveAppArg{P: f.P, Fun: v, Sugar: f.Sugar})
			return f.Arg, abductiveDecomposition{}, nil
		case *contexts.AbductiveAppArg:
			switch fun := f.Fun.(type) {
			case *abductive.Lam:
				return found(&abductiveBeta{p: f.P, fun: fun, arg: v, sugar: f.Sugar})
			case *abductive.Abduct:
				return found(&abductiveAbduct{p: f.P, fun: fun, model: v, sugar: f.Sugar})
			}
		case *contexts.AbductiveBinaryLeft:
			*E = append(*E, &contexts.AbductiveBinaryRight{P: f.P, Op: f.Op, From: f.From, Left: v})
			return f.Right, abductiveDecomposition{}, nil
		case *contexts.AbductiveBinaryRight:
			if f.Op.IsIterator() {
				return found(&abductiveIterate{p: f.P, op: f.Op, from: f.From, g: f.Left, v0: v})
			}
			return found(&abductiveDelta{p: f.P, op: f.Op, x: f.Left, y: v})
		case *contexts.AbductiveLetBound:
			return found(&abductiveLet{let: &abductive.Let{P: f.P, Name: f.Name, Bound: v, Body: f.Body}})
		default:
			return nil, abductiveDecomposition{}, interderive.Stuck("", "unknown context frame %T", frame)
		}
		return nil, abductiveDecomposition{}, abductiveStuck(frame.Plug(v), "no rule applies")
	}
}

// abductiveMark is t^L, or t when L is empty.
func abductiveMark(p abductive.Pos, foot abductive.Footprint, t abductive.Expr) abductive.Expr {
	if len(foot) == 0 {
		return t
	}
	return &abductive.Mark{P: p, Foot: foot, Body: t}
}

// contract is the contraction of a redex by its rule, under the store sigma; for a
// decoupling, also its report.
func (abductiveSemantics) contract(r abductiveRedex, sigma abductive.Store) (abductive.Expr, *abductive.Decoupling, error) {
	switch r := r.(type) {
	case *abductiveBeta: // (\x:T. t) v -> t[x := v]^L, L = fp(\x:T. t) ∪ fp(v)
		foot := abductive.Union(abductive.FootprintOf(r.fun), abductive.FootprintOf(r.arg))
		return abductiveMark(r.p, foot, abductive.Subst(r.fun.Body, r.fun.Param, r.arg)), nil, nil
	case *abductiveLet: // let x = v in t -> t[x := v]^L, L = fp(\x:T. t) ∪ fp(v)
		fun := &abductive.Lam{P: r.let.P, Param: r.let.Name, Body: r.let.Body}
		foot := abductive.Union(abductive.FootprintOf(fun), abductive.FootprintOf(r.let.Bound))
		return abductiveMark(r.let.P, foot, abductive.Subst(r.let.Body, r.let.Name, r.let.Bound)), nil, nil
	case *abductiveDelta: // v1 $ v2 -> δ($, v1, v2)
		if v, ok := abductive.Delta(r.p, r.op, r.x, r.y); ok {
			return v, nil, nil
		}
		return nil, nil, abductiveStuck(r.term(), "no δ for these operands")
	case *abductiveParam: // {r} -> ℓn
		return &abductive.Label{P: r.param.P, N: r.param.Label, Foot: abductive.Single(r.param.Label)}, nil, nil
	case *abductiveAbduct: // (abduct f, p. t) m -> t[f := F][p := P]^L
		f, params := abductive.Decouple(r.p, sigma, r.model)
		body := r.fun.Body
		if r.fun.F != r.fun.Par {
			body = abductive.Subst(body, r.fun.F, f)
		}
		body = abductive.Subst(body, r.fun.Par, params)
		foot := abductive.Union(abductive.FootprintOf(r.fun), abductive.FootprintOf(r.model))
		d := abductive.DecouplingOf(params)
		return abductiveMark(r.p, foot, body), &d, nil
	case *abductiveIterate: // g op[k] v0 -> g e_k $ (g op[k+1] v0), or v0
		if v, ok := abductive.Iterate(r.p, r.op, r.from, r.g, r.v0); ok {
			return v, nil, nil
		}
		return nil, nil, abductiveStuck(r.term(), "the iterator's operand is not a vector")
	}
	return nil, nil, interderive.Stuck("", "unknown redex %T", r)
}

// plug is E[c]: the contractum put back into the context.
func (abductiveSemantics) plug(E contexts.Abductive, c abductive.Expr) abductive.Expr {
	return E.Plug(c)
}

// Step is one step: decompose, contract, plug (abductive.Stepper).
func (s abductiveSemantics) Step(e abductive.Expr, sigma abductive.Store) (next abductive.Expr, rule string, done bool, err error) {
	d, err := s.decompose(e)
	if err != nil || d.redex == nil {
		return d.answer, "", err == nil, err
	}
	c, _, err := s.contract(d.redex, sigma)
	if err != nil {
		return nil, "", false, err
	}
	return s.plug(d.context, c), d.redex.rule(), false, nil
}

// Eval runs a closed, well-typed term to its answer (iterate), under the store of its
// provisional constants.
func (s abductiveSemantics) Eval(e abductive.Expr, opts interderive.Options) (abductive.Answer, error) {
	return s.iterate(e, abductive.Sigma(e), opts)
}

// iterate is evaluation: decompose the whole term into a context and a redex,
// contract the redex, plug the contractum back into the context, and again from the
// root, until the term is an answer. Each contraction spends one unit of fuel and goes
// to opts.OnContract; an observer (opts.Observer) sees each decomposition before its
// contraction, the contractum and the term after it, and each decoupling's report.
func (s abductiveSemantics) iterate(e abductive.Expr, sigma abductive.Store, opts interderive.Options) (abductive.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newAbductiveShow(opts, fuel)
	for {
		d, err := s.decompose(e)
		if err != nil {
			return abductive.Answer{}, err
		}
		if d.redex == nil {
			return abductive.Answer{Value: d.answer, Sigma: sigma}, nil
		}
		show.decomposition(d)
		if err := fuel.Contract(d.redex.rule()); err != nil {
			return abductive.Answer{}, err
		}
		c, dec, err := s.contract(d.redex, sigma)
		if err != nil {
			return abductive.Answer{}, err
		}
		e = s.plug(d.context, c)
		if err := show.contracted(fuel.Steps(), c, e, dec); err != nil {
			return abductive.Answer{}, err
		}
	}
}

// abductiveShow shows the steps of the reduction semantics to a run's observer, each
// term within the run's print budget; nil when nothing observes the run, and then
// every method returns at once.
type abductiveShow struct {
	obs   interderive.Observer
	steps bool // whether obs is shown the steps (not an observer of reports only)
	pr    *interderive.ItemPrinter
}

func newAbductiveShow(opts interderive.Options, fuel *interderive.Counter) *abductiveShow {
	if opts.Observer == nil {
		return nil
	}
	return &abductiveShow{obs: opts.Observer, steps: opts.StepObserver() != nil, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *abductiveShow) term(e abductive.Expr) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return abductive.FormatBounded(e, b) })
}

// decomposition shows a decomposition: the context, with [] for its hole, and the
// redex.
func (s *abductiveShow) decomposition(d abductiveDecomposition) {
	if s == nil || !s.steps {
		return
	}
	hole := d.context.Plug(&abductive.Var{Name: contexts.Hole})
	s.obs.Step("decompose: " + s.term(hole) + "  with redex  " + s.term(d.redex.term()))
}

// contracted shows contraction n's contractum and the term after plugging it, and
// reports a decoupling's footprint and σ; it returns the time or memory budget's
// error if printing ran out of it.
func (s *abductiveShow) contracted(n int, contractum, next abductive.Expr, dec *abductive.Decoupling) error {
	if s == nil {
		return nil
	}
	if s.steps {
		s.obs.About(n, "contract:  "+s.term(contractum))
		s.obs.About(n, "plug:      "+s.term(next))
	}
	if dec != nil {
		s.obs.Report(n, "decoupling", *dec, dec.String())
	}
	return s.pr.Err()
}
