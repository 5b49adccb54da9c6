package interderive

import "errors"

// An ItemPrinter prints the items of a run's trace — its terms, contexts, closures,
// states — within the run's budgets (Options.Output per item, and the run's time and
// memory): a term shares its subterms, so that its printed form can be exponentially
// longer than the term, and printing it whole could outlast any timeout. An item
// longer than the output budget is cut and marked; when the time or memory budget runs
// out while printing, the printer keeps the error (Err), prints every later item as
// "…", and the run stops with it.
type ItemPrinter struct {
	budget PrintBudget
	err    error
}

// NewItemPrinter prints within the budgets of a run configured by opts, whose time and
// memory limits watches (nil: only the output budget).
func NewItemPrinter(opts Options, limits *Limits) *ItemPrinter {
	return &ItemPrinter{budget: opts.PrintBudget(limits)}
}

// Budget is the budget of one item.
func (p *ItemPrinter) Budget() PrintBudget { return p.budget }

// Err is the time or memory budget's error, once printing ran out of it.
func (p *ItemPrinter) Err() error { return p.err }

// StoppedMark is what an item prints as once the time or memory budget ran out.
const StoppedMark = "…"

// Item prints an item with format, a bounded printer (gradual.FormatBounded, ...),
// within the budget.
func (p *ItemPrinter) Item(format func(PrintBudget) (string, error)) string {
	if p.err != nil {
		return StoppedMark
	}
	return p.Result(format(p.budget))
}

// Result is the item s that a bounded printing gave with err: marked if it was cut at
// the output budget; any other error stops the printing (Err).
func (p *ItemPrinter) Result(s string, err error) string {
	switch {
	case err == nil:
		return s
	case errors.Is(err, ErrOutputLimit):
		return s + elided(p.budget.Max)
	}
	if p.err == nil {
		p.err = err
	}
	return s + " " + StoppedMark
}

// Whole is an item made of several printed parts, cut and marked at the output budget
// as one.
func (p *ItemPrinter) Whole(s string) string {
	if p.budget.Max > 0 && len(s) > p.budget.Max {
		return Cut(s, p.budget.Max) + elided(p.budget.Max)
	}
	return s
}

// elided marks an item cut at the output budget.
func elided(limit int) string {
	return " … [cut at " + FormatBytes(int64(limit)) + "]"
}
