package machine

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// The machine for the differentiable language (docs/differentiable.md; Abadi &
// Plotkin §3, Figures 2–5), obtained from its reduction semantics
// (reduction/differentiable.go) by refocusing: instead of plugging a contractum into
// its context and decomposing the whole term again from the root, the machine goes on
// decomposing the contractum in place, in the same context. Lightweight fusion and
// transition compression leave two transition functions, eval (descend into a term,
// pushing frames) and continue (pop a frame with a value: resume evaluation in the
// next subterm, or contract the redex the frame and the value form), and the
// substitutions of the reduction semantics become environments, as in the paper:
// value environments ρ (dplval.Env) and function environments φ (dplval.Funs) holding
// closures clo_φ(f(x:T):U. M) (dplval.Closure). A call runs the body under
// φ'[clo/f] | {x ↦ V}: the recursion is tied at call time.
//
// Two judgements, one machine. Ordinary evaluation φ | ρ ⊢ M ⇒ V and symbolic
// evaluation φ | ρ ⊢ M ⇝ C are modes of the same transitions: a layer (DiffLayer) is
// one evaluation, ordinary or symbolic, with its own stack of frames K (the
// defunctionalized context E or E_bool of that evaluation) and, when symbolic, its
// tape: the trace built so far, the let-chain let x1:T1 = C1 in ... whose body is
// still to come (the values of its bindings are in ρ, and those of Figure 5's fresh
// variables on the tape). The layers form a stack; a layer
// starts a nested one where the reference semantics recurses:
//
//   - rd's premise, the symbolic evaluation of its body N under ρ[ρ(V)/x], at any
//     depth (an rd inside a symbolic evaluation nests again);
//   - Figure 5, E[R] ⇝ let x:T_V = C in D with E nontrivial (the layer's K is not
//     empty): R ⇝ C, when R does not finish its trace at once (let, if, letrec, call,
//     rd), is a nested symbolic layer, and C ⇒ V a nested ordinary layer, after which
//     the layer goes on with the fresh variable x in E (DiffExitTrace, DiffExitBind).
//
// A layer that ends hands its result (a value, or a finished trace) to the layer
// below through the transition return (DiffReturn): that stack of layers is the
// meta-continuation of the two-level CPS evaluator (cps2/differentiable.go), and what
// each layer does with the result of the one above is its DiffExit. Everything runs
// in one loop (DiffMachine.Run): neither the program's recursion nor the nesting of rd
// grows the Go stack, only the machine's stacks.
//
// Values. In an ordinary layer a value is closed. In a symbolic layer a value V may
// mention the variables the layer keeps symbolic (let-bound, parameters, rd binders,
// the fresh variables of Figure 5), and the conditions need its closed value ρ(V):
// a dplval.Value carries both, as the reference semantics reads ρ(V) off its
// environment. A variable bound by an ordinary layer is never symbolic: the reference
// semantics has substituted its value.
//
// Contraction events are the reference semantics' (see the doc comment of
// reduction/differentiable.go), in the same order: one Counter.Contract per redex,
// named plus, op, let, fst, snd, if, letrec, call, rd, pred, with the prefix sym/ in
// symbolic layers (sym/pred included); the events of a nested layer come between the
// event that started it and the next event of the layer below. The rd event covers
// the symbolic evaluation of its body and the differentiation. Eval and continue
// transitions, variable lookups, returns of layers and the bookkeeping of tapes are
// no contractions. An undefined op, pred or + is still an event (the last one).
//
// Bounds. The machine's own depth is bounded by memory only, but the meta-level
// functions it shares with every stage (the Differentiator, substitution, Depth)
// recurse over traces and derivative terms: as the reference semantics does, the
// machine refuses a trace or derivative term deeper than dpl.MaxDepth, a derivative
// larger than the fuel left (out of fuel) or (figure6, pruned) than dpl.MaxRedexes,
// and a nesting of layers deeper than dpl.MaxLayers (a *interderive.DepthError: the
// reference semantics' layers are Go recursion, the machine's are data, but a run
// must end the same way on every stage), so that every stage gives the same outcome
// on every program.
//
// Fusion. Under tape, where nothing observes the derivative term (no rd reported, no
// state shown), an rd under ordinary evaluation evaluates its derivative fused with R
// (fusedDerivative): the same contractions and bits as evaluating the term in place,
// without the term; the machine continues with the value.
//
// Files: this one holds the states and the loop with its eval and continue
// transitions; the contractions, the nested layers and their returns are in
// differentiable_contract.go, and the states as a person sees them in
// differentiable_show.go.

