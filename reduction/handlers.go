package reduction

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// The reduction semantics of the language of reverse handlers (handlers/doc.go,
// docs/handlers.md): a configuration (heap, command) decomposes into a command context
// F^c, and for a term redex the command whose term is the hole and a term context E
// (contexts.Handlers, contexts.HandlersTerm); the redex contracts — a term rule of
// Def. 5.4, a command rule of Def. 5.10 and Example 5.13, or one clause of Fig. 7
// (handlers.ContractRH) — and the contractum is plugged back, and again from the root.

// Handlers is the reduction semantics of the language of reverse handlers
// (handlers.StageOf).
func (Stage) Handlers() handlers.Stage { return handlersSemantics{} }

// handlersSemantics is the reduction semantics: its functions are decomposeCmd,
// decomposeTerm and decomposeContext (decompose), contract, plug and iterate.
type handlersSemantics struct{}

// handlersRedex is a redex: the rule that contracts it, and the redex as a command or
// a term.
type handlersRedex interface {
	rule() string
	show() string
}

type (
	// handlersTermRedex is a term redex: V + W, op(V), let x = V in N, fst(V), snd(V)
	// (by dpl.RuleOf and Let), or W.rd[V](x:T. N).
	handlersTermRedex struct {
		name string
		term dpl.Term
	}
	// handlersCLet is let x <= [V] in Q.
	handlersCLet struct {
		let *handlers.Let
		v   dpl.Term
	}
	// handlersHandle is rev handle(V) <x>. R with H.
	handlersHandle struct{ h *handlers.Handle }
	// handlersHeap is get[a]() or put[a](V).
	handlersHeap struct{ p *handlers.Perform }
	// handlersRH is RH^V(<y>. F^c[X]) with its clause.
	handlersRH struct {
		name string
		rh   *handlers.RH
		lets []*handlers.Let
		x    handlers.Cmd
	}
)

func (r *handlersTermRedex) rule() string { return r.name }
func (r *handlersCLet) rule() string      { return handlers.RuleCLet }
func (r *handlersHandle) rule() string    { return handlers.RuleHandle }
func (r *handlersHeap) rule() string {
	if r.p.Kind == handlers.GetOp {
		return handlers.RuleGet
	}
	return handlers.RulePut
}
func (r *handlersRH) rule() string { return r.name }

func (r *handlersTermRedex) show() string { return dpl.FormatShort(r.term, interderive.MaxStuckShown) }
func (r *handlersCLet) show() string      { return handlers.FormatCmd(r.let) }
func (r *handlersHandle) show() string    { return handlers.FormatCmd(r.h) }
func (r *handlersHeap) show() string      { return handlers.FormatCmd(r.p) }
func (r *handlersRH) show() string        { return handlers.FormatCmd(r.rh) }

// handlersDecomposition is a configuration's command decomposed: a command context
// and a command redex, or a term context and a term redex, or (redex nil) an answer.
type handlersDecomposition struct {
	F      contexts.Handlers
	term   *contexts.HandlersTerm // for a term redex
	redex  handlersRedex
	answer dpl.Term
}

func stuckCmd(c handlers.Cmd, format string, args ...any) error {
	s, _ := handlers.FormatCmdBounded(c, interderive.PrintBudget{Max: interderive.MaxStuckShown})
	return interderive.Stuck(s, format, args...)
}

