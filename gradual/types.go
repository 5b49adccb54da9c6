package gradual

// Type is a type of the gradual calculi: Int, Bool, Dyn, an arrow, or Bot.
//
// Bot is not written by users: it is the type the checker gives to `blame l` and to a
// coercion after `fail^l`, which have every type. Equal and Consistent treat it as a
// wildcard.
type Type interface {
	isType()
	String() string
}

// Base is a base type B.
type Base uint8

// The base types.
const (
	Int Base = iota
	Bool
)

// DynType is the type of dynamically typed values, written Dyn or ?.
type DynType struct{}

// BotType is the type of blame: it has every type.
type BotType struct{}

// Arrow is the function type From -> To.
type Arrow struct{ From, To Type }

// Dyn and Bot are the only values of their types.
var (
	Dyn Type = DynType{}
	Bot Type = BotType{}
)

func (Base) isType()    {}
func (DynType) isType() {}
func (BotType) isType() {}
func (*Arrow) isType()  {}
func (b Base) String() string {
	if b == Bool {
		return "Bool"
	}
	return "Int"
}
func (DynType) String() string { return "Dyn" }
func (BotType) String() string { return "_" }
func (a *Arrow) String() string {
	from := a.From.String()
	if _, ok := a.From.(*Arrow); ok {
		from = "(" + from + ")"
	}
	return from + " -> " + a.To.String()
}

// Fn builds the arrow type from -> to.
func Fn(from, to Type) *Arrow { return &Arrow{From: from, To: to} }

// Equal reports whether s and t are the same type, reading Bot as a wildcard.
func Equal(s, t Type) bool {
	switch s := s.(type) {
	case BotType:
		return true
	case *Arrow:
		switch t := t.(type) {
		case *Arrow:
			return s == t || Equal(s.From, t.From) && Equal(s.To, t.To)
		case BotType:
			return true
		}
		return false
	}
	if _, ok := t.(BotType); ok {
		return true
	}
	return s == t
}

// Identical reports whether s and t are the same type, Bot matching only Bot.
func Identical(s, t Type) bool {
	if a, ok := s.(*Arrow); ok {
		b, ok := t.(*Arrow)
		return ok && (a == b || Identical(a.From, b.From) && Identical(a.To, b.To))
	}
	return s == t
}

// Consistent is the consistency relation ~ of Siek & Taha: T ~ Dyn, Dyn ~ T, B ~ B, and
// arrows pointwise (no contravariance).
func Consistent(s, t Type) bool {
	switch {
	case s == Dyn || t == Dyn || s == Bot || t == Bot:
		return true
	}
	if a, ok := s.(*Arrow); ok {
		b, ok := t.(*Arrow)
		return ok && (a == b || Consistent(a.From, b.From) && Consistent(a.To, b.To))
	}
	return s == t
}

// Meet is the greatest lower bound ⊓ with respect to precision: T ⊓ Dyn = Dyn ⊓ T = T,
// B ⊓ B = B, arrows pointwise. ok is false where the meet is undefined.
func Meet(s, t Type) (m Type, ok bool) {
	switch {
	case s == Dyn || s == Bot:
		return t, true
	case t == Dyn || t == Bot:
		return s, true
	}
	if a, ok := s.(*Arrow); ok {
		b, ok := t.(*Arrow)
		if !ok {
			return nil, false
		}
		from, ok1 := Meet(a.From, b.From)
		to, ok2 := Meet(a.To, b.To)
		if !ok1 || !ok2 {
			return nil, false
		}
		return Fn(from, to), true
	}
	return s, s == t
}

// IsGround reports whether t is a ground type: Int, Bool or Dyn -> Dyn.
func IsGround(t Type) bool {
	if a, ok := t.(*Arrow); ok {
		return a.From == Dyn && a.To == Dyn
	}
	_, ok := t.(Base)
	return ok
}

// DynDyn is the ground function type Dyn -> Dyn.
var DynDyn = Fn(Dyn, Dyn)
