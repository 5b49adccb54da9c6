package driver

import (
	"errors"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
)

// printer prints the items of a run — its answer, the terms, contexts and closures of
// its trace — within the run's budgets (interderive.Options.Output per item, and the
// run's time and memory): a term shares its subterms, so its printed form can be
// exponentially longer than the term, and printing it whole could outlast any
// timeout. An item of a trace longer than the output budget is cut and marked
// (elided); a value that does not fit is an error (answer); when the time or memory
// budget runs out while printing, the printer keeps the error (err) and the trace
// stops with it.
type printer struct {
	budget interderive.PrintBudget
	err    error // the time or memory budget's error, once printing ran out of it
}

// newPrinter prints within the budgets of a run configured by opts, whose time and
// memory limits watches (nil: only the output budget).
func newPrinter(opts interderive.Options, limits *interderive.Limits) *printer {
	return &printer{budget: opts.PrintBudget(limits)}
}

// elided marks an item cut at the output budget.
func elided(limit int) string {
	return " … [cut at " + interderive.FormatBytes(int64(limit)) + "]"
}

// item is s, the result of a bounded printing, marked if it was cut at the output
// budget; any other error stops the printing (p.err).
func (p *printer) item(s string, err error) string {
	switch {
	case err == nil:
		return s
	case errors.Is(err, interderive.ErrOutputLimit):
		return s + elided(p.budget.Max)
	}
	if p.err == nil {
		p.err = err
	}
	return s + " " + stoppedMark
}

// whole is an item made of several printed parts, cut and marked at the output budget
// as one.
func (p *printer) whole(s string) string {
	if p.budget.Max > 0 && len(s) > p.budget.Max {
		return interderive.Cut(s, p.budget.Max) + elided(p.budget.Max)
	}
	return s
}

// stoppedMark is what an item prints as once the time or memory budget ran out.
const stoppedMark = "…"

// term prints a term of the cast calculus.
func (p *printer) term(e g.Expr) string {
	if p.err != nil {
		return stoppedMark
	}
	return p.item(g.FormatBounded(e, p.budget))
}

// castContext prints a term context with [] for its hole, as contexts.Cast.String.
func (p *printer) castContext(E contexts.Cast) string {
	return p.term(E.Plug(&g.Var{Name: contexts.Hole}))
}

// dplTerm prints a term of the differentiable language.
func (p *printer) dplTerm(t dpl.Term) string {
	if p.err != nil {
		return stoppedMark
	}
	return p.item(dpl.FormatBounded(t, p.budget))
}

// dplType prints a type of the differentiable language.
func (p *printer) dplType(t dpl.Type) string {
	if p.err != nil {
		return stoppedMark
	}
	return p.item(dpl.FormatTypeBounded(t, p.budget))
}

// dplContext prints a context of the differentiable language with [] for its hole, as
// contexts.Diff.String.
func (p *printer) dplContext(E contexts.Diff) string {
	return p.dplTerm(E.Plug(&dpl.Var{Name: contexts.Hole}))
}

// answer is the error of an answer that did not print within the budgets: an
// *interderive.OutputError naming the value, or the time or memory budget's error.
func (p *printer) answer(err error) error {
	if errors.Is(err, interderive.ErrOutputLimit) {
		return &interderive.OutputError{What: "the value", Limit: p.budget.Max}
	}
	return err
}

// castAnswer is the outcome of a cast-calculus answer, whose value is printed within
// the budgets, or the error that says it is not.
func (p *printer) castAnswer(a g.Answer, steps int) (Outcome, error) {
	if a.Blamed {
		return outcomeOf(a, steps), nil
	}
	v, err := g.FormatBounded(a.Value, p.budget)
	if err != nil {
		return Outcome{Steps: steps}, p.answer(err)
	}
	return Outcome{Observation: a.Observe(), Value: v, Steps: steps}, nil
}

// dplAnswer is the outcome of an answer of the differentiable language, printed
// within the budgets (the value, or the redex where it is undefined), or the error
// that says it is not.
func (p *printer) dplAnswer(a dpl.Answer, steps int) (Outcome, error) {
	if a.Undefined != nil {
		r, err := dpl.FormatBounded(a.Undefined.Redex, p.budget)
		if err != nil {
			return Outcome{Steps: steps}, p.answer(err)
		}
		return Outcome{Observation: "undefined", Value: "undefined: " + r, Steps: steps}, nil
	}
	v, err := dpl.FormatBounded(a.Value, p.budget)
	if err != nil {
		return Outcome{Steps: steps}, p.answer(err)
	}
	return Outcome{Observation: v, Value: v, Steps: steps}, nil
}
