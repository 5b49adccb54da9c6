package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/envnames"
	"github.com/interderive/interderive/lambda"
)

// The calculus of closures of the call-by-value λ-calculus (Biernacka & Danvy 2007):
// its reduction semantics (package reduction) over closures e[ρ] instead of
// substitution,
//
//	ρ  ::= ε | (x ↦ v) : ρ                      v ::= n[ρ] | (\x:T. e)[ρ]
//	cl ::= e[ρ] | cl · cl | cl op cl | if0 cl cl cl | let x = cl in e[ρ]
//	E  ::= [] | E · cl | v · E | E op cl | v op E | if0 E cl cl | let x = E in e[ρ]
//
// with the same decomposeTerm, decomposeContext, contract, plug and iterate, and
// environment steps besides the contractions, which are administrative (they spend
// no fuel and are not contraction events):
//
//	lookup   x[ρ]                          ~> ρ(x)
//	expand   (e1 e2)[ρ]                    ~> e1[ρ] · e2[ρ]
//	         (e1 op e2)[ρ]                 ~> e1[ρ] op e2[ρ]
//	         (if0 e then e1 else e2)[ρ]    ~> if0 e[ρ] e1[ρ] e2[ρ]
//	         (let x = e1 in e2)[ρ]         ~> let x = e1[ρ] in e2[ρ]
//
//	beta     (\x:T. e)[ρ] · v              -> e[(x ↦ v) : ρ]        (delayed substitution)
//	delta    n1[ρ1] op n2[ρ2]              -> (n1 op n2)[ε]
//	if0      if0 0[ρ] cl1 cl2 -> cl1;   if0 n[ρ] cl1 cl2 -> cl2   (n ≠ 0)
//	let      let x = v in e[ρ]             -> e[(x ↦ v) : ρ]
//	letrec   (letrec f:T = \x:S. e in b)[ρ] -> b[(f ↦ (Unfold l)[ρ]) : ρ]
//
// where Unfold l is the function the reduction semantics substitutes for f (and, as
// lambdaval.LetrecClosure does, the closure leaves out a binding of the unfolded
// function's own parameter that starts ρ: it rebinds it). The answer is read back by
// σ, which substitutes the environments.

// Lambda is the calculus of closures of the λ-calculus (lambda.StageOf).
func (Stage) Lambda() lambda.Stage { return lambdaCalculus{} }

// lambdaCalculus is the calculus of closures: decomposeTerm and decomposeContext
// (decompose), contract and envStep, plug, and iterate.
type lambdaCalculus struct{}

// lambdaClosure is a closure cl.
type lambdaClosure interface{ isLambdaClosure() }

type (
	// lambdaClo is e[ρ].
	lambdaClo struct {
		e   lambda.Expr
		env *lambdaEnv
	}
	// lambdaAppCl is cl · cl.
	lambdaAppCl struct {
		p        lambda.Pos
		fun, arg lambdaClosure
	}
	// lambdaBinaryCl is cl op cl.
	lambdaBinaryCl struct {
		p    lambda.Pos
		op   lambda.Op
		x, y lambdaClosure
	}
	// lambdaIf0Cl is if0 cl cl cl.
	lambdaIf0Cl struct {
		p               lambda.Pos
		cond, then, els lambdaClosure
	}
	// lambdaLetCl is let x = cl in e[ρ].
	lambdaLetCl struct {
		p     lambda.Pos
		name  string
		bound lambdaClosure
		body  lambda.Expr
		env   *lambdaEnv
	}
)

func (*lambdaClo) isLambdaClosure()      {}
func (*lambdaAppCl) isLambdaClosure()    {}
func (*lambdaBinaryCl) isLambdaClosure() {}
func (*lambdaIf0Cl) isLambdaClosure()    {}
func (*lambdaLetCl) isLambdaClosure()    {}

// lambdaEnv is an environment ρ, binding variables to value closures; nil is ε.
type lambdaEnv struct {
	name string
	v    *lambdaClo
	next *lambdaEnv
}

func (rho *lambdaEnv) bind(x string, v *lambdaClo) *lambdaEnv {
	return &lambdaEnv{name: x, v: v, next: rho}
}

func (rho *lambdaEnv) lookup(x string) (*lambdaClo, bool) {
	for ; rho != nil; rho = rho.next {
		if rho.name == x {
			return rho.v, true
		}
	}
	return nil, false
}

