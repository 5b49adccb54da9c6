package interp

import (
	"errors"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/values/handlersval"
)

// The interpreter of the language of reverse handlers is the CPS evaluator back in
// direct style: interp evaluates a term, interpc a command, and reverse contracts an
// RH one clause of Fig. 7 at a time (after the RH its body's hole holds, if any: a
// call of reverse, whose command goes back into the body). Computations in tail
// position (a let's body, a term's let body, the command an RH contracts to, an rd's
// derivative) are iterations of their loop rather than Go calls; every other
// subcomputation is a call, bounded by MaxDepth.

// Handlers is the big-step interpreter of the language (handlers.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Handlers() handlers.Stage { return handlersStage{} }

type handlersStage struct{}

// handlersInterpreter holds one run.
type handlersInterpreter struct {
	ad    dpl.Differentiator
	heap  []handlers.Cell
	env   handlers.RHEnv
	fuel  *interderive.Counter
	limit int
	depth int
}

// Eval runs a checked program.
func (handlersStage) Eval(ad dpl.Differentiator, prog *handlers.Program, opts interderive.Options) (handlers.Answer, error) {
	names := &dpl.Names{}
	handlers.ReserveNames(names, prog)
	in := &handlersInterpreter{ad: ad, heap: prog.InitialHeap(), fuel: interderive.NewCounter(opts),
		env: handlers.RHEnv{Sigs: prog.Signatures(), Names: names}, limit: opts.Fuel}
	v, err := in.interpc(prog.Body, nil)
	if err != nil {
		var u *dpl.Undefined
		if errors.As(err, &u) {
			return handlers.Answer{Undefined: u}, nil
		}
		return handlers.Answer{}, err
	}
	return handlers.Answer{Value: v, Heap: in.heap}, nil
}

// enter counts a level of recursion; leave undoes it.
func (in *handlersInterpreter) enter() error {
	if in.depth >= MaxDepth {
		return TooDeep()
	}
	in.depth++
	return nil
}

func (in *handlersInterpreter) leave() { in.depth-- }

// failed is a failed contraction: undefined, a resource limit, or a stuck state.
func failed(what string, err error) error {
	var u *dpl.Undefined
	var se *interderive.StuckError
	if errors.As(err, &u) || errors.As(err, &se) || errors.Is(err, interderive.ErrResourceLimit) {
		return err
	}
	return interderive.Stuck(what, "%v", err)
}

