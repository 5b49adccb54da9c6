package compile

import "github.com/interderive/interderive/internal/names"

// What compile knows of a subterm's environment and context, for every calculus: the
// scopes of the functions being compiled, where each variable's value will be at run
// time, and the place of the subterm in its activation.

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

// scope is what compile knows of the environment ρ of a subterm: the bindings of the
// function being compiled (innermost last), and the scope it is made in, where its
// free variables are found (each the first time it occurs: flat closures). F is the
// calculus's compiled function, whose captures are *captures.
type scope[F any] struct {
	fn       F          // the function being compiled (its zero value at the program's top)
	captures *[]capture // its free variables (nil at the program's top)
	parent   *scope[F]
	names    []binding
	locals   int // locals bound now
	max      int // the most locals bound at once
}

// binding is a variable bound in a scope, and where.
type binding struct {
	name string
	at   slot
}

// bind binds x to a new local, returning its index.
func (sc *scope[F]) bind(x string) int {
	i := sc.locals
	sc.names = append(sc.names, binding{x, slot{inLocal, i}})
	sc.locals++
	sc.max = max(sc.max, sc.locals)
	return i
}

// unbind drops the innermost binding, a local's.
func (sc *scope[F]) unbind() {
	sc.names = sc.names[:len(sc.names)-1]
	sc.locals--
}

// lookup finds x: bound in this scope, or a free variable of the function (captured
// from the scope the closure is made in).
func (sc *scope[F]) lookup(x string) (slot, bool) {
	for i := len(sc.names) - 1; i >= 0; i-- {
		if names.Same(sc.names[i].name, x) {
			return sc.names[i].at, true
		}
	}
	if sc.captures == nil {
		return slot{}, false
	}
	for j, c := range *sc.captures {
		if c.name == x {
			return slot{inFree, j}, true
		}
	}
	from, ok := sc.parent.lookup(x)
	if !ok {
		return slot{}, false
	}
	*sc.captures = append(*sc.captures, capture{x, from})
	return slot{inFree, len(*sc.captures) - 1}, true
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
