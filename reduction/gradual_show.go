package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	g "github.com/interderive/interderive/gradual"
)

// castShow shows the steps of the reduction semantics of the gradual calculi to a
// run's observer, each term within the run's print budget; nil when nothing observes
// the run, and then every method returns at once.
type castShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
}

func newCastShow(opts interderive.Options, fuel *interderive.Counter) *castShow {
	obs := opts.StepObserver()
	if obs == nil {
		return nil
	}
	return &castShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *castShow) term(e g.Expr) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return g.FormatBounded(e, b) })
}

// decomposition shows a decomposition: the context, with [] for its hole, and the
// redex; for StepCst also the coercion context, the coercion redex of the inner layer,
// the rule that contracts it and its contractum.
func (s *castShow) decomposition(d CastDecomposition) {
	if s == nil {
		return
	}
	s.obs.Step("decompose: " + s.term(d.Context.Plug(&g.Var{Name: contexts.Hole})) + "  with redex  " + s.term(d.Redex.Term()))
	if c, ok := d.Redex.(*StepCst); ok {
		s.obs.Step("coercion:  " + c.CContext.String() + "  with redex  " + g.FormatCoercion(c.CRedex) + "  ->" + c.CRule + "  " + g.FormatCoercion(c.CContractum))
	}
}

// contracted shows contraction n's contractum and the term after plugging it; it
// returns the time or memory budget's error if printing ran out of it.
func (s *castShow) contracted(n int, contractum, next g.Expr) error {
	if s == nil {
		return nil
	}
	s.obs.About(n, "contract:  "+s.term(contractum))
	s.obs.About(n, "plug:      "+s.term(next))
	return s.pr.Err()
}
