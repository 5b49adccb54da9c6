package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/dplval"
)

// The calculus of closures of the differentiable language (spec differentiable.md §3;
// Abadi & Plotkin, Figures 2–5): the reduction semantics of package reduction with its
// substitutions made explicit, in the manner of Biernacka & Danvy's λρ̂. A term is
// closed by the paper's two environments, M[φ|ρ]: ρ maps ordinary variables to closed
// values, φ maps function variables to function closures clo_φ'(f(x:T):U. M), and the
// recursion is tied at call time, as φ'[φ(f)/f] does.
//
//	ρ   ::= ε | (x ↦ V) : ρ | (x ↦ V)_sym : ρ
//	φ   ::= ε | (f ↦ clo_φ(f(x:T):U. M)) : φ
//	cl  ::= M[φ|ρ] | V̂ | cl + cl | op(cl) | let x:T = cl in M[φ|ρ] | <cl, cl>
//	      | fst(cl) | snd(cl) | if cl then cl else cl | pred(cl)
//	      | clo_φ(f(x:T):U. M)(cl) | cl.rd[cl](x:T. N)[φ|ρ]
//	V̂   ::= V ▷ ρ(V)                  (a value: as it stands in the term, and its value)
//
// Two judgements are mutually recursive, as in the reference: ordinary evaluation ⇒
// and symbolic evaluation ⇝, which builds a trace term. In the reference, ordinary
// evaluation substitutes the values of its variables, so that the variables a symbolic
// evaluation meets are its own: the parameter of the rd it traces, the variables its
// lets and calls bind, the fresh variables of Figure 5. Here a binding of ρ made by
// symbolic evaluation is marked (x ↦ V)_sym: looking such a variable up yields the value
// x ▷ V, which stands as x in the trace and has the value V; every other binding yields
// V ▷ V, as substitution would have. A value closure V̂ thus carries both halves of what
// the paper's rules use: the value V that goes into the trace, and ρ(V), with which
// conditions are decided and bindings made. Under ordinary evaluation the two halves
// are one closed value.
//
// Each step decomposes the whole closure from its root (DecomposeDiff), finds the
// leftmost-innermost redex, and plugs its contractum back. A step is either an
// environment step — the expansion of a composite term's closure M[φ|ρ] into the
// closures of its parts, or the lookup of a variable in ρ — which is administrative (no
// contraction, no fuel, no event), or the contraction of a redex, which is the
// reference's event: plus, op, let, fst, snd, if, letrec, call, rd, pred under ordinary
// evaluation, sym/ and the same names under symbolic evaluation. A letrec is a redex as
// it stands (it is met before it is expanded); a call's function variable is looked up
// in φ when the call is expanded.
//
// The layers are the reference's. Contracting W.rd[V](x:T. N) runs a symbolic
// evaluation of N[φ|ρ[(x ↦ ρ(V))_sym]] in a nested layer, differentiates its trace C
// with the chosen dpl.Differentiator, and plugs the derivative W.R_V(x:T. C), closed by
// ε, to be evaluated in place. Symbolic evaluation contracts a redex in the trivial
// context by Figure 4 and goes on in place (let and calls add let x:T = V in front of
// the trace); a redex in a nontrivial context by Figure 5: R ⇝ C in a nested layer when
// Figure 4 does not finish the trace at once, C ⇒ V as a nested ordinary layer over the
// closure C[ε|ρ'] (ρ' binds the free variables of C), and x ▷ V plugged in its context,
// the trace growing by let x:T_V = C in. A boolean redex pred(V) is decided with ρ(V).
// The events of nested layers come in evaluation order, as in the reference; an op or
// pred whose ev or bev is undefined is still an event, the last one.
//
// Read-back (DiffSigma) turns a closure into the term of the reference semantics at the
// same point: ρ's values substituted (those of symbolic bindings kept as variables under
// symbolic evaluation), φ's function closures as resolved calls (dpl.Closure).
//
// Go stack: decomposition and plugging are loops; the only recursion is the nesting of
// layers, bounded by dpl.MaxLayers as in the reference, and that of the meta-level
// functions over traces and derivatives, bounded through dpl.MaxDepth.

// DiffMode and DiffSymbolic are dpl.Mode and dpl.Symbolic, for the callers outside
// the package that name them so.
type DiffMode = dpl.Mode

// DiffSymbolic is dpl.Symbolic (see DiffMode).
const DiffSymbolic = dpl.Symbolic

// The environments are internal/dplval's, shared with the machine, the CPS evaluator
// and the interpreter: a value environment ρ (dplval.Env; nil is ε), which binds
// ordinary variables to closed values, its Sym marking the bindings made by symbolic
// evaluation, whose variables stay symbolic in traces; function closures
// clo_φ(f(x:T):U. M) (dplval.Closure), and function environments φ (dplval.Funs).

// envValue is the value closure of the variable bound by the binding rho, under mode.
func envValue(rho *dplval.Env, p dpl.Pos, mode dpl.Mode) *DiffValue {
	if mode == dpl.Symbolic && rho.Sym {
		return &DiffValue{Term: &dpl.Var{P: p, Name: rho.Name}, Val: rho.Val}
	}
	return &DiffValue{Term: rho.Val, Val: rho.Val}
}

// bindValue extends ρ with the variables of the value v as it stands in a term, each
// bound (symbolic) to the part of v's value it stands for: the free variables of a
// trace built from v are then bound to their values.
func bindValue(rho *dplval.Env, v *DiffValue) *dplval.Env {
	return rho.BindValue(dplval.Value{Term: v.Term, Val: v.Val})
}

// DiffClosure is a closure cl of the differentiable language.
type DiffClosure interface{ isDiffClosure() }

