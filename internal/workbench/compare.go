package workbench

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
)

// CompareRow is one run of a comparison: a stage under a variant.
type CompareRow struct {
	Variant, Stage string
	Mode           string // the mode's name
	Outcome        Outcome
	Err            error
	Contractions   int           // how many the run performed
	Time           time.Duration // the run's own time, without its waits for the others
}

// Answer is the row's answer as run prints it, or what stopped the run.
func (r CompareRow) Answer() string {
	switch {
	case r.Err == nil:
		return r.Outcome.Observation
	case errors.Is(r.Err, interderive.ErrOutOfFuel):
		return "out of fuel"
	case errors.Is(r.Err, interderive.ErrTimeout):
		return "timed out"
	case errors.Is(r.Err, interderive.ErrOutOfMemory):
		return "out of memory"
	case errors.Is(r.Err, interderive.ErrOutputLimit):
		return "value too long to print"
	case errors.Is(r.Err, interderive.ErrTooDeep):
		return "too deep"
	}
	return "error: " + r.Err.Error()
}

// shown is the row's value, or what ended the run without one.
func (r CompareRow) shown() string {
	if r.Err != nil {
		return r.Answer()
	}
	return r.Outcome.Value
}

// Cut reports whether the run stopped at a resource limit — fuel, time, memory, depth,
// output — rather than with an answer or a fault: its contraction sequence is then a
// prefix of the run it would have been.
func (r CompareRow) Cut() bool { return errors.Is(r.Err, interderive.ErrResourceLimit) }

// Disagreement says where a stage parts from the first stage under the same variant.
type Disagreement struct {
	Variant, Stage, Reference string
	// At is the 1-based index of the first differing contraction, or 0 when the
	// sequences agree and the answers differ.
	At        int
	Want, Got string
}

// String says where the stage parts from the reference: at which contraction, or
// in its answer.
func (d Disagreement) String() string {
	if d.At == 0 {
		return fmt.Sprintf("%s: %s answers %s, but %s answers %s", d.Variant, d.Stage, d.Got, d.Reference, d.Want)
	}
	return fmt.Sprintf("%s: %s parts from %s at contraction %d: %s instead of %s", d.Variant, d.Stage, d.Reference, d.At, d.Got, d.Want)
}

// Partial says, for a variant under which no stage parted from the reference but some
// run was cut short (CompareRow.Cut), how far the runs could be compared: they agree
// on the first Agreed contractions, and the rows Cut stopped at a resource limit.
type Partial struct {
	Variant string
	Agreed  int
	Cut     []CompareRow
}

// Comparison is what Compare found: a row per variant and stage, in order, the
// disagreements, and the variants compared only in part.
type Comparison struct {
	Rows          []CompareRow
	Disagreements []Disagreement
	Partial       []Partial
	// Skipped are the stages that refuse the program (Refuser), left out of the
	// comparison: neither rows nor disagreements.
	Skipped []Skip
}

// batchSize is how many contraction events a run sends to the comparison at a time,
// and batchesAhead how many batches it may send before the comparison has read them:
// the memory a comparison takes, whatever the length of the runs.
const (
	batchSize    = 1024
	batchesAhead = 4
)

