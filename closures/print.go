package closures

import (
	"strconv"
	"strings"
	"weak"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
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
	names  map[weak.Pointer[Env]]int
	next   int      // the number of the next name
	defs   []string // definitions not yet returned by Defs
	swept  int      // the size of names after its last sweep
}

// NewPrinter returns a printer whose every printed item — a closure, a context, a
// definition — stays within the budget b (see gradual.FormatBounded).
func NewPrinter(b interderive.PrintBudget) *Printer {
	return &Printer{budget: b, names: map[weak.Pointer[Env]]int{}}
}

// Defs returns the definitions of the environments named since its last call, each
// after those it refers to, and forgets them.
func (p *Printer) Defs() []string {
	d := p.defs
	p.defs = nil
	return d
}

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
type writer struct{ b interderive.BoundedBuilder }

func (p *Printer) writer() *writer { return &writer{b: interderive.Bounded(p.budget)} }

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
	b := &w.b
	switch cl := cl.(type) {
	case *Clo:
		env := p.name(cl.Env)
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

// name returns the name of rho (ε for the empty environment), naming it and every
// environment its definition needs first, if it has none yet.
func (p *Printer) name(rho *Env) string {
	if rho == nil {
		return "ε"
	}
	if n, ok := p.names[weak.Make(rho)]; ok {
		return "ρ" + strconv.Itoa(n)
	}
	p.define(rho)
	return "ρ" + strconv.Itoa(p.names[weak.Make(rho)])
}

// define names rho and every unnamed environment its definition refers to (the rest
// of the chain, the environments of the closure it binds), each after those its own
// definition refers to: a depth-first walk with a stack of its own, since chains of
// environments are as long as the run makes them.
func (p *Printer) define(rho *Env) {
	type item struct {
		rho      *Env
		expanded bool
	}
	stack := []item{{rho: rho}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		r := top.rho
		if r == nil || p.has(r) {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.expanded {
			top.expanded = true
			stack = append(stack, item{rho: r.Next})
			for _, e := range envsOf(r.Cl, nil) {
				stack = append(stack, item{rho: e})
			}
			continue
		}
		stack = stack[:len(stack)-1]
		p.add(r)
	}
}

// has reports whether rho has a name.
func (p *Printer) has(rho *Env) bool {
	_, ok := p.names[weak.Make(rho)]
	return ok
}

// add names rho, whose definition refers only to named environments, and adds the
// definition.
func (p *Printer) add(rho *Env) {
	p.next++
	n := p.next
	w := p.writer()
	w.b.WriteString("ρ" + strconv.Itoa(n) + " = (" + rho.Name + " ↦ ")
	p.closure(w, rho.Cl)
	w.b.WriteString(") : " + p.name(rho.Next))
	s, err := w.b.Result()
	if err != nil {
		s += " …"
	}
	p.names[weak.Make(rho)] = n
	p.defs = append(p.defs, s)
	p.sweep()
}

// sweep forgets the names of environments the run no longer holds, once the map has
// doubled since the last sweep, so that its size follows the live environments.
func (p *Printer) sweep() {
	if len(p.names) < 2*max(p.swept, 1024) {
		return
	}
	for k := range p.names {
		if k.Value() == nil {
			delete(p.names, k)
		}
	}
	p.swept = len(p.names)
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
