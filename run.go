package interderive

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// DefaultFuel is the number of contractions a run may perform when Options.Fuel is
// not set.
const DefaultFuel = 10_000_000

// Options configures one run of a stage, in any calculus.
type Options struct {
	// Fuel bounds the number of contractions (not administrative steps): a run that
	// would perform more stops with ErrOutOfFuel. Zero or negative means DefaultFuel.
	Fuel int
	// OnContract, if not nil, receives the name of every contraction, in order: the
	// contraction-event stream by which stages are compared in lockstep.
	OnContract func(rule string)
	// Observer, if not nil, watches the run besides its contractions: the stage's own
	// steps between them, and what it reports (see Observer).
	Observer Observer
	// Merging selects, for the cast calculus, whether adjacent pending coercions in the
	// context are merged (docs/references.md, merging).
	Merging Merging
	// Timeout, if positive, bounds the run's wall-clock time: a run still going
	// after it stops with ErrTimeout (checked every few hundred contractions, or more
	// often when contractions are slow: about every millisecond).
	Timeout time.Duration
	// Memory, if positive, bounds the live heap, in bytes: a run during which the live
	// heap (as of the last collection, runtime/metrics' /gc/heap/live:bytes) passes it
	// stops with ErrOutOfMemory (looked at every few milliseconds). The heap is the
	// process's, so runs that share a process share the budget. Collections must come
	// often enough near the budget for the live heap to be known: the command sets the
	// runtime's soft limit to the same figure (debug.SetMemoryLimit), and a caller of
	// the library should do the same.
	Memory int64
	// Engine names how the stages derived from a rule file run (sem.StageOf): "" or
	// EngineTables, the file's tables interpreted in the process; EngineCompiled, the
	// stages derive --go writes, built by the Go toolchain and loaded into the process
	// (internal/compiled). The hand-written stages ignore it.
	Engine string
	// Output, if positive, bounds in bytes each value or term printed for the run: the
	// answer (a longer one is an ErrOutputLimit) and each item of a trace (a longer one
	// is cut short and marked). Zero means no bound.
	Output int
}

// The engines of the stages derived from a rule file (Options.Engine).
const (
	EngineTables   = "tables"
	EngineCompiled = "compiled"
)

// Engines are the engines' names, the default first.
var Engines = []string{EngineTables, EngineCompiled}

// CheckEngine refuses an engine's name that is not one of Engines ("" is the
// default, the tables).
func CheckEngine(name string) error {
	if name != "" && !slices.Contains(Engines, name) {
		return fmt.Errorf("unknown engine %q: --engine takes %s", name, strings.Join(Engines, ", "))
	}
	return nil
}

// Merging says whether a run of the cast calculus merges adjacent pending coercions in
// its evaluation context: <c> <d> E becomes <d;c> E (a MergeCst contraction), and a
// pending coercion is normalised as soon as it is pending, so that tail calls through
// casts run in constant space (Herman, Tomb & Flanagan). Merging changes the
// contraction sequence; it preserves the answer when composition of normal forms is
// associative, which holds for the lazy semantics but not for the eager ones (see
// gradual.MergesSafely). The space-efficient stages (machine, cps2, interp) merge by
// default under the semantics where that is safe; the reduction semantics and the
// calculus of closures do not merge by default.
type Merging uint8

// The merging modes.
const (
	MergeDefault Merging = iota // the stage's default
	Merged
	Unmerged
)

// Merge reports whether to merge, given the stage's default.
func (m Merging) Merge(stageDefault bool) bool {
	switch m {
	case Merged:
		return true
	case Unmerged:
		return false
	}
	return stageDefault
}

// String is the mode's name on the command line.
func (m Merging) String() string {
	switch m {
	case Merged:
		return "merged"
	case Unmerged:
		return "unmerged"
	}
	return "default"
}

// Budget returns the effective fuel of o.
func (o Options) Budget() int {
	if o.Fuel <= 0 {
		return DefaultFuel
	}
	return o.Fuel
}

// ErrResourceLimit matches, with errors.Is, every error that ends a run at a resource
// limit without an answer: fuel, time, nesting depth, and the size bounds of meta-level
// functions (a differentiation strategy that gives up for size). Such a run says
// nothing about the program's meaning: the command exits with status 3, and a
// comparison of stages does not count it as agreement.
var ErrResourceLimit = errors.New("resource limit")

// ErrOutOfFuel is returned (wrapped in a *FuelError) by a run whose fuel ran out
// before it reached an answer. Running out of fuel is not an answer.
var ErrOutOfFuel = errors.New("out of fuel")

// FuelError reports that a run stopped after Steps contractions without an answer.
type FuelError struct{ Steps int }

func (e *FuelError) Error() string {
	return fmt.Sprintf("out of fuel after %d contractions", e.Steps)
}

// Unwrap makes errors.Is(err, ErrOutOfFuel) hold.
func (e *FuelError) Unwrap() error { return ErrOutOfFuel }

// Is makes errors.Is(err, ErrResourceLimit) hold.
func (e *FuelError) Is(target error) bool { return target == ErrResourceLimit }

// ErrTooDeep is returned (wrapped in a *DepthError) when a run's terms or its
// recursion nest deeper than a stage's bound: the alternative, in Go, is a crash of
// the whole process on stack exhaustion.
var ErrTooDeep = errors.New("nesting too deep")

// DepthError reports which bound a run exceeded.
type DepthError struct {
	What  string // what nested too deeply: "term", "recursion", ...
	Limit int
	Hint  string // what would run the program, if anything: "--ad tape takes ..."
}

