package compile

import g "github.com/interderive/interderive/gradual"

// code is a compiled subterm: what interp does for it, given the run's machine, the
// locals of the running activation (its parameter first, then its let and letrec
// bindings) and the closure the activation runs (whose free holds the values of the
// function's free variables; nil at the program's top). It returns the subterm's value,
// or the error that ends the run (blame travels as one, as in interp).
type code func(m *machine, loc []value, self *closure) (value, error)

// function is a compiled lambda: its body's code and what a call of it needs.
type function struct {
	lam      *g.Lam
	body     code
	nloc     int       // the locals of an activation, the parameter first
	captures []capture // its free variables, and where the scope that makes it finds them
	// unfolds: lam is Unfold(l), whose body is the letrec l: a call makes l's Letrec
	// contraction too, and binds l's name to the closure called (castval.BindLetrec).
	unfolds bool
	// readsK: the body's code reads the context of its activation (m.k), which a
	// call must then set; a body that does not (fib's) is entered without it.
	readsK bool
	// ibody is the body compiled for integers, if the function computes with
	// integers only (gradual_int.go); nil otherwise.
	ibody icode
}

// gradualScope is a scope of the gradual calculi's compiled code.
type gradualScope = scope[*function]

// get is the slot's value.
func (s slot) get(loc []value, self *closure) value {
	switch s.kind {
	case inLocal:
		return loc[s.i]
	case inFree:
		return self.free[s.i]
	}
	return value{ref: self}
}
