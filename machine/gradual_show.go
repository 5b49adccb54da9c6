package machine

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// String shows a state for a person: the mode, the term or value, and the two stacks
// (innermost frame last).
func (s *State) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s ", s.Mode)
	switch s.Mode {
	case Eval:
		fmt.Fprintf(&b, "%s  ρ=%s", whole(s.Term), formatEnv(s.Env))
	case Continue:
		b.WriteString(whole(v.ReadBack(s.Value)))
	case CEval, CContinue:
		switch {
		case s.Exit.Under != nil:
			fmt.Fprintf(&b, "%s  pending over %s", g.FormatCoercion(s.Coer), brief(s.Exit.Under))
		case s.Exit.AppFun != nil:
			fmt.Fprintf(&b, "%s  pending over an application", g.FormatCoercion(s.Coer))
		default:
			fmt.Fprintf(&b, "%s  on %s", g.FormatCoercion(s.Coer), whole(v.ReadBack(s.Value)))
		}
	case Halt:
		if a := s.Ans.ToAnswer(); a.Blamed {
			b.WriteString(a.String())
		} else {
			b.WriteString(whole(a.Value))
		}
	}
	b.WriteString("\n           K=[")
	for i, f := range s.K {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(formatFrame(f))
	}
	b.WriteString("]")
	if len(s.C) > 0 {
		b.WriteString("  C=[")
		for i, f := range s.C {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatCFrame(f))
		}
		b.WriteString("]")
	}
	return b.String()
}

func formatEnv(rho *v.Env) string {
	var parts []string
	for ; rho != nil; rho = rho.Next {
		parts = append(parts, rho.Name+" ↦ "+brief(v.ReadBack(rho.V)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// stateItemMax bounds each term or value a state shows whole; a longer one is cut
// and marked "…". A value shares its parts (substitution does), so that its printed
// form can be exponentially longer than the value, and a trace must not wait for it.
const stateItemMax = 64 << 10

// whole prints e for a state, cut at stateItemMax.
func whole(e g.Expr) string { return bounded(e, stateItemMax) }

// brief prints e shortened to 40 characters (shorten), printing no more of it than
// that takes.
func brief(e g.Expr) string { return shorten(bounded(e, 4*40+4)) }

// bounded prints e in at most max bytes, marked "…" when cut.
func bounded(e g.Expr, max int) string {
	s, err := g.FormatBounded(e, interderive.PrintBudget{Max: max})
	if err != nil {
		s += "…"
	}
	return s
}

func shorten(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:37]) + "..."
	}
	return s
}

func formatFrame(f Frame) string {
	val := func(x v.Value) string { return brief(v.ReadBack(x)) }
	switch f.Kind {
	case KUnary:
		return f.Op.String() + " []"
	case KBinaryLeft:
		return "[] " + f.Op.String() + " " + brief(f.E)
	case KBinaryRight:
		return val(f.V) + " " + f.Op.String() + " []"
	case KIf:
		i := f.E.(*g.If)
		return "if [] then " + brief(i.Then) + " else " + brief(i.Else)
	case KAppFun:
		return "[] " + brief(f.E)
	case KAppArg:
		return val(f.V) + " []"
	case KCoerce:
		return "<" + g.FormatCoercion(f.C) + "> []"
	case KLet:
		l := f.E.(*g.Let)
		return "let " + l.Name + " = [] in " + brief(l.Body)
	}
	return "?"
}

func formatCFrame(f CFrame) string {
	switch f := f.(type) {
	case *CSeqFst:
		return "[] ; " + g.FormatCoercion(f.Snd)
	case *CSeqSnd:
		return g.FormatCoercion(f.Fst) + " ; []"
	case *CFuncDom:
		return "[] -> " + g.FormatCoercion(f.Cod)
	case *CFuncCod:
		return g.FormatCoercion(f.Dom) + " -> []"
	}
	return "?"
}
