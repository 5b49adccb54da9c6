package interp

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/sem"
)

// The interpreter of a rule-defined calculus (sem) is its CPS evaluator
// (cps2/rules.go) back in direct style: the continuations become the Go stack, interp
// returns a value where the evaluator passed it to a continuation, and the code of a
// frame's continuation, resume, follows the call that evaluated the frame's hole. The
// frames entered, γ, are the context a rule is contracted in. γ grows as interp
// descends and shrinks as it returns, so it is kept as a stack beside the Go stack
// (contexts.Entered): a call pushes the frame it enters before it
// evaluates the frame's hole and pops it after; (f, n) : γ is that push. As in the
// machine and the CPS evaluator, a frame whose hole holds a value is passed over
// (sem.Engine's Enter): "c enters frame f" below means that f is the first frame in
// the search order that c matches with a non-value in its hole.
//
//	interp(c, k, γ)    c a value of k           = c
//	                   c enters frame f of k    = resume(f, n, interp(f's hole of n, f's hole kind, (f, n) : γ), γ)   (n: c expanded)
//	                   γ = [], c an answer of k = c
//	                   otherwise, rule r contracts c in γ to c'
//	                                            = interp(c', k, γ)                 r
//	                   or a context rule r contracts c in γ to c', discarding the frames
//	                   of γ up to (f, n_f) : γ_f
//	                                            = return abort(c', |γ_f|)           r
//	resume(f, n, v, γ) f[v] enters a frame g of f's kind after f
//	                                            = resume(g, f[v], interp(g's hole, g's hole kind, (g, f[v]) : γ), γ)
//	                   f[v] a value of f's kind = f[v]
//	                   otherwise, f[v] a potential redex, contracted as interp does
//
// where abort(c', d) is an early return: a Go error value (contexts.Abort) that carries
// the contractum up the Go stack, through every call of interp inside the delimiter's
// frame, to the call of interp at depth d, the one that entered that frame, which
// catches it and evaluates c' in place of its term (the kind is its own: the
// delimiter frame's). An abort to the root goes up to the outermost call, the one Eval
// makes, at depth 0. The calls in tail position (interp of a contractum, resume after
// resume) are iterations of loops rather than Go calls; the evaluation of a frame's
// hole is a call of interp, bounded by MaxDepth.
//
// Direct style is allowed because every context rule discards its context, an abort,
// and none reinstates it: the rule language cannot express a rule that puts the
// context it captured back (a control operator such as call/cc or shift would need
// the continuation as a value, which direct style does not have). The static check
// that direct style asks for, that every context rule be an abort, so holds by
// construction, and every rule file has its interpreter: on the engine of sem, over
// closures for the files that qualify for them (sem.Language.Qualifies), by substitution
// for the others.
//
// A rule that steps an inner layer, (where (step K a b)), steps a by a structural
// one-step function (step, as gradual.Step steps a coercion): the first child of a in
// the search order that is not a value steps, or, all of them values, a is contracted
// at its root; a context rule's abort is caught by the step of the delimiter's term,
// which returns the contractum. It makes no contraction event of its own and spends
// no fuel: its contraction is part of the outer one, reported as Rule/<inner event>.

// Rules is the interpreter derived from a rule file (sem.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesInterpreter holds one run: the engine (over closures, or by substitution), the
// fuel, the depth of interp's recursion, and γ (kept only for a rule file with a
// context rule or an answer: sem.Language.SeesContext).
type rulesInterpreter struct {
	*sem.Engine
	fuel  *interderive.Counter
	depth int
	gamma contexts.Entered
	// scratch is where resume plugs (sem.Scratch): a closure held on to is kept.
	scratch sem.Scratch
}

// Eval runs a closed term and reads the answer back, under the discipline the file
// qualifies for (sem.Language.Discipline).
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	e := sem.NewRun(l, l.Discipline(), opts)
	defer e.Release()
	in := &rulesInterpreter{Engine: e, fuel: e.Fuel()}
	in.gamma.Track = l.SeesContext()
	v, err := in.interp(in.Start(t), l.Root())
	if err != nil {
		return sem.Answer{}, err
	}
	return sem.Answer{Value: in.ReadBack(v)}, nil
}

// interp evaluates the closure c of kind k in the frames γ to a value (or, with γ
// empty, an answer), within the depth bound.
func (in *rulesInterpreter) interp(c *sem.Term, k *sem.Kind) (*sem.Term, error) {
	if in.depth >= MaxDepth {
		return nil, TooDeep()
	}
	in.depth++
	v, err := in.eval(c, k)
	in.depth--
	return v, err
}

