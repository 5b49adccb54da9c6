package reduction

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/sem"
)

// The reduction semantics of a rule-defined calculus (sem), derived from its rule
// file: decompose the term from the root into a context (contexts.Rules) and a
// potential redex by the file's frames in search order, contract the redex by the
// file's rules, plug the contractum back, and again from the root (iterate). The
// decomposition is Generalized Refocusing's pair of functions, driven by the tables
// of the file (each kind's values and frames, indexed by root constructor):
//
//	decomposeTerm(t, k, E):     t a value of k             -> decomposeContext(E, t)
//	                            t enters frame f of k      -> decomposeTerm(hole, f's hole kind, E·f)
//	                            otherwise                  -> t is a potential redex of k in E
//	decomposeContext([], v):                               -> v is the answer
//	decomposeContext(E·f, v):   t = f[v] enters a frame g of f's kind after f in the search order
//	                                                       -> decomposeTerm(hole, g's hole kind, E·g)
//	                            t a value of f's kind      -> decomposeContext(E, t)
//	                            otherwise                  -> t is a potential redex of f's kind in E
//
// A potential redex is contracted by the first rule of its kind that matches it; if
// none does, the run is stuck (with the reason of a declared stuck shape). A potential
// redex in the empty context that is one of the file's answers (blame l) ends the run.
// A context rule (an abort) contracts its redex with the context: the contractum
// replaces the whole term, or the innermost frame that matches its delimiter, the
// frames inside discarded (plug puts it back into what remains of the context). A
// rule that steps an inner layer, (where (step K a b)), steps it as this stage steps
// everything: the inner term decomposed from its root in kind K (its own context), the
// redex contracted, the contractum plugged back (stepLayer).

// Rules is the reduction semantics derived from a rule file (sem.StageOf).
func (Stage) Rules() sem.Stage { return rulesSemantics{} }

// rulesSemantics is the derived reduction semantics: its functions are decomposeTerm
// and decomposeContext (decompose), contract, plug and iterate.
type rulesSemantics struct{}

// rulesDecomposition is a term decomposed: a context and the potential redex in its
// hole with the hole's kind, or (redex nil) an answer.
type rulesDecomposition struct {
	context contexts.Rules
	redex   *sem.Term
	kind    *sem.Kind
	answer  *sem.Term
}

// decompose splits a term into a context and a potential redex, or finds it is an
// answer: decomposeTerm and decomposeContext, mutually tail-recursive, as one loop.
// E is room for the context, reused from a decomposition whose context is dead.
func (s rulesSemantics) decompose(e *sem.Engine, t *sem.Term, E contexts.Rules) rulesDecomposition {
	return s.decomposeIn(e, t, e.Lang().Root(), E[:0])
}

// decomposeIn decomposes t of kind k (the root kind, or an inner layer's), its
// context built in E.
func (s rulesSemantics) decomposeIn(e *sem.Engine, t *sem.Term, k *sem.Kind, E contexts.Rules) rulesDecomposition {
	for {
		v, d := s.decomposeTerm(e, &E, t, k)
		if v == nil {
			return d
		}
		if t, k, d = s.decomposeContext(e, &E, v); t == nil {
			return d
		}
	}
}

// decomposeTerm descends into t, of kind k, pushing frames onto E, and returns the
// value it meets, or the potential redex it finds.
func (rulesSemantics) decomposeTerm(e *sem.Engine, E *contexts.Rules, t *sem.Term, k *sem.Kind) (*sem.Term, rulesDecomposition) {
	for {
		if e.IsValue(t, k) {
			return t, rulesDecomposition{}
		}
		f, ok := e.FindFrame(t, k, 0)
		if !ok {
			if len(*E) == 0 && e.IsAnswer(t, k) {
				return nil, rulesDecomposition{answer: t}
			}
			return nil, rulesDecomposition{context: *E, redex: t, kind: k}
		}
		*E = append(*E, contexts.RulesFrame{Frame: f, Term: t})
		t, k = sem.At(t, f.Path), f.Hole
	}
}

// decomposeContext climbs out of E with the value v until it finds a subterm still to
// decompose (returned with its kind, the frame that waits for it pushed onto E), a
// potential redex, or the empty context (an answer).
func (rulesSemantics) decomposeContext(e *sem.Engine, E *contexts.Rules, v *sem.Term) (*sem.Term, *sem.Kind, rulesDecomposition) {
	for {
		if len(*E) == 0 {
			return nil, nil, rulesDecomposition{answer: v}
		}
		top := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		t := top.Plug(v)
		k := top.Frame.Kind
		if g, ok := e.FindFrame(t, k, top.Frame.Index+1); ok {
			*E = append(*E, contexts.RulesFrame{Frame: g, Term: t})
			return sem.At(t, g.Path), g.Hole, rulesDecomposition{}
		}
		if !e.IsValue(t, k) {
			if len(*E) == 0 && e.IsAnswer(t, k) {
				return nil, nil, rulesDecomposition{answer: t}
			}
			return nil, nil, rulesDecomposition{context: *E, redex: t, kind: k}
		}
		v = t
	}
}