// Compare runs a program on every stage of its calculus under each variant (every
// variant for nil), and checks, within each variant, that every stage agrees with the
// first (the reference) on the contraction sequence and on the answer (the printed
// value). Every stage runs in the same mode: opts (fuel, time, memory and output
// budgets) in the mode named (ModeFor: "" is the reference mode). An unknown variant
// or mode is an error, before anything runs.
//
// The sequences are compared as the runs go, in bounded memory: under each variant the
// stages run at once, each in its own goroutine, and send their contraction events in
// batches (batchSize) through channels of a few batches (batchesAhead), which the
// comparison reads in step, keeping only counts. A run ahead of the others waits for
// them (its time in the table leaves its waits out), so that long runs — a loop until
// the time budget — cost the comparison nothing but their time. A run cut short (fuel,
// time, memory, depth) agrees with another if its sequence is a prefix of the other's;
// a stage that parts from the reference is let run to its end, unobserved, for its
// answer.
func (w *Workbench) Compare(c Calculus, prog Program, variants []string, mode string, opts interderive.Options) (Comparison, error) {
	stages := w.StagesOf(c)
	if len(stages) == 0 {
		return Comparison{}, fmt.Errorf("calculus %s is not registered", c.Name())
	}
	if variants == nil {
		variants = c.Variant().Values
	}
	modes := make([]Mode, len(variants))
	for i, v := range variants {
		if !c.Variant().Accepts(v) {
			return Comparison{}, fmt.Errorf("unknown %s %q for %s (known: %s%s)", c.Variant().Name(), v, c.Name(), strings.Join(c.Variant().Values, ", "), fileHint(c.Variant()))
		}
		m, err := w.ModeFor(c, v, mode)
		if err != nil {
			return Comparison{}, err
		}
		modes[i] = m
	}
	var cmp Comparison
	cmp.Skipped = skipsOf(c, stages)
	stages = Running(c, stages)
	if len(stages) == 0 {
		return Comparison{}, fmt.Errorf("no stage of %s runs the program: %s", c.Name(), strings.Join(SkipLines("it", cmp.Skipped), "; "))
	}
	compared := false
	for i, variant := range variants {
		o := opts
		modes[i].Apply(&o)
		if err := prepare(c, variant); err != nil {
			return Comparison{}, err
		}
		on, skips := onEngine(c, RunningUnder(c, stages, variant), variant, o.Engine)
		for _, sk := range skips {
			if !slices.Contains(cmp.Skipped, sk) { // once, whatever the variants
				cmp.Skipped = append(cmp.Skipped, sk)
			}
		}
		if len(on) == 0 {
			continue
		}
		compared = true
		rows, diffs, partial := compareVariant(prog, on, variant, modes[i].Name, o, c.Equal)
		cmp.Rows = append(cmp.Rows, rows...)
		cmp.Disagreements = append(cmp.Disagreements, diffs...)
		if partial != nil {
			cmp.Partial = append(cmp.Partial, *partial)
		}
	}
	if !compared {
		return Comparison{}, fmt.Errorf("no stage of %s runs the program on the %s engine: %s", c.Name(), opts.Engine, strings.Join(SkipLines("it", cmp.Skipped), "; "))
	}
	return cmp, nil
}

// compareRun is one stage's run in a comparison: its row, filled in before its
// events' channel is closed, and the batches it sends.
type compareRun struct {
	row    CompareRow
	events chan []string
	free   chan []string // batches read, for the run to fill again
	done   chan struct{} // closed once the run has ended and its events are all sent
}

// start runs the program on the run's stage in a goroutine of its own.
func (r *compareRun) start(prog Program, s interderive.Stage, variant string, opts interderive.Options) {
	r.events = make(chan []string, batchesAhead)
	r.free = make(chan []string, batchesAhead+2)
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		defer close(r.events)
		var waited time.Duration
		send := func(batch []string) {
			t := time.Now()
			r.events <- batch
			waited += time.Since(t)
		}
		batch := make([]string, 0, batchSize)
		o := opts
		o.OnContract = func(rule string) {
			batch = append(batch, rule)
			if len(batch) == batchSize {
				send(batch)
				select {
				case batch = <-r.free:
					batch = batch[:0]
				default:
					batch = make([]string, 0, batchSize)
				}
			}
		}
		start := time.Now()
		r.row.Outcome, r.row.Err = runSafely(prog, s, variant, o)
		r.row.Time = time.Since(start) - waited
		r.row.Contractions = r.row.Outcome.Steps
		if len(batch) > 0 {
			r.events <- batch
		}
	}()
}

// next receives the run's next batch: nil, false once the run has ended.
func (r *compareRun) next() ([]string, bool) {
	b, ok := <-r.events
	return b, ok
}

// recycle gives a batch back to the run.
func (r *compareRun) recycle(b []string) {
	if cap(b) == batchSize {
		select {
		case r.free <- b:
		default:
		}
	}
}

// drain reads the rest of the run's events, unobserved, so that it can run to its end.
func (r *compareRun) drain() {
	go func() {
		for b := range r.events {
			r.recycle(b)
		}
	}()
}

