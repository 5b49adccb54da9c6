package machine

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/values/handlersval"
)

// The machine of the language of reverse handlers is its reduction semantics
// refocused (the contractum is decomposed in place), with environments for
// substitution as the calculus of closures has them: an eval/continue machine over
// terms and commands whose stack K is the context F^t[E] defunctionalized, one frame
// per production (contexts/handlers.go). Its pending RH frames (an RH whose body's hole
// holds the RH being contracted) and its let frames, whose commands are the backward
// clauses Fig. 7 put after each continuation, are the tape. Each transition is one of
//
//	eval(V, ρ, K)              -> continue(K, V)          (a closed value)
//	eval(x, ρ, K)              -> continue(K, ρ(x))
//	eval(M + N, ρ, K)          -> eval(M, ρ, [] + N[ρ] : K)      (and op, let, pairs,
//	                                                      projections, rd: cotangent first)
//	continue([] + N[ρ] : K, V) -> eval(N, ρ, V + [] : K)
//	continue(V + [] : K, W)    -> continue(K, V + W)                       plus
//	continue(op([]) : K, V)    -> continue(K, Ev(op, V))                   op
//	continue(let x = [] in N[ρ] : K, V) -> eval(N, (x ↦ V) : ρ, K)         let
//	continue(fst([]) : K, <V, W>) -> continue(K, V)                        fst (snd)
//	continue(W.rd[[]](x. N)[ρ] : K, V) -> eval(W.R_V(x. σ(N[ρ])), ε, K)    rd
//	evalc([M], ρ, K)           -> eval(M, ρ, [[]] : K)
//	evalc(Op(M), ρ, K)         -> eval(M, ρ, Op([]) : K)
//	evalc(rev handle(M)..., ρ, K) -> eval(M, ρ, rev handle([])... : K)
//	evalc(let x <= P in Q, ρ, K)  -> evalc(P, ρ, let x <= [] in Q[ρ] : K)
//	evalc(RH^V(<y>. P), ρ, K)  -> evalc(RH', ε, RH^{V[ρ]}(<y>. F^c[[]]) : K)   (P = F^c[RH'])
//	                           -> evalc(c, ε, K)          (rh/*: c the clause's command)
//	evalc(c, ε, RH^V(<y>. F^c[[]]) : K) (c an RH's contractum) -> evalc(RH^V(<y>. F^c[c]), ε, K)
//	continue([[]] : K, V)      -> continue(K, V)
//	continue(get[a]([]) : K, ()) -> continue(K, hp(a))                     heap/get
//	continue(put[a]([]) : K, V)  -> continue(K, ()), hp(a) := V            heap/put
//	continue(rev handle([]) <x>. R with H : K, V) -> evalc(RH^V(<x>. R), ε, K)   cmd/handle
//	continue(let x <= [] in Q[ρ] : K, V) -> evalc(Q, (x ↦ V) : ρ, K)       cmd/let
//	continue([], V)            -> halt(V)
//
// run in an explicit loop, one transition an iteration.

// Handlers is the abstract machine of the language (handlers.StageOf).
func (Stage) Handlers() handlers.Stage { return handlersMachine{} }

type handlersMachine struct{}

// handlersFrameKind is a production of the context.
type handlersFrameKind uint8

const (
	hmPlusL   handlersFrameKind = iota // [] + N[ρ]
	hmPlusR                            // V + []
	hmOp                               // op([])
	hmLet                              // let x = [] in N[ρ]
	hmPairL                            // <[], N[ρ]>
	hmPairR                            // <V, []>
	hmFst                              // fst([])
	hmSnd                              // snd([])
	hmRdCot                            // [].rd[L[ρ]](x. N)[ρ]
	hmRdPt                             // W.rd[[]](x. N)[ρ]
	hmPure                             // [[]]
	hmPerform                          // Op([])
	hmHandle                           // rev handle([]) <x>. R with H
	hmCLet                             // let x <= [] in Q[ρ]
	hmRHBody                           // RH^V(<y>. F^c[[]])
)

