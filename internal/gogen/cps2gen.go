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
func (g *gen) cps2Cases() string { return g.loop(formCPS2) }
