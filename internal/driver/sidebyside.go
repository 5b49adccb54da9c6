package driver

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// A Lane is one stage's account of a run, cut at its contractions: Steps[i] holds what
// the stage did from the previous contraction up to and including contraction i+1 —
// decompositions, environment steps, machine transitions — and the last entry what it
// did after its last contraction.
type Lane struct {
	Stage  string     `json:"stage"`
	Rules  []string   `json:"rules"`
	Steps  [][]string `json:"steps"`
	Answer string     `json:"answer"`
	Error  string     `json:"error,omitempty"`
	err    error      // the error of Error
}

// SideBySide is a run of one program on every stage, aligned on the contraction
// sequence the stages share.
type SideBySide struct {
	Program string `json:"program"`
	Variant string `json:"variant"`
	// Parameter names what Variant is: "semantics" (gradual) or "ad" (dpl).
	Parameter string `json:"parameter"`
	Lanes     []Lane `json:"lanes"`
}

// SideBySider is a program that can be traced on every stage at once. The stages run
// at the same time, each in its goroutine, under the same options: one time budget
// (opts.Timeout) for them all, the memory budget of the process, and the output budget
// for every item (a longer one is cut and marked). Each stage sends its rows as they
// become final through a channel of a few rows (laneAhead), so that a stage ahead of
// the others waits for them and the trace takes memory for a few rows only, whatever
// the length of the run.
type SideBySider interface {
	// SideBySide collects the aligned trace (for --json and --html: memory grows with
	// the run, within its budgets).
	SideBySide(variant string, opts interderive.Options) (SideBySide, error)
	// WriteSideBySide writes the aligned trace as the stages go, in WriteText's
	// format, and returns the error of the first stage that did not answer (Err).
	WriteSideBySide(w io.Writer, variant string, opts interderive.Options) error
}

// Err is the error that ended the first lane that did not reach an answer (out of
// fuel, time or memory, too deep, ...), or nil when every lane answered.
func (s SideBySide) Err() error {
	for _, l := range s.Lanes {
		if l.err != nil {
			return l.err
		}
	}
	return nil
}

// laneAhead is how many final rows a lane may send before they are read.
const laneAhead = 4

// laneRow is one row of a lane as it streams: the rule of its contraction ("" for the
// row after the last contraction) and what the stage did to reach it.
type laneRow struct {
	rule  string
	lines []string
}

// lane records a stage's steps between contractions as the stage runs, printing its
// items with pr, and sends each row on out once it is final: once the contraction
// after it happened (a stage of the differentiable language may still add to the last
// contraction's row, dplLane.attach), or the run ended. It keeps only the rows not
// sent yet.
type lane struct {
	stage string
	n     int       // contractions so far
	rows  []laneRow // rows not sent yet: rows[0] is row number sent
	sent  int
	cur   []string // the row being built
	pr    *printer
	out   chan<- laneRow
	end   Lane    // the lane's outcome (Stage, Answer, Error), set before out is closed
	outc  Outcome // the outcome of a run that answered
}

func (l *lane) step(format string, args ...any) { l.cur = append(l.cur, fmt.Sprintf(format, args...)) }

// defs adds the definitions of the environments cp named since it last said.
func (l *lane) defs(cp *closures.Printer) {
	for _, d := range cp.Defs() {
		l.step("%s", d)
	}
}

// contract closes the row of contraction n+1, and sends the rows that are final.
func (l *lane) contract(rule string) {
	l.rows = append(l.rows, laneRow{rule: rule, lines: l.cur})
	l.cur = nil
	l.n++
	l.flush(l.n - 1)
}

// row is the row of contraction n (1-based) if it has not been sent, else nil.
func (l *lane) row(n int) *laneRow {
	if i := n - 1 - l.sent; i >= 0 && i < len(l.rows) {
		return &l.rows[i]
	}
	return nil
}

// flush sends the rows before row number upto.
func (l *lane) flush(upto int) {
	k := 0
	for ; l.sent < upto && k < len(l.rows); k++ {
		l.out <- l.rows[k]
		l.sent++
	}
	n := copy(l.rows, l.rows[k:])
	clear(l.rows[n:])
	l.rows = l.rows[:n]
}

