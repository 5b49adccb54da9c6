package machine

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Describe prints the machine's transitions instantiated on a rule file, for a person
// (interderive derive): for each kind k, eval of a value, eval entering each frame,
// eval halting on each answer (with an empty stack), eval contracting by each rule in
// place (a context rule discarding frames of the stack); continue from each frame,
// resuming the search after it (the frames of k after it whose root is the frame's
// root, then a value, then the rules); and the final transition. A frame is printed
// with its hole as [], v' is the value returned into it (of the hole's kind). A rule
// that steps an inner layer is followed by how the machine steps it.
func (rulesStage) Describe(l *sem.Language) string {
	var b strings.Builder
	env := "substitution: (subst t x v) replaces x in t"
	if l.Qualifies() {
		env = "closures with environments: (subst t x v) extends t's environment with x := v; a variable is looked up, a closure t[ρ] expanded, steps that are not contractions"
	}
	fmt.Fprintf(&b, "the refocused eval/continue machine of %s, over %s\n", l.Name, env)
	line := func(from, to, why string) {
		fmt.Fprintf(&b, "  %-44s -> %-40s %s\n", from, to, why)
	}
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s:\n", k.Name)
		for _, v := range k.Values {
			line(fmt.Sprintf("eval(%s, %s, K)", sem.FormatPattern(v.Pat), k.Name), fmt.Sprintf("continue(K, %s)", sem.FormatPattern(v.Pat)), "a value")
		}
		for i, f := range k.Frames {
			hole := "t_hole"
			line(fmt.Sprintf("eval(%s, %s, K)", strings.Replace(sem.FormatFrame(f.Pat), "[]", hole, 1), k.Name),
				fmt.Sprintf("eval(%s, %s, %s : K)", hole, f.Hole.Name, sem.FormatFrame(f.Pat)), fmt.Sprintf("frame %d, %s not a value of %s", i+1, hole, f.Hole.Name))
		}
		for _, a := range k.Answers {
			p := sem.FormatPattern(a.Pat)
			line(fmt.Sprintf("eval(%s, %s, [])", p, k.Name), fmt.Sprintf("halt(%s)", p), "an answer, with an empty stack (elsewhere a redex)")
		}
		for _, r := range k.Rules {
			why := r.Name
			if r.Layer != nil {
				why += "/<the step's event>"
			}
			for _, c := range r.Where {
				why += "  " + sem.FormatCond(c)
			}
			from, to := fmt.Sprintf("eval(%s, %s, K)", sem.FormatPattern(r.LHS), k.Name), fmt.Sprintf("eval(%s, %s, K)", sem.FormatPattern(r.RHS), k.Name)
			switch {
			case r.Context && r.Delimiter == nil:
				from = fmt.Sprintf("eval(%s, %s, K ≠ [])", sem.FormatPattern(r.LHS), k.Name)
				to = fmt.Sprintf("eval(%s, %s, [])", sem.FormatPattern(r.RHS), l.AbortKind())
				why += ": an abort to the root, all of K discarded"
			case r.Context:
				d := sem.FormatFrame(r.Delimiter)
				from = fmt.Sprintf("eval(%s, %s, K' ++ %s : K)", sem.FormatPattern(r.LHS), k.Name, d)
				to = fmt.Sprintf("eval(%s, %s, K)", sem.FormatPattern(r.RHS), l.DelimiterKind(r))
				why += fmt.Sprintf(": %s the innermost frame of its shape, K' discarded with it", d)
			}
			line(from, to, why)
		}
		for _, s := range k.Stucks {
			line(fmt.Sprintf("eval(%s, %s, K)", sem.FormatPattern(s.Pat), k.Name), "run-time error", fmt.Sprintf("%q", s.Reason))
		}
		for i, f := range k.Frames {
			var next []string
			for j := i + 1; j < len(k.Frames); j++ {
				if sem.SameRoot(k.Frames[j].Pat, f.Pat) {
					next = append(next, fmt.Sprint(j+1))
				}
			}
			resume := "a value, or a rule, of " + k.Name
			if len(k.Answers) > 0 {
				resume = "a value, an answer (with an empty stack), or a rule, of " + k.Name
			}
			if len(next) > 0 {
				resume = "frame " + strings.Join(next, " or ") + ", else " + resume
			}
			v := f.Hole.Meta + "'" // a value of the hole's kind, named apart from the frame's
			line(fmt.Sprintf("continue(%s : K, %s)", sem.FormatFrame(f.Pat), v), "search "+strings.Replace(sem.FormatFrame(f.Pat), "[]", v, 1)+" after frame "+fmt.Sprint(i+1), resume)
		}
	}
	fmt.Fprintf(&b, "\n")
	line("continue([], v)", "halt(v)", "the answer")
	for _, k := range l.Layers {
		fmt.Fprintf(&b, "\n(step %s a b): the transitions from eval(a, %s, []), on a stack of their own, to the first\ncontraction, whose contractum plugged into that stack is b; no step if they halt first (k_0 is %s there).\n", k.Name, k.Name, k.Name)
	}
	return b.String()
}
