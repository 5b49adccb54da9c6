package machine

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/lambdaval"
	"github.com/interderive/interderive/lambda"
)

// The machine of the call-by-value λ-calculus is the reduction semantics refocused
// (the contractum is decomposed in place, not plugged back and decomposed from the
// root), with environments for substitution, as the calculus of closures has them:
// an eval/continue machine whose stack K is the context E defunctionalized, one frame
// per production of E. Each transition is one of
//
//	eval(n, ρ, K)                      -> continue(K, n)
//	eval(x, ρ, K)                      -> continue(K, ρ(x))
//	eval(\x:T. e, ρ, K)                -> continue(K, (\x:T. e)[ρ])
//	eval(e1 e2, ρ, K)                  -> eval(e1, ρ, [] e2[ρ] : K)
//	eval(e1 op e2, ρ, K)               -> eval(e1, ρ, [] op e2[ρ] : K)
//	eval(if0 e then e1 else e2, ρ, K)  -> eval(e, ρ, if0 [] then e1 else e2 [ρ] : K)
//	eval(let x = e1 in e2, ρ, K)       -> eval(e1, ρ, let x = [] in e2 [ρ] : K)
//	eval(letrec f:T = \x:S. e in b, ρ, K) -> eval(b, (f ↦ Unfold[ρ]) : ρ, K)      letrec
//	continue([], v)                    -> halt(v)
//	continue([] e[ρ] : K, v)           -> eval(e, ρ, v [] : K)
//	continue((\x:T. e)[ρ] [] : K, v)   -> eval(e, (x ↦ v) : ρ, K)                 beta
//	continue([] op e[ρ] : K, v)        -> eval(e, ρ, v op [] : K)
//	continue(n1 op [] : K, n2)         -> continue(K, n1 op n2)                   delta
//	continue(if0 [] then e1 else e2 [ρ] : K, 0) -> eval(e1, ρ, K)                  if0
//	continue(if0 [] then e1 else e2 [ρ] : K, n) -> eval(e2, ρ, K)   (n ≠ 0)        if0
//	continue(let x = [] in e [ρ] : K, v) -> eval(e, (x ↦ v) : ρ, K)              let
//
// run in an explicit loop, one transition an iteration, so that its depth is bounded
// by memory alone. No transition is compressed: the calculus has no performance
// target, and the machine reads as the table above.

// Lambda is the abstract machine of the λ-calculus (lambda.StageOf).
func (Stage) Lambda() lambda.Stage { return lambdaStage{} }

type lambdaStage struct{}

// Eval runs a closed, well-typed term on the machine and reads the answer back. An
// observer (opts.Observer) sees every state before its transition.
func (lambdaStage) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	m := &lambdaMachine{fuel: interderive.NewCounter(opts)}
	if obs := opts.StepObserver(); obs != nil {
		m.obs, m.pr = obs, interderive.NewItemPrinter(opts, m.fuel.Limits())
	}
	v, err := m.run(e)
	if err != nil {
		return lambda.Answer{}, err
	}
	return lambda.Answer{Value: lambdaval.ReadBack(v)}, nil
}

// lambdaMachine runs the machine for one program.
type lambdaMachine struct {
	fuel *interderive.Counter
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
}

// lambdaMode says which transition function applies to a state.
type lambdaMode uint8

const (
	lambdaEval lambdaMode = iota
	lambdaContinue
	lambdaHalt
)

// lambdaFrameKind is a production of the context E.
type lambdaFrameKind uint8

const (
	lambdaAppFun      lambdaFrameKind = iota // [] e[ρ]
	lambdaAppArg                             // v []
	lambdaBinaryLeft                         // [] op e[ρ]
	lambdaBinaryRight                        // v op []
	lambdaIf0                                // if0 [] then e1 else e2 [ρ]
	lambdaLet                                // let x = [] in e [ρ]
)