type (
	// DiffClo is M[φ|ρ]: a term closed by its environments.
	DiffClo struct {
		M   dpl.Term
		Fun *dplval.Funs
		Env *dplval.Env
	}
	// DiffValue is a value V ▷ ρ(V): Term is the value as it stands in the term (with
	// the variables of symbolic bindings, under symbolic evaluation), Val its closed
	// value. Under ordinary evaluation they are the same closed value. Booleans are
	// values too (never symbolic).
	DiffValue struct {
		Term dpl.Term
		Val  dpl.Term
	}
	// DiffPlus is cl + cl.
	DiffPlus struct {
		P    dpl.Pos
		X, Y DiffClosure
	}
	// DiffOp is op(cl).
	DiffOp struct {
		P   dpl.Pos
		Op  *dpl.Operator
		Arg DiffClosure
	}
	// DiffLet is let x:T = cl in M[φ|ρ].
	DiffLet struct {
		P     dpl.Pos
		Name  string
		T     dpl.Type
		Bound DiffClosure
		Body  dpl.Term
		Fun   *dplval.Funs
		Env   *dplval.Env
	}
	// DiffPair is <cl, cl>_{T,U}.
	DiffPair struct {
		P    dpl.Pos
		X, Y DiffClosure
		T, U dpl.Type
	}
	// DiffFst is fst_{T,U}(cl).
	DiffFst struct {
		P    dpl.Pos
		X    DiffClosure
		T, U dpl.Type
	}
	// DiffSnd is snd_{T,U}(cl).
	DiffSnd struct {
		P    dpl.Pos
		X    DiffClosure
		T, U dpl.Type
	}
	// DiffIf is if cl then cl else cl; the branches are closures M[φ|ρ].
	DiffIf struct {
		P                dpl.Pos
		Cond, Then, Else DiffClosure
	}
	// DiffPred is the boolean pred(cl).
	DiffPred struct {
		P    dpl.Pos
		Pred *dpl.Predicate
		Arg  DiffClosure
	}
	// DiffCall is clo_φ(f(x:T):U. M)(cl): a call, its function variable looked up.
	DiffCall struct {
		P    dpl.Pos
		Name string
		Fn   *dplval.Closure
		Arg  DiffClosure
	}
	// DiffRd is cl.rd[cl](x:T. N)[φ|ρ]: the body stays a term, closed by φ and ρ.
	DiffRd struct {
		P         dpl.Pos
		Cotangent DiffClosure
		Point     DiffClosure
		Param     string
		T         dpl.Type
		Body      dpl.Term
		Fun       *dplval.Funs
		Env       *dplval.Env
	}
)

func (*DiffClo) isDiffClosure()   {}
func (*DiffValue) isDiffClosure() {}
func (*DiffPlus) isDiffClosure()  {}
func (*DiffOp) isDiffClosure()    {}
func (*DiffLet) isDiffClosure()   {}
func (*DiffPair) isDiffClosure()  {}
func (*DiffFst) isDiffClosure()   {}
func (*DiffSnd) isDiffClosure()   {}
func (*DiffIf) isDiffClosure()    {}
func (*DiffPred) isDiffClosure()  {}
func (*DiffCall) isDiffClosure()  {}
func (*DiffRd) isDiffClosure()    {}

// closed is the closed value v as a value closure.
func closed(v dpl.Term) *DiffValue { return &DiffValue{Term: v, Val: v} }

// DiffFrame is a frame of a closure context.
type DiffFrame interface {
	// Plug puts a closure in the frame's hole.
	Plug(cl DiffClosure) DiffClosure
}

// The frames of the closure contexts, one per production of the paper's E and E_bool
// (left to right; in cl.rd[cl](x:T. N), the point first).
type (
	// DiffPlusLeft is [] + cl.
	DiffPlusLeft struct {
		P     dpl.Pos
		Right DiffClosure
	}
	// DiffPlusRight is V̂ + [].
	DiffPlusRight struct {
		P    dpl.Pos
		Left *DiffValue
	}
	// DiffOpArg is op([]).
	DiffOpArg struct {
		P  dpl.Pos
		Op *dpl.Operator
	}
	// DiffLetBound is let x:T = [] in M[φ|ρ].
	DiffLetBound struct {
		P    dpl.Pos
		Name string
		T    dpl.Type
		Body dpl.Term
		Fun  *dplval.Funs
		Env  *dplval.Env
	}
	// DiffPairLeft is <[], cl>_{T,U}.
	DiffPairLeft struct {
		P     dpl.Pos
		Right DiffClosure
		T, U  dpl.Type
	}
	// DiffPairRight is <V̂, []>_{T,U}.
	DiffPairRight struct {
		P    dpl.Pos
		Left *DiffValue
		T, U dpl.Type
	}
	// DiffFstArg is fst_{T,U}([]).
	DiffFstArg struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffSndArg is snd_{T,U}([]).
	DiffSndArg struct {
		P    dpl.Pos
		T, U dpl.Type
	}
	// DiffIfCond is if [] then cl else cl.
	DiffIfCond struct {
		P          dpl.Pos
		Then, Else DiffClosure
	}
	// DiffPredArg is pred([]).
	DiffPredArg struct {
		P    dpl.Pos
		Pred *dpl.Predicate
	}
	// DiffCallArg is clo_φ(f(x:T):U. M)([]).
	DiffCallArg struct {
		P    dpl.Pos
		Name string
		Fn   *dplval.Closure
	}
	// DiffRdPoint is cl.rd[[]](x:T. N)[φ|ρ].
	DiffRdPoint struct {
		P         dpl.Pos
		Cotangent DiffClosure
		Param     string
		T         dpl.Type
		Body      dpl.Term
		Fun       *dplval.Funs
		Env       *dplval.Env
	}
	// DiffRdCotangent is [].rd[V̂](x:T. N)[φ|ρ].
	DiffRdCotangent struct {
		P     dpl.Pos
		Point *DiffValue
		Param string
		T     dpl.Type
		Body  dpl.Term
		Fun   *dplval.Funs
		Env   *dplval.Env
	}
)

