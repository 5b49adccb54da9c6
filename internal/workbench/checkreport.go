package workbench

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/interderive/interderive"
)

// CheckReport is what check found; check --json prints it.
type CheckReport struct {
	Files   int `json:"files"`
	Runs    int `json:"runs"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errors  int `json:"errors"`  // files that could not be checked
	Skipped int `json:"skipped"` // files whose calculus has none of the selected stages (ErrNoStage)
	// SkippedRuns are the runs not made because their stage refuses their file
	// (Refuser), each stage's refusal in Skips.
	SkippedRuns int            `json:"skipped_runs"`
	Failures    []CheckFailure `json:"failures"`
	Problems    []CheckError   `json:"file_errors"`
	Skips       []CheckSkip    `json:"skips"`
}

// CheckSkip is a stage that refused a file (Refuser), for check --json: the runs it
// skipped, and why.
type CheckSkip struct {
	File   string `json:"file"`
	Stage  string `json:"stage"`
	Runs   int    `json:"runs"`
	Reason string `json:"reason"`
}

// CheckFailure is a failed run, for check --json.
type CheckFailure struct {
	File    string `json:"file"`
	Stage   string `json:"stage,omitempty"` // none for a program that does not load
	Variant string `json:"variant"`
	Mode    string `json:"mode,omitempty"` // for a calculus with modes (CheckPlan.Modal)
	Message string `json:"message"`
	Detail  string `json:"detail,omitempty"`
}

// CheckError is a file that could not be checked, for check --json.
type CheckError struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// Summary is the report's last line: "3 files, 64 runs: 64 passed, 0 failed".
func (r *CheckReport) Summary() string {
	s := fmt.Sprintf("%d %s, %d %s: %d passed, %d failed", r.Files, Plural(r.Files, "file", "files"), r.Runs, Plural(r.Runs, "run", "runs"), r.Passed, r.Failed)
	if r.SkippedRuns > 0 {
		s += fmt.Sprintf("; %d %s skipped (a stage that does not run the file: SKIP above)", r.SkippedRuns, Plural(r.SkippedRuns, "run", "runs"))
	}
	if r.Skipped > 0 {
		s += fmt.Sprintf("; %d %s skipped (no selected stage)", r.Skipped, Plural(r.Skipped, "file", "files"))
	}
	if r.Errors > 0 {
		s += fmt.Sprintf("; %d %s not checked (errors above)", r.Errors, Plural(r.Errors, "file", "files"))
	}
	return s
}

// Plural is one for 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkItem is one run of one file.
type checkItem struct{ file, run int }

// RunCheck makes every run of every plan (PlanFiles: a nil plan is a file that could
// not be checked, errs[i] says why) on a pool of one worker per core, and calls done
// for each file in file order as soon as the file and the ones before it are
// finished, with its failures in the order of its runs; progress hears, about every
// 100 ms, how many runs of how many are done and how many failed, and (-1, 0, 0) at
// the end. Either may be nil. It returns the report.
//
// Every run has its own memory budget (CheckOptions.Memory). The budget is measured on
// the process's live heap, which the runs share, as marked by the last collection: a
// run beside a large one, or after it before a collection has seen its memory go,
// would be stopped for the other's memory ("out of memory ... (0 contractions)"). So a
// run stopped at the budget is made again alone — the others finish first, and wait —
// after a collection, where the live heap is its own (and the process's baseline), and
// only a run stopped there again fails for memory. A run that needs more than its
// budget takes twice its time to fail; a run within it is never failed by another.
func RunCheck(files []string, plans []*CheckPlan, errs []error, opts CheckOptions, progress func(done, total, failed int), done func(int, []Failure)) *CheckReport {
	if progress == nil {
		progress = func(int, int, int) {}
	}
	if done == nil {
		done = func(int, []Failure) {}
	}
	report := &CheckReport{Files: len(plans), Failures: []CheckFailure{}, Problems: []CheckError{}, Skips: []CheckSkip{}}
	results := make([][][]Failure, len(plans))
	remaining := make([]int, len(plans))
	items := make(chan checkItem)
	finished := make(chan checkItem)
	for i, p := range plans {
		if p != nil {
			results[i] = make([][]Failure, len(p.Runs))
			remaining[i] = len(p.Runs)
			report.Runs += len(p.Runs)
		}
	}
	go func() {
		for i, p := range plans {
			if p != nil {
				for j := range p.Runs {
					items <- checkItem{i, j}
				}
			}
		}
		close(items)
	}()
	var wg sync.WaitGroup
	var alone sync.RWMutex // held for writing by a run made alone, for reading by the others
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				p := plans[it.file]
				alone.RLock()
				fs := p.Run(p.Runs[it.run], opts)
				alone.RUnlock()
				if slices.ContainsFunc(fs, func(f Failure) bool { return f.outOfMemory }) {
					alone.Lock()
					runtime.GC()
					fs = p.Run(p.Runs[it.run], opts)
					alone.Unlock()
				}
				results[it.file][it.run] = fs
				finished <- it
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	next, ran, failed := 0, 0, 0
	flush := func() {
		for ; next < len(plans) && remaining[next] == 0; next++ {
			var fs []Failure
			for _, r := range results[next] {
				fs = append(fs, r...)
			}
			report.record(files[next], plans[next], errs[next], results[next], fs)
			done(next, fs)
		}
	}
	flush()
	last := time.Now()
	for it := range finished {
		remaining[it.file]--
		ran++
		if len(results[it.file][it.run]) > 0 {
			failed++
		}
		if time.Since(last) > 100*time.Millisecond {
			progress(ran, report.Runs, failed)
			last = time.Now()
		}
		flush()
	}
	progress(-1, 0, 0)
	return report
}

// record adds a finished file to the report.
func (r *CheckReport) record(file string, p *CheckPlan, err error, runs [][]Failure, fs []Failure) {
	if p == nil && errors.Is(err, ErrNoStage) {
		r.Skipped++
		return
	}
	if p == nil {
		r.Errors++
		msg := "not planned"
		if err != nil {
			msg = err.Error()
		}
		r.Problems = append(r.Problems, CheckError{File: DisplayName(file), Message: msg})
		return
	}
	for _, sk := range p.Skipped {
		r.SkippedRuns += sk.Runs
		r.Skips = append(r.Skips, CheckSkip{File: p.Path, Stage: sk.Stage, Runs: sk.Runs, Reason: sk.Reason})
	}
	for _, failures := range runs {
		if len(failures) == 0 {
			r.Passed++
		} else {
			r.Failed++
		}
	}
	for _, f := range fs {
		mode := ""
		if p.Modal {
			mode = f.Mode
		}
		r.Failures = append(r.Failures, CheckFailure{File: p.Path, Stage: f.Stage, Variant: f.Variant, Mode: mode, Message: f.What, Detail: f.Detail})
	}
}

// WriteCheckFile prints what check found wrong with a file: ERROR and why it could
// not be checked, or FAIL and its failures grouped (GroupFailures); nothing when it
// passed. A line SKIP says which runs were skipped, and why: a stage that does not run
// the file (CheckPlan.Skipped). What it quotes of the input is escaped.
func WriteCheckFile(w io.Writer, file string, p *CheckPlan, err error, fs []Failure) {
	indent := func(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
	if p != nil {
		for _, line := range SkipLines(p.Path, p.Skipped) {
			fmt.Fprintf(w, "SKIP %s\n", interderive.EscapeLines(line))
		}
	}
	switch {
	case p == nil && errors.Is(err, ErrNoStage):
		// skipped: counted in the summary
	case p == nil:
		msg := "not planned"
		if err != nil {
			msg = err.Error()
		}
		fmt.Fprintf(w, "ERROR %s\n%s\n", interderive.Escape(DisplayName(file)), indent(interderive.EscapeLines(msg)))
	case len(fs) > 0:
		fmt.Fprintf(w, "FAIL %s\n", interderive.Escape(p.Path))
		fs, runs, variants := labelled(p, fs)
		for _, line := range GroupFailures(fs, runs, p.Stages, variants) {
			fmt.Fprintln(w, indent(interderive.EscapeLines(line)))
		}
	}
}

// labelled is a file's failures, runs and variants with each variant named by its
// label (VariantLabel: a rule file's language and path, not its pseudo-variant), for
// the lines GroupFailures writes.
func labelled(p *CheckPlan, fs []Failure) ([]Failure, []CheckRun, []string) {
	if p.Calculus == nil {
		return fs, p.Runs, p.Variants
	}
	label := func(v string) string {
		_, l := VariantLabel(p.Calculus, v)
		return l
	}
	fs = slices.Clone(fs)
	for i := range fs {
		fs[i].Variant = label(fs[i].Variant)
	}
	runs := slices.Clone(p.Runs)
	for i := range runs {
		runs[i].Variant = label(runs[i].Variant)
	}
	variants := make([]string, len(p.Variants))
	for i, v := range p.Variants {
		variants[i] = label(v)
	}
	return fs, runs, variants
}

// GroupFailures writes a file's failures one line per distinct failure, naming the
// runs where it occurred: the stages that failed under the same variants together,
// "expected 3, got 4 on s1, s2 under v1, v2; on s3 under v1". A variant is named
// alone when it failed in every mode it ran in, else with the modes it failed in,
// "v1 (m2)". A failure with a detail (the error of a program that does not load) has
// it on the lines that follow.
func GroupFailures(fs []Failure, runs []CheckRun, stages, variants []string) []string {
	type group struct {
		what, detail string
		failed       []CheckRun
	}
	var groups []*group
	for _, f := range fs {
		i := slices.IndexFunc(groups, func(g *group) bool { return g.what == f.What && g.detail == f.Detail })
		if i < 0 {
			groups = append(groups, &group{what: f.What, detail: f.Detail})
			i = len(groups) - 1
		}
		if g := groups[i]; !slices.Contains(g.failed, f.CheckRun) {
			g.failed = append(g.failed, f.CheckRun)
		}
	}
	// modes lists the modes of the runs of a stage and variant among runs.
	modes := func(runs []CheckRun, stage, variant string) []string {
		var ms []string
		for _, r := range runs {
			if r.Stage == stage && r.Variant == variant {
				ms = append(ms, r.Mode)
			}
		}
		return ms
	}
	var lines []string
	for _, g := range groups {
		var keys []string // the variants of a stage, in the order of their first stage
		byKey := map[string][]string{}
		for _, stage := range append([]string{""}, stages...) {
			var labels []string
			for _, v := range variants {
				failed := modes(g.failed, stage, v)
				switch {
				case len(failed) == 0:
					continue
				case len(failed) == len(modes(runs, stage, v)):
					labels = append(labels, v)
				default:
					labels = append(labels, v+" ("+strings.Join(failed, ", ")+")")
				}
			}
			if labels == nil {
				continue
			}
			key := strings.Join(labels, ", ")
			if _, seen := byKey[key]; !seen {
				keys = append(keys, key)
			}
			byKey[key] = append(byKey[key], stage)
		}
		var parts []string
		for _, key := range keys {
			on := strings.Join(slices.DeleteFunc(byKey[key], func(s string) bool { return s == "" }), ", ")
			if on != "" {
				on = "on " + on + " "
			}
			parts = append(parts, on+"under "+key)
		}
		line := g.what + " " + strings.Join(parts, "; ")
		if g.detail != "" {
			line += ":\n" + g.detail
		}
		lines = append(lines, line)
	}
	return lines
}
