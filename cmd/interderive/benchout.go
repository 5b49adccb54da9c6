package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
)

// The formats bench prints the suite in (--format).
const (
	formatTable   = "table"
	formatGobench = "gobench"
	formatJSON    = "json"
)

var benchFormats = []string{formatTable, formatGobench, formatJSON}

// A benchOut prints the suite's measurements as they come, in one format: a table per
// program and variant (begin ... end), a row per run.
type benchOut interface {
	// begin starts a table: the program's name and the variant, and its title for a
	// person (benchTitle).
	begin(name, variant, title string)
	row(r workbench.BenchRow, answer string)
	skipped(stage, size string, estimate time.Duration)
	// refused says that a stage does not run the program (workbench.Refuser): it
	// makes no run, and is not counted.
	refused(stage, reason string)
	native(size string, t workbench.Timing, answer int)
	end(exponents []stageExponent)
	// close ends the output (the JSON document is written here).
	close(total benchCount) error
}

// A stageExponent is a stage's growth exponent in one table.
type stageExponent struct {
	Stage    string  `json:"stage"`
	Exponent float64 `json:"exponent"`
}

func newBenchOut(format string, w io.Writer) benchOut {
	switch format {
	case formatGobench:
		return &gobenchOut{w: w}
	case formatJSON:
		return &jsonOut{w: w}
	}
	return &tableOut{w: w}
}

// spread formats a timing's spread: ±2.5%, or ±? with one round.
func spread(t workbench.Timing) string {
	s := t.Spread()
	if math.IsNaN(s) {
		return "±?"
	}
	return fmt.Sprintf("±%.1f%%", 100*s)
}

// tableOut is the human-readable format: aligned columns, time as the mean and its
// spread over the rounds. A table is printed whole at its end, so that its columns fit
// every row: a row that measured nothing (a failed run, a size skipped, a stage that
// refuses the program) is its stage and size, then what happened, in text that widens
// no column.
type tableOut struct {
	w    io.Writer
	rows []tableRow
}

// A tableRow is a row's aligned cells (all the columns, or the stage and size alone)
// and, after them, text that aligns with nothing.
type tableRow struct {
	cells []string
	tail  string
}

func (o *tableOut) begin(_, _, title string) {
	fmt.Fprintf(o.w, "\n%s\n", title)
	o.rows = []tableRow{{cells: []string{"stage", "n", "time", "spread", "contractions", "contractions/s", "peak heap", "answer"}}}
}

// row prints a run's measurements, or, for a run that failed, its stage and size and
// the error alone: a failed run measured nothing to print. An error of several lines
// (a position's line and caret) goes on, each line under the first.
func (o *tableOut) row(r workbench.BenchRow, answer string) {
	if r.Err != nil {
		o.text(r.Stage, r.Size, answer)
		return
	}
	rate := float64(r.Contractions) / r.Time.Seconds()
	o.rows = append(o.rows, tableRow{cells: []string{r.Stage, r.Size, r.Time.Round(time.Microsecond).String(), spread(r.Timing), fmt.Sprint(r.Contractions), fmt.Sprintf("%.3g", rate), interderive.FormatBytes(int64(r.PeakHeap)), answer}})
}

// text is a row of a stage and a size and text, each further line of the text a row
// of its own under the first.
func (o *tableOut) text(stage, size, text string) {
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			stage, size = "", ""
		}
		o.rows = append(o.rows, tableRow{cells: []string{stage, size}, tail: line})
	}
}

func (o *tableOut) skipped(stage, size string, est time.Duration) {
	o.text(stage, size, fmt.Sprintf("(skipped: about %s)", est.Round(time.Second)))
}

func (o *tableOut) refused(stage, reason string) {
	o.text(stage, "", "skipped: the stage does not run the program: "+reason)
}

