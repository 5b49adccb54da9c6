package sem

// Contexts as values: a context rule may capture the context it discards, (context
// [D] C LHS), and its right-hand side reinstate it around a term, (in-hole C t), as
// Redex's (in-hole E t) does:
//
//	(rule callcc E (context E_k (callcc v)) (in-hole E_k (app v (lam x (abort (in-hole E_k x))))) ...)
//	(rule shift E (context (reset (hole)) E_k (shift v)) (reset (app v (lam x (reset (in-hole E_k x))))) ...)
//
// The context captured is the frames the rule discards (every frame of the context,
// for an abort to the root; for a delimited rule, those inside the delimiter, which
// is discarded too), read as a term with a hole where the redex was. It exists only
// among the rule's bindings: (in-hole C t) plugs t into it as the right-hand side is
// built, so that the contractum, which replaces what the rule discards, is a term as
// any other. Every derived stage runs such a rule as it runs an abort: the machine
// and the evaluators hand the engine the frames they hold (Context), and go on with
// the contractum.

// capture reads the n innermost frames of E as a context: a term with a hole where
// the redex was. The context is held as a TermHole node whose Body is that term and
// whose Val is the path from its root to the hole, so that plugging follows the path.
// Both loop: a context as deep as the run's stack takes no Go stack.
func capture(E Context, n int, at Pos) *Term {
	c, length := &Term{P: at, Op: TermHole, parts: &noParts}, 0
	var room [8][]int
	paths := room[:0] // the frames' paths, innermost first
	for i := range n {
		f, ft := E.Frame(i)
		c = PlugAt(ft, f.Path, c)
		paths, length = append(paths, f.Path), length+len(f.Path)
	}
	path := make([]int, 0, length) // outermost frame first
	for i := len(paths) - 1; i >= 0; i-- {
		path = append(path, paths[i]...)
	}
	h := newWithParts(at, TermHole)
	h.Body, h.Val = c, path
	return h
}

// plugHole plugs t into the hole of the context c (capture), along its path.
func plugHole(c, t *Term) *Term {
	path, _ := c.Val.([]int)
	return PlugAt(c.Body, path, t)
}
