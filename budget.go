package interderive

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// A run has four budgets: fuel (contractions), time, memory and output. Fuel is
// counted by the Counter's fast path; time and memory are watched by Limits, which the
// Counter consults every few contractions (and printers every few kilobytes), and
// output bounds each value or term printed for the run (PrintBudget).

// ErrOutOfMemory is returned (wrapped in a *MemoryError) by a run whose live heap grew
// past Options.Memory.
var ErrOutOfMemory = errors.New("out of memory")

// MemoryError reports that a run stopped because the live heap passed its budget.
type MemoryError struct {
	Limit int64 // the budget, in bytes
	Live  int64 // the live heap when the run stopped
	Steps int   // contractions performed (0 if the limit was hit outside a run's steps)
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("out of memory: the live heap reached %s, over the budget of %s (%d contractions)",
		FormatBytes(e.Live), FormatBytes(e.Limit), e.Steps)
}

// Unwrap makes errors.Is(err, ErrOutOfMemory) hold.
func (e *MemoryError) Unwrap() error { return ErrOutOfMemory }

// Is makes errors.Is(err, ErrResourceLimit) hold.
func (e *MemoryError) Is(target error) bool { return target == ErrResourceLimit }

// ErrOutputLimit is returned (wrapped in an *OutputError) when a value or term prints
// in more bytes than Options.Output allows.
var ErrOutputLimit = errors.New("output limit")

// OutputError reports that something printed for a run was longer than its budget.
type OutputError struct {
	What  string // what was printed: "the value", ...
	Limit int    // the budget, in bytes
}

func (e *OutputError) Error() string {
	what := e.What
	if what == "" {
		what = "the output"
	}
	return fmt.Sprintf("%s prints in more than %s", what, FormatBytes(int64(e.Limit)))
}

// Unwrap makes errors.Is(err, ErrOutputLimit) hold.
func (e *OutputError) Unwrap() error { return ErrOutputLimit }

// Is makes errors.Is(err, ErrResourceLimit) hold: a value too long to print is a
// resource limit, not an answer.
func (e *OutputError) Is(target error) bool { return target == ErrResourceLimit }

// Limits watches a run's time and memory budgets (Options.Timeout, Options.Memory)
// for code that runs outside the Counter's contractions, such as printing, and for
// the Counter itself. A zero Limits watches nothing. Like the Counter, it belongs to
// one goroutine.
type Limits struct {
	timeout  time.Duration
	deadline time.Time
	memory   int64
	sampled  time.Time        // the last look at the heap (the start, before the first)
	looked   bool             // the heap was looked at once
	begun    bool             // the clock started (begin): at NewLimits, or a Counter's first look
	sample   []metrics.Sample // made at the first look, reused at the others
	steps    func() int       // the contractions so far, for the errors' reports
	of       *Counter         // or the counter these limits are part of, whose count it is
}

// memorySampleEvery is how long Limits waits between two looks at the heap: the live
// heap changes only when a collection ends, and reading it is cheap but not free.
const memorySampleEvery = 5 * time.Millisecond

// liveHeapMetric is the live heap marked by the last collection.
const liveHeapMetric = "/gc/heap/live:bytes"

// NewLimits starts watching the time and memory budgets of o: the deadline is
// Options.Timeout from now. steps, if not nil, tells how many contractions the run has
// performed, for the errors' reports.
func NewLimits(o Options, steps func() int) *Limits {
	l := &Limits{steps: steps}
	l.start(o)
	if l.Active() {
		l.begin(time.Now())
	}
	return l
}

// start sets the budgets of o; the clock starts at begin.
func (l *Limits) start(o Options) {
	l.timeout = o.Timeout
	if o.Memory > 0 {
		// The heap is first looked at by the first check memorySampleEvery after
		// begin: a short run pays nothing for its memory budget (a read of the
		// runtime's metrics costs more than a contraction; a run allocates some
		// tens of megabytes at most in 5 ms).
		l.memory = o.Memory
	}
}

// begin starts the clock at now: the deadline is the timeout from now, and the
// memory budget's first look is memorySampleEvery after it.
func (l *Limits) begin(now time.Time) {
	if l.timeout > 0 {
		l.deadline = now.Add(l.timeout)
	}
	l.sampled, l.begun = now, true
}

// Active reports whether l watches anything.
func (l *Limits) Active() bool { return l != nil && (l.timeout > 0 || l.memory > 0) }

// Check returns a *TimeoutError past the deadline, a *MemoryError when the live heap
// is over the budget, and nil otherwise. It looks at the heap at most every few
// milliseconds.
func (l *Limits) Check() error {
	if !l.Active() {
		return nil
	}
	steps := 0
	switch {
	case l.of != nil:
		steps = l.of.n
	case l.steps != nil:
		steps = l.steps()
	}
	return l.check(time.Now(), steps)
}

