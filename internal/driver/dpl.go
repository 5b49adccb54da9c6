package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// DPLStage is one derivation stage of the differentiable language: it runs an
// elaborated, well-typed program under a differentiation strategy. Traced runs it
// reporting, for every rd it evaluates (at any depth), the trace term of the body and
// the derivative term, when the rd's contraction completes — as the reference
// semantics does: an rd whose contraction does not complete (its derivative, inside
// a symbolic context, is undefined or runs out of fuel) is not reported.
type DPLStage struct {
	Name   string
	Eval   func(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options) (dpl.Answer, error)
	Traced func(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error)
}

// DPLStages lists the stages of the differentiable language in derivation order.
func DPLStages() []DPLStage {
	return []DPLStage{
		{"reduction", reduction.EvalDiff, reductionTraced},
		{"closures", closures.EvalDiff, closures.EvalDiffTraced},
		{"machine", machine.EvalDiff, machine.EvalDiffTraced},
		{"cps2", cps2.EvalDiff, cps2.EvalDiffTraced},
		{"interp", interp.EvalDiff, interp.EvalDiffTraced},
	}
}

// reductionTraced is EvalDiff reporting every rd's trace and derivative.
func reductionTraced(ad dpl.Differentiator, prog dpl.Term, opts interderive.Options, onRd func(trace, derivative dpl.Term)) (dpl.Answer, error) {
	return reduction.EvalDiffHooks(ad, prog, opts, reduction.DiffHooks{Step: func(ev reduction.DiffEvent) {
		if ev.Trace != nil {
			onRd(ev.Trace, ev.Derivative)
		}
	}})
}

// DPL is the differentiable language of Abadi & Plotkin (files *.dpl). Its variants are
// the differentiation strategies (pruned, the default, figure6 and tape); an answer is a
// value, printed in input syntax (12, <3, 2>, ()), or undefined.
func DPL() Language { return dplLang{} }

type dplLang struct{}

func (dplLang) Name() string { return "dpl" }

func (dplLang) Variants() []string {
	var names []string
	for _, d := range dpl.Differentiators() {
		names = append(names, d.Name())
	}
	return names
}

func (dplLang) DefaultVariant() string { return dpl.Tape.Name() }

func (dplLang) Stages() []string {
	var names []string
	for _, s := range DPLStages() {
		names = append(names, s.Name)
	}
	return names
}

// Load parses and type-checks (and elaborates) a program.
func (dplLang) Load(src []byte) (Program, error) {
	if err := checkSize(src); err != nil {
		return nil, err
	}
	t, err := dpl.Parse(src)
	if err != nil {
		return nil, &LoadError{Phase: "syntax", Err: err}
	}
	t, _, err = dpl.Check(t)
	if err != nil {
		return nil, &LoadError{Phase: "type", Err: err}
	}
	return dplProgram{term: t}, nil
}

// dplProgram is an elaborated, well-typed program.
type dplProgram struct{ term dpl.Term }

func (p dplProgram) prepare(stage, variant string) (DPLStage, dpl.Differentiator, error) {
	ad, ok := dpl.LookupDifferentiator(variant)
	if !ok {
		return DPLStage{}, nil, fmt.Errorf("unknown differentiation strategy %q", variant)
	}
	for _, s := range DPLStages() {
		if s.Name == stage {
			return s, ad, nil
		}
	}
	return DPLStage{}, nil, fmt.Errorf("stage %q is not available for dpl", stage)
}

func (p dplProgram) Run(stage, variant string, opts interderive.Options) (Outcome, error) {
	st, ad, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	opts, steps := counting(opts)
	limits := interderive.NewLimits(opts, func() int { return *steps })
	a, err := st.Eval(ad, p.term, opts)
	if err != nil {
		return Outcome{Steps: *steps}, interderive.InStage(err, stage)
	}
	return newPrinter(opts, limits).dplAnswer(a, *steps)
}

