package machine

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/values/dplval"
)

// Differentiable is the abstract machine of the differentiable language
// (dpl.StageOf).
func (Stage) Differentiable() dpl.Stage { return diffStage{} }

type diffStage struct{}

// Eval is EvalDiff, showing every state and every rd to opts.Observer, if set.
func (diffStage) Eval(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error) {
	m := NewDiff(ad, opts, dpl.RdReporter(opts))
	if obs := opts.StepObserver(); obs != nil {
		m.Trace = func(st *DiffState) { obs.Step(st.String()) }
	}
	return m.Run(prog)
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

// formatDiffFrame shows a frame of K, [] for its hole, its terms shortened.
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
