package interp

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// The interpreter of a rule-defined calculus (sem) is its CPS evaluator
// (cps2/rules.go) back in direct style: the continuations become the Go stack, interp
// returns a value where the evaluator passed it to a continuation, and the code of a
// frame's continuation, resume, follows the call that evaluated the frame's hole:
//
//	interp(c, k)    c a value of k              = c
//	                c enters frame f of k       = resume(f, n, interp(f's hole of n, f's hole kind))   (n: c expanded)
//	                otherwise, rule r contracts c to c'
//	                                            = interp(c', k)                 r
//	resume(f, n, v) f[v] enters a frame g of f's kind after f
//	                                            = resume(g, f[v], interp(g's hole, g's hole kind))
//	                f[v] a value of f's kind    = f[v]
//	                otherwise, rule r contracts f[v] to c'
//	                                            = interp(c', f's kind)          r
//
// The calls in tail position (interp of a contractum, resume after resume) are
// iterations of loops rather than Go calls; the evaluation of a frame's hole is a
// call of interp, bounded by MaxDepth. Direct style is allowed when no rule captures
// its context (a rule that matches the context up to a delimiter would need the
// continuation as a value): no rule of the language can yet, so every rule file that
// qualifies for closures (semval.Qualifies) has its interpreter; the others are
// refused, saying why.

// Rules is the interpreter derived from a rule file (sem.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesInterpreter holds one run: the meta-level over closures, the fuel, and the
// depth of interp's recursion.
type rulesInterpreter struct {
	semval.Meta
	fuel  *interderive.Counter
	depth int
}

// ErrNotQualified is the error of a rule file this stage does not run: a pattern of
// it matches a variable occurrence, which closures look up instead.
var ErrNotQualified = fmt.Errorf("the interpreter runs only rule files whose patterns match no variable occurrence in a term position (docs/rules.md)")

// Eval runs a closed term and reads the answer back.
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	if !semval.Qualifies(l) {
		return sem.Answer{}, ErrNotQualified
	}
	in := &rulesInterpreter{Meta: semval.NewMeta(l), fuel: interderive.NewCounter(opts)}
	v, err := in.interp(semval.Leaf(t, nil), l.Root())
	if err != nil {
		return sem.Answer{}, err
	}
	return sem.Answer{Value: in.ReadBack(v)}, nil
}

// interp evaluates the closure c of kind k to a value, within the depth bound.
func (in *rulesInterpreter) interp(c *semval.Clo, k *sem.Kind) (*semval.Clo, error) {
	if in.depth >= MaxDepth {
		return nil, &interderive.DepthError{What: "interpreter recursion", Limit: MaxDepth}
	}
	in.depth++
	v, err := in.eval(c, k)
	in.depth--
	return v, err
}

// eval is interp's body: one iteration per contractum (a tail call).
func (in *rulesInterpreter) eval(c *semval.Clo, k *sem.Kind) (*semval.Clo, error) {
	for {
		c = semval.Resolve(c) // look-up: an environment step
		if c.T != nil && c.T.Op == sem.TermVar {
			return nil, interderive.Stuck(c.T.Name, "free variable %s", c.T.Name)
		}
		if in.IsValue(c, k) {
			return c, nil
		}
		if f, ok := in.FindFrame(c, k, 0); ok {
			p, err := in.resume(f, semval.View(c))
			if err != nil {
				return nil, err
			}
			if in.IsValue(p, k) {
				return p, nil
			}
			c = p
		}
		// c is a potential redex of k: contract it, and evaluate the contractum in its
		// place.
		cc, err := in.Contract(c, k, nil, nil)
		out, r := cc.Clo, cc.Rule
		if err != nil {
			return nil, err
		}
		if err := in.fuel.Contract(r.Name); err != nil {
			return nil, err
		}
		c = out
	}
}

// resume evaluates the hole of frame f of the expanded closure n, plugs its value
// back and resumes the search after f, as long as a next frame applies; then it
// returns the plugged closure: a value of f's kind, or a potential redex of it.
func (in *rulesInterpreter) resume(f *sem.Frame, n *semval.Clo) (*semval.Clo, error) {
	for {
		v, err := in.interp(semval.At(n, f.Path), f.Hole)
		if err != nil {
			return nil, err
		}
		c := semval.PlugAt(n, f.Path, v)
		g, ok := in.FindFrame(c, f.Kind, f.Index+1)
		if !ok {
			return c, nil
		}
		f, n = g, semval.View(c)
	}
}