// decompose splits a command into a context and a redex, or finds it is an answer.
func (s handlersSemantics) decompose(c handlers.Cmd) (handlersDecomposition, error) {
	var F contexts.Handlers
	for {
		switch n := c.(type) {
		case *handlers.Let:
			F, c = append(F, &contexts.HandlersLetBound{P: n.P, Name: n.Name, T: n.T, Body: n.Body}), n.Bound
			continue
		case *handlers.Pure:
			if dpl.IsClosedValue(n.M) {
				return s.decomposeCmdContext(F, n.M)
			}
			return s.decomposeTermIn(F, &contexts.HandlersPure{P: n.P}, n.M)
		case *handlers.Perform:
			if !dpl.IsClosedValue(n.Arg) {
				return s.decomposeTermIn(F, &contexts.HandlersOpArg{P: n.P, Kind: n.Kind, Name: n.Name}, n.Arg)
			}
			if n.Kind == handlers.UserOp {
				return handlersDecomposition{}, stuckCmd(F.Plug(n), "operation %s is not handled", n.Name)
			}
			return handlersDecomposition{F: F, redex: &handlersHeap{p: n}}, nil
		case *handlers.Handle:
			if !dpl.IsClosedValue(n.Arg) {
				return s.decomposeTermIn(F, &contexts.HandlersHandleArg{P: n.P, Vars: n.Vars, Types: n.Types, Body: n.Body, H: n.H}, n.Arg)
			}
			return handlersDecomposition{F: F, redex: &handlersHandle{h: n}}, nil
		case *handlers.RH:
			rule, lets, x := handlers.RHShape(n)
			if rule == "" { // the inner RH first
				F, c = append(F, &contexts.HandlersRHBody{RH: n, Lets: lets}), x
				continue
			}
			return handlersDecomposition{F: F, redex: &handlersRH{name: rule, rh: n, lets: lets, x: x}}, nil
		}
		return handlersDecomposition{}, stuckCmd(F.Plug(c), "no rule applies")
	}
}

// decomposeCmdContext climbs out of F with the command [v]: the answer at the root, a
// cmd/let redex under a let.
func (handlersSemantics) decomposeCmdContext(F contexts.Handlers, v dpl.Term) (handlersDecomposition, error) {
	if len(F) == 0 {
		return handlersDecomposition{answer: v}, nil
	}
	if f, ok := F[len(F)-1].(*contexts.HandlersLetBound); ok {
		let := &handlers.Let{P: f.P, Name: f.Name, T: f.T, Bound: &handlers.Pure{M: v}, Body: f.Body}
		return handlersDecomposition{F: F[:len(F)-1], redex: &handlersCLet{let: let, v: v}}, nil
	}
	return handlersDecomposition{}, stuckCmd(F.Plug(&handlers.Pure{M: v}), "no rule applies")
}

// decomposeTermIn decomposes the term m in the hole of the command frame T under F:
// decomposeTerm descends to a value, decomposeContext climbs with it to a redex or to
// a subterm still to evaluate.
func (s handlersSemantics) decomposeTermIn(F contexts.Handlers, T contexts.HandlersTermFrame, m dpl.Term) (handlersDecomposition, error) {
	C := &contexts.HandlersTerm{F: F, T: T}
	for {
		v, r, err := s.decomposeTerm(&C.E, m)
		if err != nil {
			return handlersDecomposition{}, err
		}
		if r != nil {
			return handlersDecomposition{F: F, term: C, redex: r}, nil
		}
		if m, r, err = s.decomposeContext(&C.E, v); err != nil {
			return handlersDecomposition{}, err
		}
		if r != nil {
			return handlersDecomposition{F: F, term: C, redex: r}, nil
		}
		if m == nil {
			// The term is a value: the command frame is not a term redex but a
			// command one, which decompose finds from the root.
			return s.decompose(C.F.Plug(C.T.Plug(v)))
		}
	}
}

// decomposeTerm descends into m, pushing frames onto E, and returns the value it meets.
func (handlersSemantics) decomposeTerm(E *contexts.Diff, m dpl.Term) (dpl.Term, handlersRedex, error) {
	for {
		switch t := m.(type) {
		case *dpl.RealLit, *dpl.UnitLit:
			return t, nil, nil
		case *dpl.Pair:
			if dpl.IsClosedValue(t) {
				return t, nil, nil
			}
			*E, m = append(*E, &contexts.DiffPairLeft{P: t.P, Right: t.Y, T: t.T, U: t.U}), t.X
		case *dpl.Plus:
			*E, m = append(*E, &contexts.DiffPlusLeft{P: t.P, Right: t.Y}), t.X
		case *dpl.OpApp:
			*E, m = append(*E, &contexts.DiffOpArg{P: t.P, Op: t.Op}), t.Arg
		case *dpl.Let:
			*E, m = append(*E, &contexts.DiffLetBound{P: t.P, Name: t.Name, T: t.T, Body: t.Body}), t.Bound
		case *dpl.Fst:
			*E, m = append(*E, &contexts.DiffFst{P: t.P, T: t.T, U: t.U}), t.X
		case *dpl.Snd:
			*E, m = append(*E, &contexts.DiffSnd{P: t.P, T: t.T, U: t.U}), t.X
		case *dpl.Rd: // the cotangent first (Def. 5.1)
			*E, m = append(*E, &contexts.DiffRdCotangent{P: t.P, Point: t.Point, Param: t.Param, T: t.T, Body: t.Body}), t.Cotangent
		default:
			return nil, nil, interderive.Stuck(dpl.FormatShort(E.Plug(m), interderive.MaxStuckShown), "no rule applies")
		}
	}
}

