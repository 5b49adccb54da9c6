package contexts

import "github.com/interderive/interderive/abductive"

// The evaluation contexts of the abductive calculus (abductive/doc.go), left to right:
//
//	E ::= [] | E t | v E | E $ t | v $ E | let x = E in t | [a, ..., E, t, ...] | E^L

// AbductiveFrame is one layer of a context E of the abductive calculus.
type AbductiveFrame interface {
	// Plug puts e in the frame's hole.
	Plug(e abductive.Expr) abductive.Expr
}

// The frames of E, one per production. Each keeps what it needs to rebuild the node
// it came from as it was (its position, an application's sugar, an iterator's index).
type (
	// AbductiveAppFun is [] t.
	AbductiveAppFun struct {
		P     abductive.Pos
		Arg   abductive.Expr
		Sugar bool
	}
	// AbductiveAppArg is v [].
	AbductiveAppArg struct {
		P     abductive.Pos
		Fun   abductive.Expr
		Sugar bool
	}
	// AbductiveBinaryLeft is [] $ t.
	AbductiveBinaryLeft struct {
		P     abductive.Pos
		Op    abductive.Op
		From  int
		Right abductive.Expr
	}
	// AbductiveBinaryRight is v $ [].
	AbductiveBinaryRight struct {
		P    abductive.Pos
		Op   abductive.Op
		From int
		Left abductive.Expr
	}
	// AbductiveLetBound is let x = [] in t.
	AbductiveLetBound struct {
		P    abductive.Pos
		Name string
		Body abductive.Expr
	}
	// AbductiveVecElem is [a1, ..., ak, [], t1, ..., tm]: the components before the
	// hole are values.
	AbductiveVecElem struct {
		P          abductive.Pos
		Done, Rest []abductive.Expr
		Foot       abductive.Footprint
	}
	// AbductiveMark is []^L: the value in the hole gets the footprint L added.
	AbductiveMark struct {
		P    abductive.Pos
		Foot abductive.Footprint
	}
)

func (f *AbductiveAppFun) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.App{P: f.P, Fun: e, Arg: f.Arg, Sugar: f.Sugar}
}
func (f *AbductiveAppArg) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.App{P: f.P, Fun: f.Fun, Arg: e, Sugar: f.Sugar}
}
func (f *AbductiveBinaryLeft) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.Binary{P: f.P, Op: f.Op, X: e, Y: f.Right, From: f.From}
}
func (f *AbductiveBinaryRight) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.Binary{P: f.P, Op: f.Op, X: f.Left, Y: e, From: f.From}
}
func (f *AbductiveLetBound) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.Let{P: f.P, Name: f.Name, Bound: e, Body: f.Body}
}
func (f *AbductiveVecElem) Plug(e abductive.Expr) abductive.Expr {
	elems := make([]abductive.Expr, 0, len(f.Done)+1+len(f.Rest))
	elems = append(append(append(elems, f.Done...), e), f.Rest...)
	return &abductive.Vec{P: f.P, Elems: elems, Foot: f.Foot}
}
func (f *AbductiveMark) Plug(e abductive.Expr) abductive.Expr {
	return &abductive.Mark{P: f.P, Foot: f.Foot, Body: e}
}

// Abductive is a context E of the abductive calculus: its frames, outermost first.
// The empty context is the hole [].
type Abductive []AbductiveFrame

// Plug is E[e]: it fills the hole of E with e, innermost frame first.
func (E Abductive) Plug(e abductive.Expr) abductive.Expr {
	for i := len(E) - 1; i >= 0; i-- {
		e = E[i].Plug(e)
	}
	return e
}

// String prints the context in the calculus's syntax with [] for the hole.
func (E Abductive) String() string {
	return abductive.Format(E.Plug(&abductive.Var{Name: Hole}))
}
