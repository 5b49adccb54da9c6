// Package lambdaval holds the run-time values of the environment-based stages of the
// λ-calculus (machine, cps2, interp): integers and closures, environments, the
// closure a letrec binds, δ on values, and the read-back σ of a value into a term, by
// which their answers are compared with the reduction semantics'. These are
// meta-level pieces: no evaluator lives here.
package lambdaval

import (
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/lambda"
)

// Value is a run-time value: an integer or a closure.
type Value interface{ isValue() }

type (
	// Int is an integer.
	Int int64
	// Closure is a lambda closed by the environment it was evaluated in.
	Closure struct {
		Lam *lambda.Lam
		Env *Env
	}
)

func (Int) isValue()      {}
func (*Closure) isValue() {}

// Env is an environment ρ ::= ε | (x ↦ v) : ρ; nil is ε.
type Env struct {
	Name string
	V    Value
	Next *Env
}

// Bind is (x ↦ v) : ρ.
func (rho *Env) Bind(x string, v Value) *Env { return &Env{Name: x, V: v, Next: rho} }

// Lookup finds x in ρ: its innermost binding.
func (rho *Env) Lookup(x string) (Value, bool) {
	for ; rho != nil; rho = rho.Next {
		if rho.Name == x {
			return rho.V, true
		}
	}
	return nil, false
}

// Delta is δ on values: x op y for integers (lambda.Prim); ok is false otherwise.
func Delta(op lambda.Op, x, y Value) (Value, bool) {
	a, ok1 := x.(Int)
	b, ok2 := y.(Int)
	if !ok1 || !ok2 {
		return nil, false
	}
	n, ok := lambda.Prim(op, int64(a), int64(b))
	return Int(n), ok
}

// LetrecClosure is the closure letrec f:T = \x:S. e binds f to in ρ: the unfolded
// function (lambda.Unfold), closed by ρ. When the letrec is the one an unfolded
// function starts with (lambda.Unfolding) and ρ starts with that function's
// parameter — the environment of a call of it — the closure leaves that binding out:
// the unfolded function binds its parameter again, so it does not use it. Read back,
// the closure is the same term; but the environment of a recursive call no longer
// holds the parameters of the calls before it, so that a loop runs in constant space
// and its lookups of outer variables do not slow down with each iteration.
func LetrecClosure(l *lambda.Letrec, rho *Env) *Closure {
	f := lambda.Unfold(l)
	if f.Body == l && rho != nil && rho.Name == f.Param {
		rho = rho.Next
	}
	return &Closure{Lam: f, Env: rho}
}

// BindLetrec is the environment in which letrec f:T = \x:S. e in b evaluates b:
// (f ↦ LetrecClosure(l, ρ)) : ρ.
func BindLetrec(l *lambda.Letrec, rho *Env) *Env {
	return rho.Bind(l.Name, LetrecClosure(l, rho))
}

// ReadBack is σ: it turns a value into a term by substituting its environments. A
// closure reads back as its lambda with the values of its free variables (their
// innermost bindings in its environment) read back and substituted. Closures nest as
// deep as the run made them (a closure over a closure over ...), so ReadBack keeps
// the closures still to read back in a stack of its own rather than Go's, and reads a
// closure that several others hold back once.
func ReadBack(v Value) lambda.Expr {
	switch v := v.(type) {
	case Int:
		return &lambda.IntLit{N: int64(v)}
	case *Closure:
		r := reader{terms: map[*Closure]lambda.Expr{}, fvs: map[*lambda.Lam]map[string]bool{}}
		r.closure(v)
		return r.terms[v]
	}
	return nil
}

// reader is ReadBack's state: the closures read back so far, and the free variables of
// their lambdas.
type reader struct {
	terms map[*Closure]lambda.Expr
	fvs   map[*lambda.Lam]map[string]bool
}

// binding is a free variable of a closure's lambda and its value.
type binding struct {
	name string
	v    Value
}

// bindings are the innermost bindings, in clo's environment, of the free variables of
// its lambda.
func (r *reader) bindings(clo *Closure) []binding {
	fv, ok := r.fvs[clo.Lam]
	if !ok {
		fv = lambda.FreeVars(clo.Lam)
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
		bindings []binding
		expanded bool
	}
	stack := []frame{{clo: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if _, done := r.terms[top.clo]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.expanded {
			top.expanded = true
			top.bindings = r.bindings(top.clo)
			for _, b := range top.bindings {
				if c, ok := b.v.(*Closure); ok {
					stack = append(stack, frame{clo: c})
				}
			}
			continue
		}
		sub := make(map[string]lambda.Expr, len(top.bindings))
		for _, b := range top.bindings {
			if c, ok := b.v.(*Closure); ok {
				sub[b.name] = r.terms[c]
			} else {
				sub[b.name] = ReadBack(b.v)
			}
		}
		r.terms[top.clo] = lambda.SubstAll(top.clo.Lam, sub)
		stack = stack[:len(stack)-1]
	}
}

// Show prints values read back (σ), separated by commas, skipping nil ones: what a
// stuck run's message shows of the values it could not go on with.
func Show(vs ...Value) string {
	var parts []string
	for _, v := range vs {
		if v != nil {
			parts = append(parts, lambda.FormatShort(ReadBack(v), interderive.MaxStuckShown))
		}
	}
	return strings.Join(parts, ", ")
}
