package machine

import (
	"fmt"
	"strconv"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/values/abductiveval"
)

// The machine of the abductive calculus is its reduction semantics refocused (the
// contractum is decomposed in place, not plugged back and decomposed from the root),
// with environments for substitution, as the calculus of closures has them: an
// eval/continue machine whose stack K is the context E defunctionalized, one frame
// per production of E, and one for the rest of an iterator's fold. Each transition is
// one of
//
//	eval(a, ρ, K)                      -> continue(K, a[ε])        a a ground value or a vector value
//	eval(x, ρ, K)                      -> continue(K, ρ(x))
//	eval(\x:T. t, ρ, K)                -> continue(K, (\x:T. t)[ρ])   and abduct f, p. t alike
//	eval({r}, ρ, K)                    -> continue(K, ℓn)                          param
//	eval(t1 t2, ρ, K)                  -> eval(t1, ρ, [] t2[ρ] : K)
//	eval(t1 $ t2, ρ, K)                -> eval(t1, ρ, [] $ t2[ρ] : K)
//	eval(let x = t1 in t2, ρ, K)       -> eval(t1, ρ, let x = [] in t2 [ρ] : K)
//	eval([t1, ..., tn], ρ, K)          -> eval(t1, ρ, [[], t2, ..., tn][ρ] : K)
//	continue([], v)                    -> halt(v)
//	continue([] t[ρ] : K, v)           -> eval(t, ρ, v [] : K)
//	continue((\x:T. t)[ρ] [] : K, v)   -> eval(t, (x ↦ v) : ρ, []^L : K)           beta
//	continue((abduct f, p. t)[ρ] [] : K, m) -> eval(t, (p ↦ P) : (f ↦ F) : ρ, []^L : K)  abduct
//	continue([] $ t[ρ] : K, v)         -> eval(t, ρ, v $ [] : K)
//	continue(v1 $ [] : K, v2)          -> continue(K, δ($, v1, v2))                 delta
//	continue(g $[k] [] : K, v0)        -> continue(g [] : [] $' g $[k+1] v0 : K, e_k)  iterate (k < n)
//	                                   -> continue(K, v0 with fp(g))               iterate (k = n)
//	continue([] $' g $[k] v0 : K, v)   -> continue(v $' [] : K, ...) as g $[k] [] with v0
//	continue(let x = [] in t [ρ] : K, v) -> eval(t, (x ↦ v) : ρ, []^L : K)         beta
//	continue([v, ..., [], t, ...][ρ] : K, v') -> the next component, or the vector
//	continue([]^L : K, v)              -> continue(K, v with L)
//
// with L, F and P as in the reduction semantics (a mark []^L only where L is not
// empty), run in an explicit loop, one transition an iteration. No transition is
// compressed: the machine reads as the table above.

// Abductive is the abstract machine of the abductive calculus (abductive.StageOf).
func (Stage) Abductive() abductive.Stage { return abductiveStage{} }

type abductiveStage struct{}

// Eval runs a closed, well-typed term on the machine and reads the answer back. An
// observer (opts.Observer) sees every state before its transition, and each
// decoupling's report.
func (abductiveStage) Eval(e abductive.Expr, opts interderive.Options) (abductive.Answer, error) {
	m := &abductiveMachine{fuel: interderive.NewCounter(opts), sigma: abductive.Sigma(e)}
	if opts.Observer != nil {
		m.obs, m.pr = opts.Observer, interderive.NewItemPrinter(opts, m.fuel.Limits())
		m.steps = opts.StepObserver() != nil // an observer of reports only is shown no state
	}
	v, err := m.run(e)
	if err != nil {
		return abductive.Answer{}, err
	}
	return abductive.Answer{Value: abductiveval.ReadBack(v), Sigma: m.sigma}, nil
}

// abductiveMachine runs the machine for one program.
type abductiveMachine struct {
	fuel  *interderive.Counter
	sigma abductive.Store
	obs   interderive.Observer
	steps bool // whether obs is shown the states (not an observer of reports only)
	pr    *interderive.ItemPrinter
}

// abductiveMode says which transition function applies to a state.
type abductiveMode uint8

const (
	abductiveEval abductiveMode = iota
	abductiveContinue
	abductiveHalt
)

// abductiveFrameKind is a production of the context E (or the rest of a fold).
type abductiveFrameKind uint8

