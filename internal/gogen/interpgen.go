package gogen

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/sem"
)

// interpCases is the interpreter's eval (interp.go, {{INTERP_CASES}}): the machine's
// transitions (machineCases) in direct style, written by the same code, a function
// for each kind and root (interpRoot). The frames a node of that root may enter are
// tried in search order, straight down its function: where the machine pushes a
// frame and goes on to eval its hole, the interpreter pushes it and evaluates the
// hole by a call of interp; the code after the call is continue's, the hole filled
// with the value returned and the frames after it tried. So continue is no longer a
// mode to dispatch on: it is where the call returns. Where the machine gives a value
// to the frame below, continue(K, v), the interpreter returns it from the call. A
// contraction is made by interp's loop, which evaluates the contractum in place
// (a tail call); one that discards frames entered by the calls around (a context
// rule's) is an abort to the call that entered the outermost of them (interpAbort).
func (g *gen) interpCases() string { return g.directCases(false) }

// directCases writes the interpreter's cases (interpCases), or the compiled
// interpreter's (compileCases).
func (g *gen) directCases(compiled bool) string {
	g.form = formInterp
	if compiled {
		g.form = formCompile
	}
	defer func() { g.form = formMachine }()
	e := &emitter{}
	if compiled {
		g.compileDispatch(e)
	} else {
		e.b.WriteString(`// interpAction is how a root's case of interp ends.
type interpAction uint8

const (
	interpValue      interpAction = iota // the call's value is in s.term (or the case failed)
	interpContracted                     // s.c holds a contraction, not made yet
	interpAgain                          // an abort caught: s.term, of kind s.kind, replaces the term
	interpContractedValue                // s.c holds a contraction whose contractum is a value of the kind
)

// interp is one call of the interpreter, bounded in depth (the calls around it):
// eval(s.term, s.kind) to the term's value, left in s.term (or to an answer, with no
// frame around), the frames of the calls around on s.k. A node is evaluated by the
// case of its kind and root, which evaluates the holes of the frames it enters by
// calls of interp; a contraction is counted here, and its contractum evaluated in
// place, an iteration of the loop.
`)
		g.interpLoop(e)
	}
	for _, k := range g.l.Kinds {
		cases, any := g.rootCases(k)
		for _, c := range cases {
			if c.value != sem.Yes {
				g.interpRoot(e, k, c.tag, c.value, c.frames)
			}
		}
		g.interpRoot(e, k, "", sem.Depends, any)
	}
	return e.b.String()
}

// interpLoop writes interp's loop (interpCases): a call of the interpreter, its
// node's case chosen by a switch on the kind and root, its contraction counted and
// its contractum evaluated in place.
func (g *gen) interpLoop(e *emitter) {
	e.p("func (m *rulesInterpreter) interp(s *machineState, depth int) error {")
	e.b.WriteString(`if depth >= interpMaxDepth {
		return &depthError{what: "interpreter recursion", limit: interpMaxDepth}
	}
	r := m.r
	for {
		if s.term.t.Tag == tagVar { // a variable left by resolve: lookUp's error, if any
			t, err := r.lookUp(s.term)
			if err != nil {
				return err
			}
			s.term = t
		}
		nv := nodeOf(s.term)
`)
	e.p("var action interpAction")
	e.p("var err error")
	e.p("switch s.kind {")
	g.rootDispatch(e, func(f string) string { return fmt.Sprintf("action, err = m.%s(s, nv, depth)", f) }, "return nil")
	e.p(`default:
			err = &stuckError{reason: "no kind"}
		}`)
	e.b.WriteString(`if err != nil || action == interpValue {
			return err
		}
		if action != interpAgain {
			// The contraction s.c: eval of the contractum in place, in its kind; or, where
			// it is a value of the kind, the call's value (eval of a value returns it);
			// or, where it discards frames the calls around entered, an abort to the call
			// that entered the outermost.
`)
	g.spent(e, "return err")
	e.b.WriteString(`if action == interpContractedValue {
				s.term = s.c.term
				return nil
			}
			if s.c.pop > 0 {
				return &interpAbort{c: s.c.term, kind: s.c.kind, event: s.c.event, depth: len(s.k) - s.c.pop}
			}
			s.term, s.kind = s.c.term, s.c.kind
		}
	}
}
`)
}