// DiffControl says which transition function applies to a state.
type DiffControl uint8

const (
	// DiffEval descends into Term under Env and Phi.
	DiffEval DiffControl = iota
	// DiffContinue returns Value to the top frame of the current layer's stack.
	DiffContinue
	// DiffReturn ends the current layer, handing Result to the layer below.
	DiffReturn
	// DiffHalt is the final state.
	DiffHalt
)

var diffControlNames = [...]string{"eval", "continue", "return", "halt"}

func (c DiffControl) String() string { return diffControlNames[c] }

// DiffFrame is a frame of a layer's stack K: one production of the evaluation
// contexts E and E_bool, over machine values, with the environments of the subterms
// still to evaluate. Frames whose redex a symbolic layer may contract in a nontrivial
// context also keep the environment ρ of the redex, under which Figure 5 evaluates
// its trace (C ⇒ V).
type DiffFrame interface{ isDiffFrame() }

// The frames of K, one per production of E and E_bool.
type (
	// DiffKPlusLeft is E + N.
	DiffKPlusLeft struct {
		P     dpl.Pos
		Right dpl.Term
		Env   *dplval.Env
		Phi   *dplval.Funs
	}
	// DiffKPlusRight is V + E.
	DiffKPlusRight struct {
		P    dpl.Pos
		Left dplval.Value
		Env  *dplval.Env
	}
	// DiffKOp is op(E).
	DiffKOp struct {
		P   dpl.Pos
		Op  *dpl.Operator
		Env *dplval.Env
	}
	// DiffKLet is let x:T = E in N.
	DiffKLet struct {
		P    dpl.Pos
		Name string
		T    dpl.Type
		Body dpl.Term
		Env  *dplval.Env
		Phi  *dplval.Funs
	}
	// DiffKPairLeft is <E, N>_{T,U}.
	DiffKPairLeft struct {
		P     dpl.Pos
		Right dpl.Term
		T, U  dpl.Type
		Env   *dplval.Env
		Phi   *dplval.Funs
	}
	// DiffKPairRight is <V, E>_{T,U}.
	DiffKPairRight struct {
		P    dpl.Pos
		Left dplval.Value
		T, U dpl.Type
	}
	// DiffKFst is fst_{T,U}(E).
	DiffKFst struct {
		P    dpl.Pos
		T, U dpl.Type
		Env  *dplval.Env
	}
	// DiffKSnd is snd_{T,U}(E).
	DiffKSnd struct {
		P    dpl.Pos
		T, U dpl.Type
		Env  *dplval.Env
	}
	// DiffKIf is if E_bool then M else N.
	DiffKIf struct {
		P          dpl.Pos
		Then, Else dpl.Term
		Env        *dplval.Env
		Phi        *dplval.Funs
	}
	// DiffKPred is pred(E): E_bool.
	DiffKPred struct {
		P    dpl.Pos
		Pred *dpl.Predicate
	}
	// DiffKCall is f(E), f resolved to its closure.
	DiffKCall struct {
		P    dpl.Pos
		Name string
		Clo  *dplval.Closure
		Env  *dplval.Env
	}
	// DiffKRdPoint is M.rd[E](x:T. N): the point first.
	DiffKRdPoint struct {
		P         dpl.Pos
		Cotangent dpl.Term
		Param     string
		T         dpl.Type
		Body      dpl.Term
		Env       *dplval.Env
		Phi       *dplval.Funs
	}
	// DiffKRdCotangent is E.rd[V](x:T. N).
	DiffKRdCotangent struct {
		P     dpl.Pos
		Point dplval.Value
		Param string
		T     dpl.Type
		Body  dpl.Term
		Env   *dplval.Env
		Phi   *dplval.Funs
	}
)

