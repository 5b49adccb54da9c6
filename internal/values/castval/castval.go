// Package castval holds the run-time values of the environment-based stages of the
// cast calculus (machine, cps2, interp): constants, closures, and simple values wrapped
// by a coercion, with environments instead of substitution, and the read-back σ that
// turns a value back into a term of λ⟨·⟩. It is data only: no evaluator lives here.
package castval

import (
	"strings"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/names"
)

// Value is a run-time value: a simple value (a constant or a closure), or a simple
// value wrapped by a normal coercion c̄.
type Value interface{ isValue() }

type (
	// Int is an integer constant n. (Constants are Go values, not pointers: as
	// interface values, booleans and integers below 256 need no allocation.)
	Int int64
	// Bool is a boolean constant.
	Bool bool
	// Closure is \x:T. e closed by the environment it was made in. Make it with
	// NewClosure, which works out once how its calls bind (Enter).
	Closure struct {
		Lam *g.Lam
		Env *Env

		unfolds   *g.Letrec // l, when Lam is Unfold(l): its calls bind f too
		noClosure bool      // gradual.MakesNoClosure(Lam)
	}
	// Wrapped is <c̄> s: a simple value (Const or Closure) under a wrapper.
	Wrapped struct {
		C g.Coercion
		S Value
	}
)

func (Int) isValue()      {}
func (Bool) isValue()     {}
func (*Closure) isValue() {}
func (*Wrapped) isValue() {}

// NewClosure is the closure of f in ρ.
func NewClosure(f *g.Lam, rho *Env) *Closure {
	return &Closure{Lam: f, Env: rho, unfolds: g.Unfolding(f), noClosure: g.MakesNoClosure(f)}
}

// Constant is the value of a constant k (*g.IntLit or *g.BoolLit), or nil.
func Constant(k g.Expr) Value {
	switch k := k.(type) {
	case *g.IntLit:
		return Int(k.N)
	case *g.BoolLit:
		return Bool(k.B)
	}
	return nil
}

// Atom is the value in ρ of an atom: a bound variable or a constant (ok is false for
// any other term). The refocused stages take it without a step of their own.
func Atom(e g.Expr, rho *Env) (Value, bool) {
	switch t := e.(type) {
	case *g.Var:
		return rho.Lookup(t.Name)
	case *g.IntLit:
		return Int(t.N), true
	case *g.BoolLit:
		return Bool(t.B), true
	}
	return nil, false
}

// Delta is δ on run-time values (gradual.Prim): op applied to x, and to y for a
// binary operator (y is ignored otherwise). ok is false when an argument is not an
// integer (which the type system rules out).
func Delta(op g.Op, x, y Value) (Value, bool) {
	a, ok := x.(Int)
	if !ok {
		return nil, false
	}
	b, ok := y.(Int)
	if !ok && op.IsBinary() {
		return nil, false
	}
	n, truth, isBool, ok := g.Prim(op, int64(a), int64(b))
	switch {
	case !ok:
		return nil, false
	case isBool:
		return Bool(truth), true
	}
	return Int(n), true
}

// LetrecClosure is the closure letrec f:T = \x:S. e binds f to in ρ: Unfold, closed in
// ρ. A letrec inside an unfolded function (the body of Unfold: every recursive call
// evaluates it) is evaluated in that function's environment extended with its
// parameter x, which the unfolded function does not use (it binds x again): the
// closure leaves that binding out. Read back, the closure is the same term; but the
// environment of the n-th call no longer holds the parameters of the n-1 calls before
// it, so a tail-recursive loop runs in constant space.
//
// When ρ is the environment a call of that very closure made (Closure.Enter), the
// closure it would build — Unfold(l) closed in the caller's environment — is the
// closure called: LetrecClosure returns it rather than a copy, so a recursive call
// allocates no closure. Closures are immutable, so sharing one is not observable.
func LetrecClosure(l *g.Letrec, rho *Env) *Closure {
	if rec := rho.recursive(l); rec != nil {
		return rec.V.(*Closure)
	}
	return unfolded(l, rho)
}

