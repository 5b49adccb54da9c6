package interp

import (
	"fmt"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/castval"
)

// MaxDepth bounds the nesting of the interpreter's recursive calls: past it a run
// stops with an *interderive.DepthError instead of exhausting the Go stack.
const MaxDepth = 100_000

// The interpreter of λ⟨·⟩ has the shape of Siek & Garcia's (2012): interp, apply,
// cast (their apply_coercion and mk_cast) and seq, parametric in the cast semantics.
// Its seq and normalize are the direct-style image of the inner layer (the coercion
// continuation of the two-level CPS evaluator): they normalise a coercion one
// contraction at a time, leftmost-innermost, reporting each as a StepCst event, so
// that the interpreter runs in lockstep with the reduction semantics. (Siek &
// Garcia's one-pass seq, gradual.Semantics.Seq, computes the same normal forms.)
//
// The tail flag of every function says whether the evaluation context of the current
// computation is empty: it is the direct-style trace of "the meta-continuation is the
// initial one", which the Blame rule (E[blame l] -> blame l, E not empty) consults.
type interpreter struct {
	sem   g.Semantics
	fuel  *interderive.Counter
	depth int
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ and reads the answer back.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	in := &interpreter{sem: sem, fuel: interderive.NewCounter(opts)}
	a, err := in.interp(e, nil, true)
	if err != nil {
		return g.Answer{}, err
	}
	return a.ToAnswer(), nil
}

func value(val v.Value) (v.Answer, error) { return v.Answer{V: val}, nil }

// interp evaluates e in ρ.
func (in *interpreter) interp(e g.Expr, rho *v.Env, tail bool) (v.Answer, error) {
	if in.depth++; in.depth > MaxDepth {
		return v.Answer{}, &interderive.DepthError{What: "interpreter recursion", Limit: MaxDepth}
	}
	defer func() { in.depth-- }()
	switch e := e.(type) {
	case *g.IntLit, *g.BoolLit:
		return value(&v.Const{K: e})
	case *g.Var:
		val, ok := rho.Lookup(e.Name)
		if !ok {
			return v.Answer{}, fmt.Errorf("unbound variable %s", e.Name)
		}
		return value(val)
	case *g.Lam:
		return value(&v.Closure{Lam: e, Env: rho})
	case *g.Unary:
		x, err := in.interp(e.X, rho, false)
		if err != nil || x.Blamed {
			return x, err
		}
		return in.delta(e.P, e.Op, x.V)
	case *g.Binary:
		x, err := in.interp(e.X, rho, false)
		if err != nil || x.Blamed {
			return x, err
		}
		y, err := in.interp(e.Y, rho, false)
		if err != nil || y.Blamed {
			return y, err
		}
		return in.delta(e.P, e.Op, x.V, y.V)
	case *g.If:
		c, err := in.interp(e.Cond, rho, false)
		if err != nil || c.Blamed {
			return c, err
		}
		k, ok := constant(c.V).(*g.BoolLit)
		if !ok {
			return v.Answer{}, fmt.Errorf("if on a non-boolean")
		}
		if err := in.fuel.Contract("If"); err != nil {
			return v.Answer{}, err
		}
		if k.B {
			return in.interp(e.Then, rho, tail)
		}
		return in.interp(e.Else, rho, tail)
	case *g.App:
		f, err := in.interp(e.Fun, rho, false)
		if err != nil || f.Blamed {
			return f, err
		}
		a, err := in.interp(e.Arg, rho, false)
		if err != nil || a.Blamed {
			return a, err
		}
		return in.apply(f.V, a.V, tail)
	case *g.Coerce:
		x, err := in.interp(e.X, rho, false)
		if err != nil || x.Blamed {
			return x, err
		}
		return in.cast(e.C, x.V, tail)
	case *g.Let:
		b, err := in.interp(e.Bound, rho, false)
		if err != nil || b.Blamed {
			return b, err
		}
		if err := in.fuel.Contract("Let"); err != nil {
			return v.Answer{}, err
		}
		return in.interp(e.Body, rho.Bind(e.Name, b.V), tail)
	case *g.Letrec:
		if err := in.fuel.Contract("Letrec"); err != nil {
			return v.Answer{}, err
		}
		return in.interp(e.Body, rho.Bind(e.Name, &v.Closure{Lam: unfold(e), Env: rho}), tail)
	case *g.Blame:
		return in.blame(e.L, tail)
	}
	return v.Answer{}, fmt.Errorf("cannot interpret %s (casts must be translated first)", g.Format(e))
}

// unfold is the function a letrec binds: \x:S. (letrec f:T = \x:S. e in e), so that
// every call unfolds the recursion once more, as the Letrec rule does.
func unfold(l *g.Letrec) *g.Lam {
	return &g.Lam{P: l.Fun.P, Param: l.Fun.Param, T: l.Fun.T,
		Body: &g.Letrec{P: l.P, Name: l.Name, T: l.T, Fun: l.Fun, Body: l.Fun.Body}}
}

// blame is the answer blame l; outside the empty context it is a Blame contraction.
func (in *interpreter) blame(l g.Label, tail bool) (v.Answer, error) {
	if !tail {
		if err := in.fuel.Contract("Blame"); err != nil {
			return v.Answer{}, err
		}
	}
	return v.Answer{Blamed: true, L: l}, nil
}

