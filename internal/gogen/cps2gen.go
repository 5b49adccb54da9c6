package gogen

// cps2Cases is the CPS evaluator's transition function (cps2.go, {{CPS2_CASES}}):
// the machine's (machineCases) with its stack K refunctionalized, written by the same
// code with these changes (formCPS2):
//
//   - where the machine pushes a frame, the evaluator makes the frame's continuation
//     κ' = λv. resume(f, v, κ, γ) the continuation of the hole (push), and records
//     the frame entered in γ, (f, κ) : γ, where the file sees its context;
//   - where the machine gives a value to the frame below, continue(K, v), the
//     evaluator applies κ to it (apply; κ0, the empty stack, halts);
//   - continue is resume: the code of a frame's continuation, run on the frame whose
//     continuation was applied (s.top), κ and γ those around it, so that there is
//     nothing to pop;
//   - the context a rule is contracted in is γ, and a context rule that discards n
//     frames goes on under the κ and γ of the last one it discards.
//
// The loop is the trampoline: eval's calls and a continuation's application are its
// iterations, so that the Go stack holds one frame whatever the depth of the run.
func (g *gen) cps2Cases() string {
	g.form = formCPS2
	defer func() { g.form = formMachine }()
	e := &emitter{}
	e.b.WriteString(`// transitions makes the transitions from s, one an iteration, to the final state;
// each contraction spends one unit of fuel and is made in place (through), or the
// first one ends the run of transitions (contracted: s.c holds it, not made yet).
func (m rulesCPS2) transitions(s *cps2State, through bool) (contracted bool, err error) {
	r := m.r
	for {
		switch s.mode {
`)
	g.evalMode(e)
	e.b.WriteString(`case machineContinue:
			// resume(f, v, κ, γ): the continuation of the frame f applied to v, the hole
			// filled with v in place, and the transition taken by the frame: a frame g
			// after it entered in its place, under a continuation of its own, or the
			// frame's node given to κ or contracted.
			top := s.top
`)
	g.continueMode(e)
	e.b.WriteString(`default:
			return false, nil
		}
	contracted:
		// The contraction s.c: under the κ and γ of the last frame it discards (a
		// context rule's), eval of the contractum in place, in its kind.
		if !through {
			return true, nil
		}
`)
	g.spent(e, "return false, err")
	e.b.WriteString(`if s.c.pop > 0 {
			to := s.entry(s.c.pop - 1)
			s.kappa, s.gamma = to.kappa, to.next
		}
		s.mode, s.term, s.kind = machineEval, s.c.term, s.c.kind
	}
}
`)
	return e.b.String()
}