// unfolded is LetrecClosure's closure made afresh: Unfold(l) closed in ρ, less the
// unfolded function's own parameter.
func unfolded(l *g.Letrec, rho *Env) *Closure {
	f := g.Unfold(l)
	if f.Body == l && rho != nil && rho.Name == f.Param {
		rho = rho.Next
	}
	return NewClosure(f, rho)
}

// BindLetrec is the environment in which letrec f:T = \x:S. e in M evaluates M:
// (f ↦ LetrecClosure(l, ρ)) : ρ. In the environment of a call of the unfolded
// function it is the binding Enter made ahead.
func BindLetrec(l *g.Letrec, rho *Env) *Env {
	if rec := rho.recursive(l); rec != nil {
		return rec
	}
	return rho.Bind(l.Name, unfolded(l, rho))
}

// recursive is the binding (f ↦ clo) : ρ that Enter made ahead for the letrec l, if ρ
// is the environment of a call of clo = Unfold(l), closed in the caller's environment.
func (rho *Env) recursive(l *g.Letrec) *Env {
	if rho == nil || rho.rec == nil {
		return nil
	}
	if clo := rho.rec.V.(*Closure); clo.unfolds == l { // clo.Lam = Unfold(l), l its body
		return rho.rec
	}
	return nil
}

// Env is an environment ρ ::= ε | (x ↦ v) : ρ; nil is ε.
type Env struct {
	Name string
	V    Value
	Next *Env
	rec  *Env // (f ↦ clo) : this, when Enter made this binding for a call of clo = Unfold(l)
}

// Bind is (x ↦ v) : ρ.
func (rho *Env) Bind(x string, v Value) *Env { return &Env{Name: x, V: v, Next: rho} }

// Enter is the environment in which a call of the closure evaluates its body: its
// parameter bound to the argument, in the closure's environment. When the closure is
// an unfolded letrec function — its body is the letrec l it came from, which the call
// evaluates first, binding f to the closure itself (LetrecClosure) — Enter makes that
// binding too, in the same allocation, for BindLetrec to find: a recursive call then
// costs one allocation.
func (clo *Closure) Enter(arg Value) *Env {
	if clo.unfolds != nil {
		return clo.EnterIn(arg, new(Frame))
	}
	return &Env{Name: clo.Lam.Param, V: arg, Next: clo.Env}
}

// EnterIn is Enter with the call's bindings made in the storage f, which the caller
// provides: an evaluator that knows the call's environment dead once the call returns
// (gradual.MakesNoClosure) reuses it. f's previous bindings are overwritten.
func (clo *Closure) EnterIn(arg Value, f *Frame) *Env {
	// Field by field: a composite literal is built on the stack and copied in wide
	// moves, which stall on the stores that just built it (a quarter of fib's time).
	p, r := &f.param, &f.rec
	if l := clo.unfolds; l != nil {
		if r.V != Value(clo) {
			// Unless the frame's last call was of clo too (a recursive call takes the
			// frame its previous sibling had), which left these bindings as they are.
			r.Name, r.V, r.Next, r.rec = l.Name, clo, p, nil
			p.Name, p.Next, p.rec = clo.Lam.Param, clo.Env, r
		}
		p.V = arg
		return p
	}
	p.Name, p.V, p.Next, p.rec = clo.Lam.Param, arg, clo.Env, nil
	r.Name, r.V, r.Next = "", nil, nil
	return p
}

// Frame is the storage of the bindings Enter makes for a call: the parameter's, and
// for an unfolded letrec function the recursive one, allocated together.
type Frame struct{ rec, param Env }

