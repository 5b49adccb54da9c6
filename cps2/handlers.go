package cps2

import (
	"errors"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/values/handlersval"
)

// The two-level CPS evaluator of the language of reverse handlers is the machine's
// stack refunctionalized, in two layers: the outer continuation (handlersCmdCont) is
// what remains of the commands — the let frames and the pending RH frames, the tape
// of backward clauses — and the inner continuation (handlersCont) is the term context
// E, what remains to be done with a term's value. A pending RH frame becomes a
// continuation that takes the command an inner RH contracted to (handlersRHCont):
// evalRH contracts an RH one clause of Fig. 7 at a time and passes the clause's
// command on; the outermost RH's continuation evaluates it (evalc).
//
// Go does not eliminate tail calls, so the evaluator is trampolined: eval, evalc,
// evalRH and the continuations return a handlersStep to a driver loop, with up to
// handlersMaxDirect calls made directly between two bounces.

// Handlers is the CPS evaluator of the language (handlers.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Handlers() handlers.Stage { return handlersStage{} }

type handlersStage struct{}

type (
	handlersStep    func() handlersStep
	handlersCont    func(dpl.Term) handlersStep     // inner: a term's value
	handlersCmdCont func(dpl.Term) handlersStep     // outer: a command's value
	handlersRHCont  func(handlers.Cmd) handlersStep // outer: an RH's contractum
)

const handlersMaxDirect = 64

// handlersEvaluator holds one run.
type handlersEvaluator struct {
	ad     dpl.Differentiator
	heap   []handlers.Cell
	env    handlers.RHEnv
	fuel   *interderive.Counter
	limit  int
	answer dpl.Term
	err    error
	direct int
}

// Eval runs a checked program.
func (handlersStage) Eval(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	ev := &handlersEvaluator{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(opts),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}, limit: opts.Fuel}
	k0 := func(v dpl.Term) handlersStep { ev.answer = v; return nil }
	for s := ev.evalc(prog.Body, nil, k0); s != nil; {
		ev.direct = 0
		s = s()
	}
	if ev.err != nil {
		var u *dpl.Undefined
		if errors.As(ev.err, &u) {
			return handlers.Answer{Undefined: u}, nil
		}
		return handlers.Answer{}, ev.err
	}
	return handlers.Answer{Value: ev.answer, Heap: ev.heap}, nil
}

func (ev *handlersEvaluator) call(next handlersStep) handlersStep {
	if ev.direct < handlersMaxDirect {
		ev.direct++
		return next()
	}
	return next
}

func (ev *handlersEvaluator) ret(k handlersCont, v dpl.Term) handlersStep {
	return ev.call(func() handlersStep { return k(v) })
}

func (ev *handlersEvaluator) descend(m dpl.Term, rho *handlersval.Env, k handlersCont) handlersStep {
	return ev.call(func() handlersStep { return ev.eval(m, rho, k) })
}

func (ev *handlersEvaluator) descendc(c handlers.Cmd, rho *handlersval.Env, k handlersCmdCont) handlersStep {
	return ev.call(func() handlersStep { return ev.evalc(c, rho, k) })
}

// fail ends the run: undefined, a resource limit, or a stuck state.
func (ev *handlersEvaluator) fail(what string, err error) handlersStep {
	var u *dpl.Undefined
	var se *interderive.StuckError
	if errors.As(err, &u) || errors.As(err, &se) || errors.Is(err, interderive.ErrResourceLimit) {
		ev.err = err
	} else {
		ev.err = interderive.Stuck(what, "%v", err)
	}
	return nil
}

func (ev *handlersEvaluator) contract(rule string) bool {
	if err := ev.fuel.Contract(rule); err != nil {
		ev.err = err
		return false
	}
	return true
}

