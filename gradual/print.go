package gradual

import (
	"strconv"

	"github.com/interderive/interderive"
)

// maxPrintDepth is the nesting depth beyond which Format, FormatType and
// FormatCoercion print "..." instead of recursing further (a let's body does not
// nest: Format prints a chain of lets in a loop). Every term made from a program the
// parser accepted prints in full: its expressions nest at most MaxNesting deep, and
// its types as much again; cast insertion at most doubles the depth of expressions
// (a cast around a subterm), and the coercion that translates a cast nests as deep as
// its types, and a little more. A term a run builds may nest deeper (a closure over a
// closure over ...): its depths past the bound print as "...".
const maxPrintDepth = 4 * MaxNesting

// Printing precedence levels, loosest first.
const (
	levOpen   = iota // \x. e, if, let, letrec: extend as far right as possible
	levCmp           // = <
	levAdd           // + -
	levMul           // *
	levPrefix        // inc dec zero? <T <= S>^l <c>, and negative constants
	levApp           // application
	levAtom          // constants, variables, blame l, (e : T)^l
)

// Format prints e in input syntax with as few parentheses as the grammar allows, so
// that parsing the result (in the language e belongs to: the cast calculus if it holds
// a Cast, Coerce or Blame, GTLC if it holds an ascription or an unannotated let) gives
// e again, up to positions. Lambdas always print their parameter type. Parts of e
// nested deeper than 4·MaxNesting levels print as "...".
func Format(e Expr) string {
	var f formatter
	f.expr(e, levOpen, true)
	return f.b.String()
}

// FormatShort is Format cut to at most n bytes, with "…" where it was cut: a term
// shown in a message (a stuck run's), whatever its printed size.
func FormatShort(e Expr, n int) string {
	s, err := FormatBounded(e, interderive.PrintBudget{Max: n})
	if err != nil {
		return s + "…"
	}
	return s
}

// FormatBounded prints e as Format does, within the budget b: it stops as soon as the
// output passes b.Max bytes (if b.Max > 0), returning its first b.Max bytes (not
// splitting a character) and an *interderive.OutputError, or as soon as b.Check
// (called every interderive.CheckEvery bytes) returns an error, returning what it
// printed and that error. A term shares its subterms freely (substitution does), so
// its printed form can be exponentially longer than the term; FormatBounded costs no
// more than its budget.
func FormatBounded(e Expr, b interderive.PrintBudget) (string, error) {
	f := formatter{b: interderive.Bounded(b)}
	f.expr(e, levOpen, true)
	return f.b.Result()
}

// FormatType prints t: Int, Bool, Dyn, and arrows with -> associating to the right,
// (Int -> Int) -> Int. Bot, which users do not write, prints as _.
func FormatType(t Type) string {
	var f formatter
	f.typ(t)
	return f.b.String()
}

// FormatCoercion prints c in the syntax ParseCoercion reads: id, Int!, (Dyn -> Dyn)!,
// Int?^l1, fail^l, c -> d (a left operand that is an arrow or a sequence is
// parenthesised) and c ; d.
func FormatCoercion(c Coercion) string {
	var f formatter
	f.coercion(c)
	return f.b.String()
}

// String returns the coercion in input syntax.
func (c IdC) String() string { return FormatCoercion(c) }

// String returns the coercion in input syntax.
func (c *Inj) String() string { return FormatCoercion(c) }

// String returns the coercion in input syntax.
func (c *Proj) String() string { return FormatCoercion(c) }

// String returns the coercion in input syntax.
func (c *Func) String() string { return FormatCoercion(c) }

// String returns the coercion in input syntax.
func (c *Seq) String() string { return FormatCoercion(c) }

// String returns the coercion in input syntax.
func (c *Fail) String() string { return FormatCoercion(c) }

// formatter accumulates output, within a budget if bounded, and tracks the nesting
// depth.
type formatter struct {
	b     interderive.BoundedBuilder
	depth int
}

