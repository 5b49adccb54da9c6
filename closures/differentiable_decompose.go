package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// DiffStep is the next step of a closure: an environment step (Env is "expand" or
// "lookup", Rule is empty: Contractum replaces Redex in Context), or a contraction
// (Rule names it as ordinary evaluation does; the evaluation contracts Redex), or
// Done: the closure is the value Value.
type DiffStep struct {
	Context    DiffContext
	Redex      DiffClosure
	Rule       string
	Env        string
	Contractum DiffClosure
	Done       bool
	Value      *DiffValue
}

// DecomposeDiff finds the next step of a closure under mode: it descends from the
// root, pushing frames, to the leftmost closure that is not a value (an environment
// step, or a letrec), and climbs back with values until it finds a redex. It is the
// reference's decomposition over closures, written as one loop.
func DecomposeDiff(mode dpl.Mode, cl DiffClosure) (DiffStep, error) {
	var E DiffContext
	for {
		v, st, err := descendDiff(mode, &E, cl)
		if v == nil {
			return st, err
		}
		if cl, st, err = climbDiff(&E, v); cl == nil {
			return st, err
		}
	}
}

// descendDiff goes down the closure to a value (returned) or a step.
func descendDiff(mode dpl.Mode, E *DiffContext, cl DiffClosure) (*DiffValue, DiffStep, error) {
	env := func(redex DiffClosure, kind string, contractum DiffClosure) (*DiffValue, DiffStep, error) {
		return nil, DiffStep{Context: *E, Redex: redex, Env: kind, Contractum: contractum}, nil
	}
	for {
		switch c := cl.(type) {
		case *DiffValue:
			return c, DiffStep{}, nil
		case *DiffClo:
			phi, rho := c.Fun, c.Env
			clo := func(m dpl.Term) *DiffClo { return &DiffClo{M: m, Fun: phi, Env: rho} }
			switch m := c.M.(type) {
			case *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit:
				return closed(m), DiffStep{}, nil
			case *dpl.Var:
				b, ok := rho.Lookup(m.Name)
				if !ok {
					return nil, DiffStep{}, interderive.Stuck("", "unbound variable %s", m.Name)
				}
				return env(c, "lookup", envValue(b, m.P, mode))
			case *dpl.Plus:
				return env(c, "expand", &DiffPlus{P: m.P, X: clo(m.X), Y: clo(m.Y)})
			case *dpl.OpApp:
				return env(c, "expand", &DiffOp{P: m.P, Op: m.Op, Arg: clo(m.Arg)})
			case *dpl.Let:
				return env(c, "expand", &DiffLet{P: m.P, Name: m.Name, T: m.T, Bound: clo(m.Bound), Body: m.Body, Fun: phi, Env: rho})
			case *dpl.Pair:
				return env(c, "expand", &DiffPair{P: m.P, X: clo(m.X), Y: clo(m.Y), T: m.T, U: m.U})
			case *dpl.Fst:
				return env(c, "expand", &DiffFst{P: m.P, X: clo(m.X), T: m.T, U: m.U})
			case *dpl.Snd:
				return env(c, "expand", &DiffSnd{P: m.P, X: clo(m.X), T: m.T, U: m.U})
			case *dpl.If:
				return env(c, "expand", &DiffIf{P: m.P, Cond: clo(m.Cond), Then: clo(m.Then), Else: clo(m.Else)})
			case *dpl.PredApp:
				return env(c, "expand", &DiffPred{P: m.P, Pred: m.Pred, Arg: clo(m.Arg)})
			case *dpl.Call:
				fn, err := lookupFun(phi, m)
				if err != nil {
					return nil, DiffStep{}, err
				}
				return env(c, "expand", &DiffCall{P: m.P, Name: m.Name, Fn: fn, Arg: clo(m.Arg)})
			case *dpl.Rd:
				return env(c, "expand", &DiffRd{P: m.P, Cotangent: clo(m.Cotangent), Point: clo(m.Point),
					Param: m.Param, T: m.T, Body: m.Body, Fun: phi, Env: rho})
			case *dpl.Letrec:
				return nil, DiffStep{Context: *E, Redex: c, Rule: dpl.RuleLetrec}, nil
			case *dpl.Fd:
				return nil, DiffStep{}, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", m.P)
			default:
				return nil, DiffStep{}, interderive.Stuck("", "cannot decompose %s", dpl.FormatShort(m, interderive.MaxStuckShown))
			}
		case *DiffPlus:
			*E, cl = append(*E, &DiffPlusLeft{P: c.P, Right: c.Y}), c.X
		case *DiffOp:
			*E, cl = append(*E, &DiffOpArg{P: c.P, Op: c.Op}), c.Arg
		case *DiffLet:
			*E, cl = append(*E, &DiffLetBound{P: c.P, Name: c.Name, T: c.T, Body: c.Body, Fun: c.Fun, Env: c.Env}), c.Bound
		case *DiffPair:
			*E, cl = append(*E, &DiffPairLeft{P: c.P, Right: c.Y, T: c.T, U: c.U}), c.X
		case *DiffFst:
			*E, cl = append(*E, &DiffFstArg{P: c.P, T: c.T, U: c.U}), c.X
		case *DiffSnd:
			*E, cl = append(*E, &DiffSndArg{P: c.P, T: c.T, U: c.U}), c.X
		case *DiffIf:
			*E, cl = append(*E, &DiffIfCond{P: c.P, Then: c.Then, Else: c.Else}), c.Cond
		case *DiffPred:
			*E, cl = append(*E, &DiffPredArg{P: c.P, Pred: c.Pred}), c.Arg
		case *DiffCall:
			*E, cl = append(*E, &DiffCallArg{P: c.P, Name: c.Name, Fn: c.Fn}), c.Arg
		case *DiffRd:
			*E, cl = append(*E, &DiffRdPoint{P: c.P, Cotangent: c.Cotangent, Param: c.Param, T: c.T, Body: c.Body, Fun: c.Fun, Env: c.Env}), c.Point
		default:
			return nil, DiffStep{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// lookupFun is φ(f) for the call c (dplval.Funs.Called).
func lookupFun(phi *dplval.Funs, c *dpl.Call) (*dplval.Closure, error) {
	fn, ok := phi.Called(c)
	if !ok {
		return nil, interderive.Stuck("", "call of the unbound function %s", c.Name)
	}
	return fn, nil
}

// climbDiff goes up the context with a value until it finds a redex, the empty context
// (the value is the whole closure's), or a closure still to evaluate (returned, with the
// frame that waits for it pushed).
func climbDiff(E *DiffContext, v *DiffValue) (DiffClosure, DiffStep, error) {
	for {
		_, isBool := v.Val.(*dpl.BoolLit)
		if len(*E) == 0 {
			if isBool {
				return nil, DiffStep{}, interderive.Stuck("", "a boolean %s where a value is expected", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
			}
			return nil, DiffStep{Done: true, Value: v}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		if _, cond := frame.(*DiffIfCond); isBool != cond {
			return nil, DiffStep{}, interderive.Stuck("", "ill-typed closure: %s", dpl.FormatShort(DiffSigma(dpl.Symbolic, frame.Plug(v)), interderive.MaxStuckShown))
		}
		found := func(rule string) (DiffClosure, DiffStep, error) {
			return nil, DiffStep{Context: *E, Redex: frame.Plug(v), Rule: rule}, nil
		}
		switch f := frame.(type) {
		case *DiffPlusLeft:
			*E = append(*E, &DiffPlusRight{P: f.P, Left: v})
			return f.Right, DiffStep{}, nil
		case *DiffPlusRight:
			return found(dpl.RulePlus)
		case *DiffOpArg:
			return found(dpl.RuleOp)
		case *DiffLetBound:
			return found(dpl.RuleLet)
		case *DiffPairLeft:
			*E = append(*E, &DiffPairRight{P: f.P, Left: v, T: f.T, U: f.U})
			return f.Right, DiffStep{}, nil
		case *DiffPairRight: // <V̂, Ŵ> is a value: keep climbing
			v = pairValue(f.P, f.Left, v, f.T, f.U)
		case *DiffFstArg:
			return found(dpl.RuleFst)
		case *DiffSndArg:
			return found(dpl.RuleSnd)
		case *DiffIfCond:
			return found(dpl.RuleIf)
		case *DiffPredArg:
			return found(dpl.RulePred)
		case *DiffCallArg:
			return found(dpl.RuleCall)
		case *DiffRdPoint:
			*E = append(*E, &DiffRdCotangent{P: f.P, Point: v, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env})
			return f.Cotangent, DiffStep{}, nil
		case *DiffRdCotangent:
			return found(dpl.RuleRd)
		default:
			return nil, DiffStep{}, interderive.Stuck("", "unknown context frame %T", frame)
		}
	}
}