func (l *Limits) check(now time.Time, steps int) error {
	if !l.begun { // a Counter's first look (Counter.Start)
		l.begin(now)
	}
	if l.timeout > 0 && now.After(l.deadline) {
		return &TimeoutError{Limit: l.timeout, Steps: steps}
	}
	if l.memory > 0 && now.Sub(l.sampled) >= memorySampleEvery {
		l.sampled = now
		live := l.liveHeap()
		if !l.looked && live > l.memory/2 {
			// The metric is the heap the last collection marked: a collection long
			// ago, in a process that ran something big before this run (a test's
			// earlier runs), can leave it near the budget though that heap is garbage
			// now. At the first look, past half the budget, it is measured afresh, so
			// that the run is charged for its own heap.
			runtime.GC()
			live = l.liveHeap()
		}
		l.looked = true
		if live > l.memory {
			return &MemoryError{Limit: l.memory, Live: live, Steps: steps}
		}
	}
	return nil
}

// liveHeap reads the live heap the last collection marked (0 if the runtime does not
// say).
func (l *Limits) liveHeap() int64 {
	if l.sample == nil {
		l.sample = []metrics.Sample{{Name: liveHeapMetric}}
	}
	metrics.Read(l.sample)
	if s := l.sample[0]; s.Value.Kind() == metrics.KindUint64 {
		return int64(min(s.Value.Uint64(), math.MaxInt64))
	}
	return 0
}

// LiveHeap returns the live heap marked by the last collection, in bytes.
func LiveHeap() int64 {
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(min(s[0].Value.Uint64(), math.MaxInt64))
}

// PrintBudget bounds the printing of one value or term: Max bytes (0 for no bound),
// and Check, if not nil, is called every CheckEvery bytes of output; an error from it
// stops the printing (the run's time or memory budget: Limits.Check). Printers that
// take a PrintBudget stop as soon as either says so, so that a term whose printed form
// is exponential in its size (a tuple of 2^40 leaves, built by sharing) costs no more
// than the budget.
type PrintBudget struct {
	Max   int
	Check func() error
}

// CheckEvery is how many bytes a printer writes between two calls of PrintBudget.Check.
const CheckEvery = 64 << 10

// Bounded reports whether b stops printing at all.
func (b PrintBudget) Bounded() bool { return b.Max > 0 || b.Check != nil }

// PrintBudget returns the print budget of an item printed for a run configured by o:
// Options.Output bytes, and the run's time and memory budgets through l (if l watches
// any).
func (o Options) PrintBudget(l *Limits) PrintBudget {
	b := PrintBudget{Max: max(o.Output, 0)}
	if l.Active() {
		b.Check = l.Check
	}
	return b
}

// Cut returns the longest prefix of s of at most n bytes that does not split a UTF-8
// sequence.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// units are the byte units ParseBytes reads, longest suffix first within each family.
var units = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"b", 1},
}

// ParseBytes reads a size in bytes: a number, optionally with a fraction, and a unit:
// B, kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), in any
// case; a bare number is bytes. "0" is zero (for a budget: no limit).
func ParseBytes(s string) (int64, error) {
	text := strings.TrimSpace(s)
	lower := strings.ToLower(text)
	factor := int64(1)
	for _, u := range units {
		if strings.HasSuffix(lower, u.suffix) {
			lower, factor = strings.TrimSpace(strings.TrimSuffix(lower, u.suffix)), u.factor
			break
		}
	}
	f, err := strconv.ParseFloat(lower, 64)
	if err != nil || lower == "" || strings.ContainsAny(lower, "einxp_") || f < 0 {
		return 0, fmt.Errorf("%q is not a size: write a number of bytes with a unit, e.g. 512MiB, 4GiB or 2GB", s)
	}
	n := f * float64(factor)
	if n >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large a size", s)
	}
	return int64(n), nil
}

// FormatBytes prints a size in bytes with a binary unit: 512 B, 1.5 KiB, 4 GiB.
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n), -1
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	s = strings.TrimSuffix(s, ".0")
	return s + " " + []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[i]
}

// FallbackMemory is DefaultMemory where the machine's memory cannot be read.
const FallbackMemory = 4 << 30

