package driver

import (
	"fmt"
	"time"

	"github.com/interderive/interderive"
)

// CompareRow is one run of a comparison: a stage under a variant.
type CompareRow struct {
	Variant, Stage string
	Outcome        Outcome
	Err            error
	Rules          []string // the contraction sequence
	Time           time.Duration
}

// Answer is the row's answer as run prints it (or the error's kind).
func (r CompareRow) Answer() string {
	switch {
	case IsFuel(r.Err):
		return "out of fuel"
	case r.Err != nil:
		return "error: " + r.Err.Error()
	}
	return r.Outcome.Observation
}

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

// Compare runs a program on every stage of its language under each variant, and
// checks, within each variant, that every stage agrees with the first (the reference
// semantics) on the answer (the printed value) and on the contraction sequence. Every
// stage runs in the same mode: opts (fuel, time limit) with pending coercions
// unmerged, unless opts.Merging says merged.
func Compare(l Language, prog Program, variants []string, opts interderive.Options) ([]CompareRow, []Disagreement) {
	if opts.Merging == interderive.MergeDefault {
		opts.Merging = interderive.Unmerged
	}
	var rows []CompareRow
	var diffs []Disagreement
	for _, variant := range variants {
		var ref *CompareRow
		for _, stage := range l.Stages() {
			row := CompareRow{Variant: variant, Stage: stage}
			start := time.Now()
			o := opts
			o.OnContract = func(r string) { row.Rules = append(row.Rules, r) }
			row.Outcome, row.Err = prog.Run(stage, variant, o)
			row.Time = time.Since(start)
			rows = append(rows, row)
			if ref == nil {
				ref = &rows[len(rows)-1]
				continue
			}
			if i := firstDiff(ref.Rules, row.Rules); i >= 0 {
				diffs = append(diffs, Disagreement{Variant: variant, Stage: stage, Reference: ref.Stage, At: i + 1, Want: ruleAt(ref.Rules, i), Got: ruleAt(row.Rules, i)})
			} else if ref.Answer() != row.Answer() || ref.Outcome.Value != row.Outcome.Value {
				diffs = append(diffs, Disagreement{Variant: variant, Stage: stage, Reference: ref.Stage, Want: ref.Outcome.Value, Got: row.Outcome.Value})
			}
		}
	}
	return rows, diffs
}

func firstDiff(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func ruleAt(rules []string, i int) string {
	if i < len(rules) {
		return rules[i]
	}
	return "(end)"
}
