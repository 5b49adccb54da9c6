// Package abductiveval holds the run-time values of the environment-based stages of
// the abductive calculus (closures, machine, cps2, interp): value closures and
// environments, their footprints, δ and the iterators' unfolding on values,
// decoupling, and the read-back σ of a value into a term, by which their answers are
// compared with the reduction semantics'. These are meta-level pieces: no evaluator
// lives here.
package abductiveval

import (
	"github.com/interderive/interderive/abductive"
)

// Closure is a value closure v[ρ]: a value term of package abductive (a ground value
// or a vector, which are closed and ignore ρ; a lambda or an abduct, closed by ρ).
type Closure struct {
	E   abductive.Expr
	Env *Env

	foot      abductive.Footprint // the footprint, once known
	footKnown bool
}

// Closed is the closure of a closed value term: e[ε].
func Closed(e abductive.Expr) *Closure { return &Closure{E: e} }

// Env is an environment ρ ::= ε | (x ↦ v) : ρ; nil is ε.
type Env struct {
	Name string
	V    *Closure
	Next *Env
}

// Bind is (x ↦ v) : ρ.
func (rho *Env) Bind(x string, v *Closure) *Env { return &Env{Name: x, V: v, Next: rho} }

// Lookup finds x in ρ: its innermost binding.
func (rho *Env) Lookup(x string) (*Closure, bool) {
	for ; rho != nil; rho = rho.Next {
		if rho.Name == x {
			return rho.V, true
		}
	}
	return nil, false
}

// IsFunction reports whether v is a lambda or an abduct closure.
func (v *Closure) IsFunction() bool {
	switch v.E.(type) {
	case *abductive.Lam, *abductive.Abduct:
		return true
	}
	return false
}

// Footprint is v's footprint (abductive/doc.go, "Footprints"): a ground value's or a
// vector's own; a function's, its own (abductive.FootprintOf: what a run added and
// its body's labels) and the footprints of the values ρ binds its free variables to
// (those it captures, as substitution would have put them in its body).
func (v *Closure) Footprint() abductive.Footprint {
	if v.footKnown {
		return v.foot
	}
	foot := abductive.FootprintOf(v.E)
	if v.IsFunction() && v.Env != nil {
		foot = abductive.Union(foot, Captured(v.E, v.Env))
	}
	v.foot, v.footKnown = foot, true
	return foot
}

// Captured is the union of the footprints of the values ρ binds the free variables of
// the function e to.
func Captured(e abductive.Expr, rho *Env) abductive.Footprint {
	var foot abductive.Footprint
	for _, x := range abductive.FunFreeVars(e) {
		if w, ok := rho.Lookup(x); ok {
			foot = abductive.Union(foot, w.Footprint())
		}
	}
	return foot
}

// LetFootprint is the footprint of the function \x. body of the let l
// (abductive.LetFunction) closed by ρ: the labels of body and what ρ binds its free
// variables (but x) to. The let's beta adds it.
func LetFootprint(l *abductive.Let, rho *Env) abductive.Footprint {
	fun := abductive.LetFunction(l)
	return abductive.Union(abductive.FootprintOf(fun), Captured(fun, rho))
}

// WithFoot is v with the footprint add added (abductive.WithFoot).
func (v *Closure) WithFoot(add abductive.Footprint) *Closure {
	e := abductive.WithFoot(v.E, add)
	if e == v.E {
		return v
	}
	return &Closure{E: e, Env: v.Env}
}

// ReadBack is σ, the term a value closure stands for: a function with the values of
// its free variables (their innermost bindings in ρ) read back and substituted. A
// closure that several environments hold is read back once.
func ReadBack(v *Closure) abductive.Expr {
	return readBack(v, map[*Closure]abductive.Expr{})
}

func readBack(v *Closure, done map[*Closure]abductive.Expr) abductive.Expr {
	if !v.IsFunction() || v.Env == nil {
		return v.E
	}
	if e, ok := done[v]; ok {
		return e
	}
	e := v.E
	for _, x := range abductive.FunFreeVars(v.E) {
		if w, ok := v.Env.Lookup(x); ok {
			e = abductive.Subst(e, x, readBack(w, done))
		}
	}
	done[v] = e
	return e
}

// Delta is δ on values (abductive.Delta); ok is false when the operands do not fit.
func Delta(p abductive.Pos, op abductive.Op, x, y *Closure) (*Closure, bool) {
	if x.IsFunction() || y.IsFunction() {
		return nil, false
	}
	r, ok := abductive.Delta(p, op, x.E, y.E)
	if !ok {
		return nil, false
	}
	return Closed(r), true
}

// Decouple is the decoupling of the model m (abductive.Decouple on its read-back):
// the parameterised model F and the parameters P, closed values, and the report.
func Decouple(p abductive.Pos, sigma abductive.Store, m *Closure) (f, params *Closure, d abductive.Decoupling) {
	fun, vec := abductive.Decouple(p, sigma, ReadBack(m))
	return Closed(fun), Closed(vec), abductive.DecouplingOf(vec)
}

// Basis is the closure of the basis vector e_k of n dimensions.
func Basis(p abductive.Pos, k, n int) *Closure { return Closed(abductive.Basis(p, k, n)) }

// Dimension is the number of components of the vector v (ok false if v is not one).
func Dimension(v *Closure) (int, bool) {
	vec, ok := v.E.(*abductive.Vec)
	if !ok {
		return 0, false
	}
	return len(vec.Elems), true
}

// Combine is the operation an iterator folds with: + for +L, * for *L.
func Combine(op abductive.Op) abductive.Op {
	if op == abductive.OpIterMul {
		return abductive.OpMul
	}
	return abductive.OpAdd
}
