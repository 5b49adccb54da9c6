package machine

import (
	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	v "github.com/interderive/interderive/internal/values/castval"
)

// The machine for the cast calculus λ⟨·⟩ is layered like its reduction semantics
// (García-Pérez, Nogueira & Sergey, PEPM 2014): an outer eval/continue machine over
// terms, whose stack K (the meta-continuation) is the defunctionalized term context E,
// and an inner eval/continue machine over coercions, whose stack C (the coercion
// continuation) is the defunctionalized coercion context C. The inner machine runs
// when a coercion meets a simple value: it normalises the coercion one contraction at a
// time (each a StepCst event), using only the semantics' rules (Semantics.Contract).

// Frame is a frame of the meta-continuation K: one production of E, over machine
// values and closures. Kind says which production, and so which fields the frame
// uses. A frame is a record rather than a Go type per production so that K is a slice
// of frames and pushing one allocates nothing: the refocused machine pushes and pops
// a frame per subterm, and allocating them was two thirds of its time on fib. (An if
// or a let frame keeps the term itself, whose branches, or variable and body, it
// needs: a frame takes 64 bytes, not 96.)
type Frame struct {
	Kind FrameKind
	Op   g.Op       // KUnary, KBinaryLeft, KBinaryRight: the operator
	Mark int32      // the environment frames the frames of K up to this one reach (State.Frames)
	E    g.Expr     // KBinaryLeft: the right operand; KAppFun: the argument; KIf: the if; KLet: the let
	Env  *v.Env     // KBinaryLeft, KIf, KAppFun, KLet: the environment of E's subterms
	V    v.Value    // KBinaryRight: the left operand; KAppArg: the function
	C    g.Coercion // KCoerce: the coercion
}

// FrameKind is a production of the evaluation context E.
type FrameKind uint8

// The frames of K.
const (
	KUnary       FrameKind = iota // op []
	KBinaryLeft                   // [] op e, with e's environment
	KBinaryRight                  // v op []
	KIf                           // if [] then e else e
	KAppFun                       // [] e
	KAppArg                       // v []
	KCoerce                       // <c> []
	KLet                          // let x:T = [] in e
)

// CFrame is a frame of the coercion continuation C.
type CFrame interface{ isCFrame() }

// The frames of C: [] ; c, ĉ ; [], [] -> c, ĉ -> [].
type (
	CSeqFst  struct{ Snd g.Coercion }
	CSeqSnd  struct{ Fst g.Coercion }
	CFuncDom struct{ Cod g.Coercion }
	CFuncCod struct{ Dom g.Coercion }
)

func (*CSeqFst) isCFrame()  {}
func (*CSeqSnd) isCFrame()  {}
func (*CFuncDom) isCFrame() {}
func (*CFuncCod) isCFrame() {}

// Mode says which transition function applies to a state.
type Mode uint8

// The machine's modes: the outer eval and continue, the inner (coercion) eval and
// continue, and the final state.
const (
	Eval Mode = iota
	Continue
	CEval
	CContinue
	Halt
)

var modeNames = [...]string{"eval", "continue", "c-eval", "c-continue", "halt"}

func (m Mode) String() string { return modeNames[m] }

// State is a configuration of the machine.
type State struct {
	Mode  Mode
	Term  g.Expr     // Eval: the term under evaluation
	Env   *v.Env     // Eval: its environment
	Value v.Value    // Continue: the value returned; inner modes: the simple value waiting
	Coer  g.Coercion // inner modes: the coercion under evaluation, or the normal one returned
	K     []Frame    // the meta-continuation, top last
	C     []CFrame   // the coercion continuation, top last
	Ans   v.Answer   // Halt: the answer
	// Exit says what the inner machine does with the normal form it reaches.
	Exit Exit
	// Frames holds the bindings of the calls whose environments die with them
	// (v.Frames). In Continue mode only K's frames and the values hold environments
	// (values never hold these frames), and the frames of K up to f reach none above
	// f's Mark: the environment frames in use when f was pushed, if f holds an
	// environment, else the Mark of the frame below it. Popping f gives back the frames
	// above its Mark, and a beta contraction those above the Mark of the frame of K below
	// it — all of the caller's when the call is in tail position, also under a pending
	// coercion (a coercion frame holds no environment).
	Frames v.Frames
}

