package interp

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints the interpreter's equations instantiated on a rule file, for a
// person (interderive derive): for each kind k, interp of a value, of a term that
// enters each frame (the hole evaluated by a call, the frame pushed onto γ, then
// resume_i on its value), of an answer (γ empty), of a redex of each rule (a loop
// iteration on the contractum, or, for a context rule, an early return); and resume_i
// for each frame i.
func (rulesStage) Describe(l *sem.Language) string {
	var b strings.Builder
	line := func(from, to, why string) {
		fmt.Fprintf(&b, "  %-40s = %-48s %s\n", from, to, why)
	}
	// γ, kept for the files that have a context rule or an answer only, is shown for
	// them only.
	g := l.SeesContext()
	st := ""
	if g {
		fmt.Fprintf(&b, "the interpreter of %s (the CPS evaluator in direct style: every context rule is an abort, an\n", l.Name)
		b.WriteString("early return; γ the frames entered, innermost first, i frame i)\n")
		st = ", γ"
	} else {
		fmt.Fprintf(&b, "the interpreter of %s (the CPS evaluator in direct style: no rule captures its context)\n", l.Name)
	}
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, v := range k.Values {
			p := sem.FormatPattern(v.Pat)
			line(fmt.Sprintf("interp(%s, %s%s)", p, k.Name, st), p, "a value")
		}
		for i, f := range k.Frames {
			hole := "t_hole"
			to := fmt.Sprintf("resume_%d(interp(%s, %s))", i+1, hole, f.Hole.Name)
			if g {
				to = fmt.Sprintf("resume_%d(interp(%s, %s, %d : γ), γ)", i+1, hole, f.Hole.Name, i+1)
			}
			line(fmt.Sprintf("interp(%s, %s%s)", strings.Replace(sem.FormatFrame(f.Pat), "[]", hole, 1), k.Name, st), to, fmt.Sprintf("frame %d: a call", i+1))
		}
		for _, a := range k.Answers {
			p := sem.FormatPattern(a.Pat)
			line(fmt.Sprintf("interp(%s, %s, [])", p, k.Name), p, "an answer, with γ empty; elsewhere a redex")
		}
		for _, r := range k.Rules {
			lhs, rhs := sem.FormatPattern(r.LHS), sem.FormatPattern(r.RHS)
			name := r.Name
			if r.Layer != nil {
				name += "/<the step's event>"
			}
			switch {
			case r.Context && r.Delimiter == nil:
				line(fmt.Sprintf("interp(%s, %s, γ ≠ [])", lhs, k.Name), fmt.Sprintf("return abort(%s, 0)", rhs),
					fmt.Sprintf("%s: caught by the outermost interp, then interp(%s, %s, [])", name, rhs, l.AbortKind()))
			case r.Context:
				d := sem.FormatFrame(r.Delimiter)
				line(fmt.Sprintf("interp(%s, %s, γ' ++ %s : γ)", lhs, k.Name, d), fmt.Sprintf("return abort(%s, |γ|)", rhs),
					fmt.Sprintf("%s: caught by the interp that entered %s (the innermost), then interp(%s, %s, γ)", name, d, rhs, l.DelimiterKind(r)))
			default:
				line(fmt.Sprintf("interp(%s, %s%s)", lhs, k.Name, st), fmt.Sprintf("interp(%s, %s%s)", rhs, k.Name, st), name+": a loop iteration")
			}
		}
		for i, f := range k.Frames {
			v := f.Hole.Meta + "'"
			line(fmt.Sprintf("resume_%d(%s%s)", i+1, v, st), "search "+strings.Replace(sem.FormatFrame(f.Pat), "[]", v, 1)+fmt.Sprintf(" after frame %d", i+1), "a value, or interp of a contractum")
		}
	}
	for _, k := range l.Layers {
		fmt.Fprintf(&b, "\n(step %s a b): step(a, %s, []), the structural one-step function: the first child of a in the\nsearch order that is not a value steps, or a is contracted at its root (an abort caught by the\nstep of the delimiter's term, k_0 is %s there); no step for a value or an answer.\n", k.Name, k.Name, k.Name)
	}
	return b.String()
}
