package machine

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/dplval"
)

// The machine for the differentiable language (spec differentiable.md §3; Abadi &
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
// larger than the fuel left (out of fuel) or (figure6, pruned) than dpl.MaxRedexes, and a nesting of
// layers deeper than dpl.MaxLayers (a *interderive.DepthError: the reference
// semantics' layers are Go recursion, the machine's are data, but a run must end the
// same way on every stage), so that every stage gives the same outcome on every
// program.

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
// (internal/dplval: the trace so far when symbolic, and the values of the fresh
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

// Differentiable is the abstract machine of the differentiable language
// (dpl.StageOf).
func (Stage) Differentiable() dpl.Stage { return diffStage{} }

type diffStage struct{}

// Eval is EvalDiff, showing every state and every rd to opts.Observer, if set.
func (diffStage) Eval(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	m := NewDiff(ad, opts, dpl.RdReporter(opts))
	if obs := opts.Observer; obs != nil {
		m.Trace = func(st *DiffState) { obs.Step(st.String()) }
	}
	return m.Run(prog)
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

// pred contracts pred(V) ⇒ bev(pred, ρ(V)), in either mode: booleans are never traced,
// and E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C.
func (m *DiffMachine) pred(s *DiffState, f *DiffKPred, v dplval.Value) error {
	if err := m.contract(s, dpl.RulePred); err != nil {
		return err
	}
	b, err := dpl.Bev(f.Pred, v.Val)
	if err != nil {
		return err
	}
	s.toContinue(dplval.Closed(&dpl.BoolLit{P: f.P, B: b}))
	return nil
}

// letrec contracts letrec f(x:T):U = M in N: N runs under φ[clo_φ(f(x:T):U. M)/f].
func (m *DiffMachine) letrec(s *DiffState, t *dpl.Letrec, rho *dplval.Env, phi *dplval.Funs) error {
	if err := m.contract(s, dpl.RuleLetrec); err != nil {
		return err
	}
	clo := &dplval.Closure{Name: t.Name, Param: t.Param, ParamT: t.ParamT, ResT: t.ResT, Body: t.Fun, Phi: phi}
	phi = phi.Bind(t.Name, clo)
	l := s.top()
	if l.Mode == dpl.Symbolic && len(l.K) > 0 {
		// Figure 5: letrec ... in N ⇝ C (N ⇝ C), in a nested layer.
		return m.nestedTrace(s, t.P, rho, nil, t.Body, rho, phi)
	}
	s.toEval(t.Body, rho, phi)
	return nil
}

// callee is the body of a called closure and its environments: φ'[clo/f] | {x ↦ V}.
func callee(clo *dplval.Closure, v dpl.Term, sym bool) (dpl.Term, *dplval.Env, *dplval.Funs) {
	return clo.Body, (*dplval.Env)(nil).Bind(clo.Param, v, sym), clo.Phi.Bind(clo.Name, clo)
}

// ordinary contracts a redex of ordinary evaluation (Figure 2), the contractum
// evaluated in place.
func (m *DiffMachine) ordinary(s *DiffState, frame DiffFrame, v dplval.Value) error {
	switch f := frame.(type) {
	case *DiffKPlusRight: // V + W ⇒ r + s
		if err := m.contract(s, dpl.RulePlus); err != nil {
			return err
		}
		r, err := dpl.AddReals(f.Left.Val, v.Val)
		if err != nil {
			return err
		}
		s.toContinue(dplval.Closed(r))
	case *DiffKOp: // op(V) ⇒ ev(op, V)
		if err := m.contract(s, dpl.RuleOp); err != nil {
			return err
		}
		r, err := dpl.Ev(f.Op, v.Val)
		if err != nil {
			return err
		}
		s.toContinue(dplval.Closed(r))
	case *DiffKLet: // let x:T = V in N ⇒ W if N ⇒ W under ρ[V/x]
		if err := m.contract(s, dpl.RuleLet); err != nil {
			return err
		}
		s.toEval(f.Body, f.Env.Bind(f.Name, v.Val, false), f.Phi)
	case *DiffKFst: // fst(<W1, W2>) ⇒ W1
		p, ok := v.Val.(*dpl.Pair)
		if !ok {
			return interderive.Stuck("", "fst of %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleFst); err != nil {
			return err
		}
		s.toContinue(dplval.Closed(p.X))
	case *DiffKSnd: // snd(<W1, W2>) ⇒ W2
		p, ok := v.Val.(*dpl.Pair)
		if !ok {
			return interderive.Stuck("", "snd of %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleSnd); err != nil {
			return err
		}
		s.toContinue(dplval.Closed(p.Y))
	case *DiffKIf: // if true then M else N ⇒ M's value; if false ... ⇒ N's
		b, ok := v.Val.(*dpl.BoolLit)
		if !ok {
			return interderive.Stuck("", "if on %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleIf); err != nil {
			return err
		}
		if b.B {
			s.toEval(f.Then, f.Env, f.Phi)
		} else {
			s.toEval(f.Else, f.Env, f.Phi)
		}
	case *DiffKCall: // f(V) ⇒ W if M ⇒ W under φ'[φ(f)/f] | {x ↦ V}
		if err := m.contract(s, dpl.RuleCall); err != nil {
			return err
		}
		s.toEval(callee(f.Clo, v.Val, false))
	case *DiffKRdCotangent: // W.rd[V](x:T. N) ⇒ X: first N ⇝ C under {x ↦ V}
		return m.rd(s, f, v)
	default:
		return interderive.Stuck("", "unknown frame %T", frame)
	}
	return nil
}

// rd contracts W.rd[V](x:T. N), in either mode: the rd event, then the symbolic
// evaluation of N under ρ[ρ(V)/x] in a nested layer, whose trace DiffExitRd
// differentiates.
func (m *DiffMachine) rd(s *DiffState, f *DiffKRdCotangent, w dplval.Value) error {
	if err := m.contract(s, dpl.RuleRd); err != nil {
		return err
	}
	exit := &DiffExitRd{P: f.P, Cotangent: w, Point: f.Point, Param: f.Param, T: f.T, Env: f.Env}
	if err := m.enter(s, &DiffLayer{Mode: dpl.Symbolic, Exit: exit}); err != nil {
		return err
	}
	s.toEval(f.Body, f.Env.Bind(f.Param, f.Point.Val, true), f.Phi)
	return nil
}

// symbolic contracts a redex of symbolic evaluation other than pred(V): Figure 4 in
// the trivial context (the layer's stack is empty), Figure 5 otherwise.
func (m *DiffMachine) symbolic(s *DiffState, frame DiffFrame, v dplval.Value) error {
	l := s.top()
	trivial := len(l.K) == 0
	// finished is a redex whose trace is itself: V + W ⇝ V + W, op(V) ⇝ op(V),
	// fst(V) ⇝ fst(V), snd(V) ⇝ snd(V). In the trivial context it ends the trace;
	// otherwise Figure 5 evaluates it (C ⇒ V) in a nested ordinary layer under rho.
	// x and y are the closed values of C's operands (see bindPrimitive).
	finished := func(rule string, c dpl.Term, rho *dplval.Env, x, y dpl.Term) error {
		if err := m.contract(s, rule); err != nil {
			return err
		}
		if trivial {
			c, err := l.Tape.Finish(c)
			if err != nil {
				return err
			}
			s.toReturn(c)
			return nil
		}
		if m.Trace == nil {
			return m.bindPrimitive(s, rule, c, x, y)
		}
		return m.nestedEval(s, &DiffExitBind{P: c.Pos(), C: c}, rho)
	}
	switch f := frame.(type) {
	case *DiffKPlusRight:
		return finished(dpl.RulePlus, m.run.Nodes.Plus(f.P, f.Left.Term, v.Term), f.Env, f.Left.Val, v.Val)
	case *DiffKOp:
		return finished(dpl.RuleOp, m.run.Nodes.OpApp(f.P, f.Op, v.Term), f.Env, v.Val, nil)
	case *DiffKFst:
		return finished(dpl.RuleFst, &dpl.Fst{P: f.P, X: v.Term, T: f.T, U: f.U}, f.Env, v.Val, nil)
	case *DiffKSnd:
		return finished(dpl.RuleSnd, &dpl.Snd{P: f.P, X: v.Term, T: f.T, U: f.U}, f.Env, v.Val, nil)
	case *DiffKLet: // let x:T = V in N ⇝ let x:T = V in C if N ⇝ C under ρ[ρ(V)/x]
		if err := m.contract(s, dpl.RuleLet); err != nil {
			return err
		}
		binding := m.run.Nodes.Let(f.P, f.Name, f.T, v.Term)
		body, rho := f.Body, f.Env.Bind(f.Name, v.Val, true)
		if trivial {
			l.Tape.Lets = append(l.Tape.Lets, binding)
			s.toEval(body, rho, f.Phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, []*dpl.Let{binding}, body, rho, f.Phi)
	case *DiffKIf: // if true then M else N ⇝ C if M ⇝ C; if false ... if N ⇝ C
		b, ok := v.Val.(*dpl.BoolLit)
		if !ok {
			return interderive.Stuck("", "if on %s", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
		}
		if err := m.contract(s, dpl.RuleIf); err != nil {
			return err
		}
		next := f.Else
		if b.B {
			next = f.Then
		}
		if trivial {
			s.toEval(next, f.Env, f.Phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, nil, next, f.Env, f.Phi)
	case *DiffKCall: // f(V) ⇝ let x:T = V in C if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
		if err := m.contract(s, dpl.RuleCall); err != nil {
			return err
		}
		clo := f.Clo
		binding := m.run.Nodes.Let(f.P, clo.Param, clo.ParamT, v.Term)
		body, rho, phi := callee(clo, v.Val, true)
		if trivial {
			l.Tape.Lets = append(l.Tape.Lets, binding)
			s.toEval(body, rho, phi)
			return nil
		}
		return m.nestedTrace(s, f.P, f.Env, []*dpl.Let{binding}, body, rho, phi)
	case *DiffKRdCotangent: // W.rd[V](x:T. N) ⇝ W.R_V(x:T. C) if N ⇝ C under ρ[ρ(V)/x]
		return m.rd(s, f, v)
	}
	return interderive.Stuck("", "unknown frame %T", frame)
}

// nestedTrace starts Figure 5's premise R ⇝ C for a redex R (whose environment is
// rho) that does not finish its trace at once: a nested symbolic layer whose tape
// starts with tape, evaluating next under env and phi.
func (m *DiffMachine) nestedTrace(s *DiffState, p dpl.Pos, rho *dplval.Env, tape []*dpl.Let, next dpl.Term, env *dplval.Env, phi *dplval.Funs) error {
	if err := m.enter(s, &DiffLayer{Mode: dpl.Symbolic, Tape: dplval.Tape{Lets: tape}, Exit: &DiffExitTrace{P: p, Env: rho}}); err != nil {
		return err
	}
	s.toEval(next, env, phi)
	return nil
}

// nestedEval starts Figure 5's premise C ⇒ V: a nested ordinary layer evaluating the
// trace C under the redex's environment rho and the current layer's fresh variables.
func (m *DiffMachine) nestedEval(s *DiffState, exit *DiffExitBind, rho *dplval.Env) error {
	fresh := s.top().Tape.Fresh
	if err := m.enter(s, &DiffLayer{Mode: dpl.Ordinary, Tape: dplval.Tape{Fresh: fresh}, Exit: exit}); err != nil {
		return err
	}
	s.toEval(exit.C, rho, nil)
	return nil
}

// bindPrimitive is Figure 5 on a primitive redex R (+, op, fst, snd) in a nontrivial
// context, once R ⇝ C (C is R with its operands' values): C ⇒ V and the binding of a
// fresh variable to V, in one transition. This is a corridor, the last step of the
// derivation: the nested ordinary layer that evaluates C (nestedEval) would evaluate
// C's operands, values, to their closed values x and y without a contraction, make
// C's one contraction, and return V to DiffExitBind; the events are the same (rule,
// unprefixed: the layer is ordinary), and the bound on layers is checked as enter
// checks it. Runs with an observer (Trace) take every transition instead.
func (m *DiffMachine) bindPrimitive(s *DiffState, rule string, c, x, y dpl.Term) error {
	if err := dpl.CheckLayers(len(s.Layers) - 1); err != nil {
		return err
	}
	if err := m.run.Fuel.Contract(rule); err != nil {
		return err
	}
	v, err := dpl.Delta(c, x, y)
	if err != nil {
		return err
	}
	m.bind(s, c.Pos(), c, v, nil)
	return nil
}

// bind is DiffExitBind's work on the current layer, once C ⇒ V: let x:T_V = C goes on
// the tape, x fresh, and the layer goes on with x in its context (rd, if not nil, is
// the rd whose derivative C is, reported now).
func (m *DiffMachine) bind(s *DiffState, p dpl.Pos, c, v dpl.Term, rd *dpl.RdReport) {
	x := s.top().Tape.BindFresh(&m.run, p, c, v)
	if rd != nil {
		m.run.ReportRd(rd.Trace, rd.Derivative)
	}
	s.toContinue(x)
}

// ret ends the current layer: it pops it and hands its result to the layer below,
// as the layer's exit says.
func (m *DiffMachine) ret(s *DiffState) error {
	done := s.top()
	s.Layers[len(s.Layers)-1] = nil // let the layer, its tape among the rest, go
	s.Layers = s.Layers[:len(s.Layers)-1]
	switch x := done.Exit.(type) {
	case *DiffExitProgram:
		s.Control, s.Answer = DiffHalt, dpl.Answer{Value: s.Result}
		return nil
	case *DiffExitRd:
		c := s.Result
		s.Result = nil // R is the trace's last user, unless it is reported (derivative)
		return m.derivative(s, x, c)
	case *DiffExitTrace: // R ⇝ C; now C ⇒ V
		return m.nestedEval(s, &DiffExitBind{P: x.P, C: s.Result}, x.Env)
	case *DiffExitBind: // C ⇒ V; E[x] ⇝ D under ρ[V/x], the tape growing by let x:T_V = C
		m.bind(s, x.P, x.C, s.Result, x.Rd)
		return nil
	}
	return interderive.Stuck("", "unknown exit %T", done.Exit)
}

// derivative finishes an rd once the trace C of its body is known: the contractum is
// the derivative term W.R_V(x:T. C), computed by the strategy.
func (m *DiffMachine) derivative(s *DiffState, x *DiffExitRd, c dpl.Term) error {
	l := s.top() // the layer of the rd
	types := dplval.Types(x.Env, l.Tape.Fresh)
	var der dpl.Term
	var err error
	if m.run.OnRd == nil {
		// Nothing reports the trace: R is its last user, and a long trace, as large
		// as its derivative, can go as R walks it. (Two calls, so that c is dead
		// during this one: with one call and the trace to report chosen apart,
		// before it or after, the compiler keeps c alive through R, and the peak
		// live heap of a long gradient grows by a third; GOGC=5 GODEBUG=gctrace=1.)
		der, err = m.run.Derive(types, x.Cotangent.Term, x.Point.Term, x.Param, x.T, c)
		c = nil
	} else {
		der, err = m.run.Derive(types, x.Cotangent.Term, x.Point.Term, x.Param, x.T, c)
	}
	if err != nil {
		return err
	}
	switch {
	case l.Mode == dpl.Ordinary: // rd ⇒ X because rd ⇝ der and der ⇒ X: evaluate der in place
		m.run.ReportRd(c, der)
		s.toEval(der, nil, nil)
		return nil
	case len(l.K) == 0: // Figure 4: the trace of the layer ends with der
		t, err := l.Tape.Finish(der)
		if err != nil {
			return err
		}
		m.run.ReportRd(c, der)
		s.toReturn(t)
		return nil
	}
	// Figure 5: der ⇒ V in a nested ordinary layer, under the rd's environment.
	return m.nestedEval(s, &DiffExitBind{P: x.P, C: der, Rd: &dpl.RdReport{Trace: c, Derivative: der}}, x.Env)
}

// String shows a state for a person: the transition, the term or value, and the
// layers, each with its mode, the size of its tape and its stack (innermost last).
func (s *DiffState) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s ", s.Control)
	switch s.Control {
	case DiffEval:
		b.WriteString(briefDPL(s.Term))
	case DiffContinue:
		b.WriteString(briefDPL(s.Value.Term))
		if s.Value.Term != s.Value.Val {
			b.WriteString(" = " + briefDPL(s.Value.Val))
		}
	case DiffReturn:
		b.WriteString(briefDPL(s.Result))
	case DiffHalt:
		b.WriteString(answerDPL(s.Answer))
	}
	for i, l := range s.Layers {
		fmt.Fprintf(&b, "\n  layer %d %s", i, l.Mode)
		if l.Mode == dpl.Symbolic {
			fmt.Fprintf(&b, ", tape of %d", len(l.Tape.Lets))
		}
		b.WriteString(": K=[")
		for j, f := range l.K {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatDiffFrame(f))
		}
		b.WriteString("]")
	}
	return b.String()
}

// briefDPL prints t shortened to 40 characters (shorten), printing no more of it than
// that takes: a value shares its parts, so that its printed form can be exponentially
// longer than the value.
func briefDPL(t dpl.Term) string {
	s, err := dpl.FormatBounded(t, interderive.PrintBudget{Max: 4*40 + 4})
	if err != nil {
		s += "…"
	}
	return shorten(s)
}

// answerDPL prints an answer for a state, cut at stateItemMax.
func answerDPL(a dpl.Answer) string {
	t, prefix := a.Value, ""
	if a.Undefined != nil {
		t, prefix = a.Undefined.Redex, "undefined: "
	}
	s, err := dpl.FormatBounded(t, interderive.PrintBudget{Max: stateItemMax})
	if err != nil {
		s += "…"
	}
	return prefix + s
}

func formatDiffFrame(f DiffFrame) string {
	val := func(v dplval.Value) string { return briefDPL(v.Term) }
	term := func(t dpl.Term) string { return briefDPL(t) }
	switch f := f.(type) {
	case *DiffKPlusLeft:
		return "[] + " + term(f.Right)
	case *DiffKPlusRight:
		return val(f.Left) + " + []"
	case *DiffKOp:
		return f.Op.Name + "([])"
	case *DiffKLet:
		return "let " + f.Name + " = [] in " + term(f.Body)
	case *DiffKPairLeft:
		return "<[], " + term(f.Right) + ">"
	case *DiffKPairRight:
		return "<" + val(f.Left) + ", []>"
	case *DiffKFst:
		return "fst([])"
	case *DiffKSnd:
		return "snd([])"
	case *DiffKIf:
		return "if [] then " + term(f.Then) + " else " + term(f.Else)
	case *DiffKPred:
		return f.Pred.Name + "([])"
	case *DiffKCall:
		return f.Name + "([])"
	case *DiffKRdPoint:
		return term(f.Cotangent) + ".rd[[]](" + f.Param + ". " + term(f.Body) + ")"
	case *DiffKRdCotangent:
		return "[].rd[" + val(f.Point) + "](" + f.Param + ". " + term(f.Body) + ")"
	}
	return "?"
}