// compareVariant compares the stages under one variant (see Compare); equal compares
// two answers (Calculus.Equal).
func compareVariant(prog Program, stages []interderive.Stage, variant, mode string, opts interderive.Options, equal func(a, b any) bool) ([]CompareRow, []Disagreement, *Partial) {
	runs := make([]*compareRun, len(stages))
	for i, s := range stages {
		runs[i] = &compareRun{row: CompareRow{Variant: variant, Stage: s.Name(), Mode: mode}}
		runs[i].start(prog, s, variant, opts)
	}
	ref, others := runs[0], runs[1:]
	// Per stage compared with the reference: whether it is still compared, where it
	// parted from the reference (a disagreement), or how far they agree.
	type status struct {
		active   bool
		diff     *Disagreement
		agreed   int  // contractions compared, all equal
		complete bool // both sequences compared to their ends
	}
	st := make([]status, len(others))
	for i := range st {
		st[i].active = true
	}
	refOpen := true
	for k := 0; ; k++ {
		var rb []string
		if refOpen {
			rb, refOpen = ref.next()
		}
		active := 0
		for i, s := range others {
			if !st[i].active {
				continue
			}
			sb, sOpen := s.next()
			base := k * batchSize
			n := min(len(rb), len(sb))
			for j := range n {
				if rb[j] != sb[j] {
					st[i].diff = &Disagreement{Variant: variant, Stage: s.row.Stage, Reference: ref.row.Stage, At: base + j + 1, Want: rb[j], Got: sb[j]}
					break
				}
			}
			switch {
			case st[i].diff != nil:
			case len(rb) == len(sb):
				// Both go on (a full batch each), both sent their last, partial
				// batch (they end together next round), or both ended: after a
				// full batch here, after a partial one the round before.
				if n > 0 {
					st[i].agreed = base + n
				}
				st[i].complete = !sOpen && !refOpen
			default:
				// One sequence ended at base + n, and the other goes on: the
				// shorter run's row is final (its last batch, or its channel's end,
				// came after it). A run whose channel ended here sent a full batch
				// the round before (a partial one would have been its last, and
				// compared then), so that it ended at base.
				st[i].agreed = base + n
				shorter := s
				if len(rb) < len(sb) {
					shorter = ref
				}
				if !shorter.row.Cut() {
					want, got := "(end)", "(end)"
					if shorter == s {
						want = rb[n]
					} else {
						got = sb[n]
					}
					st[i].diff = &Disagreement{Variant: variant, Stage: s.row.Stage, Reference: ref.row.Stage, At: base + n + 1, Want: want, Got: got}
				}
			}
			if st[i].diff != nil || st[i].complete || len(rb) != len(sb) {
				st[i].active = false
				if sOpen {
					s.drain()
				}
			} else {
				active++
			}
			s.recycle(sb)
		}
		ref.recycle(rb)
		if active == 0 {
			if refOpen {
				ref.drain()
			}
			break
		}
	}
	for _, r := range runs {
		<-r.done
	}
	rows := make([]CompareRow, len(runs))
	for i, r := range runs {
		rows[i] = r.row
	}
	var diffs []Disagreement
	var cut []CompareRow
	agreed := -1
	if ref.row.Cut() {
		cut = append(cut, ref.row)
	}
	for i, s := range others {
		switch {
		case st[i].diff != nil:
			diffs = append(diffs, *st[i].diff)
			continue
		case s.row.Cut():
			cut = append(cut, s.row)
		case ref.row.Cut():
		case !sameOutcome(ref.row, s.row, equal):
			diffs = append(diffs, Disagreement{Variant: variant, Stage: s.row.Stage, Reference: ref.row.Stage, Want: ref.row.shown(), Got: s.row.shown()})
			continue
		}
		if agreed < 0 || st[i].agreed < agreed {
			agreed = st[i].agreed
		}
	}
	if len(diffs) > 0 || len(cut) == 0 {
		return rows, diffs, nil
	}
	return rows, nil, &Partial{Variant: variant, Agreed: max(agreed, 0), Cut: cut}
}

// sameOutcome reports whether two runs that went to their ends ended alike: with
// answers the calculus finds equal (equal, Calculus.Equal: terms up to α-equivalence)
// or that print alike, or with errors of the same kind and message. The program's
// run-time error compares by its reason and its redex, not by its position: a stage
// may know where the source put a redex that another built anew (a meta-function's
// result, a contractum), and the error is the same error.
func sameOutcome(a, b CompareRow, equal func(x, y any) bool) bool {
	var ra, rb *interderive.RuntimeError
	switch {
	case a.Err == nil && b.Err == nil:
		return a.Answer() == b.Answer() && a.Outcome.Value == b.Outcome.Value || equal(a.Outcome.Answer, b.Outcome.Answer)
	case a.Err == nil || b.Err == nil:
		return false
	case errors.As(a.Err, &ra) && errors.As(b.Err, &rb):
		return ra.Reason == rb.Reason && ra.Term == rb.Term
	}
	return a.Answer() == b.Answer()
}

// Message says how far the stages were compared under a variant: "V: the stages
// agree on the first 4096 contractions; s1 cut by --timeout, s3 cut by --fuel", the
// stages cut for one reason named together ("s1, s3 cut by --timeout").
func (p Partial) Message() string {
	var reasons []string
	stages := map[string][]string{}
	for _, r := range p.Cut {
		why := r.CutBy()
		if stages[why] == nil {
			reasons = append(reasons, why)
		}
		stages[why] = append(stages[why], r.Stage)
	}
	var cuts []string
	for _, why := range reasons {
		cuts = append(cuts, strings.Join(stages[why], ", ")+" cut by "+why)
	}
	return fmt.Sprintf("%s: the stages agree on the first %d contractions; %s", p.Variant, p.Agreed, strings.Join(cuts, "; "))
}

