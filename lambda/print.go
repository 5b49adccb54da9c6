package lambda

import (
	"strconv"

	"github.com/interderive/interderive"
)

// maxPrintDepth is the nesting depth beyond which the printers print "..." instead of
// recursing further. Every term the parser accepted prints in full (its terms and its
// types nest at most MaxNesting deep each); a term a run builds may nest deeper (a
// closure over a closure over ...): its depths past the bound print as "...".
const maxPrintDepth = 4 * MaxNesting

// Printing precedence levels, loosest first.
const (
	levOpen = iota // \x:T. e, if0, let, letrec: extend as far right as possible
	levAdd         // + -
	levMul         // *
	levApp         // application, and negative literals (which read as one only where an operand starts)
	levAtom        // constants, variables
)

// Format prints e in input syntax with as few parentheses as the grammar allows, so
// that Parse reads it back as e (up to positions). Parts nested deeper than
// 4·MaxNesting levels print as "...".
func Format(e Expr) string {
	var f formatter
	f.expr(e, levOpen, true)
	return f.b.String()
}

// FormatBounded prints e as Format does, within the budget b: it stops as soon as the
// output passes b.Max bytes (if b.Max > 0), returning its first b.Max bytes and an
// *interderive.OutputError, or as soon as b.Check returns an error, returning what it
// printed and that error. A term shares its subterms (substitution does), so that its
// printed form can be exponentially longer than the term; FormatBounded costs no more
// than its budget.
func FormatBounded(e Expr, b interderive.PrintBudget) (string, error) {
	f := formatter{b: interderive.Bounded(b)}
	f.expr(e, levOpen, true)
	return f.b.Result()
}

// FormatShort is Format cut to at most n bytes, with "…" where it was cut: a term shown
// in a message, whatever its printed size.
func FormatShort(e Expr, n int) string {
	s, err := FormatBounded(e, interderive.PrintBudget{Max: n})
	if err != nil {
		return s + "…"
	}
	return s
}

// FormatType prints t: Int, and arrows with -> associating to the right.
func FormatType(t Type) string {
	var f formatter
	f.typ(t)
	return f.b.String()
}

// formatter accumulates output, within a budget if bounded, and tracks the depth.
type formatter struct {
	b     interderive.BoundedBuilder
	depth int
}

// level is the precedence level of e.
func level(e Expr) int {
	switch e := e.(type) {
	case *Lam, *If0, *Let, *Letrec:
		return levOpen
	case *Binary:
		if e.Op == OpMul {
			return levMul
		}
		return levAdd
	case *App:
		return levApp
	case *IntLit:
		if e.N < 0 {
			return levApp
		}
	}
	return levAtom
}

// expr prints e where precedence level min or tighter is required; open says whether
// nothing follows e up to the end of the enclosing region, so that an open form may
// be printed bare.
func (f *formatter) expr(e Expr, min int, open bool) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	if lev := level(e); lev == levOpen && !open || lev != levOpen && lev < min {
		f.b.WriteByte('(')
		f.bare(e, true)
		f.b.WriteByte(')')
		return
	}
	f.bare(e, open)
}

// bare prints e without parentheses around it.
func (f *formatter) bare(e Expr, open bool) {
	b := &f.b
	switch e := e.(type) {
	case *IntLit:
		b.WriteString(strconv.FormatInt(e.N, 10))
	case *Var:
		b.WriteString(e.Name)
	case *Lam:
		f.lam(e)
	case *If0:
		b.WriteString("if0 ")
		f.expr(e.Cond, levOpen, true)
		b.WriteString(" then ")
		f.expr(e.Then, levOpen, true)
		b.WriteString(" else ")
		f.expr(e.Else, levOpen, true)
	case *Let:
		b.WriteString("let " + e.Name + " = ")
		f.expr(e.Bound, levOpen, true)
		b.WriteString(" in ")
		f.expr(e.Body, levOpen, true)
	case *Letrec:
		b.WriteString("letrec " + e.Name + ":")
		f.typ(e.T)
		b.WriteString(" = ")
		f.lam(e.Fun)
		b.WriteString(" in ")
		f.expr(e.Body, levOpen, true)
	case *Binary:
		lev := levAdd
		if e.Op == OpMul {
			lev = levMul
		}
		f.expr(e.X, lev, false) // left-associative
		b.WriteString(" " + e.Op.String() + " ")
		f.expr(e.Y, lev+1, open)
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
	f.b.WriteString("\\" + e.Param + ":")
	f.typ(e.T)
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
	case IntType:
		f.b.WriteString("Int")
	case *Arrow:
		if _, ok := t.From.(*Arrow); ok {
			f.b.WriteByte('(')
			f.typ(t.From)
			f.b.WriteByte(')')
		} else {
			f.typ(t.From)
		}
		f.b.WriteString(" -> ")
		f.typ(t.To)
	default:
		f.b.WriteString("<?>")
	}
}
