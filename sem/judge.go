package sem

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The search for derivations of a judgment (judgment.go), by its modes: the rules in
// order; a rule's conclusion's inputs matched; its premises left to right, a
// judgment premise's derivations each in turn (its inputs built, its outputs
// matched); its conclusion's outputs built. Every derivation is found, in that
// order: a judgment may hold of several outputs (a relation, not a function).

// Derivation is a derivation of a judgment: the rule that concludes it, the
// judgment's arguments (inputs and outputs, by position), and the derivations of its
// judgment premises, in order.
type Derivation struct {
	Judgment *Judgment
	Rule     *Inference
	Args     []*Term
	Premises []*Derivation
}

// Judged is what a search found: the derivations (at most the number asked for), and,
// when there is none, why (Failures: for each rule whose conclusion's inputs match,
// the first premise that no derivation of it satisfies).
type Judged struct {
	Derivations []*Derivation
	Failures    []Failure
}

// Failure is why a rule gives no derivation of the judgment searched: its
// conclusion does not match the inputs (Premise -1), or its premise numbered Premise
// (from 0) holds of no derivation.
type Failure struct {
	Judgment *Judgment
	Rule     *Inference
	Premise  int
}

// String says it for a person: "rule t-app: premise 1, (typeof Γ e_1 (arrow τ_2
// τ)), does not hold".
func (f Failure) String() string {
	if f.Premise < 0 {
		return fmt.Sprintf("rule %s: the inputs do not match its conclusion %s", f.Rule.Name, formatJudgment(f.Judgment, f.Rule.Conclusion))
	}
	return fmt.Sprintf("rule %s: premise %d, %s, does not hold", f.Rule.Name, f.Premise+1, formatPremise(f.Rule.Premises[f.Premise]))
}

// Judge searches for the derivations of the judgment j on the inputs (by position;
// nil at the outputs), at most max of them (0: every one), within the run's budgets
// (opts: time and memory; the search is meta-level, and takes no fuel). The search
// nests at most MaxCallDepth premises deep: past that, a left-recursive rule, it is
// an error, as a function's evaluation is.
func (l *Language) Judge(j *Judgment, inputs []*Term, max int, opts interderive.Options) (Judged, error) {
	if len(inputs) != len(j.Params) {
		return Judged{}, fmt.Errorf("%s takes %d arguments, not %d", j.Name, len(j.Params), len(inputs))
	}
	s := &judge{e: &Engine{l: l, watch: interderive.NewLimits(opts, nil)}, max: max}
	var out Judged
	_, err := Guard(func() (Answer, error) {
		s.solve(j, inputs, 0, func(d *Derivation) bool {
			out.Derivations = append(out.Derivations, d)
			return max == 0 || len(out.Derivations) < max
		})
		return Answer{}, s.err
	})
	if err != nil {
		return Judged{}, err
	}
	if len(out.Derivations) == 0 {
		out.Failures = s.failures
	}
	return out, nil
}

// judge is a search under way.
type judge struct {
	e        *Engine
	max      int
	err      error
	failures []Failure // the top goal's rules' failures
}

// solve calls k with each derivation of j on in, in order, as long as k returns true;
// it returns false when the search stops (k asked it to, or an error).
func (s *judge) solve(j *Judgment, in []*Term, depth int, k func(*Derivation) bool) bool {
	if depth > MaxCallDepth {
		s.err = &interderive.DepthError{What: "a derivation of " + j.Name, Limit: MaxCallDepth,
			Hint: "its premises nest deeper than that: a rule whose premise is its own conclusion again (left recursion)"}
		return false
	}
	if err := s.e.tick(); err != nil {
		s.err = err
		return false
	}
	for _, r := range j.Rules {
		b := make([]*Term, r.Metas)
		if !s.inputs(j, r.Conclusion, in, b) {
			if depth == 0 {
				s.failures = append(s.failures, Failure{Judgment: j, Rule: r, Premise: -1})
			}
			continue
		}
		failed := -1
		if !s.premises(j, r, 0, b, nil, depth, in, k, &failed) {
			return false
		}
		if depth == 0 && failed >= 0 {
			s.failures = append(s.failures, Failure{Judgment: j, Rule: r, Premise: failed})
		}
	}
	return true
}

// inputs matches the inputs of j's conclusion (or premise) pats against in.
func (s *judge) inputs(j *Judgment, pats []*Pattern, in []*Term, b []*Term) bool {
	for i, p := range pats {
		if !j.Out[i] && !s.e.match(p, in[i], b) {
			return false
		}
	}
	return true
}

