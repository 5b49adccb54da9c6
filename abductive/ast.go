package abductive

import (
	"sync/atomic"

	"github.com/interderive/interderive"
)

// Pos is a source position.
type Pos = interderive.Pos

// Expr is a term. Every node carries its position. The source syntax builds Num,
// Param, Var, Lam, App, Binary, Abduct and Let; a run builds the others too: Label
// (a provisional constant evaluated), Resid (a residual operation), Vec (a vector)
// and Mark (a term whose value gets a footprint added).
type Expr interface {
	Pos() Pos
	isExpr()
}

// Op is a binary operator.
type Op uint8

// The operators: the field's, the vector's, and the iterators.
const (
	OpAdd     Op = iota // +: F F -> F, and V V -> V
	OpSub               // -: F F -> F
	OpMul               // *: F F -> F, and F V -> V (scaling)
	OpDiv               // /: F F -> F
	OpDot               // .: V V -> F (dot product)
	OpIterAdd           // +L: (V -> V) -> V -> V
	OpIterMul           // *L: (V -> F) -> V -> V
)

func (op Op) String() string {
	switch op {
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpMul:
		return "*"
	case OpDiv:
		return "/"
	case OpDot:
		return "."
	case OpIterAdd:
		return "+L"
	case OpIterMul:
		return "*L"
	}
	return "?op"
}

// IsIterator reports whether op is +L or *L.
func (op Op) IsIterator() bool { return op == OpIterAdd || op == OpIterMul }

type (
	// Num is a numeral r: a value of type F with no label in it. At run time it
	// carries a footprint (doc.go, "Footprints"): (\x:F. 0) {1} is 0 with footprint
	// {ℓ1}.
	Num struct {
		P    Pos
		V    float64
		Foot Footprint
	}
	// Param is a provisional constant {r}, and the label ℓ it was given when the
	// program was loaded (Parse numbers them 1, 2, ... in source order).
	Param struct {
		P     Pos
		R     float64
		Label int
	}
	// Var is a variable occurrence x.
	Var struct {
		P    Pos
		Name string
	}
	// Lam is \x:T. e. Foot is the footprint a run added to it (empty in a program);
	// its whole footprint is Footprint's.
	Lam struct {
		P     Pos
		Param string
		T     Type
		Body  Expr
		Foot  Footprint

		fn funCache
	}
	// App is Fun Arg; its position is its argument's. Sugar says that it was written
	// let f @ p = Arg in t, where Fun is abduct f, p. t (printing keeps the form, so
	// that the provisional constants keep their order).
	App struct {
		P        Pos
		Fun, Arg Expr
		Sugar    bool
	}
	// Binary is X op Y; its position is its operator's. From is where an iterator's
	// fold has got to (0 in a program; the unfolding of X +L Y starts X +L[1] Y).
	Binary struct {
		P    Pos
		Op   Op
		X, Y Expr
		From int
	}
	// Abduct is abduct f, p. Body, the paper's A(f, p).t: applied to a model, it
	// binds F to the parameterised model and Par to its parameters. Foot is the
	// footprint a run added to it.
	Abduct struct {
		P      Pos
		F, Par string
		Body   Expr
		Foot   Footprint

		fn funCache
	}
	// Let is let x = Bound in Body (sugar for (\x:T. Body) Bound, and contracted as
	// it: a beta).
	Let struct {
		P     Pos
		Name  string
		Bound Expr
		Body  Expr

		fun atomic.Pointer[Lam] // LetFunction's result, built once
	}

	// Label is ℓN, a provisional constant evaluated: a residual of type F. Foot is
	// its footprint, which holds N.
	Label struct {
		P    Pos
		N    int
		Foot Footprint
	}
	// Resid is the residual X op Y of an operation of the field on two residuals of
	// which at least one has a label (doc.go, "Ground values are residuals"); Op is
	// +, -, * or /. Foot is its footprint, which holds the labels of X and Y.
	Resid struct {
		P    Pos
		Op   Op
		X, Y Expr
		Foot Footprint
	}
	// Vec is a vector [e1, ..., en]: a value when its elements are values of type F.
	// Foot is its footprint, which holds the labels of its elements.
	Vec struct {
		P     Pos
		Elems []Expr
		Foot  Footprint
	}
	// Mark is Body^{Foot}: Body, whose value gets the footprint Foot added. A beta
	// contraction leaves one: an application's result has the footprints of the
	// function and of the argument.
	Mark struct {
		P    Pos
		Foot Footprint
		Body Expr
	}
)

