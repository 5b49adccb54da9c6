package closures

import "github.com/interderive/interderive"

// castShow shows the steps of the calculus of closures of the gradual calculi to a
// run's observer: its environment steps and its contractions, every closure within the
// run's print budget, its environments named (Printer); nil when nothing observes the
// run, and then every method returns at once.
type castShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
	cp  *Printer
}

func newCastShow(opts interderive.Options, fuel *interderive.Counter) *castShow {
	obs := opts.StepObserver()
	if obs == nil {
		return nil
	}
	pr := interderive.NewItemPrinter(opts, fuel.Limits())
	return &castShow{obs: obs, pr: pr, cp: NewPrinter(pr.Budget())}
}

func (s *castShow) closure(cl Closure) string { return s.pr.Result(s.cp.Closure(cl)) }

// step shows the step of the decomposition d, whose contractum is given, before it
// is taken: an environment step as ENV: redex ~> contractum; a contraction as its
// decomposition and its contractum; each after the definitions of the environments it
// names first. It returns the time or memory budget's error if printing ran out of it.
func (s *castShow) step(d decomposition, contractum Closure) error {
	if s == nil {
		return nil
	}
	var lines []string
	if env := envStep(d.redex); env != "" {
		redex, contractum := s.closure(d.redex.Closure()), s.closure(contractum)
		lines = []string{env + ": " + redex + "  ~>  " + contractum}
	} else {
		context, redex, contractum := s.pr.Result(s.cp.Context(d.context)), s.closure(d.redex.Closure()), s.closure(contractum)
		lines = []string{"decompose: " + context + "  with redex  " + redex, "contract:  " + contractum}
	}
	for _, def := range s.cp.Defs() {
		s.obs.Step(def)
	}
	for _, l := range lines {
		s.obs.Step(l)
	}
	return s.pr.Err()
}
