package compile

import "github.com/interderive/interderive"

// meter counts a run's contractions. When nothing watches the run's contractions
// (no Options.OnContract, no Observer), it is the stage's own: the code counts a
// corridor of contractions that follow each other with nothing between them at once
// (tick), and looks at the time and memory budgets every lookEvery contractions. When
// something watches them, every contraction goes to the run's interderive.Counter, one
// by one and by name, as in every other stage.
type meter struct {
	left    int // the contractions the fast path may still count (-1: none, ever)
	fast    int // the count at which the fast path ends: the count is fast - left
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

// start starts counting for a run configured by opts.
func (c *meter) start(opts interderive.Options) {
	if opts.OnContract != nil || opts.Observer != nil {
		*c = meter{left: -1, counter: interderive.NewCounter(opts)}
		return
	}
	*c = meter{budget: opts.Budget()}
	c.limits = interderive.NewLimits(opts, c.steps)
	c.setFast(0)
}

// steps is the number of contractions so far.
func (c *meter) steps() int {
	if c.counter != nil {
		return c.counter.Steps()
	}
	return c.fast - c.left
}

// setFast sets the end of the fast path, the count being n: the budget, or the next
// look at the limits, whichever comes first.
func (c *meter) setFast(n int) {
	c.fast = c.budget
	if c.limits.Active() {
		c.fast = min(c.budget, c.next)
	}
	c.left = c.fast - n
}

// contract counts one contraction of the rule: a *FuelError if the budget is spent, a
// *TimeoutError or a *MemoryError past the limits, in which case it must not happen.
func (c *meter) contract(rule string) error {
	if c.left > 0 {
		c.left--
		return nil
	}
	return c.slow(rule)
}

// tick counts a corridor: the n contractions rules, in a row, nothing between them
// (n is len(rules), a constant where tick is called).
func (c *meter) tick(n int, rules []string) error {
	if c.left >= n {
		c.left -= n
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
	n := c.fast - c.left
	if n >= c.budget {
		return &interderive.FuelError{Steps: n}
	}
	if n >= c.next && c.limits.Active() {
		if err := c.limits.Check(); err != nil {
			return err
		}
		c.next = n + lookEvery
	}
	c.setFast(n + 1)
	return nil
}