// DefaultMemory is the memory budget the command gives a run when --memory is not
// set: half of the memory the process may use — the machine's physical memory
// (MemTotal in /proc/meminfo), or the limit of its control group if that is lower
// (cgroup v2 memory.max, or v1 memory.limit_in_bytes) — and FallbackMemory (4 GiB)
// where neither can be read (other systems than Linux). Half, because the budget
// counts the live heap, and the process needs more than its live heap: the collector
// lets garbage accumulate up to its soft limit, and the runtime has stacks and
// metadata of its own; under a control group's hard limit the kernel would kill the
// process before a budget equal to that limit was reached. On a shared machine, half
// also leaves the other half to everyone else.
func DefaultMemory() int64 {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return string(b)
	}
	var limits []string
	own := read("/proc/self/cgroup")
	for _, path := range cgroupLimitFiles(own) {
		limits = append(limits, read(path))
	}
	return defaultMemory(read("/proc/meminfo"), limits)
}

// cgroupLimitFiles are the files that may hold the memory limit of the process's
// control group, given /proc/self/cgroup: its own group's and the root's, for cgroup
// v2 and v1 (inside a container the group's path is often not mounted, and the root
// of the mount is the container's group).
func cgroupLimitFiles(selfCgroup string) []string {
	files := []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}
	for _, line := range strings.Split(selfCgroup, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || strings.Contains(parts[2], "..") || parts[2] == "/" {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			files = append(files, "/sys/fs/cgroup"+parts[2]+"/memory.max")
		case strings.Contains(","+parts[1]+",", ",memory,"):
			files = append(files, "/sys/fs/cgroup/memory"+parts[2]+"/memory.limit_in_bytes")
		}
	}
	return files
}

// defaultMemory is DefaultMemory given the text of /proc/meminfo and of the cgroup
// limit files (empty when absent; "max" or a huge number when there is no limit).
func defaultMemory(meminfo string, cgroupLimits []string) int64 {
	usable := int64(0)
	for _, line := range strings.Split(meminfo, "\n") {
		rest, ok := strings.CutPrefix(line, "MemTotal:")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB"))
		if kb, err := strconv.ParseInt(rest, 10, 64); err == nil && kb > 0 && kb < math.MaxInt64/1024 {
			usable = kb * 1024
		}
	}
	for _, text := range cgroupLimits {
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		if err != nil || n <= 0 {
			continue // "max", absent, or unreadable: no limit
		}
		if usable == 0 || n < usable {
			usable = n
		}
	}
	if usable == 0 {
		return FallbackMemory
	}
	return usable / 2
}

// A BoundedBuilder is a strings.Builder that keeps within a PrintBudget: a printer
// writes into it and asks Stopped before each node it prints, so that a printing that
// stops returns after visiting no more than the nodes on the path to the current one.
// Without a budget (a zero PrintBudget) it never stops.
type BoundedBuilder struct {
	strings.Builder
	budget  PrintBudget
	bounded bool
	checkAt int   // the length at which to call budget.Check next
	err     error // why the printing stopped
}

// Bounded returns a BoundedBuilder for the budget b.
func Bounded(b PrintBudget) BoundedBuilder {
	return BoundedBuilder{budget: b, bounded: b.Bounded(), checkAt: CheckEvery}
}

// Stopped reports whether the printing must stop: the budget is spent, or its check
// failed (or Fail was called).
func (w *BoundedBuilder) Stopped() bool {
	if !w.bounded {
		return false
	}
	if w.err != nil {
		return true
	}
	n := w.Len()
	if w.budget.Max > 0 && n > w.budget.Max {
		w.err = &OutputError{Limit: w.budget.Max}
		return true
	}
	if w.budget.Check != nil && n >= w.checkAt {
		w.checkAt = n + CheckEvery
		if err := w.budget.Check(); err != nil {
			w.err = err
			return true
		}
	}
	return false
}

// Left is the budget that remains for what is still to be written.
func (w *BoundedBuilder) Left() PrintBudget {
	b := w.budget
	if b.Max > 0 {
		b.Max = max(1, b.Max-w.Len())
	}
	return b
}

// Fail stops the printing with err, unless it stopped already; an OutputError of
// the remaining budget becomes one of the whole budget.
func (w *BoundedBuilder) Fail(err error) {
	if err == nil || w.err != nil {
		return
	}
	w.bounded, w.err = true, err
	if errors.Is(err, ErrOutputLimit) && w.budget.Max > 0 {
		w.err = &OutputError{Limit: w.budget.Max}
	}
}

// Result is what a bounded printing returns: the output, cut to the budget if it
// passed it (not splitting a character), and why it stopped.
func (w *BoundedBuilder) Result() (string, error) {
	if w.bounded && w.err == nil {
		w.Stopped() // the last node may have passed the budget
	}
	s := w.String()
	if w.budget.Max > 0 {
		s = Cut(s, w.budget.Max)
	}
	return s, w.err
}
