package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
)

// CastRedex is a redex of the layered reduction semantics of λ⟨·⟩ (PEPM 2014; docs/derivation.md).
// Its Rule is the name of the contraction event it produces; Term is the redex as a
// term, as it stands in the context's hole.
type CastRedex interface {
	Rule() string
	Term() g.Expr
}

// The redexes of λ⟨·⟩, one per rule.
type (
	// Beta is (\x:T. e) v.
	Beta struct {
		Fun *g.Lam
		Arg g.Expr
	}
	// Delta is op k or k1 op k2.
	Delta struct {
		P    g.Pos
		Op   g.Op
		Args []g.Expr
	}
	// IfRedex is if k then e1 else e2.
	IfRedex struct {
		Cond       *g.BoolLit
		Then, Else g.Expr
	}
	// StepCst is <c> s where c is not in normal form: the inner layer. The coercion
	// decomposes into a coercion context and a coercion redex, whose contraction by
	// the semantics' rule CRule gives CContractum.
	StepCst struct {
		P           g.Pos
		C           g.Coercion
		S           g.Expr
		CContext    contexts.Coercion
		CRedex      g.Coercion
		CRule       string
		CContractum g.Coercion
	}
	// IdCst is <id> v.
	IdCst struct{ V g.Expr }
	// CmpCst is <d> <c̄> s.
	CmpCst struct {
		P    g.Pos
		D    g.Coercion
		Wrap *g.Coerce // <c̄> s
	}
	// AppCst is (<c̃ -> d̃> s) v.
	AppCst struct {
		P    g.Pos
		Wrap *g.Coerce
		Arg  g.Expr
	}
	// FailCst is <fail^l> s.
	FailCst struct {
		L g.Label
		S g.Expr
	}
	// FailFC is <(c̃ -> d̃) ; fail^l> s.
	FailFC struct {
		C g.Coercion
		L g.Label
		S g.Expr
	}
	// BlameRedex is E[blame l] with E not empty: it discards the context.
	BlameRedex struct{ L g.Label }
	// LetRedex is let x:T = v in e.
	LetRedex struct {
		Let *g.Let
		V   g.Expr
	}
	// LetrecRedex is letrec f:T = \x:S. e in b.
	LetrecRedex struct{ Letrec *g.Letrec }
	// MergeCst is <c> <d> e, where <d> e is not a value, in the merging mode:
	// it becomes <d ; c> e.
	MergeCst struct {
		P     g.Pos
		C     g.Coercion
		Inner *g.Coerce
	}
)

func (*Beta) Rule() string        { return g.RuleBeta }
func (*Delta) Rule() string       { return g.RuleDelta }
func (*IfRedex) Rule() string     { return g.RuleIf }
func (r *StepCst) Rule() string   { return g.StepCst(r.CRule) }
func (*IdCst) Rule() string       { return g.RuleIdCst }
func (*CmpCst) Rule() string      { return g.RuleCmpCst }
func (*AppCst) Rule() string      { return g.RuleAppCst }
func (*FailCst) Rule() string     { return g.RuleFailCst }
func (*FailFC) Rule() string      { return g.RuleFailFC }
func (*BlameRedex) Rule() string  { return g.RuleBlame }
func (*LetRedex) Rule() string    { return g.RuleLet }
func (*LetrecRedex) Rule() string { return g.RuleLetrec }
func (*MergeCst) Rule() string    { return g.RuleMergeCst }

func (r *Beta) Term() g.Expr { return &g.App{P: r.Arg.Pos(), Fun: r.Fun, Arg: r.Arg} }
func (r *Delta) Term() g.Expr {
	if len(r.Args) == 2 {
		return &g.Binary{P: r.P, Op: r.Op, X: r.Args[0], Y: r.Args[1]}
	}
	return &g.Unary{P: r.P, Op: r.Op, X: r.Args[0]}
}
func (r *IfRedex) Term() g.Expr { return &g.If{P: r.Cond.P, Cond: r.Cond, Then: r.Then, Else: r.Else} }
func (r *StepCst) Term() g.Expr { return &g.Coerce{P: r.P, C: r.C, X: r.S} }
func (r *IdCst) Term() g.Expr   { return &g.Coerce{P: r.V.Pos(), C: g.Id, X: r.V} }
func (r *CmpCst) Term() g.Expr  { return &g.Coerce{P: r.P, C: r.D, X: r.Wrap} }
func (r *AppCst) Term() g.Expr  { return &g.App{P: r.P, Fun: r.Wrap, Arg: r.Arg} }
func (r *FailCst) Term() g.Expr { return &g.Coerce{C: &g.Fail{L: r.L}, X: r.S} }
func (r *FailFC) Term() g.Expr  { return &g.Coerce{C: r.C, X: r.S} }
func (r *BlameRedex) Term() g.Expr {
	return &g.Blame{L: r.L}
}
func (r *LetRedex) Term() g.Expr    { return r.Let }
func (r *LetrecRedex) Term() g.Expr { return r.Letrec }
func (r *MergeCst) Term() g.Expr    { return &g.Coerce{P: r.P, C: r.C, X: r.Inner} }

