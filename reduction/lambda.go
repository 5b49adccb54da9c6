package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/lambda"
)

// The reduction semantics of the call-by-value λ-calculus (lambda/doc.go): decompose
// the term into a context E (contexts.Lambda) and a redex, contract the redex, plug
// the contractum back into E, and again from the root (iterate).

// Lambda is the reduction semantics of the λ-calculus (lambda.StageOf); it also takes
// one step at a time (lambda.Stepper), for the calculus's metatheory.
func (Stage) Lambda() lambda.Stage { return lambdaSemantics{} }

// lambdaSemantics is the reduction semantics: its functions are decomposeTerm and
// decomposeContext (decompose), contract, plug and iterate.
type lambdaSemantics struct{}

// lambdaRedex is a redex: the rule that contracts it, and the redex as a term.
type lambdaRedex interface {
	rule() string
	term() lambda.Expr
}

// The redexes, one per rule.
type (
	// lambdaBeta is (\x:T. e) v.
	lambdaBeta struct {
		p   lambda.Pos
		fun *lambda.Lam
		arg lambda.Expr
	}
	// lambdaDelta is n1 op n2.
	lambdaDelta struct {
		p    lambda.Pos
		op   lambda.Op
		x, y lambda.Expr
	}
	// lambdaIf0 is if0 n then e1 else e2.
	lambdaIf0 struct {
		p         lambda.Pos
		n         *lambda.IntLit
		then, els lambda.Expr
	}
	// lambdaLet is let x = v in e.
	lambdaLet struct{ let *lambda.Let }
	// lambdaLetrec is letrec f:T = \x:S. e in b.
	lambdaLetrec struct{ letrec *lambda.Letrec }
)

func (*lambdaBeta) rule() string   { return lambda.RuleBeta }
func (*lambdaDelta) rule() string  { return lambda.RuleDelta }
func (*lambdaIf0) rule() string    { return lambda.RuleIf0 }
func (*lambdaLet) rule() string    { return lambda.RuleLet }
func (*lambdaLetrec) rule() string { return lambda.RuleLetrec }

func (r *lambdaBeta) term() lambda.Expr  { return &lambda.App{P: r.p, Fun: r.fun, Arg: r.arg} }
func (r *lambdaDelta) term() lambda.Expr { return &lambda.Binary{P: r.p, Op: r.op, X: r.x, Y: r.y} }
func (r *lambdaIf0) term() lambda.Expr {
	return &lambda.If0{P: r.p, Cond: r.n, Then: r.then, Else: r.els}
}
func (r *lambdaLet) term() lambda.Expr    { return r.let }
func (r *lambdaLetrec) term() lambda.Expr { return r.letrec }

// lambdaDecomposition is a term decomposed: a context and the redex in its hole, or
// (redex nil) an answer.
type lambdaDecomposition struct {
	context contexts.Lambda
	redex   lambdaRedex
	answer  lambda.Expr
}

