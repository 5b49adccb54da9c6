package contexts

import (
	"github.com/interderive/interderive/dpl"
)

// The evaluation contexts of the differentiable language (docs/differentiable.md;
// Abadi & Plotkin §3), left to right, and in M.rd[L](x:T. N) the point L before the
// cotangent M:
//
//	E      ::= [] | E + N | V + E | op(E) | let x:T = E in N | <E, N> | <V, E>
//	         | fst(E) | snd(E) | if E_bool then M else N | f(E)
//	         | M.rd[E](x:T. N) | E.rd[V](x:T. N)
//	E_bool ::= [] | pred(E)
//
// A context is a list of frames, outermost first. The boolean contexts are not a
// separate type: E_bool = pred(E) is the frame DiffPredArg on top of E, and the frame
// DiffIfCond takes a boolean term in its hole.

// DiffFrame is one layer of an evaluation context E or E_bool.
type DiffFrame interface {
	// Plug puts t in the frame's hole.
	Plug(t dpl.Term) dpl.Term
}

// The frames, one per production. Each keeps the position (and type subscripts) of the
// node it came from, so that plugging rebuilds the node as it was.
type (
	// DiffPlusLeft is E + N.
	DiffPlusLeft struct {
		P     dpl.Pos
		Right dpl.Term
	}
	// DiffPlusRight is V + E.
	DiffPlusRight struct {
		P    dpl.Pos
		Left dpl.Term
	}
	// DiffOpArg is op(E).
	DiffOpArg struct {
		P  dpl.Pos
		Op *dpl.Operator
	}
	// DiffLetBound is let x:T = E in N.
	DiffLetBound struct {
		P    dpl.Pos
		Name string
		T    dpl.Type
		Body dpl.Term
	}
	// DiffPairLeft is <E, N>_{T,U}.
	DiffPairLeft struct {
		P     dpl.Pos
		Right dpl.Term
		T, U  dpl.Type
	}
	// DiffPairRight is <V, E>_{T,U}.
	DiffPairRight struct {
		P    dpl.Pos
		Left dpl.Term
		T, U dpl.Type
	}
	// DiffFst is fst_{T,U}(E).
	DiffFst struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffSnd is snd_{T,U}(E).
	DiffSnd struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffIfCond is if E_bool then M else N.
	DiffIfCond struct {
		P          dpl.Pos
		Then, Else dpl.Term
	}
	// DiffPredArg is pred(E), the boolean context E_bool = pred(E).
	DiffPredArg struct {
		P    dpl.Pos
		Pred *dpl.Predicate
	}
	// DiffCallArg is f(E).
	DiffCallArg struct {
		P    dpl.Pos
		Name string
		Clo  *dpl.Closure
	}
	// DiffRdPoint is M.rd[E](x:T. N): the point is evaluated first.
	DiffRdPoint struct {
		P         dpl.Pos
		Cotangent dpl.Term
		Param     string
		T         dpl.Type
		Body      dpl.Term
	}
	// DiffRdCotangent is E.rd[V](x:T. N).
	DiffRdCotangent struct {
		P     dpl.Pos
		Point dpl.Term
		Param string
		T     dpl.Type
		Body  dpl.Term
	}
)

func (f *DiffPlusLeft) Plug(t dpl.Term) dpl.Term  { return &dpl.Plus{P: f.P, X: t, Y: f.Right} }
func (f *DiffPlusRight) Plug(t dpl.Term) dpl.Term { return &dpl.Plus{P: f.P, X: f.Left, Y: t} }
func (f *DiffOpArg) Plug(t dpl.Term) dpl.Term     { return &dpl.OpApp{P: f.P, Op: f.Op, Arg: t} }
func (f *DiffLetBound) Plug(t dpl.Term) dpl.Term {
	return &dpl.Let{P: f.P, Name: f.Name, T: f.T, Bound: t, Body: f.Body}
}
func (f *DiffPairLeft) Plug(t dpl.Term) dpl.Term {
	return &dpl.Pair{P: f.P, X: t, Y: f.Right, T: f.T, U: f.U}
}
func (f *DiffPairRight) Plug(t dpl.Term) dpl.Term {
	return &dpl.Pair{P: f.P, X: f.Left, Y: t, T: f.T, U: f.U}
}
func (f *DiffFst) Plug(t dpl.Term) dpl.Term { return &dpl.Fst{P: f.P, X: t, T: f.T, U: f.U} }
func (f *DiffSnd) Plug(t dpl.Term) dpl.Term { return &dpl.Snd{P: f.P, X: t, T: f.T, U: f.U} }
func (f *DiffIfCond) Plug(t dpl.Term) dpl.Term {
	return &dpl.If{P: f.P, Cond: t, Then: f.Then, Else: f.Else}
}
func (f *DiffPredArg) Plug(t dpl.Term) dpl.Term { return &dpl.PredApp{P: f.P, Pred: f.Pred, Arg: t} }
func (f *DiffCallArg) Plug(t dpl.Term) dpl.Term {
	return &dpl.Call{P: f.P, Name: f.Name, Arg: t, Clo: f.Clo}
}
func (f *DiffRdPoint) Plug(t dpl.Term) dpl.Term {
	return &dpl.Rd{P: f.P, Cotangent: f.Cotangent, Point: t, Param: f.Param, T: f.T, Body: f.Body}
}
func (f *DiffRdCotangent) Plug(t dpl.Term) dpl.Term {
	return &dpl.Rd{P: f.P, Cotangent: t, Point: f.Point, Param: f.Param, T: f.T, Body: f.Body}
}

// Diff is an evaluation context E (or E_bool) of the differentiable language: its
// frames, outermost first. The empty context is the hole [].
type Diff []DiffFrame

// Plug is E[t]: it fills the hole of E with t, innermost frame first, in a loop.
func (E Diff) Plug(t dpl.Term) dpl.Term {
	for i := len(E) - 1; i >= 0; i-- {
		t = E[i].Plug(t)
	}
	return t
}

// IsTrivial reports whether E is the hole [] itself (Figures 3 and 5 distinguish the
// trivial context).
func (E Diff) IsTrivial() bool { return len(E) == 0 }

// String prints the context in input syntax with [] for the hole.
func (E Diff) String() string {
	return dpl.Format(E.Plug(&dpl.Var{Name: Hole}))
}
