package interp

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints the interpreter's equations instantiated on a rule file, for a
// person (interderive derive): for each kind k, interp of a value, of a term that
// enters each frame (the hole evaluated by a call, then resume_i on its value), of a
// redex of each rule (a loop iteration on the contractum); and resume_i for each
// frame i.
func (rulesStage) Describe(l *sem.Language) string {
	var b strings.Builder
	line := func(from, to, why string) {
		fmt.Fprintf(&b, "  %-40s = %-48s %s\n", from, to, why)
	}
	fmt.Fprintf(&b, "the interpreter of %s (the CPS evaluator in direct style: no rule captures its context)\n", l.Name)
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, v := range k.Values {
			p := sem.FormatPattern(v.Pat)
			line(fmt.Sprintf("interp(%s, %s)", p, k.Name), p, "a value")
		}
		for i, f := range k.Frames {
			hole := "t_hole"
			line(fmt.Sprintf("interp(%s, %s)", strings.Replace(sem.FormatFrame(f.Pat), "[]", hole, 1), k.Name),
				fmt.Sprintf("resume_%d(interp(%s, %s))", i+1, hole, f.Hole.Name), fmt.Sprintf("frame %d: a call", i+1))
		}
		for _, r := range k.Rules {
			line(fmt.Sprintf("interp(%s, %s)", sem.FormatPattern(r.LHS), k.Name), fmt.Sprintf("interp(%s, %s)", sem.FormatPattern(r.RHS), k.Name), r.Name+": a loop iteration")
		}
		for i, f := range k.Frames {
			v := f.Hole.Meta + "'"
			line(fmt.Sprintf("resume_%d(%s)", i+1, v), "search "+strings.Replace(sem.FormatFrame(f.Pat), "[]", v, 1)+fmt.Sprintf(" after frame %d", i+1), "a value, or interp of a contractum")
		}
	}
	return b.String()
}