const (
	abductiveAppFun      abductiveFrameKind = iota // [] t[ρ]
	abductiveAppArg                                // v []
	abductiveBinaryLeft                            // [] $ t[ρ]
	abductiveBinaryRight                           // v $ []
	abductiveFoldRest                              // [] $' g $[k] v0: the rest of a fold
	abductiveLet                                   // let x = [] in t [ρ]
	abductiveVecElem                               // [v, ..., [], t, ...][ρ]
	abductiveMark                                  // []^L
)

// abductiveFrame is a frame of K: kind says which production, and so which fields it
// uses.
type abductiveFrame struct {
	kind abductiveFrameKind
	p    abductive.Pos
	e    abductive.Expr          // AppFun: the argument; BinaryLeft: the right operand; Let: the let
	env  *abductiveval.Env       // AppFun, BinaryLeft, Let, VecElem: the environment of e
	v    *abductiveval.Closure   // AppArg: the function; BinaryRight: the left operand; FoldRest: g
	v0   *abductiveval.Closure   // FoldRest: the fold's vector
	op   abductive.Op            // BinaryLeft, BinaryRight, FoldRest (the iterator)
	from int                     // BinaryLeft, BinaryRight, FoldRest: the iterator's index
	done []*abductiveval.Closure // VecElem: the components evaluated
	rest []abductive.Expr        // VecElem: the components still to evaluate
	foot abductive.Footprint     // Mark: L; VecElem: the vector's own footprint
}

// abductiveState is a configuration of the machine.
type abductiveState struct {
	mode  abductiveMode
	term  abductive.Expr        // eval: the term under evaluation
	env   *abductiveval.Env     // eval: its environment
	value *abductiveval.Closure // continue: the value returned; halt: the answer
	k     []abductiveFrame      // the stack K, top last
}

func (s *abductiveState) toEval(e abductive.Expr, rho *abductiveval.Env) {
	s.mode, s.term, s.env, s.value = abductiveEval, e, rho, nil
}

func (s *abductiveState) toContinue(v *abductiveval.Closure) {
	s.mode, s.term, s.env, s.value = abductiveContinue, nil, nil, v
}

// mark pushes []^L, if L is not empty.
func (s *abductiveState) mark(p abductive.Pos, foot abductive.Footprint) {
	if len(foot) > 0 {
		s.k = append(s.k, abductiveFrame{kind: abductiveMark, p: p, foot: foot})
	}
}

