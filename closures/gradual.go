package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
)

// The calculus of closures λρ⟨·⟩ of García-Pérez, Nogueira & Sergey (PEPM 2014),
// extended to the workbench's binary primitives and let forms:
//
//	ρ  ::= ε | (x ↦ cl) : ρ
//	cl ::= e[ρ] | prim op cl | prim op cl cl | if cl cl cl | cl · cl | <c> cl
//	     | let x:T = cl in e[ρ]

// Closure is a closure cl.
type Closure interface{ isClosure() }

type (
	// Clo is e[ρ]: a term closed by an environment.
	Clo struct {
		E   g.Expr
		Env *Env
	}
	// Prim is prim op cl (one argument) or prim op cl cl (two).
	Prim struct {
		P    g.Pos
		Op   g.Op
		Args []Closure
	}
	// If is if cl cl cl.
	If struct {
		P                Pos
		Cond, Then, Else Closure
	}
	// App is cl · cl.
	App struct {
		P        Pos
		Fun, Arg Closure
	}
	// Coerce is <c> cl.
	Coerce struct {
		P Pos
		C g.Coercion
		X Closure
	}
	// Let is let x:T = cl in e[ρ].
	Let struct {
		P     Pos
		Name  string
		T     g.Type
		Bound Closure
		Body  g.Expr
		Env   *Env
	}
)

// Pos is a source position.
type Pos = g.Pos

func (*Clo) isClosure()    {}
func (*Prim) isClosure()   {}
func (*If) isClosure()     {}
func (*App) isClosure()    {}
func (*Coerce) isClosure() {}
func (*Let) isClosure()    {}

// Env is an environment ρ; nil is ε. It binds variables to closures in value form.
type Env struct {
	Name string
	Cl   Closure
	Next *Env
}

// Bind is (x ↦ cl) : ρ.
func (rho *Env) Bind(x string, cl Closure) *Env { return &Env{Name: x, Cl: cl, Next: rho} }

// Lookup finds x in ρ.
func (rho *Env) Lookup(x string) (Closure, bool) {
	for ; rho != nil; rho = rho.Next {
		if rho.Name == x {
			return rho.Cl, true
		}
	}
	return nil, false
}

// Frame is a frame of a closure context.
type Frame interface {
	// Plug puts a closure in the frame's hole.
	Plug(cl Closure) Closure
}

// The frames of the closure contexts, one per evaluation position: the productions
// of the reduction semantics' contexts (contexts.Cast) over closures. A frame found by
// decomposition is the closure around the hole itself, seen as a frame: its type says
// where the hole is, and the part of the closure at the hole is what stood there
// before (a value, once decomposition climbs back to the frame: decomposition finds a
// value where it stands), which Plug replaces. A frame so costs no allocation: a
// decomposition from the root at every step pushes one per level of the closure.
type (
	// PrimLeft is prim op [] or prim op [] cl.
	PrimLeft Prim
	// PrimRight is prim op v []: Args[0] is the value v.
	PrimRight Prim
	// IfCond is if [] cl cl.
	IfCond If
	// AppFun is [] · cl.
	AppFun App
	// AppArg is v · []: Fun is the value v.
	AppArg App
	// CoerceArg is <c> [].
	CoerceArg Coerce
	// LetBound is let x:T = [] in e[ρ].
	LetBound Let
)

// Plug puts cl in the hole: prim op cl (cl2).
func (f *PrimLeft) Plug(cl Closure) Closure {
	if len(f.Args) == 2 {
		return newPrim(f.P, f.Op, cl, f.Args[1])
	}
	return newPrim(f.P, f.Op, cl, nil)
}

// Plug puts cl in the hole: prim op v cl.
func (f *PrimRight) Plug(cl Closure) Closure { return newPrim(f.P, f.Op, f.Args[0], cl) }

// Plug puts cl in the hole: if cl cl1 cl2.
func (f *IfCond) Plug(cl Closure) Closure { return &If{P: f.P, Cond: cl, Then: f.Then, Else: f.Else} }

