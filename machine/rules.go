package machine

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// The machine of a rule-defined calculus (sem) is its derived reduction semantics
// refocused: one generic eval/continue machine for every rule file, driven by the
// file's tables (each kind's values, frames in search order, rules). The contractum
// is decomposed in place, under the context it was found in, not plugged back and
// decomposed from the root. The stack K is the context, one frame of the file (with
// the term around its hole) a layer; each transition is one of
//
//	eval(t, k, K)         t a value of k                 -> continue(K, t)
//	eval(t, k, K)         t enters frame f of k (the first in search order whose hole
//	                      holds a non-value)             -> eval(f's hole, f's hole kind, f[t] : K)
//	eval(t, k, [])        otherwise, t an answer of k    -> halt(t)
//	eval(t, k, K)         otherwise, rule r contracts t in K to c, discarding the n
//	                      innermost frames of K (n = 0 but for a context rule)
//	                                                     -> eval(c, k', drop(n, K))    r
//	continue([], v)                                      -> halt(v)
//	continue(f[t] : K, v) f[v] enters a frame g of f's kind after f in search order
//	                                                     -> eval(g's hole, g's hole kind, g[f[v]] : K)
//	continue(f[t] : K, v) f[v] a value of f's kind        -> continue(K, f[v])
//	continue(f[t] : [], v) otherwise, f[v] an answer of f's kind
//	                                                     -> halt(f[v])
//	continue(f[t] : K, v) otherwise, rule r contracts f[v] in K to c, discarding n frames
//	                                                     -> eval(c, k', drop(n, K))    r
//
// where f[t] is the frame instantiated on the term t it was entered from, and k' is
// the redex's kind, or, for a context rule, the kind of the last frame it discards
// (the delimiter's: the contractum takes the place of the term that frame was entered
// from), or the root kind for an abort to the root (it discards all of K). A context
// rule matches its delimiter against the frames of K, innermost first: the stack is
// the context (contexts.Rules). A non-value answer (blame, an uncaught exception) halts
// the machine only with an empty stack; anywhere else it is a potential redex.
//
// A rule that steps an inner layer, (where (step K a b)), steps a with the machine's
// own transitions: from eval(a, K, []), with a stack of its own, to the first
// contraction, whose contractum plugged into what remains of that stack is b (the
// event is the outer rule's name, a slash, the inner event), or to halt: a is a value
// (or an answer) of K, and does not step (stepLayer). The inner run is not shown to an
// observer and spends no fuel: its contraction is part of the outer one.
//
// The machine runs on the engine of sem, under the discipline the file qualifies for
// (sem.Language.Discipline): over closures t[ρ], with environments for substitution, for
// every rule file in which no pattern matches a variable occurrence, and over terms,
// with substitution (the rules' (subst t x v)), for the others. Under environments a
// variable under evaluation is looked up and a closure entering a frame expanded
// (environment steps, not transitions of their own: eval resolves its closure first,
// and a frame keeps the expanded node around its hole); the contractions are the
// substitution machine's, one for one. The transitions run in an explicit loop, one
// an iteration, so that the machine's depth is bounded by memory alone. No transition
// is compressed but one corridor, as in Danvy and Nielsen's derivation and the
// hand-written machine: a frame whose hole holds a value is not entered (sem.Engine's
// Enter). Entered, eval would return the value into it at once, and continue would
// resume the search after it: the search goes on to the next frame instead, without
// the two transitions (derive prints the transitions so: "frame i, t_hole not a value").
// The contractions are the same, in the same order, and so are the contexts they
// are made in.

// Rules is the abstract machine derived from a rule file (sem.StageOf).
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesMode says which transition function applies to a state.
type rulesMode uint8

const (
	rulesEval rulesMode = iota
	rulesContinue
	rulesHalt
)

// rulesState is a configuration of the machine.
type rulesState struct {
	mode rulesMode
	term *sem.Term      // eval: the term under evaluation; continue: the value returned; halt: the answer
	kind *sem.Kind      // eval: the term's kind
	k    contexts.Rules // the stack K, innermost frame last: the context of the term under evaluation
}

// rulesMachine runs the machine for one program.
type rulesMachine struct {
	e    *sem.Engine
	fuel *interderive.Counter
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
	cp   *semval.Printer // under environments: prints closures t[ρ], their environments named
	// top is what the run reuses from one transition to the next, rooms what each
	// inner layer's run under way reuses (by level, from 1) from one step to the next.
	top   rulesRoom
	rooms []*rulesRoom
	level int
	// state is the run's state; bottom is where its stack starts, so that a shallow
	// run's stack is part of the machine, not grown apart.
	state  rulesState
	c      sem.Contraction // the last transition's contraction (transition)
	bottom [4]contexts.RulesFrame
}

