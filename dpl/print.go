package dpl

import (
	"strconv"

	"github.com/interderive/interderive"
)

// maxPrintDepth is the nesting depth beyond which Format prints "..." instead of
// recursing further: beyond MaxDepth and the depth of any value, so that every term a
// stage builds prints in full.
const maxPrintDepth = MaxDepth + 5000

// Printing precedence levels, loosest first.
const (
	levOpen    = iota // let, letrec, if: extend as far right as possible
	levAdd            // +, left-associative
	levPostfix        // atoms, calls, projections, pairs, .rd[...], .fd[...]
)

// Format prints t in input syntax, with as few parentheses as the grammar allows, so
// that parsing the result gives t again up to positions (ParseGenerated, if t holds
// generated names). Sugar is not reconstructed: operators print as op(M) (mul(<x, y>),
// neg(x)), predicates as pred(M) (lt(<x, 0>)), pairs as written (<<a, b>, c>), reals
// with strconv.FormatFloat(r, 'g', -1, 64), unit as (). Type subscripts are not printed;
// lets print their type when they have one. A resolved call prints as f(M).
func Format(t Term) string {
	var f formatter
	f.term(t, levOpen, true)
	return f.b.String()
}

// FormatShort is Format cut to at most n bytes, with "…" where it was cut: a term
// shown in a message (a stuck run's), whatever its printed size.
func FormatShort(t Term, n int) string {
	s, err := FormatBounded(t, interderive.PrintBudget{Max: n})
	if err != nil {
		return s + "…"
	}
	return s
}

// FormatBounded prints t as Format does, within the budget b: it stops as soon as the
// output passes b.Max bytes (if b.Max > 0), returning its first b.Max bytes (not
// splitting a character) and an *interderive.OutputError, or as soon as b.Check
// (called every interderive.CheckEvery bytes) returns an error, returning what it
// printed and that error. Values share their components freely (let a = <b, b>), as
// do types, so a printed form can be exponentially longer than the term: a tuple of
// 2^40 leaves built by 40 lets; FormatBounded costs no more than its budget.
func FormatBounded(t Term, b interderive.PrintBudget) (string, error) {
	f := formatter{b: interderive.Bounded(b)}
	f.term(t, levOpen, true)
	return f.b.Result()
}

// FormatTypeBounded is FormatType within the budget b, as FormatBounded.
func FormatTypeBounded(t Type, b interderive.PrintBudget) (string, error) {
	f := formatter{b: interderive.Bounded(b)}
	f.typ(t)
	return f.b.Result()
}

// String methods print in input syntax.

func (t *Var) String() string     { return Format(t) }
func (t *RealLit) String() string { return Format(t) }
func (t *UnitLit) String() string { return Format(t) }
func (t *Plus) String() string    { return Format(t) }
func (t *OpApp) String() string   { return Format(t) }
func (t *Let) String() string     { return Format(t) }
func (t *Pair) String() string    { return Format(t) }
func (t *Fst) String() string     { return Format(t) }
func (t *Snd) String() string     { return Format(t) }
func (t *If) String() string      { return Format(t) }
func (t *Letrec) String() string  { return Format(t) }
func (t *Call) String() string    { return Format(t) }
func (t *Rd) String() string      { return Format(t) }
func (t *Fd) String() string      { return Format(t) }
func (t *PredApp) String() string { return Format(t) }
func (t *BoolLit) String() string { return Format(t) }

// FormatReal prints a real as the language writes it.
func FormatReal(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// formatter accumulates output, within a budget if bounded, and tracks the nesting
// depth.
type formatter struct {
	b     interderive.BoundedBuilder
	depth int
}

func termLevel(t Term) int {
	switch t.(type) {
	case *Let, *Letrec, *If:
		return levOpen
	case *Plus:
		return levAdd
	}
	return levPostfix
}

// isNil reports whether t is nil or a nil pointer.
func isNil(t Term) bool {
	switch t := t.(type) {
	case nil:
		return true
	case *Var:
		return t == nil
	case *RealLit:
		return t == nil
	case *UnitLit:
		return t == nil
	case *Plus:
		return t == nil
	case *OpApp:
		return t == nil
	case *Let:
		return t == nil
	case *Pair:
		return t == nil
	case *Fst:
		return t == nil
	case *Snd:
		return t == nil
	case *If:
		return t == nil
	case *Letrec:
		return t == nil
	case *Call:
		return t == nil
	case *Rd:
		return t == nil
	case *Fd:
		return t == nil
	case *PredApp:
		return t == nil
	case *BoolLit:
		return t == nil
	}
	return false
}

// term prints t where precedence level minLev or tighter is required; open says
// whether nothing follows t up to the end of the enclosing region, so that a form
// extending to the right may be printed bare.
func (f *formatter) term(t Term, minLev int, open bool) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	if isNil(t) {
		f.b.WriteString("<nil>")
		return
	}
	lev := termLevel(t)
	if lev == levOpen && !open || lev != levOpen && lev < minLev {
		f.b.WriteByte('(')
		f.bare(t, true)
		f.b.WriteByte(')')
		return
	}
	f.bare(t, open)
}

