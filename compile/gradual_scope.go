package compile

import (
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/names"
)

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
}

// capture is a free variable of a function: its name, and where the scope in which
// the closure is made holds its value.
type capture struct {
	name string
	from slot
}

// slotKind says where a variable's value is, at run time.
type slotKind uint8

const (
	inLocal slotKind = iota // loc[i]
	inFree                  // self.free[i]
	isSelf                  // the closure itself: the letrec function in its own body
)

// slot is where a variable's value is, resolved at compile time.
type slot struct {
	kind slotKind
	i    int
}

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

// scope is what compile knows of the environment ρ of a subterm: the bindings of the
// function being compiled (innermost last), and the scope it is made in, where its
// free variables are found (each the first time it occurs: flat closures).
type scope struct {
	fn     *function // nil at the program's top
	parent *scope
	names  []binding
	locals int // locals bound now
	max    int // the most locals bound at once
}

// binding is a variable bound in a scope, and where.
type binding struct {
	name string
	at   slot
}

// bind binds x to a new local, returning its index.
func (sc *scope) bind(x string) int {
	i := sc.locals
	sc.names = append(sc.names, binding{x, slot{inLocal, i}})
	sc.locals++
	sc.max = max(sc.max, sc.locals)
	return i
}

// unbind drops the innermost binding, a local's.
func (sc *scope) unbind() {
	sc.names = sc.names[:len(sc.names)-1]
	sc.locals--
}

// lookup finds x: bound in this scope, or a free variable of the function (captured
// from the scope the closure is made in).
func (sc *scope) lookup(x string) (slot, bool) {
	for i := len(sc.names) - 1; i >= 0; i-- {
		if names.Same(sc.names[i].name, x) {
			return sc.names[i].at, true
		}
	}
	if sc.fn == nil {
		return slot{}, false
	}
	for j, c := range sc.fn.captures {
		if c.name == x {
			return slot{inFree, j}, true
		}
	}
	from, ok := sc.parent.lookup(x)
	if !ok {
		return slot{}, false
	}
	sc.fn.captures = append(sc.fn.captures, capture{x, from})
	return slot{inFree, len(sc.fn.captures) - 1}, true
}

// place is where a subterm's code runs: in tail position of its activation (the
// context is the machine's, m.k: the activation's, which a merged coercion may have
// changed) or in an inner context; and how many frames of code lie between the
// activation's entry and it (the weight of a call made there: see MaxDepth).
type place struct {
	tail  bool
	depth int
}

// operand is the place of a subterm whose value the code at p still needs.
func (p place) operand() place { return place{depth: p.depth + 1} }

// same is the place of a subterm in p's position (a branch, a let's body).
func (p place) same() place { return place{tail: p.tail, depth: p.depth + 1} }

// weight is the depth a call made at p adds: the frames of code down to it, and the
// call's own.
func (p place) weight() int { return p.depth + 2 }