// decomposeContext climbs out of E with the value v until it finds a redex, or a
// subterm still to evaluate (returned with the frame that waits for it pushed onto
// E), or the empty context (next and the redex nil).
func (handlersSemantics) decomposeContext(E *contexts.Diff, v dpl.Term) (next dpl.Term, r handlersRedex, err error) {
	for {
		if len(*E) == 0 {
			return nil, nil, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		redex := func(t dpl.Term, rule string) (dpl.Term, handlersRedex, error) {
			return nil, &handlersTermRedex{name: rule, term: t}, nil
		}
		switch f := frame.(type) {
		case *contexts.DiffPairLeft:
			*E = append(*E, &contexts.DiffPairRight{P: f.P, Left: v, T: f.T, U: f.U})
			return f.Right, nil, nil
		case *contexts.DiffPairRight:
			v = &dpl.Pair{P: f.P, X: f.Left, Y: v, T: f.T, U: f.U}
			continue
		case *contexts.DiffPlusLeft:
			*E = append(*E, &contexts.DiffPlusRight{P: f.P, Left: v})
			return f.Right, nil, nil
		case *contexts.DiffPlusRight:
			return redex(&dpl.Plus{P: f.P, X: f.Left, Y: v}, handlers.RulePlus)
		case *contexts.DiffOpArg:
			return redex(&dpl.OpApp{P: f.P, Op: f.Op, Arg: v}, handlers.RuleOp)
		case *contexts.DiffLetBound:
			return redex(&dpl.Let{P: f.P, Name: f.Name, T: f.T, Bound: v, Body: f.Body}, handlers.RuleLet)
		case *contexts.DiffFst:
			return redex(&dpl.Fst{P: f.P, X: v, T: f.T, U: f.U}, handlers.RuleFst)
		case *contexts.DiffSnd:
			return redex(&dpl.Snd{P: f.P, X: v, T: f.T, U: f.U}, handlers.RuleSnd)
		case *contexts.DiffRdCotangent:
			*E = append(*E, &contexts.DiffRdPoint{P: f.P, Cotangent: v, Param: f.Param, T: f.T, Body: f.Body})
			return f.Point, nil, nil
		case *contexts.DiffRdPoint:
			return redex(&dpl.Rd{P: f.P, Cotangent: f.Cotangent, Point: v, Param: f.Param, T: f.T, Body: f.Body}, handlers.RuleRd)
		}
		return nil, nil, interderive.Stuck(dpl.FormatShort(frame.Plug(v), interderive.MaxStuckShown), "no rule applies")
	}
}

// handlersRun is what a run carries: the heap, the operations, fresh names, the
// strategy and the budgets.
type handlersRun struct {
	ad    dpl.Differentiator
	heap  []handlers.Cell
	env   handlers.RHEnv
	fuel  *interderive.Counter
	limit int
}

// contract is the contraction of a redex by its rule: a term (for a term redex) or a
// command. An *dpl.Undefined error is the answer undefined.
func (s handlersSemantics) contract(run *handlersRun, r handlersRedex) (dpl.Term, handlers.Cmd, error) {
	switch r := r.(type) {
	case *handlersTermRedex:
		switch t := r.term.(type) {
		case *dpl.Plus: // r1 + r2 -> r1 +_β r2
			v, err := dpl.AddReals(t.X, t.Y)
			return v, nil, err
		case *dpl.OpApp: // f(V) -> Ev(f, V)
			v, err := dpl.Ev(t.Op, t.Arg)
			return v, nil, err
		case *dpl.Fst, *dpl.Snd: // proj_i(<V1, V2>) -> V_i
			v, err := dpl.Delta(t, childOf(t), nil)
			return v, nil, err
		case *dpl.Let: // let x = V in M -> M[V/x]
			return dpl.Subst(t.Body, t.Name, t.Bound), nil, nil
		case *dpl.Rd: // W.rd[V](x:T. N) -> W.R_V(x:T. N)
			budget := 0
			if run.limit > 0 {
				budget = run.limit - run.fuel.Steps()
			}
			v, err := handlers.Derivative(run.ad, t.Cotangent, t.Point, t.Param, t.T, t.Body, run.fuel.Steps(), budget)
			return v, nil, err
		}
	case *handlersCLet: // let x <= [V] in Q -> Q[V/x]
		return nil, handlers.Subst(r.let.Body, r.let.Name, r.v, run.env.Names), nil
	case *handlersHandle: // rev handle(V) <x>. R with H -> RH_H^V(<x>. R)
		h := r.h
		return nil, &handlers.RH{P: h.P, H: h.H, Vals: handlers.Projections(h.Arg, len(h.Vars)), Vars: h.Vars, Types: h.Types, Body: h.Body}, nil
	case *handlersHeap: // (hp, get[a]()) -> (hp, [hp(a)]); (hp, put[a](V)) -> (hp[a ↦ V], [()])
		for i := range run.heap {
			if run.heap[i].Name != r.p.Name {
				continue
			}
			if r.p.Kind == handlers.GetOp {
				return nil, &handlers.Pure{P: r.p.P, M: run.heap[i].Value}, nil
			}
			run.heap[i].Value = r.p.Arg
			return nil, &handlers.Pure{P: r.p.P, M: &dpl.UnitLit{P: r.p.P}}, nil
		}
		return nil, nil, stuckCmd(r.p, "no heap location %s", r.p.Name)
	case *handlersRH: // one clause of Fig. 7
		c, err := handlers.ContractRH(run.env, r.rh, r.name, r.lets, r.x)
		if err != nil {
			return nil, nil, stuckCmd(r.rh, "%v", err)
		}
		return nil, c, nil
	}
	return nil, nil, interderive.Stuck("", "unknown redex %T", r)
}

func childOf(t dpl.Term) dpl.Term {
	switch t := t.(type) {
	case *dpl.Fst:
		return t.X
	case *dpl.Snd:
		return t.X
	}
	return nil
}

// plug is the contractum put back: F^t[E[m]] for a term, F^c[c] for a command.
func (handlersSemantics) plug(d handlersDecomposition, m dpl.Term, c handlers.Cmd) handlers.Cmd {
	if d.term != nil {
		return d.term.Plug(m)
	}
	return d.F.Plug(c)
}

// Eval runs a checked program to its answer (iterate).
func (s handlersSemantics) Eval(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	return s.iterate(ad, prog, opts)
}

// iterate is evaluation: decompose the whole command into a context and a redex,
// contract the redex, plug the contractum back into the context, and again from the
// root, until the command is [V]. Each contraction spends one unit of fuel and goes to
// opts.OnContract; an observer sees each decomposition before its contraction, and
// the contractum and the command after it.
func (s handlersSemantics) iterate(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	run := &handlersRun{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(opts),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}}
	if opts.Fuel > 0 {
		run.limit = opts.Fuel
	}
	show := newHandlersShow(opts, run.fuel)
	c := prog.Body
	for {
		d, err := s.decompose(c)
		if err != nil {
			return handlers.Answer{}, err
		}
		if d.redex == nil {
			return handlers.Answer{Value: d.answer, Heap: run.heap}, nil
		}
		show.decomposition(d)
		if err := run.fuel.Contract(d.redex.rule()); err != nil {
			return handlers.Answer{}, err
		}
		m, k, err := s.contract(run, d.redex)
		if err != nil {
			if u := undefined(err); u != nil {
				return handlers.Answer{Undefined: u}, nil
			}
			return handlers.Answer{}, handlersStuck(d.redex, err)
		}
		c = s.plug(d, m, k)
		if err := show.contracted(run.fuel.Steps(), m, k, c); err != nil {
			return handlers.Answer{}, err
		}
	}
}

