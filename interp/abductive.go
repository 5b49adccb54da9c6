package interp

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/values/abductiveval"
)

// The interpreter of the abductive calculus is the CPS evaluator back in direct
// style: its continuations become the Go stack, interp returns a value where the
// evaluator passed it to a continuation, and apply applies a function (beta for a
// lambda, decoupling for an abduct). A computation in tail position (the body of a
// let, of a function called, of a decoupling) is an iteration of interp's loop rather
// than a Go call; the footprints the marks of those calls add (the continuation
// abductiveMarked of the CPS evaluator) are gathered in the loop and added to the value
// it returns, so that tail calls still run in constant space. An iterator's fold (the
// CPS evaluator's inner layer) is a loop too: the unfoldings with g applied to each
// basis vector, then the combinations from the last. Every other subcomputation is a
// call of interp, bounded by MaxDepth.

// Abductive is the big-step interpreter of the abductive calculus
// (abductive.StageOf). Its observer sees its contractions and its decouplings'
// reports.
func (Stage) Abductive() abductive.Stage { return abductiveStage{} }

type abductiveStage struct{}

// abductiveInterpreter holds one run: the fuel, σ, the observer, and the depth of
// interp's recursion.
type abductiveInterpreter struct {
	fuel  *interderive.Counter
	sigma abductive.Store
	obs   interderive.Observer
	depth int
}

// Eval runs a closed, well-typed term and reads the answer back.
func (abductiveStage) Eval(e abductive.Expr, opts interderive.Options) (abductive.Answer, error) {
	in := &abductiveInterpreter{fuel: interderive.NewCounter(opts), sigma: abductive.Sigma(e), obs: opts.Observer}
	v, err := in.interp(e, nil)
	if err != nil {
		return abductive.Answer{}, err
	}
	return abductive.Answer{Value: abductiveval.ReadBack(v), Sigma: in.sigma}, nil
}

// interp evaluates e in ρ, within the depth bound.
func (in *abductiveInterpreter) interp(e abductive.Expr, rho *abductiveval.Env) (*abductiveval.Closure, error) {
	if in.depth >= MaxDepth {
		return nil, TooDeep()
	}
	in.depth++
	v, err := in.eval(e, rho)
	in.depth--
	return v, err
}

// eval is interp's body: one iteration per computation in tail position; foot
// gathers the footprints the calls in tail position add to the value.
func (in *abductiveInterpreter) eval(e abductive.Expr, rho *abductiveval.Env) (*abductiveval.Closure, error) {
	var foot abductive.Footprint
	for {
		if abductive.IsValue(e) {
			switch e.(type) {
			case *abductive.Lam, *abductive.Abduct:
				return (&abductiveval.Closure{E: e, Env: rho}).WithFoot(foot), nil
			}
			return abductiveval.Closed(e).WithFoot(foot), nil
		}
		switch t := e.(type) {
		case *abductive.Var:
			v, ok := rho.Lookup(t.Name)
			if !ok {
				return nil, interderive.Stuck("", "unbound variable %s", t.Name)
			}
			return v.WithFoot(foot), nil
		case *abductive.Param:
			if err := in.fuel.Contract(abductive.RuleParam); err != nil {
				return nil, err
			}
			return abductiveval.Closed(&abductive.Label{P: t.P, N: t.Label, Foot: abductive.Single(t.Label)}).WithFoot(foot), nil
		case *abductive.Binary:
			x, err := in.interp(t.X, rho)
			if err != nil {
				return nil, err
			}
			y, err := in.interp(t.Y, rho)
			if err != nil {
				return nil, err
			}
			var v *abductiveval.Closure
			if t.Op.IsIterator() {
				v, err = in.fold(t.P, t.Op, t.From, x, y)
			} else {
				v, err = in.delta(t.P, t.Op, x, y)
			}
			if err != nil {
				return nil, err
			}
			return v.WithFoot(foot), nil
		case *abductive.App:
			f, err := in.interp(t.Fun, rho)
			if err != nil {
				return nil, err
			}
			a, err := in.interp(t.Arg, rho)
			if err != nil {
				return nil, err
			}
			var add abductive.Footprint
			if e, rho, add, err = in.apply(t.P, f, a); err != nil {
				return nil, err
			}
			foot = abductive.Union(foot, add)
		case *abductive.Let:
			v, err := in.interp(t.Bound, rho)
			if err != nil {
				return nil, err
			}
			if err := in.fuel.Contract(abductive.RuleBeta); err != nil {
				return nil, err
			}
			foot = abductive.Union(foot, abductive.Union(abductiveval.LetFootprint(t, rho), v.Footprint()))
			e, rho = t.Body, rho.Bind(t.Name, v)
		case *abductive.Vec:
			elems := make([]abductive.Expr, len(t.Elems))
			vfoot := t.Foot
			for i, x := range t.Elems {
				v, err := in.interp(x, rho)
				if err != nil {
					return nil, err
				}
				elems[i] = v.E
				vfoot = abductive.Union(vfoot, v.Footprint())
			}
			return abductiveval.Closed(&abductive.Vec{P: t.P, Elems: elems, Foot: vfoot}).WithFoot(foot), nil
		case *abductive.Mark:
			foot = abductive.Union(foot, t.Foot)
			e = t.Body
		default:
			return nil, interderive.Stuck("", "cannot interpret %T", e)
		}
	}
}