func (f *DiffPlusLeft) Plug(cl DiffClosure) DiffClosure  { return &DiffPlus{P: f.P, X: cl, Y: f.Right} }
func (f *DiffPlusRight) Plug(cl DiffClosure) DiffClosure { return &DiffPlus{P: f.P, X: f.Left, Y: cl} }
func (f *DiffOpArg) Plug(cl DiffClosure) DiffClosure     { return &DiffOp{P: f.P, Op: f.Op, Arg: cl} }
func (f *DiffLetBound) Plug(cl DiffClosure) DiffClosure {
	return &DiffLet{P: f.P, Name: f.Name, T: f.T, Bound: cl, Body: f.Body, Fun: f.Fun, Env: f.Env}
}
func (f *DiffPairLeft) Plug(cl DiffClosure) DiffClosure {
	return &DiffPair{P: f.P, X: cl, Y: f.Right, T: f.T, U: f.U}
}
func (f *DiffPairRight) Plug(cl DiffClosure) DiffClosure {
	return &DiffPair{P: f.P, X: f.Left, Y: cl, T: f.T, U: f.U}
}
func (f *DiffFstArg) Plug(cl DiffClosure) DiffClosure { return &DiffFst{P: f.P, X: cl, T: f.T, U: f.U} }
func (f *DiffSndArg) Plug(cl DiffClosure) DiffClosure { return &DiffSnd{P: f.P, X: cl, T: f.T, U: f.U} }
func (f *DiffIfCond) Plug(cl DiffClosure) DiffClosure {
	return &DiffIf{P: f.P, Cond: cl, Then: f.Then, Else: f.Else}
}
func (f *DiffPredArg) Plug(cl DiffClosure) DiffClosure {
	return &DiffPred{P: f.P, Pred: f.Pred, Arg: cl}
}
func (f *DiffCallArg) Plug(cl DiffClosure) DiffClosure {
	return &DiffCall{P: f.P, Name: f.Name, Fn: f.Fn, Arg: cl}
}
func (f *DiffRdPoint) Plug(cl DiffClosure) DiffClosure {
	return &DiffRd{P: f.P, Cotangent: f.Cotangent, Point: cl, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env}
}
func (f *DiffRdCotangent) Plug(cl DiffClosure) DiffClosure {
	return &DiffRd{P: f.P, Cotangent: cl, Point: f.Point, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env}
}

// DiffContext is a closure context, outermost frame first; the empty context is [].
type DiffContext []DiffFrame

// Plug fills the hole, innermost frame first, in a loop.
func (E DiffContext) Plug(cl DiffClosure) DiffClosure {
	for i := len(E) - 1; i >= 0; i-- {
		cl = E[i].Plug(cl)
	}
	return cl
}

// IsTrivial reports whether E is the hole [] itself (Figure 5 distinguishes it).
func (E DiffContext) IsTrivial() bool { return len(E) == 0 }

// String prints the context read back, with [] for the hole.
func (E DiffContext) String() string {
	hole := &dpl.Var{Name: contexts.Hole}
	return dpl.Format(DiffSigma(dpl.Symbolic, E.Plug(&DiffValue{Term: hole, Val: hole})))
}

// DiffStep is the next step of a closure: an environment step (Env is "expand" or
// "lookup", Rule is empty: Contractum replaces Redex in Context), or a contraction
// (Rule names it as ordinary evaluation does; the evaluation contracts Redex), or
// Done: the closure is the value Value.
type DiffStep struct {
	Context    DiffContext
	Redex      DiffClosure
	Rule       string
	Env        string
	Contractum DiffClosure
	Done       bool
	Value      *DiffValue
}

// DecomposeDiff finds the next step of a closure under mode: it descends from the
// root, pushing frames, to the leftmost closure that is not a value (an environment
// step, or a letrec), and climbs back with values until it finds a redex. It is the
// reference's decomposition over closures, written as one loop.
func DecomposeDiff(mode dpl.Mode, cl DiffClosure) (DiffStep, error) {
	var E DiffContext
	for {
		v, st, err := descendDiff(mode, &E, cl)
		if v == nil {
			return st, err
		}
		if cl, st, err = climbDiff(&E, v); cl == nil {
			return st, err
		}
	}
}