func undefined(err error) *dpl.Undefined {
	a, aerr := dpl.AnswerOf(nil, err)
	if aerr != nil {
		return nil
	}
	return a.Undefined
}

// handlersShow shows the steps to a run's observer; nil when nothing observes.
type handlersShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
}

func newHandlersShow(opts interderive.Options, fuel *interderive.Counter) *handlersShow {
	obs := opts.StepObserver() // the stage reports nothing: an observer of reports only is shown nothing
	if obs == nil {
		return nil
	}
	return &handlersShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *handlersShow) cmd(c handlers.Cmd) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return handlers.FormatCmdBounded(c, b) })
}

func (s *handlersShow) term(t dpl.Term) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return dpl.FormatBounded(t, b) })
}

// decomposition shows a decomposition: the context, with [] for its hole, and the
// redex.
func (s *handlersShow) decomposition(d handlersDecomposition) {
	if s == nil {
		return
	}
	hole := &dpl.Var{Name: contexts.Hole}
	var ctx string
	if d.term != nil {
		ctx = s.cmd(d.term.Plug(hole))
	} else {
		ctx = s.cmd(d.F.Plug(&handlers.Pure{M: hole}))
	}
	s.obs.Step(fmt.Sprintf("decompose: %s  with redex  %s", ctx, d.redex.show()))
}