// decompose splits a term into a context and a redex, or finds it is an answer: Danvy's
// pair of mutually tail-recursive functions, as one loop. decomposeTerm descends from
// the root until it meets a value, decomposeContext climbs back through the context
// with that value until it finds a redex, or a subterm still to evaluate (and then
// decomposeTerm descends again).
func (s lambdaSemantics) decompose(e lambda.Expr) (lambdaDecomposition, error) {
	var E contexts.Lambda
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

// decomposeTerm descends into e, pushing frames onto E, and returns the value it meets
// (or, for a redex found on the way down, the decomposition).
func (lambdaSemantics) decomposeTerm(E *contexts.Lambda, e lambda.Expr) (lambda.Expr, lambdaDecomposition, error) {
	for {
		switch t := e.(type) {
		case *lambda.IntLit, *lambda.Lam:
			return t, lambdaDecomposition{}, nil
		case *lambda.App:
			*E, e = append(*E, &contexts.LambdaAppFun{P: t.P, Arg: t.Arg}), t.Fun
		case *lambda.Binary:
			*E, e = append(*E, &contexts.LambdaBinaryLeft{P: t.P, Op: t.Op, Right: t.Y}), t.X
		case *lambda.If0:
			*E, e = append(*E, &contexts.LambdaIf0Cond{P: t.P, Then: t.Then, Else: t.Else}), t.Cond
		case *lambda.Let:
			*E, e = append(*E, &contexts.LambdaLetBound{P: t.P, Name: t.Name, Body: t.Body}), t.Bound
		case *lambda.Letrec:
			return nil, lambdaDecomposition{context: *E, redex: &lambdaLetrec{letrec: t}}, nil
		default: // a free variable: the term is not closed
			return nil, lambdaDecomposition{}, interderive.Stuck(lambda.FormatShort(e, interderive.MaxStuckShown), "no rule applies")
		}
	}
}

// decomposeContext climbs out of E with the value v until it finds a redex or the
// empty context (an answer), or a subterm still to evaluate, which it returns with the
// frame that waits for it pushed onto E.
func (lambdaSemantics) decomposeContext(E *contexts.Lambda, v lambda.Expr) (lambda.Expr, lambdaDecomposition, error) {
	if len(*E) == 0 {
		return nil, lambdaDecomposition{answer: v}, nil
	}
	frame := (*E)[len(*E)-1]
	*E = (*E)[:len(*E)-1]
	found := func(r lambdaRedex) (lambda.Expr, lambdaDecomposition, error) {
		return nil, lambdaDecomposition{context: *E, redex: r}, nil
	}
	stuck := func() (lambda.Expr, lambdaDecomposition, error) {
		return nil, lambdaDecomposition{}, interderive.Stuck(lambda.FormatShort(frame.Plug(v), interderive.MaxStuckShown), "no rule applies")
	}
	switch f := frame.(type) {
	case *contexts.LambdaAppFun:
		*E = append(*E, &contexts.LambdaAppArg{P: f.P, Fun: v})
		return f.Arg, lambdaDecomposition{}, nil
	case *contexts.LambdaAppArg:
		if fun, ok := f.Fun.(*lambda.Lam); ok {
			return found(&lambdaBeta{p: f.P, fun: fun, arg: v})
		}
		return stuck()
	case *contexts.LambdaBinaryLeft:
		*E = append(*E, &contexts.LambdaBinaryRight{P: f.P, Op: f.Op, Left: v})
		return f.Right, lambdaDecomposition{}, nil
	case *contexts.LambdaBinaryRight:
		return found(&lambdaDelta{p: f.P, op: f.Op, x: f.Left, y: v})
	case *contexts.LambdaIf0Cond:
		if n, ok := v.(*lambda.IntLit); ok {
			return found(&lambdaIf0{p: f.P, n: n, then: f.Then, els: f.Else})
		}
		return stuck()
	case *contexts.LambdaLetBound:
		return found(&lambdaLet{let: &lambda.Let{P: f.P, Name: f.Name, Bound: v, Body: f.Body}})
	}
	return nil, lambdaDecomposition{}, interderive.Stuck("", "unknown context frame %T", frame)
}

// contract is the contraction of a redex by its rule.
func (lambdaSemantics) contract(r lambdaRedex) (lambda.Expr, error) {
	switch r := r.(type) {
	case *lambdaBeta: // (\x:T. e) v -> e[x := v]
		return lambda.Subst(r.fun.Body, r.fun.Param, r.arg), nil
	case *lambdaDelta: // n1 op n2 -> n
		if n, ok := lambda.Delta(r.p, r.op, r.x, r.y); ok {
			return n, nil
		}
		return nil, interderive.Stuck(lambda.FormatShort(r.term(), interderive.MaxStuckShown), "%s applied to a non-integer", r.op)
	case *lambdaIf0: // if0 0 then e1 else e2 -> e1; if0 n then e1 else e2 -> e2
		if r.n.N == 0 {
			return r.then, nil
		}
		return r.els, nil
	case *lambdaLet: // let x = v in e -> e[x := v]
		return lambda.Subst(r.let.Body, r.let.Name, r.let.Bound), nil
	case *lambdaLetrec: // letrec f:T = \x:S. e in b -> b[f := \x:S. letrec f:T = \x:S. e in e]
		return lambda.Subst(r.letrec.Body, r.letrec.Name, lambda.Unfold(r.letrec)), nil
	}
	return nil, interderive.Stuck("", "unknown redex %T", r)
}

// plug is E[c]: the contractum put back into the context.
func (lambdaSemantics) plug(E contexts.Lambda, c lambda.Expr) lambda.Expr { return E.Plug(c) }

// Step is one step: decompose, contract, plug (lambda.Stepper).
func (s lambdaSemantics) Step(e lambda.Expr) (next lambda.Expr, rule string, done bool, err error) {
	d, err := s.decompose(e)
	if err != nil || d.redex == nil {
		return d.answer, "", err == nil, err
	}
	c, err := s.contract(d.redex)
	if err != nil {
		return nil, "", false, err
	}
	return s.plug(d.context, c), d.redex.rule(), false, nil
}

// Eval runs a closed, well-typed term to its answer (iterate).
func (s lambdaSemantics) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	return s.iterate(e, opts)
}

// iterate is evaluation: decompose the whole term into a context and a redex,
// contract the redex, plug the contractum back into the context, and again from the
// root, until the term is an answer. Each contraction spends one unit of fuel and goes
// to opts.OnContract; an observer (opts.Observer) sees each decomposition before its
// contraction, and the contractum and the term after it.
func (s lambdaSemantics) iterate(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newLambdaShow(opts, fuel)
	for {
		d, err := s.decompose(e)
		if err != nil {
			return lambda.Answer{}, err
		}
		if d.redex == nil {
			return lambda.Answer{Value: d.answer}, nil
		}
		show.decomposition(d)
		if err := fuel.Contract(d.redex.rule()); err != nil {
			return lambda.Answer{}, err
		}
		c, err := s.contract(d.redex)
		if err != nil {
			return lambda.Answer{}, err
		}
		e = s.plug(d.context, c)
		if err := show.contracted(fuel.Steps(), c, e); err != nil {
			return lambda.Answer{}, err
		}
	}
}

// lambdaShow shows the steps of the reduction semantics to a run's observer, each
// term within the run's print budget; nil when nothing observes the run, and then
// every method returns at once.
type lambdaShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
}

func newLambdaShow(opts interderive.Options, fuel *interderive.Counter) *lambdaShow {
	obs := opts.StepObserver()
	if obs == nil {
		return nil
	}
	return &lambdaShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *lambdaShow) term(e lambda.Expr) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return lambda.FormatBounded(e, b) })
}

// decomposition shows a decomposition: the context, with [] for its hole, and the
// redex.
func (s *lambdaShow) decomposition(d lambdaDecomposition) {
	if s == nil {
		return
	}
	hole := d.context.Plug(&lambda.Var{Name: contexts.Hole})
	s.obs.Step("decompose: " + s.term(hole) + "  with redex  " + s.term(d.redex.term()))
}

// contracted shows contraction n's contractum and the term after plugging it; it
// returns the time or memory budget's error if printing ran out of it.
func (s *lambdaShow) contracted(n int, contractum, next lambda.Expr) error {
	if s == nil {
		return nil
	}
	s.obs.About(n, "contract:  "+s.term(contractum))
	s.obs.About(n, "plug:      "+s.term(next))
	return s.pr.Err()
}