// contract is the contraction of a potential redex in its context by the first rule
// that matches it: the contraction, with the rule's event.
func (s rulesSemantics) contract(e *sem.Engine, d rulesDecomposition) (sem.Contraction, error) {
	return e.Contract(d.redex, d.kind, d.context, func(t *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
		return s.stepLayer(e, t, k)
	})
}

// stepLayer is one step of an inner layer: t, of kind k, decomposed from its root,
// its redex contracted and the contractum plugged back; ok is false when t is a value
// of k.
func (s rulesSemantics) stepLayer(e *sem.Engine, t *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	d := s.decomposeIn(e, t, k, nil)
	if d.redex == nil {
		return t, "", false, nil
	}
	c, err := s.contract(e, d)
	if err != nil {
		return nil, "", false, err
	}
	return s.plug(d.context, c), c.Event, true, nil
}

// plug is E[c]: the contractum put back into the context, or into what remains of it
// when the contraction discarded frames (a context rule's).
func (rulesSemantics) plug(E contexts.Rules, c sem.Contraction) *sem.Term {
	return E[:len(E)-c.Pop].Plug(c.Term)
}

// Step is one step: decompose, contract, plug; done (and t an answer) when t is one.
func (s rulesSemantics) Step(l *sem.Language, t *sem.Term) (next *sem.Term, rule string, done bool, err error) {
	e := sem.NewEngine(l, sem.Substitution)
	d := s.decompose(e, t, nil)
	if d.redex == nil {
		return d.answer, "", true, nil
	}
	c, err := s.contract(e, d)
	if err != nil {
		return nil, "", false, err
	}
	return s.plug(d.context, c), c.Event, false, nil
}

// Eval runs a closed term to its answer (iterate).
func (s rulesSemantics) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	return s.iterate(l, t, opts)
}

// iterate is evaluation: decompose the whole term, contract the redex, plug the
// contractum back, and again from the root, until the term is an answer. Each
// contraction spends one unit of fuel and goes to opts.OnContract; an observer sees
// each decomposition before its contraction, and the contractum and the term after.
func (s rulesSemantics) iterate(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	e := sem.NewRun(l, sem.Substitution, opts)
	defer e.Release()
	fuel := e.Fuel()
	show := newRulesShow(opts, fuel)
	var E contexts.Rules // the context of each decomposition, dead once it is plugged
	for {
		d := s.decompose(e, t, E)
		if d.redex == nil {
			return sem.Answer{Value: d.answer}, nil
		}
		show.decomposition(d)
		c, err := s.contract(e, d)
		if err != nil {
			return sem.Answer{}, err
		}
		if err := fuel.Contract(c.Event); err != nil {
			return sem.Answer{}, err
		}
		t, E = s.plug(d.context, c), d.context
		if err := show.contracted(fuel.Steps(), c.Term, t); err != nil {
			return sem.Answer{}, err
		}
	}
}

// rulesShow shows the steps of the derived reduction semantics to a run's observer;
// nil when nothing observes the run.
type rulesShow struct {
	obs interderive.Observer
	pr  *interderive.ItemPrinter
}

func newRulesShow(opts interderive.Options, fuel *interderive.Counter) *rulesShow {
	obs := opts.StepObserver() // an observer of reports only is shown no step
	if obs == nil {
		return nil
	}
	return &rulesShow{obs: obs, pr: interderive.NewItemPrinter(opts, fuel.Limits())}
}

func (s *rulesShow) term(t *sem.Term) string {
	return s.pr.Item(func(b interderive.PrintBudget) (string, error) { return sem.FormatBounded(t, b) })
}

// decomposition shows a decomposition: the context, with [] for its hole, and the
// redex with its kind.
func (s *rulesShow) decomposition(d rulesDecomposition) {
	if s == nil {
		return
	}
	hole := d.context.Plug(sem.Var(sem.Pos{}, contexts.Hole))
	s.obs.Step("decompose: " + s.term(hole) + "  with redex  " + s.term(d.redex) + "  of kind " + d.kind.Name)
}

// contracted shows contraction n's contractum and the term after plugging it.
func (s *rulesShow) contracted(n int, contractum, next *sem.Term) error {
	if s == nil {
		return nil
	}
	s.obs.About(n, "contract:  "+s.term(contractum))
	s.obs.About(n, "plug:      "+s.term(next))
	return s.pr.Err()
}
