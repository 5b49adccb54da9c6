package compile

import (
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// value is a run-time value of λ⟨·⟩ in compiled code: an integer n (ref nil), a
// boolean (ref boolRef, n 0 or 1), a closure, or a simple value under a wrapper. The
// constants are unboxed, so that arithmetic allocates nothing whatever the integers.
type value struct {
	n   int64
	ref ref
}

// ref is what a value that is not an integer holds.
type ref interface{ isRef() }

type (
	// boolRef marks a boolean: its truth is the value's n.
	boolRef struct{}
	// closure is a compiled lambda closed by the values of its free variables (a flat
	// closure: free[j] is the value of fn.captures[j]).
	closure struct {
		fn   *function
		free []value
	}
	// wrapped is <c̄> s: a simple value under a normal coercion.
	wrapped struct {
		c g.Coercion
		s value
	}
)

func (boolRef) isRef()       {}
func (*closure) isRef()      {}
func (*wrapped) isRef()      {}
func intValue(n int64) value { return value{n: n} }

func boolValue(b bool) value {
	if b {
		return value{n: 1, ref: boolRef{}}
	}
	return value{ref: boolRef{}}
}

// isInt reports whether x is an integer.
func (x value) isInt() bool { return x.ref == nil }

// isBool reports whether x is a boolean.
func (x value) isBool() bool { _, ok := x.ref.(boolRef); return ok }

// simple reports whether x is a simple value s (not under a wrapper).
func (x value) simple() bool { _, w := x.ref.(*wrapped); return !w }

// constant is the value of a constant (*g.IntLit or *g.BoolLit).
func constant(e g.Expr) (value, bool) {
	switch k := e.(type) {
	case *g.IntLit:
		return intValue(k.N), true
	case *g.BoolLit:
		return boolValue(k.B), true
	}
	return value{}, false
}

// castvals turns compiled values into the environment-based stages' values
// (castval), whose read-back σ gives the answer's term: a closure becomes its lambda
// closed by an environment that binds its free variables. The values of a run nest as
// deep as the run made them (a closure over a closure over ...), so the conversion
// keeps the closures still to convert in a stack of its own, and converts a closure
// that several values share once.
type castvals struct {
	done map[*closure]*v.Closure
}

// toCastval is x as a castval.Value.
func toCastval(x value) v.Value {
	c := castvals{done: map[*closure]*v.Closure{}}
	return c.value(x)
}

// value converts x, converting its closures first.
func (c castvals) value(x value) v.Value {
	switch r := x.ref.(type) {
	case nil:
		return v.Int(x.n)
	case boolRef:
		return v.Bool(x.n != 0)
	case *closure:
		c.closure(r)
		return c.done[r]
	case *wrapped:
		return &v.Wrapped{C: r.c, S: c.value(r.s)}
	}
	return nil
}

// heldClosure is the closure a value holds, under its wrapper if any, or nil.
func heldClosure(x value) *closure {
	switch r := x.ref.(type) {
	case *closure:
		return r
	case *wrapped:
		clo, _ := r.s.ref.(*closure)
		return clo
	}
	return nil
}

// closure converts root and every closure it holds, depth first, with a stack of its
// own: a closure is converted once the closures of its free variables' values are.
func (c castvals) closure(root *closure) {
	stack := []*closure{root}
	for len(stack) > 0 {
		clo := stack[len(stack)-1]
		if _, ok := c.done[clo]; ok {
			stack = stack[:len(stack)-1]
			continue
		}
		ready := true
		for _, x := range clo.free {
			if in := heldClosure(x); in != nil {
				if _, ok := c.done[in]; !ok {
					stack = append(stack, in)
					ready = false
				}
			}
		}
		if !ready {
			continue
		}
		var rho *v.Env
		for j := len(clo.free) - 1; j >= 0; j-- {
			rho = rho.Bind(clo.fn.captures[j].name, c.value(clo.free[j]))
		}
		c.done[clo] = v.NewClosure(clo.fn.lam, rho)
		stack = stack[:len(stack)-1]
	}
}

// show prints values read back (σ), for a stuck run's message.
func show(xs ...value) string {
	var vs []v.Value
	for _, x := range xs {
		vs = append(vs, toCastval(x))
	}
	return v.Show(vs...)
}

// readBack is σ of a converted value.
func readBack(x v.Value) g.Expr { return v.ReadBack(x) }