// descendDiff goes down the closure to a value (returned) or a step.
func descendDiff(mode dpl.Mode, E *DiffContext, cl DiffClosure) (*DiffValue, DiffStep, error) {
	env := func(redex DiffClosure, kind string, contractum DiffClosure) (*DiffValue, DiffStep, error) {
		return nil, DiffStep{Context: *E, Redex: redex, Env: kind, Contractum: contractum}, nil
	}
	for {
		switch c := cl.(type) {
		case *DiffValue:
			return c, DiffStep{}, nil
		case *DiffClo:
			phi, rho := c.Fun, c.Env
			clo := func(m dpl.Term) *DiffClo { return &DiffClo{M: m, Fun: phi, Env: rho} }
			switch m := c.M.(type) {
			case *dpl.RealLit, *dpl.UnitLit, *dpl.BoolLit:
				return closed(m), DiffStep{}, nil
			case *dpl.Var:
				b, ok := rho.Lookup(m.Name)
				if !ok {
					return nil, DiffStep{}, interderive.Stuck("", "unbound variable %s", m.Name)
				}
				return env(c, "lookup", envValue(b, m.P, mode))
			case *dpl.Plus:
				return env(c, "expand", &DiffPlus{P: m.P, X: clo(m.X), Y: clo(m.Y)})
			case *dpl.OpApp:
				return env(c, "expand", &DiffOp{P: m.P, Op: m.Op, Arg: clo(m.Arg)})
			case *dpl.Let:
				return env(c, "expand", &DiffLet{P: m.P, Name: m.Name, T: m.T, Bound: clo(m.Bound), Body: m.Body, Fun: phi, Env: rho})
			case *dpl.Pair:
				return env(c, "expand", &DiffPair{P: m.P, X: clo(m.X), Y: clo(m.Y), T: m.T, U: m.U})
			case *dpl.Fst:
				return env(c, "expand", &DiffFst{P: m.P, X: clo(m.X), T: m.T, U: m.U})
			case *dpl.Snd:
				return env(c, "expand", &DiffSnd{P: m.P, X: clo(m.X), T: m.T, U: m.U})
			case *dpl.If:
				return env(c, "expand", &DiffIf{P: m.P, Cond: clo(m.Cond), Then: clo(m.Then), Else: clo(m.Else)})
			case *dpl.PredApp:
				return env(c, "expand", &DiffPred{P: m.P, Pred: m.Pred, Arg: clo(m.Arg)})
			case *dpl.Call:
				fn, err := lookupFun(phi, m)
				if err != nil {
					return nil, DiffStep{}, err
				}
				return env(c, "expand", &DiffCall{P: m.P, Name: m.Name, Fn: fn, Arg: clo(m.Arg)})
			case *dpl.Rd:
				return env(c, "expand", &DiffRd{P: m.P, Cotangent: clo(m.Cotangent), Point: clo(m.Point),
					Param: m.Param, T: m.T, Body: m.Body, Fun: phi, Env: rho})
			case *dpl.Letrec:
				return nil, DiffStep{Context: *E, Redex: c, Rule: dpl.RuleLetrec}, nil
			case *dpl.Fd:
				return nil, DiffStep{}, interderive.Stuck("", "unexpanded fd at %s: elaborate with dpl.Check before running", m.P)
			default:
				return nil, DiffStep{}, interderive.Stuck("", "cannot decompose %s", dpl.FormatShort(m, interderive.MaxStuckShown))
			}
		case *DiffPlus:
			*E, cl = append(*E, &DiffPlusLeft{P: c.P, Right: c.Y}), c.X
		case *DiffOp:
			*E, cl = append(*E, &DiffOpArg{P: c.P, Op: c.Op}), c.Arg
		case *DiffLet:
			*E, cl = append(*E, &DiffLetBound{P: c.P, Name: c.Name, T: c.T, Body: c.Body, Fun: c.Fun, Env: c.Env}), c.Bound
		case *DiffPair:
			*E, cl = append(*E, &DiffPairLeft{P: c.P, Right: c.Y, T: c.T, U: c.U}), c.X
		case *DiffFst:
			*E, cl = append(*E, &DiffFstArg{P: c.P, T: c.T, U: c.U}), c.X
		case *DiffSnd:
			*E, cl = append(*E, &DiffSndArg{P: c.P, T: c.T, U: c.U}), c.X
		case *DiffIf:
			*E, cl = append(*E, &DiffIfCond{P: c.P, Then: c.Then, Else: c.Else}), c.Cond
		case *DiffPred:
			*E, cl = append(*E, &DiffPredArg{P: c.P, Pred: c.Pred}), c.Arg
		case *DiffCall:
			*E, cl = append(*E, &DiffCallArg{P: c.P, Name: c.Name, Fn: c.Fn}), c.Arg
		case *DiffRd:
			*E, cl = append(*E, &DiffRdPoint{P: c.P, Cotangent: c.Cotangent, Param: c.Param, T: c.T, Body: c.Body, Fun: c.Fun, Env: c.Env}), c.Point
		default:
			return nil, DiffStep{}, interderive.Stuck("", "unknown closure %T", cl)
		}
	}
}

// lookupFun is φ(f) for the call c (dplval.Funs.Called).
func lookupFun(phi *dplval.Funs, c *dpl.Call) (*dplval.Closure, error) {
	fn, ok := phi.Called(c)
	if !ok {
		return nil, interderive.Stuck("", "call of the unbound function %s", c.Name)
	}
	return fn, nil
}

// climbDiff goes up the context with a value until it finds a redex, the empty context
// (the value is the whole closure's), or a closure still to evaluate (returned, with the
// frame that waits for it pushed).
func climbDiff(E *DiffContext, v *DiffValue) (DiffClosure, DiffStep, error) {
	for {
		_, isBool := v.Val.(*dpl.BoolLit)
		if len(*E) == 0 {
			if isBool {
				return nil, DiffStep{}, interderive.Stuck("", "a boolean %s where a value is expected", dpl.FormatShort(v.Val, interderive.MaxStuckShown))
			}
			return nil, DiffStep{Done: true, Value: v}, nil
		}
		frame := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		if _, cond := frame.(*DiffIfCond); isBool != cond {
			return nil, DiffStep{}, interderive.Stuck("", "ill-typed closure: %s", dpl.FormatShort(DiffSigma(dpl.Symbolic, frame.Plug(v)), interderive.MaxStuckShown))
		}
		found := func(rule string) (DiffClosure, DiffStep, error) {
			return nil, DiffStep{Context: *E, Redex: frame.Plug(v), Rule: rule}, nil
		}
		switch f := frame.(type) {
		case *DiffPlusLeft:
			*E = append(*E, &DiffPlusRight{P: f.P, Left: v})
			return f.Right, DiffStep{}, nil
		case *DiffPlusRight:
			return found(dpl.RulePlus)
		case *DiffOpArg:
			return found(dpl.RuleOp)
		case *DiffLetBound:
			return found(dpl.RuleLet)
		case *DiffPairLeft:
			*E = append(*E, &DiffPairRight{P: f.P, Left: v, T: f.T, U: f.U})
			return f.Right, DiffStep{}, nil
		case *DiffPairRight: // <V̂, Ŵ> is a value: keep climbing
			v = pairValue(f.P, f.Left, v, f.T, f.U)
		case *DiffFstArg:
			return found(dpl.RuleFst)
		case *DiffSndArg:
			return found(dpl.RuleSnd)
		case *DiffIfCond:
			return found(dpl.RuleIf)
		case *DiffPredArg:
			return found(dpl.RulePred)
		case *DiffCallArg:
			return found(dpl.RuleCall)
		case *DiffRdPoint:
			*E = append(*E, &DiffRdCotangent{P: f.P, Point: v, Param: f.Param, T: f.T, Body: f.Body, Fun: f.Fun, Env: f.Env})
			return f.Cotangent, DiffStep{}, nil
		case *DiffRdCotangent:
			return found(dpl.RuleRd)
		default:
			return nil, DiffStep{}, interderive.Stuck("", "unknown context frame %T", frame)
		}
	}
}

