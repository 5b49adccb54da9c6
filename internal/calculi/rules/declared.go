package rules

import (
	"fmt"
	"slices"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// The properties a rule file states ((property ...), sem/property.go), as fuzz
// checks them beside lockstep: the standard ones by their names, the file's own by
// their judgments. A property of well-typed programs draws programs until the typing
// judgment types one (drawTyped); a property of the file's own draws well-typed
// programs too where the file has a typing judgment (its premises are then claims
// about well-typed programs, the usual metatheory), else any program of the grammar.

// declared are the workbench properties of the file's declarations, in its order.
func (c Calculus) declared() []workbench.Property {
	var ps []workbench.Property
	for _, q := range c.Lang.Properties {
		switch q.Standard {
		case "progress":
			ps = append(ps, workbench.Property{Name: q.Name, Failure: "progress fails",
				Doc: "progress: a program the file's typing judgment types is a value or an answer of the root kind, or takes a step on the reduction semantics",
				Check: func(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
					return c.checkProgress(t, size, stages)
				}})
		case "preservation":
			ps = append(ps, workbench.Property{Name: q.Name, Failure: "progress or preservation fails",
				Doc:   "type soundness by steps: a program the file's typing judgment types makes progress on the reduction semantics (each step decomposes and contracts; the answer is a value or an answer of the root kind) and keeps its type at every step",
				Check: c.checkPreservation})
		case "type-soundness":
			ps = append(ps, workbench.Property{Name: q.Name, Failure: "type soundness fails",
				Doc: fmt.Sprintf("type soundness: a program the file's typing judgment types does not get stuck within %d steps on the reduction semantics, and ends, if it does, at a value or an answer of the root kind", preservationSteps),
				Check: func(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
					return c.checkSoundness(t, size, stages)
				}})
		case "determinism":
			ps = append(ps, workbench.Property{Name: q.Name, Failure: "determinism fails",
				Doc:   "determinism: a term decomposes one way (the static checks prove it of the file, with a witness otherwise), and a program's runs on every stage give the same answer and contractions twice",
				Check: c.checkDeterminism})
		default:
			ps = append(ps, workbench.Property{Name: q.Name, Failure: q.Name + " fails",
				Doc: c.ownDoc(q),
				Check: func(t *rapid.T, size int, _ string, stages []interderive.Stage) *workbench.Counterexample {
					return c.checkOwn(t, size, q, stages)
				}})
		}
	}
	return ps
}

// ownDoc says what a property of the file's own states.
func (c Calculus) ownDoc(q *sem.Property) string {
	of := "every program of the grammar"
	if c.Lang.Typing != nil {
		of = "every program the typing judgment types"
	}
	if q.Steps {
		return fmt.Sprintf("%s, the file's own: its premises hold of each step of %s on the reduction semantics (line %d)", q.Name, of, q.P.Line)
	}
	return fmt.Sprintf("%s, the file's own: its premises hold of %s (line %d)", q.Name, of, q.P.Line)
}

// stepper is the reference stage's one-step semantics.
func stepper(t *rapid.T, stages []interderive.Stage) sem.Stepper {
	st, ok := sem.StageOf(stages[0])
	s, steps := st.(sem.Stepper)
	if !ok || !steps {
		t.Fatalf("the reference stage %s does not take a rule file's steps one at a time", stages[0].Name())
	}
	return s
}

// counterexample is a program that fails a property, with the failure.
func counterexample(p *sem.Term, err error) *workbench.Counterexample {
	return &workbench.Counterexample{Lang: ext, Source: sem.Format(p), Comment: []string{err.Error()}, Err: err}
}

// typed draws a well-typed program, or skips the check.
func (c Calculus) typed(t *rapid.T, size int) (*sem.Term, *sem.Term) {
	p, ty := c.drawTyped(t, size)
	if ty == nil {
		t.Skipf("no program of the grammar that %s types in %d draws", c.Lang.Typing.Judgment.Name, typedDraws)
	}
	return p, ty
}

// checkProgress: a well-typed program is a value or an answer, or steps.
func (c Calculus) checkProgress(t *rapid.T, size int, stages []interderive.Stage) *workbench.Counterexample {
	s := stepper(t, stages)
	p, _ := c.typed(t, size)
	if _, _, _, err := s.Step(c.Lang, p); err != nil {
		return counterexample(p, fmt.Errorf("no progress: %v, in %s", err, sem.FormatShort(p, 200)))
	}
	return nil
}

// checkSoundness: a well-typed program's steps never get stuck.
func (c Calculus) checkSoundness(t *rapid.T, size int, stages []interderive.Stage) *workbench.Counterexample {
	s := stepper(t, stages)
	p, _ := c.typed(t, size)
	if err := Soundness(c.Lang, s, p, preservationSteps); err != nil {
		return counterexample(p, err)
	}
	return nil
}

// Soundness follows the steps of the closed term t on the stepper, at most budget
// of them: every step must decompose and contract, and the answer, once reached, be
// a value or an answer of the root kind (Preservation without the types).
func Soundness(l *sem.Language, s sem.Stepper, t *sem.Term, budget int) error {
	for range budget {
		next, _, done, err := s.Step(l, t)
		if err != nil {
			return fmt.Errorf("stuck: %v, in %s", err, sem.FormatShort(t, 200))
		}
		if done {
			if !l.IsValue(next, l.Root()) && !l.IsAnswer(next, l.Root()) {
				return fmt.Errorf("the answer %s is neither a value nor an answer", sem.FormatShort(next, 200))
			}
			return nil
		}
		t = next
	}
	return nil
}

// checkDeterminism: every stage runs a program twice to the same answer by the same
// contractions.
func (c Calculus) checkDeterminism(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
	p := Program{calc: c, Term: Generator{Lang: c.Lang, Depth: size}.Draw(t)}
	for _, st := range stages {
		var runs [2][]string
		var answers [2]string
		for i := range 2 {
			opts := interderive.Options{Fuel: preservationSteps, OnContract: func(r string) { runs[i] = append(runs[i], r) }}
			out, err := p.Run(st, variant, opts)
			answers[i] = out.Observation
			if err != nil {
				answers[i] = err.Error()
			}
		}
		if answers[0] != answers[1] || !slices.Equal(runs[0], runs[1]) {
			return counterexample(p.Term, fmt.Errorf("%s runs %s twice to %s and to %s", st.Name(), sem.FormatShort(p.Term, 200), answers[0], answers[1]))
		}
	}
	return nil
}

// checkOwn checks a property of the file's own: of the drawn program, or of each of
// its steps.
func (c Calculus) checkOwn(t *rapid.T, size int, q *sem.Property, stages []interderive.Stage) *workbench.Counterexample {
	var p *sem.Term
	if c.Lang.Typing != nil {
		p, _ = c.typed(t, size)
	} else {
		p = Generator{Lang: c.Lang, Depth: size}.Draw(t)
	}
	opts := interderive.Options{Timeout: typingBudget}
	fails := func(t, next *sem.Term, why []sem.Failure) error {
		what := sem.FormatShort(t, 200)
		if next != nil {
			what += " → " + sem.FormatShort(next, 200)
		}
		msg := fmt.Sprintf("%s does not hold of %s", q.Name, what)
		if len(why) > 0 {
			msg += ": " + why[0].String()
		}
		return fmt.Errorf("%s", msg)
	}
	if !q.Steps {
		ok, why, err := c.Lang.Holds(q, p, nil, opts)
		if err != nil {
			t.Skipf("%s on %s: %v", q.Name, sem.FormatShort(p, 200), err)
		}
		if !ok {
			return counterexample(p, fails(p, nil, why))
		}
		return nil
	}
	s := stepper(t, stages)
	cur := p
	for range preservationSteps {
		next, _, done, err := s.Step(c.Lang, cur)
		if err != nil || done {
			return nil // a stuck program is progress's concern, not this property's
		}
		ok, why, err := c.Lang.Holds(q, cur, next, opts)
		if err != nil {
			t.Skipf("%s on %s: %v", q.Name, sem.FormatShort(cur, 200), err)
		}
		if !ok {
			return counterexample(p, fails(cur, next, why))
		}
		cur = next
	}
	return nil
}
