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
	v, err := w.VariantFor(c, variant)
	if err != nil {
		return nil, "", opts, err
	}
	if err := prepare(c, v); err != nil {
		return nil, "", opts, err
	}
	s, err := w.StageUnder(c, v, stage, opts.Engine)
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
// STAGE" (a rule file's: "language NAME (FILE), stage STAGE": VariantLabel) and the
// program.
func writeTraceHeader(out io.Writer, c Calculus, prog Program, s interderive.Stage, variant string, opts interderive.Options) {
	parameter, label := VariantLabel(c, variant)
	fmt.Fprintf(out, "%s %s, stage %s\n", parameter, label, s.Name())
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
	out io.Writer
	n   int // contractions so far
	// last is what the last report was about: contraction n > 0, or, for a report
	// whose stage did not know its contraction, -1-k where k is the number of
	// contractions made before it; 0 before any report.
	last  int
	rules ruleLog
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
// the line. A report whose stage does not know its contraction (n = 0) goes under
// "after contraction K (RULE)", K the contractions made so far ("before the first
// contraction" if none).
func (r *reportTracer) Report(n int, _ string, _ any, line string) {
	key := n
	if n <= 0 {
		key = -1 - r.n
	}
	if key != r.last {
		switch {
		case n > 0:
			fmt.Fprintf(r.out, "\ncontraction %d (%s)\n", n, r.rules.at(n))
		case r.n == 0:
			fmt.Fprintf(r.out, "\nbefore the first contraction\n")
		default:
			fmt.Fprintf(r.out, "\nafter contraction %d (%s)\n", r.n, r.rules.at(r.n))
		}
		r.last = key
	}
	fmt.Fprintf(r.out, "  %s\n", strings.ReplaceAll(line, "\n", "\n  "))
}

// TraceReports shows only what a run on one stage reports (interderive.Observer.Report:
// trace --reports): for each contraction with
// reports, "contraction N (RULE)" and its report lines, as they come (see
// reportTracer.Report for a report whose contraction the stage does not know); it ends
// with "answer     VALUE". The names are taken as Trace takes them.
func (w *Workbench) TraceReports(out io.Writer, c Calculus, prog Program, stage, variant, mode string, opts interderive.Options) (Outcome, error) {
	s, v, opts, err := w.prepareOne(c, stage, variant, mode, opts)
	if err != nil {
		return Outcome{}, err
	}
	writeTraceHeader(out, c, prog, s, v, opts)
	r := &reportTracer{out: out}
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
