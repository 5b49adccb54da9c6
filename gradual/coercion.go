package gradual

// Coercion is a coercion of Henglein's calculus as used by Siek, Garcia & Taha:
//
//	c ::= id | I! | I?^l | c -> c | c ; c | fail^l
//
// Sequences are kept in one canonical association, nested to the right
// (c1 ; (c2 ; c3)): build them with Then, never with a *Seq literal whose first
// component is itself a sequence.
type Coercion interface {
	isCoercion()
}

type (
	// IdC is the identity coercion id.
	IdC struct{}
	// Inj is the injection I! into Dyn.
	Inj struct{ T Type }
	// Proj is the projection I?^l out of Dyn, blaming L when it fails.
	Proj struct {
		T Type
		L Label
	}
	// Func is the function coercion Dom -> Cod (contravariant in Dom).
	Func struct{ Dom, Cod Coercion }
	// Seq is the sequence Fst ; Snd: first Fst, then Snd.
	Seq struct{ Fst, Snd Coercion }
	// Fail is fail^l.
	Fail struct{ L Label }
)

// Id is the identity coercion.
var Id Coercion = IdC{}

func (IdC) isCoercion()   {}
func (*Inj) isCoercion()  {}
func (*Proj) isCoercion() {}
func (*Func) isCoercion() {}
func (*Seq) isCoercion()  {}
func (*Fail) isCoercion() {}

// Then builds c ; d in canonical (right-nested) association.
func Then(c, d Coercion) Coercion {
	if s, ok := c.(*Seq); ok {
		return &Seq{Fst: s.Fst, Snd: Then(s.Snd, d)}
	}
	return &Seq{Fst: c, Snd: d}
}

// Head returns the first component of a canonical sequence, and c itself otherwise.
func Head(c Coercion) Coercion {
	if s, ok := c.(*Seq); ok {
		return s.Fst
	}
	return c
}

// EqualCoercions reports whether two coercions are syntactically identical (types
// compared exactly).
func EqualCoercions(c, d Coercion) bool {
	switch c := c.(type) {
	case IdC:
		_, ok := d.(IdC)
		return ok
	case *Inj:
		d, ok := d.(*Inj)
		return ok && Identical(c.T, d.T)
	case *Proj:
		d, ok := d.(*Proj)
		return ok && c.L == d.L && Identical(c.T, d.T)
	case *Func:
		d, ok := d.(*Func)
		return ok && EqualCoercions(c.Dom, d.Dom) && EqualCoercions(c.Cod, d.Cod)
	case *Seq:
		d, ok := d.(*Seq)
		return ok && EqualCoercions(c.Fst, d.Fst) && EqualCoercions(c.Snd, d.Snd)
	case *Fail:
		d, ok := d.(*Fail)
		return ok && c.L == d.L
	}
	return false
}
