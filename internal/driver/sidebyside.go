package driver

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

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

// SideBySider is a program that can be traced on every stage at once.
type SideBySider interface {
	SideBySide(variant string, opts interderive.Options) (SideBySide, error)
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

// lane collects a stage's steps between contractions, printing its items with pr.
type lane struct {
	Lane
	cur []string
	pr  *printer
}

func (l *lane) step(format string, args ...any) { l.cur = append(l.cur, fmt.Sprintf(format, args...)) }

// defs adds the definitions of the environments cp named since it last said.
func (l *lane) defs(cp *closures.Printer) {
	for _, d := range cp.Defs() {
		l.step("%s", d)
	}
}

func (l *lane) contract(rule string) {
	l.Rules = append(l.Rules, rule)
	l.Steps = append(l.Steps, l.cur)
	l.cur = nil
}

func (l *lane) end(a g.Answer, err error) Lane {
	l.Steps = append(l.Steps, l.cur)
	if err == nil {
		var out Outcome
		if out, err = l.pr.castAnswer(a, len(l.Rules)); err == nil {
			l.Answer = out.Value
		}
	}
	if err != nil {
		l.Error, l.err = err.Error(), err
	}
	return l.Lane
}

// laneOptions are the options of the next lane of a side-by-side trace whose time
// budget ends at deadline (zero: none): the time left, or ok false when none is.
func laneOptions(opts interderive.Options, deadline time.Time) (interderive.Options, bool) {
	if opts.Timeout > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return opts, false
		}
		opts.Timeout = left
	}
	return opts, true
}

// laneError is the error that ended a lane, a time limit reported as the whole
// trace's (the lane had only what the lanes before it left).
func laneError(err error, opts interderive.Options) error {
	var te *interderive.TimeoutError
	if errors.As(err, &te) {
		return &interderive.TimeoutError{Limit: opts.Timeout, Steps: te.Steps}
	}
	return err
}

// SideBySide runs the program on every stage under one semantics, all unmerged unless
// opts says merged, and records each stage's own steps. The stages run one after the
// other within one time budget, opts.Timeout (each has what the ones before it left),
// and every item is printed within the output budget (closures with their
// environments named, closures.Printer). A lane that stops without an answer says why
// (Lane.Error, and SideBySide.Err).
func (p gradualProgram) SideBySide(variant string, opts interderive.Options) (SideBySide, error) {
	sem, ok := g.Lookup(variant, CastSemantics()...)
	if !ok {
		return SideBySide{}, fmt.Errorf("unknown semantics %q", variant)
	}
	if opts.Merging == interderive.MergeDefault {
		opts.Merging = interderive.Unmerged
	}
	deadline := time.Now().Add(opts.Timeout)
	e := g.Translate(sem, p.term)
	out := SideBySide{Program: newPrinter(opts, interderive.NewLimits(opts, nil)).term(e), Variant: variant, Parameter: "semantics"}
	merge := opts.Merging == interderive.Merged
	for _, st := range CastStages() {
		l := &lane{Lane: Lane{Stage: st.Name}}
		o, ok := laneOptions(opts, deadline)
		l.pr = newPrinter(o, interderive.NewLimits(o, func() int { return len(l.Rules) }))
		if !ok {
			out.Lanes = append(out.Lanes, l.end(g.Answer{}, &interderive.TimeoutError{Limit: opts.Timeout}))
			continue
		}
		o.OnContract = l.contract
		var a g.Answer
		var err error
		switch st.Name {
		case "reduction":
			a, err = sideReduction(l, reduction.Cast{Sem: sem, Merge: merge}, e, o)
		case "closures":
			a, err = sideClosures(l, closures.Calculus{Sem: sem, Merge: merge}, e, o)
		case "machine":
			m := machine.New(sem, o)
			m.Trace = func(s *machine.State) { l.step("%s", s) }
			var ans interface{ ToAnswer() g.Answer }
			if ans, err = m.Run(e); err == nil {
				a = ans.ToAnswer()
			}
		default: // cps2, interp: no intermediate states to show
			a, err = st.Eval(sem, e, o)
		}
		out.Lanes = append(out.Lanes, l.end(a, laneError(err, opts)))
	}
	return out, nil
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
	rule, agree := "", true
	for j, l := range s.Lanes {
		r := ""
		if i < len(l.Rules) {
			r = l.Rules[i]
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
	fmt.Fprintf(w, "%-9s %s\nprogram   %s\n", s.Parameter, s.Variant, s.Program)
	for i := range s.Rows() {
		rule, agree := s.Rule(i)
		switch {
		case rule == "":
			fmt.Fprintf(w, "\nafter the last contraction\n")
		case agree:
			fmt.Fprintf(w, "\ncontraction %d: %s\n", i+1, rule)
		default:
			fmt.Fprintf(w, "\ncontraction %d: THE STAGES DISAGREE\n", i+1)
		}
		for _, l := range s.Lanes {
			if i >= len(l.Steps) {
				continue
			}
			r := ""
			if i < len(l.Rules) && !agree {
				r = " (" + l.Rules[i] + ")"
			}
			fmt.Fprintf(w, "  %s%s\n", l.Stage, r)
			if len(l.Steps[i]) == 0 && i < len(l.Rules) {
				fmt.Fprintf(w, "      (no intermediate state to show)\n")
			}
			for _, line := range l.Steps[i] {
				fmt.Fprintf(w, "      %s\n", strings.ReplaceAll(line, "\n", "\n      "))
			}
		}
	}
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
