package closures

import (
	"errors"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// The calculus of closures of the language of reverse handlers: its reduction
// semantics (package reduction) over closures instead of substitution. Values are
// first-order (reals, (), tuples), so an environment binds variables to closed values:
//
//	ρ   ::= ε | (x ↦ V) : ρ
//	cl  ::= M[ρ] | V | cl + cl | op(cl) | let x = cl in N[ρ] | <cl, cl> | fst(cl)
//	      | snd(cl) | cl.rd[cl](x. N)[ρ]
//	ccl ::= P[ρ] | [cl] | Op(cl) | rev handle(cl) <x>. R with H | let x <= ccl in Q[ρ]
//	      | RH_H^V(<y>. P)                        (its V closed, its body closed but y)
//
// with the same decomposition (decomposeCmd, decomposeTerm, decomposeContext),
// contract, plug and iterate, and environment steps besides the contractions, which
// are administrative (they spend no fuel and are not contraction events):
//
//	lookup  x[ρ] ~> ρ(x)
//	expand  (M + N)[ρ] ~> M[ρ] + N[ρ], ..., (let x = M in N)[ρ] ~> let x = M[ρ] in N[ρ],
//	        (M.rd[L](x. N))[ρ] ~> M[ρ].rd[L[ρ]](x. N)[ρ], [M][ρ] ~> [M[ρ]], ...,
//	        (let x <= P in Q)[ρ] ~> let x <= P[ρ] in Q[ρ], RH^V(...)[ρ] ~> RH^{σ(V[ρ])}(...)
//
// Contractions: let x = V in N[ρ] -> N[(x ↦ V) : ρ] and let x <= [V] in Q[ρ] ->
// Q[(x ↦ V) : ρ] (delayed substitution); rd reads its body back (σ) for R; RH
// contracts by the shared clauses of Fig. 7 on its (environment-free) syntax.

// Handlers is the calculus of closures of the language (handlers.StageOf).
func (Stage) Handlers() handlers.Stage { return handlersCalculus{} }

// handlersCalculus is the calculus of closures.
type handlersCalculus struct{}

// hEnv is an environment ρ; nil is ε.
type hEnv struct {
	name string
	v    dpl.Term
	next *hEnv
}

func (rho *hEnv) bind(x string, v dpl.Term) *hEnv { return &hEnv{name: x, v: v, next: rho} }

func (rho *hEnv) lookup(x string) (dpl.Term, bool) {
	for ; rho != nil; rho = rho.next {
		if rho.name == x {
			return rho.v, true
		}
	}
	return nil, false
}

// except is ρ's lookup without the variables xs (bound around the term it reads).
func (rho *hEnv) except(xs ...string) func(string) (dpl.Term, bool) {
	return func(x string) (dpl.Term, bool) {
		for _, y := range xs {
			if x == y {
				return nil, false
			}
		}
		return rho.lookup(x)
	}
}

// Term closures.
type (
	hTerm interface{ isHTerm() }
	hClo  struct {
		m   dpl.Term
		env *hEnv
	}
	hVal    struct{ v dpl.Term }
	hPlusCl struct {
		p    dpl.Pos
		x, y hTerm
	}
	hOpCl struct {
		p   dpl.Pos
		op  *dpl.Operator
		arg hTerm
	}
	hLetCl struct {
		p     dpl.Pos
		name  string
		t     dpl.Type
		bound hTerm
		body  dpl.Term
		env   *hEnv
	}
	hPairCl struct {
		p    dpl.Pos
		x, y hTerm
		t, u dpl.Type
	}
	hProjCl struct {
		p    dpl.Pos
		fst  bool
		x    hTerm
		t, u dpl.Type
	}
	hRdCl struct {
		p       dpl.Pos
		cot, pt hTerm
		param   string
		t       dpl.Type
		body    dpl.Term
		env     *hEnv
	}
)

func (*hClo) isHTerm()    {}
func (*hVal) isHTerm()    {}
func (*hPlusCl) isHTerm() {}
func (*hOpCl) isHTerm()   {}
func (*hLetCl) isHTerm()  {}
func (*hPairCl) isHTerm() {}
func (*hProjCl) isHTerm() {}
func (*hRdCl) isHTerm()   {}

// Command closures.
type (
	hCmd    interface{ isHCmd() }
	hCmdClo struct {
		c   handlers.Cmd
		env *hEnv
	}
	hPureCl    struct{ m hTerm }
	hPerformCl struct {
		p    dpl.Pos
		kind handlers.OpKind
		name string
		arg  hTerm
	}
	hHandleCl struct {
		h   *handlers.Handle
		arg hTerm
	}
	hCLetCl struct {
		p     dpl.Pos
		name  string
		t     dpl.Type
		bound hCmd
		body  handlers.Cmd
		env   *hEnv
	}
	hRHCl struct{ rh *handlers.RH }
)

func (*hCmdClo) isHCmd()    {}
func (*hPureCl) isHCmd()    {}
func (*hPerformCl) isHCmd() {}
func (*hHandleCl) isHCmd()  {}
func (*hCLetCl) isHCmd()    {}
func (*hRHCl) isHCmd()      {}

// valueOf is the closed value a term closure is, if it is one.
func valueOf(t hTerm) (dpl.Term, bool) {
	switch t := t.(type) {
	case *hVal:
		return t.v, true
	case *hClo:
		if dpl.IsClosedValue(t.m) {
			return t.m, true
		}
	}
	return nil, false
}

// Frames: term frames plug a term closure into a term closure; the command frames
// with a term hole plug one into a command closure; command frames plug a command
// closure.
type (
	hTermFrame interface{ plug(hTerm) hTerm }
	hHoleFrame interface{ plug(hTerm) hCmd }
	hCmdFrame  interface{ plug(hCmd) hCmd }
)

type (
	hPlusL  struct{ cl *hPlusCl }
	hPlusR  struct{ cl *hPlusCl }
	hOpF    struct{ cl *hOpCl }
	hLetF   struct{ cl *hLetCl }
	hPairL  struct{ cl *hPairCl }
	hPairR  struct{ cl *hPairCl }
	hProjF  struct{ cl *hProjCl }
	hRdCotF struct{ cl *hRdCl }
	hRdPtF  struct{ cl *hRdCl }
)

func (f hPlusL) plug(t hTerm) hTerm  { c := *f.cl; c.x = t; return &c }
func (f hPlusR) plug(t hTerm) hTerm  { c := *f.cl; c.y = t; return &c }
func (f hOpF) plug(t hTerm) hTerm    { c := *f.cl; c.arg = t; return &c }
func (f hLetF) plug(t hTerm) hTerm   { c := *f.cl; c.bound = t; return &c }
func (f hPairL) plug(t hTerm) hTerm  { c := *f.cl; c.x = t; return &c }
func (f hPairR) plug(t hTerm) hTerm  { c := *f.cl; c.y = t; return &c }
func (f hProjF) plug(t hTerm) hTerm  { c := *f.cl; c.x = t; return &c }
func (f hRdCotF) plug(t hTerm) hTerm { c := *f.cl; c.cot = t; return &c }
func (f hRdPtF) plug(t hTerm) hTerm  { c := *f.cl; c.pt = t; return &c }

type (
	hPureHole    struct{}
	hPerformHole struct{ cl *hPerformCl }
	hHandleHole  struct{ cl *hHandleCl }
	hCLetF       struct{ cl *hCLetCl }
	hRHBodyF     struct {
		rh   *handlers.RH
		lets []*handlers.Let
	}
)

func (hPureHole) plug(t hTerm) hCmd      { return &hPureCl{m: t} }
func (f hPerformHole) plug(t hTerm) hCmd { c := *f.cl; c.arg = t; return &c }
func (f hHandleHole) plug(t hTerm) hCmd  { c := *f.cl; c.arg = t; return &c }
func (f hCLetF) plug(c hCmd) hCmd        { l := *f.cl; l.bound = c; return &l }

// plug of an RH body frame: the inner RH's contractum is syntax again (hRHCl or an
// environment-free closure), put back into the outer RH's body.
func (f hRHBodyF) plug(c hCmd) hCmd {
	rh := *f.rh
	rh.Body = handlers.PlugSpine(f.lets, sigmaCmd(c))
	return &hRHCl{rh: &rh}
}

// hContext is where a redex stands: command frames, and for a term redex the command
// frame with the term hole and the term frames.
type hContext struct {
	cmds  []hCmdFrame
	hole  hHoleFrame
	terms []hTermFrame
}

func (C *hContext) plugTerm(t hTerm) hCmd {
	for i := len(C.terms) - 1; i >= 0; i-- {
		t = C.terms[i].plug(t)
	}
	return C.plugCmd(C.hole.plug(t))
}

func (C *hContext) plugCmd(c hCmd) hCmd {
	for i := len(C.cmds) - 1; i >= 0; i-- {
		c = C.cmds[i].plug(c)
	}
	return c
}

// hFound is what a decomposition finds, from the root: an environment step (step
// non-empty: the closure at the hole and what replaces it), a contraction (rule
// non-empty: the redex as a closure of values), or an answer.
type hFound struct {
	C        hContext
	step     string // "lookup" or "expand"
	rule     string
	term     hTerm // the term closure at the hole (step) or the term redex
	cmd      hCmd  // the command closure at the hole (step) or the command redex
	replace  hTerm // an environment step's result, at a term hole
	replaceC hCmd  // an environment step's result, at a command hole
	lets     []*handlers.Let
	x        handlers.Cmd
	answer   dpl.Term
}

func hStuck(c hCmd, reason string) error {
	s, _ := handlers.FormatCmdBounded(sigmaCmd(c), interderive.PrintBudget{Max: interderive.MaxStuckShown})
	return interderive.Stuck(s, "%s", reason)
}

// decompose finds the next environment step or redex of the command closure c.
func (k handlersCalculus) decompose(c hCmd) (hFound, error) {
	for {
		f, restart, err := k.decomposeCmd(c)
		if restart == nil {
			return f, err
		}
		c = restart
	}
}

// decomposeCmd descends through the command closures; restart is the whole command
// again when a term at a hole turned out to be a value.
func (k handlersCalculus) decomposeCmd(root hCmd) (f hFound, restart hCmd, err error) {
	var C hContext
	c := root
	for {
		switch n := c.(type) {
		case *hCmdClo:
			return hFound{C: C, step: "expand", cmd: n, replaceC: expandCmd(n)}, nil, nil
		case *hCLetCl:
			C.cmds, c = append(C.cmds, hCLetF{cl: n}), n.bound
			continue
		case *hPureCl:
			v, ok := valueOf(n.m)
			if !ok {
				C.hole = hPureHole{}
				return k.decomposeTerm(C, n.m)
			}
			if len(C.cmds) == 0 {
				return hFound{answer: v}, nil, nil
			}
			if top, ok := C.cmds[len(C.cmds)-1].(hCLetF); ok {
				C.cmds = C.cmds[:len(C.cmds)-1]
				l := *top.cl
				l.bound = &hPureCl{m: &hVal{v: v}}
				return hFound{C: C, rule: handlers.RuleCLet, cmd: &l}, nil, nil
			}
			return hFound{}, nil, hStuck(C.plugCmd(n), "no rule applies")
		case *hPerformCl:
			if _, ok := valueOf(n.arg); !ok {
				C.hole = hPerformHole{cl: n}
				return k.decomposeTerm(C, n.arg)
			}
			switch n.kind {
			case handlers.GetOp:
				return hFound{C: C, rule: handlers.RuleGet, cmd: n}, nil, nil
			case handlers.PutOp:
				return hFound{C: C, rule: handlers.RulePut, cmd: n}, nil, nil
			}
			return hFound{}, nil, hStuck(C.plugCmd(n), "operation "+n.name+" is not handled")
		case *hHandleCl:
			if _, ok := valueOf(n.arg); !ok {
				C.hole = hHandleHole{cl: n}
				return k.decomposeTerm(C, n.arg)
			}
			return hFound{C: C, rule: handlers.RuleHandle, cmd: n}, nil, nil
		case *hRHCl:
			rule, lets, x := handlers.RHShape(n.rh)
			if rule == "" {
				C.cmds, c = append(C.cmds, hRHBodyF{rh: n.rh, lets: lets}), &hRHCl{rh: x.(*handlers.RH)}
				continue
			}
			return hFound{C: C, rule: rule, cmd: n, lets: lets, x: x}, nil, nil
		}
		return hFound{}, nil, hStuck(C.plugCmd(c), "no rule applies")
	}
}

// decomposeTerm descends into the term closure t at C's hole (decomposeTerm proper),
// and climbs back with the values it meets (decomposeContext).
func (k handlersCalculus) decomposeTerm(C hContext, t hTerm) (hFound, hCmd, error) {
	for {
		// Descend.
		var v dpl.Term
	descend:
		for {
			switch n := t.(type) {
			case *hVal:
				v = n.v
				break descend
			case *hClo:
				if dpl.IsClosedValue(n.m) {
					v = n.m
					break descend
				}
				if x, ok := n.m.(*dpl.Var); ok {
					val, ok := n.env.lookup(x.Name)
					if !ok {
						return hFound{}, nil, hStuck(C.plugTerm(t), "unbound variable "+x.Name)
					}
					return hFound{C: C, step: "lookup", term: n, replace: &hVal{v: val}}, nil, nil
				}
				e := expandTerm(n)
				if e == nil {
					return hFound{}, nil, hStuck(C.plugTerm(t), "no rule applies")
				}
				return hFound{C: C, step: "expand", term: n, replace: e}, nil, nil
			case *hPlusCl:
				C.terms, t = append(C.terms, hPlusL{cl: n}), n.x
			case *hOpCl:
				C.terms, t = append(C.terms, hOpF{cl: n}), n.arg
			case *hLetCl:
				C.terms, t = append(C.terms, hLetF{cl: n}), n.bound
			case *hPairCl:
				C.terms, t = append(C.terms, hPairL{cl: n}), n.x
			case *hProjCl:
				C.terms, t = append(C.terms, hProjF{cl: n}), n.x
			case *hRdCl: // the cotangent first (Def. 5.1)
				C.terms, t = append(C.terms, hRdCotF{cl: n}), n.cot
			default:
				return hFound{}, nil, hStuck(C.plugTerm(t), "no rule applies")
			}
		}
		// Climb.
		for {
			if len(C.terms) == 0 {
				return hFound{}, C.plugCmd(C.hole.plug(&hVal{v: v})), nil
			}
			fr := C.terms[len(C.terms)-1]
			C.terms = C.terms[:len(C.terms)-1]
			found := func(r hTerm, rule string) (hFound, hCmd, error) {
				return hFound{C: C, rule: rule, term: r}, nil, nil
			}
			switch f := fr.(type) {
			case hPlusL:
				c := *f.cl
				c.x = &hVal{v: v}
				C.terms, t = append(C.terms, hPlusR{cl: &c}), c.y
			case hPlusR:
				c := *f.cl
				c.y = &hVal{v: v}
				return found(&c, handlers.RulePlus)
			case hOpF:
				c := *f.cl
				c.arg = &hVal{v: v}
				return found(&c, handlers.RuleOp)
			case hLetF:
				c := *f.cl
				c.bound = &hVal{v: v}
				return found(&c, handlers.RuleLet)
			case hPairL:
				c := *f.cl
				c.x = &hVal{v: v}
				C.terms, t = append(C.terms, hPairR{cl: &c}), c.y
			case hPairR:
				x, _ := valueOf(f.cl.x)
				v = &dpl.Pair{P: f.cl.p, X: x, Y: v, T: f.cl.t, U: f.cl.u}
				continue
			case hProjF:
				c := *f.cl
				c.x = &hVal{v: v}
				if c.fst {
					return found(&c, handlers.RuleFst)
				}
				return found(&c, handlers.RuleSnd)
			case hRdCotF:
				c := *f.cl
				c.cot = &hVal{v: v}
				C.terms, t = append(C.terms, hRdPtF{cl: &c}), c.pt
			case hRdPtF:
				c := *f.cl
				c.pt = &hVal{v: v}
				return found(&c, handlers.RuleRd)
			}
			break
		}
	}
}

// expandTerm is the environment step of a compound term closure M[ρ].
func expandTerm(n *hClo) hTerm {
	cl := func(m dpl.Term) hTerm { return &hClo{m: m, env: n.env} }
	switch m := n.m.(type) {
	case *dpl.Plus:
		return &hPlusCl{p: m.P, x: cl(m.X), y: cl(m.Y)}
	case *dpl.OpApp:
		return &hOpCl{p: m.P, op: m.Op, arg: cl(m.Arg)}
	case *dpl.Let:
		return &hLetCl{p: m.P, name: m.Name, t: m.T, bound: cl(m.Bound), body: m.Body, env: n.env}
	case *dpl.Pair:
		return &hPairCl{p: m.P, x: cl(m.X), y: cl(m.Y), t: m.T, u: m.U}
	case *dpl.Fst:
		return &hProjCl{p: m.P, fst: true, x: cl(m.X), t: m.T, u: m.U}
	case *dpl.Snd:
		return &hProjCl{p: m.P, x: cl(m.X), t: m.T, u: m.U}
	case *dpl.Rd:
		return &hRdCl{p: m.P, cot: cl(m.Cotangent), pt: cl(m.Point), param: m.Param, t: m.T, body: m.Body, env: n.env}
	}
	return nil
}

// expandCmd is the environment step of a command closure P[ρ].
func expandCmd(n *hCmdClo) hCmd {
	cl := func(m dpl.Term) hTerm { return &hClo{m: m, env: n.env} }
	switch c := n.c.(type) {
	case *handlers.Pure:
		return &hPureCl{m: cl(c.M)}
	case *handlers.Perform:
		return &hPerformCl{p: c.P, kind: c.Kind, name: c.Name, arg: cl(c.Arg)}
	case *handlers.Handle:
		return &hHandleCl{h: c, arg: cl(c.Arg)}
	case *handlers.Let:
		return &hCLetCl{p: c.P, name: c.Name, t: c.T, bound: &hCmdClo{c: c.Bound, env: n.env}, body: c.Body, env: n.env}
	case *handlers.RH:
		if n.env == nil {
			return &hRHCl{rh: c}
		}
		rh := *c
		rh.Vals = make([]dpl.Term, len(c.Vals))
		for i, v := range c.Vals {
			rh.Vals[i] = dpl.SubstValues(v, n.env.lookup)
		}
		return &hRHCl{rh: &rh}
	}
	return &hRHCl{} // unreachable for a well-formed command
}

// sigmaTerm reads a term closure back: its environments substituted.
func sigmaTerm(t hTerm) dpl.Term {
	switch n := t.(type) {
	case *hVal:
		return n.v
	case *hClo:
		if n.env == nil {
			return n.m
		}
		return dpl.SubstValues(n.m, n.env.lookup)
	case *hPlusCl:
		return &dpl.Plus{P: n.p, X: sigmaTerm(n.x), Y: sigmaTerm(n.y)}
	case *hOpCl:
		return &dpl.OpApp{P: n.p, Op: n.op, Arg: sigmaTerm(n.arg)}
	case *hLetCl:
		return &dpl.Let{P: n.p, Name: n.name, T: n.t, Bound: sigmaTerm(n.bound), Body: dpl.SubstValues(n.body, n.env.except(n.name))}
	case *hPairCl:
		return &dpl.Pair{P: n.p, X: sigmaTerm(n.x), Y: sigmaTerm(n.y), T: n.t, U: n.u}
	case *hProjCl:
		if n.fst {
			return &dpl.Fst{P: n.p, X: sigmaTerm(n.x), T: n.t, U: n.u}
		}
		return &dpl.Snd{P: n.p, X: sigmaTerm(n.x), T: n.t, U: n.u}
	case *hRdCl:
		return &dpl.Rd{P: n.p, Cotangent: sigmaTerm(n.cot), Point: sigmaTerm(n.pt), Param: n.param, T: n.t,
			Body: dpl.SubstValues(n.body, n.env.except(n.param))}
	}
	return nil
}

// substEnv is the command c with the environment's values substituted for its free
// variables (but xs, bound around it).
func substEnv(c handlers.Cmd, env *hEnv, xs ...string) handlers.Cmd {
	seen := map[string]bool{}
	for _, x := range xs {
		seen[x] = true
	}
	for e := env; e != nil; e = e.next {
		if seen[e.name] {
			continue
		}
		seen[e.name] = true
		c = handlers.Subst(c, e.name, e.v, &dpl.Names{})
	}
	return c
}

// sigmaCmd reads a command closure back.
func sigmaCmd(c hCmd) handlers.Cmd {
	switch n := c.(type) {
	case *hCmdClo:
		return substEnv(n.c, n.env)
	case *hPureCl:
		return &handlers.Pure{M: sigmaTerm(n.m)}
	case *hPerformCl:
		return &handlers.Perform{P: n.p, Kind: n.kind, Name: n.name, Arg: sigmaTerm(n.arg)}
	case *hHandleCl:
		h := *n.h
		h.Arg = sigmaTerm(n.arg)
		return &h
	case *hCLetCl:
		return &handlers.Let{P: n.p, Name: n.name, T: n.t, Bound: sigmaCmd(n.bound), Body: substEnv(n.body, n.env, n.name)}
	case *hRHCl:
		return n.rh
	}
	return nil
}

// handlersClosuresRun is what a run carries.
type handlersClosuresRun struct {
	ad    dpl.Differentiator
	heap  []handlers.Cell
	env   handlers.RHEnv
	fuel  *interderive.Counter
	limit int
}

// contract contracts the redex f found: the closure that replaces it.
func (handlersCalculus) contract(run *handlersClosuresRun, f hFound) (hTerm, hCmd, error) {
	if f.term != nil {
		switch r := f.term.(type) {
		case *hPlusCl: // r1 + r2 -> r1 +_β r2
			x, _ := valueOf(r.x)
			y, _ := valueOf(r.y)
			v, err := dpl.AddReals(x, y)
			return &hVal{v: v}, nil, err
		case *hOpCl: // f(V) -> Ev(f, V)
			x, _ := valueOf(r.arg)
			v, err := dpl.Ev(r.op, x)
			return &hVal{v: v}, nil, err
		case *hProjCl: // proj_i(<V1, V2>) -> V_i
			x, _ := valueOf(r.x)
			p, ok := x.(*dpl.Pair)
			if !ok {
				return nil, nil, errors.New("a projection of " + dpl.Format(x))
			}
			if r.fst {
				return &hVal{v: p.X}, nil, nil
			}
			return &hVal{v: p.Y}, nil, nil
		case *hLetCl: // let x = V in N[ρ] -> N[(x ↦ V) : ρ]
			x, _ := valueOf(r.bound)
			return &hClo{m: r.body, env: r.env.bind(r.name, x)}, nil, nil
		case *hRdCl: // W.rd[V](x:T. N)[ρ] -> W.R_V(x:T. σ(N[ρ]))
			w, _ := valueOf(r.cot)
			v, _ := valueOf(r.pt)
			body := dpl.SubstValues(r.body, r.env.except(r.param))
			budget := 0
			if run.limit > 0 {
				budget = run.limit - run.fuel.Steps()
			}
			d, err := handlers.Derivative(run.ad, w, v, r.param, r.t, body, run.fuel.Steps(), budget)
			return &hClo{m: d}, nil, err
		}
	}
	switch r := f.cmd.(type) {
	case *hCLetCl: // let x <= [V] in Q[ρ] -> Q[(x ↦ V) : ρ]
		v, _ := valueOf(r.bound.(*hPureCl).m)
		return nil, &hCmdClo{c: r.body, env: r.env.bind(r.name, v)}, nil
	case *hHandleCl: // rev handle(V) <x>. R with H -> RH_H^V(<x>. R)
		v, _ := valueOf(r.arg)
		h := r.h
		return nil, &hRHCl{rh: &handlers.RH{P: h.P, H: h.H, Vals: handlers.Projections(v, len(h.Vars)), Vars: h.Vars, Types: h.Types, Body: h.Body}}, nil
	case *hPerformCl: // the heap
		v, _ := valueOf(r.arg)
		for i := range run.heap {
			if run.heap[i].Name != r.name {
				continue
			}
			if r.kind == handlers.GetOp {
				return nil, &hPureCl{m: &hVal{v: run.heap[i].Value}}, nil
			}
			run.heap[i].Value = v
			return nil, &hPureCl{m: &hVal{v: &dpl.UnitLit{P: r.p}}}, nil
		}
		return nil, nil, errors.New("no heap location " + r.name)
	case *hRHCl: // one clause of Fig. 7
		c, err := handlers.ContractRH(run.env, r.rh, f.rule, f.lets, f.x)
		if err != nil {
			return nil, nil, err
		}
		return nil, &hCmdClo{c: c}, nil
	}
	return nil, nil, errors.New("unknown redex")
}

// plug puts an environment step's result or a contractum back at the hole.
func (handlersCalculus) plug(f hFound, t hTerm, c hCmd) hCmd {
	if t != nil {
		return f.C.plugTerm(t)
	}
	return f.C.plugCmd(c)
}

// Eval runs a checked program to its answer (iterate).
func (k handlersCalculus) Eval(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	return k.iterate(ad, prog, opts)
}

// iterate decomposes from the root, takes the environment step or contracts the
// redex, plugs, and again, until the command is [V].
func (k handlersCalculus) iterate(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	run := &handlersClosuresRun{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(opts),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}}
	if opts.Fuel > 0 {
		run.limit = opts.Fuel
	}
	show := newHandlersClosuresShow(opts, run.fuel)
	var steps envSteps
	var c hCmd = &hCmdClo{c: prog.Body}
	for {
		f, err := k.decompose(c)
		if err != nil {
			return handlers.Answer{}, err
		}
		if f.answer != nil {
			return handlers.Answer{Value: f.answer, Heap: run.heap}, nil
		}
		if f.step != "" {
			if err := steps.step(run.fuel); err != nil {
				return handlers.Answer{}, err
			}
			show.envStep(f)
			c = k.plug(f, f.replace, f.replaceC)
			continue
		}
		show.redex(f)
		if err := run.fuel.Contract(f.rule); err != nil {
			return handlers.Answer{}, err
		}
		t, cc, err := k.contract(run, f)
		if err != nil {
			var u *dpl.Undefined
			if errors.As(err, &u) {
				return handlers.Answer{Undefined: u}, nil
			}
			var se *interderive.StuckError
			if errors.Is(err, interderive.ErrResourceLimit) || errors.As(err, &se) {
				return handlers.Answer{}, err
			}
			return handlers.Answer{}, hStuck(k.plug(f, f.term, f.cmd), err.Error())
		}
		c = k.plug(f, t, cc)
		if err := show.contracted(run.fuel.Steps(), t, cc, c); err != nil {
			return handlers.Answer{}, err
		}
	}
}