// Exit is where the inner machine returns: by default it puts the normal coercion on
// the simple value waiting (Value). In the merging mode it may instead have been
// normalising a pending coercion: then it merges it with a pending coercion on top of
// K if there is one, and pushes <ĉ> [] and resumes evaluating Under in UnderEnv, or,
// after AppCst, resumes the application of AppFun to Value under the argument coercion
// AppDom.
type Exit struct {
	Under    g.Expr
	UnderEnv *v.Env
	AppFun   v.Value
	AppDom   g.Coercion
	// Merge says the normal form may still merge with a pending <c> [] on top of K
	// (MergeCst), after which the merge is normalised in turn.
	Merge bool
}

// Machine runs the machine for one program.
type Machine struct {
	sem   g.Semantics
	fuel  *interderive.Counter
	merge bool
	// Trace, if not nil, is called with every state before its transition.
	Trace func(*State)
}

// New makes a machine for a cast semantics. The machine merges pending coercions
// (space efficiency) where that preserves answers (gradual.MergesSafely), unless
// opts.Merging says otherwise.
func New(sem g.Semantics, opts interderive.Options) *Machine {
	return &Machine{sem: sem, fuel: interderive.NewCounter(opts), merge: opts.Merging.Merge(g.MergesSafely(sem))}
}

// EvalCast runs a translated, well-typed term of λ⟨·⟩ on the machine and reads the
// answer back.
func EvalCast(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	m := New(sem, opts)
	if obs := opts.StepObserver(); obs != nil {
		m.Trace = func(s *State) { obs.Step(s.String()) }
	}
	a, err := m.Run(e)
	if err != nil {
		return g.Answer{}, err
	}
	return a.ToAnswer(), nil
}

// Gradual is the abstract machine of the gradual calculi (gradual.StageOf).
func (Stage) Gradual() g.Stage { return castStage{} }

type castStage struct{}

func (castStage) Eval(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error) {
	return EvalCast(sem, e, opts)
}

// Run iterates the transitions from the initial state eval(e, ε, []) to the final one.
func (m *Machine) Run(e g.Expr) (v.Answer, error) {
	s := &State{Mode: Eval, Term: e}
	for s.Mode != Halt {
		if m.Trace != nil {
			m.Trace(s)
		}
		var err error
		switch s.Mode {
		case Eval:
			err = m.eval(s)
		case Continue:
			err = m.cont(s)
		case CEval:
			m.ceval(s)
		case CContinue:
			err = m.ccont(s)
		}
		if err != nil {
			return v.Answer{}, err
		}
	}
	return s.Ans, nil
}

// toEval makes s the state eval(e, ρ, K), K being s's.
func (s *State) toEval(e g.Expr, rho *v.Env) { s.Mode, s.Term, s.Env = Eval, e, rho }

// toContinue makes s the state continue(K, val), K being s's.
func (s *State) toContinue(val v.Value) { s.Mode, s.Value, s.Term, s.Env = Continue, val, nil, nil }

// blame is the state after a contraction produced blame l: the Blame rule discards a
// non-empty meta-continuation.
func (m *Machine) blame(s *State, l g.Label) error {
	if len(s.K) > 0 {
		if err := m.fuel.Contract(g.RuleBlame); err != nil {
			return err
		}
		s.K = nil
	}
	s.Mode, s.Ans = Halt, v.Answer{Blamed: true, L: l}
	return nil
}

