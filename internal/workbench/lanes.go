package workbench

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/interderive/interderive"
)

// A lane is one stage's account of a run, cut at its contractions, built from what
// the stage tells its observers alone: the contractions (interderive.Options.OnContract)
// and its own steps and reports (interderive.Observer). A lane is an Observer. Row i
// holds what the stage did up to and including contraction i, and the last row what
// it did after its last contraction. The placement rules:
//
//   - Step(line) goes to the row being built (the row of the contraction to come);
//   - About(n, line) goes under the header for n if the row being built has it; else
//     to row n if n is the last contraction so far (which may still grow); else the
//     header "contraction n (RULE) completes" is added to the row being built (indented
//     like the line: its leading run of "| ") and the line follows it;
//   - Report(n, label, value, line) adds the header for n to the row being built,
//     unless it is there already (or the stage does not know n: n = 0), then the
//     line;
//   - a contraction closes the row being built (row n, once contraction n happens) and
//     starts a new one, which has no header.
//
// A row is final once the contraction after it has happened (nothing can be added to
// it then) or the run has ended, and is sent on then, so that a lane keeps only the
// rows not sent yet. A line is kept as the stage made it: the stage prints each item
// of it within the output budget (interderive.Observer). To head the lines of a contraction that completes late, a lane
// keeps every contraction's rule, in two bytes a contraction (ruleLog).
type lane struct {
	stage  string
	n      int       // contractions so far
	rows   []laneRow // rows not sent yet: rows[0] is row number sent+1
	sent   int
	cur    []string // the row being built
	header int      // the contraction whose header the row being built has, 0 for none
	rules  ruleLog
	out    chan<- laneRow
	end    Lane    // the lane's outcome (Stage, Answer, Error), set before out is closed
	outc   Outcome // the outcome of a run that answered
}

// laneRow is one row of a lane as it streams: the rule of its contraction ("" for the
// row after the last contraction) and what the stage did to reach it.
type laneRow struct {
	rule  string
	lines []string
}

// newLane makes a lane for a stage whose rows go to out.
func newLane(stage string, out chan<- laneRow) *lane {
	return &lane{stage: stage, out: out}
}

// elided marks an item cut at the output budget.
func elided(limit int) string {
	return " … [cut at " + interderive.FormatBytes(int64(limit)) + "]"
}

// Step adds a line to the row being built.
func (l *lane) Step(line string) { l.cur = append(l.cur, line) }

// About places a line about contraction n (see lane).
func (l *lane) About(n int, line string) {
	switch {
	case n > 0 && n == l.header:
	case n > 0 && n == l.n:
		if r := l.row(n); r != nil {
			r.lines = append(r.lines, line)
			return
		}
		l.head(n, line)
	default:
		l.head(n, line)
	}
	l.cur = append(l.cur, line)
}

// Report places a line reporting a result of contraction n (see lane); the value is
// not kept (Lockstep compares the values).
func (l *lane) Report(n int, _ string, _ any, line string) {
	if n != l.header {
		l.head(n, line)
	}
	l.cur = append(l.cur, line)
}

// head adds the header for contraction n to the row being built, indented as line.
func (l *lane) head(n int, line string) {
	if n <= 0 || n > l.n {
		return // not a contraction made: no header to give it
	}
	l.cur = append(l.cur, fmt.Sprintf("%scontraction %d (%s) completes", indentOf(line), n, l.rules.at(n)))
	l.header = n
}

// indentOf is a line's leading run of "| ", the mark of a nested layer.
func indentOf(line string) string {
	i := 0
	for strings.HasPrefix(line[i:], "| ") {
		i += 2
	}
	return line[:i]
}

// contract closes the row of contraction n+1, and sends the rows that are final.
func (l *lane) contract(rule string) {
	l.rows = append(l.rows, laneRow{rule: rule, lines: l.cur})
	l.cur, l.header = nil, 0
	l.n++
	l.rules.add(rule)
	l.flush(l.n - 1)
}

// row is the row of contraction n (1-based) if it has not been sent, else nil.
func (l *lane) row(n int) *laneRow {
	if i := n - 1 - l.sent; i >= 0 && i < len(l.rows) {
		return &l.rows[i]
	}
	return nil
}

// flush sends the rows before row number upto+1.
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
// outcome: the answer (printed by the stage within the budgets), or the error.
func (l *lane) finish(out Outcome, err error) {
	l.rows = append(l.rows, laneRow{lines: l.cur})
	l.cur = nil
	l.flush(l.n + 1)
	l.end = Lane{Stage: l.stage, Answer: out.Value}
	l.outc = out
	if err != nil {
		l.end.Answer, l.end.Error, l.end.err = "", err.Error(), err
		l.end.Limit = errors.Is(err, interderive.ErrResourceLimit)
	}
}

// ruleLog keeps the rule of every contraction of a run, as an index into the distinct
// rules: two bytes a contraction.
type ruleLog struct {
	names []string
	index map[string]uint16
	log   []uint16
}

// unknownRule stands for the rules past the 65,535th distinct one.
const unknownRule = ^uint16(0)

func (r *ruleLog) add(rule string) {
	i, ok := r.index[rule]
	if !ok {
		if r.index == nil {
			r.index = map[string]uint16{}
		}
		i = unknownRule
		if len(r.names) < int(unknownRule) {
			i = uint16(len(r.names))
			r.names = append(r.names, rule)
			r.index[rule] = i
		}
	}
	r.log = append(r.log, i)
}

// at is the rule of contraction n (1-based).
func (r *ruleLog) at(n int) string {
	if n < 1 || n > len(r.log) || r.log[n-1] == unknownRule {
		return "?"
	}
	return r.names[r.log[n-1]]
}

// laneAhead is how many final rows a lane may send before they are read.
const laneAhead = 4

// runLanes runs the program on the stages at once under opts, each in its goroutine
// and each as a lane, and calls row(i, cells) for every row i in order, cells[j]
// being lane j's row i (nil once lane j has ended). It returns the lanes once all have
// ended. Every stage runs within the same budgets (opts); each sends its rows as they
// become final through a channel of a few rows (laneAhead), so that a stage ahead of
// the others waits for them and the trace takes memory for a few rows only (and the
// lanes' rule logs). With more than one lane, opts.OnContract is not called: the
// lanes run concurrently.
func runLanes(prog Program, stages []interderive.Stage, variant string, opts interderive.Options, row func(i int, cells []*laneRow)) []*lane {
	on := opts.OnContract
	if len(stages) > 1 {
		on = nil
	}
	lanes := make([]*lane, len(stages))
	chans := make([]chan laneRow, len(stages))
	var wg sync.WaitGroup
	for j, s := range stages {
		ch := make(chan laneRow, laneAhead)
		l := newLane(s.Name(), ch)
		lanes[j], chans[j] = l, ch
		o := opts
		o.Observer = l
		o.OnContract = func(rule string) {
			l.contract(rule)
			if on != nil {
				on(rule)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ch)
			l.finish(runSafely(prog, s, variant, o))
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