// lambdaValue is the value closure cl is, if it is one: n[ρ] or (\x:T. e)[ρ].
func lambdaValue(cl lambdaClosure) (*lambdaClo, bool) {
	c, ok := cl.(*lambdaClo)
	if ok && lambda.IsValue(c.e) {
		return c, true
	}
	return nil, false
}

// The frames of the closure contexts E.
type (
	lambdaAppFun struct { // [] · cl
		p   lambda.Pos
		arg lambdaClosure
	}
	lambdaAppArg struct { // v · []
		p   lambda.Pos
		fun *lambdaClo
	}
	lambdaBinaryLeft struct { // [] op cl
		p     lambda.Pos
		op    lambda.Op
		right lambdaClosure
	}
	lambdaBinaryRight struct { // v op []
		p    lambda.Pos
		op   lambda.Op
		left *lambdaClo
	}
	lambdaIf0Cond struct { // if0 [] cl cl
		p         lambda.Pos
		then, els lambdaClosure
	}
	lambdaLetBound struct { // let x = [] in e[ρ]
		p    lambda.Pos
		name string
		body lambda.Expr
		env  *lambdaEnv
	}
)

// lambdaFrame is a frame of a closure context.
type lambdaFrame interface {
	plug(cl lambdaClosure) lambdaClosure
}

func (f *lambdaAppFun) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaAppCl{p: f.p, fun: cl, arg: f.arg}
}
func (f *lambdaAppArg) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaAppCl{p: f.p, fun: f.fun, arg: cl}
}
func (f *lambdaBinaryLeft) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaBinaryCl{p: f.p, op: f.op, x: cl, y: f.right}
}
func (f *lambdaBinaryRight) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaBinaryCl{p: f.p, op: f.op, x: f.left, y: cl}
}
func (f *lambdaIf0Cond) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaIf0Cl{p: f.p, cond: cl, then: f.then, els: f.els}
}
func (f *lambdaLetBound) plug(cl lambdaClosure) lambdaClosure {
	return &lambdaLetCl{p: f.p, name: f.name, bound: cl, body: f.body, env: f.env}
}

// lambdaContext is a closure context, outermost frame first.
type lambdaContext []lambdaFrame

// lambdaRedex is what a decomposition finds in the context's hole: a redex of a
// contraction (rule) or of an environment step (env).
type lambdaRedex struct {
	rule string // the contraction's rule, or "" for an environment step
	env  string // the environment step, "lookup" or "expand"
	cl   lambdaClosure
}

// lambdaDecomposition is a closure decomposed: a context and a redex, or (redex.cl
// nil) a value.
type lambdaDecomposition struct {
	context lambdaContext
	redex   lambdaRedex
	value   *lambdaClo
}