// eval is the machine's eval transitions: decompose_term, refocused. It descends into
// the term, pushing onto K the frame that waits for each subterm's value, until it
// meets a value (continue) or a redex it contracts at once (Letrec, Blame). Beside
// each case, the transition of the refocused machine it makes; the corridors that
// start there are compressed (gradual_compress.go).
func (m *Machine) eval(s *State) error {
	for {
		switch e := s.Term.(type) {
		case *g.IntLit, *g.BoolLit: // eval(k, ρ, K) → continue(K, k)
			s.toContinue(v.Constant(e))
		case *g.Var: // eval(x, ρ, K) → continue(K, ρ(x))
			val, ok := s.Env.Lookup(e.Name)
			if !ok {
				return interderive.Stuck("", "unbound variable %s", e.Name)
			}
			s.toContinue(val)
		case *g.Lam: // eval(\x:T. e, ρ, K) → continue(K, (\x:T. e, ρ))
			s.toContinue(v.NewClosure(e, s.Env))
		case *g.Unary: // eval(op e, ρ, K) → eval(e, ρ, (op []) : K)
			s.push(KUnary).Op = e.Op
			s.toEval(e.X, s.Env)
		case *g.Binary: // eval(e1 op e2, ρ, K) → eval(e1, ρ, ([] op e2, ρ) : K)
			if x, ok := v.Atom(e.X, s.Env); ok {
				if y, ok := v.Atom(e.Y, s.Env); ok {
					return m.operatorOnAtoms(s, e.Op, x, y)
				}
			}
			f := s.push(KBinaryLeft)
			f.Op, f.E, f.Env = e.Op, e.Y, s.Env
			s.toEval(e.X, s.Env)
		case *g.If: // eval(if e1 then e2 else e3, ρ, K) → eval(e1, ρ, (if [] then e2 else e3, ρ) : K)
			f := s.push(KIf)
			f.E, f.Env = e, s.Env
			s.toEval(e.Cond, s.Env)
		case *g.App: // eval(e1 e2, ρ, K) → eval(e1, ρ, ([] e2, ρ) : K)
			if fun, ok := v.Atom(e.Fun, s.Env); ok {
				s.evalArgument(fun, e)
				break
			}
			f := s.push(KAppFun)
			f.E, f.Env = e.Arg, s.Env
			s.toEval(e.Fun, s.Env)
		case *g.Coerce: // eval(<c> e, ρ, K) → eval(e, ρ, (<c> []) : K)
			if m.merge {
				return m.pending(s, e)
			}
			s.push(KCoerce).C = e.C
			s.toEval(e.X, s.Env)
		case *g.Let: // eval(let x:T = e1 in e2, ρ, K) → eval(e1, ρ, (let x:T = [] in e2, ρ) : K)
			f := s.push(KLet)
			f.E, f.Env = e, s.Env
			s.toEval(e.Bound, s.Env)
		case *g.Letrec: // Letrec: eval(b, (f ↦ (\x:S. letrec f = \x:S. e in e, ρ)) : ρ, K)
			if err := m.fuel.Contract(g.RuleLetrec); err != nil {
				return err
			}
			s.toEval(e.Body, v.BindLetrec(e, s.Env))
		case *g.Blame: // Blame: eval(blame l, ρ, K) → blame l
			return m.blame(s, e.L)
		default:
			return interderive.Stuck("", "cannot evaluate %s (casts must be translated first)", g.FormatShort(e, interderive.MaxStuckShown))
		}
		if !m.descends(s) {
			return nil
		}
	}
}

