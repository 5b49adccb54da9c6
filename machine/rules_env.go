package machine

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// The environment machine of a rule-defined calculus: the refocused machine of
// rules.go over closures instead of terms (internal/values/semval), as the calculus of
// closures has them. The environment steps (look-up, the expansion of t[ρ] into its
// constructor and children) are not contractions, and the contractions are the
// substitution machine's, one for one: answers, context rules and inner layers as
// there, the stack the context of a contraction (envStack). A rule file that does not
// qualify (semval.Qualifies) runs on the substitution machine.

// envFrame is a frame of K: a frame of the rule file, and the closure (expanded)
// around its hole.
type envFrame struct {
	frame *sem.Frame
	node  *semval.Clo
}

// envStack is the stack K, innermost frame last: the context of the closure under
// evaluation (semval.Context).
type envStack []envFrame

// Depth is the number of frames of K.
func (K envStack) Depth() int { return len(K) }

// Frame is K's i-th frame from the innermost, with the closure it was entered from.
func (K envStack) Frame(i int) (*sem.Frame, *semval.Clo) {
	f := K[len(K)-1-i]
	return f.frame, f.node
}

// plug is K[c]: c put into the hole of K, innermost frame first.
func (K envStack) plug(c *semval.Clo) *semval.Clo {
	for i := len(K) - 1; i >= 0; i-- {
		c = semval.PlugAt(K[i].node, K[i].frame.Path, c)
	}
	return c
}

// envState is a configuration of the environment machine.
type envState struct {
	mode rulesMode
	c    *semval.Clo // eval: the closure under evaluation; continue: the value returned; halt: the answer
	k    *sem.Kind   // eval: the closure's kind
	K    envStack
}

// envMachine runs the environment machine for one program: the transitions of
// rules.go, over closures.
type envMachine struct {
	semval.Meta
	fuel *interderive.Counter
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
	cp   *semval.Printer // prints closures t[ρ], their environments named
}

// run iterates the transitions from eval(t[ε], root kind, []) to halt, and reads the
// answer back. Each contraction spends one unit of fuel and goes to OnContract.
func (m *envMachine) run(t *sem.Term) (*sem.Term, error) {
	s := &envState{mode: rulesEval, c: semval.Leaf(t, nil), k: m.Lang().Root()}
	for s.mode != rulesHalt {
		if m.obs != nil {
			state := m.show(s.mode, s.c, s.k, s.K)
			for _, def := range m.cp.Defs() {
				m.obs.Step(def)
			}
			m.obs.Step(state)
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		c, err := m.transition(s)
		if err != nil {
			return nil, err
		}
		if c.Clo == nil {
			continue
		}
		if err := m.fuel.Contract(c.Event); err != nil {
			return nil, err
		}
		s.K = s.K[:len(s.K)-c.Pop]
		s.mode, s.c, s.k = rulesEval, c.Clo, c.Kind
	}
	return m.ReadBack(s.c), nil
}

// stepLayer is one step of an inner layer, for a rule's (step K a b): the
// transitions from eval(c, k, []) to the first contraction, its contractum plugged
// into the inner stack; ok is false when the run halts first (c a value or an answer
// of k).
func (m *envMachine) stepLayer(c *semval.Clo, k *sem.Kind) (*semval.Clo, string, bool, error) {
	s := &envState{mode: rulesEval, c: c, k: k}
	for s.mode != rulesHalt {
		ct, err := m.transition(s)
		if err != nil {
			return nil, "", false, err
		}
		if ct.Clo != nil {
			return s.K[:len(s.K)-ct.Pop].plug(ct.Clo), ct.Event, true, nil
		}
	}
	return c, "", false, nil
}

// transition is one transition from s, eval or continue; one that contracts returns
// the contraction (Clo not nil) for the caller to go on with.
func (m *envMachine) transition(s *envState) (semval.Contraction, error) {
	if s.mode == rulesEval {
		c := semval.Resolve(s.c) // look-up: an environment step
		if c.T != nil && c.T.Op == sem.TermVar {
			return semval.Contraction{}, interderive.Stuck(c.T.Name, "free variable %s", c.T.Name)
		}
		s.c = c
		if m.IsValue(c, s.k) {
			s.mode = rulesContinue
			return semval.Contraction{}, nil
		}
		if f, ok := m.FindFrame(c, s.k, 0); ok {
			n := semval.View(c)
			s.K = append(s.K, envFrame{frame: f, node: n})
			s.c, s.k = semval.At(n, f.Path), f.Hole
			return semval.Contraction{}, nil
		}
		return m.contract(s, c, s.k)
	}
	if len(s.K) == 0 {
		s.mode = rulesHalt
		return semval.Contraction{}, nil
	}
	top := s.K[len(s.K)-1]
	s.K = s.K[:len(s.K)-1]
	n := semval.PlugAt(top.node, top.frame.Path, s.c)
	k := top.frame.Kind
	if g, ok := m.FindFrame(n, k, top.frame.Index+1); ok {
		n = semval.View(n)
		s.K = append(s.K, envFrame{frame: g, node: n})
		s.mode, s.c, s.k = rulesEval, semval.At(n, g.Path), g.Hole
		return semval.Contraction{}, nil
	}
	if m.IsValue(n, k) {
		s.c = n
		return semval.Contraction{}, nil
	}
	return m.contract(s, n, k)
}

// contract contracts the potential redex c of kind k in the context K, or halts on
// it, an answer in the empty context.
func (m *envMachine) contract(s *envState, c *semval.Clo, k *sem.Kind) (semval.Contraction, error) {
	if len(s.K) == 0 && m.IsAnswer(c, k) {
		s.mode, s.c = rulesHalt, c
		return semval.Contraction{}, nil
	}
	return m.Contract(c, k, s.K, m.stepLayer)
}

// envFrameMax bounds the bytes a frame of K prints in (the substitution machine's 40,
// and room for the environments' names).
const envFrameMax = 64

// show prints a state, its closures as the machine holds them, t[ρ] with their
// environments named (semval.Printer: the definitions of those it names first go
// before the state), within the run's print budget; each frame of K is its closure
// with [] for its hole, shortened.
func (m *envMachine) show(mode rulesMode, c *semval.Clo, k *sem.Kind, K envStack) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		if mode == rulesEval {
			fmt.Fprintf(&w, "%-10s ", "eval")
		} else {
			fmt.Fprintf(&w, "%-10s ", "continue")
		}
		t, err := m.cp.Closure(c)
		w.WriteString(t)
		w.Fail(err)
		if mode == rulesEval {
			w.WriteString("  in " + k.Name)
		}
		w.WriteString("\n           K=[")
		for i, f := range K {
			if w.Stopped() {
				break
			}
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(m.cp.Short(semval.PlugAt(f.node, f.frame.Path, semval.Leaf(sem.Var(sem.Pos{}, "[]"), nil)), envFrameMax))
		}
		w.WriteString("]")
		return w.Result()
	})
}
