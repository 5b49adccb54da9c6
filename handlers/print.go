package handlers

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// Format prints a program in input syntax: its declarations, one a line, then its
// command, so that ParseGenerated reads it back to the same program up to positions
// (Parse, if it holds no generated name). Terms print as dpl.Format prints them
// (sugar not reconstructed); a let prints its type when it has one.
func Format(p *Program) string {
	f := printer{b: interderive.Bounded(interderive.PrintBudget{})}
	f.program(p)
	return f.b.String()
}

// FormatCmd prints a command in input syntax. The administrative RH prints as
// RH[V1, ..., Vm]<y1, ..., ym>. P with H, which no parser reads.
func FormatCmd(c Cmd) string {
	s, _ := FormatCmdBounded(c, interderive.PrintBudget{})
	return s
}

// FormatCmdBounded is FormatCmd within the budget b (as dpl.FormatBounded).
func FormatCmdBounded(c Cmd, b interderive.PrintBudget) (string, error) {
	f := printer{b: interderive.Bounded(b)}
	f.cmd(c, false)
	return f.b.Result()
}

// FormatHandler prints a handler.
func FormatHandler(h *Handler) string {
	f := printer{b: interderive.Bounded(interderive.PrintBudget{})}
	f.handler(h)
	return f.b.String()
}

type printer struct {
	b     interderive.BoundedBuilder
	depth int
}

func (f *printer) s(s string) { f.b.WriteString(s) }

func (f *printer) term(t dpl.Term) {
	if f.b.Stopped() {
		return
	}
	s, err := dpl.FormatBounded(t, f.b.Left())
	f.s(s)
	f.b.Fail(err)
}

func (f *printer) typ(t dpl.Type) {
	s, err := dpl.FormatTypeBounded(t, f.b.Left())
	f.s(s)
	f.b.Fail(err)
}

func (f *printer) program(p *Program) {
	for _, o := range p.Ops {
		f.s("op " + o.Name + " : ")
		f.typ(o.Dom)
		f.s(" -> ")
		f.typ(o.Cod)
		f.s("\n")
	}
	for _, h := range p.Heaps {
		f.s("heap " + h.Name + " : ")
		f.typ(h.T)
		f.s(" = ")
		f.term(h.Init)
		f.s("\n")
	}
	f.cmd(p.Body, false)
}

func (f *printer) names(xs []string) {
	f.s("<")
	for i, x := range xs {
		if i > 0 {
			f.s(", ")
		}
		f.s(x)
	}
	f.s(">")
}

// cmd prints c; closed asks for parentheses around a form that extends to the right
// (let, rev handle, RH), where something follows it.
func (f *printer) cmd(c Cmd, closed bool) {
	if f.b.Stopped() {
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > MaxNesting+1000 {
		f.s("...")
		return
	}
	switch c := c.(type) {
	case *Pure:
		f.s("[")
		f.term(c.M)
		f.s("]")
	case *Perform:
		switch c.Kind {
		case GetOp:
			f.s("get[" + c.Name + "]()")
			return
		case PutOp:
			f.s("put[" + c.Name + "](")
		default:
			f.s(c.Name + "(")
		}
		f.term(c.Arg)
		f.s(")")
	case *Let:
		if closed {
			f.s("(")
		}
		for l := c; ; {
			f.s("let " + l.Name)
			if l.T != nil {
				f.s(":")
				f.typ(l.T)
			}
			f.s(" <= ")
			f.cmd(l.Bound, true)
			f.s(" in ")
			next, ok := l.Body.(*Let)
			if !ok || f.b.Stopped() {
				f.cmd(l.Body, false)
				break
			}
			l = next
		}
		if closed {
			f.s(")")
		}
	case *Handle:
		if closed {
			f.s("(")
		}
		f.s("rev handle(")
		f.term(c.Arg)
		f.s(") ")
		f.names(c.Vars)
		f.s(". ")
		f.cmd(c.Body, true)
		f.s(" with ")
		f.handler(c.H)
		if closed {
			f.s(")")
		}
	case *RH:
		if closed {
			f.s("(")
		}
		f.s("RH[")
		for i, v := range c.Vals {
			if i > 0 {
				f.s(", ")
			}
			f.term(v)
		}
		f.s("]")
		f.names(c.Vars)
		f.s(". ")
		f.cmd(c.Body, true)
		f.s(" with ")
		f.handler(c.H)
		if closed {
			f.s(")")
		}
	}
}

func (f *printer) handler(h *Handler) {
	f.s("{ return " + h.RetVar + " -> ")
	f.cmd(h.Ret, true)
	for _, c := range h.Clauses {
		f.s("; " + c.Op + "(" + c.X + ") -> ")
		f.cmd(c.Fwd, true)
		f.s(" | " + c.Y + ", " + c.Z + " -> ")
		f.cmd(c.Bwd, true)
	}
	f.s(" }")
}
