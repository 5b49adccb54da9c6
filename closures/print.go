package closures

import (
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/values/envnames"
)

// Printer prints the closures of a trace with their environments named: the first
// time it meets an environment (x ↦ cl) : ρ it names it ρ1, ρ2, ... and adds its
// definition, "ρ2 = (x ↦ cl) : ρ1", to those Defs returns; afterwards, e[ρ2] refers to
// it by name. Format prints every environment whole, at every step, and the
// environments of the closures they bind in turn, so that a closure's printed form can
// be exponential in its size (sixteen nested lets of functions: megabytes a step); a
// Printer prints each environment node once, so that a trace is linear in the run.
//
// Names go by identity (the *Env), and the Printer keeps them through weak pointers,
// so that it does not keep the run's environments alive.
type Printer struct {
	budget interderive.PrintBudget
	envs   *envnames.Namer[Env]
}

// NewPrinter returns a printer whose every printed item — a closure, a context, a
// definition — stays within the budget b (see gradual.FormatBounded).
func NewPrinter(b interderive.PrintBudget) *Printer {
	p := &Printer{budget: b}
	p.envs = envnames.New(envnames.Cut(b), envnames.Binding[Env]{
		Next: func(rho *Env) *Env { return rho.Next },
		Refs: func(rho *Env) []*Env { return envsOf(rho.Cl, nil) },
		Var:  func(rho *Env) string { return rho.Name },
		Write: func(w *interderive.BoundedBuilder, rho *Env) {
			p.closure(&writer{b: w}, rho.Cl)
		},
	})
	return p
}

// Defs returns the definitions of the environments named since its last call, each
// after those it refers to, and forgets them.
func (p *Printer) Defs() []string { return p.envs.Defs() }

// Closure prints cl as Format does, with its environments named (ε for the empty
// one), within the budget: an *interderive.OutputError when it does not fit, with the
// part that did, or the budget check's error.
func (p *Printer) Closure(cl Closure) (string, error) {
	w := p.writer()
	p.closure(w, cl)
	return w.b.Result()
}

// Context prints E with [] for its hole, as Context.String does, with its environments
// named.
func (p *Printer) Context(E Context) (string, error) {
	s, err := p.Closure(E.Plug(&Clo{E: &g.Var{Name: contexts.Hole}}))
	return strings.Replace(s, contexts.Hole+"[ε]", contexts.Hole, 1), err
}

// writer is one printed item within the budget.
type writer struct{ b *interderive.BoundedBuilder }

func (p *Printer) writer() *writer {
	b := interderive.Bounded(p.budget)
	return &writer{b: &b}
}

// term writes a term of the program within what is left of the budget.
func (w *writer) term(e g.Expr) {
	s, err := g.FormatBounded(e, w.b.Left())
	w.b.WriteString(s)
	w.b.Fail(err)
}

// closure writes cl.
func (p *Printer) closure(w *writer, cl Closure) {
	if w.b.Stopped() {
		return
	}
	b := w.b
	switch cl := cl.(type) {
	case *Clo:
		env := p.envs.Name(cl.Env)
		switch cl.E.(type) {
		case *g.IntLit, *g.BoolLit, *g.Var, *g.Blame:
			w.term(cl.E)
		default:
			b.WriteByte('(')
			w.term(cl.E)
			b.WriteByte(')')
		}
		b.WriteString("[" + env + "]")
	case *Prim:
		b.WriteString("prim " + cl.Op.String())
		for _, a := range cl.Args {
			b.WriteByte(' ')
			p.closure(w, a)
		}
	case *If:
		b.WriteString("if ")
		p.closure(w, cl.Cond)
		b.WriteByte(' ')
		p.closure(w, cl.Then)
		b.WriteByte(' ')
		p.closure(w, cl.Else)
	case *App:
		b.WriteByte('(')
		p.closure(w, cl.Fun)
		b.WriteString(") · (")
		p.closure(w, cl.Arg)
		b.WriteByte(')')
	case *Coerce:
		b.WriteString("<" + g.FormatCoercion(cl.C) + "> ")
		p.closure(w, cl.X)
	case *Let:
		b.WriteString("let " + cl.Name + " = ")
		p.closure(w, cl.Bound)
		b.WriteString(" in ")
		p.closure(w, &Clo{E: cl.Body, Env: cl.Env})
	default:
		b.WriteByte('?')
	}
}

// envsOf appends to out the environments cl refers to directly: those of its closures
// e[ρ] and let x = cl in e[ρ], wherever they stand in cl.
func envsOf(cl Closure, out []*Env) []*Env {
	switch cl := cl.(type) {
	case *Clo:
		out = append(out, cl.Env)
	case *Prim:
		for _, a := range cl.Args {
			out = envsOf(a, out)
		}
	case *If:
		out = envsOf(cl.Else, envsOf(cl.Then, envsOf(cl.Cond, out)))
	case *App:
		out = envsOf(cl.Arg, envsOf(cl.Fun, out))
	case *Coerce:
		out = envsOf(cl.X, out)
	case *Let:
		out = envsOf(cl.Bound, append(out, cl.Env))
	}
	return out
}