// typ prints a type: real, unit, and * associating to the left, so that
// (real * real) * real prints as real * real * real and real * (real * real) keeps its
// parentheses.
func (f *formatter) typ(t Type) {
	if f.b.Stopped() {
		return
	}
	if f.depth > maxPrintDepth {
		f.b.WriteString("...")
		return
	}
	switch t := t.(type) {
	case Base:
		f.b.WriteString(t.String())
	case *Prod:
		if t == nil {
			f.b.WriteString("<nil>")
			return
		}
		f.depth++
		defer func() { f.depth-- }()
		f.typ(t.Fst)
		f.b.WriteString(" * ")
		if _, ok := t.Snd.(*Prod); ok {
			f.b.WriteByte('(')
			f.typ(t.Snd)
			f.b.WriteByte(')')
		} else {
			f.typ(t.Snd)
		}
	default:
		f.b.WriteString("<nil>")
	}
}

// bare prints t without parentheses around it.
func (f *formatter) bare(t Term, open bool) {
	b := &f.b
	switch t := t.(type) {
	case *Var:
		b.WriteString(t.Name)
	case *RealLit:
		b.WriteString(FormatReal(t.R))
	case *UnitLit:
		b.WriteString("()")
	case *BoolLit:
		b.WriteString(strconv.FormatBool(t.B))
	case *Plus:
		f.term(t.X, levAdd, false)
		b.WriteString(" + ")
		f.term(t.Y, levPostfix, open)
	case *OpApp:
		name := "<nil>"
		if t.Op != nil {
			name = t.Op.Name
		}
		f.call(name, t.Arg)
	case *PredApp:
		name := "<nil>"
		if t.Pred != nil {
			name = t.Pred.Name
		}
		f.call(name, t.Arg)
	case *Call:
		f.call(t.Name, t.Arg)
	case *Fst:
		f.call("fst", t.X)
	case *Snd:
		f.call("snd", t.X)
	case *Pair:
		b.WriteByte('<')
		f.term(t.X, levOpen, true)
		b.WriteString(", ")
		f.term(t.Y, levOpen, true)
		b.WriteByte('>')
	case *Let:
		// A chain of lets prints in a loop: traces are long let-chains. Each let checks
		// the budget as a node does.
		for !f.b.Stopped() {
			b.WriteString("let ")
			b.WriteString(t.Name)
			if t.T != nil {
				b.WriteByte(':')
				f.typ(t.T)
			}
			b.WriteString(" = ")
			f.term(t.Bound, levOpen, true)
			b.WriteString(" in ")
			next, ok := t.Body.(*Let)
			if !ok || next == nil || !open {
				f.term(t.Body, levOpen, open)
				return
			}
			t = next
		}
	case *Letrec:
		b.WriteString("letrec ")
		f.function(t.Name, t.Param, t.ParamT, t.ResT)
		b.WriteString(" = ")
		f.term(t.Fun, levOpen, true)
		b.WriteString(" in ")
		f.term(t.Body, levOpen, open)
	case *If:
		b.WriteString("if ")
		f.term(t.Cond, levOpen, true)
		b.WriteString(" then ")
		f.term(t.Then, levOpen, true)
		b.WriteString(" else ")
		f.term(t.Else, levOpen, open)
	case *Rd:
		f.derivative("rd", t.Cotangent, t.Point, t.Param, t.T, t.Body)
	case *Fd:
		f.derivative("fd", t.Cotangent, t.Point, t.Param, t.T, t.Body)
	default:
		b.WriteString("<?>")
	}
}

// call prints name(arg).
func (f *formatter) call(name string, arg Term) {
	f.b.WriteString(name)
	f.b.WriteByte('(')
	f.term(arg, levOpen, true)
	f.b.WriteByte(')')
}

// function prints f(x:T):U.
func (f *formatter) function(name, param string, t, u Type) {
	f.b.WriteString(name)
	f.b.WriteByte('(')
	f.b.WriteString(param)
	f.b.WriteByte(':')
	f.typ(t)
	f.b.WriteString("):")
	f.typ(u)
}

// derivative prints M.rd[L](x:T. N) or M.fd[L](x:T. N).
func (f *formatter) derivative(kind string, m, l Term, x string, t Type, n Term) {
	b := &f.b
	f.term(m, levPostfix, false)
	b.WriteByte('.')
	b.WriteString(kind)
	b.WriteByte('[')
	f.term(l, levOpen, true)
	b.WriteString("](")
	b.WriteString(x)
	b.WriteByte(':')
	f.typ(t)
	b.WriteString(". ")
	f.term(n, levOpen, true)
	b.WriteByte(')')
}