// cont is the machine's continue transitions: decompose_context fused with
// contraction. It pops the frame on top of K and either has a redex, which it
// contracts, going on with the contractum where it stands (refocusing), or resumes
// evaluation in the next subterm. Beside each case, the transition it makes.
func (m *Machine) cont(s *State) error {
	if len(s.K) == 0 { // continue([], v) → v
		s.Mode, s.Ans = Halt, v.Answer{V: s.Value}
		return nil
	}
	f := s.pop()
	val := s.Value
	switch f.Kind {
	case KUnary: // δ: continue((op []) : K, k) → continue(K, δ(op, k))
		return m.delta(s, f.Op, val, nil)
	case KBinaryLeft: // continue(([] op e, ρ) : K, v) → eval(e, ρ, (v op []) : K)
		op, e, rho := f.Op, f.E, f.Env
		r := s.push(KBinaryRight)
		r.Op, r.V = op, val
		s.toEval(e, rho)
	case KBinaryRight: // δ: continue((k1 op []) : K, k2) → continue(K, δ(op, k1, k2))
		return m.delta(s, f.Op, f.V, val)
	case KIf: // If: continue((if [] then e1 else e2, ρ) : K, k) → eval(e1 or e2, ρ, K)
		k, ok := val.(v.Bool)
		if !ok {
			return interderive.Stuck(v.Show(val), "if on a non-boolean")
		}
		if err := m.fuel.Contract(g.RuleIf); err != nil {
			return err
		}
		if k {
			s.toEval(f.E.(*g.If).Then, f.Env)
		} else {
			s.toEval(f.E.(*g.If).Else, f.Env)
		}
	case KAppFun: // continue(([] e, ρ) : K, v) → eval(e, ρ, (v []) : K)
		e, rho := f.E, f.Env
		s.push(KAppArg).V = val
		s.toEval(e, rho)
	case KAppArg:
		switch fun := f.V.(type) {
		case *v.Closure: // beta: continue(((\x:T. e, ρ) []) : K, v) → eval(e, (x ↦ v) : ρ, K)
			if err := m.fuel.Contract(g.RuleBeta); err != nil {
				return err
			}
			s.releaseCaller()
			if s.enter(fun, val) {
				if err := m.fuel.Contract(g.RuleLetrec); err != nil {
					return err
				}
			}
		case *v.Wrapped: // AppCst: continue(((<c̃ -> d̃> s) []) : K, v) → continue((<c̃> []) : (s []) : (<d̃> []) : K, v)
			fc, ok := fun.C.(*g.Func)
			if !ok {
				return interderive.Stuck(v.Show(fun, val), "application of a non-function")
			}
			if err := m.fuel.Contract(g.RuleAppCst); err != nil {
				return err
			}
			if m.merge { // <d̃> is pending: normalise it, merge it, then apply
				s.Mode, s.Coer, s.C, s.Exit = CEval, fc.Cod, nil, Exit{AppFun: fun.S, AppDom: fc.Dom, Merge: true}
				s.Value = val
				return nil
			}
			s.push(KCoerce).C = fc.Cod
			s.push(KAppArg).V = fun.S
			s.push(KCoerce).C = fc.Dom
			s.toContinue(val)
		default:
			return interderive.Stuck(v.Show(f.V, val), "application of a constant")
		}
	case KCoerce: // continue((<c> []) : K, v): IdCst, CmpCst, or the inner machine (coerce)
		return m.coerce(s, f.C, val)
	case KLet: // Let: continue((let x:T = [] in e, ρ) : K, v) → eval(e, (x ↦ v) : ρ, K)
		if err := m.fuel.Contract(g.RuleLet); err != nil {
			return err
		}
		l := f.E.(*g.Let)
		s.toEval(l.Body, f.Env.Bind(l.Name, val))
	default:
		return interderive.Stuck("", "unknown frame %d", f.Kind)
	}
	return nil
}

// delta is δ on values (y is nil for a unary operator).
func (m *Machine) delta(s *State, op g.Op, x, y v.Value) error {
	r, ok := v.Delta(op, x, y)
	if !ok {
		return interderive.Stuck(v.Show(x, y), "%s applied to ill-typed values", op)
	}
	if err := m.fuel.Contract(g.RuleDelta); err != nil {
		return err
	}
	s.toContinue(r)
	return nil
}

// pending is eval of <d> e in the merging mode: a value <c̄> s goes on as usual;
// otherwise the inner machine normalises d, which then merges with a pending <c> [] on
// top of K (see exit) before e is evaluated under it.
func (m *Machine) pending(s *State, e *g.Coerce) error {
	if v.WrapsValue(m.sem, e.C, e.X, s.Env) {
		s.push(KCoerce).C = e.C
		s.toEval(e.X, s.Env)
		return nil
	}
	s.Mode, s.Coer, s.C, s.Exit = CEval, e.C, nil, Exit{Under: e.X, UnderEnv: s.Env, Merge: true}
	return nil
}

// coerce is the continuation <c> []: IdCst or CmpCst for a wrapped value; for a simple
// value, the inner machine normalises c first.
func (m *Machine) coerce(s *State, c g.Coercion, val v.Value) error {
	if w, ok := val.(*v.Wrapped); ok {
		if _, id := c.(g.IdC); id {
			if err := m.fuel.Contract(g.RuleIdCst); err != nil {
				return err
			}
			s.toContinue(val)
			return nil
		}
		if err := m.fuel.Contract(g.RuleCmpCst); err != nil {
			return err
		}
		c, val = g.Then(w.C, c), w.S
	}
	s.Mode, s.Coer, s.Value, s.C, s.Exit = CEval, c, val, nil, Exit{}
	return nil
}

