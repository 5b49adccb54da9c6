package semval

import (
	"strconv"
	"weak"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Printer prints the closures of a trace as the stages over environments hold them,
// t[ρ], with their environments named, as the gradual calculi's traces print theirs
// (closures.Printer): the first time it meets an environment it names it ρ1, ρ2, ...
// and adds its definition to those Defs returns,
//
//	ρ2 = (x ↦ cl) : ρ1      x bound to the closure cl
//	ρ3 = (y ↦ ·) : ρ2       y bound by a binder around, not substituted yet
//
// and afterwards t[ρ2] refers to it by name (ε is the empty environment). A Leaf is
// its term and its environment, (add x 1)[ρ2]; a name (a binder's variable) is the
// name alone; a node is its constructor applied to its children, (add x[ρ2] 1[ρ2]).
// Each environment node is defined once, so that a trace is linear in the run, not
// in the closures read back.
//
// Names go by identity (the *Env), kept through weak pointers, so that the Printer
// does not keep the run's environments alive.
type Printer struct {
	budget interderive.PrintBudget
	names  map[weak.Pointer[Env]]int
	next   int      // the number of the next name
	defs   []string // definitions not yet returned by Defs
	swept  int      // the size of names after its last sweep
}

// NewPrinter returns a printer whose every printed item (a closure, a definition)
// stays within the budget b.
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

// Closure prints c with its environments named, within the budget: an
// *interderive.OutputError when it does not fit, with the part that did, or the
// budget check's error.
func (p *Printer) Closure(c *Clo) (string, error) {
	w := interderive.Bounded(p.budget)
	p.closure(&w, c)
	return w.Result()
}

// closure writes c: a walk with a stack of its own, since closures nest as deep as
// the run makes them. A literal item (c nil) is written as it is.
func (p *Printer) closure(w *interderive.BoundedBuilder, c *Clo) {
	type item struct {
		c   *Clo
		lit string
	}
	stack := []item{{c: c}}
	for len(stack) > 0 && !w.Stopped() {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch c := it.c; {
		case c == nil:
			w.WriteString(it.lit)
		case c.IsName():
			w.WriteString(c.T.Name)
		case c.T != nil:
			env := p.name(c.Env)
			s, err := sem.FormatBounded(c.T, w.Left())
			w.WriteString(s)
			w.Fail(err)
			w.WriteString("[" + env + "]")
		default:
			w.WriteString("(" + c.Con.Name)
			stack = append(stack, item{lit: ")"})
			for i := len(c.Args) - 1; i >= 0; i-- {
				stack = append(stack, item{c: c.Args[i]}, item{lit: " "})
			}
		}
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
			stack = append(stack, item{rho: r.next})
			for _, e := range envsOf(r.c) {
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
	w := interderive.Bounded(p.budget)
	w.WriteString("ρ" + strconv.Itoa(n) + " = (" + rho.name + " ↦ ")
	if rho.c == nil {
		w.WriteString("·")
	} else {
		p.closure(&w, rho.c)
	}
	w.WriteString(") : " + p.name(rho.next))
	s, err := w.Result()
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

// envsOf are the environments c refers to directly: those of its Leaves, wherever
// they stand in c (nil for c nil).
func envsOf(c *Clo) []*Env {
	var out []*Env
	stack := []*Clo{c}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch {
		case c == nil:
		case c.T != nil:
			if c.Env != nil {
				out = append(out, c.Env)
			}
		default:
			stack = append(stack, c.Args...)
		}
	}
	return out
}

// Short prints c as Closure does, cut at max bytes and marked "…" when longer (a frame
// of a machine's stack), within the budget's checks; it names the environments of the
// part it prints only.
func (p *Printer) Short(c *Clo, max int) string {
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