// rulesRoom is what a run of the transitions reuses: the scratch continue plugs into
// (sem.Scratch: a term is kept only where the machine holds on to it), and, for an
// inner layer's steps, its state and its stack's room.
type rulesRoom struct {
	scratch sem.Scratch
	stack   contexts.Rules
	state   rulesState // an inner layer's state (stepLayer)
}

// room is the room of the run under way.
func (m *rulesMachine) room() *rulesRoom {
	if m.level == 0 {
		return &m.top
	}
	for len(m.rooms) < m.level {
		m.rooms = append(m.rooms, new(rulesRoom))
	}
	return m.rooms[m.level-1]
}

// Eval runs a closed term on the machine, under the discipline the file qualifies for.
// An observer (opts.Observer) sees every state before its transition; one of a file
// that does not qualify for environments is told once, first, why: its states are
// terms, substituted, not closures.
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	return evalUnder(l, t, opts, l.Discipline())
}

// evalUnder runs a closed term on the machine under the discipline d.
func evalUnder(l *sem.Language, t *sem.Term, opts interderive.Options, d sem.Discipline) (sem.Answer, error) {
	e := sem.NewRun(l, d, opts)
	m, _ := e.Kept().(*rulesMachine) // the machine of an earlier run of l, cleared
	if m == nil {
		m = new(rulesMachine)
		e.Keep(m)
	}
	defer func() { *m = rulesMachine{}; e.Release() }() // no term of the run kept
	m.e, m.fuel = e, e.Fuel()
	if obs := opts.StepObserver(); obs != nil {
		m.obs, m.pr = obs, interderive.NewItemPrinter(opts, m.fuel.Limits())
		if d == sem.Environments {
			m.cp = semval.NewPrinter(m.pr.Budget())
		} else if why := l.WhySubstitution(); why != "" {
			obs.Step("no environments: " + why + "; the machine runs this file by substitution, and its states are terms")
		}
	}
	v, err := m.run(t)
	if err != nil {
		return sem.Answer{}, err
	}
	return sem.Answer{Value: v}, nil
}