// handlersFrame is one frame of K; the fields a kind does not use are zero.
type handlersFrame struct {
	kind  handlersFrameKind
	p     dpl.Pos
	term  dpl.Term // the term still to evaluate, or the value on the left
	name  string   // the let's, the rd's variable
	t, u  dpl.Type
	op    *dpl.Operator
	env   *handlersval.Env
	cmd   handlers.Cmd // the let's body
	perf  *handlers.Perform
	h     *handlers.Handle
	rh    *handlers.RH
	lets  []*handlers.Let
	rdBdy dpl.Term
}

// handlersState is the machine's state.
type handlersState struct {
	mode int // 0 eval a term, 1 eval a command, 2 continue, 3 halt
	m    dpl.Term
	c    handlers.Cmd
	env  *handlersval.Env
	v    dpl.Term
	k    []handlersFrame
}

const (
	hmEval = iota
	hmEvalC
	hmContinue
	hmHalt
)

// Eval runs a checked program on the machine.
func (handlersMachine) Eval(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	r := &handlersMachineRun{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(opts),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}, limit: opts.Fuel}
	if obs := opts.StepObserver(); obs != nil { // the stage reports nothing
		r.obs, r.pr = obs, interderive.NewItemPrinter(opts, r.fuel.Limits())
	}
	v, err := r.run(prog.Body)
	if err != nil {
		var u *dpl.Undefined
		if errors.As(err, &u) {
			return handlers.Answer{Undefined: u}, nil
		}
		return handlers.Answer{}, err
	}
	return handlers.Answer{Value: v, Heap: r.heap}, nil
}

// handlersMachineRun runs the machine for one program.
type handlersMachineRun struct {
	ad    dpl.Differentiator
	heap  []handlers.Cell
	env   handlers.RHEnv
	fuel  *interderive.Counter
	limit int
	obs   interderive.Observer
	pr    *interderive.ItemPrinter
}

func (r *handlersMachineRun) stuck(s *handlersState, reason string) error {
	what := ""
	switch s.mode {
	case hmEval:
		what = dpl.FormatShort(s.env.Term(s.m), interderive.MaxStuckShown)
	case hmEvalC:
		what, _ = handlers.FormatCmdBounded(s.env.Cmd(s.c), interderive.PrintBudget{Max: interderive.MaxStuckShown})
	case hmContinue:
		what = dpl.FormatShort(s.v, interderive.MaxStuckShown)
	}
	return interderive.Stuck(what, "%s", reason)
}

// contract counts a contraction (fuel, time, memory, OnContract).
func (r *handlersMachineRun) contract(rule string) error { return r.fuel.Contract(rule) }