func (*DiffKPlusLeft) isDiffFrame()    {}
func (*DiffKPlusRight) isDiffFrame()   {}
func (*DiffKOp) isDiffFrame()          {}
func (*DiffKLet) isDiffFrame()         {}
func (*DiffKPairLeft) isDiffFrame()    {}
func (*DiffKPairRight) isDiffFrame()   {}
func (*DiffKFst) isDiffFrame()         {}
func (*DiffKSnd) isDiffFrame()         {}
func (*DiffKIf) isDiffFrame()          {}
func (*DiffKPred) isDiffFrame()        {}
func (*DiffKCall) isDiffFrame()        {}
func (*DiffKRdPoint) isDiffFrame()     {}
func (*DiffKRdCotangent) isDiffFrame() {}

// DiffLayer is one evaluation: its mode, its stack of frames K (top last), its tape
// (internal/values/dplval: the trace so far when symbolic, and the values of the fresh
// variables of Figure 5, which an ordinary layer evaluating a trace shares with the
// symbolic layer whose trace it is), and what the layer below does with its result.
type DiffLayer struct {
	Mode dpl.Mode
	K    []DiffFrame
	Tape dplval.Tape
	Exit DiffExit
}

// DiffExit is what the layer below does with a layer's result: the frames of the
// meta-continuation.
type DiffExit interface{ isDiffExit() }

type (
	// DiffExitProgram ends the run with the value of the program's layer.
	DiffExitProgram struct{}
	// DiffExitRd receives the trace C of an rd's body: the derivative W.R_V(x:T. C)
	// is what the rd contracts to. Under ordinary evaluation it is evaluated in
	// place; under symbolic evaluation it ends the trace of the layer below (trivial
	// context, Figure 4) or is evaluated in a nested ordinary layer (Figure 5). Env
	// is the rd's environment ρ.
	DiffExitRd struct {
		P                dpl.Pos
		Cotangent, Point dplval.Value
		Param            string
		T                dpl.Type
		Env              *dplval.Env
	}
	// DiffExitTrace receives the trace C of a redex R in a nontrivial context of a
	// symbolic layer (Figure 5, R ⇝ C), and evaluates it in a nested ordinary layer
	// under the redex's environment Env.
	DiffExitTrace struct {
		P   dpl.Pos
		Env *dplval.Env
	}
	// DiffExitBind receives the value V of the trace C of a redex in a nontrivial
	// context (Figure 5, C ⇒ V): the layer below binds let x:T_V = C on its tape, x
	// fresh, and goes on with x in its context. Rd, if not nil, is the rd whose
	// derivative C is, which the run reports now that its contraction is complete.
	DiffExitBind struct {
		P  dpl.Pos
		C  dpl.Term
		Rd *dpl.RdReport
	}
)

func (*DiffExitProgram) isDiffExit() {}
func (*DiffExitRd) isDiffExit()      {}
func (*DiffExitTrace) isDiffExit()   {}
func (*DiffExitBind) isDiffExit()    {}

// DiffState is a configuration of the machine.
type DiffState struct {
	Control DiffControl
	Term    dpl.Term     // DiffEval: the term under evaluation
	Env     *dplval.Env  // DiffEval: its value environment
	Phi     *dplval.Funs // DiffEval: its function environment
	Value   dplval.Value // DiffContinue: the value returned
	// Result is, for DiffReturn, what the current layer hands over: a closed value
	// (ordinary layer) or a finished trace (symbolic layer).
	Result dpl.Term
	// Layers is the stack of layers, the current one last.
	Layers []*DiffLayer
	// Answer is the answer, for DiffHalt.
	Answer dpl.Answer
}

// top is the current layer.
func (s *DiffState) top() *DiffLayer { return s.Layers[len(s.Layers)-1] }

func (s *DiffState) push(f DiffFrame) {
	l := s.top()
	l.K = append(l.K, f)
}

func (s *DiffState) toEval(t dpl.Term, rho *dplval.Env, phi *dplval.Funs) {
	s.Control, s.Term, s.Env, s.Phi = DiffEval, t, rho, phi
}

func (s *DiffState) toContinue(v dplval.Value) {
	s.Control, s.Value, s.Term, s.Env, s.Phi = DiffContinue, v, nil, nil, nil
}

func (s *DiffState) toReturn(result dpl.Term) {
	s.Control, s.Result, s.Term, s.Env, s.Phi = DiffReturn, result, nil, nil, nil
}