// run iterates the transitions from the initial state eval(e, ε, []) to the final one.
func (m *abductiveMachine) run(e abductive.Expr) (*abductiveval.Closure, error) {
	s := &abductiveState{mode: abductiveEval, term: e}
	for s.mode != abductiveHalt {
		if m.obs != nil && m.steps {
			m.obs.Step(m.show(s))
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		var err error
		if s.mode == abductiveEval {
			err = m.eval(s)
		} else {
			err = m.cont(s)
		}
		if err != nil {
			return nil, err
		}
	}
	return s.value, nil
}

// eval is one transition from eval(e, ρ, K): decompose e by one level, or, for a
// value, return it to K.
func (m *abductiveMachine) eval(s *abductiveState) error {
	rho := s.env
	if abductive.IsValue(s.term) {
		if abductive.IsGround(s.term) {
			rho = nil
		} else if _, ok := s.term.(*abductive.Vec); ok {
			rho = nil
		}
		s.toContinue(&abductiveval.Closure{E: s.term, Env: rho})
		return nil
	}
	switch e := s.term.(type) {
	case *abductive.Var:
		v, ok := rho.Lookup(e.Name)
		if !ok {
			return interderive.Stuck("", "unbound variable %s", e.Name)
		}
		s.toContinue(v)
	case *abductive.Param:
		if err := m.fuel.Contract(abductive.RuleParam); err != nil {
			return err
		}
		s.toContinue(abductiveval.Closed(&abductive.Label{P: e.P, N: e.Label, Foot: abductive.Single(e.Label)}))
	case *abductive.App:
		s.k = append(s.k, abductiveFrame{kind: abductiveAppFun, p: e.P, e: e.Arg, env: rho})
		s.toEval(e.Fun, rho)
	case *abductive.Binary:
		s.k = append(s.k, abductiveFrame{kind: abductiveBinaryLeft, p: e.P, op: e.Op, from: e.From, e: e.Y, env: rho})
		s.toEval(e.X, rho)
	case *abductive.Let:
		s.k = append(s.k, abductiveFrame{kind: abductiveLet, p: e.P, e: e, env: rho})
		s.toEval(e.Bound, rho)
	case *abductive.Vec:
		s.k = append(s.k, abductiveFrame{kind: abductiveVecElem, p: e.P, rest: e.Elems[1:], env: rho, foot: e.Foot})
		s.toEval(e.Elems[0], rho)
	case *abductive.Mark:
		s.mark(e.P, e.Foot)
		s.toEval(e.Body, rho)
	default:
		return interderive.Stuck("", "cannot evaluate %T", e)
	}
	return nil
}

// cont is one transition from continue(K, v): pop a frame and either find a
// redex, contract it and go on with the contractum in place (refocusing), or start
// evaluating the next subterm.
func (m *abductiveMachine) cont(s *abductiveState) error {
	if len(s.k) == 0 {
		s.mode = abductiveHalt
		return nil
	}
	f := s.k[len(s.k)-1]
	s.k = s.k[:len(s.k)-1]
	v := s.value
	switch f.kind {
	case abductiveMark:
		s.toContinue(v.WithFoot(f.foot))
	case abductiveAppFun:
		s.k = append(s.k, abductiveFrame{kind: abductiveAppArg, p: f.p, v: v})
		s.toEval(f.e, f.env)
	case abductiveAppArg:
		return m.apply(s, f.p, f.v, v)
	case abductiveBinaryLeft:
		s.k = append(s.k, abductiveFrame{kind: abductiveBinaryRight, p: f.p, op: f.op, from: f.from, v: v})
		s.toEval(f.e, f.env)
	case abductiveBinaryRight:
		if f.op.IsIterator() {
			return m.iterate(s, f.p, f.op, f.from, f.v, v)
		}
		w, ok := abductiveval.Delta(f.p, f.op, f.v, v)
		if !ok {
			return interderive.Stuck(abductiveShowValues(f.v, v), "no δ for %s on these operands", f.op)
		}
		if err := m.fuel.Contract(abductive.RuleDelta); err != nil {
			return err
		}
		s.toContinue(w)
	case abductiveFoldRest:
		s.k = append(s.k, abductiveFrame{kind: abductiveBinaryRight, p: f.p, op: abductiveval.Combine(f.op), v: v})
		return m.iterate(s, f.p, f.op, f.from, f.v, f.v0)
	case abductiveLet:
		if err := m.fuel.Contract(abductive.RuleBeta); err != nil {
			return err
		}
		l := f.e.(*abductive.Let)
		s.mark(l.P, abductive.Union(abductiveval.LetFootprint(l, f.env), v.Footprint()))
		s.toEval(l.Body, f.env.Bind(l.Name, v))
	case abductiveVecElem:
		done := append(f.done[:len(f.done):len(f.done)], v)
		if len(f.rest) > 0 {
			s.k = append(s.k, abductiveFrame{kind: abductiveVecElem, p: f.p, done: done, rest: f.rest[1:], env: f.env, foot: f.foot})
			s.toEval(f.rest[0], f.env)
			return nil
		}
		elems := make([]abductive.Expr, len(done))
		foot := f.foot
		for i, w := range done {
			elems[i] = w.E
			foot = abductive.Union(foot, w.Footprint())
		}
		s.toContinue(abductiveval.Closed(&abductive.Vec{P: f.p, Elems: elems, Foot: foot}))
	default:
		return interderive.Stuck("", "unknown frame %d", f.kind)
	}
	return nil
}

// apply is continue(fun [] : K, v): beta for a lambda, abduct for an abduct.
func (m *abductiveMachine) apply(s *abductiveState, p abductive.Pos, fun, v *abductiveval.Closure) error {
	foot := abductive.Union(fun.Footprint(), v.Footprint())
	switch e := fun.E.(type) {
	case *abductive.Lam:
		if err := m.fuel.Contract(abductive.RuleBeta); err != nil {
			return err
		}
		s.mark(p, foot)
		s.toEval(e.Body, fun.Env.Bind(e.Param, v))
	case *abductive.Abduct:
		model, params, d := abductiveval.Decouple(p, m.sigma, v)
		if err := m.fuel.Contract(abductive.RuleAbduct); err != nil {
			return err
		}
		if m.obs != nil {
			m.obs.Report(m.fuel.Steps(), "decoupling", d, d.String())
		}
		s.mark(p, foot)
		s.toEval(e.Body, fun.Env.Bind(e.F, model).Bind(e.Par, params))
	default:
		return interderive.Stuck(abductiveShowValues(fun, v), "application of a non-function")
	}
	return nil
}

// iterate is the iterate transition on g $[k] v0: the base case returns v0 with g's
// footprint; otherwise g is applied to e_k, with the rest of the fold waiting.
func (m *abductiveMachine) iterate(s *abductiveState, p abductive.Pos, op abductive.Op, from int, g, v0 *abductiveval.Closure) error {
	n, ok := abductiveval.Dimension(v0)
	if !ok {
		return interderive.Stuck(abductiveShowValues(g, v0), "the iterator's operand is not a vector")
	}
	if err := m.fuel.Contract(abductive.RuleIterate); err != nil {
		return err
	}
	if from >= n {
		s.toContinue(v0.WithFoot(g.Footprint()))
		return nil
	}
	s.k = append(s.k,
		abductiveFrame{kind: abductiveFoldRest, p: p, op: op, from: from + 1, v: g, v0: v0},
		abductiveFrame{kind: abductiveAppArg, p: p, v: g})
	s.toContinue(abductiveval.Basis(p, from, n))
	return nil
}

// abductiveShowValues prints values for a stuck error.
func abductiveShowValues(vs ...*abductiveval.Closure) string {
	s := ""
	for i, v := range vs {
		if i > 0 {
			s += ", "
		}
		s += abductive.FormatShort(abductiveval.ReadBack(v), 200)
	}
	return s
}

// show prints a state for a person, within the run's print budget: the mode, the term
// and its environment or the value, and K (innermost frame last), each binding and
// frame shortened.
func (m *abductiveMachine) show(s *abductiveState) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		whole := func(e abductive.Expr) {
			t, err := abductive.FormatBounded(e, w.Left())
			w.WriteString(t)
			w.Fail(err)
		}
		switch s.mode {
		case abductiveEval:
			fmt.Fprintf(&w, "%-10s ", "eval")
			whole(s.term)
			w.WriteString("  ρ={")
			for rho := s.env; rho != nil && !w.Stopped(); rho = rho.Next {
				if rho != s.env {
					w.WriteString(", ")
				}
				w.WriteString(rho.Name + " ↦ " + abductiveBrief(abductiveval.ReadBack(rho.V)))
			}
			w.WriteString("}")
		case abductiveContinue:
			fmt.Fprintf(&w, "%-10s ", "continue")
			whole(abductiveval.ReadBack(s.value))
		}
		w.WriteString("\n           K=[")
		for i, f := range s.k {
			if w.Stopped() {
				break
			}
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(abductiveFrameString(f))
		}
		w.WriteString("]")
		return w.Result()
	})
}

