package closures

import (
	"strings"

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

// Sigma is the read-back σ: it turns a closure into a term by substituting the
// environments: e[ρ] reads back as e with the values of its free variables (their
// innermost bindings in ρ) read back and substituted. Closures nest as deep as the run
// made them (a value closed over a value closed over ...), so Sigma keeps the closures
// still to read back in a stack of its own rather than Go's, and reads a closure that
// several environments hold back once.
func Sigma(cl Closure) g.Expr {
	s := sigma{terms: map[Closure]g.Expr{}, fvs: map[g.Expr]map[string]bool{}}
	return s.read(cl)
}

// sigma is Sigma's state: the closures read back so far, and the free variables of
// the terms of their e[ρ].
type sigma struct {
	terms map[Closure]g.Expr
	fvs   map[g.Expr]map[string]bool
}

// binding is a free variable of a term and the closure its innermost binding holds.
type binding struct {
	name string
	cl   Closure
}

// bindings are the innermost bindings in ρ of the free variables of e, but bound.
func (s *sigma) bindings(e g.Expr, rho *Env, bound string) []binding {
	fv, ok := s.fvs[e]
	if !ok {
		fv = g.FreeVars(e)
		s.fvs[e] = fv
	}
	var bs []binding
	seen := map[string]bool{bound: true}
	for ; rho != nil && len(seen) <= len(fv); rho = rho.Next {
		if fv[rho.Name] && !seen[rho.Name] {
			seen[rho.Name] = true
			bs = append(bs, binding{rho.Name, rho.Cl})
		}
	}
	return bs
}

// parts are the closures cl's read-back is made of: its subclosures, and for e[ρ] and
// a let's body the closures bound to the free variables of the term.
func (s *sigma) parts(cl Closure) ([]Closure, []binding) {
	switch cl := cl.(type) {
	case *Clo:
		return nil, s.bindings(cl.E, cl.Env, "")
	case *Prim:
		return cl.Args, nil
	case *If:
		return []Closure{cl.Cond, cl.Then, cl.Else}, nil
	case *App:
		return []Closure{cl.Fun, cl.Arg}, nil
	case *Coerce:
		return []Closure{cl.X}, nil
	case *Let:
		// The body's environment does not bind x, which the let binds.
		return []Closure{cl.Bound}, s.bindings(cl.Body, cl.Env, cl.Name)
	}
	return nil, nil
}

// read reads back root, and first every closure its read-back is made of: depth
// first, each once, with a stack of its own.
func (s *sigma) read(root Closure) g.Expr {
	type frame struct {
		cl       Closure
		kids     []Closure
		bindings []binding
		visited  bool
	}
	stack := []frame{{cl: root}}
	visiting := map[Closure]bool{} // on the stack, waiting for its parts
	push := func(cl Closure) {
		if !visiting[cl] { // (closures hold no cycle; but if one did, it would end here)
			stack = append(stack, frame{cl: cl})
		}
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if _, done := s.terms[top.cl]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.visited {
			top.visited = true
			visiting[top.cl] = true
			top.kids, top.bindings = s.parts(top.cl)
			kids, bindings := top.kids, top.bindings
			for _, c := range kids {
				push(c)
			}
			for _, b := range bindings {
				push(b.cl)
			}
			continue
		}
		s.terms[top.cl] = s.build(top.cl, top.bindings)
		stack = stack[:len(stack)-1]
	}
	return s.terms[root]
}

// build is the read-back of cl, whose parts have been read back.
func (s *sigma) build(cl Closure, bs []binding) g.Expr {
	sub := func(e g.Expr) g.Expr {
		m := make(map[string]g.Expr, len(bs))
		for _, b := range bs {
			m[b.name] = s.terms[b.cl]
		}
		return g.SubstAll(e, m)
	}
	switch cl := cl.(type) {
	case *Clo:
		return sub(cl.E)
	case *Prim:
		if len(cl.Args) == 2 {
			return &g.Binary{P: cl.P, Op: cl.Op, X: s.terms[cl.Args[0]], Y: s.terms[cl.Args[1]]}
		}
		return &g.Unary{P: cl.P, Op: cl.Op, X: s.terms[cl.Args[0]]}
	case *If:
		return &g.If{P: cl.P, Cond: s.terms[cl.Cond], Then: s.terms[cl.Then], Else: s.terms[cl.Else]}
	case *App:
		return &g.App{P: cl.P, Fun: s.terms[cl.Fun], Arg: s.terms[cl.Arg]}
	case *Coerce:
		return &g.Coerce{P: cl.P, C: cl.C, X: s.terms[cl.X]}
	case *Let:
		return &g.Let{P: cl.P, Name: cl.Name, T: cl.T, Bound: s.terms[cl.Bound], Body: sub(cl.Body)}
	}
	return nil
}

// Frame is a frame of a closure context.
type Frame interface {
	// Plug puts a closure in the frame's hole.
	Plug(cl Closure) Closure
}

// The frames of the closure contexts, one per evaluation position.
type (
	// PrimArg is prim op cl... [] cl...: Done are the arguments already values.
	PrimArg struct {
		P    Pos
		Op   g.Op
		Done []Closure
		Rest []Closure
	}
	// IfCond is if [] cl cl.
	IfCond struct {
		P          Pos
		Then, Else Closure
	}
	// AppFun is [] · cl.
	AppFun struct {
		P   Pos
		Arg Closure
	}
	// AppArg is v · [].
	AppArg struct {
		P   Pos
		Fun Closure
	}
	// CoerceArg is <c> [].
	CoerceArg struct {
		P Pos
		C g.Coercion
	}
	// LetBound is let x:T = [] in e[ρ].
	LetBound struct {
		P    Pos
		Name string
		T    g.Type
		Body g.Expr
		Env  *Env
	}
)

func (f *PrimArg) Plug(cl Closure) Closure {
	args := append(append(append([]Closure(nil), f.Done...), cl), f.Rest...)
	return &Prim{P: f.P, Op: f.Op, Args: args}
}
func (f *IfCond) Plug(cl Closure) Closure { return &If{P: f.P, Cond: cl, Then: f.Then, Else: f.Else} }
func (f *AppFun) Plug(cl Closure) Closure { return &App{P: f.P, Fun: cl, Arg: f.Arg} }
func (f *AppArg) Plug(cl Closure) Closure { return &App{P: f.P, Fun: f.Fun, Arg: cl} }
func (f *CoerceArg) Plug(cl Closure) Closure {
	return &Coerce{P: f.P, C: f.C, X: cl}
}
func (f *LetBound) Plug(cl Closure) Closure {
	return &Let{P: f.P, Name: f.Name, T: f.T, Bound: cl, Body: f.Body, Env: f.Env}
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

// Step is one step of the calculus: a contraction (Rule is its event name) or an
// environment step (Rule is empty, Env names it).
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

// Calculus is the calculus of closures of λ⟨·⟩ under a cast semantics, merging
// pending coercions or not (interderive.Merging; the merging mode is that of the
// reduction semantics, see reduction.Cast).
type Calculus struct {
	Sem   g.Semantics
	Merge bool
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ as the closure e[ε] and reads
// the answer back. It does not merge pending coercions unless opts.Merging says so.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	calc := Calculus{Sem: sem, Merge: opts.Merging.Merge(false)}
	fuel := interderive.NewCounter(opts)
	show := newCastShow(opts, fuel)
	var env envSteps
	var cl Closure = &Clo{E: e}
	for {
		st, err := calc.Decompose(cl)
		if err != nil {
			return g.Answer{}, err
		}
		if st.Done {
			if st.Blamed {
				return g.Answer{Blamed: true, Blame: st.Label}, nil
			}
			return g.Answer{Value: Sigma(cl)}, nil
		}
		if err := show.step(st); err != nil {
			return g.Answer{}, err
		}
		if st.Rule != "" {
			if err := fuel.Contract(st.Rule); err != nil {
				return g.Answer{}, err
			}
		} else if err := env.step(fuel); err != nil {
			return g.Answer{}, err
		}
		cl = st.Next()
	}
}

// Gradual is the calculus of closures of the gradual calculi (gradual.StageOf).
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}

// Next is the closure after the step.
func (st Step) Next() Closure {
	if st.Discard {
		return st.Contractum
	}
	return st.Context.Plug(st.Contractum)
}

// Decompose finds the next step of a closure: it descends from the root to the
// leftmost-innermost redex (a contraction or an environment step), climbing back with
// values, and contracts it.
func Decompose(sem g.Semantics, cl Closure) (Step, error) {
	return Calculus{Sem: sem}.Decompose(cl)
}

// Decompose is the package's Decompose in c's mode.
func (c Calculus) Decompose(cl Closure) (Step, error) {
	var E Context
	for {
		val, st, err := c.descend(&E, cl)
		if val == nil {
			return st, err
		}
		if cl, st, err = climb(c.Sem, &E, val); cl == nil {
			return st, err
		}
	}
}

// descend goes down the closure to a value (returned) or a redex (a final step).
func (calc Calculus) descend(E *Context, cl Closure) (Closure, Step, error) {
	found := func(redex Closure, rule, env string, contractum Closure) (Closure, Step, error) {
		return nil, Step{Context: *E, Redex: redex, Rule: rule, Env: env, Contractum: contractum}, nil
	}
	for {
		switch c := cl.(type) {
		case *Clo:
			rho := c.Env
			switch e := c.E.(type) {
			case *g.IntLit, *g.BoolLit, *g.Lam:
				return c, Step{}, nil
			case *g.Var:
				v, ok := rho.Lookup(e.Name)
				if !ok {
					return nil, Step{}, interderive.Stuck("", "unbound variable %s", e.Name)
				}
				return found(c, "", "lookup", v)
			case *g.Unary:
				return found(c, "", "expand", &Prim{P: e.P, Op: e.Op, Args: []Closure{&Clo{e.X, rho}}})
			case *g.Binary:
				return found(c, "", "expand", &Prim{P: e.P, Op: e.Op, Args: []Closure{&Clo{e.X, rho}, &Clo{e.Y, rho}}})
			case *g.If:
				return found(c, "", "expand", &If{P: e.P, Cond: &Clo{e.Cond, rho}, Then: &Clo{e.Then, rho}, Else: &Clo{e.Else, rho}})
			case *g.App:
				return found(c, "", "expand", &App{P: e.P, Fun: &Clo{e.Fun, rho}, Arg: &Clo{e.Arg, rho}})
			case *g.Coerce:
				return found(c, "", "expand", &Coerce{P: e.P, C: e.C, X: &Clo{e.X, rho}})
			case *g.Let:
				return found(c, "", "expand", &Let{P: e.P, Name: e.Name, T: e.T, Bound: &Clo{e.Bound, rho}, Body: e.Body, Env: rho})
			case *g.Letrec: // Letrec: b[(f ↦ (\x:S. letrec f = \x:S. e in e)[ρ]) : ρ]
				return found(c, "Letrec", "", &Clo{e.Body, rho.Bind(e.Name, &Clo{E: g.Unfold(e), Env: rho})})
			case *g.Blame:
				if len(*E) == 0 {
					return nil, Step{Done: true, Blamed: true, Label: e.L}, nil
				}
				st := Step{Context: *E, Redex: c, Rule: "Blame", Contractum: &Clo{E: &g.Blame{L: e.L}}, Discard: true}
				return nil, st, nil
			default:
				return nil, Step{}, interderive.Stuck("", "cannot decompose %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown))
			}
		case *Prim:
			*E = append(*E, &PrimArg{P: c.P, Op: c.Op, Rest: c.Args[1:]})
			cl = c.Args[0]
		case *If:
			*E = append(*E, &IfCond{P: c.P, Then: c.Then, Else: c.Else})
			cl = c.Cond
		case *App:
			*E = append(*E, &AppFun{P: c.P, Arg: c.Arg})
			cl = c.Fun
		case *Coerce:
			if calc.Merge {
				if st, ok := calc.pending(E, c); ok {
					return nil, st, nil
				}
			}
			*E = append(*E, &CoerceArg{P: c.P, C: c.C})
			cl = c.X
		case *Let:
			*E = append(*E, &LetBound{P: c.P, Name: c.Name, T: c.T, Body: c.Body, Env: c.Env})
			cl = c.Bound
		default:
			return nil, Step{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// pending finds the merging mode's redexes at <d> cl on the way down: StepCst while d
// is not normal; then MergeCst when the innermost frame is a pending <c> [] and
// <d> cl is not a value.
func (calc Calculus) pending(E *Context, cl *Coerce) (Step, bool) {
	if C, _, rule, contractum, ok := contexts.DecomposeCoercion(calc.Sem, cl.C); ok {
		return Step{Context: *E, Redex: cl, Rule: "StepCst/" + rule, Contractum: &Coerce{P: cl.P, C: C.Plug(contractum), X: cl.X}}, true
	}
	if n := len(*E); n > 0 {
		if top, ok := (*E)[n-1].(*CoerceArg); ok && !calc.isValue(cl) {
			*E = (*E)[:n-1]
			redex := top.Plug(cl)
			return Step{Context: *E, Redex: redex, Rule: "MergeCst", Contractum: &Coerce{P: top.P, C: g.Then(cl.C, top.C), X: cl.X}}, true
		}
	}
	return Step{}, false
}

// isValue reports whether <d> cl reads back to a value <c̄> s: cl a simple value
// closure, or a variable closure bound to one, and d a normal wrapper.
func (calc Calculus) isValue(cl *Coerce) bool {
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
	return g.IsWrapperShape(cl.C) && g.IsNormal(calc.Sem, cl.C)
}

// simple reports whether a closure is a simple value k[ρ] or (\x:T. e)[ρ].
func simple(c *Clo) bool {
	switch c.E.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
		return true
	}
	return false
}

// climb goes up the context with a value until a redex (a final step) or a closure
// still to be evaluated (returned).
func climb(sem g.Semantics, E *Context, val Closure) (Closure, Step, error) {
	for {
		if len(*E) == 0 {
			return nil, Step{Done: true}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		redex := frame.Plug(val)
		found := func(rule string, contractum Closure) (Closure, Step, error) {
			return nil, Step{Context: *E, Redex: redex, Rule: rule, Contractum: contractum}, nil
		}
		switch f := frame.(type) {
		case *PrimArg:
			if len(f.Rest) > 0 {
				*E = append(*E, &PrimArg{P: f.P, Op: f.Op, Done: append(append([]Closure(nil), f.Done...), val), Rest: f.Rest[1:]})
				return f.Rest[0], Step{}, nil
			}
			args := append(append([]g.Expr(nil), constants(f.Done)...), constant(val))
			k, ok := g.Delta(f.P, f.Op, args...)
			if !ok {
				return nil, Step{}, interderive.Stuck("", "%s applied to a non-constant", f.Op)
			}
			return found("delta", &Clo{E: k}) // δ(op, k)[ε]
		case *IfCond:
			k, ok := constant(val).(*g.BoolLit)
			if !ok {
				return nil, Step{}, interderive.Stuck("", "if on a non-boolean")
			}
			if k.B {
				return found("If", f.Then)
			}
			return found("If", f.Else)
		case *AppFun:
			*E = append(*E, &AppArg{P: f.P, Fun: val})
			return f.Arg, Step{}, nil
		case *AppArg:
			if c, ok := f.Fun.(*Clo); ok {
				if lam, ok := c.E.(*g.Lam); ok { // beta (delayed): e[(x ↦ v) : ρ]
					return found("beta", &Clo{E: lam.Body, Env: c.Env.Bind(lam.Param, val)})
				}
			}
			if w, ok := f.Fun.(*Coerce); ok {
				if fc, ok := w.C.(*g.Func); ok { // AppCst: <d̃> (s · <c̃> v)
					return found("AppCst", &Coerce{P: f.P, C: fc.Cod, X: &App{P: f.P, Fun: w.X, Arg: &Coerce{P: f.P, C: fc.Dom, X: val}}})
				}
			}
			return nil, Step{}, interderive.Stuck("", "application of a non-function")
		case *CoerceArg:
			if w, ok := val.(*Coerce); ok { // val = <c̄> s
				if _, id := f.C.(g.IdC); id {
					return found("IdCst", val)
				}
				return found("CmpCst", &Coerce{P: f.P, C: g.Then(w.C, f.C), X: w.X})
			}
			if C, _, rule, contractum, ok := contexts.DecomposeCoercion(sem, f.C); ok {
				return found("StepCst/"+rule, &Coerce{P: f.P, C: C.Plug(contractum), X: val})
			}
			switch c := f.C.(type) {
			case g.IdC:
				return found("IdCst", val)
			case *g.Fail:
				return found("FailCst", &Clo{E: &g.Blame{L: c.L}})
			}
			if l, ok := g.IsFailingWrapper(f.C); ok {
				return found("FailFC", &Clo{E: &g.Blame{L: l}})
			}
			if !g.IsWrapperShape(f.C) {
				return nil, Step{}, interderive.Stuck("", "coercion %s cannot apply to a simple value", g.FormatCoercion(f.C))
			}
			val = redex // <c̄> s is a value: keep climbing
		case *LetBound:
			return found("Let", &Clo{E: f.Body, Env: f.Env.Bind(f.Name, val)})
		default:
			return nil, Step{}, interderive.Stuck("", "unknown frame %T", frame)
		}
	}
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

// Format shows a closure for a person, as PEPM 2014 writes them: e[ρ], with ρ as
// {x ↦ cl, ...} (innermost binding first) or ε, and composite terms parenthesised.
func Format(cl Closure) string {
	switch cl := cl.(type) {
	case *Clo:
		env := "ε"
		if cl.Env != nil {
			var parts []string
			for rho := cl.Env; rho != nil; rho = rho.Next {
				parts = append(parts, rho.Name+" ↦ "+Format(rho.Cl))
			}
			env = "{" + strings.Join(parts, ", ") + "}"
		}
		switch cl.E.(type) {
		case *g.IntLit, *g.BoolLit, *g.Var, *g.Blame:
			return g.Format(cl.E) + "[" + env + "]"
		}
		return "(" + g.Format(cl.E) + ")[" + env + "]"
	case *Prim:
		args := make([]string, len(cl.Args))
		for i, a := range cl.Args {
			args[i] = Format(a)
		}
		return "prim " + cl.Op.String() + " " + strings.Join(args, " ")
	case *If:
		return "if " + Format(cl.Cond) + " " + Format(cl.Then) + " " + Format(cl.Else)
	case *App:
		return "(" + Format(cl.Fun) + ") · (" + Format(cl.Arg) + ")"
	case *Coerce:
		return "<" + g.FormatCoercion(cl.C) + "> " + Format(cl.X)
	case *Let:
		return "let " + cl.Name + " = " + Format(cl.Bound) + " in " + Format(&Clo{E: cl.Body, Env: cl.Env})
	}
	return "?"
}

// String prints the context with [] for its hole.
func (E Context) String() string {
	s := Format(E.Plug(&Clo{E: &g.Var{Name: contexts.Hole}}))
	return strings.Replace(s, contexts.Hole+"[ε]", contexts.Hole, 1)
}