// DiffMachine runs the machine.
type DiffMachine struct {
	ad   dpl.Differentiator
	opts interderive.Options
	onRd func(trace, derivative dpl.Term)
	run  dpl.Run // the current run's state that every stage keeps: fuel, names, ...
	// Trace, if not nil, is called with every state before its transition.
	Trace func(*DiffState)
}

// NewDiff makes a machine for a differentiation strategy, whose runs have the budgets
// of opts. onRd, if not nil, is called for every rd a run evaluates, at any depth,
// with the trace term of its body and its derivative term, when its contraction is
// complete (the reference semantics' order).
func NewDiff(ad dpl.Differentiator, opts interderive.Options, onRd func(trace, derivative dpl.Term)) *DiffMachine {
	return &DiffMachine{ad: ad, opts: opts, onRd: onRd}
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) on the machine
// under the differentiation strategy ad: a closed value, or undefined with its cause.
// Running out of fuel is an error (*interderive.FuelError), as are the bounds on
// nesting (*interderive.DepthError) and on the size of derivatives (*dpl.BudgetError).
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffTraced(ad, prog, opts, nil)
}

// EvalDiffTraced is EvalDiff calling onRd for every rd it evaluates (see NewDiff).
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	return NewDiff(ad, opts, onRd).Run(prog)
}

// Run iterates the transitions from the initial state, eval(prog, ε, ε) in an
// ordinary layer with an empty stack, to the final one.
func (m *DiffMachine) Run(prog dpl.Term) (dpl.Answer, error) {
	run, err := dpl.NewRun(m.ad, prog, m.opts, m.onRd)
	if err != nil {
		return dpl.Answer{}, err
	}
	m.run = run
	s := &DiffState{Layers: []*DiffLayer{{Mode: dpl.Ordinary, Exit: &DiffExitProgram{}}}}
	s.toEval(prog, nil, nil)
	for s.Control != DiffHalt {
		if m.Trace != nil {
			m.Trace(s)
		}
		var err error
		switch s.Control {
		case DiffEval:
			err = m.eval(s)
		case DiffContinue:
			err = m.cont(s)
		case DiffReturn:
			err = m.ret(s)
		}
		if err != nil {
			return dpl.AnswerOf(nil, err)
		}
	}
	return s.Answer, nil
}

// contract counts the contraction of a redex, named by the current layer's mode.
func (m *DiffMachine) contract(s *DiffState, rule string) error {
	return m.run.Fuel.Contract(s.top().Mode.Rule(rule))
}

// enter starts a nested layer (Figure 5, or rd's premise).
func (m *DiffMachine) enter(s *DiffState, l *DiffLayer) error {
	if err := dpl.CheckLayers(len(s.Layers) - 1); err != nil {
		return err
	}
	s.Layers = append(s.Layers, l)
	return nil
}

