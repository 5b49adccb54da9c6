package compile

import "github.com/interderive/interderive"

// meter counts a run's contractions. When nothing watches the run's contractions
// (no Options.OnContract, no Observer), it is the stage's own: the code counts a
// corridor of contractions that follow each other with nothing between them at once
// (tick), and looks at the time and memory budgets every lookEvery contractions. When
// something watches them, every contraction goes to the run's interderive.Counter, one
// by one and by name, as in every other stage.
type meter struct {
	n, fast int // below fast, a contraction is counted by n alone
	budget  int
	next    int // the count at which to look at the limits next
	limits  *interderive.Limits
	counter *interderive.Counter // the contractions are watched: every one goes here
}

// lookEvery is the number of contractions between two looks at the time and memory
// budgets when the meter counts alone. A compiled contraction does a bounded amount of
// work (its corridor, a closure's copy of its free variables), so that 256 of them
// take microseconds.
const lookEvery = 256

// newMeter starts counting for a run configured by opts.
func newMeter(opts interderive.Options) meter {
	if opts.OnContract != nil || opts.Observer != nil {
		return meter{fast: -1, counter: interderive.NewCounter(opts)}
	}
	m := meter{budget: opts.Budget()}
	m.limits = interderive.NewLimits(opts, m.steps)
	m.setFast()
	return m
}

// steps is the number of contractions so far.
func (c *meter) steps() int {
	if c.counter != nil {
		return c.counter.Steps()
	}
	return c.n
}

// setFast sets the bound of the fast path: the budget, or the next look at the
// limits, whichever comes first.
func (c *meter) setFast() {
	c.fast = c.budget
	if c.limits.Active() {
		c.fast = min(c.budget, c.next)
	}
}

// contract counts one contraction of the rule: a *FuelError if the budget is spent, a
// *TimeoutError or a *MemoryError past the limits, in which case it must not happen.
func (c *meter) contract(rule string) error {
	if c.n < c.fast {
		c.n++
		return nil
	}
	return c.slow(rule)
}

// tick counts a corridor: the n contractions rules, in a row, nothing between them
// (n is len(rules), a constant where tick is called).
func (c *meter) tick(n int, rules []string) error {
	if c.n+n <= c.fast {
		c.n += n
		return nil
	}
	return c.tickSlow(rules)
}

// tickSlow is tick with every check, contraction by contraction. (Not inlined, so
// that tick is.)
//
//go:noinline
func (c *meter) tickSlow(rules []string) error {
	for _, r := range rules {
		if err := c.slow(r); err != nil {
			return err
		}
	}
	return nil
}

// slow is contract with every check.
func (c *meter) slow(rule string) error {
	if c.counter != nil {
		return c.counter.Contract(rule)
	}
	if c.n >= c.budget {
		return &interderive.FuelError{Steps: c.n}
	}
	if c.n >= c.next && c.limits.Active() {
		if err := c.limits.Check(); err != nil {
			return err
		}
		c.next = c.n + lookEvery
	}
	c.n++
	c.setFast()
	return nil
}
