package interp

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/lambdaval"
	"github.com/interderive/interderive/lambda"
)

// The interpreter of the call-by-value λ-calculus is the CPS evaluator back in direct
// style: its continuations become the Go stack, interp returns a value where the
// evaluator passed it to a continuation, and apply applies a closure (beta) as Siek &
// Garcia's apply does. A computation in tail position (a branch of if0, the body of a
// let, of a letrec, of a function called) is an iteration of interp's loop rather than
// a Go call, so that tail calls run in constant space; every other subcomputation is
// a call of interp, bounded by MaxDepth (the same bound as every interpreter's: a
// level of this recursion, interp and eval, takes less of the Go stack than
// DepthFrame, as TestLambdaInterpDepth in internal/calculi/lambda checks).

// Lambda is the big-step interpreter of the λ-calculus (lambda.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Lambda() lambda.Stage { return lambdaStage{} }

type lambdaStage struct{}

// lambdaInterpreter holds one run: the fuel, and the depth of interp's recursion.
type lambdaInterpreter struct {
	fuel  *interderive.Counter
	depth int
}

// Eval runs a closed, well-typed term and reads the answer back.
func (lambdaStage) Eval(e lambda.Expr, opts interderive.Options) (lambda.Answer, error) {
	in := &lambdaInterpreter{fuel: interderive.NewCounter(opts)}
	v, err := in.interp(e, nil)
	if err != nil {
		return lambda.Answer{}, err
	}
	return lambda.Answer{Value: lambdaval.ReadBack(v)}, nil
}

// interp evaluates e in ρ, within the depth bound.
func (in *lambdaInterpreter) interp(e lambda.Expr, rho *lambdaval.Env) (lambdaval.Value, error) {
	if in.depth >= MaxDepth {
		return nil, TooDeep()
	}
	in.depth++
	v, err := in.eval(e, rho)
	in.depth--
	return v, err
}

// eval is interp's body: one iteration per computation in tail position.
func (in *lambdaInterpreter) eval(e lambda.Expr, rho *lambdaval.Env) (lambdaval.Value, error) {
	for {
		switch t := e.(type) {
		case *lambda.IntLit:
			return lambdaval.Int(t.N), nil
		case *lambda.Var:
			v, ok := rho.Lookup(t.Name)
			if !ok {
				return nil, interderive.Stuck("", "unbound variable %s", t.Name)
			}
			return v, nil
		case *lambda.Lam:
			return &lambdaval.Closure{Lam: t, Env: rho}, nil
		case *lambda.Binary:
			x, err := in.interp(t.X, rho)
			if err != nil {
				return nil, err
			}
			y, err := in.interp(t.Y, rho)
			if err != nil {
				return nil, err
			}
			return in.delta(t.Op, x, y)
		case *lambda.If0:
			c, err := in.interp(t.Cond, rho)
			if err != nil {
				return nil, err
			}
			n, ok := c.(lambdaval.Int)
			if !ok {
				return nil, interderive.Stuck(lambdaval.Show(c), "if0 on a non-integer")
			}
			if err := in.fuel.Contract(lambda.RuleIf0); err != nil {
				return nil, err
			}
			if e = t.Else; n == 0 {
				e = t.Then
			}
		case *lambda.App:
			f, err := in.interp(t.Fun, rho)
			if err != nil {
				return nil, err
			}
			a, err := in.interp(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			if e, rho, err = in.apply(f, a); err != nil {
				return nil, err
			}
		case *lambda.Let:
			v, err := in.interp(t.Bound, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(lambda.RuleLet); err != nil {
				return nil, err
			}
			e, rho = t.Body, rho.Bind(t.Name, v)
		case *lambda.Letrec:
			if err := in.fuel.Contract(lambda.RuleLetrec); err != nil {
				return nil, err
			}
			e, rho = t.Body, lambdaval.BindLetrec(t, rho)
		default:
			return nil, interderive.Stuck("", "cannot interpret %T", e)
		}
	}
}

// apply applies a function value to an argument: a closure (beta) goes on with its
// body in its environment extended with the argument, which interp evaluates in tail
// position.
func (in *lambdaInterpreter) apply(f, a lambdaval.Value) (lambda.Expr, *lambdaval.Env, error) {
	clo, ok := f.(*lambdaval.Closure)
	if !ok {
		return nil, nil, interderive.Stuck(lambdaval.Show(f, a), "application of a non-function")
	}
	if err := in.fuel.Contract(lambda.RuleBeta); err != nil {
		return nil, nil, err
	}
	return clo.Lam.Body, clo.Env.Bind(clo.Lam.Param, a), nil
}

// delta is δ on values.
func (in *lambdaInterpreter) delta(op lambda.Op, x, y lambdaval.Value) (lambdaval.Value, error) {
	n, ok := lambdaval.Delta(op, x, y)
	if !ok {
		return nil, interderive.Stuck(lambdaval.Show(x, y), "%s applied to a non-integer", op)
	}
	if err := in.fuel.Contract(lambda.RuleDelta); err != nil {
		return nil, err
	}
	return n, nil
}