// Plug puts cl in the hole: cl · cl2.
func (f *AppFun) Plug(cl Closure) Closure { return &App{P: f.P, Fun: cl, Arg: f.Arg} }

// Plug puts cl in the hole: v · cl.
func (f *AppArg) Plug(cl Closure) Closure { return &App{P: f.P, Fun: f.Fun, Arg: cl} }

// Plug puts cl in the hole: <c> cl.
func (f *CoerceArg) Plug(cl Closure) Closure {
	return &Coerce{P: f.P, C: f.C, X: cl}
}

// Plug puts cl in the hole: let x:T = cl in e[ρ].
func (f *LetBound) Plug(cl Closure) Closure {
	return &Let{P: f.P, Name: f.Name, T: f.T, Bound: cl, Body: f.Body, Env: f.Env}
}

// newPrim is prim op x (y nil) or prim op x y, its arguments stored with it: one
// allocation.
func newPrim(p Pos, op g.Op, x, y Closure) *Prim {
	n := &primNode{args: [2]Closure{x, y}}
	n.Prim = Prim{P: p, Op: op, Args: n.args[:1]}
	if y != nil {
		n.Args = n.args[:2]
	}
	return &n.Prim
}

// primNode is a Prim with the storage of its arguments.
type primNode struct {
	Prim
	args [2]Closure
}

// Context is a closure context, outermost frame first.
type Context []Frame

// Plug fills the hole.
func (E Context) Plug(cl Closure) Closure {
	for i := len(E) - 1; i >= 0; i-- {
		cl = E[i].Plug(cl)
	}
	return cl
}

// A redex of the calculus of closures: the closure in the hole of a context that the
// next step rewrites. A contraction's redexes are those of the reduction semantics
// (reduction.Beta, ...) over closures, one type per rule; an environment step's
// (expand, lookup) are the calculus's own, and are not contractions (docs/derivation.md): they rewrite e[ρ] where the reduction semantics has e itself.
type redex interface {
	// Rule is the name of the contraction (gradual/rules.go), or "" for an
	// environment step.
	Rule() string
	// Closure is the redex as a closure, as it stands in the context's hole.
	Closure() Closure
}

// The redexes, one per rule of the reduction semantics and per environment step.
type (
	// expand is e[ρ] for a composite term e that is not a letrec: the ephemeral
	// expansion of PEPM 2014, e.g. (e1 e2)[ρ] -> e1[ρ] · e2[ρ].
	expand struct{ clo *Clo }
	// lookup is x[ρ]: on-demand substitution, x[ρ] -> cl if (x ↦ cl) ∈ ρ.
	lookup struct {
		clo *Clo
		x   string
	}
	// beta is (\x:T. e)[ρ] · v: delayed β.
	beta struct {
		p   Pos
		fun *Clo
		lam *g.Lam
		arg Closure
	}
	// delta is prim op k[ρ] (or prim op k1[ρ] k2[ρ]).
	delta struct {
		p    Pos
		op   g.Op
		args []Closure
	}
	// ifRedex is if k[ρ] cl1 cl2.
	ifRedex struct {
		p         Pos
		cond      Closure
		k         bool
		then, els Closure
	}
	// coerced is <c> v, the shape of the cast rules' redexes.
	coerced struct {
		p Pos
		c g.Coercion
		x Closure
	}
	// stepCst is <c> v where c is not in normal form: the inner layer, as in
	// reduction.StepCst.
	stepCst struct {
		coerced
		cContext    contexts.Coercion
		cRule       string
		cContractum g.Coercion
	}
	// idCst is <id> v.
	idCst struct{ coerced }
	// cmpCst is <d> <c̄> s (x is the wrapped value <c̄> s, w).
	cmpCst struct {
		coerced
		w *Coerce
	}
	// appCst is (<c̃ -> d̃> s) · v.
	appCst struct {
		p   Pos
		w   *Coerce
		fc  *g.Func
		arg Closure
	}
	// failCst is <fail^l> s.
	failCst struct {
		coerced
		l g.Label
	}
	// failFC is <(c̃ -> d̃) ; fail^l> s.
	failFC struct {
		coerced
		l g.Label
	}
	// blameRedex is (blame l)[ρ] in a context that is not empty.
	blameRedex struct {
		clo *Clo
		l   g.Label
	}
	// letRedex is let x:T = v in e[ρ].
	letRedex struct {
		f *LetBound
		v Closure
	}
	// letrecRedex is (letrec f:T = \x:S. e in b)[ρ].
	letrecRedex struct {
		clo *Clo
		l   *g.Letrec
	}
	// mergeCst is <c> <d> cl, where <d> cl is not a value, in the merging mode.
	mergeCst struct {
		p     Pos
		c     g.Coercion
		inner *Coerce
	}
)

