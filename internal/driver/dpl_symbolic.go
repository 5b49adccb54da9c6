package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/reduction"
)

// SymbolicTracer is a program that can show, for every rd its run evaluates, the
// trace term of the body and the derivative term (trace --symbolic).
type SymbolicTracer interface {
	TraceSymbolic(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error)
}

// TraceSymbolic shows, for every rd at any depth, the redex, the trace term C of its
// body and the derivative term W.R_V(x:T. C), indented by layer.
func (p dplProgram) TraceSymbolic(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error) {
	_, ad, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	if stage != "reduction" {
		return Outcome{}, fmt.Errorf("trace --symbolic shows the reduction stage only, for now")
	}
	fmt.Fprintf(w, "differentiation %s, stage %s\n", ad.Name(), stage)
	fmt.Fprintf(w, "term       %s\n", dpl.Format(p.term))
	steps := 0
	hooks := reduction.DiffHooks{
		Step: func(ev reduction.DiffEvent) {
			steps = max(steps, ev.Step)
			if ev.Trace == nil {
				return
			}
			indent := strings.Repeat("  | ", ev.Layer)
			fmt.Fprintf(w, "%s\n%srd (step %d, %s)\n", strings.TrimRight(indent, " "), indent, ev.Step, ev.Mode)
			fmt.Fprintf(w, "%s  redex      %s\n", indent, dpl.Format(ev.Redex.Term()))
			fmt.Fprintf(w, "%s  trace      %s\n", indent, dpl.Format(ev.Trace))
			fmt.Fprintf(w, "%s  derivative %s\n", indent, dpl.Format(ev.Derivative))
		},
	}
	a, err := reduction.EvalDiffHooks(ad, p.term, opts, hooks)
	if err != nil {
		return Outcome{Steps: steps}, err
	}
	fmt.Fprintf(w, "\nanswer     %s\n", a)
	return dplOutcome(a, steps), nil
}
