package abductive

import (
	"strconv"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// maxPrintDepth is the nesting depth beyond which the printers print "..." instead of
// recursing further. Every term the parser accepted prints in full; a term a run
// builds may nest deeper: its depths past the bound print as "...".
const maxPrintDepth = 4 * MaxNesting

// Printing precedence levels, loosest first.
const (
	levOpen = iota // \x:T. e, let, abduct: extend as far right as possible
	levAdd         // + - +L
	levMul         // * / . *L
	levApp         // application, and negative numerals
	levAtom        // constants, variables, labels, vectors, residuals
)

// Format prints e in input syntax with as few parentheses as the grammar allows, so
// that Parse reads a program's print back as the program (up to positions). The
// terms a run builds print in the extended syntax of doc.go ("Terms at run time"):
// labels ℓ1, residuals ⟨ℓ1 + 2⟩, vectors [1, 2], footprints t^{ℓ1, ℓ2}, an
// iterator's fold from its k-th basis vector g +L[k] v.
func Format(e Expr) string {
	var f formatter
	f.expr(e, levOpen, true)
	return f.b.String()
}

// FormatBounded prints e as Format does, within the budget b: it stops as soon as the
// output passes b.Max bytes (if b.Max > 0), returning its first b.Max bytes and an
// *interderive.OutputError, or as soon as b.Check returns an error.
func FormatBounded(e Expr, b interderive.PrintBudget) (string, error) {
	f := formatter{b: interderive.Bounded(b)}
	f.expr(e, levOpen, true)
	return f.b.Result()
}

// FormatShort is Format cut to at most n bytes, with "…" where it was cut.
func FormatShort(e Expr, n int) string {
	s, err := FormatBounded(e, interderive.PrintBudget{Max: n})
	if err != nil {
		return s + "…"
	}
	return s
}

// FormatReal prints a number as the differentiable language does (dpl.FormatReal):
// Go's shortest representation that reads back as the same float64.
func FormatReal(r float64) string { return dpl.FormatReal(r) }

// FormatType prints t: F, V, and arrows with -> associating to the right.
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
	case *Lam:
		if len(e.Foot) > 0 {
			return levAtom
		}
		return levOpen
	case *Abduct:
		if len(e.Foot) > 0 {
			return levAtom
		}
		return levOpen
	case *Let:
		return levOpen
	case *Binary:
		if e.Op == OpAdd || e.Op == OpSub || e.Op == OpIterAdd {
			return levAdd
		}
		return levMul
	case *App:
		if letAbduct(e) != nil {
			return levOpen
		}
		return levApp
	case *Num:
		if (e.V < 0 || e.V == 0 && 1/e.V < 0) && !extraFoot(e) {
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
	case *Num:
		if extraFoot(e) {
			f.footed(func() { b.WriteString(FormatReal(e.V)) }, isNegative(e.V), e.Foot)
			return
		}
		b.WriteString(FormatReal(e.V))
	case *Param:
		b.WriteString("{" + FormatReal(e.R) + "}")
	case *Var:
		b.WriteString(e.Name)
	case *Lam:
		if len(e.Foot) > 0 {
			f.footed(func() { f.lam(e) }, true, e.Foot)
			return
		}
		f.lam(e)
	case *Abduct:
		if len(e.Foot) > 0 {
			f.footed(func() { f.abduct(e) }, true, e.Foot)
			return
		}
		f.abduct(e)
	case *Let:
		b.WriteString("let " + e.Name + " = ")
		f.expr(e.Bound, levOpen, true)
		b.WriteString(" in ")
		f.expr(e.Body, levOpen, true)
	case *Binary:
		lev := level(e)
		f.expr(e.X, lev, false) // left-associative
		b.WriteString(" " + e.Op.String())
		if e.From > 0 {
			b.WriteString("[" + strconv.Itoa(e.From) + "]")
		}
		b.WriteByte(' ')
		f.expr(e.Y, lev+1, open)
	case *App:
		if a := letAbduct(e); a != nil {
			b.WriteString("let " + a.F + " @ " + a.Par + " = ")
			f.expr(e.Arg, levOpen, true)
			b.WriteString(" in ")
			f.expr(a.Body, levOpen, true)
			return
		}
		f.expr(e.Fun, levApp, false)
		b.WriteByte(' ')
		f.expr(e.Arg, levAtom, open)
	case *Label:
		if extraFoot(e) {
			f.footed(func() { b.WriteString(LabelName(e.N)) }, false, e.Foot)
			return
		}
		b.WriteString(LabelName(e.N))
	case *Resid:
		body := func() {
			b.WriteString("⟨")
			f.residual(e, levAdd)
			b.WriteString("⟩")
		}
		if extraFoot(e) {
			f.footed(body, false, e.Foot)
			return
		}
		body()
	case *Vec:
		body := func() {
			b.WriteByte('[')
			for i, x := range e.Elems {
				if i > 0 {
					b.WriteString(", ")
				}
				f.expr(x, levOpen, true)
			}
			b.WriteByte(']')
		}
		if extraFoot(e) {
			f.footed(body, false, e.Foot)
			return
		}
		body()
	case *Mark:
		f.footed(func() { f.expr(e.Body, levOpen, true) }, level(e.Body) < levAtom, e.Foot)
	default:
		b.WriteString("<?>")
	}
}