// exprLevel returns the precedence level of e.
func exprLevel(e Expr) int {
	switch e := e.(type) {
	case *Lam, *If, *Let, *Letrec:
		return levOpen
	case *Binary:
		return binaryLevel(e.Op)
	case *Unary, *Cast, *Coerce:
		return levPrefix
	case *IntLit:
		if e != nil && e.N < 0 {
			return levPrefix
		}
	case *App:
		return levApp
	}
	return levAtom
}

func binaryLevel(op Op) int {
	switch op {
	case OpAdd, OpSub:
		return levAdd
	case OpMul:
		return levMul
	}
	return levCmp
}

// isNilExpr reports whether e is nil or a nil pointer.
func isNilExpr(e Expr) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *IntLit:
		return e == nil
	case *BoolLit:
		return e == nil
	case *Var:
		return e == nil
	case *Lam:
		return e == nil
	case *App:
		return e == nil
	case *Unary:
		return e == nil
	case *Binary:
		return e == nil
	case *If:
		return e == nil
	case *Asc:
		return e == nil
	case *Let:
		return e == nil
	case *Letrec:
		return e == nil
	case *Cast:
		return e == nil
	case *Coerce:
		return e == nil
	case *Blame:
		return e == nil
	}
	return false
}

// expr prints e in a context that requires precedence level minLev or tighter; open says
// whether nothing follows e up to the end of the enclosing region, so that a form
// extending to the right may be printed bare.
func (f *formatter) expr(e Expr, minLev int, open bool) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	if isNilExpr(e) {
		f.b.WriteString("<nil>")
		return
	}
	lev := exprLevel(e)
	if lev == levOpen && !open || lev != levOpen && lev < minLev {
		f.b.WriteByte('(')
		f.bare(e, true)
		f.b.WriteByte(')')
		return
	}
	f.bare(e, open)
}

// bare prints e without parentheses around it; open says whether the operand at e's
// right end may be an open form printed bare.
func (f *formatter) bare(e Expr, open bool) {
	b := &f.b
	switch e := e.(type) {
	case *IntLit:
		b.WriteString(strconv.FormatInt(e.N, 10))
	case *BoolLit:
		b.WriteString(strconv.FormatBool(e.B))
	case *Var:
		b.WriteString(e.Name)
	case *Blame:
		b.WriteString("blame ")
		b.WriteString(string(e.L))
	case *Lam:
		f.lam(e)
	case *If:
		b.WriteString("if ")
		f.expr(e.Cond, levOpen, true)
		b.WriteString(" then ")
		f.expr(e.Then, levOpen, true)
		b.WriteString(" else ")
		f.expr(e.Else, levOpen, true)
	case *Let:
		// A chain of lets prints in a loop, at the depth of its first let, each let
		// checking the budget as a node does.
		for !f.b.Stopped() {
			b.WriteString("let ")
			b.WriteString(e.Name)
			if e.T != nil {
				b.WriteByte(':')
				f.typ(e.T)
			}
			b.WriteString(" = ")
			f.expr(e.Bound, levOpen, true)
			b.WriteString(" in ")
			next, ok := e.Body.(*Let)
			if !ok || next == nil {
				f.expr(e.Body, levOpen, true)
				return
			}
			e = next
		}
	case *Letrec:
		b.WriteString("letrec ")
		b.WriteString(e.Name)
		b.WriteByte(':')
		f.typ(e.T)
		b.WriteString(" = ")
		if e.Fun == nil {
			b.WriteString("<nil>")
		} else {
			f.lam(e.Fun)
		}
		b.WriteString(" in ")
		f.expr(e.Body, levOpen, true)
	case *Asc:
		b.WriteByte('(')
		f.expr(e.X, levOpen, true)
		b.WriteString(" : ")
		f.typ(e.T)
		b.WriteByte(')')
		if e.L != "" {
			b.WriteByte('^')
			b.WriteString(string(e.L))
		}
	case *Binary:
		lev := binaryLevel(e.Op)
		left, right := lev+1, lev+1 // = and < are non-associative
		if lev != levCmp {
			left = lev // + - * are left-associative
		}
		f.expr(e.X, left, false)
		b.WriteByte(' ')
		b.WriteString(e.Op.String())
		b.WriteByte(' ')
		f.expr(e.Y, right, open)
	case *Unary:
		b.WriteString(e.Op.String())
		b.WriteByte(' ')
		f.expr(e.X, levPrefix, open)
	case *Cast:
		b.WriteByte('<')
		f.typ(e.Target)
		b.WriteString(" <= ")
		f.typ(e.Source)
		b.WriteString(">^")
		b.WriteString(string(e.L))
		b.WriteByte(' ')
		f.expr(e.X, levPrefix, open)
	case *Coerce:
		b.WriteByte('<')
		f.coercion(e.C)
		b.WriteString("> ")
		f.expr(e.X, levPrefix, open)
	case *App:
		f.expr(e.Fun, levApp, false)
		b.WriteByte(' ')
		f.expr(e.Arg, levAtom, open)
	default:
		b.WriteString("<?>")
	}
}

