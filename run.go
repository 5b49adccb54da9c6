package interderive

import (
	"errors"
	"fmt"
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
	// Merging selects, for the cast calculus, whether adjacent pending coercions in the
	// context are merged (gradual.md §6).
	Merging Merging
	// Timeout, if positive, bounds the run's wall-clock time: a run still going
	// after it stops with ErrTimeout (checked every few hundred contractions).
	Timeout time.Duration
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
// is what every stage calls once per contraction.
//
// Contract is on every stage's hot path, so it has a fast path the compiler inlines:
// while no observer is set and the count is below fast — the budget, or the next look
// at the clock — a contraction is one increment and one comparison.
type Counter struct {
	n, budget int
	fast      int // below it, a contraction needs no check but the count
	on        func(string)
	timeout   time.Duration
	deadline  time.Time
}

// NewCounter starts counting for a run configured by o.
func NewCounter(o Options) *Counter {
	c := &Counter{budget: o.Budget(), on: o.OnContract, timeout: o.Timeout}
	if o.Timeout > 0 {
		c.deadline = time.Now().Add(o.Timeout)
	}
	c.setFast()
	return c
}

// timeCheckEvery is how many contractions pass between two looks at the clock.
const timeCheckEvery = 256

// setFast sets the bound of the fast path: none with an observer (every contraction
// is reported), else the budget or the next multiple of timeCheckEvery, whichever
// comes first.
func (c *Counter) setFast() {
	switch {
	case c.on != nil:
		c.fast = 0
	case c.timeout > 0:
		c.fast = min(c.budget, (c.n/timeCheckEvery+1)*timeCheckEvery)
	default:
		c.fast = c.budget
	}
}

// Contract records one contraction of the given rule. It returns a *FuelError if the
// budget was already spent (or a *TimeoutError past the time limit), in which case the
// contraction must not happen.
func (c *Counter) Contract(rule string) error {
	if c.n < c.fast {
		c.n++
		return nil
	}
	return c.contractSlow(rule)
}

// contractSlow is Contract with every check: the budget, the clock, the observer.
func (c *Counter) contractSlow(rule string) error {
	if c.n >= c.budget {
		return &FuelError{Steps: c.n}
	}
	if c.timeout > 0 && c.n%timeCheckEvery == 0 && time.Now().After(c.deadline) {
		return &TimeoutError{Limit: c.timeout, Steps: c.n}
	}
	c.n++
	if c.on != nil {
		c.on(rule)
	}
	c.setFast()
	return nil
}

// Steps returns the number of contractions recorded so far.
func (c *Counter) Steps() int { return c.n }