// Trace shows the steps of a run as the stage takes them. For the reduction semantics,
// every step, nested layers indented under the step that started them: for each
// contraction the rule, the context and the redex; for ordinary steps the contractum
// and the whole term after the step; for symbolic steps what the trace grows by; and
// for every rd, at any depth, the trace term of its body and the derivative term. For
// the derived stages, their lane of the side-by-side trace (traceLane).
func (p dplProgram) Trace(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error) {
	st, ad, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	fmt.Fprintf(w, "differentiation %s, stage %s\n", ad.Name(), stage)
	fmt.Fprintf(w, "term       %s\n", newPrinter(opts, interderive.NewLimits(opts, nil)).dplTerm(p.term))
	if stage != "reduction" {
		return p.traceLane(w, st, ad, opts)
	}
	steps := 0
	pr := newPrinter(opts, interderive.NewLimits(opts, func() int { return steps }))
	line := func(layer int, label, text string) {
		fmt.Fprintf(w, "%s  %-10s %s\n", strings.Repeat("  | ", layer), label, strings.ReplaceAll(text, "\n", " "))
	}
	hooks := reduction.DiffHooks{
		Redex: func(ev reduction.DiffEvent) {
			steps = ev.Step
			indent := strings.Repeat("  | ", ev.Layer)
			fmt.Fprintf(w, "%s\n%sstep %d: %s", strings.TrimRight(indent, " "), indent, ev.Step, ev.Rule)
			if ev.Layer > 0 {
				fmt.Fprintf(w, "   (layer %d, %s)", ev.Layer, ev.Mode)
			}
			fmt.Fprintln(w)
			line(ev.Layer, "context", pr.dplContext(ev.Context))
			line(ev.Layer, "redex", pr.dplTerm(ev.Redex.Term()))
		},
		Step: func(ev reduction.DiffEvent) {
			if ev.Trace != nil {
				line(ev.Layer, "trace", pr.dplTerm(ev.Trace))
				line(ev.Layer, "derivative", pr.dplTerm(ev.Derivative))
			}
			if ev.Mode == reduction.DiffSymbolic {
				if ev.Binding != nil {
					line(ev.Layer, "trace +=", pr.binding(ev.Binding))
				}
				if ev.Finished != nil {
					line(ev.Layer, "finished", pr.dplTerm(ev.Finished))
					return
				}
			} else {
				line(ev.Layer, "contractum", pr.dplTerm(ev.Contractum))
			}
			line(ev.Layer, "term", pr.dplTerm(ev.Next))
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

// traceDPLAnswer prints a trace's last line, the answer, within the printer's budgets,
// and returns the outcome (or why the answer does not print).
func traceDPLAnswer(w io.Writer, pr *printer, a dpl.Answer, steps int) (Outcome, error) {
	out, err := pr.dplAnswer(a, steps)
	if err == nil {
		fmt.Fprintf(w, "\nanswer     %s\n", out.Value)
	}
	return out, err
}

// traceLane shows a derived stage's run as its lane of the side-by-side trace: for each
// contraction, what the stage did to reach it (the calculus of closures'
// decompositions and environment steps, the machine's states; cps2 and interp have
// only their contractions to show), and, where an rd's contraction completes, the
// trace term of its body and its derivative. A row is printed once the contraction
// after it has happened, when nothing can be added to it any more (dplLane.attach), so
// that a long run streams.
func (p dplProgram) traceLane(w io.Writer, st DPLStage, ad dpl.Differentiator, opts interderive.Options) (Outcome, error) {
	spaced := true // a blank line before the next header
	lanes := runLanes(opts, p.dplLanes(ad, []DPLStage{st}), func(i int, cells []*laneRow) {
		row := cells[0]
		if len(row.lines) > 0 || !spaced {
			fmt.Fprintln(w) // a row of contractions only (cps2, interp) stays compact
		}
		spaced = len(row.lines) == 0
		if row.rule != "" {
			fmt.Fprintf(w, "contraction %d: %s\n", i+1, row.rule)
		} else if len(row.lines) > 0 {
			fmt.Fprintf(w, "after the last contraction\n")
		}
		for _, line := range row.lines {
			fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(line, "\n", "\n  "))
		}
	})
	l := lanes[0]
	if l.end.err != nil {
		return Outcome{Steps: l.n}, l.end.err
	}
	fmt.Fprintf(w, "\nanswer     %s\n", l.end.Answer)
	return l.outc, nil
}