// pairValue is the value <V, W>_{T,U} ▷ <ρ(V), ρ(W)>_{T,U}.
func pairValue(p dpl.Pos, a, b *DiffValue, t, u dpl.Type) *DiffValue {
	val := &dpl.Pair{P: p, X: a.Val, Y: b.Val, T: t, U: u}
	if a.Term == a.Val && b.Term == b.Val {
		return closed(val)
	}
	return &DiffValue{Term: &dpl.Pair{P: p, X: a.Term, Y: b.Term, T: t, U: u}, Val: val}
}

// DiffEvent is one step of a run as an observer sees it, once the step is complete.
type DiffEvent struct {
	// Step is the number of the contraction in the run (1-based); 0 for an
	// environment step.
	Step int
	// Layer is 0 for the evaluation of the program and grows by one for each nested
	// layer.
	Layer int
	Mode  dpl.Mode
	// Rule is the event's name ("let", "sym/let", ...), empty for an environment step.
	Rule string
	DiffStep
	// Next is the whole closure after the step (nil when a symbolic evaluation
	// finished its trace at this step).
	Next DiffClosure
	// Binding is the let x:T = C (without its body) that symbolic evaluation added to
	// the trace, if any.
	Binding *dpl.Let
	// Trace and Derivative are set for rd: the trace term C of the body and the
	// derivative term W.R_V(x:T. C).
	Trace, Derivative dpl.Term
	// Finished is the whole trace when a symbolic evaluation finished at this step.
	Finished dpl.Term
}

// DiffHooks observe a run; nil fields are ignored.
type DiffHooks struct {
	// Step is called when a step (a contraction, with its nested layers, or an
	// environment step) is complete.
	Step func(DiffEvent)
}

// EvalDiff runs an elaborated, closed, well-typed program (dpl.Check) as the closure
// prog[ε|ε] to its answer under the differentiation strategy ad: a closed value, or
// undefined with its cause. Running out of fuel is an *interderive.FuelError; nesting
// beyond the bounds an *interderive.DepthError; a derivative too large for any fuel a
// *dpl.BudgetError.
func EvalDiff(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	return EvalDiffHooks(ad, prog, opts, DiffHooks{})
}

// EvalDiffTraced is EvalDiff calling onRd, for every rd it evaluates (at any depth),
// with the trace term of its body and its derivative term, in the reference's order:
// when the rd's contraction is complete.
func EvalDiffTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	return EvalDiffHooks(ad, prog, opts, DiffHooks{Step: func(ev DiffEvent) {
		if ev.Trace != nil && onRd != nil {
			onRd(ev.Trace, ev.Derivative)
		}
	}})
}

// EvalDiffHooks is EvalDiff with observers.
func EvalDiffHooks(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, hooks DiffHooks) (dpl.Answer, error) {
	run, err := dpl.NewRun(ad, prog, opts, nil)
	if err != nil {
		return dpl.Answer{}, err
	}
	r := &diffRun{Run: run, hooks: hooks}
	v, err := r.eval(&DiffClo{M: prog})
	return dpl.AnswerOf(v, err)
}

// TraceDiff is symbolic evaluation, ρ ⊢ M ⇝ C, of the elaborated, well-typed term m
// whose free variables rho maps (symbolically) to closed values: it returns the trace
// term C, or why the symbolic evaluation has no result.
func TraceDiff(ad dpl.Differentiator, rho map[string]dpl.Term, m dpl.Term, opts interderive.Options) (c dpl.Term, undef *dpl.Undefined, err error) {
	run, err := dpl.NewOpenRun(ad, rho, m, opts)
	if err != nil {
		return nil, nil, err
	}
	var env *dplval.Env
	for x, v := range rho {
		env = env.Bind(x, v, true)
	}
	r := &diffRun{Run: run}
	return dpl.TraceOf(r.trace(&DiffClo{M: m, Env: env}, nil))
}

// diffRun is the state of one run: the state every stage keeps (dpl.Run: the
// strategy, the fuel, the fresh names, the nesting of layers), the limits across
// environment steps, and the observers.
type diffRun struct {
	dpl.Run
	env   envSteps // the limits across environment steps
	hooks DiffHooks
}

// contract counts the contraction of the step's redex under mode.
func (r *diffRun) contract(mode dpl.Mode, st DiffStep) (DiffEvent, error) {
	rule := mode.Rule(st.Rule)
	if err := r.Fuel.Contract(rule); err != nil {
		return DiffEvent{}, err
	}
	return DiffEvent{Step: r.Fuel.Steps(), Layer: r.Layer(), Mode: mode, Rule: rule, DiffStep: st}, nil
}

func (r *diffRun) done(ev DiffEvent) {
	if r.hooks.Step != nil {
		r.hooks.Step(ev)
	}
}

// administrative performs an environment step: the contractum replaces the redex.
func (r *diffRun) administrative(mode dpl.Mode, st DiffStep) DiffClosure {
	next := st.Context.Plug(st.Contractum)
	if r.hooks.Step != nil {
		r.hooks.Step(DiffEvent{Layer: r.Layer(), Mode: mode, DiffStep: st, Next: next})
	}
	return next
}

// Ordinary evaluation (Figures 2 and 3).

