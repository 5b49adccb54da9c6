package closures

import (
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// DiffSigma is the read-back σ: the term a closure stands for, under mode. ρ's values
// are substituted for their variables (under symbolic evaluation, those of symbolic
// bindings stay variables, as they stay in traces); the calls of φ's functions become
// calls resolved to their closures (dpl.Closure, the reference's representation of φ);
// a value V ▷ ρ(V) reads back as ρ(V) under ordinary evaluation and as V under symbolic
// evaluation. It recurses over the closure (and is meant for inspection, not for runs).
func DiffSigma(mode dpl.Mode, cl DiffClosure) dpl.Term {
	s := &diffSigma{mode: mode, funs: map[*dplval.Closure]*dpl.Closure{}}
	return s.closure(cl)
}

type diffSigma struct {
	mode dpl.Mode
	funs map[*dplval.Closure]*dpl.Closure
}

func (s *diffSigma) value(v *DiffValue) dpl.Term {
	if s.mode == dpl.Symbolic {
		return v.Term
	}
	return v.Val
}

func (s *diffSigma) closure(cl DiffClosure) dpl.Term {
	switch c := cl.(type) {
	case *DiffClo:
		return s.term(c.M, c.Fun, c.Env)
	case *DiffValue:
		return s.value(c)
	case *DiffPlus:
		return &dpl.Plus{P: c.P, X: s.closure(c.X), Y: s.closure(c.Y)}
	case *DiffOp:
		return &dpl.OpApp{P: c.P, Op: c.Op, Arg: s.closure(c.Arg)}
	case *DiffLet:
		return &dpl.Let{P: c.P, Name: c.Name, T: c.T, Bound: s.closure(c.Bound), Body: s.term(c.Body, c.Fun, c.Env.Bind(c.Name, nil, true))}
	case *DiffPair:
		return &dpl.Pair{P: c.P, X: s.closure(c.X), Y: s.closure(c.Y), T: c.T, U: c.U}
	case *DiffFst:
		return &dpl.Fst{P: c.P, X: s.closure(c.X), T: c.T, U: c.U}
	case *DiffSnd:
		return &dpl.Snd{P: c.P, X: s.closure(c.X), T: c.T, U: c.U}
	case *DiffIf:
		return &dpl.If{P: c.P, Cond: s.closure(c.Cond), Then: s.closure(c.Then), Else: s.closure(c.Else)}
	case *DiffPred:
		return &dpl.PredApp{P: c.P, Pred: c.Pred, Arg: s.closure(c.Arg)}
	case *DiffCall:
		return &dpl.Call{P: c.P, Name: c.Name, Arg: s.closure(c.Arg), Clo: s.fun(c.Fn)}
	case *DiffRd:
		return &dpl.Rd{P: c.P, Cotangent: s.closure(c.Cotangent), Point: s.closure(c.Point), Param: c.Param, T: c.T,
			Body: s.term(c.Body, c.Fun, c.Env.Bind(c.Param, nil, true))}
	}
	return nil
}

// term is σ(M[φ|ρ]). A binding without a value (nil Val) marks a variable bound
// around M by the read-back itself: it is never substituted.
func (s *diffSigma) term(m dpl.Term, phi *dplval.Funs, rho *dplval.Env) dpl.Term {
	m = dpl.SubstValues(m, func(x string) (dpl.Term, bool) {
		b, ok := rho.Lookup(x)
		if !ok || b.Val == nil || s.mode == dpl.Symbolic && b.Sym {
			return nil, false
		}
		return b.Val, true
	})
	return s.resolve(m, phi, "")
}

// resolve resolves the calls of m to the functions of φ, but for the function named
// self (whose calls a closure's body ties at call time).
func (s *diffSigma) resolve(m dpl.Term, phi *dplval.Funs, self string) dpl.Term {
	seen := map[string]bool{self: self != ""}
	for ; phi != nil; phi = phi.Next {
		if !seen[phi.Name] {
			seen[phi.Name] = true
			m = dpl.SubstClosure(m, phi.Name, s.fun(phi.Clo))
		}
	}
	return m
}

// fun is σ(clo_φ(f(x:T):U. M)): the closure whose body has the calls of φ's functions
// resolved (those of f stay unresolved: the recursion is tied at call time).
func (s *diffSigma) fun(fn *dplval.Closure) *dpl.Closure {
	if k, ok := s.funs[fn]; ok {
		return k
	}
	k := &dpl.Closure{Name: fn.Name, Param: fn.Param, ParamT: fn.ParamT, ResT: fn.ResT}
	s.funs[fn] = k
	k.Body = s.resolve(fn.Body, fn.Phi, fn.Name)
	return k
}