func (o *tableOut) native(size string, t workbench.Timing, answer int) {
	o.rows = append(o.rows, tableRow{cells: []string{"native Go", size, t.Mean().Round(time.Nanosecond).String(), spread(t), "", "", "", fmt.Sprint(answer)}})
}

// flush prints the rows, each cell right-aligned in its column, two spaces before it.
func (o *tableOut) flush() {
	var widths []int
	for _, r := range o.rows {
		for i, c := range r.cells {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range o.rows {
		var b strings.Builder
		for i, c := range r.cells {
			b.WriteString(strings.Repeat(" ", widths[i]+2-utf8.RuneCountInString(c)) + c)
		}
		if r.tail != "" {
			b.WriteString("  " + r.tail)
		}
		fmt.Fprintln(o.w, b.String())
	}
	o.rows = nil
}

func (o *tableOut) end(exps []stageExponent) {
	o.flush()
	fmt.Fprint(o.w, "growth exponent (time vs contractions):")
	for _, e := range exps {
		fmt.Fprintf(o.w, "  %s %.2f", e.Stage, e.Exponent)
	}
	fmt.Fprintln(o.w)
}

func (o *tableOut) close(benchCount) error { return nil }

// gobenchOut is Go's benchmark format, one line per round, so that benchstat compares
// two runs (or two builds) with confidence intervals: the benchmark's name is
// BenchmarkInterderive/program=P/variant=V/stage=S/n=N (benchstat's -col and -row
// take these keys), its units ns/op and contractions/op.
// Failed runs and skipped sizes are comments.
type gobenchOut struct {
	w             io.Writer
	name, variant string
	headed        bool
}

// gobenchName makes a name part fit Go's benchmark format: no spaces.
func gobenchName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return '_'
		}
		return r
	}, s)
}

func (o *gobenchOut) begin(name, variant, _ string) {
	if !o.headed {
		fmt.Fprintf(o.w, "goos: %s\ngoarch: %s\npkg: interderive/bench\ninterderive: %s\n", runtime.GOOS, runtime.GOARCH, gobenchName(version()))
		o.headed = true
	}
	o.name, o.variant = gobenchName(name), gobenchName(variant)
}

func (o *gobenchOut) line(stage, size string, t workbench.Timing, extra string) {
	for _, r := range t.Rounds {
		fmt.Fprintf(o.w, "BenchmarkInterderive/program=%s/variant=%s/stage=%s/n=%s \t%d\t%.1f ns/op%s\n", o.name, o.variant, gobenchName(stage), gobenchName(size), r.N, float64(r.PerRun.Nanoseconds()), extra)
	}
}

func (o *gobenchOut) row(r workbench.BenchRow, answer string) {
	if r.Err != nil || r.Mismatch != "" {
		fmt.Fprintf(o.w, "# program=%s/variant=%s/stage=%s/n=%s: %s\n", o.name, o.variant, r.Stage, r.Size, strings.ReplaceAll(answer, "\n", " "))
		if r.Err != nil {
			return
		}
	}
	o.line(r.Stage, r.Size, r.Timing, fmt.Sprintf("\t%d contractions/op\t%d peak-heap-bytes", r.Contractions, r.PeakHeap))
}

func (o *gobenchOut) skipped(stage, size string, est time.Duration) {
	fmt.Fprintf(o.w, "# program=%s/variant=%s/stage=%s/n=%s: skipped (about %s)\n", o.name, o.variant, stage, size, est.Round(time.Second))
}

func (o *gobenchOut) refused(stage, reason string) {
	fmt.Fprintf(o.w, "# program=%s/variant=%s/stage=%s: skipped: %s\n", o.name, o.variant, stage, strings.ReplaceAll(reason, "\n", " "))
}

func (o *gobenchOut) native(size string, t workbench.Timing, _ int) {
	o.line("native", size, t, "")
}

func (o *gobenchOut) end([]stageExponent) {}

func (o *gobenchOut) close(benchCount) error { return nil }

// jsonOut collects the tables and writes one JSON document at the end.
type jsonOut struct {
	w      io.Writer
	tables []*jsonTable
}

