package cps2

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints, for a person (interderive derive), what transition compression
// removed from the derived machine's transitions on a rule file, and the CPS
// evaluator's equations instantiated on it: for each kind k, eval of a value, eval
// entering each frame (its continuation resume_i, and the frame pushed onto γ), eval
// of an answer (γ empty), eval contracting by each rule (a context rule returning to
// a continuation kept in γ); and resume_i for each frame i, which plugs the value v'
// (of the hole's kind) and resumes the search after frame i.
func (rulesStage) Describe(l *sem.Language) string {
	var b strings.Builder
	line := func(from, to, why string) {
		fmt.Fprintf(&b, "  %-44s = %-44s %s\n", from, to, why)
	}
	removed, frames := 0, 0
	for _, k := range l.Kinds {
		removed += len(k.Values)
		frames += len(k.Frames)
	}
	fmt.Fprintf(&b, "transition compression, before refunctionalization: %d administrative transitions removed,\n", removed)
	b.WriteString("each of which only hands a value over to continue (a term, a contractum or a hole's contents):\n")
	for _, k := range l.Kinds {
		for _, v := range k.Values {
			p := sem.FormatPattern(v.Pat)
			fmt.Fprintf(&b, "  eval(%s, %s, K) -> continue(K, %s)\n", p, k.Name, p)
		}
	}
	fmt.Fprintf(&b, "and the state continue: its %d transitions, one per frame, are the code of the frames' continuations.\n", frames+1)
	// γ, kept for the files that have a context rule or an answer only, is shown for
	// them only.
	g := l.SeesContext()
	st, resumed := "κ", "then κ of a value, or eval of a contractum"
	if g {
		fmt.Fprintf(&b, "\nthe CPS evaluator of %s (the stack refunctionalized; κ a continuation, κ0 = λv. v; γ the\n", l.Name)
		b.WriteString("meta-continuation: the frames entered, innermost first, (i, κ) frame i with the continuation of\nthe closure it was entered from):\n")
		st, resumed = "κ, γ", "then κ of a value (or of an answer, γ empty), or eval of a contractum"
	} else {
		fmt.Fprintf(&b, "\nthe CPS evaluator of %s (the stack refunctionalized; κ a continuation, κ0 = λv. v):\n", l.Name)
	}
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, v := range k.Values {
			p := sem.FormatPattern(v.Pat)
			line(fmt.Sprintf("eval(%s, %s, %s)", p, k.Name, st), fmt.Sprintf("κ(%s)", p), "a value")
		}
		for i, f := range k.Frames {
			hole := "t_hole"
			to := fmt.Sprintf("eval(%s, %s, λ%s'. resume_%d(%s', %s))", hole, f.Hole.Name, f.Hole.Meta, i+1, f.Hole.Meta, st)
			if g {
				to = fmt.Sprintf("eval(%s, %s, λ%s'. resume_%d(%s', κ, γ), (%d, κ) : γ)", hole, f.Hole.Name, f.Hole.Meta, i+1, f.Hole.Meta, i+1)
			}
			line(fmt.Sprintf("eval(%s, %s, %s)", strings.Replace(sem.FormatFrame(f.Pat), "[]", hole, 1), k.Name, st), to, fmt.Sprintf("frame %d", i+1))
		}
		for _, a := range k.Answers {
			p := sem.FormatPattern(a.Pat)
			line(fmt.Sprintf("eval(%s, %s, κ, [])", p, k.Name), fmt.Sprintf("κ(%s)", p), "an answer, with γ empty (κ is κ0); elsewhere a redex")
		}
		for _, r := range k.Rules {
			lhs, rhs := sem.FormatPattern(r.LHS), sem.FormatPattern(r.RHS)
			name := r.Name
			if r.Layer != nil {
				name += "/<the step's event>"
			}
			switch {
			case r.Context && r.Delimiter == nil:
				line(fmt.Sprintf("eval(%s, %s, κ, γ ≠ [])", lhs, k.Name), fmt.Sprintf("eval(%s, %s, κ0, [])", rhs, l.AbortKind()), name+": an abort to the root, κ and γ discarded")
			case r.Context:
				d := sem.FormatFrame(r.Delimiter)
				line(fmt.Sprintf("eval(%s, %s, κ, γ' ++ (%s, κ_D) : γ)", lhs, k.Name, d), fmt.Sprintf("eval(%s, %s, κ_D, γ)", rhs, l.DelimiterKind(r)),
					fmt.Sprintf("%s: %s the innermost frame of its shape in γ, κ and γ' discarded", name, d))
			default:
				line(fmt.Sprintf("eval(%s, %s, %s)", lhs, k.Name, st), fmt.Sprintf("eval(%s, %s, %s)", rhs, k.Name, st), name)
			}
		}
		for i, f := range k.Frames {
			v := f.Hole.Meta + "'"
			line(fmt.Sprintf("resume_%d(%s, %s)", i+1, v, st), "search "+strings.Replace(sem.FormatFrame(f.Pat), "[]", v, 1)+fmt.Sprintf(" after frame %d", i+1), resumed)
		}
	}
	for _, k := range l.Layers {
		fmt.Fprintf(&b, "\n(step %s a b): a run of its own from eval(a, %s, κ0', []) to its first contraction, whose contractum\nplugged into that run's γ is b; no step if κ0' is applied first (k_0 is %s there).\n", k.Name, k.Name, k.Name)
	}
	return b.String()
}