// handlersClosuresShow shows the steps to a run's observer, closures read back (σ);
// nil when nothing observes.
type handlersClosuresShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
}

func newHandlersClosuresShow(opts interderive.Options, fuel *interderive.Counter) *handlersClosuresShow {
	obs := opts.StepObserver() // the stage reports nothing: an observer of reports only is shown nothing
	if obs == nil {
		return nil
	}
	return &handlersClosuresShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *handlersClosuresShow) show(t hTerm, c hCmd) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) {
		if t != nil {
			return dpl.FormatBounded(sigmaTerm(t), b)
		}
		return handlers.FormatCmdBounded(sigmaCmd(c), b)
	})
}

func (s *handlersClosuresShow) envStep(f hFound) {
	if s == nil {
		return
	}
	s.obs.Step(f.step + ": " + s.show(f.term, f.cmd) + "  ~>  " + s.show(f.replace, f.replaceC))
}

func (s *handlersClosuresShow) redex(f hFound) {
	if s == nil {
		return
	}
	s.obs.Step("decompose: redex  " + s.show(f.term, f.cmd))
}

func (s *handlersClosuresShow) contracted(n int, t hTerm, c hCmd, next hCmd) error {
	if s == nil {
		return nil
	}
	s.obs.About(n, "contract:  "+s.show(t, c))
	s.obs.About(n, "plug:      "+s.show(nil, next))
	return s.pr.Err()
}