// decompose splits a closure into a context and a redex, or finds it is a value: the
// reduction semantics' decompose, over closures.
func (c lambdaCalculus) decompose(cl lambdaClosure) (lambdaDecomposition, error) {
	var E lambdaContext
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
func (lambdaCalculus) decomposeTerm(E *lambdaContext, cl lambdaClosure) (*lambdaClo, lambdaDecomposition, error) {
	found := func(rule, env string) (*lambdaClo, lambdaDecomposition, error) {
		return nil, lambdaDecomposition{context: *E, redex: lambdaRedex{rule: rule, env: env, cl: cl}}, nil
	}
	for {
		switch c := cl.(type) {
		case *lambdaClo:
			switch c.e.(type) {
			case *lambda.IntLit, *lambda.Lam:
				return c, lambdaDecomposition{}, nil
			case *lambda.Var:
				return found("", "lookup")
			case *lambda.Letrec:
				return found(lambda.RuleLetrec, "")
			case *lambda.App, *lambda.Binary, *lambda.If0, *lambda.Let:
				return found("", "expand")
			}
			return nil, lambdaDecomposition{}, interderive.Stuck(lambda.FormatShort(c.e, interderive.MaxStuckShown), "no rule applies")
		case *lambdaAppCl:
			*E, cl = append(*E, &lambdaAppFun{p: c.p, arg: c.arg}), c.fun
		case *lambdaBinaryCl:
			*E, cl = append(*E, &lambdaBinaryLeft{p: c.p, op: c.op, right: c.y}), c.x
		case *lambdaIf0Cl:
			*E, cl = append(*E, &lambdaIf0Cond{p: c.p, then: c.then, els: c.els}), c.cond
		case *lambdaLetCl:
			*E, cl = append(*E, &lambdaLetBound{p: c.p, name: c.name, body: c.body, env: c.env}), c.bound
		default:
			return nil, lambdaDecomposition{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// decomposeContext climbs out of E with the value v until it finds a redex or the
// empty context (an answer), or a closure still to evaluate, which it returns with
// the frame that waits for it pushed onto E.
func (lambdaCalculus) decomposeContext(E *lambdaContext, v *lambdaClo) (lambdaClosure, lambdaDecomposition, error) {
	if len(*E) == 0 {
		return nil, lambdaDecomposition{value: v}, nil
	}
	frame := (*E)[len(*E)-1]
	*E = (*E)[:len(*E)-1]
	found := func(rule string) (lambdaClosure, lambdaDecomposition, error) {
		return nil, lambdaDecomposition{context: *E, redex: lambdaRedex{rule: rule, cl: frame.plug(v)}}, nil
	}
	switch f := frame.(type) {
	case *lambdaAppFun:
		*E = append(*E, &lambdaAppArg{p: f.p, fun: v})
		return f.arg, lambdaDecomposition{}, nil
	case *lambdaAppArg:
		return found(lambda.RuleBeta)
	case *lambdaBinaryLeft:
		*E = append(*E, &lambdaBinaryRight{p: f.p, op: f.op, left: v})
		return f.right, lambdaDecomposition{}, nil
	case *lambdaBinaryRight:
		return found(lambda.RuleDelta)
	case *lambdaIf0Cond:
		return found(lambda.RuleIf0)
	case *lambdaLetBound:
		return found(lambda.RuleLet)
	}
	return nil, lambdaDecomposition{}, interderive.Stuck("", "unknown frame %T", frame)
}

// contract is the contraction of a redex by its rule.
func (lambdaCalculus) contract(r lambdaRedex) (lambdaClosure, error) {
	stuck := func(reason string) (lambdaClosure, error) {
		return nil, interderive.Stuck("", "%s", reason)
	}
	switch cl := r.cl.(type) {
	case *lambdaAppCl: // beta: (\x:T. e)[ρ] · v -> e[(x ↦ v) : ρ]
		if f, ok := lambdaValue(cl.fun); ok {
			lam, isLam := f.e.(*lambda.Lam)
			if v, ok := lambdaValue(cl.arg); ok && isLam {
				return &lambdaClo{e: lam.Body, env: f.env.bind(lam.Param, v)}, nil
			}
		}
		return stuck("application of a non-function")
	case *lambdaBinaryCl: // delta: n1[ρ1] op n2[ρ2] -> (n1 op n2)[ε]
		x, ok1 := lambdaValue(cl.x)
		y, ok2 := lambdaValue(cl.y)
		if ok1 && ok2 {
			if n, ok := lambda.Delta(cl.p, cl.op, x.e, y.e); ok {
				return &lambdaClo{e: n}, nil
			}
		}
		return stuck(cl.op.String() + " applied to a non-integer")
	case *lambdaIf0Cl: // if0 n[ρ] cl1 cl2 -> cl1 if n = 0, else cl2
		if c, ok := lambdaValue(cl.cond); ok {
			if n, ok := c.e.(*lambda.IntLit); ok && n.N == 0 {
				return cl.then, nil
			} else if ok {
				return cl.els, nil
			}
		}
		return stuck("if0 on a non-integer")
	case *lambdaLetCl: // let: let x = v in e[ρ] -> e[(x ↦ v) : ρ]
		v, ok := lambdaValue(cl.bound)
		if !ok {
			return stuck("let of a non-value")
		}
		return &lambdaClo{e: cl.body, env: cl.env.bind(cl.name, v)}, nil
	case *lambdaClo: // letrec: (letrec f:T = \x:S. e in b)[ρ] -> b[(f ↦ (Unfold l)[ρ]) : ρ]
		if l, ok := cl.e.(*lambda.Letrec); ok {
			return &lambdaClo{e: l.Body, env: cl.env.bind(l.Name, lambdaLetrecClosure(l, cl.env))}, nil
		}
	}
	return nil, interderive.Stuck("", "no %s redex: %T", r.rule, r.cl)
}

// lambdaLetrecClosure is the closure a letrec binds its function to: Unfold l closed by
// ρ, less a binding of the unfolded function's own parameter that starts ρ (see
// lambdaval.LetrecClosure).
func lambdaLetrecClosure(l *lambda.Letrec, rho *lambdaEnv) *lambdaClo {
	f := lambda.Unfold(l)
	if f.Body == l && rho != nil && rho.name == f.Param {
		rho = rho.next
	}
	return &lambdaClo{e: f, env: rho}
}

// envStep is an environment step: a lookup or an expansion.
func (lambdaCalculus) envStep(r lambdaRedex) (lambdaClosure, error) {
	c, ok := r.cl.(*lambdaClo)
	if !ok {
		return nil, interderive.Stuck("", "no environment step on %T", r.cl)
	}
	rho := c.env
	switch e := c.e.(type) {
	case *lambda.Var:
		if v, ok := rho.lookup(e.Name); ok {
			return v, nil
		}
		return nil, interderive.Stuck("", "unbound variable %s", e.Name)
	case *lambda.App:
		return &lambdaAppCl{p: e.P, fun: &lambdaClo{e.Fun, rho}, arg: &lambdaClo{e.Arg, rho}}, nil
	case *lambda.Binary:
		return &lambdaBinaryCl{p: e.P, op: e.Op, x: &lambdaClo{e.X, rho}, y: &lambdaClo{e.Y, rho}}, nil
	case *lambda.If0:
		return &lambdaIf0Cl{p: e.P, cond: &lambdaClo{e.Cond, rho}, then: &lambdaClo{e.Then, rho}, els: &lambdaClo{e.Else, rho}}, nil
	case *lambda.Let:
		return &lambdaLetCl{p: e.P, name: e.Name, bound: &lambdaClo{e.Bound, rho}, body: e.Body, env: rho}, nil
	}
	return nil, interderive.Stuck("", "no environment step on %T", c.e)
}

// plug is E[c]: the contractum put back into the context.
func (lambdaCalculus) plug(E lambdaContext, cl lambdaClosure) lambdaClosure {
	for i := len(E) - 1; i >= 0; i-- {
		cl = E[i].plug(cl)
	}
	return cl
}

// Eval runs a closed, well-typed term as the closure e[ε] and reads the answer back.
func (c lambdaCalculus) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	return c.iterate(e, opts)
}

// iterate is evaluation: decompose the whole closure into a context and a redex, take
// the step (a contraction, or an environment step), plug the result back into the
// context, and again from the root, until the closure is a value. Each contraction
// spends one unit of fuel and goes to opts.OnContract; an observer (opts.Observer) sees
// each step before it is taken.
func (c lambdaCalculus) iterate(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newLambdaShow(opts, fuel)
	var env envSteps
	var cl lambdaClosure = &lambdaClo{e: e}
	for {
		d, err := c.decompose(cl)
		if err != nil {
			return lambda.Answer{}, err
		}
		if d.redex.cl == nil {
			return lambda.Answer{Value: lambdaSigma(d.value)}, nil
		}
		var next lambdaClosure
		if d.redex.rule == "" {
			if next, err = c.envStep(d.redex); err != nil {
				return lambda.Answer{}, err
			}
			if err := show.step(d, next); err != nil {
				return lambda.Answer{}, err
			}
			if err := env.step(fuel); err != nil {
				return lambda.Answer{}, err
			}
		} else {
			if next, err = c.contract(d.redex); err != nil {
				return lambda.Answer{}, err
			}
			if err := show.step(d, next); err != nil {
				return lambda.Answer{}, err
			}
			if err := fuel.Contract(d.redex.rule); err != nil {
				return lambda.Answer{}, err
			}
		}
		cl = c.plug(d.context, next)
	}
}

// lambdaSigma is the read-back σ of a value closure: e with the values of its free
// variables (their innermost bindings in ρ) read back and substituted. Closures nest
// as deep as the run made them, so it keeps the closures still to read back in a
// stack of its own, and reads a closure that several environments hold back once.
func lambdaSigma(root *lambdaClo) lambda.Expr {
	terms := map[*lambdaClo]lambda.Expr{}
	fvs := map[lambda.Expr]map[string]bool{}
	type binding struct {
		name string
		v    *lambdaClo
	}
	bindings := func(c *lambdaClo) []binding {
		fv, ok := fvs[c.e]
		if !ok {
			fv = lambda.FreeVars(c.e)
			fvs[c.e] = fv
		}
		var bs []binding
		seen := map[string]bool{}
		for rho := c.env; rho != nil && len(seen) < len(fv); rho = rho.next {
			if fv[rho.name] && !seen[rho.name] {
				seen[rho.name] = true
				bs = append(bs, binding{rho.name, rho.v})
			}
		}
		return bs
	}
	type frame struct {
		c        *lambdaClo
		bs       []binding
		expanded bool
	}
	stack := []frame{{c: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if _, done := terms[top.c]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.expanded {
			top.expanded, top.bs = true, bindings(top.c)
			for _, b := range top.bs {
				stack = append(stack, frame{c: b.v})
			}
			continue
		}
		sub := make(map[string]lambda.Expr, len(top.bs))
		for _, b := range top.bs {
			sub[b.name] = terms[b.v]
		}
		terms[top.c] = lambda.SubstAll(top.c.e, sub)
		stack = stack[:len(stack)-1]
	}
	return terms[root]
}

// lambdaShow shows the steps of the calculus of closures to a run's observer: its
// environment steps and its contractions, every closure within the run's print budget,
// its environments named as the gradual calculi's are (Printer): ρ1 = (x ↦ v) : ε
// where an environment first appears, ρ1 after; nil when nothing observes the run.
type lambdaShow struct {
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
	envs *envnames.Namer[lambdaEnv]
}

func newLambdaShow(opts interderive.Options, fuel *interderive.Counter) *lambdaShow {
	obs := opts.StepObserver()
	if obs == nil {
		return nil
	}
	s := &lambdaShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
	s.envs = envnames.New(s.pr.Item, envnames.Binding[lambdaEnv]{
		Next:  func(rho *lambdaEnv) *lambdaEnv { return rho.next },
		Refs:  func(rho *lambdaEnv) []*lambdaEnv { return []*lambdaEnv{rho.v.env} },
		Var:   func(rho *lambdaEnv) string { return rho.name },
		Write: func(w *interderive.BoundedBuilder, rho *lambdaEnv) { s.write(w, rho.v) },
	})
	return s
}

// step shows a step before it is taken: an environment step as ENV: redex ~>
// contractum; a contraction as its decomposition and its contractum; each after the
// definitions of the environments it names first. It returns the time or memory
// budget's error if printing ran out of it.
func (s *lambdaShow) step(d lambdaDecomposition, next lambdaClosure) error {
	if s == nil {
		return nil
	}
	var lines []string
	if d.redex.rule == "" {
		lines = []string{d.redex.env + ": " + s.closure(d.redex.cl) + "  ~>  " + s.closure(next)}
	} else {
		hole := lambdaCalculus{}.plug(d.context, &lambdaClo{e: &lambda.Var{Name: contexts.Hole}})
		lines = []string{"decompose: " + s.closure(hole) + "  with redex  " + s.closure(d.redex.cl), "contract:  " + s.closure(next)}
	}
	for _, def := range s.envs.Defs() {
		s.obs.Step(def)
	}
	for _, l := range lines {
		s.obs.Step(l)
	}
	return s.pr.Err()
}

// closure prints cl within the budget.
func (s *lambdaShow) closure(cl lambdaClosure) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		s.write(&w, cl)
		return w.Result()
	})
}

// write writes cl: e[ρ] (e in parentheses unless it is atomic; [] alone for the hole),
// cl · cl, cl op cl, if0 cl cl cl, let x = cl in e[ρ].
func (s *lambdaShow) write(w *interderive.BoundedBuilder, cl lambdaClosure) {
	if w.Stopped() {
		return
	}
	term := func(e lambda.Expr) {
		t, err := lambda.FormatBounded(e, w.Left())
		w.WriteString(t)
		w.Fail(err)
	}
	switch cl := cl.(type) {
	case *lambdaClo:
		switch e := cl.e.(type) {
		case *lambda.Var:
			if e.Name == contexts.Hole && cl.env == nil {
				w.WriteString(contexts.Hole)
				return
			}
			term(e)
		case *lambda.IntLit:
			term(e)
		default:
			w.WriteByte('(')
			term(e)
			w.WriteByte(')')
		}
		w.WriteString("[" + s.envs.Name(cl.env) + "]")
	case *lambdaAppCl:
		w.WriteByte('(')
		s.write(w, cl.fun)
		w.WriteString(") · (")
		s.write(w, cl.arg)
		w.WriteByte(')')
	case *lambdaBinaryCl:
		w.WriteByte('(')
		s.write(w, cl.x)
		w.WriteString(") " + cl.op.String() + " (")
		s.write(w, cl.y)
		w.WriteByte(')')
	case *lambdaIf0Cl:
		w.WriteString("if0 ")
		s.write(w, cl.cond)
		w.WriteByte(' ')
		s.write(w, cl.then)
		w.WriteByte(' ')
		s.write(w, cl.els)
	case *lambdaLetCl:
		w.WriteString("let " + cl.name + " = ")
		s.write(w, cl.bound)
		w.WriteString(" in ")
		s.write(w, &lambdaClo{e: cl.body, env: cl.env})
	}
}