// contracted shows contraction n's contractum and the command after plugging it.
func (s *handlersShow) contracted(n int, m dpl.Term, k handlers.Cmd, next handlers.Cmd) error {
	if s == nil {
		return nil
	}
	if m != nil {
		s.obs.About(n, "contract:  "+s.term(m))
	} else {
		s.obs.About(n, "contract:  "+s.cmd(k))
	}
	s.obs.About(n, "plug:      "+s.cmd(next))
	return s.pr.Err()
}

// handlersStuck is err as a stuck state, unless it is a resource limit or already
// one: a contraction that fails (fst of a real) has no transition.
func handlersStuck(r handlersRedex, err error) error {
	var se *interderive.StuckError
	if errors.Is(err, interderive.ErrResourceLimit) || errors.As(err, &se) {
		return err
	}
	return interderive.Stuck(r.show(), "%v", err)
}

// Start begins a run taken one step at a time (handlers.Stepper).
func (s handlersSemantics) Start(ad dpl.Differentiator, prog *handlers.Program) handlers.Steps {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	run := &handlersRun{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(interderive.Options{}),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}}
	return &handlersSteps{s: s, run: run, c: prog.Body}
}

// handlersSteps is a run of the reduction semantics taken one step at a time.
type handlersSteps struct {
	s      handlersSemantics
	run    *handlersRun
	c      handlers.Cmd
	answer handlers.Answer
}

func (st *handlersSteps) Current() handlers.Cmd   { return st.c }
func (st *handlersSteps) Answer() handlers.Answer { return st.answer }

// Step is one step: decompose, contract, plug.
func (st *handlersSteps) Step() (rule string, done bool, err error) {
	d, err := st.s.decompose(st.c)
	if err != nil {
		return "", false, err
	}
	if d.redex == nil {
		st.answer = handlers.Answer{Value: d.answer, Heap: st.run.heap}
		return "", true, nil
	}
	if err := st.run.fuel.Contract(d.redex.rule()); err != nil {
		return "", false, err
	}
	m, k, err := st.s.contract(st.run, d.redex)
	if err != nil {
		if u := undefined(err); u != nil {
			st.answer = handlers.Answer{Undefined: u}
			return d.redex.rule(), true, nil
		}
		return "", false, handlersStuck(d.redex, err)
	}
	st.c = st.s.plug(d, m, k)
	return d.redex.rule(), false, nil
}