// lam prints \x:T. e.
func (f *formatter) lam(e *Lam) {
	f.b.WriteByte('\\')
	f.b.WriteString(e.Param)
	if e.T != nil {
		f.b.WriteByte(':')
		f.typ(e.T)
	}
	f.b.WriteString(". ")
	f.expr(e.Body, levOpen, true)
}

// typ prints a type.
func (f *formatter) typ(t Type) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	switch t := t.(type) {
	case nil:
		f.b.WriteString("<nil>")
	case *Arrow:
		if t == nil {
			f.b.WriteString("<nil>")
			return
		}
		if _, ok := t.From.(*Arrow); ok {
			f.b.WriteByte('(')
			f.typ(t.From)
			f.b.WriteByte(')')
		} else {
			f.typ(t.From)
		}
		f.b.WriteString(" -> ")
		f.typ(t.To)
	case Base, DynType, BotType:
		f.b.WriteString(t.String())
	default:
		f.b.WriteString("<?>")
	}
}

// typeAtom prints a type as the I of I! and I?^l: parenthesised if it is an arrow.
func (f *formatter) typeAtom(t Type) {
	if _, ok := t.(*Arrow); ok {
		f.b.WriteByte('(')
		f.typ(t)
		f.b.WriteByte(')')
		return
	}
	f.typ(t)
}

// coercion prints a coercion.
func (f *formatter) coercion(c Coercion) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	b := &f.b
	switch c := c.(type) {
	case nil:
		b.WriteString("<nil>")
	case IdC:
		b.WriteString("id")
	case *Inj:
		if c == nil {
			b.WriteString("<nil>")
			return
		}
		f.typeAtom(c.T)
		b.WriteByte('!')
	case *Proj:
		if c == nil {
			b.WriteString("<nil>")
			return
		}
		f.typeAtom(c.T)
		b.WriteString("?^")
		b.WriteString(string(c.L))
	case *Fail:
		if c == nil {
			b.WriteString("<nil>")
			return
		}
		b.WriteString("fail^")
		b.WriteString(string(c.L))
	case *Func:
		if c == nil {
			b.WriteString("<nil>")
			return
		}
		f.coercionParen(c.Dom, isFuncOrSeq(c.Dom))
		b.WriteString(" -> ")
		_, seq := c.Cod.(*Seq)
		f.coercionParen(c.Cod, seq)
	case *Seq:
		if c == nil {
			b.WriteString("<nil>")
			return
		}
		_, seq := c.Fst.(*Seq)
		f.coercionParen(c.Fst, seq)
		b.WriteString(" ; ")
		f.coercion(c.Snd)
	default:
		b.WriteString("<?>")
	}
}

func isFuncOrSeq(c Coercion) bool {
	switch c.(type) {
	case *Func, *Seq:
		return true
	}
	return false
}

func (f *formatter) coercionParen(c Coercion, paren bool) {
	if paren {
		f.b.WriteByte('(')
		f.coercion(c)
		f.b.WriteByte(')')
		return
	}
	f.coercion(c)
}
