package workbench

import (
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
)

// prepareOne checks the names of a trace of one stage: the stage ("" is the
// calculus's reference), the variant ("" is the default) and the mode ("" is none:
// the options as given, each stage in its own default, as run has it), and applies
// the mode to the options.
func (w *Workbench) prepareOne(c Calculus, stage, variant, mode string, opts interderive.Options) (interderive.Stage, string, interderive.Options, error) {
	if stage == "" {
		if r := w.Reference(c); r != nil {
			stage = r.Name()
		}
	}
	s, err := w.StageFor(c, stage)
	if err != nil {
		return nil, "", opts, err
	}
	v, err := w.VariantFor(c, variant)
	if err != nil {
		return nil, "", opts, err
	}
	if mode != "" {
		m, err := w.ModeFor(c, v, mode)
		if err != nil {
			return nil, "", opts, err
		}
		m.Apply(&opts)
	}
	return s, v, opts, nil
}

// writeTraceHeader prints the header of a trace of one stage: "FLAG VARIANT, stage
// STAGE" and the program.
func writeTraceHeader(out io.Writer, c Calculus, prog Program, s interderive.Stage, variant string, opts interderive.Options) {
	fmt.Fprintf(out, "%s %s, stage %s\n", c.Variant().Flag, variant, s.Name())
	fmt.Fprintf(out, "%-10s %s\n", "program", source(prog, opts))
}

// Trace shows a run on one stage as that stage's lane of the side-by-side trace,
// streamed: for each contraction, "contraction N: RULE" and what the stage did to
// reach it (its Steps and the lines About it, and the lines of the contractions that
// complete there), each row printed once it is final, so that a long run streams in
// memory that does not grow with it (but for the lane's rule log); a row of a
// contraction alone (a stage with nothing to show between its contractions) stays
// compact. It ends with "answer     VALUE" (Outcome.Value); a run that stops without
// an answer returns its error, everything before it written. The stage is the
// calculus's reference for "", the variant its default for "", and the mode, when
// named, is applied to opts (with none, each stage runs in its own default).
func (w *Workbench) Trace(out io.Writer, c Calculus, prog Program, stage, variant, mode string, opts interderive.Options) (Outcome, error) {
	s, v, opts, err := w.prepareOne(c, stage, variant, mode, opts)
	if err != nil {
		return Outcome{}, err
	}
	writeTraceHeader(out, c, prog, s, v, opts)
	spaced := true // a blank line before the next header
	lanes := runLanes(prog, []interderive.Stage{s}, v, opts, func(i int, cells []*laneRow) {
		row := cells[0]
		if len(row.lines) > 0 || !spaced {
			fmt.Fprintln(out) // a row of contractions only stays compact
		}
		spaced = len(row.lines) == 0
		if row.rule != "" {
			fmt.Fprintf(out, "contraction %d: %s\n", i+1, row.rule)
		} else if len(row.lines) > 0 {
			fmt.Fprintf(out, "after the last contraction\n")
		}
		for _, line := range row.lines {
			fmt.Fprintf(out, "  %s\n", strings.ReplaceAll(line, "\n", "\n  "))
		}
	})
	l := lanes[0]
	if l.end.err != nil {
		return Outcome{Steps: l.n}, l.end.err
	}
	fmt.Fprintf(out, "\n%-10s %s\n", "answer", l.end.Answer)
	return l.outc, nil
}

// reportTracer is the observer of TraceReports: it prints each report as it comes,
// under the contraction it is about.
type reportTracer struct {
	out   io.Writer
	n     int // contractions so far
	last  int // the contraction the last report was about, 0 before any
	rules ruleLog
	max   int // the longest line printed whole, 0 for no bound
}

func (r *reportTracer) contract(rule string) {
	r.n++
	r.rules.add(rule)
}

// Step is not shown.
func (*reportTracer) Step(string) {}

// About is not shown.
func (*reportTracer) About(int, string) {}

// Report prints "contraction N (RULE)" before the first report about N in a row, then
// the line.
func (r *reportTracer) Report(n int, _ string, _ any, line string) {
	if r.max > 0 && len(line) > r.max {
		line = interderive.Cut(line, r.max-markRoom) + elided(r.max-markRoom)
	}
	if n != r.last {
		fmt.Fprintf(r.out, "\ncontraction %d (%s)\n", n, r.rules.at(n))
		r.last = n
	}
	fmt.Fprintf(r.out, "  %s\n", strings.ReplaceAll(line, "\n", "\n  "))
}

// TraceReports shows only what a run on one stage reports (interderive.Observer.Report:
// trace --symbolic shows every rd's trace and derivative): for each contraction with
// reports, "contraction N (RULE)" and its report lines, as they come; it ends with
// "answer     VALUE". The names are taken as Trace takes them.
func (w *Workbench) TraceReports(out io.Writer, c Calculus, prog Program, stage, variant, mode string, opts interderive.Options) (Outcome, error) {
	s, v, opts, err := w.prepareOne(c, stage, variant, mode, opts)
	if err != nil {
		return Outcome{}, err
	}
	writeTraceHeader(out, c, prog, s, v, opts)
	r := &reportTracer{out: out}
	if opts.Output > 0 {
		r.max = opts.Output + markRoom
	}
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		r.contract(rule)
		if on != nil {
			on(rule)
		}
	}
	opts.Observer = r
	o, err := runSafely(prog, s, v, opts)
	if err != nil {
		return o, err
	}
	fmt.Fprintf(out, "\n%-10s %s\n", "answer", o.Value)
	return o, nil
}
