package cps2

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints, for a person (interderive derive), what transition compression
// removed from the derived machine's transitions on a rule file, and the CPS
// evaluator's equations instantiated on it: for each kind k, eval of a value, eval
// entering each frame (its continuation resume_i), eval contracting by each rule; and
// resume_i for each frame i, which plugs the value v' (of the hole's kind) and resumes
// the search after frame i.
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
	fmt.Fprintf(&b, "\nthe CPS evaluator of %s (the stack refunctionalized; κ a continuation, κ0 = λv. v):\n", l.Name)
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, v := range k.Values {
			p := sem.FormatPattern(v.Pat)
			line(fmt.Sprintf("eval(%s, %s, κ)", p, k.Name), fmt.Sprintf("κ(%s)", p), "a value")
		}
		for i, f := range k.Frames {
			hole := "t_hole"
			line(fmt.Sprintf("eval(%s, %s, κ)", strings.Replace(sem.FormatFrame(f.Pat), "[]", hole, 1), k.Name),
				fmt.Sprintf("eval(%s, %s, λ%s'. resume_%d(%s', κ))", hole, f.Hole.Name, f.Hole.Meta, i+1, f.Hole.Meta), fmt.Sprintf("frame %d", i+1))
		}
		for _, r := range k.Rules {
			line(fmt.Sprintf("eval(%s, %s, κ)", sem.FormatPattern(r.LHS), k.Name), fmt.Sprintf("eval(%s, %s, κ)", sem.FormatPattern(r.RHS), k.Name), r.Name)
		}
		for i, f := range k.Frames {
			v := f.Hole.Meta + "'"
			line(fmt.Sprintf("resume_%d(%s, κ)", i+1, v), "search "+strings.Replace(sem.FormatFrame(f.Pat), "[]", v, 1)+fmt.Sprintf(" after frame %d", i+1), "then κ of a value, or eval of a contractum")
		}
	}
	return b.String()
}