// CutBy says what cut a run short: the flag that allows more (FlagFor), or the
// error's kind (Answer).
func (r CompareRow) CutBy() string {
	if f := FlagFor(r.Err); f != "" {
		return f
	}
	return r.Answer()
}

// Agreeing are the variants, of those compared, under which every stage agreed with
// the reference to the end: neither a disagreement nor a partial comparison.
func (c Comparison) Agreeing(variants []string) []string {
	var whole []string
	for _, v := range variants {
		if !slices.ContainsFunc(c.Disagreements, func(d Disagreement) bool { return d.Variant == v }) &&
			!slices.ContainsFunc(c.Partial, func(p Partial) bool { return p.Variant == v }) {
			whole = append(whole, v)
		}
	}
	return whole
}

// CompareReport is compare --json's output.
type CompareReport struct {
	Rows          []CompareRowReport `json:"rows"`
	Disagreements []string           `json:"disagreements"`
	Partial       []PartialReport    `json:"partial"`
	Skipped       []SkipReport       `json:"skipped"`
}

// SkipReport is a stage that refused the program (Refuser), for compare --json.
type SkipReport struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

// CompareRowReport is a row of compare --json's output.
type CompareRowReport struct {
	Variant      string  `json:"variant"`
	Stage        string  `json:"stage"`
	Outcome      string  `json:"outcome"`
	Answer       string  `json:"answer"`
	Value        string  `json:"value,omitempty"`
	Contractions int     `json:"contractions"`
	Seconds      float64 `json:"seconds"`
}

// PartialReport is an entry of compare --json's "partial": a variant under which the
// stages agree as far as they could be compared, and the runs cut short.
type PartialReport struct {
	Variant string      `json:"variant"`
	Agreed  int         `json:"agreed"`
	Cut     []CutReport `json:"cut"`
	Message string      `json:"message"`
}

// CutReport is a run cut short: its stage, and the flag that allows it more.
type CutReport struct {
	Stage string `json:"stage"`
	By    string `json:"by"`
}

// Report is the comparison as compare --json prints it.
func (c Comparison) Report() CompareReport {
	out := CompareReport{Rows: []CompareRowReport{}, Disagreements: []string{}, Partial: []PartialReport{}, Skipped: []SkipReport{}}
	for _, sk := range c.Skipped {
		out.Skipped = append(out.Skipped, SkipReport{Stage: sk.Stage, Reason: sk.Reason})
	}
	for _, r := range c.Rows {
		out.Rows = append(out.Rows, CompareRowReport{Variant: r.Variant, Stage: r.Stage, Outcome: OutcomeName(r.Err),
			Answer: r.Answer(), Value: r.Outcome.Value, Contractions: r.Contractions, Seconds: r.Time.Seconds()})
	}
	for _, d := range c.Disagreements {
		out.Disagreements = append(out.Disagreements, d.String())
	}
	for _, p := range c.Partial {
		jp := PartialReport{Variant: p.Variant, Agreed: p.Agreed, Message: p.Message()}
		for _, r := range p.Cut {
			jp.Cut = append(jp.Cut, CutReport{Stage: r.Stage, By: r.CutBy()})
		}
		out.Partial = append(out.Partial, jp)
	}
	return out
}

// WriteTable prints the comparison's table (variant, stage, answer, contractions,
// time), then a line per disagreement (DISAGREE ...) and per variant compared only in
// part (PARTIAL ...), a line per reason stages were left out for (SKIP ...), and the
// variants under which every stage agreed, of those given.
// heading heads the first column, the variants' (the variant flag).
func (c Comparison) WriteTable(w io.Writer, heading string, variants []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tstage\tanswer\tcontractions\ttime\n", heading)
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", r.Variant, r.Stage, r.Answer(), r.Contractions, r.Time.Round(time.Microsecond))
	}
	tw.Flush()
	for _, d := range c.Disagreements {
		fmt.Fprintf(w, "DISAGREE %s\n", d)
	}
	for _, p := range c.Partial {
		fmt.Fprintf(w, "PARTIAL %s\n", p.Message())
	}
	for _, line := range SkipLines("the program", c.Skipped) {
		fmt.Fprintf(w, "SKIP %s\n", interderive.EscapeLines(line))
	}
	if whole := c.Agreeing(variants); len(whole) > 0 {
		all := "all stages"
		if len(c.Skipped) > 0 {
			all = "all stages that run the program"
		}
		fmt.Fprintf(w, "%s agree under %s\n", all, strings.Join(whole, ", "))
	}
}

// firstDiff is the index of the first contraction where two sequences differ (one
// ending before the other counts), or -1 if they are equal.
func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// ruleAt is rules[i], or "(end)" past the end.
func ruleAt(rules []string, i int) string {
	if i < len(rules) {
		return rules[i]
	}
	return "(end)"
}
