package sem

import "slices"

// The context helpers the derived stages share: what a run must keep of its context,
// and the kinds a context rule's contractum is evaluated in, as the stages describe
// them (interderive derive).

// SeesContext reports whether the runs of l need the frames entered (the CPS
// evaluator's and the interpreter's γ): l has a context rule (contracted with its
// context) or an answer (one only in the empty context).
func (l *Language) SeesContext() bool {
	for _, r := range l.Rules {
		if r.Context {
			return true
		}
	}
	for _, k := range l.Kinds {
		if len(k.Answers) > 0 {
			return true
		}
	}
	return false
}

// AbortKind names the kind an abort to the root evaluates its contractum in: the
// root kind, or, when the file has inner layers, k_0, the kind of the run's whole
// term (the root kind for the program, K in a step of the layer K).
func (l *Language) AbortKind() string {
	if len(l.Layers) > 0 {
		return "k_0"
	}
	return l.Root().Name
}

// DelimiterKind names the kind of the frames a context rule's delimiter may match
// (those with its root, its hole's path and kind), the kind its contractum is
// evaluated in: "k_D" if they are of more than one kind.
func (l *Language) DelimiterKind(r *Rule) string {
	kind := ""
	for _, k := range l.Kinds {
		for _, f := range k.Frames {
			if f.Hole == r.Kind && SameRoot(f.Pat, r.Delimiter) && slices.Equal(f.Path, r.DelimiterPath) {
				if kind != "" && kind != k.Name {
					return "k_D"
				}
				kind = k.Name
			}
		}
	}
	if kind == "" {
		return "k_D"
	}
	return kind
}

// SameRoot reports whether two patterns may match terms of one root: the same
// constructor, or either a metavariable.
func SameRoot(p, q *Pattern) bool {
	if p.Kind != PatCon || q.Kind != PatCon {
		return true
	}
	return p.Con == q.Con
}
