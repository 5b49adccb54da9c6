package closures

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/sem"
)

// The calculus of closures of a rule-defined calculus (sem), derived from its rule
// file: the derived reduction semantics (package reduction) over closures
// (internal/values/semval) instead of terms,
//
//	cl ::= t[ρ] | con(cl, ...)           ρ ::= ε | (x ↦ cl) : ρ | (x ↦ ·) : ρ
//
// with the same decomposeTerm, decomposeContext, contract, plug and iterate (from
// the root, at every contraction), and environment steps besides the contractions,
// which are administrative (they spend no fuel and are not contraction events):
//
//	lookup   x[ρ]                 ~> ρ(x)
//	expand   con(t1, ..., tn)[ρ]  ~> con(t1[ρ1], ..., tn[ρn])   (ρi: ρ with the binders over ti marked)
//
// A rule's (subst t x v) is t's environment extended with x ↦ v (a delayed
// substitution); everything else of a rule is as in the reduction semantics, matched
// on closures: a potential redex in the empty context that is one of the file's
// answers ends the run; a context rule contracts its redex with the context, the
// contractum replacing the whole closure or the innermost frame that matches its
// delimiter (the frames inside discarded, plug puts it back into what remains); a
// rule that steps an inner layer steps it as this calculus steps everything, the
// inner closure decomposed from its root in the layer's kind, its redex contracted
// and the contractum plugged back (stepLayer). A function of a right-hand side is
// computed on the terms its arguments read back to. The answer is read back by σ,
// which substitutes the environments.
//
// The calculus runs on the engine of sem (sem.Engine). A rule file qualifies for
// closures when no pattern matches a variable occurrence in a term position
// (sem.Language.Qualifies): cbv.sem, cbn.sem and cbn-strict.sem do. Any other file runs
// under the substitution discipline instead: the same functions over terms, where
// (subst t x v) substitutes, nothing is looked up or expanded, and the calculus is the
// reduction semantics step for step.

// Rules is the calculus of closures derived from a rule file (sem.StageOf).
func (Stage) Rules() sem.Stage { return rulesCalculus{} }

// rulesCalculus is the derived calculus of closures: decomposeTerm and
// decomposeContext (decompose), contract, plug and iterate.
type rulesCalculus struct{}

// rulesCloDecomposition is a closure decomposed: a context and the potential redex in
// its hole with the hole's kind, or (redex nil) an answer.
type rulesCloDecomposition struct {
	context contexts.Rules
	redex   *sem.Term
	kind    *sem.Kind
	answer  *sem.Term
}

// rulesRun is one run: the engine (over closures, or by substitution), and what
// observes the run.
type rulesRun struct {
	*sem.Engine
	obs interderive.Observer
	pr  *interderive.ItemPrinter
	cp  *semval.Printer // prints closures t[ρ], their environments named
}

// Eval runs a closed term to its answer (iterate), read back, under the discipline
// the file qualifies for (sem.Language.Discipline). An observer of a file that does not
// qualify for environments is told once, first, why: its terms are substituted, and
// there are no closures.
func (s rulesCalculus) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	r := &rulesRun{Engine: sem.NewRun(l, l.Discipline(), opts)}
	defer r.Release()
	fuel := r.Fuel()
	if obs := opts.StepObserver(); obs != nil { // an observer of reports only is shown no step
		r.obs, r.pr = obs, interderive.NewItemPrinter(opts, fuel.Limits())
		r.cp = semval.NewPrinter(r.pr.Budget())
		if why := l.WhySubstitution(); why != "" {
			obs.Step("no environments: " + why + "; the calculus of closures runs this file by substitution, and its terms are substituted")
		}
	}
	return r.iterate(r.Start(t), fuel)
}

// iterate is evaluation: decompose the whole closure, contract the redex, plug the
// contractum back, and again from the root, until the closure is an answer. Each
// contraction spends one unit of fuel and goes to the counter's OnContract; an
// observer sees each decomposition before its contraction, the environment steps of
// decomposing, and the contractum and the closure after.
func (r *rulesRun) iterate(c *sem.Term, fuel *interderive.Counter) (sem.Answer, error) {
	for {
		d, err := r.decompose(c)
		if err != nil {
			return sem.Answer{}, err
		}
		if d.redex == nil {
			return sem.Answer{Value: r.ReadBack(d.answer)}, nil
		}
		r.showDecomposition(d)
		ct, err := r.contract(d)
		if err != nil {
			return sem.Answer{}, err
		}
		if err := fuel.Contract(ct.Event); err != nil {
			return sem.Answer{}, err
		}
		c = r.plug(d.context, ct)
		if err := r.showContracted(fuel.Steps(), ct.Term, c); err != nil {
			return sem.Answer{}, err
		}
	}
}

// decompose splits a closure into a context and a potential redex, or finds it is an
// answer: decomposeTerm and decomposeContext, mutually tail-recursive, as one loop.
func (r *rulesRun) decompose(c *sem.Term) (rulesCloDecomposition, error) {
	return r.decomposeIn(c, r.Lang().Root())
}

// decomposeIn decomposes c of kind k (the root kind, or an inner layer's).
func (r *rulesRun) decomposeIn(c *sem.Term, k *sem.Kind) (rulesCloDecomposition, error) {
	var E contexts.Rules
	for {
		v, d, err := r.decomposeTerm(&E, c, k)
		if err != nil || v == nil {
			return d, err
		}
		if c, k, d = r.decomposeContext(&E, v); c == nil {
			return d, nil
		}
	}
}

