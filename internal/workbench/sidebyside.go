package workbench

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
)

// A Lane is one stage's account of a run, cut at its contractions: Steps[i] holds what
// the stage did from the previous contraction up to and including contraction i+1 (see
// lane for where each line goes), and the last entry what it did after its last
// contraction.
type Lane struct {
	Stage  string     `json:"stage"`
	Rules  []string   `json:"rules"`
	Steps  [][]string `json:"steps"`
	Answer string     `json:"answer"`
	Error  string     `json:"error,omitempty"`
	// Limit says that the run stopped at a resource limit (Error says which).
	Limit bool  `json:"limit,omitempty"`
	err   error // the error of Error
}

// SideBySide is a run of one program on every stage of its calculus, aligned on the
// contraction sequence the stages share.
type SideBySide struct {
	// Calculus is the calculus's name; Language and Definition name the language a
	// definition file declares and the file (Defined: a rule file's), empty for a
	// calculus of the registry.
	Calculus   string `json:"calculus"`
	Language   string `json:"language,omitempty"`
	Definition string `json:"definition,omitempty"`
	// File is the program's file, as the command was given it: the caller sets it
	// ("" when there is none).
	File    string `json:"file,omitempty"`
	Program string `json:"program"`
	Variant string `json:"variant"`
	// Parameter names what Variant is: the variant parameter's flag.
	Parameter string `json:"parameter"`
	Mode      string `json:"mode"`
	// Reference is the calculus's reference stage, whose lane locates each step's
	// redex and contractum (Steps).
	Reference string `json:"reference"`
	Lanes     []Lane `json:"lanes"`
}

// Err is the error that ended the first lane that did not reach an answer (out of
// fuel, time or memory, too deep, stuck, ...), or nil when every lane answered.
func (s SideBySide) Err() error {
	for _, l := range s.Lanes {
		if l.err != nil {
			return l.err
		}
	}
	return nil
}

// Limited are the stages whose runs stopped at a resource limit.
func (s SideBySide) Limited() []string {
	var stages []string
	for _, l := range s.Lanes {
		if l.Limit {
			stages = append(stages, l.Stage)
		}
	}
	return stages
}

// sideBySide prepares the side-by-side trace of a program: its header (the program
// printed within the budgets), the options in the mode named ("" is the reference
// mode), and the calculus's stages.
func (w *Workbench) sideBySide(c Calculus, prog Program, variant, mode string, opts interderive.Options) (SideBySide, interderive.Options, []interderive.Stage, error) {
	stages := w.StagesOf(c)
	if len(stages) == 0 {
		return SideBySide{}, opts, nil, fmt.Errorf("calculus %s is not registered", c.Name())
	}
	v, err := w.VariantFor(c, variant)
	if err != nil {
		return SideBySide{}, opts, nil, err
	}
	m, err := w.ModeFor(c, v, mode)
	if err != nil {
		return SideBySide{}, opts, nil, err
	}
	m.Apply(&opts)
	if err := prepare(c, v); err != nil {
		return SideBySide{}, opts, nil, err
	}
	stages = w.StagesUnder(c, v)
	s := SideBySide{Calculus: c.Name(), Program: source(prog, opts), Variant: v, Parameter: c.Variant().Flag, Mode: m.Name}
	if d, ok := c.(Defined); ok {
		s.Language, s.Definition = d.Defined()
	}
	if r := w.Reference(c); r != nil {
		s.Reference = r.Name()
	}
	return s, opts, stages, nil
}

// source is the program printed within the output budget and the time and memory
// budgets of opts: cut and marked when it is longer than the output budget, cut short
// with "…" when a budget ran out while it printed.
func source(prog Program, opts interderive.Options) string {
	b := opts.PrintBudget(interderive.NewLimits(opts, nil))
	s, err := prog.Source(b)
	switch {
	case err == nil:
		return s
	case errors.Is(err, interderive.ErrOutputLimit):
		return interderive.Cut(s, b.Max) + elided(b.Max)
	}
	return s + " …"
}

// SideBySide runs the program on every stage of its calculus at once under one
// variant, in the mode named ("" is the reference mode), and collects the aligned
// trace (for --json and --html: memory grows with the run, within its budgets). The
// stages run within the same budgets (opts): one time budget for them all, the memory
// budget of the process, and the output budget for every item. A lane that stops
// without an answer says why (Lane.Error, Lane.Limit, and Err).
func (w *Workbench) SideBySide(c Calculus, prog Program, variant, mode string, opts interderive.Options) (SideBySide, error) {
	s, opts, stages, err := w.sideBySide(c, prog, variant, mode, opts)
	if err != nil {
		return s, err
	}
	s.Lanes = make([]Lane, len(stages))
	lanes := runLanes(prog, stages, s.Variant, opts, func(_ int, cells []*laneRow) {
		for j, c := range cells {
			if c == nil {
				continue
			}
			if c.rule != "" {
				s.Lanes[j].Rules = append(s.Lanes[j].Rules, c.rule)
			}
			lines := c.lines
			if lines == nil {
				lines = []string{} // in JSON [], not null
			}
			s.Lanes[j].Steps = append(s.Lanes[j].Steps, lines)
		}
	})
	for j, l := range lanes {
		rules, steps := s.Lanes[j].Rules, s.Lanes[j].Steps
		if rules == nil {
			rules = []string{}
		}
		s.Lanes[j] = l.end
		s.Lanes[j].Rules, s.Lanes[j].Steps = rules, steps
	}
	return s, nil
}