func (r *handlersMachineRun) run(body handlers.Cmd) (dpl.Term, error) {
	s := &handlersState{mode: hmEvalC, c: body}
	for {
		r.show(s)
		var err error
		switch s.mode {
		case hmEval:
			err = r.eval(s)
		case hmEvalC:
			err = r.evalc(s)
		case hmContinue:
			err = r.cont(s)
		case hmHalt:
			return s.v, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (s *handlersState) push(f handlersFrame) { s.k = append(s.k, f) }

// eval is the transition of eval(M, ρ, K).
func (r *handlersMachineRun) eval(s *handlersState) error {
	switch m := s.m.(type) {
	case *dpl.Var:
		v, ok := s.env.Lookup(m.Name)
		if !ok {
			return r.stuck(s, "unbound variable "+m.Name)
		}
		s.mode, s.v = hmContinue, v
	case *dpl.RealLit, *dpl.UnitLit:
		s.mode, s.v = hmContinue, m
	case *dpl.Pair:
		if dpl.IsClosedValue(m) {
			s.mode, s.v = hmContinue, m
			return nil
		}
		s.push(handlersFrame{kind: hmPairL, p: m.P, term: m.Y, env: s.env, t: m.T, u: m.U})
		s.m = m.X
	case *dpl.Plus:
		s.push(handlersFrame{kind: hmPlusL, p: m.P, term: m.Y, env: s.env})
		s.m = m.X
	case *dpl.OpApp:
		s.push(handlersFrame{kind: hmOp, p: m.P, op: m.Op})
		s.m = m.Arg
	case *dpl.Let:
		s.push(handlersFrame{kind: hmLet, p: m.P, name: m.Name, t: m.T, term: m.Body, env: s.env})
		s.m = m.Bound
	case *dpl.Fst:
		s.push(handlersFrame{kind: hmFst, p: m.P, t: m.T, u: m.U})
		s.m = m.X
	case *dpl.Snd:
		s.push(handlersFrame{kind: hmSnd, p: m.P, t: m.T, u: m.U})
		s.m = m.X
	case *dpl.Rd: // the cotangent first (Def. 5.1)
		s.push(handlersFrame{kind: hmRdCot, p: m.P, term: m.Point, name: m.Param, t: m.T, rdBdy: m.Body, env: s.env})
		s.m = m.Cotangent
	default:
		return r.stuck(s, "no rule applies")
	}
	return nil
}

// evalc is the transition of evalc(P, ρ, K).
func (r *handlersMachineRun) evalc(s *handlersState) error {
	switch c := s.c.(type) {
	case *handlers.Pure:
		s.push(handlersFrame{kind: hmPure, p: c.P})
		s.mode, s.m = hmEval, c.M
	case *handlers.Perform:
		s.push(handlersFrame{kind: hmPerform, p: c.P, perf: c})
		s.mode, s.m = hmEval, c.Arg
	case *handlers.Handle:
		s.push(handlersFrame{kind: hmHandle, p: c.P, h: c})
		s.mode, s.m = hmEval, c.Arg
	case *handlers.Let:
		s.push(handlersFrame{kind: hmCLet, p: c.P, name: c.Name, t: c.T, cmd: c.Body, env: s.env})
		s.c = c.Bound
	case *handlers.RH:
		rh := c
		if s.env != nil {
			cp := *c
			cp.Vals = s.env.Values(c.Vals)
			rh = &cp
		}
		rule, lets, x := handlers.RHShape(rh)
		if rule == "" { // the inner RH first
			s.push(handlersFrame{kind: hmRHBody, rh: rh, lets: lets})
			s.c, s.env = x, nil
			return nil
		}
		if err := r.contract(rule); err != nil {
			return err
		}
		out, err := handlers.ContractRH(r.env, rh, rule, lets, x)
		if err != nil {
			return r.stuck(s, err.Error())
		}
		s.c, s.env = out, nil
		// An inner RH's contractum goes back into the outer RH's body.
		if n := len(s.k); n > 0 && s.k[n-1].kind == hmRHBody {
			f := s.k[n-1]
			s.k = s.k[:n-1]
			outer := *f.rh
			outer.Body = handlers.PlugSpine(f.lets, out)
			s.c = &outer
		}
	default:
		return r.stuck(s, "no rule applies")
	}
	return nil
}

// cont is the transition of continue(K, V).
func (r *handlersMachineRun) cont(s *handlersState) error {
	n := len(s.k)
	if n == 0 {
		s.mode = hmHalt
		return nil
	}
	f := s.k[n-1]
	s.k = s.k[:n-1]
	v := s.v
	switch f.kind {
	case hmPlusL:
		s.push(handlersFrame{kind: hmPlusR, p: f.p, term: v})
		s.mode, s.m, s.env = hmEval, f.term, f.env
	case hmPlusR:
		if err := r.contract(handlers.RulePlus); err != nil {
			return err
		}
		w, err := dpl.AddReals(f.term, v)
		if err != nil {
			return r.fail(s, err)
		}
		s.v = w
	case hmOp:
		if err := r.contract(handlers.RuleOp); err != nil {
			return err
		}
		w, err := dpl.Ev(f.op, v)
		if err != nil {
			return r.fail(s, err)
		}
		s.v = w
	case hmLet:
		if err := r.contract(handlers.RuleLet); err != nil {
			return err
		}
		s.mode, s.m, s.env = hmEval, f.term, f.env.Bind(f.name, v)
	case hmPairL:
		s.push(handlersFrame{kind: hmPairR, p: f.p, term: v, t: f.t, u: f.u})
		s.mode, s.m, s.env = hmEval, f.term, f.env
	case hmPairR:
		s.v = &dpl.Pair{P: f.p, X: f.term, Y: v, T: f.t, U: f.u}
	case hmFst, hmSnd:
		rule := handlers.RuleFst
		if f.kind == hmSnd {
			rule = handlers.RuleSnd
		}
		if err := r.contract(rule); err != nil {
			return err
		}
		p, ok := v.(*dpl.Pair)
		if !ok {
			return r.stuck(s, rule+" of a non-pair")
		}
		if f.kind == hmFst {
			s.v = p.X
		} else {
			s.v = p.Y
		}
	case hmRdCot:
		s.push(handlersFrame{kind: hmRdPt, p: f.p, term: v, name: f.name, t: f.t, rdBdy: f.rdBdy, env: f.env})
		s.mode, s.m, s.env = hmEval, f.term, f.env
	case hmRdPt:
		if err := r.contract(handlers.RuleRd); err != nil {
			return err
		}
		budget := 0
		if r.limit > 0 {
			budget = r.limit - r.fuel.Steps()
		}
		d, err := handlers.Derivative(r.ad, f.term, v, f.name, f.t, f.env.Term(f.rdBdy, f.name), r.fuel.Steps(), budget)
		if err != nil {
			return r.fail(s, err)
		}
		s.mode, s.m, s.env = hmEval, d, nil
	case hmPure:
		// [V] returns V to the command frames.
	case hmPerform:
		rule := handlers.RuleGet
		switch f.perf.Kind {
		case handlers.PutOp:
			rule = handlers.RulePut
		case handlers.UserOp:
			return r.stuck(s, "operation "+f.perf.Name+" is not handled")
		}
		if err := r.contract(rule); err != nil {
			return err
		}
		i := r.cell(f.perf.Name)
		if i < 0 {
			return r.stuck(s, "no heap location "+f.perf.Name)
		}
		if rule == handlers.RuleGet {
			s.v = r.heap[i].Value
		} else {
			r.heap[i].Value, s.v = v, &dpl.UnitLit{P: f.p}
		}
	case hmHandle:
		if err := r.contract(handlers.RuleHandle); err != nil {
			return err
		}
		h := f.h
		s.mode, s.env = hmEvalC, nil
		s.c = &handlers.RH{P: h.P, H: h.H, Vals: handlers.Projections(v, len(h.Vars)), Vars: h.Vars, Types: h.Types, Body: h.Body}
	case hmCLet:
		if err := r.contract(handlers.RuleCLet); err != nil {
			return err
		}
		s.mode, s.c, s.env = hmEvalC, f.cmd, f.env.Bind(f.name, v)
	default:
		return r.stuck(s, "a value returned into an RH's body")
	}
	return nil
}

func (r *handlersMachineRun) cell(name string) int {
	for i := range r.heap {
		if r.heap[i].Name == name {
			return i
		}
	}
	return -1
}

// fail is a failed contraction: undefined, a resource limit, or a stuck state.
func (r *handlersMachineRun) fail(s *handlersState, err error) error {
	var u *dpl.Undefined
	var se *interderive.StuckError
	if errors.As(err, &u) || errors.As(err, &se) || errors.Is(err, interderive.ErrResourceLimit) {
		return err
	}
	return r.stuck(s, err.Error())
}

// show shows a state to the observer before its transition: its mode, its focus and
// the height of its stack.
func (r *handlersMachineRun) show(s *handlersState) {
	if r.obs == nil {
		return
	}
	var focus string
	switch s.mode {
	case hmEval:
		focus = "eval " + r.pr.Item(func(b interderive.PrintBudget) (string, error) { return dpl.FormatBounded(s.env.Term(s.m), b) })
	case hmEvalC:
		focus = "evalc " + r.pr.Item(func(b interderive.PrintBudget) (string, error) { return handlers.FormatCmdBounded(s.env.Cmd(s.c), b) })
	case hmContinue:
		focus = "continue " + r.pr.Item(func(b interderive.PrintBudget) (string, error) { return dpl.FormatBounded(s.v, b) })
	default:
		return
	}
	r.obs.Step(fmt.Sprintf("%s  with %d frames", focus, len(s.k)))
}