// eval is ⇒: the closure is reduced, one step at a time from the root, to a value.
func (r *diffRun) eval(cl DiffClosure) (dpl.Term, error) {
	for {
		st, err := DecomposeDiff(dpl.Ordinary, cl)
		if err != nil {
			return nil, err
		}
		if st.Done {
			return st.Value.Val, nil
		}
		if st.Rule == "" {
			if err := r.env.step(r.Fuel); err != nil {
				return nil, err
			}
			cl = r.administrative(dpl.Ordinary, st)
			continue
		}
		ev, err := r.contract(dpl.Ordinary, st)
		if err != nil {
			return nil, err
		}
		c, err := r.contractOrdinary(st.Redex, &ev)
		if err != nil {
			return nil, err
		}
		cl = st.Context.Plug(c)
		ev.Contractum, ev.Next = c, cl
		r.done(ev)
	}
}

// evalIn is φ | ρ ⊢ C ⇒ V for a trace term C: ordinary evaluation of C[ε|ρ], in a
// nested layer.
func (r *diffRun) evalIn(rho *dplval.Env, c dpl.Term) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.eval(&DiffClo{M: c, Env: rho})
}

// contractOrdinary is the contraction of Figure 2's redexes.
func (r *diffRun) contractOrdinary(redex DiffClosure, ev *DiffEvent) (DiffClosure, error) {
	switch red := redex.(type) {
	case *DiffPlus: // V + W ⇒ r + s
		v, err := dpl.AddReals(red.X.(*DiffValue).Val, red.Y.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(v), nil
	case *DiffOp: // op(V) ⇒ ev(op, ρ(V))
		v, err := dpl.Ev(red.Op, red.Arg.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(v), nil
	case *DiffLet: // (let x:T = V in N)[φ|ρ] ⇒ N[φ|ρ[V/x]]
		return &DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Name, red.Bound.(*DiffValue).Val, false)}, nil
	case *DiffFst: // fst(<W1, W2>) ⇒ W1
		if p, ok := red.X.(*DiffValue).Val.(*dpl.Pair); ok {
			return closed(p.X), nil
		}
	case *DiffSnd: // snd(<W1, W2>) ⇒ W2
		if p, ok := red.X.(*DiffValue).Val.(*dpl.Pair); ok {
			return closed(p.Y), nil
		}
	case *DiffIf: // if true then M else N ⇒ M; if false then M else N ⇒ N
		if red.Cond.(*DiffValue).Val.(*dpl.BoolLit).B {
			return red.Then, nil
		}
		return red.Else, nil
	case *DiffClo: // (letrec f(x:T):U = M in N)[φ|ρ] ⇒ N[φ[clo_φ(f(x:T):U. M)/f]|ρ]
		return letrecDiff(red), nil
	case *DiffCall: // clo_φ'(f(x:T):U. M)(V) ⇒ M[φ'[clo/f]|{x ↦ V}]
		fn := red.Fn
		return &DiffClo{M: fn.Body, Fun: fn.Phi.Bind(fn.Name, fn), Env: (*dplval.Env)(nil).Bind(fn.Param, red.Arg.(*DiffValue).Val, false)}, nil
	case *DiffRd: // W.rd[V](x:T. N) ⇒ W.R_V(x:T. C)[ε|ε], where N ⇝ C
		der, err := r.rd(red, ev)
		if err != nil {
			return nil, err
		}
		return &DiffClo{M: der}, nil
	case *DiffPred: // pred(V) ⇒ bev(pred, ρ(V))
		b, err := dpl.Bev(red.Pred, red.Arg.(*DiffValue).Val)
		if err != nil {
			return nil, err
		}
		return closed(&dpl.BoolLit{P: red.P, B: b}), nil
	}
	return nil, interderive.Stuck("", "no contraction for %s", dpl.FormatShort(DiffSigma(dpl.Ordinary, redex), interderive.MaxStuckShown))
}

// letrecDiff contracts (letrec f(x:T):U = M in N)[φ|ρ] to N[φ[clo_φ(f(x:T):U. M)/f]|ρ].
func letrecDiff(c *DiffClo) DiffClosure {
	l := c.M.(*dpl.Letrec)
	fn := &dplval.Closure{Name: l.Name, Param: l.Param, ParamT: l.ParamT, ResT: l.ResT, Body: l.Fun, Phi: c.Fun}
	return &DiffClo{M: l.Body, Fun: c.Fun.Bind(l.Name, fn), Env: c.Env}
}

// rd contracts W.rd[V](x:T. N)[φ|ρ], under either judgement: N[φ|ρ[(x ↦ ρ(V))_sym]] ⇝ C
// in a nested layer, and the contractum is the derivative term W.R_V(x:T. C), where W
// and V are the cotangent and the point as they stand (closed under ordinary
// evaluation).
func (r *diffRun) rd(red *DiffRd, ev *DiffEvent) (dpl.Term, error) {
	w, v := red.Cotangent.(*DiffValue), red.Point.(*DiffValue)
	c, err := r.nestedTrace(&DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Param, v.Val, true)}, nil)
	if err != nil {
		return nil, err
	}
	env := bindValue(bindValue(red.Env, w), v)
	der, err := r.Derive(dplval.Types(env, nil), w.Term, v.Term, red.Param, red.T, c)
	if err != nil {
		return nil, err
	}
	ev.Trace, ev.Derivative = c, der
	return der, nil
}

// Symbolic evaluation (Figures 4 and 5).

// nestedTrace is trace in a nested layer.
func (r *diffRun) nestedTrace(cl DiffClosure, prefix []*dpl.Let) (dpl.Term, error) {
	if err := r.Enter(); err != nil {
		return nil, err
	}
	defer r.Leave()
	return r.trace(cl, prefix)
}

