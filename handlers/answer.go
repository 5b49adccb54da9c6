package handlers

import (
	"strings"

	"github.com/interderive/interderive/dpl"
)

// Cell is a heap location with its value.
type Cell struct {
	Name  string
	Value dpl.Term
}

// Answer is the outcome of a run (spec §3): a closed value and the final heap, or
// undefined (an operator outside its domain), with its cause.
type Answer struct {
	Value     dpl.Term       // the value, when defined
	Heap      []Cell         // the final heap, in declaration order, when defined
	Undefined *dpl.Undefined // the cause, when undefined
}

// Observe is what a run prints (spec §3): the value as the differentiable language
// prints it, then, when the program declares heap locations, " with " and every
// location in declaration order, "a = V, b = V"; or "undefined".
func (a Answer) Observe() string {
	if a.Undefined != nil {
		return "undefined"
	}
	var b strings.Builder
	b.WriteString(dpl.Format(a.Value))
	for i, c := range a.Heap {
		if i == 0 {
			b.WriteString(" with ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(c.Name + " = " + dpl.Format(c.Value))
	}
	return b.String()
}

// String is the observation, with the cause of undefinedness.
func (a Answer) String() string {
	if a.Undefined != nil {
		return "undefined: " + dpl.Format(a.Undefined.Redex)
	}
	return a.Observe()
}

// InitialHeap is the heap a program starts with: its locations' initial values, in
// declaration order.
func (p *Program) InitialHeap() []Cell {
	h := make([]Cell, len(p.Heaps))
	for i, d := range p.Heaps {
		h[i] = Cell{Name: d.Name, Value: d.Init}
	}
	return h
}
