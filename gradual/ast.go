package gradual

import (
	"sync/atomic"

	"github.com/interderive/interderive"
)

// Pos is a source position.
type Pos = interderive.Pos

// Label is a blame label: an identifier written in the program (l1, pass) or the
// source position LINE:COL of the node that caused an inserted cast.
type Label string

// Expr is a term of GTLC or of the cast calculus λ⟨·⟩. Both languages share one
// syntax tree: GTLC uses Asc and unannotated binders, which cast insertion removes;
// the cast calculus adds Cast, Coerce and Blame. Every node carries its position.
type Expr interface {
	Pos() Pos
	isExpr()
}

// Op is a primitive operator.
type Op uint8

// The primitive operators: unary inc, dec, zero? and binary + - * = <.
const (
	OpInc Op = iota
	OpDec
	OpZero
	OpAdd
	OpSub
	OpMul
	OpEq
	OpLt
)

var opNames = [...]string{"inc", "dec", "zero?", "+", "-", "*", "=", "<"}

func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "?op"
}

// IsBinary reports whether op is written infix between two operands.
func (op Op) IsBinary() bool { return op >= OpAdd }

// Signature returns the argument types and result type of op.
func (op Op) Signature() (args []Type, result Type) {
	switch op {
	case OpInc, OpDec:
		return []Type{Int}, Int
	case OpZero:
		return []Type{Int}, Bool
	case OpAdd, OpSub, OpMul:
		return []Type{Int, Int}, Int
	default: // OpEq, OpLt
		return []Type{Int, Int}, Bool
	}
}

type (
	// IntLit is an integer constant.
	IntLit struct {
		P Pos
		N int64
	}
	// BoolLit is true or false.
	BoolLit struct {
		P Pos
		B bool
	}
	// Var is a variable occurrence.
	Var struct {
		P    Pos
		Name string
	}
	// Lam is \x:T. e; an unannotated \x. e is parsed with T = Dyn.
	Lam struct {
		P     Pos
		Param string
		T     Type
		Body  Expr

		noClosure atomic.Uint32 // MakesNoClosure's answer, once known: 0 unknown, 1 yes, 2 no
	}
	// App is the application Fun Arg. Its position (and so its positional blame label)
	// is that of the argument: the point of the call, distinct for each application in
	// a curried call f x y.
	App struct {
		P        Pos
		Fun, Arg Expr
	}
	// Unary is op e for inc, dec and zero?.
	Unary struct {
		P  Pos
		Op Op
		X  Expr
	}
	// Binary is e op e; its position is that of the operator.
	Binary struct {
		P    Pos
		Op   Op
		X, Y Expr
	}
	// If is if Cond then Then else Else.
	If struct {
		P                Pos
		Cond, Then, Else Expr
	}
	// Asc is the GTLC ascription (e : T) or (e : T)^l; L is empty when no label was
	// written.
	Asc struct {
		P Pos
		X Expr
		T Type
		L Label
	}
	// Let is let x:T = e in e; T is nil when GTLC leaves it out.
	Let struct {
		P     Pos
		Name  string
		T     Type
		Bound Expr
		Body  Expr
	}
	// Letrec is letrec f:T = \x:S. e in b: one recursive function.
	Letrec struct {
		P    Pos
		Name string
		T    Type
		Fun  *Lam
		Body Expr

		unfolded atomic.Pointer[Lam] // Unfold's result, built once (terms are immutable)
	}
	// Cast is the type-based cast <Target <= Source>^L X of the cast calculus.
	Cast struct {
		P              Pos
		Target, Source Type
		L              Label
		X              Expr
	}
	// Coerce is the coercion application <C> X.
	Coerce struct {
		P Pos
		C Coercion
		X Expr
	}
	// Blame is blame l.
	Blame struct {
		P Pos
		L Label
	}
)

func (e *IntLit) Pos() Pos  { return e.P }
func (e *BoolLit) Pos() Pos { return e.P }
func (e *Var) Pos() Pos     { return e.P }
func (e *Lam) Pos() Pos     { return e.P }
func (e *App) Pos() Pos     { return e.P }
func (e *Unary) Pos() Pos   { return e.P }
func (e *Binary) Pos() Pos  { return e.P }
func (e *If) Pos() Pos      { return e.P }
func (e *Asc) Pos() Pos     { return e.P }
func (e *Let) Pos() Pos     { return e.P }
func (e *Letrec) Pos() Pos  { return e.P }
func (e *Cast) Pos() Pos    { return e.P }
func (e *Coerce) Pos() Pos  { return e.P }
func (e *Blame) Pos() Pos   { return e.P }

func (*IntLit) isExpr()  {}
func (*BoolLit) isExpr() {}
func (*Var) isExpr()     {}
func (*Lam) isExpr()     {}
func (*App) isExpr()     {}
func (*Unary) isExpr()   {}
func (*Binary) isExpr()  {}
func (*If) isExpr()      {}
func (*Asc) isExpr()     {}
func (*Let) isExpr()     {}
func (*Letrec) isExpr()  {}
func (*Cast) isExpr()    {}
func (*Coerce) isExpr()  {}
func (*Blame) isExpr()   {}
