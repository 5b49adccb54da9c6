package contexts

import "github.com/interderive/interderive/sem"

// The evaluation contexts of a rule-defined calculus (sem): a stack of frames, each a
// frame of the rule file (an elementary context of some kind) instantiated on the
// term it was entered from.

// RulesFrame is one layer of a context of a rule-defined calculus: the frame of the
// rule file, and the term around the hole (its subterm at Frame.Path is the hole's
// former contents, to be replaced when plugging).
type RulesFrame struct {
	Frame *sem.Frame
	Term  *sem.Term
}

// Plug puts t in the frame's hole.
func (f RulesFrame) Plug(t *sem.Term) *sem.Term { return sem.PlugAt(f.Term, f.Frame.Path, t) }

// Rules is a context of a rule-defined calculus: its frames, outermost first. The
// empty context is the hole of the root kind.
type Rules []RulesFrame

// Plug is E[t]: it fills the hole of E with t, innermost frame first.
func (E Rules) Plug(t *sem.Term) *sem.Term {
	for i := len(E) - 1; i >= 0; i-- {
		t = E[i].Plug(t)
	}
	return t
}

// String prints the context as a term with [] for the hole.
func (E Rules) String() string { return sem.Format(E.Plug(sem.Var(sem.Pos{}, Hole))) }

// Depth is the number of frames of E (sem.Context).
func (E Rules) Depth() int { return len(E) }

// Frame is E's i-th frame from the innermost (sem.Context).
func (E Rules) Frame(i int) (*sem.Frame, *sem.Term) {
	f := E[len(E)-1-i]
	return f.Frame, f.Term
}
