package semval

import (
	"strconv"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/envnames"
	"github.com/interderive/interderive/sem"
)

// Printer prints the terms of a trace as the derived stages hold them: under
// substitution as sem.Format does; under environments (sem.Engine) the closures
// t[ρ], with their environments named, as the gradual calculi's traces print theirs
// (closures.Printer): the first time it meets an environment it names it ρ1, ρ2, ...
// and adds its definition to those Defs returns,
//
//	ρ2 = (x ↦ cl) : ρ1      x bound to the closure cl
//	ρ3 = (y ↦ ·) : ρ2       y bound by a binder around, not substituted yet
//
// and afterwards t[ρ2] refers to it by name (ε is the empty environment). A closure is
// its term and its environment, (add x 1)[ρ2]; a name (a binder's variable) is the
// name alone; a node is its constructor applied to its children, (add x[ρ2] 1[ρ2]).
// Each environment node is defined once, so that a trace is linear in the run, not
// in the closures read back.
//
// Names go by identity (the *Env), kept through weak pointers, so that the Printer
// does not keep the run's environments alive.
type Printer struct {
	budget interderive.PrintBudget
	envs   *envnames.Namer[sem.Env]
}

// NewPrinter returns a printer whose every printed item (a closure, a definition)
// stays within the budget b.
func NewPrinter(b interderive.PrintBudget) *Printer {
	p := &Printer{budget: b}
	p.envs = envnames.New(envnames.Cut(b), envnames.Binding[sem.Env]{
		Next: func(rho *sem.Env) *sem.Env { return rho.Next() },
		Refs: func(rho *sem.Env) []*sem.Env { return envsOf(rho.Value()) },
		Var:  func(rho *sem.Env) string { return rho.Name() },
		Write: func(w *interderive.BoundedBuilder, rho *sem.Env) {
			if rho.Value() == nil {
				w.WriteString("·") // bound by a binder around, not substituted yet
				return
			}
			p.closure(w, rho.Value())
		},
	})
	return p
}

// Defs returns the definitions of the environments named since its last call, each
// after those it refers to, and forgets them.
func (p *Printer) Defs() []string { return p.envs.Defs() }

// Closure prints c with its environments named, within the budget: an
// *interderive.OutputError when it does not fit, with the part that did, or the
// budget check's error.
func (p *Printer) Closure(c *sem.Term) (string, error) {
	w := interderive.Bounded(p.budget)
	p.closure(&w, c)
	return w.Result()
}

// closure writes c: a walk with a stack of its own, since closures nest as deep as
// the run makes them. A literal item (c nil) is written as it is.
func (p *Printer) closure(w *interderive.BoundedBuilder, c *sem.Term) {
	type item struct {
		c   *sem.Term
		lit string
	}
	stack := []item{{c: c}}
	for len(stack) > 0 && !w.Stopped() {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch c := it.c; {
		case c == nil:
			w.WriteString(it.lit)
		case c.Op == sem.TermVar:
			w.WriteString(c.Name)
		case c.Op == sem.TermInt:
			w.WriteString(strconv.FormatInt(c.N, 10))
		case c.Op == sem.TermAtom:
			w.WriteString(c.Atom.Format(c.Val))
		case c.Op == sem.TermClo:
			env := p.envs.Name(c.Env)
			s, err := sem.FormatBounded(c.Body, w.Left())
			w.WriteString(s)
			w.Fail(err)
			w.WriteString("[" + env + "]")
		default:
			var items []item // the node as programs write it, pushed last first
			c.Con.Write(c.Args, func(s string) { items = append(items, item{lit: s}) }, func(a *sem.Term) { items = append(items, item{c: a}) })
			for i := len(items) - 1; i >= 0; i-- {
				stack = append(stack, items[i])
			}
		}
	}
}

// envsOf are the environments c refers to directly: those of its closures, wherever
// they stand in c (nil for c nil).
func envsOf(c *sem.Term) []*sem.Env {
	var out []*sem.Env
	stack := []*sem.Term{c}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case c == nil:
		case c.Op == sem.TermClo:
			if c.Env != nil {
				out = append(out, c.Env)
			}
		case c.Op == sem.TermCon:
			stack = append(stack, c.Args...)
		}
	}
	return out
}

// Short prints c as Closure does, cut at max bytes and marked "…" when longer (a frame
// of a machine's stack), within the budget's checks; it names the environments of the
// part it prints only.
func (p *Printer) Short(c *sem.Term, max int) string {
	b := p.budget
	b.Max = max
	w := interderive.Bounded(b)
	p.closure(&w, c)
	s, err := w.Result()
	if err != nil {
		s += "…"
	}
	return s
}