// abductiveFrameString shows a frame of K, its terms and values shortened.
func abductiveFrameString(f abductiveFrame) string {
	val := func(v *abductiveval.Closure) string { return abductiveBrief(abductiveval.ReadBack(v)) }
	op := func(op abductive.Op, from int) string {
		if from > 0 {
			return op.String() + "[" + strconv.Itoa(from) + "]"
		}
		return op.String()
	}
	switch f.kind {
	case abductiveAppFun:
		return "[] " + abductiveBrief(f.e)
	case abductiveAppArg:
		return val(f.v) + " []"
	case abductiveBinaryLeft:
		return "[] " + op(f.op, f.from) + " " + abductiveBrief(f.e)
	case abductiveBinaryRight:
		return val(f.v) + " " + op(f.op, f.from) + " []"
	case abductiveFoldRest:
		return "[] " + abductiveval.Combine(f.op).String() + " " + val(f.v) + " " + op(f.op, f.from) + " " + val(f.v0)
	case abductiveLet:
		l := f.e.(*abductive.Let)
		return "let " + l.Name + " = [] in " + abductiveBrief(l.Body)
	case abductiveVecElem:
		return "[" + strconv.Itoa(len(f.done)) + " done, [], " + strconv.Itoa(len(f.rest)) + " more]"
	case abductiveMark:
		return "[]^" + f.foot.String()
	}
	return "?"
}

// abductiveBrief prints e shortened to 40 characters, printing no more of it than that
// takes.
func abductiveBrief(e abductive.Expr) string {
	s, err := abductive.FormatBounded(e, interderive.PrintBudget{Max: 4*40 + 4})
	if r := []rune(s); len(r) > 40 || err != nil {
		return string(r[:min(len(r), 37)]) + "..."
	}
	return s
}
