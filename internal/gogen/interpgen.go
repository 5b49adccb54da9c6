package gogen

// interpCases is the interpreter's transition function (interp.go,
// {{INTERP_CASES}}): the machine's (machineCases) in direct style, written by the same
// code with two changes (formInterp):
//
//   - where the machine enters a frame (pushed, or put in place of the one resumed)
//     and goes on to eval its hole, the interpreter evaluates the hole by a call of
//     interp (transition stops with interpHole, and its call of interp makes the
//     call) and resumes the frame, still on top of the stack, with the value the
//     call returns;
//   - where the machine gives a value to the frame below, continue(K, v), the
//     interpreter returns it from the call.
//
// So each call of interp runs the transitions of one term to its value, the frames it
// entered on top of the stack, and its loop is the machine's loop over them: a tail
// call (the contractum evaluated in place) is an iteration. A contraction that
// discards frames entered by the calls around (a context rule's) is an abort to the
// call that entered the outermost of them (interpAbort).
func (g *gen) interpCases() string {
	g.form = formInterp
	defer func() { g.form = formMachine }()
	e := &emitter{}
	e.b.WriteString(`// interpAction is where the transitions of a call of interp stop (transition).
type interpAction uint8

const (
	interpValue interpAction = iota // the call's value is in s.term (or the transitions failed)
	interpHole                      // a frame entered: its hole, s.term of kind s.kind, to evaluate
)

// interp is one call of the interpreter, bounded in depth: the machine's transitions
// from eval(s.term, s.kind), the frames of the calls around on s.k, to the term's
// value, left in s.term (or to an answer, with no frame around). A frame this call
// enters stays on top of s.k while its hole is evaluated by a call, and continue
// resumes it with the value returned. The transitions themselves are transition's,
// a function of its own, so that a call of interp takes little of the Go stack.
func (m *rulesInterpreter) interp(s *machineState) error {
	if m.depth >= interpMaxDepth {
		return &depthError{what: "interpreter recursion", limit: interpMaxDepth}
	}
	m.depth++
	for {
		action, err := m.transition(s)
		if err != nil || action == interpValue {
			m.depth--
			return err
		}
		// the hole of the frame on top, entered by this call, evaluated by a call
		base := len(s.k) - 1
		s.mode = machineEval
		if err := m.interp(s); err != nil {
			a, ok := caught(err, base)
			if !ok {
				m.depth--
				return err
			}
			s.k = s.k[:base] // an abort to this call: the frames it entered discarded
			s.mode, s.term, s.kind = machineEval, a.c, a.kind
			continue
		}
		s.mode = machineContinue
	}
}

// transition is the transitions of one call from s to the next frame it enters
// (interpHole) or to its value (interpValue): the machine's, each contraction made in
// place, or, where it discards frames the calls around entered, an abort to the call
// that entered the outermost of them.
func (m *rulesInterpreter) transition(s *machineState) (interpAction, error) {
	r := m.r
	for {
		switch s.mode {
`)
	body := &emitter{}
	g.evalMode(body)
	body.b.WriteString(`case machineContinue:
			// resume: the hole of the frame this call entered, on top of the stack, filled
			// with the value its call returned, and the transition taken by the frame: a
			// frame g after it entered in its place, or the frame popped and its node
			// returned or contracted.
			top := &s.k[len(s.k)-1]
`)
	g.continueMode(body)
	e.b.WriteString(body.b.String())
	e.b.WriteString(`default:
			return interpValue, &stuckError{reason: "no mode"}
		}
	contracted:
		// The contraction s.c: eval of the contractum in place, in its kind; or, where
		// it discards frames the calls around entered, an abort to the call that
		// entered the outermost.
`)
	g.spent(e, g.code().fail+"err")
	e.b.WriteString(`if s.c.pop > 0 {
			return interpValue, &interpAbort{c: s.c.term, kind: s.c.kind, event: s.c.event, depth: len(s.k) - s.c.pop}
		}
		s.mode, s.term, s.kind = machineEval, s.c.term, s.c.kind
	}
}
`)
	return e.b.String()
}