type jsonTable struct {
	Program   string          `json:"program"`
	Variant   string          `json:"variant"`
	Rows      []jsonRow       `json:"rows"`
	Exponents []stageExponent `json:"exponents"`
}

type jsonRound struct {
	Runs     int     `json:"runs"`
	NsPerRun float64 `json:"ns_per_run"`
}

type jsonRow struct {
	Stage         string      `json:"stage"`
	N             string      `json:"n"`
	MeanNs        float64     `json:"mean_ns,omitempty"`
	Spread        *float64    `json:"spread,omitempty"` // half the range of the rounds' means, relative to the mean
	Rounds        []jsonRound `json:"rounds,omitempty"`
	Contractions  int         `json:"contractions,omitempty"`
	PeakHeapBytes uint64      `json:"peak_heap_bytes,omitempty"`
	Answer        string      `json:"answer,omitempty"`
	Mismatch      string      `json:"expected,omitempty"` // the stated answer the run contradicts
	Error         string      `json:"error,omitempty"`
	SkippedNs     float64     `json:"skipped_estimate_ns,omitempty"`
	Refused       string      `json:"refused,omitempty"` // why the stage does not run the program (it made no run)
}

func timingJSON(t workbench.Timing) (mean float64, sp *float64, rounds []jsonRound) {
	for _, r := range t.Rounds {
		rounds = append(rounds, jsonRound{Runs: r.N, NsPerRun: float64(r.PerRun.Nanoseconds())})
	}
	if s := t.Spread(); !math.IsNaN(s) {
		sp = &s
	}
	return float64(t.Mean().Nanoseconds()), sp, rounds
}

func (o *jsonOut) cur() *jsonTable { return o.tables[len(o.tables)-1] }

func (o *jsonOut) begin(name, variant, _ string) {
	o.tables = append(o.tables, &jsonTable{Program: name, Variant: variant, Rows: []jsonRow{}, Exponents: []stageExponent{}})
}

func (o *jsonOut) row(r workbench.BenchRow, _ string) {
	j := jsonRow{Stage: r.Stage, N: r.Size, Contractions: r.Contractions, PeakHeapBytes: r.PeakHeap, Answer: r.Answer, Mismatch: r.Mismatch}
	if r.Err != nil {
		j.Error, j.Answer = r.Err.Error(), ""
	} else {
		j.MeanNs, j.Spread, j.Rounds = timingJSON(r.Timing)
	}
	o.cur().Rows = append(o.cur().Rows, j)
}

func (o *jsonOut) skipped(stage, size string, est time.Duration) {
	o.cur().Rows = append(o.cur().Rows, jsonRow{Stage: stage, N: size, SkippedNs: float64(est.Nanoseconds())})
}

func (o *jsonOut) refused(stage, reason string) {
	o.cur().Rows = append(o.cur().Rows, jsonRow{Stage: stage, Refused: reason})
}

func (o *jsonOut) native(size string, t workbench.Timing, answer int) {
	j := jsonRow{Stage: "native Go", N: size, Answer: fmt.Sprint(answer)}
	j.MeanNs, j.Spread, j.Rounds = timingJSON(t)
	o.cur().Rows = append(o.cur().Rows, j)
}

func (o *jsonOut) end(exps []stageExponent) {
	o.cur().Exponents = append(o.cur().Exponents, exps...)
}

func (o *jsonOut) close(total benchCount) error {
	doc := struct {
		Tables     []*jsonTable `json:"tables"`
		Runs       int          `json:"runs"`
		Measured   int          `json:"measured"`
		Limits     int          `json:"stopped_at_limits"`
		Mismatches int          `json:"mismatches"`
	}{o.tables, total.runs, total.measured, total.limits, total.mismatches}
	if doc.Tables == nil {
		doc.Tables = []*jsonTable{}
	}
	enc := json.NewEncoder(o.w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