func (*expand) Rule() string      { return "" }
func (*lookup) Rule() string      { return "" }
func (*beta) Rule() string        { return g.RuleBeta }
func (*delta) Rule() string       { return g.RuleDelta }
func (*ifRedex) Rule() string     { return g.RuleIf }
func (r *stepCst) Rule() string   { return g.StepCst(r.cRule) }
func (*idCst) Rule() string       { return g.RuleIdCst }
func (*cmpCst) Rule() string      { return g.RuleCmpCst }
func (*appCst) Rule() string      { return g.RuleAppCst }
func (*failCst) Rule() string     { return g.RuleFailCst }
func (*failFC) Rule() string      { return g.RuleFailFC }
func (*blameRedex) Rule() string  { return g.RuleBlame }
func (*letRedex) Rule() string    { return g.RuleLet }
func (*letrecRedex) Rule() string { return g.RuleLetrec }
func (*mergeCst) Rule() string    { return g.RuleMergeCst }

func (r *expand) Closure() Closure      { return r.clo }
func (r *lookup) Closure() Closure      { return r.clo }
func (r *beta) Closure() Closure        { return &App{P: r.p, Fun: r.fun, Arg: r.arg} }
func (r *delta) Closure() Closure       { return &Prim{P: r.p, Op: r.op, Args: r.args} }
func (r *ifRedex) Closure() Closure     { return &If{P: r.p, Cond: r.cond, Then: r.then, Else: r.els} }
func (r *coerced) Closure() Closure     { return &Coerce{P: r.p, C: r.c, X: r.x} }
func (r *appCst) Closure() Closure      { return &App{P: r.p, Fun: r.w, Arg: r.arg} }
func (r *blameRedex) Closure() Closure  { return r.clo }
func (r *letRedex) Closure() Closure    { return r.f.Plug(r.v) }
func (r *letrecRedex) Closure() Closure { return r.clo }
func (r *mergeCst) Closure() Closure    { return &Coerce{P: r.p, C: r.c, X: r.inner} }

// envStep is the name of the environment step red is, or "" for a contraction.
func envStep(red redex) string {
	switch red.(type) {
	case *expand:
		return "expand"
	case *lookup:
		return "lookup"
	}
	return ""
}

// decomposition is the result of decomposing a closure: a context and the redex in
// its hole, or, when redex is nil, an answer: the closure is a value, or blame l
// (blamed, with l in label).
type decomposition struct {
	context Context
	redex   redex
	blamed  bool
	label   g.Label
}

// answer is the answer the closure cl is, as decomposed by d: blame l, or its
// read-back.
func (d decomposition) answer(cl Closure) g.Answer {
	if d.blamed {
		return g.Answer{Blamed: true, Blame: d.label}
	}
	return g.Answer{Value: Sigma(cl)}
}

// Calculus is the calculus of closures of λ⟨·⟩ under a cast semantics, merging
// pending coercions or not (interderive.Merging; the merging mode is that of the
// reduction semantics, see reduction.Cast). Its functions are the reduction
// semantics' (reduction.Cast), over closures: decompose (decomposeTerm and
// decomposeContext), contract, plug and iterate; they differ from those only by the
// environments: a closure e[ρ] of a composite term or a variable is the redex of an
// environment step (expand, lookup), which is not a contraction, and beta, Let and
// Letrec extend ρ instead of substituting.
type Calculus struct {
	Sem   g.Semantics
	Merge bool
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ as the closure e[ε] and reads
// the answer back. It does not merge pending coercions unless opts.Merging says so.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return Calculus{Sem: sem, Merge: opts.Merging.Merge(false)}.iterate(&Clo{E: e}, opts)
}

