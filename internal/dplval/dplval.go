// Package dplval holds the run-time values and environments of the environment-based
// stages of the differentiable language (machine, cps2, interp): a value as a layer
// sees it, the value environment ρ and the function environment φ of Figures 2–5, and
// function closures. It is data only: no evaluator lives here (as internal/castval for
// the cast calculus).
package dplval

import "github.com/interderive/interderive/dpl"

// Value is a value of the stages. Term is the value V as the current layer sees it: in
// a symbolic layer its symbolic variables stay names (it is what goes into a trace);
// Val is ρ(V), closed. In an ordinary layer the two are the same closed value.
type Value struct {
	Term dpl.Term
	Val  dpl.Term
}

// Closed makes the value of a closed term.
func Closed(v dpl.Term) Value { return Value{Term: v, Val: v} }

// Env is a value environment ρ: a persistent list mapping variables to closed values.
// Sym marks the variables bound by a symbolic layer, which its traces keep as names;
// the others are bound by ordinary evaluation, and a trace holds their value.
type Env struct {
	Name string
	Val  dpl.Term
	Sym  bool
	Next *Env
}

// Bind is ρ[v/x].
func (e *Env) Bind(x string, v dpl.Term, sym bool) *Env {
	return &Env{Name: x, Val: v, Sym: sym, Next: e}
}

// Lookup finds the innermost binding of x.
func (e *Env) Lookup(x string) (*Env, bool) {
	for ; e != nil; e = e.Next {
		if e.Name == x {
			return e, true
		}
	}
	return nil, false
}

// BindValue extends ρ with the variables of the value v as it stands in a trace, each
// bound (symbolic) to the part of ρ(v) it stands for, so that a trace built from v can
// be evaluated.
func (e *Env) BindValue(v Value) *Env { return bindMatching(e, v.Term, v.Val) }

func bindMatching(e *Env, t, val dpl.Term) *Env {
	if t == val {
		return e // a closed value
	}
	switch t := t.(type) {
	case *dpl.Var:
		return e.Bind(t.Name, val, true)
	case *dpl.Pair:
		if p, ok := val.(*dpl.Pair); ok {
			return bindMatching(bindMatching(e, t.X, p.X), t.Y, p.Y)
		}
	}
	return e
}

// Funs is a function environment φ: a persistent list mapping function variables to
// closures.
type Funs struct {
	Name string
	Clo  *Closure
	Next *Funs
}

// Bind is φ[clo/f].
func (p *Funs) Bind(f string, clo *Closure) *Funs {
	return &Funs{Name: f, Clo: clo, Next: p}
}

// Lookup finds the closure of f.
func (p *Funs) Lookup(f string) (*Closure, bool) {
	for ; p != nil; p = p.Next {
		if p.Name == f {
			return p.Clo, true
		}
	}
	return nil, false
}

// Closure is clo_φ(f(x:T):U. M): the function's body M has no free ordinary variable
// but x, and its free function variables other than f are resolved in Phi.
type Closure struct {
	Name, Param  string
	ParamT, ResT dpl.Type
	Body         dpl.Term
	Phi          *Funs
}
