// Package handlersval holds the run-time values of the environment-based stages of the
// language of reverse handlers (machine, cps2, interp): environments binding variables
// to closed values (values are first-order: reals, (), tuples), and read-back σ, which
// substitutes an environment into a term or a command. Meta-level pieces, never an
// evaluator.
package handlersval

import (
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
)

// Env is an environment ρ: a list of bindings, innermost first; nil is ε.
type Env struct {
	name string
	v    dpl.Term
	next *Env
}

// Bind is (x ↦ v) : ρ.
func (rho *Env) Bind(x string, v dpl.Term) *Env { return &Env{name: x, v: v, next: rho} }

// Lookup is ρ(x).
func (rho *Env) Lookup(x string) (dpl.Term, bool) {
	for ; rho != nil; rho = rho.next {
		if rho.name == x {
			return rho.v, true
		}
	}
	return nil, false
}

// Except is ρ's lookup without the variables xs, bound around the term it reads.
func (rho *Env) Except(xs ...string) func(string) (dpl.Term, bool) {
	return func(x string) (dpl.Term, bool) {
		for _, y := range xs {
			if x == y {
				return nil, false
			}
		}
		return rho.Lookup(x)
	}
}

// Term is σ(M[ρ]): the term with ρ's values substituted for its free variables but xs.
func (rho *Env) Term(m dpl.Term, xs ...string) dpl.Term {
	if rho == nil {
		return m
	}
	return dpl.SubstValues(m, rho.Except(xs...))
}

// Cmd is σ(P[ρ]): the command with ρ's values substituted for its free variables.
func (rho *Env) Cmd(c handlers.Cmd) handlers.Cmd {
	seen := map[string]bool{}
	for e := rho; e != nil; e = e.next {
		if seen[e.name] {
			continue
		}
		seen[e.name] = true
		c = handlers.Subst(c, e.name, e.v, &dpl.Names{})
	}
	return c
}

// Values are the closed values of an RH's V under ρ (their free variables are
// variables of the commands around the RH, bound in ρ).
func (rho *Env) Values(vs []dpl.Term) []dpl.Term {
	if rho == nil {
		return vs
	}
	out := make([]dpl.Term, len(vs))
	for i, v := range vs {
		out[i] = rho.Term(v)
	}
	return out
}