// eval is interp's body: one iteration per contractum (a tail call), and per abort
// it catches.
func (in *rulesInterpreter) eval(c *sem.Term, k *sem.Kind) (*sem.Term, error) {
	d := in.gamma.Depth()
	for {
		var err error
		if c, err = in.LookUp(c); err != nil { // look-up: an environment step
			return nil, err
		}
		if in.IsValue(c, k) {
			return c, nil
		}
		if f, ok := in.Enter(c, k, 0); ok {
			p, err := in.resume(f, sem.View(c))
			if a, ok := contexts.Caught(err, d); ok { // resume left γ as it found it
				c, k = a.Term, a.Kind // an abort to a frame this call entered
				continue
			}
			if err != nil {
				return nil, err
			}
			if in.IsValue(p, k) {
				return in.scratch.Keep(p), nil
			}
			c = p
		}
		// c is a potential redex of k: an answer, or contract it, and evaluate the
		// contractum in its place (or return early, for a context rule).
		if d == 0 && in.IsAnswer(c, k) {
			return in.scratch.Keep(c), nil
		}
		ct, err := in.Contract(c, k, in.gamma.Context(), in.stepLayer)
		if err != nil {
			return nil, err
		}
		if err := in.fuel.Contract(ct.Event); err != nil {
			return nil, err
		}
		if ct.Pop > 0 {
			return nil, &contexts.Abort{Term: ct.Term, Kind: ct.Kind, Event: ct.Event, Depth: d - ct.Pop}
		}
		c = ct.Term
	}
}

// resume evaluates the hole of frame f of the expanded closure n, with f pushed onto
// γ, plugs its value back and resumes the search after f, as long as a next frame
// applies; then it returns the plugged closure: a value of f's kind, or a potential
// redex of it (in the scratch: the caller keeps it if it holds on to it).
func (in *rulesInterpreter) resume(f *sem.Frame, n *sem.Term) (*sem.Term, error) {
	d := in.gamma.Depth()
	for {
		in.gamma.Enter(f, n)
		v, err := in.interp(sem.At(n, f.Path), f.Hole)
		in.gamma.Leave(d)
		if err != nil {
			return nil, err
		}
		c := in.scratch.Plug(n, f.Path, v)
		g, ok := in.Enter(c, f.Kind, f.Index+1)
		if !ok {
			return c, nil
		}
		f, n = g, in.scratch.Keep(sem.View(c))
	}
}

// stepLayer is one step of an inner layer, for a rule's (step K a b): step from the
// empty context, γ the frames entered from there on.
func (in *rulesInterpreter) stepLayer(c *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	defer in.gamma.End(in.gamma.Begin())
	return in.step(c, k)
}

// step is the structural one-step function: c, of kind k in the frames γ, steps
// its first child in the search order that is not a value, or, all of them values, is
// contracted at its root; ok is false when c is a value (returned, looked up) or, with
// γ empty, an answer of k. An abort to a frame this call entered is its step: the
// contractum takes the place of c.
func (in *rulesInterpreter) step(c *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	if in.depth >= MaxDepth {
		return nil, "", false, TooDeep()
	}
	in.depth++
	defer func() { in.depth-- }()
	c, err := in.LookUp(c)
	if err != nil {
		return nil, "", false, err
	}
	if in.IsValue(c, k) {
		return c, "", false, nil
	}
	d := in.gamma.Depth()
	if f, ok := in.Enter(c, k, 0); ok {
		n := sem.View(c)
		for {
			in.gamma.Enter(f, n)
			next, event, stepped, err := in.step(sem.At(n, f.Path), f.Hole)
			in.gamma.Leave(d)
			if a, ok := contexts.Caught(err, d); ok {
				return a.Term, a.Event, true, nil
			}
			if err != nil {
				return nil, "", false, err
			}
			c = sem.PlugAt(n, f.Path, next)
			if stepped {
				return c, event, true, nil
			}
			g, ok := in.Enter(c, f.Kind, f.Index+1)
			if !ok {
				break
			}
			f, n = g, sem.View(c)
		}
		if in.IsValue(c, k) {
			return c, "", false, nil
		}
	}
	if d == 0 && in.IsAnswer(c, k) {
		return c, "", false, nil
	}
	ct, err := in.Contract(c, k, in.gamma.Context(), in.stepLayer)
	if err != nil {
		return nil, "", false, err
	}
	if ct.Pop > 0 {
		return nil, "", false, &contexts.Abort{Term: ct.Term, Kind: ct.Kind, Event: ct.Event, Depth: d - ct.Pop}
	}
	return ct.Term, ct.Event, true, nil
}
