package closures

import (
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// The environments are internal/values/dplval's, shared with the machine, the CPS evaluator
// and the interpreter: a value environment ρ (dplval.Env; nil is ε), which binds
// ordinary variables to closed values, its Sym marking the bindings made by symbolic
// evaluation, whose variables stay symbolic in traces; function closures
// clo_φ(f(x:T):U. M) (dplval.Closure), and function environments φ (dplval.Funs).

// envValue is the value closure of the variable bound by the binding rho, under mode.
func envValue(rho *dplval.Env, p dpl.Pos, mode dpl.Mode) *DiffValue {
	if mode == dpl.Symbolic && rho.Sym {
		return &DiffValue{Term: &dpl.Var{P: p, Name: rho.Name}, Val: rho.Val}
	}
	return &DiffValue{Term: rho.Val, Val: rho.Val}
}

// bindValue extends ρ with the variables of the value v as it stands in a term, each
// bound (symbolic) to the part of v's value it stands for: the free variables of a
// trace built from v are then bound to their values.
func bindValue(rho *dplval.Env, v *DiffValue) *dplval.Env {
	return rho.BindValue(dplval.Value{Term: v.Term, Val: v.Val})
}

// DiffClosure is a closure cl of the differentiable language.
type DiffClosure interface{ isDiffClosure() }

type (
	// DiffClo is M[φ|ρ]: a term closed by its environments.
	DiffClo struct {
		M   dpl.Term
		Fun *dplval.Funs
		Env *dplval.Env
	}
	// DiffValue is a value V ▷ ρ(V): Term is the value as it stands in the term (with
	// the variables of symbolic bindings, under symbolic evaluation), Val its closed
	// value. Under ordinary evaluation they are the same closed value. Booleans are
	// values too (never symbolic).
	DiffValue struct {
		Term dpl.Term
		Val  dpl.Term
	}
	// DiffPlus is cl + cl.
	DiffPlus struct {
		P    dpl.Pos
		X, Y DiffClosure
	}
	// DiffOp is op(cl).
	DiffOp struct {
		P   dpl.Pos
		Op  *dpl.Operator
		Arg DiffClosure
	}
	// DiffLet is let x:T = cl in M[φ|ρ].
	DiffLet struct {
		P     dpl.Pos
		Name  string
		T     dpl.Type
		Bound DiffClosure
		Body  dpl.Term
		Fun   *dplval.Funs
		Env   *dplval.Env
	}
	// DiffPair is <cl, cl>_{T,U}.
	DiffPair struct {
		P    dpl.Pos
		X, Y DiffClosure
		T, U dpl.Type
	}
	// DiffFst is fst_{T,U}(cl).
	DiffFst struct {
		P    dpl.Pos
		X    DiffClosure
		T, U dpl.Type
	}
	// DiffSnd is snd_{T,U}(cl).
	DiffSnd struct {
		P    dpl.Pos
		X    DiffClosure
		T, U dpl.Type
	}
	// DiffIf is if cl then cl else cl; the branches are closures M[φ|ρ].
	DiffIf struct {
		P                dpl.Pos
		Cond, Then, Else DiffClosure
	}
	// DiffPred is the boolean pred(cl).
	DiffPred struct {
		P    dpl.Pos
		Pred *dpl.Predicate
		Arg  DiffClosure
	}
	// DiffCall is clo_φ(f(x:T):U. M)(cl): a call, its function variable looked up.
	DiffCall struct {
		P    dpl.Pos
		Name string
		Fn   *dplval.Closure
		Arg  DiffClosure
	}
	// DiffRd is cl.rd[cl](x:T. N)[φ|ρ]: the body stays a term, closed by φ and ρ.
	DiffRd struct {
		P         dpl.Pos
		Cotangent DiffClosure
		Point     DiffClosure
		Param     string
		T         dpl.Type
		Body      dpl.Term
		Fun       *dplval.Funs
		Env       *dplval.Env
	}
)

func (*DiffClo) isDiffClosure()   {}
func (*DiffValue) isDiffClosure() {}
func (*DiffPlus) isDiffClosure()  {}
func (*DiffOp) isDiffClosure()    {}
func (*DiffLet) isDiffClosure()   {}
func (*DiffPair) isDiffClosure()  {}
func (*DiffFst) isDiffClosure()   {}
func (*DiffSnd) isDiffClosure()   {}
func (*DiffIf) isDiffClosure()    {}
func (*DiffPred) isDiffClosure()  {}
func (*DiffCall) isDiffClosure()  {}
func (*DiffRd) isDiffClosure()    {}

// closed is the closed value v as a value closure.
func closed(v dpl.Term) *DiffValue { return &DiffValue{Term: v, Val: v} }

// DiffFrame is a frame of a closure context.
type DiffFrame interface {
	// Plug puts a closure in the frame's hole.
	Plug(cl DiffClosure) DiffClosure
}

// The frames of the closure contexts, one per production of the paper's E and E_bool
// (left to right; in cl.rd[cl](x:T. N), the point first).
type (
	// DiffPlusLeft is [] + cl.
	DiffPlusLeft struct {
		P     dpl.Pos
		Right DiffClosure
	}
	// DiffPlusRight is V̂ + [].
	DiffPlusRight struct {
		P    dpl.Pos
		Left *DiffValue
	}
	// DiffOpArg is op([]).
	DiffOpArg struct {
		P  dpl.Pos
		Op *dpl.Operator
	}
	// DiffLetBound is let x:T = [] in M[φ|ρ].
	DiffLetBound struct {
		P    dpl.Pos
		Name string
		T    dpl.Type
		Body dpl.Term
		Fun  *dplval.Funs
		Env  *dplval.Env
	}
	// DiffPairLeft is <[], cl>_{T,U}.
	DiffPairLeft struct {
		P     dpl.Pos
		Right DiffClosure
		T, U  dpl.Type
	}
	// DiffPairRight is <V̂, []>_{T,U}.
	DiffPairRight struct {
		P    dpl.Pos
		Left *DiffValue
		T, U dpl.Type
	}
	// DiffFstArg is fst_{T,U}([]).
	DiffFstArg struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffSndArg is snd_{T,U}([]).
	DiffSndArg struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffIfCond is if [] then cl else cl.
	DiffIfCond struct {
		P          dpl.Pos
		Then, Else DiffClosure
	}
	// DiffPredArg is pred([]).
	DiffPredArg struct {
		P    dpl.Pos
		Pred *dpl.Predicate
	}
	// DiffCallArg is clo_φ(f(x:T):U. M)([]).
	DiffCallArg struct {
		P    dpl.Pos
		Name string
		Fn   *dplval.Closure
	}
	// DiffRdPoint is cl.rd[[]](x:T. N)[φ|ρ].
	DiffRdPoint struct {
		P         dpl.Pos
		Cotangent DiffClosure
		Param     string
		T         dpl.Type
		Body      dpl.Term
		Fun       *dplval.Funs
		Env       *dplval.Env
	}
	// DiffRdCotangent is [].rd[V̂](x:T. N)[φ|ρ].
	DiffRdCotangent struct {
		P     dpl.Pos
		Point *DiffValue
		Param string
		T     dpl.Type
		Body  dpl.Term
		Fun   *dplval.Funs
		Env   *dplval.Env
	}
)

func (f *DiffPlusLeft) Plug(cl DiffClosure) DiffClosure  { return &DiffPlus{P: f.P, X: cl, Y: f.Right} }
func (f *DiffPlusRight) Plug(cl DiffClosure) DiffClosure { return &DiffPlus{P: f.P, X: f.Left, Y: cl} }
func (f *DiffOpArg) Plug(cl DiffClosure) DiffClosure     { return &DiffOp{P: f.P, Op: f.Op, Arg: cl} }
func (f *DiffLetBound) Plug(cl DiffClosure) DiffClosure {
	return &DiffLet{P: f.P, Name: f.Name, T: f.T, Bound: cl, Body: f.Body, Fun: f.Fun, Env: f.Env}
}
func (f *DiffPairLeft) Plug(cl DiffClosure) DiffClosure {
	return &DiffPair{P: f.P, X: cl, Y: f.Right, T: f.T, U: f.U}
}
func (f *DiffPairRight) Plug(cl DiffClosure) DiffClosure {
	return &DiffPair{P: f.P, X: f.Left, Y: cl, T: f.T, U: f.U}
}
func (f *DiffFstArg) Plug(cl DiffClosure) DiffClosure { return &DiffFst{P: f.P, X: cl, T: f.T, U: f.U} }
func (f *DiffSndArg) Plug(cl DiffClosure) DiffClosure { return &DiffSnd{P: f.P, X: cl, T: f.T, U: f.U} }
func (f *DiffIfCond) Plug(cl DiffClosure) DiffClosure {
	return &DiffIf{P: f.P, Cond: cl, Then: f.Then, Else: f.Else}
}
func (f *DiffPredArg) Plug(cl DiffClosure) DiffClosure {
	return &DiffPred{P: f.P, Pred: f.Pred, Arg: cl}
}
func (f *DiffCallArg) Plug(cl DiffClosure) DiffClosure {
	return &DiffCall{P: f.P, Name: f.Name, Fn: f.Fn, Arg: cl}
}
func (f *DiffRdPoint) Plug(cl DiffClosure) DiffClosure {
	return &DiffRd{P: f.P, Cotangent: f.Cotangent, Point: cl, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env}
}
func (f *DiffRdCotangent) Plug(cl DiffClosure) DiffClosure {
	return &DiffRd{P: f.P, Cotangent: cl, Point: f.Point, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env}
}

// DiffContext is a closure context, outermost frame first; the empty context is [].
type DiffContext []DiffFrame

// Plug fills the hole, innermost frame first, in a loop.
func (E DiffContext) Plug(cl DiffClosure) DiffClosure {
	for i := len(E) - 1; i >= 0; i-- {
		cl = E[i].Plug(cl)
	}
	return cl
}

// IsTrivial reports whether E is the hole [] itself (Figure 5 distinguishes it).
func (E DiffContext) IsTrivial() bool { return len(E) == 0 }

// String prints the context read back, with [] for the hole.
func (E DiffContext) String() string {
	hole := &dpl.Var{Name: contexts.Hole}
	return dpl.Format(DiffSigma(dpl.Symbolic, E.Plug(&DiffValue{Term: hole, Val: hole})))
}

// pairValue is the value <V, W>_{T,U} ▷ <ρ(V), ρ(W)>_{T,U}.
func pairValue(p dpl.Pos, a, b *DiffValue, t, u dpl.Type) *DiffValue {
	val := &dpl.Pair{P: p, X: a.Val, Y: b.Val, T: t, U: u}
	if a.Term == a.Val && b.Term == b.Val {
		return closed(val)
	}
	return &DiffValue{Term: &dpl.Pair{P: p, X: a.Term, Y: b.Term, T: t, U: u}, Val: val}
}