// rootDispatch emits the cases of a switch on the kind (s.kind or k) that dispatch on
// the root (nv.t.Tag or tag) to the case of each kind and root: call is the statement
// that runs the case named f, value the one for the roots that are values.
func (g *gen) rootDispatch(e *emitter, call func(f string) string, value string) {
	tag := "nv.t.Tag"
	if g.form == formCompile {
		tag = "tag"
	}
	for _, k := range g.l.Kinds {
		K := g.kind[k.Index]
		e.p("case %s:", K)
		cases, _ := g.rootCases(k)
		if len(cases) > 0 {
			e.p("switch %s {", tag)
			if values := valueTags(cases); len(values) > 0 {
				e.p("case %s:", join(values))
				e.p("%s", value)
			}
			for _, c := range cases {
				if c.value != sem.Yes {
					e.p("case %s:", c.tag)
					e.p("%s", call(K+"_"+c.tag))
				}
			}
			e.p("default:")
		}
		e.p("%s", call(K))
		if len(cases) > 0 {
			e.p("}")
		}
	}
}

// interpRoot emits interp's case of a node of kind k with the root tag ("" for the
// roots no case of its own takes): the value test where the root alone does not
// answer it; the frames of the root (frames, in search order), each entered where
// its hole holds a non-value, its hole evaluated by a call and filled with the
// value returned; after a frame entered, the value test of the node filled; the
// answer test; the rules (caseBody). The compiled interpreter's case is
// compiledRoot's, of the same body.
func (g *gen) interpRoot(e *emitter, k *sem.Kind, tag string, value sem.RootAnswer, frames []int) {
	if g.form == formCompile {
		g.compiledRoot(e, k, tag, value, frames)
		return
	}
	name, what := caseName(g.kind[k.Index], tag)
	e.p("")
	e.p("// %s is interp's case of a node n of kind %s %s.", name, k.Name, what)
	e.p("func (m *rulesInterpreter) %s(s *machineState, nv node, depth int) (interpAction, error) {", name)
	g.caseBody(e, k, tag, value, frames)
	e.p("}")
}

// caseName is the name of the case of kind K with the root tag, and what it takes.
func caseName(K, tag string) (name, what string) {
	if tag == "" {
		return K, "with a root no other case takes"
	}
	return K + "_" + tag, "with the root " + tag
}

// caseBody writes the body of interp's case (interpRoot), or of the compiled
// interpreter's (compiledRoot), but its last brace.
func (g *gen) caseBody(e *emitter, k *sem.Kind, tag string, value sem.RootAnswer, frames []int) {
	K := g.kind[k.Index]
	compiled := g.form == formCompile
	start := e.b.Len()
	e.p("r := m.r")
	e.p("n := &nv")
	e.p("_, _ = r, n")
	e.p("{")
	if tag == "" {
		g.known = nil
	} else {
		g.known = &known{tag: tag, values: map[int]int{}}
	}
	g.shared = map[string]string{}
	defer func() { g.known, g.shared = nil, nil }()
	if value == sem.Depends {
		g.valueContinues(e, K)
	}
	switch {
	case len(frames) > 0 && g.lazyKids:
		e.p("var filled uint64 // the children a frame filled, by index (their values in their variables)")
	case len(frames) > 0 && compiled:
		e.p("var kids *[maxKids]Val // the children filled, once a frame is entered: the array of the call's depth")
	case len(frames) > 0:
		e.p("base := -1 // the entry of the frames entered, once one is")
	}
	g.framesFrom = e.b.Len()
	for i, f := range frames {
		g.frameCalled(e, k.Frames[f], i == 0)
	}
	if len(frames) > 0 {
		switch {
		case g.lazyKids && value != sem.No:
			e.p("if filled != 0 {")
			g.materialize(e)
		case g.lazyKids:
			e.p("{")
		case compiled:
			e.p("if kids != nil {")
		default:
			e.p("if base >= 0 {")
			e.p("s.k = s.k[:base]")
		}
		if value != sem.No {
			g.valueReturns(e, K)
		}
		e.p("}")
	}
	g.returnsValue, g.caseKind = false, k
	g.contractRoot(e, k, tag)
	e.p("}")
	// A rule that matches whatever the node (its tests all made by the declarations:
	// match.go's declared) may leave no contraction to make after the case.
	contracts := jumpsTo(e.b.String()[start:], "contracted")
	switch {
	case compiled:
		g.compiledEnds(e, contracts)
	case contracts:
		e.p("contracted:")
		e.p("return interpContracted, nil")
	}
	if g.returnsValue && !compiled {
		e.p("contractedValue:")
		e.p("return interpContractedValue, nil")
	}
}