// premises goes on with the rule r from its premise i, ds the derivations of the
// judgment premises before it; failed is the furthest premise that held of no
// derivation, for why a search found none.
func (s *judge) premises(j *Judgment, r *Inference, i int, b []*Term, ds []*Derivation, depth int, in []*Term, k func(*Derivation) bool, failed *int) bool {
	if i == len(r.Premises) {
		args := make([]*Term, len(j.Params))
		for x := range args {
			if !j.Out[x] {
				args[x] = in[x]
				continue
			}
			t, err := s.e.instantiate(r.Conclusion[x], b, r.P, 0)
			if err != nil {
				s.err = err
				return false
			}
			args[x] = t
		}
		*failed = -1
		return k(&Derivation{Judgment: j, Rule: r, Args: args, Premises: slices.Clone(ds)})
	}
	pr := r.Premises[i]
	if pr.Cond != nil {
		ok, _, err := s.e.conditions([]*Cond{pr.Cond}, b, nil)
		if err != nil {
			s.err = err
			return false
		}
		if !ok {
			*failed = max(*failed, i)
			return true
		}
		return s.premises(j, r, i+1, b, ds, depth, in, k, failed)
	}
	pj := pr.Judgment
	sub := make([]*Term, len(pj.Params))
	if pr.Negated {
		return s.negated(j, r, i, b, ds, depth, in, k, failed)
	}
	for x, p := range pr.Args {
		if pj.Out[x] {
			continue
		}
		t, err := s.e.instantiate(p, b, pr.P, 0)
		if err != nil {
			s.err = err
			return false
		}
		sub[x] = t
	}
	held := false
	more := s.solve(pj, sub, depth+1, func(d *Derivation) bool {
		for x, p := range pr.Args {
			if pj.Out[x] && !s.e.match(p, d.Args[x], b) {
				return true // this derivation's outputs do not fit: the next one
			}
		}
		held = true
		return s.premises(j, r, i+1, b, append(ds, d), depth, in, k, failed)
	})
	if !held && more {
		*failed = max(*failed, i)
	}
	return more
}

// negated goes on with the rule r past its premise i, (not (J ...)), if J has no
// derivation on its inputs whose outputs are the ones the premise builds.
func (s *judge) negated(j *Judgment, r *Inference, i int, b []*Term, ds []*Derivation, depth int, in []*Term, k func(*Derivation) bool, failed *int) bool {
	pr := r.Premises[i]
	pj := pr.Judgment
	args := make([]*Term, len(pj.Params))
	for x, p := range pr.Args {
		t, err := s.e.instantiate(p, b, pr.P, 0)
		if err != nil {
			s.err = err
			return false
		}
		args[x] = t
	}
	sub := slices.Clone(args)
	for x := range sub {
		if pj.Out[x] {
			sub[x] = nil
		}
	}
	holds := false
	s.solve(pj, sub, depth+1, func(d *Derivation) bool {
		for x := range args {
			if pj.Out[x] && !AlphaEqual(d.Args[x], args[x]) {
				return true
			}
		}
		holds = true
		return false // one derivation is enough: the negation fails
	})
	if s.err != nil {
		return false
	}
	if holds {
		*failed = max(*failed, i)
		return true
	}
	return s.premises(j, r, i+1, b, ds, depth, in, k, failed)
}

// formatJudgment prints a judgment of j whose positions are the patterns pats.
func formatJudgment(j *Judgment, pats []*Pattern) string {
	parts := []string{j.Name}
	for _, p := range pats {
		if p == nil {
			parts = append(parts, "_")
			continue
		}
		parts = append(parts, FormatPattern(p))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// formatPremise prints a premise as the file writes it.
func formatPremise(pr *Premise) string {
	switch {
	case pr.Cond != nil:
		return FormatCond(pr.Cond)
	case pr.Negated:
		return "(not " + formatJudgment(pr.Judgment, pr.Args) + ")"
	}
	return formatJudgment(pr.Judgment, pr.Args)
}

// Format prints the derivation as a tree, for a person: each judgment on a line, by
// the rule that concludes it, its premises' derivations indented below it.
func (d *Derivation) Format() string {
	var b strings.Builder
	type item struct {
		d     *Derivation
		depth int
	}
	stack := []item{{d, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parts := []string{it.d.Judgment.Name}
		for _, a := range it.d.Args {
			parts = append(parts, FormatShort(a, 200))
		}
		fmt.Fprintf(&b, "%s(%s)   by %s\n", strings.Repeat("  ", it.depth), strings.Join(parts, " "), it.d.Rule.Name)
		for i := len(it.d.Premises) - 1; i >= 0; i-- {
			stack = append(stack, item{it.d.Premises[i], it.depth + 1})
		}
	}
	return b.String()
}