// ceval descends into a coercion, pushing frames of C, to its leftmost-innermost part.
func (m *Machine) ceval(s *State) {
	switch c := s.Coer.(type) {
	case *g.Seq:
		s.C = append(s.C, &CSeqFst{Snd: c.Snd})
		s.Coer = c.Fst
	case *g.Func:
		s.C = append(s.C, &CFuncDom{Cod: c.Cod})
		s.Coer = c.Dom
	default: // id, I!, I?^l, fail^l: in normal form, and no redex by themselves
		s.Mode = CContinue
	}
}

// ccont returns a normal coercion to the coercion continuation: when both parts of a
// sequence or arrow are normal, the node itself may be a redex of the semantics; its
// contraction (a StepCst event) is evaluated in place.
func (m *Machine) ccont(s *State) error {
	if len(s.C) == 0 {
		return m.exit(s)
	}
	top := s.C[len(s.C)-1]
	s.C = s.C[:len(s.C)-1]
	var node g.Coercion
	switch f := top.(type) {
	case *CSeqFst:
		s.C = append(s.C, &CSeqSnd{Fst: s.Coer})
		s.Mode, s.Coer = CEval, f.Snd
		return nil
	case *CFuncDom:
		s.C = append(s.C, &CFuncCod{Dom: s.Coer})
		s.Mode, s.Coer = CEval, f.Cod
		return nil
	case *CSeqSnd:
		node = g.Then(f.Fst, s.Coer)
	case *CFuncCod:
		node = &g.Func{Dom: f.Dom, Cod: s.Coer}
	}
	if r, rule, ok := m.sem.Contract(node); ok {
		if err := m.fuel.Contract(g.StepCst(rule)); err != nil {
			return err
		}
		s.Mode, s.Coer = CEval, r
		return nil
	}
	s.Coer = node // CContinue with the normal node
	return nil
}

// exit leaves the inner machine with the normal coercion it reached.
func (m *Machine) exit(s *State) error {
	x := s.Exit
	// <ĉ> e may have become a value now that ĉ is normal: a value does not merge.
	if x.Merge && (x.Under == nil || !v.WrapsValue(m.sem, s.Coer, x.Under, x.UnderEnv)) {
		if n := len(s.K); n > 0 {
			if top := s.K[n-1]; top.Kind == KCoerce { // MergeCst, then normalise the merge
				if err := m.fuel.Contract(g.RuleMergeCst); err != nil {
					return err
				}
				s.K = s.K[:n-1]
				s.Mode, s.Coer, s.Exit.Merge = CEval, g.Then(s.Coer, top.C), false
				return nil
			}
		}
	}
	s.Exit = Exit{}
	switch {
	case x.Under != nil:
		s.push(KCoerce).C = s.Coer
		s.toEval(x.Under, x.UnderEnv)
		return nil
	case x.AppFun != nil: // <ĉ> (s (<c̃> v))
		s.push(KCoerce).C = s.Coer
		s.push(KAppArg).V = x.AppFun
		s.push(KCoerce).C = x.AppDom
		s.toContinue(s.Value)
		return nil
	}
	return m.casted(s, s.Coer, s.Value)
}

// casted finishes <ĉ> s once ĉ is normal: IdCst, FailCst, FailFC, or a wrapped value.
func (m *Machine) casted(s *State, c g.Coercion, val v.Value) error {
	switch c := c.(type) {
	case g.IdC:
		if err := m.fuel.Contract(g.RuleIdCst); err != nil {
			return err
		}
		s.toContinue(val)
		return nil
	case *g.Fail:
		if err := m.fuel.Contract(g.RuleFailCst); err != nil {
			return err
		}
		return m.blame(s, c.L)
	}
	if l, ok := g.IsFailingWrapper(c); ok {
		if err := m.fuel.Contract(g.RuleFailFC); err != nil {
			return err
		}
		return m.blame(s, l)
	}
	if !g.IsWrapperShape(c) {
		return interderive.Stuck("", "coercion %s cannot apply to a simple value", g.FormatCoercion(c))
	}
	s.toContinue(&v.Wrapped{C: c, S: val})
	return nil
}