// Frames is a stack of Frames for the calls whose environments die with them
// (gradual.MakesNoClosure: no closure made during such a call can hold its
// bindings), used last in first out: such a call takes the next frame (Push), and the
// evaluator gives the frames back (Release) once nothing can reach them any more — the
// call has returned, or made its own call in tail position. A recursive call then
// allocates nothing. Each frame is allocated once, the first time the stack is that
// deep, so that its address stays put. The environment is the same list of bindings
// wherever its cells live: this is representation only.
type Frames struct {
	all []*Frame
	top int // the frames in use: all[:top]
}

// Push returns the next frame.
func (fs *Frames) Push() *Frame {
	if fs.top == len(fs.all) {
		fs.all = append(fs.all, new(Frame))
	}
	f := fs.all[fs.top]
	fs.top++
	return f
}

// Top is the number of frames in use: a mark for Release.
func (fs *Frames) Top() int { return fs.top }

// Release gives back the frames above the mark top: the caller knows that nothing
// reaches them any more.
func (fs *Frames) Release(top int) { fs.top = top }

// EnterWith is the environment in which a call of clo with argument arg evaluates
// its body (Enter), in a frame of fs when the call's environment dies with it
// (gradual.MakesNoClosure), else on the heap.
func (clo *Closure) EnterWith(fs *Frames, arg Value) *Env {
	if clo.noClosure {
		return clo.EnterIn(arg, fs.Push())
	}
	return clo.Enter(arg)
}

// Call is where a call of clo with argument arg goes on: the body in the call's
// environment (EnterWith, in a frame of fs when the environment dies with the call).
// The body of an unfolded letrec function is its letrec, whose contraction comes next
// without a choice: Call goes past it to the letrec's body (a corridor, compressed) and
// reports it in letrec, for the stage to count that Letrec contraction.
func (clo *Closure) Call(fs *Frames, arg Value) (body g.Expr, rho *Env, letrec bool) {
	rho = clo.EnterWith(fs, arg)
	if l := clo.unfolds; l != nil {
		return l.Body, BindLetrec(l, rho), true
	}
	return clo.Lam.Body, rho, false
}

// Lookup finds x in ρ.
func (rho *Env) Lookup(x string) (Value, bool) {
	for ; rho != nil; rho = rho.Next {
		if names.Same(rho.Name, x) {
			return rho.V, true
		}
	}
	return nil, false
}

// Answer is a value or blame, as the environment-based stages compute it.
type Answer struct {
	V      Value
	Blamed bool
	L      g.Label
}

// ReadBack is σ: it turns a value into a term by substituting its environments, so
// that every stage's answer can be compared with the substitution-based one. A closure
// reads back as its lambda with the values of its free variables (their innermost
// bindings in its environment) read back and substituted. The values of a run nest
// as deep as the run made them (a closure over a closure over ...), so ReadBack keeps
// the closures still to read back in a stack of its own rather than Go's; and it reads
// a closure that several others hold back once, so that the term it gives shares the
// read-back as the value shares the closure.
func ReadBack(v Value) g.Expr {
	r := reader{terms: map[*Closure]g.Expr{}, fvs: map[*g.Lam]map[string]bool{}}
	if clo, ok := v.(*Closure); ok {
		r.closure(clo)
	} else if w, ok := v.(*Wrapped); ok {
		if clo, ok := w.S.(*Closure); ok {
			r.closure(clo)
		}
	}
	return r.value(v)
}

// SubstEnv is σ(e[ρ]): e with its free variables bound in ρ replaced by the read-back
// of their values (their innermost bindings).
func SubstEnv(e g.Expr, rho *Env) g.Expr {
	return ReadBack(&Closure{Lam: &g.Lam{Body: e}, Env: rho}).(*g.Lam).Body
}

// reader is ReadBack's state: the closures read back so far, and the free variables
// of their lambdas.
type reader struct {
	terms map[*Closure]g.Expr
	fvs   map[*g.Lam]map[string]bool
}

// binding is one free variable of a closure's lambda and its value.
type binding struct {
	name string
	v    Value
}