// WriteSideBySide is SideBySide written as the stages go, in WriteText's format, in
// memory that does not grow with the run but for the lanes' rule logs. It returns the
// error of the first stage that did not answer (SideBySide.Err), once everything is
// written.
func (w *Workbench) WriteSideBySide(out io.Writer, c Calculus, prog Program, variant, mode string, opts interderive.Options) error {
	s, opts, stages, err := w.sideBySide(c, prog, variant, mode, opts)
	if err != nil {
		return err
	}
	s.writeHeader(out)
	names := stageNames(stages)
	lanes := runLanes(prog, stages, s.Variant, opts, func(i int, cells []*laneRow) { writeRow(out, i, names, cells) })
	for _, l := range lanes {
		s.Lanes = append(s.Lanes, l.end)
	}
	s.writeEnd(out)
	return s.Err()
}

// Rows is the number of rows of the aligned trace: one per contraction of the longest
// lane, and one for what follows the last.
func (s SideBySide) Rows() int {
	n := 0
	for _, l := range s.Lanes {
		n = max(n, len(l.Steps))
	}
	return n
}

// Rule is the rule of row i (empty for the final row), and whether every lane agrees.
func (s SideBySide) Rule(i int) (string, bool) {
	return rowRule(s.cells(i))
}

// cells are the lanes' rows i (nil where a lane has none).
func (s SideBySide) cells(i int) []*laneRow {
	cells := make([]*laneRow, len(s.Lanes))
	for j, l := range s.Lanes {
		if i < len(l.Steps) {
			r := laneRow{lines: l.Steps[i]}
			if i < len(l.Rules) {
				r.rule = l.Rules[i]
			}
			cells[j] = &r
		}
	}
	return cells
}

// rowRule is the rule of a row (empty for a final row), and whether every lane agrees
// on it (a lane without the row has the empty rule).
func rowRule(cells []*laneRow) (string, bool) {
	rule, agree := "", true
	for j, c := range cells {
		r := ""
		if c != nil {
			r = c.rule
		}
		if j == 0 {
			rule = r
		} else if r != rule {
			agree = false
		}
	}
	return rule, agree
}

// WriteText prints the aligned trace for a terminal: each contraction, then what each
// stage did to reach it.
func (s SideBySide) WriteText(w io.Writer) {
	s.writeHeader(w)
	stages := make([]string, len(s.Lanes))
	for j, l := range s.Lanes {
		stages[j] = l.Stage
	}
	for i := range s.Rows() {
		writeRow(w, i, stages, s.cells(i))
	}
	s.writeEnd(w)
}

// writeRow prints row i: the contraction, then what each stage did to reach it.
func writeRow(w io.Writer, i int, stages []string, cells []*laneRow) {
	rule, agree := rowRule(cells)
	switch {
	case rule == "":
		fmt.Fprintf(w, "\nafter the last contraction\n")
	case agree:
		fmt.Fprintf(w, "\ncontraction %d: %s\n", i+1, rule)
	default:
		fmt.Fprintf(w, "\ncontraction %d: THE STAGES DISAGREE\n", i+1)
	}
	for j, c := range cells {
		if c == nil {
			continue
		}
		r := ""
		if c.rule != "" && !agree {
			r = " (" + c.rule + ")"
		}
		fmt.Fprintf(w, "  %s%s\n", stages[j], r)
		if len(c.lines) == 0 && c.rule != "" {
			fmt.Fprintf(w, "      (no intermediate state to show)\n")
		}
		for _, line := range c.lines {
			fmt.Fprintf(w, "      %s\n", strings.ReplaceAll(line, "\n", "\n      "))
		}
	}
}

// writeHeader prints the variant's flag and value (a rule file's language and file:
// VariantLabel), and the program.
func (s SideBySide) writeHeader(w io.Writer) {
	parameter, variant := s.Parameter, s.Variant
	if s.Definition != "" {
		parameter, variant = "language", s.Language+" ("+s.Definition+")"
	}
	fmt.Fprintf(w, "%-9s %s\nprogram   %s\n", parameter, variant, s.Program)
}

// writeEnd prints each lane's answer, or what stopped it.
func (s SideBySide) writeEnd(w io.Writer) {
	fmt.Fprintln(w)
	for _, l := range s.Lanes {
		if l.Error != "" {
			fmt.Fprintf(w, "%-10s %s\n", l.Stage, l.Error)
		} else {
			fmt.Fprintf(w, "%-10s %s\n", l.Stage, l.Answer)
		}
	}
}
