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
// substitution machine's, one for one. A rule file that does not qualify
// (semval.Qualifies) runs on the substitution machine.

// envFrame is a frame of K: a frame of the rule file, and the closure (expanded)
// around its hole.
type envFrame struct {
	frame *sem.Frame
	node  *semval.Clo
}

// envMachine runs the environment machine for one program: the transitions of
// rules.go, over closures.
type envMachine struct {
	semval.Meta
	fuel *interderive.Counter
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
}

// run iterates the transitions from eval(t[ε], root kind, []) to halt, and reads the
// answer back.
func (m *envMachine) run(t *sem.Term) (*sem.Term, error) {
	mode, c, k := rulesEval, semval.Leaf(t, nil), m.Lang().Root()
	var K []envFrame
	contract := func(c *semval.Clo, kind *sem.Kind) (*semval.Clo, error) {
		cc, err := m.Contract(c, kind, nil, nil)
		out, r := cc.Clo, cc.Rule
		if err != nil {
			return nil, err
		}
		if err := m.fuel.Contract(r.Name); err != nil {
			return nil, err
		}
		return out, nil
	}
	for {
		if m.obs != nil {
			m.obs.Step(m.show(mode, c, k, K))
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		if mode == rulesEval {
			c = semval.Resolve(c) // look-up: an environment step
			if c.T != nil && c.T.Op == sem.TermVar {
				return nil, interderive.Stuck(c.T.Name, "free variable %s", c.T.Name)
			}
			if m.IsValue(c, k) {
				mode = rulesContinue
				continue
			}
			if f, ok := m.FindFrame(c, k, 0); ok {
				n := semval.View(c)
				K = append(K, envFrame{frame: f, node: n})
				c, k = semval.At(n, f.Path), f.Hole
				continue
			}
			out, err := contract(c, k)
			if err != nil {
				return nil, err
			}
			c = out
			continue
		}
		if len(K) == 0 {
			return m.ReadBack(c), nil
		}
		top := K[len(K)-1]
		K = K[:len(K)-1]
		n := semval.PlugAt(top.node, top.frame.Path, c)
		k = top.frame.Kind
		if g, ok := m.FindFrame(n, k, top.frame.Index+1); ok {
			n = semval.View(n)
			K = append(K, envFrame{frame: g, node: n})
			mode, c, k = rulesEval, semval.At(n, g.Path), g.Hole
			continue
		}
		if m.IsValue(n, k) {
			c = n
			continue
		}
		out, err := contract(n, k)
		if err != nil {
			return nil, err
		}
		mode, c = rulesEval, out
	}
}

// show prints a state, its closures read back, within the run's print budget.
func (m *envMachine) show(mode rulesMode, c *semval.Clo, k *sem.Kind, K []envFrame) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		if mode == rulesEval {
			fmt.Fprintf(&w, "%-10s ", "eval")
		} else {
			fmt.Fprintf(&w, "%-10s ", "continue")
		}
		t, err := sem.FormatBounded(m.ReadBack(c), w.Left())
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
			hole := m.ReadBack(semval.PlugAt(f.node, f.frame.Path, semval.Leaf(sem.Var(sem.Pos{}, "[]"), nil)))
			w.WriteString(sem.FormatShort(hole, 40))
		}
		w.WriteString("]")
		return w.Result()
	})
}
