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

// TraceSymbolic shows, for every rd at any depth, the trace term C of its body and the
// derivative term W.R_V(x:T. C): on the reduction semantics with the rd's redex,
// indented by layer; on the derived stages in the order their rd's complete.
func (p dplProgram) TraceSymbolic(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error) {
	st, ad, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	fmt.Fprintf(w, "differentiation %s, stage %s\n", ad.Name(), stage)
	fmt.Fprintf(w, "term       %s\n", newPrinter(opts, interderive.NewLimits(opts, nil)).dplTerm(p.term))
	if stage != "reduction" {
		// The derived stages report an rd when its contraction is complete, with
		// neither its redex nor its layer: how many contractions the run has made
		// then places it.
		opts, steps := counting(opts)
		pr := newPrinter(opts, interderive.NewLimits(opts, func() int { return *steps }))
		a, err := st.Traced(ad, p.term, opts, func(c, d dpl.Term) {
			fmt.Fprintf(w, "\nrd (complete after contraction %d)\n", *steps)
			fmt.Fprintf(w, "  trace      %s\n", pr.dplTerm(c))
			fmt.Fprintf(w, "  derivative %s\n", pr.dplTerm(d))
		})
		if err == nil {
			err = pr.err
		}
		if err != nil {
			return Outcome{Steps: *steps}, err
		}
		return traceDPLAnswer(w, pr, a, *steps)
	}
	steps := 0
	pr := newPrinter(opts, interderive.NewLimits(opts, func() int { return steps }))
	hooks := reduction.DiffHooks{
		Step: func(ev reduction.DiffEvent) {
			steps = max(steps, ev.Step)
			if ev.Trace == nil {
				return
			}
			indent := strings.Repeat("  | ", ev.Layer)
			fmt.Fprintf(w, "%s\n%srd (step %d, %s)\n", strings.TrimRight(indent, " "), indent, ev.Step, ev.Mode)
			fmt.Fprintf(w, "%s  redex      %s\n", indent, pr.dplTerm(ev.Redex.Term()))
			fmt.Fprintf(w, "%s  trace      %s\n", indent, pr.dplTerm(ev.Trace))
			fmt.Fprintf(w, "%s  derivative %s\n", indent, pr.dplTerm(ev.Derivative))
		},
	}
	a, err := reduction.EvalDiffHooks(ad, p.term, opts, hooks)
	if err == nil {
		err = pr.err
	}
	if err != nil {
		return Outcome{Steps: steps}, err
	}
	return traceDPLAnswer(w, pr, a, steps)
}