func constant(val v.Value) g.Expr {
	if c, ok := val.(*v.Const); ok {
		return c.K
	}
	return nil
}

func (in *interpreter) delta(p g.Pos, op g.Op, args ...v.Value) (v.Answer, error) {
	ks := make([]g.Expr, len(args))
	for i, a := range args {
		if ks[i] = constant(a); ks[i] == nil {
			return v.Answer{}, fmt.Errorf("%s applied to a non-constant", op)
		}
	}
	k, ok := g.Delta(p, op, ks...)
	if !ok {
		return v.Answer{}, fmt.Errorf("%s applied to ill-typed constants", op)
	}
	if err := in.fuel.Contract("delta"); err != nil {
		return v.Answer{}, err
	}
	return value(&v.Const{K: k})
}

// apply applies a function value: a closure (beta), or a function wrapped by c̃ -> d̃
// (AppCst: cast the argument by c̃, apply, cast the result by d̃).
func (in *interpreter) apply(f, a v.Value, tail bool) (v.Answer, error) {
	switch f := f.(type) {
	case *v.Closure:
		if err := in.fuel.Contract("beta"); err != nil {
			return v.Answer{}, err
		}
		return in.interp(f.Lam.Body, f.Env.Bind(f.Lam.Param, a), tail)
	case *v.Wrapped:
		fc, ok := f.C.(*g.Func)
		if !ok {
			break
		}
		if err := in.fuel.Contract("AppCst"); err != nil {
			return v.Answer{}, err
		}
		x, err := in.cast(fc.Dom, a, false)
		if err != nil || x.Blamed {
			return x, err
		}
		r, err := in.apply(f.S, x.V, false)
		if err != nil || r.Blamed {
			return r, err
		}
		return in.cast(fc.Cod, r.V, tail)
	}
	return v.Answer{}, fmt.Errorf("application of a non-function")
}

// cast applies a coercion to a value (Siek & Garcia's apply_coercion): the identity
// (IdCst), composition with the value's wrapper (CmpCst, then seq), or normalisation of
// the coercion on a simple value; mkCast then finishes.
func (in *interpreter) cast(c g.Coercion, val v.Value, tail bool) (v.Answer, error) {
	var err error
	if w, ok := val.(*v.Wrapped); ok {
		if _, id := c.(g.IdC); id {
			if err := in.fuel.Contract("IdCst"); err != nil {
				return v.Answer{}, err
			}
			return value(val)
		}
		if err := in.fuel.Contract("CmpCst"); err != nil {
			return v.Answer{}, err
		}
		if c, err = in.seq(w.C, c); err != nil {
			return v.Answer{}, err
		}
		return in.mkCast(c, w.S, tail)
	}
	if c, err = in.normalize(c); err != nil {
		return v.Answer{}, err
	}
	return in.mkCast(c, val, tail)
}

// mkCast puts a normal coercion on a simple value: IdCst, FailCst, FailFC, or a
// wrapped value.
func (in *interpreter) mkCast(c g.Coercion, s v.Value, tail bool) (v.Answer, error) {
	switch c := c.(type) {
	case g.IdC:
		if err := in.fuel.Contract("IdCst"); err != nil {
			return v.Answer{}, err
		}
		return value(s)
	case *g.Fail:
		if err := in.fuel.Contract("FailCst"); err != nil {
			return v.Answer{}, err
		}
		return in.blame(c.L, tail)
	}
	if l, ok := g.IsFailingWrapper(c); ok {
		if err := in.fuel.Contract("FailFC"); err != nil {
			return v.Answer{}, err
		}
		return in.blame(l, tail)
	}
	if !g.IsWrapperShape(c) {
		return v.Answer{}, fmt.Errorf("coercion %s cannot apply to a simple value", g.FormatCoercion(c))
	}
	return value(&v.Wrapped{C: c, S: s})
}

// seq composes two normal forms: the normal form of c1 ; c2.
func (in *interpreter) seq(c1, c2 g.Coercion) (g.Coercion, error) {
	return in.normalize(g.Then(c1, c2))
}

// normalize reduces a coercion to normal form, innermost first: both parts of a
// sequence or arrow, then the node itself, whose contractum is normalised in turn.
func (in *interpreter) normalize(c g.Coercion) (g.Coercion, error) {
	var node g.Coercion
	switch c := c.(type) {
	case *g.Seq:
		a, err := in.normalize(c.Fst)
		if err != nil {
			return nil, err
		}
		b, err := in.normalize(c.Snd)
		if err != nil {
			return nil, err
		}
		node = g.Then(a, b)
	case *g.Func:
		a, err := in.normalize(c.Dom)
		if err != nil {
			return nil, err
		}
		b, err := in.normalize(c.Cod)
		if err != nil {
			return nil, err
		}
		node = &g.Func{Dom: a, Cod: b}
	default:
		return c, nil
	}
	r, rule, ok := in.sem.Contract(node)
	if !ok {
		return node, nil
	}
	if err := in.fuel.Contract("StepCst/" + rule); err != nil {
		return nil, err
	}
	return in.normalize(r)
}