// finish ends the lane: the row after the last contraction, every row sent, and the
// outcome: the answer, printed within the budgets, or the error.
func (l *lane) finish(out Outcome, err error) {
	l.rows = append(l.rows, laneRow{lines: l.cur})
	l.cur = nil
	l.flush(l.n + 1)
	l.end = Lane{Stage: l.stage, Answer: out.Value}
	l.outc = out
	if err != nil {
		l.end.Answer, l.end.Error, l.end.err = "", err.Error(), err
	}
}

// laneRun is a stage to run as a lane: run runs it with opts, recording its steps in l
// (opts.OnContract, if set, must be called at each contraction after l.contract), and
// returns its outcome, the answer printed with l.pr.
type laneRun struct {
	stage string
	run   func(l *lane, opts interderive.Options) (Outcome, error)
}

// runLanes runs the lanes at once under opts, each in its goroutine (see SideBySider),
// and calls row(i, cells) for every row i in order, cells[j] being lane j's row i (nil
// once lane j has ended). It returns the lanes once all have ended. With more than one
// lane, opts.OnContract is not called: the lanes run concurrently.
func runLanes(opts interderive.Options, runs []laneRun, row func(i int, cells []*laneRow)) []*lane {
	if len(runs) > 1 {
		opts.OnContract = nil
	}
	lanes := make([]*lane, len(runs))
	chans := make([]chan laneRow, len(runs))
	var wg sync.WaitGroup
	for j, r := range runs {
		ch := make(chan laneRow, laneAhead)
		l := &lane{stage: r.stage, out: ch}
		l.pr = newPrinter(opts, interderive.NewLimits(opts, func() int { return l.n }))
		lanes[j], chans[j] = l, ch
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ch)
			l.finish(runSafe(r, l, opts))
		}()
	}
	for i, open := 0, len(chans); open > 0; i++ {
		cells := make([]*laneRow, len(chans))
		some := false
		for j, ch := range chans {
			if ch == nil {
				continue
			}
			if r, ok := <-ch; ok {
				cells[j], some = &r, true
			} else {
				chans[j] = nil
				open--
			}
		}
		if some {
			row(i, cells)
		}
	}
	wg.Wait()
	return lanes
}

// runSafe runs a lane, a panic of the stage turned into an error, so that its lane
// always ends.
func runSafe(r laneRun, l *lane, opts interderive.Options) (out Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = Outcome{Steps: l.n}, fmt.Errorf("internal error: the %s stage panicked: %v", r.stage, p)
		}
	}()
	return r.run(l, opts)
}