// eval descends into a term, pushing frames, until a value (or a letrec, a redex by
// itself).
func (m *DiffMachine) eval(s *DiffState) error {
	rho, phi := s.Env, s.Phi
	switch t := s.Term.(type) {
	case *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit:
		s.toContinue(dplval.Closed(t))
	case *dpl.Var:
		v, err := m.lookup(s, t)
		if err != nil {
			return err
		}
		s.toContinue(v)
	case *dpl.Plus:
		s.push(&DiffKPlusLeft{P: t.P, Right: t.Y, Env: rho, Phi: phi})
		s.toEval(t.X, rho, phi)
	case *dpl.OpApp:
		s.push(&DiffKOp{P: t.P, Op: t.Op, Env: rho})
		s.toEval(t.Arg, rho, phi)
	case *dpl.Let:
		s.push(&DiffKLet{P: t.P, Name: t.Name, T: t.T, Body: t.Body, Env: rho, Phi: phi})
		s.toEval(t.Bound, rho, phi)
	case *dpl.Pair:
		s.push(&DiffKPairLeft{P: t.P, Right: t.Y, T: t.T, U: t.U, Env: rho, Phi: phi})
		s.toEval(t.X, rho, phi)
	case *dpl.Fst:
		s.push(&DiffKFst{P: t.P, T: t.T, U: t.U, Env: rho})
		s.toEval(t.X, rho, phi)
	case *dpl.Snd:
		s.push(&DiffKSnd{P: t.P, T: t.T, U: t.U, Env: rho})
		s.toEval(t.X, rho, phi)
	case *dpl.If:
		s.push(&DiffKIf{P: t.P, Then: t.Then, Else: t.Else, Env: rho, Phi: phi})
		s.toEval(t.Cond, rho, phi)
	case *dpl.PredApp:
		s.push(&DiffKPred{P: t.P, Pred: t.Pred})
		s.toEval(t.Arg, rho, phi)
	case *dpl.Call:
		clo, ok := phi.Called(t)
		if !ok {
			return interderive.Stuck("", "call of the unbound function %s", t.Name)
		}
		s.push(&DiffKCall{P: t.P, Name: t.Name, Clo: clo, Env: rho})
		s.toEval(t.Arg, rho, phi)
	case *dpl.Rd:
		s.push(&DiffKRdPoint{P: t.P, Cotangent: t.Cotangent, Param: t.Param, T: t.T, Body: t.Body, Env: rho, Phi: phi})
		s.toEval(t.Point, rho, phi)
	case *dpl.Letrec:
		return m.letrec(s, t, rho, phi)
	case *dpl.Fd:
		return interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", t.P)
	default:
		return interderive.Stuck("", "cannot evaluate %s", dpl.FormatShort(s.Term, interderive.MaxStuckShown))
	}
	return nil
}

// lookup is V ⇒ ρ(V) for a variable, no contraction: its closed value, which a
// symbolic layer keeps as the variable itself if the variable is symbolic. The fresh
// variables of Figure 5 are found on the tape that binds them.
func (m *DiffMachine) lookup(s *DiffState, x *dpl.Var) (dplval.Value, error) {
	l := s.top()
	if e, ok := s.Env.Lookup(x.Name); ok {
		if l.Mode == dpl.Symbolic && e.Sym {
			return dplval.Value{Term: x, Val: e.Val}, nil
		}
		return dplval.Closed(e.Val), nil
	}
	if v, ok := l.Tape.Fresh.Get(x.Name); ok {
		if l.Mode == dpl.Symbolic {
			return dplval.Value{Term: x, Val: v}, nil
		}
		return dplval.Closed(v), nil
	}
	return dplval.Value{}, interderive.Stuck("", "unbound variable %s", x.Name)
}

// cont applies the current layer's stack to a value: it pops a frame and either
// resumes evaluation in the next subterm, or contracts the redex the frame and the
// value form; with the stack empty, the layer ends.
func (m *DiffMachine) cont(s *DiffState) error {
	l := s.top()
	v := s.Value
	if len(l.K) == 0 {
		if l.Mode == dpl.Ordinary { // M ⇒ V
			s.toReturn(v.Val)
			return nil
		}
		c, err := l.Tape.Finish(v.Term) // V ⇝ V: the trace ends with the value
		if err != nil {
			return err
		}
		s.toReturn(c)
		return nil
	}
	top := l.K[len(l.K)-1]
	l.K = l.K[:len(l.K)-1]
	switch f := top.(type) {
	case *DiffKPlusLeft:
		s.push(&DiffKPlusRight{P: f.P, Left: v, Env: f.Env})
		s.toEval(f.Right, f.Env, f.Phi)
	case *DiffKPairLeft:
		s.push(&DiffKPairRight{P: f.P, Left: v, T: f.T, U: f.U})
		s.toEval(f.Right, f.Env, f.Phi)
	case *DiffKPairRight: // <V, W> is a value
		s.toContinue(dplval.Pair(&m.run.Nodes, f.P, f.Left, v, f.T, f.U))
	case *DiffKRdPoint:
		s.push(&DiffKRdCotangent{P: f.P, Point: v, Param: f.Param, T: f.T, Body: f.Body, Env: f.Env, Phi: f.Phi})
		s.toEval(f.Cotangent, f.Env, f.Phi)
	case *DiffKPred:
		return m.pred(s, f, v)
	default:
		if l.Mode == dpl.Ordinary {
			return m.ordinary(s, top, v)
		}
		return m.symbolic(s, top, v)
	}
	return nil
}