// lambdaFrame is a frame of K: kind says which production, and so which fields it
// uses.
type lambdaFrame struct {
	kind lambdaFrameKind
	e    lambda.Expr     // AppFun: the argument; BinaryLeft: the right operand; If0: the if0; Let: the let
	env  *lambdaval.Env  // AppFun, BinaryLeft, If0, Let: the environment of e
	v    lambdaval.Value // AppArg: the function; BinaryRight: the left operand
	op   lambda.Op       // BinaryLeft, BinaryRight
}

// lambdaState is a configuration of the machine.
type lambdaState struct {
	mode  lambdaMode
	term  lambda.Expr     // eval: the term under evaluation
	env   *lambdaval.Env  // eval: its environment
	value lambdaval.Value // continue: the value returned; halt: the answer
	k     []lambdaFrame   // the stack K, top last
}

func (s *lambdaState) toEval(e lambda.Expr, rho *lambdaval.Env) {
	s.mode, s.term, s.env, s.value = lambdaEval, e, rho, nil
}

func (s *lambdaState) toContinue(v lambdaval.Value) {
	s.mode, s.term, s.env, s.value = lambdaContinue, nil, nil, v
}

// run iterates the transitions from the initial state eval(e, ε, []) to the final one.
func (m *lambdaMachine) run(e lambda.Expr) (lambdaval.Value, error) {
	s := &lambdaState{mode: lambdaEval, term: e}
	for s.mode != lambdaHalt {
		if m.obs != nil {
			m.obs.Step(m.show(s))
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		var err error
		if s.mode == lambdaEval {
			err = m.eval(s)
		} else {
			err = m.cont(s)
		}
		if err != nil {
			return nil, err
		}
	}
	return s.value, nil
}

// eval is one transition from eval(e, ρ, K): decompose e by one level, or, for a
// value, return it to K.
func (m *lambdaMachine) eval(s *lambdaState) error {
	rho := s.env
	switch e := s.term.(type) {
	case *lambda.IntLit:
		s.toContinue(lambdaval.Int(e.N))
	case *lambda.Var:
		v, ok := rho.Lookup(e.Name)
		if !ok {
			return interderive.Stuck("", "unbound variable %s", e.Name)
		}
		s.toContinue(v)
	case *lambda.Lam:
		s.toContinue(&lambdaval.Closure{Lam: e, Env: rho})
	case *lambda.App:
		s.k = append(s.k, lambdaFrame{kind: lambdaAppFun, e: e.Arg, env: rho})
		s.toEval(e.Fun, rho)
	case *lambda.Binary:
		s.k = append(s.k, lambdaFrame{kind: lambdaBinaryLeft, op: e.Op, e: e.Y, env: rho})
		s.toEval(e.X, rho)
	case *lambda.If0:
		s.k = append(s.k, lambdaFrame{kind: lambdaIf0, e: e, env: rho})
		s.toEval(e.Cond, rho)
	case *lambda.Let:
		s.k = append(s.k, lambdaFrame{kind: lambdaLet, e: e, env: rho})
		s.toEval(e.Bound, rho)
	case *lambda.Letrec:
		if err := m.fuel.Contract(lambda.RuleLetrec); err != nil {
			return err
		}
		s.toEval(e.Body, lambdaval.BindLetrec(e, rho))
	default:
		return interderive.Stuck("", "cannot evaluate %T", e)
	}
	return nil
}

// cont is one transition from continue(K, v): pop a frame and either find a
// redex, contract it and go on with the contractum in place (refocusing), or start
// evaluating the next subterm.
func (m *lambdaMachine) cont(s *lambdaState) error {
	if len(s.k) == 0 {
		s.mode = lambdaHalt
		return nil
	}
	f := s.k[len(s.k)-1]
	s.k = s.k[:len(s.k)-1]
	v := s.value
	switch f.kind {
	case lambdaAppFun:
		s.k = append(s.k, lambdaFrame{kind: lambdaAppArg, v: v})
		s.toEval(f.e, f.env)
	case lambdaAppArg:
		clo, ok := f.v.(*lambdaval.Closure)
		if !ok {
			return interderive.Stuck(lambdaval.Show(f.v, v), "application of a non-function")
		}
		if err := m.fuel.Contract(lambda.RuleBeta); err != nil {
			return err
		}
		s.toEval(clo.Lam.Body, clo.Env.Bind(clo.Lam.Param, v))
	case lambdaBinaryLeft:
		s.k = append(s.k, lambdaFrame{kind: lambdaBinaryRight, op: f.op, v: v})
		s.toEval(f.e, f.env)
	case lambdaBinaryRight:
		n, ok := lambdaval.Delta(f.op, f.v, v)
		if !ok {
			return interderive.Stuck(lambdaval.Show(f.v, v), "%s applied to a non-integer", f.op)
		}
		if err := m.fuel.Contract(lambda.RuleDelta); err != nil {
			return err
		}
		s.toContinue(n)
	case lambdaIf0:
		n, ok := v.(lambdaval.Int)
		if !ok {
			return interderive.Stuck(lambdaval.Show(v), "if0 on a non-integer")
		}
		if err := m.fuel.Contract(lambda.RuleIf0); err != nil {
			return err
		}
		i := f.e.(*lambda.If0)
		if n == 0 {
			s.toEval(i.Then, f.env)
		} else {
			s.toEval(i.Else, f.env)
		}
	case lambdaLet:
		if err := m.fuel.Contract(lambda.RuleLet); err != nil {
			return err
		}
		l := f.e.(*lambda.Let)
		s.toEval(l.Body, f.env.Bind(l.Name, v))
	default:
		return interderive.Stuck("", "unknown frame %d", f.kind)
	}
	return nil
}

// show prints a state for a person, within the run's print budget: the mode, the term
// and its environment or the value, and K (innermost frame last), each binding and
// frame shortened.
func (m *lambdaMachine) show(s *lambdaState) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		whole := func(e lambda.Expr) {
			t, err := lambda.FormatBounded(e, w.Left())
			w.WriteString(t)
			w.Fail(err)
		}
		switch s.mode {
		case lambdaEval:
			fmt.Fprintf(&w, "%-10s ", "eval")
			whole(s.term)
			w.WriteString("  ρ={")
			for rho := s.env; rho != nil && !w.Stopped(); rho = rho.Next {
				if rho != s.env {
					w.WriteString(", ")
				}
				w.WriteString(rho.Name + " ↦ " + lambdaBrief(lambdaval.ReadBack(rho.V)))
			}
			w.WriteString("}")
		case lambdaContinue:
			fmt.Fprintf(&w, "%-10s ", "continue")
			whole(lambdaval.ReadBack(s.value))
		}
		w.WriteString("\n           K=[")
		for i, f := range s.k {
			if w.Stopped() {
				break
			}
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(lambdaFrameString(f))
		}
		w.WriteString("]")
		return w.Result()
	})
}