// CastDecomposition is the result of decomposing a term: either an answer (Redex nil), or
// a context and the redex in its hole.
type CastDecomposition struct {
	Context contexts.Cast
	Redex   CastRedex
	Answer  g.Answer // when Redex is nil
}

// Cast is the reduction semantics of λ⟨·⟩ under a cast semantics, merging pending
// coercions or not (interderive.Merging). Its functions are Danvy's: decompose
// (decomposeTerm and decomposeContext), contract, plug, and iterate, which runs a term
// to its answer; Reduce is one step.
type Cast struct {
	Sem g.Semantics
	// Merge selects the space-efficient mode (docs/references.md, merging): a pending coercion that
	// is not normal is normalised (StepCst) before its operand runs, and descending
	// into <d> e (not a value) right under a pending <c> [] is the redex MergeCst.
	Merge bool
}

// decompose splits e into an evaluation context and a redex, or finds it an answer.
// Type-based casts must have been translated (g.Translate). It is Danvy's pair of mutually tail-recursive functions, written as one loop:
// decomposeTerm descends from the root until it meets a value, decomposeContext
// climbs back through the context with that value until it finds a redex, or a
// subterm still to evaluate (and then decomposeTerm descends again).
func (r Cast) decompose(e g.Expr) (CastDecomposition, error) {
	var E contexts.Cast
	for {
		v, d, err := r.decomposeTerm(&E, e)
		if v == nil {
			return d, err
		}
		if e, d, err = r.decomposeContext(&E, v); e == nil {
			return d, err
		}
	}
}

// decomposeTerm descends into e, pushing frames onto E, and returns the value it meets
// (or, for a redex or answer found on the way down, the final decomposition).
func (r Cast) decomposeTerm(E *contexts.Cast, e g.Expr) (g.Expr, CastDecomposition, error) {
	for {
		switch t := e.(type) {
		case *g.IntLit, *g.BoolLit, *g.Lam:
			return t, CastDecomposition{}, nil
		case *g.Unary:
			*E, e = append(*E, &contexts.CastUnaryArg{P: t.P, Op: t.Op}), t.X
		case *g.Binary:
			*E, e = append(*E, &contexts.CastBinaryLeft{P: t.P, Op: t.Op, Right: t.Y}), t.X
		case *g.If:
			*E, e = append(*E, &contexts.CastIfCond{P: t.P, Then: t.Then, Else: t.Else}), t.Cond
		case *g.App:
			*E, e = append(*E, &contexts.CastAppFun{P: t.P, Arg: t.Arg}), t.Fun
		case *g.Coerce:
			if r.Merge {
				if d, ok := r.pending(E, t); ok {
					return nil, d, nil
				}
			}
			*E, e = append(*E, &contexts.CastCoerceArg{P: t.P, C: t.C}), t.X
		case *g.Let:
			*E, e = append(*E, &contexts.CastLetBound{P: t.P, Name: t.Name, T: t.T, Body: t.Body}), t.Bound
		case *g.Letrec:
			return nil, CastDecomposition{Context: *E, Redex: &LetrecRedex{Letrec: t}}, nil
		case *g.Blame:
			if len(*E) == 0 {
				return nil, CastDecomposition{Answer: g.Answer{Blamed: true, Blame: t.L}}, nil
			}
			return nil, CastDecomposition{Context: *E, Redex: &BlameRedex{L: t.L}}, nil
		case *g.Cast:
			return nil, CastDecomposition{}, interderive.Stuck("", "untranslated cast %s: translate casts before running", g.FormatShort(t, interderive.MaxStuckShown))
		default:
			return nil, CastDecomposition{}, interderive.Stuck(g.FormatShort(e, interderive.MaxStuckShown), "no rule applies")
		}
	}
}

// pending finds the merging mode's redexes at a coercion application <d> e met on the
// way down: StepCst while d is not in normal form; then MergeCst when the innermost
// frame of E is a pending <c> [] and <d> e is not a value. (Normalising d before it
// merges keeps merging a composition of normal forms, which is what seq computes.)
func (r Cast) pending(E *contexts.Cast, t *g.Coerce) (CastDecomposition, bool) {
	if C, redex, rule, contractum, ok := contexts.DecomposeCoercion(r.Sem, t.C); ok {
		return CastDecomposition{Context: *E, Redex: &StepCst{P: t.P, C: t.C, S: t.X, CContext: C, CRedex: redex, CRule: rule, CContractum: contractum}}, true
	}
	if n := len(*E); n > 0 {
		if top, ok := (*E)[n-1].(*contexts.CastCoerceArg); ok && !r.isValue(t) {
			*E = (*E)[:n-1]
			return CastDecomposition{Context: *E, Redex: &MergeCst{P: top.P, C: top.C, Inner: t}}, true
		}
	}
	return CastDecomposition{}, false
}

