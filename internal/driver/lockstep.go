package driver

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/reduction"
)

// A Disparity is what a lockstep check found: the stage, the semantics, and how the
// stage parted from the reference semantics.
type Disparity struct {
	Stage, Variant, Mode string
	What                 string
}

func (d *Disparity) Error() string {
	mode := ""
	if d.Mode != "" {
		mode = " (" + d.Mode + ")"
	}
	return fmt.Sprintf("%s under %s%s: %s", d.Stage, d.Variant, mode, d.What)
}

// CastReference is the reference semantics' outcome of a lockstep run: its answer, or
// the error that ended it (out of fuel).
type CastReference struct {
	Answer g.Answer
	Err    error
}

// DPLReference is the reference semantics' outcome of a lockstep run.
type DPLReference struct {
	Answer dpl.Answer
	Err    error
}

// CastLockstep runs a translated cast-calculus term on the given stages (the first
// is the reference; CastStages() for all) under sem, in the given merging mode
// (interderive.Merged or Unmerged), and reports the first stage that parts from the
// reference: a different contraction, answer, or kind of error. It returns the
// reference's outcome too.
func CastLockstep(stages []CastStage, sem g.Semantics, e g.Expr, fuel int, mode interderive.Merging) (CastReference, *Disparity) {
	run := func(st CastStage) (g.Answer, []string, error) {
		var rules []string
		a, err := st.Eval(sem, e, interderive.Options{Fuel: fuel, Merging: mode, OnContract: func(r string) { rules = append(rules, r) }})
		return a, rules, interderive.InStage(err, st.Name)
	}
	ref, refRules, refErr := run(stages[0])
	out := CastReference{Answer: ref, Err: refErr}
	if refErr != nil && !errors.Is(refErr, interderive.ErrOutOfFuel) {
		return out, &Disparity{Stage: stages[0].Name, Variant: sem.Name(), Mode: mode.String(), What: refErr.Error()}
	}
	for _, st := range stages[1:] {
		a, rules, err := run(st)
		d := &Disparity{Stage: st.Name, Variant: sem.Name(), Mode: mode.String()}
		if i := firstDiff(refRules, rules); i >= 0 {
			d.What = fmt.Sprintf("contraction %d is %s, but the reduction semantics' is %s", i+1, ruleAt(rules, i), ruleAt(refRules, i))
			return out, d
		}
		if (err == nil) != (refErr == nil) || (err != nil && !errors.Is(err, interderive.ErrOutOfFuel)) {
			d.What = fmt.Sprintf("error %v, but the reduction semantics' %v", err, refErr)
			return out, d
		}
		if err == nil && !sameCastAnswer(a, ref) {
			d.What = fmt.Sprintf("answer %s, but the reduction semantics' %s", a, ref)
			return out, d
		}
	}
	return out, nil
}

func sameCastAnswer(a, b g.Answer) bool {
	if a.Blamed || b.Blamed {
		return a.Blamed == b.Blamed && a.Blame == b.Blame
	}
	return g.AlphaEqual(a.Value, b.Value)
}

// DPLLockstep runs a differentiable program on the given stages (the first is the
// reference; DPLStages() for all) under a differentiation strategy and reports the
// first stage that parts from the reference: a different contraction, answer (float64
// bits, or undefined), kind of error, or trace or derivative of some rd (up to
// α-renaming).
func DPLLockstep(stages []DPLStage, ad dpl.Differentiator, prog dpl.Term, fuel int) (DPLReference, *Disparity) {
	type result struct {
		a            dpl.Answer
		err          error
		rules        []string
		traces, ders []dpl.Term
	}
	run := func(st DPLStage) result {
		var r result
		opts := interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.rules = append(r.rules, rule) }}
		r.a, r.err = st.Traced(ad, prog, opts, func(c, d dpl.Term) { r.traces, r.ders = append(r.traces, c), append(r.ders, d) })
		r.err = interderive.InStage(r.err, st.Name)
		return r
	}
	ref := run(stages[0])
	out := DPLReference{Answer: ref.a, Err: ref.err}
	if ref.err != nil && !errors.Is(ref.err, interderive.ErrOutOfFuel) {
		return out, &Disparity{Stage: stages[0].Name, Variant: ad.Name(), What: ref.err.Error()}
	}
	for _, st := range stages[1:] {
		r := run(st)
		d := &Disparity{Stage: st.Name, Variant: ad.Name()}
		switch i := firstDiff(ref.rules, r.rules); {
		case i >= 0:
			d.What = fmt.Sprintf("contraction %d is %s, but the reduction semantics' is %s", i+1, ruleAt(r.rules, i), ruleAt(ref.rules, i))
		case (r.err == nil) != (ref.err == nil) || (r.err != nil && !errors.Is(r.err, interderive.ErrOutOfFuel)):
			d.What = fmt.Sprintf("error %v, but the reduction semantics' %v", r.err, ref.err)
		case r.err == nil && r.a.Observe() != ref.a.Observe():
			d.What = fmt.Sprintf("answer %s, but the reduction semantics' %s", r.a, ref.a)
		case len(r.traces) != len(ref.traces):
			d.What = fmt.Sprintf("%d rd traced, but the reduction semantics traced %d", len(r.traces), len(ref.traces))
		default:
			for i := range ref.traces {
				if !dpl.AlphaEqual(ref.traces[i], r.traces[i]) || !dpl.AlphaEqual(ref.ders[i], r.ders[i]) {
					d.What = fmt.Sprintf("rd %d traces to %s with derivative %s, but the reduction semantics' %s, %s", i+1,
						dpl.Format(r.traces[i]), dpl.Format(r.ders[i]), dpl.Format(ref.traces[i]), dpl.Format(ref.ders[i]))
					break
				}
			}
		}
		if d.What != "" {
			return out, d
		}
	}
	return out, nil
}

// CastPreservation steps the reduction semantics on a well-typed, translated term of
// type ty (with at most budget steps): every step must decompose (progress) and give a
// term of the same type (preservation). It reports the first step that does not.
func CastPreservation(sem g.Semantics, e g.Expr, ty g.Type, budget int, mode interderive.Merging) error {
	r := reduction.Cast{Sem: sem, Merge: mode == interderive.Merged}
	for range budget {
		step, done, err := r.Reduce(e)
		if err != nil {
			return fmt.Errorf("stuck under %s: %v in %s", sem.Name(), err, g.Format(e))
		}
		if done {
			return nil
		}
		if got, err := g.TypeOf(step.Next); err != nil || !g.Equal(got, ty) {
			return fmt.Errorf("%s under %s does not preserve the type %s (%v, %v): %s becomes %s",
				step.Redex.Rule(), sem.Name(), ty, got, err, g.Format(e), g.Format(step.Next))
		}
		e = step.Next
	}
	return nil
}
