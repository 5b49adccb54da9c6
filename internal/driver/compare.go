package driver

import (
	"errors"
	"fmt"
	"time"

	"github.com/interderive/interderive"
)

// CompareRow is one run of a comparison: a stage under a variant.
type CompareRow struct {
	Variant, Stage string
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
	case IsFuel(r.Err):
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
}

// batchSize is how many contraction events a run sends to the comparison at a time,
// and batchesAhead how many batches it may send before the comparison has read them:
// the memory a comparison takes, whatever the length of the runs.
const (
	batchSize    = 1024
	batchesAhead = 4
)

// Compare runs a program on every stage of its language under each variant, and
// checks, within each variant, that every stage agrees with the first (the reference
// semantics) on the contraction sequence and on the answer (the printed value). Every
// stage runs in the same mode: opts (fuel, time, memory and output budgets) with
// pending coercions unmerged, unless opts.Merging says merged.
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
func Compare(l Language, prog Program, variants []string, opts interderive.Options) Comparison {
	if opts.Merging == interderive.MergeDefault {
		opts.Merging = interderive.Unmerged
	}
	var c Comparison
	for _, variant := range variants {
		rows, diffs, partial := compareVariant(prog, l.Stages(), variant, opts)
		c.Rows = append(c.Rows, rows...)
		c.Disagreements = append(c.Disagreements, diffs...)
		if partial != nil {
			c.Partial = append(c.Partial, *partial)
		}
	}
	return c
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
func (r *compareRun) start(prog Program, variant string, opts interderive.Options) {
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
		r.row.Outcome, r.row.Err = runSafely(prog, r.row.Stage, variant, o)
		r.row.Time = time.Since(start) - waited
		r.row.Contractions = r.row.Outcome.Steps
		if len(batch) > 0 {
			r.events <- batch
		}
	}()
}

// runSafely is prog.Run, with a panic of the stage turned into an error, so that the
// comparison always hears of the run's end.
func runSafely(prog Program, stage, variant string, opts interderive.Options) (out Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: the %s stage panicked: %v", stage, p)
		}
	}()
	return prog.Run(stage, variant, opts)
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

// compareVariant compares the stages under one variant (see Compare).
func compareVariant(prog Program, stages []string, variant string, opts interderive.Options) ([]CompareRow, []Disagreement, *Partial) {
	runs := make([]*compareRun, len(stages))
	for i, stage := range stages {
		runs[i] = &compareRun{row: CompareRow{Variant: variant, Stage: stage}}
		runs[i].start(prog, variant, opts)
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
		case ref.row.Answer() != s.row.Answer() || ref.row.Outcome.Value != s.row.Outcome.Value:
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