// collect runs the lanes and collects the aligned trace into s.
func collect(s SideBySide, opts interderive.Options, runs []laneRun) SideBySide {
	s.Lanes = make([]Lane, len(runs))
	lanes := runLanes(opts, runs, func(_ int, cells []*laneRow) {
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
		s.Lanes[j] = l.end
		s.Lanes[j].Rules, s.Lanes[j].Steps = rules, steps
	}
	return s
}

// stream runs the lanes and writes the aligned trace as it goes, in WriteText's
// format, with s's header; it returns the first error of a lane.
func stream(w io.Writer, s SideBySide, opts interderive.Options, runs []laneRun) error {
	s.writeHeader(w)
	stages := make([]string, len(runs))
	for j, r := range runs {
		stages[j] = r.stage
	}
	lanes := runLanes(opts, runs, func(i int, cells []*laneRow) { writeRow(w, i, stages, cells) })
	for _, l := range lanes {
		s.Lanes = append(s.Lanes, l.end)
	}
	s.writeEnd(w)
	return s.Err()
}

// endCast is a gradual lane's outcome: its answer printed with the lane's printer, or
// the error that ended it.
func (l *lane) endCast(a g.Answer, err error) (Outcome, error) {
	if err != nil {
		return Outcome{Steps: l.n}, err
	}
	return l.pr.castAnswer(a, l.n)
}

// castLanes are the stages of the gradual calculi as lanes, under sem, merging or not.
func castLanes(sem g.Semantics, e g.Expr, merge bool) []laneRun {
	var runs []laneRun
	for _, st := range CastStages() {
		var run func(l *lane, o interderive.Options) (g.Answer, error)
		switch st.Name {
		case "reduction":
			run = func(l *lane, o interderive.Options) (g.Answer, error) {
				return sideReduction(l, reduction.Cast{Sem: sem, Merge: merge}, e, o)
			}
		case "closures":
			run = func(l *lane, o interderive.Options) (g.Answer, error) {
				return sideClosures(l, closures.Calculus{Sem: sem, Merge: merge}, e, o)
			}
		case "machine":
			run = func(l *lane, o interderive.Options) (g.Answer, error) {
				m := machine.New(sem, o)
				m.Trace = func(s *machine.State) { l.step("%s", s) }
				ans, err := m.Run(e)
				if err != nil {
					return g.Answer{}, err
				}
				return ans.ToAnswer(), nil
			}
		default: // cps2, interp: no intermediate states to show
			run = func(_ *lane, o interderive.Options) (g.Answer, error) { return st.Eval(sem, e, o) }
		}
		runs = append(runs, laneRun{stage: st.Name, run: func(l *lane, o interderive.Options) (Outcome, error) {
			o.OnContract = l.contract
			a, err := run(l, o)
			return l.endCast(a, interderive.InStage(err, st.Name))
		}})
	}
	return runs
}

// sideBySide prepares the side-by-side trace of a gradual program: its header, the
// options (unmerged unless opts says merged), and the lanes.
func (p gradualProgram) sideBySide(variant string, opts interderive.Options) (SideBySide, interderive.Options, []laneRun, error) {
	sem, ok := g.Lookup(variant, CastSemantics()...)
	if !ok {
		return SideBySide{}, opts, nil, fmt.Errorf("unknown semantics %q", variant)
	}
	if opts.Merging == interderive.MergeDefault {
		opts.Merging = interderive.Unmerged
	}
	e := g.Translate(sem, p.term)
	s := SideBySide{Program: newPrinter(opts, interderive.NewLimits(opts, nil)).term(e), Variant: variant, Parameter: "semantics"}
	return s, opts, castLanes(sem, e, opts.Merging == interderive.Merged), nil
}

// SideBySide runs the program on every stage under one semantics, all unmerged unless
// opts says merged, and records each stage's own steps (see SideBySider): closures
// with their environments named (closures.Printer), every item within the output
// budget. A lane that stops without an answer says why (Lane.Error, and Err).
func (p gradualProgram) SideBySide(variant string, opts interderive.Options) (SideBySide, error) {
	s, opts, runs, err := p.sideBySide(variant, opts)
	if err != nil {
		return s, err
	}
	return collect(s, opts, runs), nil
}

// WriteSideBySide is SideBySide written as the stages go.
func (p gradualProgram) WriteSideBySide(w io.Writer, variant string, opts interderive.Options) error {
	s, opts, runs, err := p.sideBySide(variant, opts)
	if err != nil {
		return err
	}
	return stream(w, s, opts, runs)
}

func sideReduction(l *lane, r reduction.Cast, e g.Expr, opts interderive.Options) (g.Answer, error) {
	fuel := interderive.NewCounter(opts)
	pr := l.pr
	for {
		step, done, err := r.Reduce(e)
		if err != nil || done {
			return step.Answer, err
		}
		l.step("decompose: %s  with redex  %s", pr.castContext(step.Context), pr.term(step.Redex.Term()))
		if c, ok := step.Redex.(*reduction.StepCst); ok {
			l.step("coercion:  %s  with redex  %s", c.CContext, g.FormatCoercion(c.CRedex))
		}
		l.step("contract:  %s", pr.term(step.Contractum))
		l.step("plug:      %s", pr.term(step.Next))
		if pr.err != nil {
			return g.Answer{}, pr.err
		}
		if err := fuel.Contract(step.Redex.Rule()); err != nil {
			return g.Answer{}, err
		}
		e = step.Next
	}
}

func sideClosures(l *lane, c closures.Calculus, e g.Expr, opts interderive.Options) (g.Answer, error) {
	fuel := interderive.NewCounter(opts)
	pr := l.pr
	cp := closures.NewPrinter(pr.budget)
	show := func(cl closures.Closure) string { return pr.item(cp.Closure(cl)) }
	var cl closures.Closure = &closures.Clo{E: e}
	for {
		step, err := c.Decompose(cl)
		if err != nil {
			return g.Answer{}, err
		}
		if step.Done {
			if step.Blamed {
				return g.Answer{Blamed: true, Blame: step.Label}, nil
			}
			return g.Answer{Value: closures.Sigma(cl)}, nil
		}
		if step.Rule == "" {
			redex, contractum := show(step.Redex), show(step.Contractum)
			l.defs(cp)
			l.step("%s: %s  ~>  %s", step.Env, redex, contractum)
		} else {
			context, redex, contractum := pr.item(cp.Context(step.Context)), show(step.Redex), show(step.Contractum)
			l.defs(cp)
			l.step("decompose: %s  with redex  %s", context, redex)
			l.step("contract:  %s", contractum)
		}
		if pr.err != nil {
			return g.Answer{}, pr.err
		}
		cl = step.Next()
		if step.Rule != "" {
			if err := fuel.Contract(step.Rule); err != nil {
				return g.Answer{}, err
			}
		}
	}
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

func (s SideBySide) writeHeader(w io.Writer) {
	fmt.Fprintf(w, "%-9s %s\nprogram   %s\n", s.Parameter, s.Variant, s.Program)
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

var page = template.Must(template.New("trace").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>interderive trace</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; }
h1 { font-size: 1.2em; } code, pre { font-family: ui-monospace, monospace; font-size: 12px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { border: 1px solid #ccc; padding: 4px; vertical-align: top; }
th { background: #eee; }
td pre { white-space: pre-wrap; word-break: break-all; margin: 0; }
tr.rule td { background: #f6f6ff; font-weight: bold; }
tr.disagree td { background: #fdd; }
tr.current td { background: #eef4ff; }
tr.current td:first-child { border-left: 4px solid #36c; }
#bar { position: sticky; top: 0; background: white; padding: .5em 0; z-index: 2; }
</style></head><body>
<h1>interderive: {{.Variant}}</h1>
<p><code>{{.Program}}</code></p>
<div id="bar"><button id="prev">&larr; previous</button> <button id="next">next &rarr;</button>
<span id="where"></span></div>
<table><thead><tr><th style="width:8em">contraction</th>{{range .Lanes}}<th>{{.Stage}}</th>{{end}}</tr></thead>
<tbody>
{{range $i, $row := .Table}}<tr class="step{{if not $row.Agree}} disagree{{end}}" id="row{{$i}}"><td>{{if $row.Rule}}{{$row.N}}. <b>{{$row.Rule}}</b>{{else}}end{{end}}</td>
{{range $row.Cells}}<td><pre>{{.}}</pre></td>{{end}}</tr>
{{end}}</tbody></table>
<p>{{range .Lanes}}<b>{{.Stage}}</b>: {{if .Error}}{{.Error}}{{else}}{{.Answer}}{{end}}<br>{{end}}</p>
<script>
let cur = 0; const rows = document.querySelectorAll("tr.step");
function show(i, scroll) {
  if (i < 0 || i >= rows.length) return;
  rows[cur].classList.remove("current"); cur = i; rows[cur].classList.add("current");
  if (scroll) rows[cur].scrollIntoView({block: "nearest"});
  document.getElementById("where").textContent = "row " + (cur + 1) + " of " + rows.length;
}
document.getElementById("prev").onclick = () => show(cur - 1, true);
document.getElementById("next").onclick = () => show(cur + 1, true);
document.addEventListener("keydown", e => { if (e.key === "ArrowDown" || e.key === "j") show(cur + 1, true); if (e.key === "ArrowUp" || e.key === "k") show(cur - 1, true); });
show(0, false);
</script></body></html>
`))

// WriteHTML writes a self-contained page in which a person can step through the
// aligned trace (buttons, or the arrow keys).
func (s SideBySide) WriteHTML(w io.Writer) error {
	type row struct {
		N     int
		Rule  string
		Agree bool
		Cells []string
	}
	var rows []row
	for i := range s.Rows() {
		rule, agree := s.Rule(i)
		r := row{N: i + 1, Rule: rule, Agree: agree}
		for _, l := range s.Lanes {
			cell := ""
			if i < len(l.Steps) {
				cell = strings.Join(l.Steps[i], "\n")
				if i < len(l.Rules) {
					cell += "\n⇒ " + l.Rules[i]
				}
			}
			r.Cells = append(r.Cells, cell)
		}
		rows = append(rows, r)
	}
	return page.Execute(w, struct {
		SideBySide
		Table []row
	}{s, rows})
}