func (e *DepthError) Error() string {
	msg := fmt.Sprintf("%s nests deeper than the limit of %d", e.What, e.Limit)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrTooDeep) hold.
func (e *DepthError) Unwrap() error { return ErrTooDeep }

// Is makes errors.Is(err, ErrResourceLimit) hold.
func (e *DepthError) Is(target error) bool { return target == ErrResourceLimit }

// ErrTimeout is returned (wrapped in a *TimeoutError) by a run that exceeded
// Options.Timeout.
var ErrTimeout = errors.New("timed out")

// TimeoutError reports that a run stopped after its time limit.
type TimeoutError struct {
	Limit time.Duration
	Steps int
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("timed out after %s (%d contractions)", e.Limit, e.Steps)
}

// Unwrap makes errors.Is(err, ErrTimeout) hold.
func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// Is makes errors.Is(err, ErrResourceLimit) hold.
func (e *TimeoutError) Is(target error) bool { return target == ErrResourceLimit }

// Counter counts contractions against a budget and forwards them to the observer; it
// is what every stage calls once per contraction. It also watches the run's time and
// memory budgets (Limits), every few contractions.
//
// Contract is on every stage's hot path, so it has a fast path the compiler inlines:
// while no observer is set and the count is below fast — the budget, or the next look
// at the limits — a contraction is one increment and one comparison.
//
// The look at the limits comes every timeCheckEvery contractions at most, and more
// often when contractions are slow (a reduction semantics decomposing a large term
// from its root): the period halves when a period took more than a couple of
// milliseconds and doubles when it took less than a quarter of one, so that the clock
// is read about every millisecond, never so often that it costs. The memory budget is
// enforced from the same look (Limits samples the heap every few milliseconds), so
// it costs the fast path nothing and needs no goroutine.
type Counter struct {
	n, budget int
	fast      int // below it, a contraction needs no check but the count
	on        func(string)
	limits    Limits
	next      int       // the count at which to look at the limits next
	period    int       // contractions between two looks: 1 to timeCheckEvery
	looked    time.Time // the last look
}

// NewCounter starts counting for a run configured by o.
func NewCounter(o Options) *Counter {
	c := new(Counter)
	c.Start(o)
	return c
}

// Start starts counting, in place, for a run configured by o: a counter that is part
// of a run's own state (sem.NewRun) costs the run no allocation of its own.
func (c *Counter) Start(o Options) {
	// The first look at the limits is after firstLook contractions (or, in a
	// function's evaluation, its first callsPerLook calls: sem), and the run's clock
	// starts there: a run that short reads no clock (a read is some 50 ns, a tenth
	// of a short run of a rule file), and a run's timeout counts from its first few
	// contractions, not its first.
	*c = Counter{budget: o.Budget(), on: o.OnContract, period: 1, next: firstLook}
	c.limits.start(o)
	c.limits.of = c
	c.setFast()
}

// firstLook is the contractions a run makes before its first look at the limits.
const firstLook = 4

// timeCheckEvery is the most contractions that pass between two looks at the limits.
const timeCheckEvery = 256

// The time between two looks at the limits that makes the period shorter, or longer.
const (
	slowPeriod = 2 * time.Millisecond
	fastPeriod = 250 * time.Microsecond
)

// setFast sets the bound of the fast path: none with an observer (every contraction
// is reported), else the budget or the next look at the limits, whichever comes first.
func (c *Counter) setFast() {
	switch {
	case c.on != nil:
		c.fast = 0
	case c.limits.Active():
		c.fast = min(c.budget, c.next)
	default:
		c.fast = c.budget
	}
}

// Contract records one contraction of the given rule. It returns a *FuelError if the
// budget was already spent (or a *TimeoutError past the time limit, a *MemoryError
// over the memory budget), in which case the contraction must not happen.
func (c *Counter) Contract(rule string) error {
	if c.n < c.fast {
		c.n++
		return nil
	}
	return c.contractSlow(rule)
}

// contractSlow is Contract with every check: the budget, the limits, the observer.
func (c *Counter) contractSlow(rule string) error {
	if c.n >= c.budget {
		return &FuelError{Steps: c.n}
	}
	if c.n >= c.next && c.limits.Active() {
		if err := c.look(); err != nil {
			return err
		}
	}
	c.n++
	if c.on != nil {
		c.on(rule)
	}
	c.setFast()
	return nil
}

// look checks the limits and sets the next look, adapting the period to the time the
// last one took.
func (c *Counter) look() error {
	now := time.Now()
	if err := c.limits.check(now, c.n); err != nil {
		return err
	}
	if !c.looked.IsZero() {
		switch d := now.Sub(c.looked); {
		case d > slowPeriod && c.period > 1:
			c.period /= 2
		case d < fastPeriod && c.period < timeCheckEvery:
			c.period *= 2
		}
	}
	c.looked = now
	c.next = c.n + c.period
	return nil
}

// Check checks the run's time and memory budgets now, outside a contraction: for work
// that can take long between two contractions, such as printing a large term. It
// returns nil, a *TimeoutError or a *MemoryError.
func (c *Counter) Check() error { return c.limits.Check() }

// Limits are the run's time and memory budgets, as the counter watches them.
func (c *Counter) Limits() *Limits { return &c.limits }

// Steps returns the number of contractions recorded so far.
func (c *Counter) Steps() int { return c.n }