// symContraction is the outcome of contracting a redex by Figure 4: a finished trace
// (+, op, fst, snd, rd), or the closure with which symbolic evaluation goes on (let, if,
// letrec, call) and the binding, if any, the trace grows by. Env binds the free
// variables of the trace the redex starts, for Figure 5's C ⇒ V.
type symContraction struct {
	finished dpl.Term
	binding  *dpl.Let // let x:T = V, its body to come
	next     DiffClosure
	env      *dplval.Env
}

// trace is ⇝: the closure is reduced symbolically, one step at a time from the root,
// the trace so far being the let-chain prefix.
func (r *diffRun) trace(cl DiffClosure, prefix []*dpl.Let) (dpl.Term, error) {
	for {
		st, err := DecomposeDiff(dpl.Symbolic, cl)
		if err != nil {
			return nil, err
		}
		if st.Done { // V ⇝ V
			return dpl.LetChain(prefix, st.Value.Term)
		}
		if st.Rule == "" {
			if err := r.env.step(r.Fuel); err != nil {
				return nil, err
			}
			cl = r.administrative(dpl.Symbolic, st)
			continue
		}
		ev, err := r.contract(dpl.Symbolic, st)
		if err != nil {
			return nil, err
		}
		if red, ok := st.Redex.(*DiffPred); ok {
			// E[R_bool] ⇝ C if R_bool ⇒ b and E[b] ⇝ C: the condition is decided with
			// ρ(V), never traced.
			b, err := dpl.Bev(red.Pred, red.Arg.(*DiffValue).Val)
			if err != nil {
				return nil, err
			}
			ev.Contractum = closed(&dpl.BoolLit{P: red.P, B: b})
			cl = st.Context.Plug(ev.Contractum)
			ev.Next = cl
			r.done(ev)
			continue
		}
		sc, err := r.contractSymbolic(st.Redex, &ev)
		if err != nil {
			return nil, err
		}
		if st.Context.IsTrivial() {
			// Figure 4: the redex is the whole closure; go on in place.
			if sc.finished != nil {
				c, err := dpl.LetChain(prefix, sc.finished)
				if err != nil {
					return nil, err
				}
				ev.Finished = c
				r.done(ev)
				return c, nil
			}
			if sc.binding != nil {
				prefix = append(prefix, sc.binding)
			}
			cl = sc.next
			ev.Contractum, ev.Next, ev.Binding = cl, cl, sc.binding
			r.done(ev)
			continue
		}
		// Figure 5: E[R] ⇝ let x:T_V = C in D if R ⇝ C, C ⇒ V and E[x ▷ V] ⇝ D, x fresh.
		c := sc.finished
		if c == nil {
			var start []*dpl.Let
			if sc.binding != nil {
				start = []*dpl.Let{sc.binding}
			}
			if c, err = r.nestedTrace(sc.next, start); err != nil {
				return nil, err
			}
		}
		v, err := r.evalIn(sc.env, c)
		if err != nil {
			return nil, err
		}
		x := r.BindFresh(&prefix, redexPos(st.Redex), c, v)
		ev.Contractum = &DiffValue{Term: x, Val: v}
		cl = st.Context.Plug(ev.Contractum)
		ev.Next, ev.Binding = cl, prefix[len(prefix)-1]
		r.done(ev)
	}
}