// value reads back v, whose closure, if any, has been read back.
func (r *reader) value(v Value) g.Expr {
	switch v := v.(type) {
	case Int:
		return &g.IntLit{N: int64(v)}
	case Bool:
		return &g.BoolLit{B: bool(v)}
	case *Closure:
		return r.terms[v]
	case *Wrapped:
		return &g.Coerce{C: v.C, X: r.value(v.S)}
	}
	return nil
}

// simpleClosure is the closure of a value (under its wrapper), or nil.
func simpleClosure(v Value) *Closure {
	if w, ok := v.(*Wrapped); ok {
		v = w.S
	}
	clo, _ := v.(*Closure)
	return clo
}

// bindings are the innermost bindings, in clo's environment, of the free variables of
// its lambda.
func (r *reader) bindings(clo *Closure) []binding {
	fv, ok := r.fvs[clo.Lam]
	if !ok {
		fv = g.FreeVars(clo.Lam)
		r.fvs[clo.Lam] = fv
	}
	var bs []binding
	seen := map[string]bool{}
	for rho := clo.Env; rho != nil && len(seen) < len(fv); rho = rho.Next {
		if fv[rho.Name] && !seen[rho.Name] {
			seen[rho.Name] = true
			bs = append(bs, binding{rho.Name, rho.V})
		}
	}
	return bs
}

// closure reads back root and, first, every closure its read-back needs: depth first,
// each once, with a stack of its own.
func (r *reader) closure(root *Closure) {
	type frame struct {
		clo      *Closure
		bindings []binding // nil until the closures it needs have been pushed
	}
	stack := []frame{{clo: root}}
	visiting := map[*Closure]bool{}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		clo := top.clo
		if _, done := r.terms[clo]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		if !visiting[clo] {
			visiting[clo] = true
			top.bindings = r.bindings(clo)
			bs := top.bindings
			for _, b := range bs {
				if c := simpleClosure(b.v); c != nil && !visiting[c] {
					stack = append(stack, frame{clo: c})
				}
			}
			continue
		}
		sub := make(map[string]g.Expr, len(top.bindings))
		for _, b := range top.bindings {
			if t := r.value(b.v); t != nil {
				sub[b.name] = t
			}
		}
		r.terms[clo] = g.SubstAll(clo.Lam, sub)
		stack = stack[:len(stack)-1]
	}
}

// ToAnswer reads an answer back as the substitution-based stages give it.
func (a Answer) ToAnswer() g.Answer {
	if a.Blamed {
		return g.Answer{Blamed: true, Blame: a.L}
	}
	return g.Answer{Value: ReadBack(a.V)}
}

// Simple reports whether v is a simple value s.
func Simple(v Value) bool {
	_, w := v.(*Wrapped)
	return !w
}

// WrapsValue reports whether the coercion application <d> e, in ρ, denotes a value
// <c̄> s without any step: e is a constant, a lambda, or a variable bound to a simple
// value, and d is a wrapper in normal form. (The merging mode does not merge such a
// value's coercion with a pending one: it composes with it, CmpCst.)
func WrapsValue(sem g.Semantics, d g.Coercion, e g.Expr, rho *Env) bool {
	switch x := e.(type) {
	case *g.IntLit, *g.BoolLit, *g.Lam:
	case *g.Var:
		if val, ok := rho.Lookup(x.Name); !ok || !Simple(val) {
			return false
		}
	default:
		return false
	}
	return g.IsWrapperShape(d) && g.IsNormal(sem, d)
}

// Show prints values read back (σ), separated by commas, skipping nil ones: what a
// stuck run's message shows of the values it could not go on with.
func Show(vs ...Value) string {
	var parts []string
	for _, v := range vs {
		if v != nil {
			parts = append(parts, g.FormatShort(ReadBack(v), interderive.MaxStuckShown))
		}
	}
	return strings.Join(parts, ", ")
}