// interp evaluates the term m in ρ.
func (in *handlersInterpreter) interp(m dpl.Term, rho *handlersval.Env) (dpl.Term, error) {
	if err := in.enter(); err != nil {
		return nil, err
	}
	defer in.leave()
	for {
		switch t := m.(type) {
		case *dpl.RealLit, *dpl.UnitLit:
			return t, nil
		case *dpl.Var:
			v, ok := rho.Lookup(t.Name)
			if !ok {
				return nil, interderive.Stuck(t.Name, "unbound variable")
			}
			return v, nil
		case *dpl.Pair:
			if dpl.IsClosedValue(t) {
				return t, nil
			}
			x, err := in.interp(t.X, rho)
			if err != nil {
				return nil, err
			}
			y, err := in.interp(t.Y, rho)
			if err != nil {
				return nil, err
			}
			return &dpl.Pair{P: t.P, X: x, Y: y, T: t.T, U: t.U}, nil
		case *dpl.Plus:
			x, err := in.interp(t.X, rho)
			if err != nil {
				return nil, err
			}
			y, err := in.interp(t.Y, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RulePlus); err != nil {
				return nil, err
			}
			v, err := dpl.AddReals(x, y)
			if err != nil {
				return nil, failed("+", err)
			}
			return v, nil
		case *dpl.OpApp:
			x, err := in.interp(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RuleOp); err != nil {
				return nil, err
			}
			v, err := dpl.Ev(t.Op, x)
			if err != nil {
				return nil, failed(t.Op.Name, err)
			}
			return v, nil
		case *dpl.Let:
			x, err := in.interp(t.Bound, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RuleLet); err != nil {
				return nil, err
			}
			m, rho = t.Body, rho.Bind(t.Name, x)
		case *dpl.Fst, *dpl.Snd:
			_, fst := t.(*dpl.Fst)
			arg, rule := handlersProjArg(t)
			x, err := in.interp(arg, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(rule); err != nil {
				return nil, err
			}
			p, ok := x.(*dpl.Pair)
			if !ok {
				return nil, interderive.Stuck(dpl.Format(x), "%s of a non-pair", rule)
			}
			if fst {
				return p.X, nil
			}
			return p.Y, nil
		case *dpl.Rd: // the cotangent first (Def. 5.1)
			w, err := in.interp(t.Cotangent, rho)
			if err != nil {
				return nil, err
			}
			v, err := in.interp(t.Point, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RuleRd); err != nil {
				return nil, err
			}
			budget := 0
			if in.limit > 0 {
				budget = in.limit - in.fuel.Steps()
			}
			d, err := handlers.Derivative(in.ad, w, v, t.Param, t.T, rho.Term(t.Body, t.Param), in.fuel.Steps(), budget)
			if err != nil {
				return nil, failed("rd", err)
			}
			m, rho = d, nil
		default:
			return nil, interderive.Stuck(dpl.FormatShort(m, interderive.MaxStuckShown), "no rule applies")
		}
	}
}

func handlersProjArg(m dpl.Term) (dpl.Term, string) {
	if f, ok := m.(*dpl.Fst); ok {
		return f.X, handlers.RuleFst
	}
	return m.(*dpl.Snd).X, handlers.RuleSnd
}

// interpc evaluates the command c in ρ.
func (in *handlersInterpreter) interpc(c handlers.Cmd, rho *handlersval.Env) (dpl.Term, error) {
	if err := in.enter(); err != nil {
		return nil, err
	}
	defer in.leave()
	for {
		switch t := c.(type) {
		case *handlers.Pure:
			return in.interp(t.M, rho)
		case *handlers.Perform:
			v, err := in.interp(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			if t.Kind == handlers.UserOp {
				return nil, interderive.Stuck(t.Name, "operation not handled")
			}
			i := -1
			for j := range in.heap {
				if in.heap[j].Name == t.Name {
					i = j
				}
			}
			if i < 0 {
				return nil, interderive.Stuck(t.Name, "no heap location")
			}
			if t.Kind == handlers.GetOp {
				if err := in.fuel.Contract(handlers.RuleGet); err != nil {
					return nil, err
				}
				return in.heap[i].Value, nil
			}
			if err := in.fuel.Contract(handlers.RulePut); err != nil {
				return nil, err
			}
			in.heap[i].Value = v
			return &dpl.UnitLit{P: t.P}, nil
		case *handlers.Handle:
			v, err := in.interp(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RuleHandle); err != nil {
				return nil, err
			}
			c, rho = &handlers.RH{P: t.P, H: t.H, Vals: handlers.Projections(v, len(t.Vars)), Vars: t.Vars, Types: t.Types, Body: t.Body}, nil
		case *handlers.Let:
			v, err := in.interpc(t.Bound, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(handlers.RuleCLet); err != nil {
				return nil, err
			}
			c, rho = t.Body, rho.Bind(t.Name, v)
		case *handlers.RH:
			rh := t
			if rho != nil {
				cp := *t
				cp.Vals = rho.Values(t.Vals)
				rh = &cp
			}
			out, err := in.reverse(rh)
			if err != nil {
				return nil, err
			}
			c, rho = out, nil
		default:
			return nil, interderive.Stuck("", "no rule applies to %T", c)
		}
	}
}

// reverse contracts rh by one clause of Fig. 7, after the RH its body's hole holds if
// any (whose command goes back into rh's body, and again): the clause's command.
func (in *handlersInterpreter) reverse(rh *handlers.RH) (handlers.Cmd, error) {
	if err := in.enter(); err != nil {
		return nil, err
	}
	defer in.leave()
	for {
		rule, lets, x := handlers.RHShape(rh)
		if rule == "" {
			out, err := in.reverse(x.(*handlers.RH))
			if err != nil {
				return nil, err
			}
			outer := *rh
			outer.Body = handlers.PlugSpine(lets, out)
			rh = &outer
			continue
		}
		if err := in.fuel.Contract(rule); err != nil {
			return nil, err
		}
		out, err := handlers.ContractRH(in.env, rh, rule, lets, x)
		if err != nil {
			s, _ := handlers.FormatCmdBounded(rh, interderive.PrintBudget{Max: interderive.MaxStuckShown})
			return nil, interderive.Stuck(s, "%v", err)
		}
		return out, nil
	}
}