// contractSymbolic is Figure 4 on a redex (other than pred(V)), in any context.
func (r *diffRun) contractSymbolic(redex DiffClosure, ev *DiffEvent) (symContraction, error) {
	switch red := redex.(type) {
	case *DiffPlus: // V + W ⇝ V + W
		x, y := red.X.(*DiffValue), red.Y.(*DiffValue)
		return symContraction{finished: &dpl.Plus{P: red.P, X: x.Term, Y: y.Term},
			env: bindValue(bindValue((*dplval.Env)(nil), x), y)}, nil
	case *DiffOp: // op(V) ⇝ op(V)
		a := red.Arg.(*DiffValue)
		return symContraction{finished: &dpl.OpApp{P: red.P, Op: red.Op, Arg: a.Term}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffFst: // fst(V) ⇝ fst(V)
		a := red.X.(*DiffValue)
		return symContraction{finished: &dpl.Fst{P: red.P, X: a.Term, T: red.T, U: red.U}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffSnd: // snd(V) ⇝ snd(V)
		a := red.X.(*DiffValue)
		return symContraction{finished: &dpl.Snd{P: red.P, X: a.Term, T: red.T, U: red.U}, env: bindValue((*dplval.Env)(nil), a)}, nil
	case *DiffLet: // let x:T = V in N ⇝ let x:T = V in C  if N ⇝ C under ρ[ρ(V)/x]
		v := red.Bound.(*DiffValue)
		return symContraction{binding: &dpl.Let{P: red.P, Name: red.Name, T: red.T, Bound: v.Term},
			next: &DiffClo{M: red.Body, Fun: red.Fun, Env: red.Env.Bind(red.Name, v.Val, true)},
			env:  bindValue(red.Env, v)}, nil
	case *DiffIf: // if true then M else N ⇝ C if M ⇝ C;  if false then M else N ⇝ C if N ⇝ C
		next := red.Else
		if red.Cond.(*DiffValue).Val.(*dpl.BoolLit).B {
			next = red.Then
		}
		return symContraction{next: next, env: next.(*DiffClo).Env}, nil
	case *DiffClo: // letrec f(x:T):U = M in N ⇝ C  if N ⇝ C under φ[clo_φ(f(x:T):U. M)/f]
		return symContraction{next: letrecDiff(red), env: red.Env}, nil
	case *DiffCall: // f(V) ⇝ let x:T = V in C  if M ⇝ C under φ'[φ(f)/f] | {x ↦ ρ(V)}
		fn, v := red.Fn, red.Arg.(*DiffValue)
		return symContraction{binding: &dpl.Let{P: red.P, Name: fn.Param, T: fn.ParamT, Bound: v.Term},
			next: &DiffClo{M: fn.Body, Fun: fn.Phi.Bind(fn.Name, fn), Env: (*dplval.Env)(nil).Bind(fn.Param, v.Val, true)},
			env:  bindValue((*dplval.Env)(nil), v)}, nil
	case *DiffRd: // W.rd[V](x:T. N) ⇝ W.R_V(x:T. C)  if N ⇝ C under ρ[ρ(V)/x]
		der, err := r.rd(red, ev)
		if err != nil {
			return symContraction{}, err
		}
		return symContraction{finished: der,
			env: bindValue(bindValue(red.Env, red.Cotangent.(*DiffValue)), red.Point.(*DiffValue))}, nil
	}
	return symContraction{}, interderive.Stuck("", "no symbolic contraction for %s", dpl.FormatShort(DiffSigma(dpl.Symbolic, redex), interderive.MaxStuckShown))
}

// redexPos is the source position of a redex.
func redexPos(redex DiffClosure) dpl.Pos {
	switch red := redex.(type) {
	case *DiffPlus:
		return red.P
	case *DiffOp:
		return red.P
	case *DiffLet:
		return red.P
	case *DiffFst:
		return red.P
	case *DiffSnd:
		return red.P
	case *DiffIf:
		return red.P
	case *DiffClo:
		return red.M.Pos()
	case *DiffCall:
		return red.P
	case *DiffRd:
		return red.P
	}
	return dpl.Pos{}
}

// Read-back.

// DiffSigma is the read-back σ: the term a closure stands for, under mode. ρ's values
// are substituted for their variables (under symbolic evaluation, those of symbolic
// bindings stay variables, as they stay in traces); the calls of φ's functions become
// calls resolved to their closures (dpl.Closure, the reference's representation of φ);
// a value V ▷ ρ(V) reads back as ρ(V) under ordinary evaluation and as V under symbolic
// evaluation. It recurses over the closure (and is meant for inspection, not for runs).
func DiffSigma(mode dpl.Mode, cl DiffClosure) dpl.Term {
	s := &diffSigma{mode: mode, funs: map[*dplval.Closure]*dpl.Closure{}}
	return s.closure(cl)
}

type diffSigma struct {
	mode dpl.Mode
	funs map[*dplval.Closure]*dpl.Closure
}

func (s *diffSigma) value(v *DiffValue) dpl.Term {
	if s.mode == dpl.Symbolic {
		return v.Term
	}
	return v.Val
}

func (s *diffSigma) closure(cl DiffClosure) dpl.Term {
	switch c := cl.(type) {
	case *DiffClo:
		return s.term(c.M, c.Fun, c.Env)
	case *DiffValue:
		return s.value(c)
	case *DiffPlus:
		return &dpl.Plus{P: c.P, X: s.closure(c.X), Y: s.closure(c.Y)}
	case *DiffOp:
		return &dpl.OpApp{P: c.P, Op: c.Op, Arg: s.closure(c.Arg)}
	case *DiffLet:
		return &dpl.Let{P: c.P, Name: c.Name, T: c.T, Bound: s.closure(c.Bound), Body: s.term(c.Body, c.Fun, c.Env.Bind(c.Name, nil, true))}
	case *DiffPair:
		return &dpl.Pair{P: c.P, X: s.closure(c.X), Y: s.closure(c.Y), T: c.T, U: c.U}
	case *DiffFst:
		return &dpl.Fst{P: c.P, X: s.closure(c.X), T: c.T, U: c.U}
	case *DiffSnd:
		return &dpl.Snd{P: c.P, X: s.closure(c.X), T: c.T, U: c.U}
	case *DiffIf:
		return &dpl.If{P: c.P, Cond: s.closure(c.Cond), Then: s.closure(c.Then), Else: s.closure(c.Else)}
	case *DiffPred:
		return &dpl.PredApp{P: c.P, Pred: c.Pred, Arg: s.closure(c.Arg)}
	case *DiffCall:
		return &dpl.Call{P: c.P, Name: c.Name, Arg: s.closure(c.Arg), Clo: s.fun(c.Fn)}
	case *DiffRd:
		return &dpl.Rd{P: c.P, Cotangent: s.closure(c.Cotangent), Point: s.closure(c.Point), Param: c.Param, T: c.T,
			Body: s.term(c.Body, c.Fun, c.Env.Bind(c.Param, nil, true))}
	}
	return nil
}

// term is σ(M[φ|ρ]). A binding without a value (nil Val) marks a variable bound
// around M by the read-back itself: it is never substituted.
func (s *diffSigma) term(m dpl.Term, phi *dplval.Funs, rho *dplval.Env) dpl.Term {
	m = dpl.SubstValues(m, func(x string) (dpl.Term, bool) {
		b, ok := rho.Lookup(x)
		if !ok || b.Val == nil || s.mode == dpl.Symbolic && b.Sym {
			return nil, false
		}
		return b.Val, true
	})
	return s.resolve(m, phi, "")
}

// resolve resolves the calls of m to the functions of φ, but for the function named
// self (whose calls a closure's body ties at call time).
func (s *diffSigma) resolve(m dpl.Term, phi *dplval.Funs, self string) dpl.Term {
	seen := map[string]bool{self: self != ""}
	for ; phi != nil; phi = phi.Next {
		if !seen[phi.Name] {
			seen[phi.Name] = true
			m = dpl.SubstClosure(m, phi.Name, s.fun(phi.Clo))
		}
	}
	return m
}

// fun is σ(clo_φ(f(x:T):U. M)): the closure whose body has the calls of φ's functions
// resolved (those of f stay unresolved: the recursion is tied at call time).
func (s *diffSigma) fun(fn *dplval.Closure) *dpl.Closure {
	if k, ok := s.funs[fn]; ok {
		return k
	}
	k := &dpl.Closure{Name: fn.Name, Param: fn.Param, ParamT: fn.ParamT, ResT: fn.ResT}
	s.funs[fn] = k
	k.Body = s.resolve(fn.Body, fn.Phi, fn.Name)
	return k
}