// letAbduct is the abduct of an application written let f @ p = m in t, nil if it
// was not.
func letAbduct(e *App) *Abduct {
	if a, ok := e.Fun.(*Abduct); ok && e.Sugar && len(a.Foot) == 0 {
		return a
	}
	return nil
}

// isNegative reports whether r prints with a minus sign.
func isNegative(r float64) bool { return r < 0 || r == 0 && 1/r < 0 }

// footed prints body^{ℓ1, ...}: body in parentheses if paren.
func (f *formatter) footed(body func(), paren bool, foot Footprint) {
	if paren {
		f.b.WriteByte('(')
	}
	body()
	if paren {
		f.b.WriteByte(')')
	}
	f.b.WriteString("^" + foot.String())
}

// residual prints the inside of a residual: numbers, labels and the operations of
// the field, with the precedence of the source syntax.
func (f *formatter) residual(e Expr, min int) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	r, ok := e.(*Resid)
	if !ok {
		f.expr(e, levAtom, false)
		return
	}
	lev := levMul
	if r.Op == OpAdd || r.Op == OpSub {
		lev = levAdd
	}
	if lev < min {
		f.b.WriteByte('(')
		defer f.b.WriteByte(')')
	}
	f.residual(r.X, lev)
	f.b.WriteString(" " + r.Op.String() + " ")
	f.residual(r.Y, lev+1)
}

// extraFoot reports whether the ground value or vector v carries a footprint beyond
// the labels in it, which its print then shows.
func extraFoot(v Expr) bool {
	switch v := v.(type) {
	case *Num:
		return len(v.Foot) > 0
	case *Label:
		return !v.Foot.Equal(Single(v.N))
	case *Resid:
		return !v.Foot.Equal(groundLabels(v))
	case *Vec:
		var l Footprint
		for _, x := range v.Elems {
			l = Union(l, groundLabels(x))
		}
		return !v.Foot.Equal(l)
	}
	return false
}

// groundLabels is the set of the labels in a ground value.
func groundLabels(e Expr) Footprint {
	var l Footprint
	for stack := []Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Label:
			l = Union(l, Single(e.N))
		case *Resid:
			stack = append(stack, e.X, e.Y)
		}
	}
	return l
}

// lam prints \x:T. e.
func (f *formatter) lam(e *Lam) {
	f.b.WriteString("\\" + e.Param + ":")
	f.typ(e.T)
	f.b.WriteString(". ")
	f.expr(e.Body, levOpen, true)
}

// abduct prints abduct f, p. e.
func (f *formatter) abduct(e *Abduct) {
	f.b.WriteString("abduct " + e.F + ", " + e.Par + ". ")
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
	case FieldType:
		f.b.WriteString("F")
	case *VecType:
		f.b.WriteString("V")
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
		f.b.WriteString(t.String())
	}
}
