package gradual

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// The check that a rule file and a hand-written semantics agree: the stages derived
// from the file perform the hand-written reduction semantics' contractions, one for
// one, and reach the same observation (or both run out of fuel at the same point).

// recorded is a run's contractions and its observation or error.
type recorded struct {
	events []string
	obs    string
	err    error
}

// runHand runs e on the hand-written stage st under s, unmerged (spec §4).
func runHand(st interderive.Stage, s g.Semantics, e g.Expr, fuel int) (recorded, error) {
	var r recorded
	gs, ok := g.StageOf(st)
	if !ok {
		return r, fmt.Errorf("the %s stage does not run the gradual calculi", st.Name())
	}
	a, err := gs.Eval(s, g.Translate(s, e), interderive.Options{Fuel: fuel, Merging: interderive.Unmerged,
		OnContract: func(rule string) { r.events = append(r.events, rule) }})
	r.err = err
	if err == nil {
		r.obs = a.Observe()
	}
	return r, nil
}

// runDerived runs e on the stage st's artefact derived from the rule file rs.
func runDerived(st interderive.Stage, rs *RuleSemantics, e g.Expr, fuel int) (recorded, error) {
	var r recorded
	var labels Labels
	term, err := rs.Term(e, &labels)
	if err != nil {
		return r, err
	}
	ds, ok := sem.StageOf(st)
	if !ok {
		return r, fmt.Errorf("the %s stage derives nothing from a rule file", st.Name())
	}
	a, err := ds.Eval(rs.Lang, term, interderive.Options{Fuel: fuel,
		OnContract: func(rule string) { r.events = append(r.events, rule) }})
	r.err = err
	if err == nil {
		r.obs = rs.Observe(a.Value, &labels)
	}
	return r, nil
}

// disagreement says where a derived run parts from the hand-written one, "" if it
// does not.
func disagreement(hand, derived recorded) string {
	if !slices.Equal(hand.events, derived.events) {
		for i := range min(len(hand.events), len(derived.events)) {
			if hand.events[i] != derived.events[i] {
				return fmt.Sprintf("contraction %d: hand-written %s, derived %s", i+1, hand.events[i], derived.events[i])
			}
		}
		return fmt.Sprintf("hand-written: %d contractions, derived: %d", len(hand.events), len(derived.events))
	}
	if errors.Is(hand.err, interderive.ErrOutOfFuel) && errors.Is(derived.err, interderive.ErrOutOfFuel) {
		return ""
	}
	if hand.err != nil || derived.err != nil {
		return fmt.Sprintf("hand-written error: %v; derived error: %v", hand.err, derived.err)
	}
	if hand.obs != derived.obs {
		return fmt.Sprintf("hand-written answer %s, derived %s", hand.obs, derived.obs)
	}
	return ""
}

// CompareRuleFile runs e under the hand-written semantics s on the reference stage
// ref, and on every stage of derived that derives an artefact from a rule file, under
// rs; it returns how many derived stages ran, and the first disagreement.
func CompareRuleFile(s g.Semantics, rs *RuleSemantics, e g.Expr, ref interderive.Stage, derived []interderive.Stage, fuel int) (int, error) {
	hand, err := runHand(ref, s, e, fuel)
	if err != nil {
		return 0, err
	}
	ran := 0
	for _, st := range derived {
		if _, ok := sem.StageOf(st); !ok {
			continue
		}
		d, err := runDerived(st, rs, e, fuel)
		if err != nil {
			return ran, err
		}
		if msg := disagreement(hand, d); msg != "" {
			return ran, fmt.Errorf("%s, derived from %s: %s", st.Name(), rs.Path, msg)
		}
		ran++
	}
	return ran, nil
}

// standardRuleFiles reads each standard semantics's embedded rule file once: reading
// one runs its static checks, and fuzz draws thousands of programs.
var standardRuleFiles = map[string]func() (*RuleSemantics, error){
	"ld":  sync.OnceValues(func() (*RuleSemantics, error) { return StandardRuleSemantics("ld") }),
	"lud": sync.OnceValues(func() (*RuleSemantics, error) { return StandardRuleSemantics("lud") }),
	"ed":  sync.OnceValues(func() (*RuleSemantics, error) { return StandardRuleSemantics("ed") }),
	"eud": sync.OnceValues(func() (*RuleSemantics, error) { return StandardRuleSemantics("eud") }),
}

// hasRuleFile reports whether the semantics named has a rule file of its own
// (gradual/rules/NAME.sem): the property rulefiles applies to it.
func hasRuleFile(name string) bool {
	_, ok := standardRuleFiles[name]
	return ok
}

// checkRuleFiles is the property rulefiles: a random program runs, on every stage
// derived from the variant's rule file (gradual/rules/NAME.sem), in lockstep with the
// hand-written reference stage (stages[0]).
func checkRuleFiles(t *rapid.T, size int, s g.Semantics, stages []interderive.Stage) *workbench.Counterexample {
	load, ok := standardRuleFiles[s.Name()]
	if !ok {
		t.Skipf("the semantics %s has no rule file", s.Name())
	}
	rs, err := load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	p := draw(t, size, s)
	if _, err := CompareRuleFile(s, rs, p.term, stages[0], stages, propertyFuel); err != nil {
		return &workbench.Counterexample{Lang: p.lang, Source: source(p), Err: err,
			Comment: []string{"the stages derived from " + rs.Path + " part from the hand-written " + s.Name() + ": " + err.Error()}}
	}
	return nil
}