// apply applies a function value to an argument: a lambda (beta) goes on with its
// body in its environment extended with the argument, an abduct (decoupling) with its
// body in its environment extended with the model and the parameters, which interp
// evaluates in tail position; foot is the footprint the call adds to its value.
func (in *abductiveInterpreter) apply(p abductive.Pos, f, a *abductiveval.Closure) (e abductive.Expr, rho *abductiveval.Env, foot abductive.Footprint, err error) {
	foot = abductive.Union(f.Footprint(), a.Footprint())
	switch fun := f.E.(type) {
	case *abductive.Lam:
		if err := in.fuel.Contract(abductive.RuleBeta); err != nil {
			return nil, nil, nil, err
		}
		return fun.Body, f.Env.Bind(fun.Param, a), foot, nil
	case *abductive.Abduct:
		model, params, d := abductiveval.Decouple(p, in.sigma, a)
		if err := in.fuel.Contract(abductive.RuleAbduct); err != nil {
			return nil, nil, nil, err
		}
		if in.obs != nil {
			in.obs.Report(in.fuel.Steps(), "decoupling", d, d.String())
		}
		return fun.Body, f.Env.Bind(fun.F, model).Bind(fun.Par, params), foot, nil
	}
	return nil, nil, nil, interderive.Stuck("", "application of a non-function")
}

// delta is δ on values.
func (in *abductiveInterpreter) delta(p abductive.Pos, op abductive.Op, x, y *abductiveval.Closure) (*abductiveval.Closure, error) {
	w, ok := abductiveval.Delta(p, op, x, y)
	if !ok {
		return nil, interderive.Stuck("", "no δ for %s on these operands", op)
	}
	if err := in.fuel.Contract(abductive.RuleDelta); err != nil {
		return nil, err
	}
	return w, nil
}

// fold is the iterator g $[from] v0: an unfolding (iterate) and g applied to the
// basis vector for each component from the from-th on, the last unfolding giving v0
// with g's footprint, then the combinations (delta) from the last component back.
func (in *abductiveInterpreter) fold(p abductive.Pos, op abductive.Op, from int, g, v0 *abductiveval.Closure) (*abductiveval.Closure, error) {
	n, ok := abductiveval.Dimension(v0)
	if !ok {
		return nil, interderive.Stuck("", "the iterator's operand is not a vector")
	}
	var xs []*abductiveval.Closure
	for k := from; ; k++ {
		if err := in.fuel.Contract(abductive.RuleIterate); err != nil {
			return nil, err
		}
		if k >= n {
			break
		}
		e, rho, foot, err := in.apply(p, g, abductiveval.Basis(p, k, n))
		if err != nil {
			return nil, err
		}
		x, err := in.interp(e, rho)
		if err != nil {
			return nil, err
		}
		xs = append(xs, x.WithFoot(foot))
	}
	acc := v0.WithFoot(g.Footprint())
	for i := len(xs) - 1; i >= 0; i-- {
		var err error
		if acc, err = in.delta(p, abductiveval.Combine(op), xs[i], acc); err != nil {
			return nil, err
		}
	}
	return acc, nil
}
