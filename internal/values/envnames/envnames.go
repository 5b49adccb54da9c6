// Package envnames names the environments of a trace, as the printers of the stages
// over environments show them: the first time a printer meets an environment
// (x ↦ v) : ρ it names it ρ1, ρ2, ... and adds its definition,
//
//	ρ2 = (x ↦ v) : ρ1
//
// after the definitions of the environments it refers to; afterwards the printer
// refers to it by name (ε is the empty environment). Each environment node is defined
// once, so that a trace is linear in the run, not in the closures it reads back.
//
// A Namer is generic over the type of the environment nodes: a Binding says how to
// read one (the rest of its chain, the environments what it binds refers to, and how
// to print it), an Item how a definition is cut at the print budget. It serves
// closures.Printer, semval.Printer and the closures stages' step observers of the
// λ-calculus and the abductive calculus.
package envnames

import (
	"strconv"
	"weak"

	"github.com/interderive/interderive"
)

// Binding says how to read an environment node of type E, a binding x ↦ v in front
// of the rest of a chain. Refs must list every environment Write names (through the
// Namer's Name), so that each is defined before the definitions that refer to it.
type Binding[E any] struct {
	Next  func(rho *E) *E                             // the rest of the chain (nil: ε)
	Refs  func(rho *E) []*E                           // the environments v refers to
	Var   func(rho *E) string                         // the variable x
	Write func(w *interderive.BoundedBuilder, rho *E) // writes v
}

// Item makes a definition one printed item: it calls format with the budget of an
// item and returns what format printed, marked where the budget cut it (as
// interderive.ItemPrinter.Item does, or Cut).
type Item func(format func(interderive.PrintBudget) (string, error)) string

// Cut is the Item of a printer whose every item stays within the budget b: a
// definition the budget cut is marked " …".
func Cut(b interderive.PrintBudget) Item {
	return func(format func(interderive.PrintBudget) (string, error)) string {
		s, err := format(b)
		if err != nil {
			s += " …"
		}
		return s
	}
}

// Namer names environments by identity (the *E), kept through weak pointers, so that
// it does not keep the run's environments alive.
type Namer[E any] struct {
	item  Item
	how   Binding[E]
	names map[weak.Pointer[E]]int
	next  int      // the number of the next name
	defs  []string // definitions not yet returned by Defs
	swept int      // the size of names after its last sweep
}

// New returns a namer that reads environments as how says and prints each
// definition as the item item makes of it.
func New[E any](item Item, how Binding[E]) *Namer[E] {
	return &Namer[E]{item: item, how: how, names: map[weak.Pointer[E]]int{}}
}

// Defs returns the definitions of the environments named since its last call, each
// after those it refers to, and forgets them.
func (n *Namer[E]) Defs() []string {
	d := n.defs
	n.defs = nil
	return d
}

// Name returns the name of rho (ε for the empty environment, nil), naming it and
// every environment its definition needs first, if it has none yet.
func (n *Namer[E]) Name(rho *E) string {
	if rho == nil {
		return "ε"
	}
	if k, ok := n.names[weak.Make(rho)]; ok {
		return "ρ" + strconv.Itoa(k)
	}
	n.define(rho)
	return "ρ" + strconv.Itoa(n.names[weak.Make(rho)])
}

// define names rho and every unnamed environment its definition refers to (the rest
// of the chain, the environments of what it binds), each after those its own
// definition refers to: a depth-first walk with a stack of its own, since chains of
// environments are as long as the run makes them.
func (n *Namer[E]) define(rho *E) {
	type item struct {
		rho      *E
		expanded bool
	}
	stack := []item{{rho: rho}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		r := top.rho
		if r == nil || n.has(r) {
			stack = stack[:len(stack)-1]
			continue
		}
		if !top.expanded {
			top.expanded = true
			stack = append(stack, item{rho: n.how.Next(r)})
			for _, e := range n.how.Refs(r) {
				stack = append(stack, item{rho: e})
			}
			continue
		}
		stack = stack[:len(stack)-1]
		n.add(r)
	}
}

// has reports whether rho has a name.
func (n *Namer[E]) has(rho *E) bool {
	_, ok := n.names[weak.Make(rho)]
	return ok
}

// add names rho, whose definition refers only to named environments, and adds the
// definition.
func (n *Namer[E]) add(rho *E) {
	n.next++
	k := n.next
	s := n.item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		w.WriteString("ρ" + strconv.Itoa(k) + " = (" + n.how.Var(rho) + " ↦ ")
		n.how.Write(&w, rho)
		w.WriteString(") : " + n.Name(n.how.Next(rho)))
		return w.Result()
	})
	n.names[weak.Make(rho)] = k
	n.defs = append(n.defs, s)
	n.sweep()
}

// sweep forgets the names of environments the run no longer holds, once the map has
// doubled since the last sweep, so that its size follows the live environments.
func (n *Namer[E]) sweep() {
	if len(n.names) < 2*max(n.swept, 1024) {
		return
	}
	for k := range n.names {
		if k.Value() == nil {
			delete(n.names, k)
		}
	}
	n.swept = len(n.names)
}
