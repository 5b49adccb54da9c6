package handlers

import "github.com/interderive/interderive/dpl"

// Size is the number of nodes of a command: its commands and the terms in them, an
// RH's values and body included; a handler counts as one node (its clauses are the
// program's, shared by every copy). It bounds the cost of a configuration in the
// regression tests of the cost of nested handlers.
func Size(c Cmd) int {
	n := 0
	term := func(t dpl.Term) {
		for stack := []dpl.Term{t}; len(stack) > 0; {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			stack = dpl.AppendChildren(stack, t)
		}
	}
	for stack := []Cmd{c}; len(stack) > 0; {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		switch c := c.(type) {
		case *Pure:
			term(c.M)
		case *Perform:
			term(c.Arg)
		case *Let:
			stack = append(stack, c.Bound, c.Body)
		case *Handle:
			n++
			term(c.Arg)
			stack = append(stack, c.Body)
		case *RH:
			n++
			for _, v := range c.Vals {
				term(v)
			}
			stack = append(stack, c.Body)
		}
	}
	return n
}