// isValue reports whether a term is a value of λ⟨·⟩ under r's semantics: a simple
// value, or a simple value under one normal wrapper c̄.
func (r Cast) isValue(e g.Expr) bool {
	switch e := e.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
		return true
	case *g.Coerce:
		switch e.X.(type) {
		case *g.IntLit, *g.BoolLit, *g.Lam:
			return g.IsWrapperShape(e.C) && g.IsNormal(r.Sem, e.C)
		}
	}
	return false
}

// decomposeContext climbs out of E with the value v until it finds a redex or the
// empty context (an answer), or a subterm still to be evaluated, which it returns
// with the frame that waits for it pushed onto E.
func (r Cast) decomposeContext(E *contexts.Cast, v g.Expr) (g.Expr, CastDecomposition, error) {
	for {
		if len(*E) == 0 {
			return nil, CastDecomposition{Answer: g.Answer{Value: v}}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		found := func(red CastRedex) (g.Expr, CastDecomposition, error) {
			return nil, CastDecomposition{Context: *E, Redex: red}, nil
		}
		stuck := func() (g.Expr, CastDecomposition, error) {
			return nil, CastDecomposition{}, interderive.Stuck(g.FormatShort(frame.Plug(v), interderive.MaxStuckShown), "no rule applies")
		}
		switch f := frame.(type) {
		case *contexts.CastUnaryArg:
			return found(&Delta{P: f.P, Op: f.Op, Args: []g.Expr{v}})
		case *contexts.CastBinaryLeft:
			*E = append(*E, &contexts.CastBinaryRight{P: f.P, Op: f.Op, Left: v})
			return f.Right, CastDecomposition{}, nil
		case *contexts.CastBinaryRight:
			return found(&Delta{P: f.P, Op: f.Op, Args: []g.Expr{f.Left, v}})
		case *contexts.CastIfCond:
			k, ok := v.(*g.BoolLit)
			if !ok {
				return stuck()
			}
			return found(&IfRedex{Cond: k, Then: f.Then, Else: f.Else})
		case *contexts.CastAppFun:
			*E = append(*E, &contexts.CastAppArg{P: f.P, Fun: v})
			return f.Arg, CastDecomposition{}, nil
		case *contexts.CastAppArg:
			switch fun := f.Fun.(type) {
			case *g.Lam:
				return found(&Beta{Fun: fun, Arg: v})
			case *g.Coerce:
				if _, ok := fun.C.(*g.Func); ok {
					return found(&AppCst{P: f.P, Wrap: fun, Arg: v})
				}
			}
			return stuck()
		case *contexts.CastCoerceArg:
			if w, ok := v.(*g.Coerce); ok { // v = <c̄> s
				if _, id := f.C.(g.IdC); id {
					return found(&IdCst{V: v})
				}
				return found(&CmpCst{P: f.P, D: f.C, Wrap: w})
			}
			// v is a simple value s: the inner layer decides.
			if C, redex, rule, contractum, ok := contexts.DecomposeCoercion(r.Sem, f.C); ok {
				return found(&StepCst{P: f.P, C: f.C, S: v, CContext: C, CRedex: redex, CRule: rule, CContractum: contractum})
			}
			switch c := f.C.(type) {
			case g.IdC:
				return found(&IdCst{V: v})
			case *g.Fail:
				return found(&FailCst{L: c.L, S: v})
			}
			if l, ok := g.IsFailingWrapper(f.C); ok {
				return found(&FailFC{C: f.C, L: l, S: v})
			}
			if !g.IsWrapperShape(f.C) {
				return stuck()
			}
			v = &g.Coerce{P: f.P, C: f.C, X: v} // <c̄> s is a value: keep climbing
		case *contexts.CastLetBound:
			return found(&LetRedex{Let: &g.Let{P: f.P, Name: f.Name, T: f.T, Bound: v, Body: f.Body}, V: v})
		default:
			return nil, CastDecomposition{}, interderive.Stuck("", "unknown context frame %T", frame)
		}
	}
}

// contract is the contraction of a redex by its rule (spec §4): the contractum. A
// StepCst redex carries its inner layer's contraction, by the semantics' rule
// (Semantics.Contract, found by contexts.DecomposeCoercion); the contractum puts the
// coercion context back around it.
func (Cast) contract(red CastRedex) (g.Expr, error) {
	switch red := red.(type) {
	case *Beta:
		return g.Subst(red.Fun.Body, red.Fun.Param, red.Arg), nil
	case *Delta:
		k, ok := g.Delta(red.P, red.Op, red.Args...)
		if !ok {
			return nil, interderive.Stuck(g.FormatShort(red.Term(), interderive.MaxStuckShown), "%s applied to a non-constant", red.Op)
		}
		return k, nil
	case *IfRedex:
		if red.Cond.B {
			return red.Then, nil
		}
		return red.Else, nil
	case *StepCst:
		return &g.Coerce{P: red.P, C: red.CContext.Plug(red.CContractum), X: red.S}, nil
	case *IdCst:
		return red.V, nil
	case *CmpCst:
		return &g.Coerce{P: red.P, C: g.Then(red.Wrap.C, red.D), X: red.Wrap.X}, nil
	case *AppCst:
		f := red.Wrap.C.(*g.Func)
		inner := &g.App{P: red.P, Fun: red.Wrap.X, Arg: &g.Coerce{P: red.P, C: f.Dom, X: red.Arg}}
		return &g.Coerce{P: red.P, C: f.Cod, X: inner}, nil
	case *FailCst:
		return &g.Blame{L: red.L}, nil
	case *FailFC:
		return &g.Blame{L: red.L}, nil
	case *BlameRedex:
		return &g.Blame{L: red.L}, nil
	case *LetRedex:
		return g.Subst(red.Let.Body, red.Let.Name, red.V), nil
	case *MergeCst:
		return &g.Coerce{P: red.P, C: g.Then(red.Inner.C, red.C), X: red.Inner.X}, nil
	case *LetrecRedex:
		l := red.Letrec
		return g.Subst(l.Body, l.Name, g.Unfold(l)), nil
	}
	return nil, interderive.Stuck("", "unknown redex %T", red)
}

// plug puts the contractum back into the context of the decomposition d (recompose):
// E[contractum]. The Blame rule discards its context: E[blame l] -> blame l.
func (Cast) plug(d CastDecomposition, contractum g.Expr) g.Expr {
	if _, ok := d.Redex.(*BlameRedex); ok {
		return contractum
	}
	return d.Context.Plug(contractum)
}

// CastStep is one step of the reduction semantics, as the trace shows it.
type CastStep struct {
	CastDecomposition
	Contractum g.Expr // what the redex contracted to
	Next       g.Expr // the whole term after the step
}

// ReduceCast performs one step on e without merging (Cast.Reduce).
func ReduceCast(sem g.Semantics, e g.Expr) (step CastStep, done bool, err error) {
	return Cast{Sem: sem}.Reduce(e)
}

// Reduce is the one-step reduction relation: decompose, contract, plug. It returns
// the step, or, when e is an answer, done = true with the answer in step.Answer.
func (r Cast) Reduce(e g.Expr) (step CastStep, done bool, err error) {
	d, err := r.decompose(e)
	if err != nil {
		return CastStep{}, false, err
	}
	if d.Redex == nil {
		return CastStep{CastDecomposition: d}, true, nil
	}
	c, err := r.contract(d.Redex)
	if err != nil {
		return CastStep{}, false, err
	}
	return CastStep{CastDecomposition: d, Contractum: c, Next: r.plug(d, c)}, false, nil
}

// EvalCast runs a translated cast-calculus term to an answer: the reduction semantics
// iterated (iterate). The reduction semantics does not merge pending coercions unless
// opts.Merging says so.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return Cast{Sem: sem, Merge: opts.Merging.Merge(false)}.iterate(e, opts)
}

// Gradual is the reduction semantics of the gradual calculi (gradual.StageOf).
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}

// iterate is evaluation: decompose the whole term into a context and a redex,
// contract the redex, plug the contractum back into the context, and again from the
// root, until the term is an answer. Each contraction spends one unit of fuel and goes
// to opts.OnContract; an observer (opts.Observer) sees each decomposition before its
// contraction, and the contractum and the term after it.
func (r Cast) iterate(e g.Expr, opts interderive.Options) (g.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newCastShow(opts, fuel)
	for {
		d, err := r.decompose(e)
		if err != nil {
			return g.Answer{}, err
		}
		if d.Redex == nil {
			return d.Answer, nil
		}
		show.decomposition(d)
		if err := fuel.Contract(d.Redex.Rule()); err != nil {
			return g.Answer{}, err
		}
		c, err := r.contract(d.Redex)
		if err != nil {
			return g.Answer{}, err
		}
		e = r.plug(d, c)
		if err := show.contracted(fuel.Steps(), c, e); err != nil {
			return g.Answer{}, err
		}
	}
}