// eval evaluates the term m in ρ and passes its value to k.
func (ev *handlersEvaluator) eval(m dpl.Term, rho *handlersval.Env, k handlersCont) handlersStep {
	switch m := m.(type) {
	case *dpl.RealLit, *dpl.UnitLit:
		return ev.ret(k, m)
	case *dpl.Var:
		v, ok := rho.Lookup(m.Name)
		if !ok {
			return ev.fail(m.Name, errors.New("unbound variable"))
		}
		return ev.ret(k, v)
	case *dpl.Pair:
		if dpl.IsClosedValue(m) {
			return ev.ret(k, m)
		}
		return ev.descend(m.X, rho, func(x dpl.Term) handlersStep {
			return ev.descend(m.Y, rho, func(y dpl.Term) handlersStep {
				return ev.ret(k, &dpl.Pair{P: m.P, X: x, Y: y, T: m.T, U: m.U})
			})
		})
	case *dpl.Plus:
		return ev.descend(m.X, rho, func(x dpl.Term) handlersStep {
			return ev.descend(m.Y, rho, func(y dpl.Term) handlersStep {
				if !ev.contract(handlers.RulePlus) {
					return nil
				}
				v, err := dpl.AddReals(x, y)
				if err != nil {
					return ev.fail("+", err)
				}
				return ev.ret(k, v)
			})
		})
	case *dpl.OpApp:
		return ev.descend(m.Arg, rho, func(x dpl.Term) handlersStep {
			if !ev.contract(handlers.RuleOp) {
				return nil
			}
			v, err := dpl.Ev(m.Op, x)
			if err != nil {
				return ev.fail(m.Op.Name, err)
			}
			return ev.ret(k, v)
		})
	case *dpl.Let:
		return ev.descend(m.Bound, rho, func(x dpl.Term) handlersStep {
			if !ev.contract(handlers.RuleLet) {
				return nil
			}
			return ev.descend(m.Body, rho.Bind(m.Name, x), k)
		})
	case *dpl.Fst, *dpl.Snd:
		_, fst := m.(*dpl.Fst)
		arg, rule := projArg(m)
		return ev.descend(arg, rho, func(x dpl.Term) handlersStep {
			if !ev.contract(rule) {
				return nil
			}
			p, ok := x.(*dpl.Pair)
			if !ok {
				return ev.fail(dpl.Format(x), errors.New(rule+" of a non-pair"))
			}
			if fst {
				return ev.ret(k, p.X)
			}
			return ev.ret(k, p.Y)
		})
	case *dpl.Rd: // the cotangent first (Def. 5.1)
		return ev.descend(m.Cotangent, rho, func(w dpl.Term) handlersStep {
			return ev.descend(m.Point, rho, func(v dpl.Term) handlersStep {
				if !ev.contract(handlers.RuleRd) {
					return nil
				}
				budget := 0
				if ev.limit > 0 {
					budget = ev.limit - ev.fuel.Steps()
				}
				d, err := handlers.Derivative(ev.ad, w, v, m.Param, m.T, rho.Term(m.Body, m.Param), ev.fuel.Steps(), budget)
				if err != nil {
					return ev.fail("rd", err)
				}
				return ev.descend(d, nil, k)
			})
		})
	}
	return ev.fail(dpl.FormatShort(m, interderive.MaxStuckShown), errors.New("no rule applies"))
}

func projArg(m dpl.Term) (dpl.Term, string) {
	if f, ok := m.(*dpl.Fst); ok {
		return f.X, handlers.RuleFst
	}
	return m.(*dpl.Snd).X, handlers.RuleSnd
}

// evalc evaluates the command c in ρ and passes its value to k.
func (ev *handlersEvaluator) evalc(c handlers.Cmd, rho *handlersval.Env, k handlersCmdCont) handlersStep {
	switch c := c.(type) {
	case *handlers.Pure:
		return ev.descend(c.M, rho, handlersCont(k))
	case *handlers.Perform:
		return ev.descend(c.Arg, rho, func(v dpl.Term) handlersStep {
			i := -1
			for j := range ev.heap {
				if ev.heap[j].Name == c.Name {
					i = j
				}
			}
			switch {
			case c.Kind == handlers.UserOp:
				return ev.fail(c.Name, errors.New("operation not handled"))
			case i < 0:
				return ev.fail(c.Name, errors.New("no heap location"))
			case c.Kind == handlers.GetOp:
				if !ev.contract(handlers.RuleGet) {
					return nil
				}
				return ev.call(func() handlersStep { return k(ev.heap[i].Value) })
			}
			if !ev.contract(handlers.RulePut) {
				return nil
			}
			ev.heap[i].Value = v
			return ev.call(func() handlersStep { return k(&dpl.UnitLit{P: c.P}) })
		})
	case *handlers.Handle:
		return ev.descend(c.Arg, rho, func(v dpl.Term) handlersStep {
			if !ev.contract(handlers.RuleHandle) {
				return nil
			}
			rh := &handlers.RH{P: c.P, H: c.H, Vals: handlers.Projections(v, len(c.Vars)), Vars: c.Vars, Types: c.Types, Body: c.Body}
			return ev.descendc(rh, nil, k)
		})
	case *handlers.Let:
		return ev.descendc(c.Bound, rho, func(v dpl.Term) handlersStep {
			if !ev.contract(handlers.RuleCLet) {
				return nil
			}
			return ev.descendc(c.Body, rho.Bind(c.Name, v), k)
		})
	case *handlers.RH:
		rh := c
		if rho != nil {
			cp := *c
			cp.Vals = rho.Values(c.Vals)
			rh = &cp
		}
		return ev.call(func() handlersStep {
			return ev.evalRH(rh, func(out handlers.Cmd) handlersStep { return ev.descendc(out, nil, k) })
		})
	}
	s, _ := handlers.FormatCmdBounded(c, interderive.PrintBudget{Max: interderive.MaxStuckShown})
	return ev.fail(s, errors.New("no rule applies"))
}

// evalRH contracts rh by one clause of Fig. 7, after the RH its body's hole holds if
// any, and passes the clause's command to k.
func (ev *handlersEvaluator) evalRH(rh *handlers.RH, k handlersRHCont) handlersStep {
	rule, lets, x := handlers.RHShape(rh)
	if rule == "" { // the inner RH first; its contractum goes back into rh's body
		return ev.call(func() handlersStep {
			return ev.evalRH(x.(*handlers.RH), func(out handlers.Cmd) handlersStep {
				outer := *rh
				outer.Body = handlers.PlugSpine(lets, out)
				return ev.call(func() handlersStep { return ev.evalRH(&outer, k) })
			})
		})
	}
	if !ev.contract(rule) {
		return nil
	}
	out, err := handlers.ContractRH(ev.env, rh, rule, lets, x)
	if err != nil {
		s, _ := handlers.FormatCmdBounded(rh, interderive.PrintBudget{Max: interderive.MaxStuckShown})
		return ev.fail(s, err)
	}
	return ev.call(func() handlersStep { return k(out) })
}
