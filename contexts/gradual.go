package contexts

import (
	"strings"

	g "github.com/interderive/interderive/gradual"
)

// CastFrame is one layer of a term context E of the cast calculus.
type CastFrame interface {
	// Plug puts e in the frame's hole.
	Plug(e g.Expr) g.Expr
}

// The frames of E, one per production. Each keeps the position of the node it came
// from, so that plugging rebuilds the node as it was.
type (
	// CastUnaryArg is op [].
	CastUnaryArg struct {
		P  g.Pos
		Op g.Op
	}
	// CastBinaryLeft is [] op e.
	CastBinaryLeft struct {
		P     g.Pos
		Op    g.Op
		Right g.Expr
	}
	// CastBinaryRight is v op [].
	CastBinaryRight struct {
		P    g.Pos
		Op   g.Op
		Left g.Expr
	}
	// CastIfCond is if [] then e else e.
	CastIfCond struct {
		P          g.Pos
		Then, Else g.Expr
	}
	// CastAppFun is [] e.
	CastAppFun struct {
		P   g.Pos
		Arg g.Expr
	}
	// CastAppArg is v [].
	CastAppArg struct {
		P   g.Pos
		Fun g.Expr
	}
	// CastCoerceArg is <c> [].
	CastCoerceArg struct {
		P g.Pos
		C g.Coercion
	}
	// CastLetBound is let x:T = [] in e.
	CastLetBound struct {
		P    g.Pos
		Name string
		T    g.Type
		Body g.Expr
	}
)

func (f *CastUnaryArg) Plug(e g.Expr) g.Expr    { return &g.Unary{P: f.P, Op: f.Op, X: e} }
func (f *CastBinaryLeft) Plug(e g.Expr) g.Expr  { return &g.Binary{P: f.P, Op: f.Op, X: e, Y: f.Right} }
func (f *CastBinaryRight) Plug(e g.Expr) g.Expr { return &g.Binary{P: f.P, Op: f.Op, X: f.Left, Y: e} }
func (f *CastIfCond) Plug(e g.Expr) g.Expr      { return &g.If{P: f.P, Cond: e, Then: f.Then, Else: f.Else} }
func (f *CastAppFun) Plug(e g.Expr) g.Expr      { return &g.App{P: f.P, Fun: e, Arg: f.Arg} }
func (f *CastAppArg) Plug(e g.Expr) g.Expr      { return &g.App{P: f.P, Fun: f.Fun, Arg: e} }
func (f *CastCoerceArg) Plug(e g.Expr) g.Expr   { return &g.Coerce{P: f.P, C: f.C, X: e} }
func (f *CastLetBound) Plug(e g.Expr) g.Expr {
	return &g.Let{P: f.P, Name: f.Name, T: f.T, Bound: e, Body: f.Body}
}

// Cast is a term context E of the cast calculus: its frames, outermost first. The
// empty context is the hole [].
type Cast []CastFrame

// Plug is E[e]: it fills the hole of E with e, innermost frame first.
func (E Cast) Plug(e g.Expr) g.Expr {
	for i := len(E) - 1; i >= 0; i-- {
		e = E[i].Plug(e)
	}
	return e
}

// Hole is the placeholder printed for a context's hole.
const Hole = "[]"

// String prints the context in cast-calculus syntax with [] for the hole.
func (E Cast) String() string {
	return g.Format(E.Plug(&g.Var{Name: Hole}))
}

// CoercionFrame is one layer of a coercion context C.
type CoercionFrame interface {
	// Plug puts c in the frame's hole.
	Plug(c g.Coercion) g.Coercion
}

// The frames of C.
type (
	// SeqFst is C ; c.
	SeqFst struct{ Snd g.Coercion }
	// SeqSnd is ĉ ; C.
	SeqSnd struct{ Fst g.Coercion }
	// FuncDom is C -> c.
	FuncDom struct{ Cod g.Coercion }
	// FuncCod is ĉ -> C.
	FuncCod struct{ Dom g.Coercion }
)

// Plug keeps sequences in canonical association: a sequence plugged left of ; is
// re-associated to the right.
func (f *SeqFst) Plug(c g.Coercion) g.Coercion  { return g.Then(c, f.Snd) }
func (f *SeqSnd) Plug(c g.Coercion) g.Coercion  { return g.Then(f.Fst, c) }
func (f *FuncDom) Plug(c g.Coercion) g.Coercion { return &g.Func{Dom: c, Cod: f.Cod} }
func (f *FuncCod) Plug(c g.Coercion) g.Coercion { return &g.Func{Dom: f.Dom, Cod: c} }

// Coercion is a coercion context C: its frames, outermost first.
type Coercion []CoercionFrame

// Plug is C[c].
func (C Coercion) Plug(c g.Coercion) g.Coercion {
	for i := len(C) - 1; i >= 0; i-- {
		c = C[i].Plug(c)
	}
	return c
}

// String prints the context with [] for the hole.
func (C Coercion) String() string {
	if len(C) == 0 {
		return Hole
	}
	// Print with a unique failure label standing for the hole, then replace it.
	const mark = "\x00hole"
	s := g.FormatCoercion(C.Plug(&g.Fail{L: mark}))
	return strings.Replace(s, "fail^"+mark, Hole, 1)
}

// DecomposeCoercion is the decomposition of the inner layer: it finds the
// leftmost-innermost redex of c under sem's rules, with its coercion context and its
// contraction by the rule named. ok is false when c is in normal form.
func DecomposeCoercion(sem g.Semantics, c g.Coercion) (C Coercion, redex g.Coercion, rule string, contractum g.Coercion, ok bool) {
	var try func(c g.Coercion) bool
	try = func(c g.Coercion) bool {
		switch t := c.(type) {
		case *g.Seq:
			C = append(C, &SeqFst{Snd: t.Snd})
			if try(t.Fst) {
				return true
			}
			C[len(C)-1] = &SeqSnd{Fst: t.Fst}
			if try(t.Snd) {
				return true
			}
			C = C[:len(C)-1]
		case *g.Func:
			C = append(C, &FuncDom{Cod: t.Cod})
			if try(t.Dom) {
				return true
			}
			C[len(C)-1] = &FuncCod{Dom: t.Dom}
			if try(t.Cod) {
				return true
			}
			C = C[:len(C)-1]
		}
		if d, r, isRedex := sem.Contract(c); isRedex {
			redex, rule, contractum = c, r, d
			return true
		}
		return false
	}
	if !try(c) {
		return nil, nil, "", nil, false
	}
	return C, redex, rule, contractum, true
}
