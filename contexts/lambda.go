package contexts

import "github.com/interderive/interderive/lambda"

// The evaluation contexts of the call-by-value λ-calculus (lambda/doc.go), left to
// right:
//
//	E ::= [] | E e | v E | E op e | v op E | if0 E then e else e | let x = E in e

// LambdaFrame is one layer of a context E of the λ-calculus.
type LambdaFrame interface {
	// Plug puts e in the frame's hole.
	Plug(e lambda.Expr) lambda.Expr
}

// The frames of E, one per production. Each keeps the position of the node it came
// from, so that plugging rebuilds the node as it was.
type (
	// LambdaAppFun is [] e.
	LambdaAppFun struct {
		P   lambda.Pos
		Arg lambda.Expr
	}
	// LambdaAppArg is v [].
	LambdaAppArg struct {
		P   lambda.Pos
		Fun lambda.Expr
	}
	// LambdaBinaryLeft is [] op e.
	LambdaBinaryLeft struct {
		P     lambda.Pos
		Op    lambda.Op
		Right lambda.Expr
	}
	// LambdaBinaryRight is v op [].
	LambdaBinaryRight struct {
		P    lambda.Pos
		Op   lambda.Op
		Left lambda.Expr
	}
	// LambdaIf0Cond is if0 [] then e else e.
	LambdaIf0Cond struct {
		P          lambda.Pos
		Then, Else lambda.Expr
	}
	// LambdaLetBound is let x = [] in e.
	LambdaLetBound struct {
		P    lambda.Pos
		Name string
		Body lambda.Expr
	}
)

func (f *LambdaAppFun) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.App{P: f.P, Fun: e, Arg: f.Arg}
}
func (f *LambdaAppArg) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.App{P: f.P, Fun: f.Fun, Arg: e}
}
func (f *LambdaBinaryLeft) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.Binary{P: f.P, Op: f.Op, X: e, Y: f.Right}
}
func (f *LambdaBinaryRight) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.Binary{P: f.P, Op: f.Op, X: f.Left, Y: e}
}
func (f *LambdaIf0Cond) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.If0{P: f.P, Cond: e, Then: f.Then, Else: f.Else}
}
func (f *LambdaLetBound) Plug(e lambda.Expr) lambda.Expr {
	return &lambda.Let{P: f.P, Name: f.Name, Bound: e, Body: f.Body}
}

// Lambda is a context E of the λ-calculus: its frames, outermost first. The empty
// context is the hole [].
type Lambda []LambdaFrame

// Plug is E[e]: it fills the hole of E with e, innermost frame first.
func (E Lambda) Plug(e lambda.Expr) lambda.Expr {
	for i := len(E) - 1; i >= 0; i-- {
		e = E[i].Plug(e)
	}
	return e
}

// String prints the context in the calculus's syntax with [] for the hole.
func (E Lambda) String() string { return lambda.Format(E.Plug(&lambda.Var{Name: Hole})) }
