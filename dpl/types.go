package dpl

// Type is a type of the language: real, unit or a product T * U (spec §1).
type Type interface {
	isType()
	String() string
}

// Base is a base type.
type Base uint8

// The base types.
const (
	Real Base = iota // real
	Unit             // unit
)

// Prod is the product type Fst * Snd. The iterated product real^n associates to the
// left: real^3 = (real * real) * real.
type Prod struct{ Fst, Snd Type }

func (Base) isType()  {}
func (*Prod) isType() {}

func (b Base) String() string {
	if b == Unit {
		return "unit"
	}
	return "real"
}

func (p *Prod) String() string { return FormatType(p) }

// Times builds the product type t * u.
func Times(t, u Type) *Prod { return &Prod{Fst: t, Snd: u} }

// Pow is the iterated product T0 * ... * Tn-1 of the paper (§2): unit for n = 0, T0 for
// n = 1, and (T0 * ... * Tn-2) * Tn-1 otherwise. Pow(Real, n) is real^n.
func Pow(t Type, n int) Type {
	if n == 0 {
		return Unit
	}
	r := t
	for i := 1; i < n; i++ {
		r = Times(r, t)
	}
	return r
}

// Iterated is the iterated product of the types ts (unit when empty).
func Iterated(ts []Type) Type {
	if len(ts) == 0 {
		return Unit
	}
	r := ts[0]
	for _, t := range ts[1:] {
		r = Times(r, t)
	}
	return r
}

// Equal reports whether s and t are the same type. Types come from source text (whose
// nesting the parser bounds) or from operator signatures, so the recursion is bounded.
func Equal(s, t Type) bool {
	switch s := s.(type) {
	case Base:
		u, ok := t.(Base)
		return ok && s == u
	case *Prod:
		u, ok := t.(*Prod)
		return ok && s != nil && u != nil && (s == u || Equal(s.Fst, u.Fst) && Equal(s.Snd, u.Snd))
	}
	return false
}

// FormatType prints t in input syntax: real, unit, and * associating to the left, so
// (real * real) * real prints as real * real * real and real * (real * real) keeps its
// parentheses.
func FormatType(t Type) string {
	var f formatter
	f.typ(t)
	return f.b.String()
}

// typeDepth is the nesting depth of t (1 for a base type). It walks the left spine of
// products in a loop (real^n nests to the left without parentheses) and recurses only
// into right components, which the parser's parenthesis limit bounds.
func typeDepth(t Type) int {
	best, spine := 0, 0
	for {
		spine++
		p, ok := t.(*Prod)
		if !ok || p == nil {
			return max(best, spine)
		}
		best = max(best, spine+typeDepth(p.Snd))
		t = p.Fst
	}
}