// run iterates the transitions from the initial state eval(t, root kind, []) (t[ε]
// under environments) to the final one, and reads the answer back. Each contraction
// spends one unit of fuel and goes to OnContract.
func (m *rulesMachine) run(t *sem.Term) (*sem.Term, error) {
	s := &m.state
	*s = rulesState{mode: rulesEval, term: m.e.Start(t), kind: m.e.Lang().Root(), k: m.bottom[:0]}
	for s.mode != rulesHalt {
		if m.obs != nil {
			state := m.show(s)
			if m.cp != nil {
				for _, def := range m.cp.Defs() {
					m.obs.Step(def)
				}
			}
			m.obs.Step(state)
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		contracts, err := m.transition(s)
		if err != nil {
			return nil, err
		}
		if !contracts {
			continue
		}
		if err := m.fuel.Contract(m.c.Event); err != nil {
			return nil, err
		}
		m.contracted(s, &m.c)
	}
	return m.e.ReadBack(s.term), nil
}

// stepLayer is one step of an inner layer, for a rule's (step K a b): the
// transitions from eval(t, k, []) to the first contraction, its contractum plugged
// into the inner stack; ok is false when the run halts first (t a value or an answer
// of k).
func (m *rulesMachine) stepLayer(t *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	m.level++
	r := m.room()
	s := &r.state
	*s = rulesState{mode: rulesEval, term: t, kind: k, k: r.stack[:0]}
	defer func() { r.stack, m.level = s.k[:0], m.level-1 }()
	for s.mode != rulesHalt {
		contracts, err := m.transition(s)
		if err != nil {
			return nil, "", false, err
		}
		if contracts {
			return s.k[:len(s.k)-m.c.Pop].Plug(m.c.Term), m.c.Event, true, nil
		}
	}
	return t, "", false, nil
}

// transition is one transition from s: an eval or a continue. A transition that
// contracts says so and leaves the contraction in m.c without making it: the caller
// goes on with it (contracted) or stops there (stepLayer).
func (m *rulesMachine) transition(s *rulesState) (contracts bool, err error) {
	if s.mode == rulesEval {
		return m.eval(s)
	}
	return m.cont(s)
}

// eval is one transition from eval(t, k, K): return a value to K, enter the first
// frame t matches with a non-value in its hole, halt on an answer, or contract t.
// Under environments t is looked up first.
func (m *rulesMachine) eval(s *rulesState) (contracts bool, err error) {
	t, err := m.e.LookUp(s.term)
	if err != nil {
		return false, err
	}
	s.term = t
	k := s.kind
	if m.e.IsValue(t, k) {
		s.mode = rulesContinue
		return false, nil
	}
	if f, ok := m.e.Enter(t, k, 0); ok {
		n := sem.View(t)
		s.k = append(s.k, contexts.RulesFrame{Frame: f, Term: n})
		s.term, s.kind = sem.At(n, f.Path), f.Hole
		return false, nil
	}
	return m.contract(s, t, k)
}

// contract contracts the potential redex t of kind k in the context K, or halts on
// it, an answer in the empty context.
func (m *rulesMachine) contract(s *rulesState, t *sem.Term, k *sem.Kind) (contracts bool, err error) {
	if len(s.k) == 0 && m.e.IsAnswer(t, k) {
		s.mode, s.term = rulesHalt, m.room().scratch.Keep(t)
		return false, nil
	}
	m.c, err = m.e.Contract(t, k, &s.k, m.stepLayer) // &s.k: a pointer in the interface, not a copy of the slice
	return err == nil, err
}

// contracted goes on after the contraction c: the frames it discards popped, eval of
// the contractum, in place (refocusing), in its kind.
func (m *rulesMachine) contracted(s *rulesState, c *sem.Contraction) {
	s.k = s.k[:len(s.k)-c.Pop]
	s.mode, s.term, s.kind = rulesEval, c.Term, c.Kind
}

// cont is one transition from continue(K, v): pop a frame, plug v into it, and
// resume the search after that frame: enter the next frame with a non-value in its
// hole, return the plugged term if it is a value, or contract it.
func (m *rulesMachine) cont(s *rulesState) (contracts bool, err error) {
	if len(s.k) == 0 {
		s.mode = rulesHalt
		return false, nil
	}
	top := s.k[len(s.k)-1]
	s.k = s.k[:len(s.k)-1]
	t := m.room().scratch.Plug(top.Term, top.Frame.Path, s.term)
	k := top.Frame.Kind
	if g, ok := m.e.Enter(t, k, top.Frame.Index+1); ok {
		t = m.room().scratch.Keep(sem.View(t))
		s.k = append(s.k, contexts.RulesFrame{Frame: g, Term: t})
		s.mode, s.term, s.kind = rulesEval, sem.At(t, g.Path), g.Hole
		return false, nil
	}
	if m.e.IsValue(t, k) {
		s.term = m.room().scratch.Keep(t)
		return false, nil
	}
	return m.contract(s, t, k)
}

// The bytes a frame of K prints in: under environments, room for the environments'
// names.
const (
	frameMax    = 40
	envFrameMax = 64
)

// show prints a state for a person, within the run's print budget: the mode, the term
// (and its kind), and K, innermost frame last, each frame as its term with [] for its
// hole, shortened. Under environments its closures are printed as the machine holds
// them, t[ρ] with their environments named (semval.Printer: the definitions of those
// it names go before the state).
func (m *rulesMachine) show(s *rulesState) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		switch s.mode {
		case rulesEval:
			fmt.Fprintf(&w, "%-10s ", "eval")
		case rulesContinue:
			fmt.Fprintf(&w, "%-10s ", "continue")
		}
		var t string
		var err error
		if m.cp != nil {
			t, err = m.cp.Closure(s.term)
		} else {
			t, err = sem.FormatBounded(s.term, w.Left())
		}
		w.WriteString(t)
		w.Fail(err)
		if s.mode == rulesEval {
			w.WriteString("  in " + s.kind.Name)
		}
		w.WriteString("\n           K=[")
		for i, f := range s.k {
			if w.Stopped() {
				break
			}
			if i > 0 {
				w.WriteString(", ")
			}
			hole := f.Plug(sem.Var(sem.Pos{}, contexts.Hole))
			if m.cp != nil {
				w.WriteString(m.cp.Short(hole, envFrameMax))
			} else {
				w.WriteString(sem.FormatShort(hole, frameMax))
			}
		}
		w.WriteString("]")
		return w.Result()
	})
}