// valueContractum emits, at the end of the rule r written in interp's case of a
// root (its contractum x in out.term), the jump that returns the contractum as the
// call's value where it is one of the case's kind, as eval of it would at once:
// where the right-hand side's root says so (a constructor or an integer whose root
// alone is a value of the kind), or where it is a metavariable of the kind's
// values (not a variable, which eval looks up). The contraction is still counted, by
// interp's loop. Nothing for a context rule (its contractum replaces frames the
// calls around entered), nor for a rule of another kind. always says that the jump
// is taken whatever the contractum.
func (g *gen) valueContractum(e *emitter, r *sem.Rule, x string) (always bool) {
	if g.form != formInterp && g.form != formCompile || r.Context || r.Layer != nil || r.Kind != g.caseKind {
		return false
	}
	switch p := r.RHS; {
	case p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaValue && p.Sort.ValuesOf == r.Kind:
		e.p("if %s.t.Tag != tagVar {", x)
		e.p("goto contractedValue")
		e.p("}")
	case g.builtValue(p, r.Kind):
		e.p("goto contractedValue")
		always = true
	default:
		return false
	}
	g.returnsValue = true
	return always
}

// builtValue reports whether what the right-hand side p builds is a value of the
// kind k by its root alone: a constructor's node, an integer (a literal or δ's).
func (g *gen) builtValue(p *sem.Pattern, k *sem.Kind) bool {
	switch p.Kind {
	case sem.PatCon:
		return k.RootAnswer(sem.TermCon, p.Con) == sem.Yes
	case sem.PatInt, sem.PatPrim:
		return k.RootAnswer(sem.TermInt, nil) == sem.Yes
	}
	return false
}

// frameCalled emits the test of the frame f in interp's case of a root and its
// entry (enterCalled). Where the test reaches the hole whatever the node
// (reachesHole), the hole's child is taken before it, into a variable that the tests
// and the rules after it share; and once the frame is passed over or its hole
// filled, the hole is known to hold a value.
func (g *gen) frameCalled(e *emitter, f *sem.Frame, first bool) {
	shared := g.shareHole(e, f, first)
	g.enterCalled(e, f, shared)
	if shared != "" {
		g.known.values[f.Path[0]] = f.Hole.Index
	}
}

// enterCalled emits the test that n matches the frame f with a non-value in its
// hole, and its entry: the frame pushed (or put in place of the one this case
// entered before), its hole evaluated by a call of interp, an abort to this call
// caught, and the hole filled with the value returned (into the variable shared,
// where the tests after share it).
func (g *gen) enterCalled(e *emitter, f *sem.Frame, shared string) {
	F := g.frame[f]
	H := g.kind[f.Hole.Index]
	if g.form == formCompile {
		g.enterCompiled(e, f, shared)
		return
	}
	entry := append(g.holeTest(f),
		"if base < 0 {",
		"base = len(s.k)",
		"s.k = s.k.pushed()",
		fmt.Sprintf("s.k[base].set(%d, n.t, n.env, r.stack.top)", F),
		"} else {",
		fmt.Sprintf("s.k[base].frame = %d", F),
		"}",
		fmt.Sprintf("s.term, s.kind = hole, %s", H),
		"if err := m.interp(s, depth+1); err != nil {",
		"if ab, ok := caught(err, base); ok { // an abort to this call: the frames it entered discarded",
		"s.k = s.k[:base]",
		"s.term, s.kind = ab.c, ab.kind",
		"return interpAgain, nil",
		"}",
		"return interpValue, err",
		"}",
		"top := &s.k[base]",
		released,
	)
	g.holeFilled(e, f, entry, "s.term", shared, "top.kids[%d], top.filled = s.term, true", "top.fill(frames[%d].path, s.term)",
		"nv = node{t: top.term, env: top.env, kids: &top.kids}")
}

// holeFilled ends the entry of the frame f (enterCalled's, enterCompiled's) and
// writes it: the hole filled with the value v returned (fill, with the child's
// index; or fillPath, with the frame's number, where the hole is deeper than a
// child), the variable shared set to it, and the node renewed (renode).
func (g *gen) holeFilled(e *emitter, f *sem.Frame, entry []string, v, shared, fill, fillPath, renode string) {
	if len(f.Path) == 1 {
		entry = append(entry, fmt.Sprintf(fill, f.Path[0]))
	} else {
		entry = append(entry, fmt.Sprintf(fillPath, g.frame[f]))
	}
	if shared != "" {
		entry = append(entry, shared+" = "+v)
	}
	entry = append(entry, renode, "}", "}")
	g.inline(e, f.Pat, strings.Join(entry, "\n"))
}