// decomposeTerm descends into c, of kind k, pushing frames onto E, and returns the
// value it meets, or the potential redex it finds (or, in the empty context, an
// answer). A variable is looked up and a closure t[ρ] expanded on the way:
// environment steps.
func (r *rulesRun) decomposeTerm(E *contexts.Rules, c *sem.Term, k *sem.Kind) (*sem.Term, rulesCloDecomposition, error) {
	for {
		var err error
		if c, err = r.lookup(c); err != nil {
			return nil, rulesCloDecomposition{}, err
		}
		if r.IsValue(c, k) {
			return c, rulesCloDecomposition{}, nil
		}
		f, ok := r.FindFrame(c, k, 0)
		if !ok {
			if len(*E) == 0 && r.IsAnswer(c, k) {
				return nil, rulesCloDecomposition{answer: c}, nil
			}
			return nil, rulesCloDecomposition{context: *E, redex: c, kind: k}, nil
		}
		n := r.expand(c)
		*E = append(*E, contexts.RulesFrame{Frame: f, Term: n})
		c, k = sem.At(n, f.Path), f.Hole
	}
}

// decomposeContext climbs out of E with the value v until it finds a closure still to
// decompose (returned with its kind, the frame that waits for it pushed onto E), a
// potential redex, or the empty context (an answer: v, or a non-value answer).
func (r *rulesRun) decomposeContext(E *contexts.Rules, v *sem.Term) (*sem.Term, *sem.Kind, rulesCloDecomposition) {
	for {
		if len(*E) == 0 {
			return nil, nil, rulesCloDecomposition{answer: v}
		}
		top := (*E)[len(*E)-1]
		*E = (*E)[:len(*E)-1]
		c := top.Plug(v)
		k := top.Frame.Kind
		if g, ok := r.FindFrame(c, k, top.Frame.Index+1); ok {
			n := sem.View(c)
			*E = append(*E, contexts.RulesFrame{Frame: g, Term: n})
			return sem.At(n, g.Path), g.Hole, rulesCloDecomposition{}
		}
		if !r.IsValue(c, k) {
			if len(*E) == 0 && r.IsAnswer(c, k) {
				return nil, nil, rulesCloDecomposition{answer: c}
			}
			return nil, nil, rulesCloDecomposition{context: *E, redex: c, kind: k}
		}
		v = c
	}
}

// contract is the contraction of a potential redex in its context by the first rule
// that matches it, over closures: the contraction, with the rule's event.
func (r *rulesRun) contract(d rulesCloDecomposition) (sem.Contraction, error) {
	return r.Contract(d.redex, d.kind, &d.context, r.stepLayer)
}

// stepLayer is one step of an inner layer: c, of kind k, decomposed from its root,
// its redex contracted and the contractum plugged back; ok is false when c is a value
// (or an answer) of k.
func (r *rulesRun) stepLayer(c *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	d, err := r.decomposeIn(c, k)
	if err != nil {
		return nil, "", false, err
	}
	if d.redex == nil {
		return c, "", false, nil
	}
	ct, err := r.contract(d)
	if err != nil {
		return nil, "", false, err
	}
	return r.plug(d.context, ct), ct.Event, true, nil
}

// plug is E[c]: the contractum put back into the context, innermost frame first, or
// into what remains of it when the contraction discarded frames (a context rule's).
func (r *rulesRun) plug(E contexts.Rules, ct sem.Contraction) *sem.Term {
	return E[:len(E)-ct.Pop].Plug(ct.Term)
}

// lookup is the environment step x[ρ] ~> ρ(x), as often as it applies (sem.Engine.LookUp:
// a free variable is a stuck run), shown to an observer.
func (r *rulesRun) lookup(c *sem.Term) (*sem.Term, error) {
	v, err := r.LookUp(c)
	if err == nil && v != c && r.obs != nil {
		r.step("lookup:    " + r.show(c) + "  ~>  " + r.show(v))
	}
	return v, err
}

// expand is the environment step con(t1, ..., tn)[ρ] ~> con(t1[ρ1], ..., tn[ρn]) (or
// nothing, for a closure that is a node already).
func (r *rulesRun) expand(c *sem.Term) *sem.Term {
	n := sem.View(c)
	if n != c && r.obs != nil {
		r.step("expand:    " + r.show(c) + "  ~>  " + r.show(n))
	}
	return n
}

// show prints a closure as the stage holds it, t[ρ] with its environments named
// (semval.Printer), within the run's print budget: the definitions of the
// environments it names first go before the line that shows it (step, about).
func (r *rulesRun) show(c *sem.Term) string {
	if r.pr.Err() != nil {
		return interderive.StoppedMark
	}
	return r.pr.Result(r.cp.Closure(c))
}

// step shows a line of the way to the next contraction, after the definitions of the
// environments its closures named first.
func (r *rulesRun) step(line string) {
	for _, def := range r.cp.Defs() {
		r.obs.Step(def)
	}
	r.obs.Step(line)
}

// about shows a line about contraction n, after the definitions of the environments
// its closures named first.
func (r *rulesRun) about(n int, line string) {
	for _, def := range r.cp.Defs() {
		r.obs.About(n, def)
	}
	r.obs.About(n, line)
}

// showDecomposition shows a decomposition: the context, with [] for its hole, and the
// redex with its kind, as closures.
func (r *rulesRun) showDecomposition(d rulesCloDecomposition) {
	if r.obs == nil {
		return
	}
	hole := d.context.Plug(sem.Var(sem.Pos{}, contexts.Hole))
	r.step("decompose: " + r.show(hole) + "  with redex  " + r.show(d.redex) + "  of kind " + d.kind.Name)
}

// showContracted shows contraction n's contractum and the closure after plugging it.
func (r *rulesRun) showContracted(n int, contractum, next *sem.Term) error {
	if r.obs == nil {
		return nil
	}
	r.about(n, "contract:  "+r.show(contractum))
	r.about(n, "plug:      "+r.show(next))
	return r.pr.Err()
}
