package lambda

import (
	"sync/atomic"

	"github.com/interderive/interderive"
)

// Pos is a source position.
type Pos = interderive.Pos

// Expr is a term. Every node carries its position.
type Expr interface {
	Pos() Pos
	isExpr()
}

// Op is an arithmetic operator.
type Op uint8

// The operators.
const (
	OpAdd Op = iota
	OpSub
	OpMul
)

func (op Op) String() string {
	switch op {
	case OpAdd:
		return "+"
	case OpSub:
		return "-"
	case OpMul:
		return "*"
	}
	return "?op"
}

type (
	// IntLit is an integer constant n.
	IntLit struct {
		P Pos
		N int64
	}
	// Var is a variable occurrence x.
	Var struct {
		P    Pos
		Name string
	}
	// Lam is \x:T. e.
	Lam struct {
		P     Pos
		Param string
		T     Type
		Body  Expr

		closed atomic.Bool // known to be closed: Subst was given it as a value
	}
	// App is Fun Arg; its position is its argument's.
	App struct {
		P        Pos
		Fun, Arg Expr
	}
	// Binary is X op Y; its position is its operator's.
	Binary struct {
		P    Pos
		Op   Op
		X, Y Expr
	}
	// If0 is if0 Cond then Then else Else.
	If0 struct {
		P                Pos
		Cond, Then, Else Expr
	}
	// Let is let x = Bound in Body.
	Let struct {
		P     Pos
		Name  string
		Bound Expr
		Body  Expr
	}
	// Letrec is letrec f:T = Fun in Body: one recursive function, T its type.
	Letrec struct {
		P    Pos
		Name string
		T    Type
		Fun  *Lam
		Body Expr

		unfolded atomic.Pointer[Lam] // Unfold's result, built once (terms are immutable)
	}
)

func (e *IntLit) Pos() Pos { return e.P }
func (e *Var) Pos() Pos    { return e.P }
func (e *Lam) Pos() Pos    { return e.P }
func (e *App) Pos() Pos    { return e.P }
func (e *Binary) Pos() Pos { return e.P }
func (e *If0) Pos() Pos    { return e.P }
func (e *Let) Pos() Pos    { return e.P }
func (e *Letrec) Pos() Pos { return e.P }

func (*IntLit) isExpr() {}
func (*Var) isExpr()    {}
func (*Lam) isExpr()    {}
func (*App) isExpr()    {}
func (*Binary) isExpr() {}
func (*If0) isExpr()    {}
func (*Let) isExpr()    {}
func (*Letrec) isExpr() {}

// IsValue reports whether e is a value: an integer or a lambda.
func IsValue(e Expr) bool {
	switch e.(type) {
	case *IntLit, *Lam:
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
	case *If0:
		return []Expr{e.Cond, e.Then, e.Else}
	case *Let:
		return []Expr{e.Bound, e.Body}
	case *Letrec:
		return []Expr{e.Fun, e.Body}
	}
	return nil
}

// Type is a type: Int or an arrow.
type Type interface {
	isType()
	String() string
}

// IntType is the type Int.
type IntType struct{}

// Arrow is the function type From -> To.
type Arrow struct{ From, To Type }

func (IntType) isType()         {}
func (*Arrow) isType()          {}
func (IntType) String() string  { return "Int" }
func (a *Arrow) String() string { return FormatType(a) }

// Int is the type Int.
var Int Type = IntType{}

// Fn is the type from -> to.
func Fn(from, to Type) *Arrow { return &Arrow{From: from, To: to} }

// Equal reports whether two types are the same type. It loops along the codomains,
// the way types nest when written (Int -> Int -> ... -> Int).
func Equal(s, t Type) bool {
	for {
		a, ok1 := s.(*Arrow)
		b, ok2 := t.(*Arrow)
		if !ok1 || !ok2 {
			return !ok1 && !ok2 && s != nil && t != nil
		}
		if a == b {
			return true
		}
		if !Equal(a.From, b.From) {
			return false
		}
		s, t = a.To, b.To
	}
}