// funCache is what is known of a function node, which is immutable: that it is
// closed (Subst was given it as a value, so that it has no free variable and
// substitution need not walk it), and its footprint once computed. A run's terms
// share their subterms (substitution puts one value in many places), so that a walk
// that did not stop at what it knows would take time exponential in the run.
type funCache struct {
	closed atomic.Bool
	foot   atomic.Pointer[Footprint]
	free   atomic.Pointer[[]string]
}

func (e *Num) Pos() Pos    { return e.P }
func (e *Param) Pos() Pos  { return e.P }
func (e *Var) Pos() Pos    { return e.P }
func (e *Lam) Pos() Pos    { return e.P }
func (e *App) Pos() Pos    { return e.P }
func (e *Binary) Pos() Pos { return e.P }
func (e *Abduct) Pos() Pos { return e.P }
func (e *Let) Pos() Pos    { return e.P }
func (e *Label) Pos() Pos  { return e.P }
func (e *Resid) Pos() Pos  { return e.P }
func (e *Vec) Pos() Pos    { return e.P }
func (e *Mark) Pos() Pos   { return e.P }

func (*Num) isExpr()    {}
func (*Param) isExpr()  {}
func (*Var) isExpr()    {}
func (*Lam) isExpr()    {}
func (*App) isExpr()    {}
func (*Binary) isExpr() {}
func (*Abduct) isExpr() {}
func (*Let) isExpr()    {}
func (*Label) isExpr()  {}
func (*Resid) isExpr()  {}
func (*Vec) isExpr()    {}
func (*Mark) isExpr()   {}

// IsGround reports whether e is a value of type F: a number, a label or a residual.
func IsGround(e Expr) bool {
	switch e.(type) {
	case *Num, *Label, *Resid:
		return true
	}
	return false
}

// IsValue reports whether e is a value: a ground value, a vector of ground values, a
// lambda or an abduct.
func IsValue(e Expr) bool {
	switch e := e.(type) {
	case *Num, *Label, *Resid, *Lam, *Abduct:
		return true
	case *Vec:
		for _, x := range e.Elems {
			if !IsGround(x) {
				return false
			}
		}
		return true
	}
	return false
}

// Children are the immediate subterms of e, left to right.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Lam:
		return []Expr{e.Body}
	case *App:
		return []Expr{e.Fun, e.Arg}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Abduct:
		return []Expr{e.Body}
	case *Let:
		return []Expr{e.Bound, e.Body}
	case *Resid:
		return []Expr{e.X, e.Y}
	case *Vec:
		return e.Elems
	case *Mark:
		return []Expr{e.Body}
	}
	return nil
}

// Type is a type: F, V, or an arrow.
type Type interface {
	isType()
	String() string
}

// FieldType is the type F of the field (float64).
type FieldType struct{}

// VecType is V, a vector type. In an annotation it does not say which decoupling's
// vector type it is: the type checker infers it (check.go). Each occurrence is a
// node of its own.
type VecType struct{}

// Arrow is the function type From -> To.
type Arrow struct{ From, To Type }

func (FieldType) isType()        {}
func (*VecType) isType()         {}
func (*Arrow) isType()           {}
func (FieldType) String() string { return "F" }
func (*VecType) String() string  { return "V" }
func (a *Arrow) String() string  { return FormatType(a) }

// Field is the type F.
var Field Type = FieldType{}

// Fn is the type from -> to.
func Fn(from, to Type) *Arrow { return &Arrow{From: from, To: to} }