// Gradual is the calculus of closures of the gradual calculi (gradual.StageOf).
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}

// decompose splits cl into a closure context and a redex, or finds it an answer:
// decomposeTerm descends from the root until it meets a value (or a redex on the way
// down), decomposeContext climbs back with that value until it finds a redex, or a
// closure still to evaluate (and then decomposeTerm descends again). The context is
// built in E, empty: its storage is the caller's to give (iterate gives that of the
// previous step's context, which plug has used up).
func (c Calculus) decompose(E Context, cl Closure) (decomposition, error) {
	for {
		val, d, err := c.decomposeTerm(&E, cl)
		if val == nil {
			return d, err
		}
		if cl, d, err = c.decomposeContext(&E, val); cl == nil {
			return d, err
		}
	}
}

// decomposeTerm descends into cl, pushing frames onto E, and returns the value it
// meets (or, for a redex or answer found on the way down, the final decomposition).
// A closure e[ρ] whose term is not a value is the redex of an environment step, or of
// Letrec or Blame.
func (c Calculus) decomposeTerm(E *Context, cl Closure) (Closure, decomposition, error) {
	found := func(red redex) (Closure, decomposition, error) {
		return nil, decomposition{context: *E, redex: red}, nil
	}
	for {
		switch t := cl.(type) {
		case *Clo:
			switch e := t.E.(type) {
			case *g.IntLit, *g.BoolLit, *g.Lam:
				return t, decomposition{}, nil
			case *g.Var:
				return found(&lookup{clo: t, x: e.Name})
			case *g.Unary, *g.Binary, *g.If, *g.App, *g.Coerce, *g.Let:
				return found(&expand{clo: t})
			case *g.Letrec:
				return found(&letrecRedex{clo: t, l: e})
			case *g.Blame:
				if len(*E) == 0 {
					return nil, decomposition{blamed: true, label: e.L}, nil
				}
				return found(&blameRedex{clo: t, l: e.L})
			default:
				return nil, decomposition{}, interderive.Stuck("", "cannot decompose %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown))
			}
		case *Prim:
			*E = append(*E, (*PrimLeft)(t))
			cl = t.Args[0]
		case *If:
			*E = append(*E, (*IfCond)(t))
			cl = t.Cond
		case *App:
			*E = append(*E, (*AppFun)(t))
			cl = t.Fun
		case *Coerce:
			if c.Merge {
				if d, ok := c.pending(E, t); ok {
					return nil, d, nil
				}
			}
			*E = append(*E, (*CoerceArg)(t))
			cl = t.X
		case *Let:
			*E = append(*E, (*LetBound)(t))
			cl = t.Bound
		default:
			return nil, decomposition{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// pending finds the merging mode's redexes at <d> cl on the way down: StepCst while d
// is not normal; then MergeCst when the innermost frame is a pending <c> [] and
// <d> cl is not a value.
func (c Calculus) pending(E *Context, cl *Coerce) (decomposition, bool) {
	if C, _, rule, contractum, ok := contexts.DecomposeCoercion(c.Sem, cl.C); ok {
		return decomposition{context: *E, redex: &stepCst{coerced: coerced{p: cl.P, c: cl.C, x: cl.X}, cContext: C, cRule: rule, cContractum: contractum}}, true
	}
	if n := len(*E); n > 0 {
		if top, ok := (*E)[n-1].(*CoerceArg); ok && !c.isValue(cl) {
			*E = (*E)[:n-1]
			return decomposition{context: *E, redex: &mergeCst{p: top.P, c: top.C, inner: cl}}, true
		}
	}
	return decomposition{}, false
}

// isValue reports whether <d> cl reads back to a value <c̄> s: cl a simple value
// closure, or a variable closure bound to one, and d a normal wrapper.
func (c Calculus) isValue(cl *Coerce) bool {
	x, ok := cl.X.(*Clo)
	if !ok {
		return false
	}
	switch e := x.E.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
	case *g.Var:
		bound, ok := x.Env.Lookup(e.Name)
		if c, isClo := bound.(*Clo); !ok || !isClo || !simple(c) {
			return false
		}
	default:
		return false
	}
	return g.IsWrapperShape(cl.C) && g.IsNormal(c.Sem, cl.C)
}

// simple reports whether a closure is a simple value k[ρ] or (\x:T. e)[ρ].
func simple(c *Clo) bool {
	switch c.E.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
		return true
	}
	return false
}

// decomposeContext climbs out of E with the value val until it finds a redex or the
// empty context (an answer), or a closure still to be evaluated, which it returns
// with the frame that waits for it pushed onto E.
func (c Calculus) decomposeContext(E *Context, val Closure) (Closure, decomposition, error) {
	for {
		if len(*E) == 0 {
			return nil, decomposition{}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		found := func(red redex) (Closure, decomposition, error) {
			return nil, decomposition{context: *E, redex: red}, nil
		}
		// val is the closure that stands in the frame's hole (a frame is the closure
		// around it): the frames take it from there.
		switch f := frame.(type) {
		case *PrimLeft:
			if len(f.Args) == 2 {
				*E = append(*E, (*PrimRight)(f))
				return f.Args[1], decomposition{}, nil
			}
			return found(&delta{p: f.P, op: f.Op, args: f.Args})
		case *PrimRight:
			return found(&delta{p: f.P, op: f.Op, args: f.Args})
		case *IfCond:
			k, ok := constant(val).(*g.BoolLit)
			if !ok {
				return nil, decomposition{}, interderive.Stuck("", "if on a non-boolean")
			}
			return found(&ifRedex{p: f.P, cond: val, k: k.B, then: f.Then, els: f.Else})
		case *AppFun:
			*E = append(*E, (*AppArg)(f))
			return f.Arg, decomposition{}, nil
		case *AppArg:
			if fun, ok := f.Fun.(*Clo); ok {
				if lam, ok := fun.E.(*g.Lam); ok {
					return found(&beta{p: f.P, fun: fun, lam: lam, arg: val})
				}
			}
			if w, ok := f.Fun.(*Coerce); ok {
				if fc, ok := w.C.(*g.Func); ok {
					return found(&appCst{p: f.P, w: w, fc: fc, arg: val})
				}
			}
			return nil, decomposition{}, interderive.Stuck("", "application of a non-function")
		case *CoerceArg:
			here := coerced{p: f.P, c: f.C, x: val}
			if w, ok := val.(*Coerce); ok { // val = <c̄> s
				if _, id := f.C.(g.IdC); id {
					return found(&idCst{here})
				}
				return found(&cmpCst{coerced: here, w: w})
			}
			// val is a simple value s: the inner layer decides.
			if C, _, rule, contractum, ok := contexts.DecomposeCoercion(c.Sem, f.C); ok {
				return found(&stepCst{coerced: here, cContext: C, cRule: rule, cContractum: contractum})
			}
			switch co := f.C.(type) {
			case g.IdC:
				return found(&idCst{here})
			case *g.Fail:
				return found(&failCst{coerced: here, l: co.L})
			}
			if l, ok := g.IsFailingWrapper(f.C); ok {
				return found(&failFC{coerced: here, l: l})
			}
			if !g.IsWrapperShape(f.C) {
				return nil, decomposition{}, interderive.Stuck("", "coercion %s cannot apply to a simple value", g.FormatCoercion(f.C))
			}
			val = (*Coerce)(f) // <c̄> s is a value: keep climbing
		case *LetBound:
			return found(&letRedex{f: f, v: val})
		default:
			return nil, decomposition{}, interderive.Stuck("", "unknown frame %T", frame)
		}
	}
}

// contract is the contraction of a redex: the rule of the reduction semantics, over
// closures (PEPM 2014's λρ⟨·⟩), or the environment step. beta, Let and Letrec bind
// in the environment where the reduction semantics substitutes, and the contractum
// of δ, FailCst, FailFC and Blame is closed by the empty environment.
func (c Calculus) contract(red redex) (Closure, error) {
	switch r := red.(type) {
	case *expand:
		rho := r.clo.Env
		switch e := r.clo.E.(type) {
		case *g.Unary: // (op e)[ρ] -> prim op e[ρ]
			return newPrim(e.P, e.Op, &Clo{e.X, rho}, nil), nil
		case *g.Binary:
			return newPrim(e.P, e.Op, &Clo{e.X, rho}, &Clo{e.Y, rho}), nil
		case *g.If: // (if e1 e2 e3)[ρ] -> if e1[ρ] e2[ρ] e3[ρ]
			return &If{P: e.P, Cond: &Clo{e.Cond, rho}, Then: &Clo{e.Then, rho}, Else: &Clo{e.Else, rho}}, nil
		case *g.App: // (e1 e2)[ρ] -> e1[ρ] · e2[ρ]
			return &App{P: e.P, Fun: &Clo{e.Fun, rho}, Arg: &Clo{e.Arg, rho}}, nil
		case *g.Coerce: // (<c> e)[ρ] -> <c> e[ρ]
			return &Coerce{P: e.P, C: e.C, X: &Clo{e.X, rho}}, nil
		case *g.Let:
			return &Let{P: e.P, Name: e.Name, T: e.T, Bound: &Clo{e.Bound, rho}, Body: e.Body, Env: rho}, nil
		}
	case *lookup: // x[ρ] -> cl if (x ↦ cl) ∈ ρ
		v, ok := r.clo.Env.Lookup(r.x)
		if !ok {
			return nil, interderive.Stuck("", "unbound variable %s", r.x)
		}
		return v, nil
	case *beta: // (\x:T. e)[ρ] · v -> e[(x ↦ v) : ρ]
		return &Clo{E: r.lam.Body, Env: r.fun.Env.Bind(r.lam.Param, r.arg)}, nil
	case *delta: // prim op k[ρ] -> δ(op, k)[ε]
		k, ok := g.Delta(r.p, r.op, constants(r.args)...)
		if !ok {
			return nil, interderive.Stuck("", "%s applied to a non-constant", r.op)
		}
		return &Clo{E: k}, nil
	case *ifRedex:
		if r.k {
			return r.then, nil
		}
		return r.els, nil
	case *stepCst:
		return &Coerce{P: r.p, C: r.cContext.Plug(r.cContractum), X: r.x}, nil
	case *idCst:
		return r.x, nil
	case *cmpCst:
		return &Coerce{P: r.p, C: g.Then(r.w.C, r.c), X: r.w.X}, nil
	case *appCst: // <d̃> (s · <c̃> v)
		return &Coerce{P: r.p, C: r.fc.Cod, X: &App{P: r.p, Fun: r.w.X, Arg: &Coerce{P: r.p, C: r.fc.Dom, X: r.arg}}}, nil
	case *failCst:
		return &Clo{E: &g.Blame{L: r.l}}, nil
	case *failFC:
		return &Clo{E: &g.Blame{L: r.l}}, nil
	case *blameRedex:
		return &Clo{E: &g.Blame{L: r.l}}, nil
	case *letRedex: // let x:T = v in e[ρ] -> e[(x ↦ v) : ρ]
		return &Clo{E: r.f.Body, Env: r.f.Env.Bind(r.f.Name, r.v)}, nil
	case *letrecRedex: // b[(f ↦ (\x:S. letrec f = \x:S. e in e)[ρ]) : ρ]
		rho := r.clo.Env
		return &Clo{E: r.l.Body, Env: rho.Bind(r.l.Name, &Clo{E: g.Unfold(r.l), Env: rho})}, nil
	case *mergeCst:
		return &Coerce{P: r.p, C: g.Then(r.inner.C, r.c), X: r.inner.X}, nil
	}
	return nil, interderive.Stuck("", "unknown redex %T", red)
}

// plug puts the contractum back into the context of the decomposition d: E[contractum].
// The Blame rule discards its context.
func (Calculus) plug(d decomposition, contractum Closure) Closure {
	if _, ok := d.redex.(*blameRedex); ok {
		return contractum
	}
	return d.context.Plug(contractum)
}

// iterate is evaluation, as the reduction semantics' (reduction.Cast): decompose the
// whole closure into a context and a redex, contract the redex, plug the contractum
// back into the context, and again from the root, until the closure is an answer. A
// contraction spends one unit of fuel and goes to opts.OnContract; an environment
// step is not a contraction, and counts only towards looking at the time and memory
// budgets (envSteps). An observer (opts.Observer) sees each step, with its contractum,
// before it is taken.
func (c Calculus) iterate(cl Closure, opts interderive.Options) (g.Answer, error) {
	fuel := interderive.NewCounter(opts)
	show := newCastShow(opts, fuel)
	var env envSteps
	var E Context // the storage of each step's context
	for {
		d, err := c.decompose(E[:0], cl)
		if err != nil {
			return g.Answer{}, err
		}
		// The frames of the step before that this step's context did not overwrite are
		// garbage: they are cleared, not to keep their closures alive.
		if n := len(d.context); n < len(E) {
			clear(E[n:len(E):len(E)])
		}
		E = d.context
		if d.redex == nil {
			return d.answer(cl), nil
		}
		contractum, err := c.contract(d.redex)
		if err != nil {
			return g.Answer{}, err
		}
		if err := show.step(d, contractum); err != nil {
			return g.Answer{}, err
		}
		if rule := d.redex.Rule(); rule != "" {
			if err := fuel.Contract(rule); err != nil {
				return g.Answer{}, err
			}
		} else if err := env.step(fuel); err != nil {
			return g.Answer{}, err
		}
		cl = c.plug(d, contractum)
	}
}

// Step is one step of the calculus, as Calculus.Decompose finds it: a contraction
// (Rule is its event name) or an environment step (Rule is empty, Env names it), or
// the end of the run (Done).
type Step struct {
	Context    Context
	Redex      Closure
	Rule       string // the contraction's rule, or "" for an environment step
	Env        string // the environment step: "expand", "lookup" (empty for contractions)
	Contractum Closure
	Discard    bool // Blame: the contractum replaces the whole closure
	Blamed     bool // the closure is the answer blame l (Label)
	Label      g.Label
	Done       bool // the closure is an answer
}

// Next is the closure after the step.
func (st Step) Next() Closure {
	if st.Discard {
		return st.Contractum
	}
	return st.Context.Plug(st.Contractum)
}

// Decompose finds the next step of a closure and its contractum (decompose, then
// contract), for a caller that takes the steps one at a time.
func (c Calculus) Decompose(cl Closure) (Step, error) {
	d, err := c.decompose(nil, cl)
	if err != nil {
		return Step{}, err
	}
	if d.redex == nil {
		return Step{Done: true, Blamed: d.blamed, Label: d.label}, nil
	}
	contractum, err := c.contract(d.redex)
	if err != nil {
		return Step{}, err
	}
	_, discard := d.redex.(*blameRedex)
	return Step{Context: d.context, Redex: d.redex.Closure(), Rule: d.redex.Rule(), Env: envStep(d.redex), Contractum: contractum, Discard: discard}, nil
}

// constant is the constant of a value closure k[ρ], or nil.
func constant(cl Closure) g.Expr {
	if c, ok := cl.(*Clo); ok {
		switch c.E.(type) {
		case *g.IntLit, *g.BoolLit:
			return c.E
		}
	}
	return nil
}

func constants(cls []Closure) []g.Expr {
	ks := make([]g.Expr, len(cls))
	for i, cl := range cls {
		ks[i] = constant(cl)
	}
	return ks
}