// lambdaFrameString shows a frame of K, its terms and values shortened.
func lambdaFrameString(f lambdaFrame) string {
	switch f.kind {
	case lambdaAppFun:
		return "[] " + lambdaBrief(f.e)
	case lambdaAppArg:
		return lambdaBrief(lambdaval.ReadBack(f.v)) + " []"
	case lambdaBinaryLeft:
		return "[] " + f.op.String() + " " + lambdaBrief(f.e)
	case lambdaBinaryRight:
		return lambdaBrief(lambdaval.ReadBack(f.v)) + " " + f.op.String() + " []"
	case lambdaIf0:
		i := f.e.(*lambda.If0)
		return "if0 [] then " + lambdaBrief(i.Then) + " else " + lambdaBrief(i.Else)
	case lambdaLet:
		l := f.e.(*lambda.Let)
		return "let " + l.Name + " = [] in " + lambdaBrief(l.Body)
	}
	return "?"
}

// lambdaBrief prints e shortened to 40 characters, printing no more of it than that
// takes.
func lambdaBrief(e lambda.Expr) string {
	s, err := lambda.FormatBounded(e, interderive.PrintBudget{Max: 4*40 + 4})
	if r := []rune(s); len(r) > 40 || err != nil {
		return string(r[:min(len(r), 37)]) + "..."
	}
	return s
}
