package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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

// declared are the workbench properties of the file's declarations, in its order:
// each draws a program (well-typed, where the property is of well-typed programs or
// the file types its programs) and checks it (checkOn).
func (c Calculus) declared() []workbench.Property {
	var ps []workbench.Property
	for _, q := range c.stated() {
		doc, failure := standardDocs[q.Standard], q.Name+" fails"
		if q.Standard == "" {
			doc = c.ownDoc(q)
		}
		ps = append(ps, workbench.Property{Name: q.Name, Failure: failure, Doc: doc,
			Check: func(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
				var p, ty *sem.Term
				if sem.StandardProperties[q.Standard] || c.Lang.Typing != nil {
					p, ty = c.typed(t, size)
				} else {
					p = Generator{Lang: c.Lang, Depth: size}.Draw(t)
				}
				if err := c.checkOn(q, p, ty, stepper(t, stages), stages, variant); err != nil {
					// The file it is saved to replays the check: holds: NAME.
					return &workbench.Counterexample{Lang: ext, Source: sem.Format(p), Comment: []string{err.Error(), "holds: " + q.Name}, Err: err}
				}
				return nil
			}})
	}
	return ps
}

// standardDocs say what the standard properties state.
var standardDocs = map[string]string{
	"progress":       "progress: a program the file's typing judgment types is a value or an answer of the root kind, or takes a step on the reduction semantics",
	"preservation":   "type soundness by steps: a program the file's typing judgment types makes progress on the reduction semantics (each step decomposes and contracts; the answer is a value or an answer of the root kind) and keeps its type at every step",
	"type-soundness": fmt.Sprintf("type soundness: a program the file's typing judgment types does not get stuck within %d steps on the reduction semantics, and ends, if it does, at a value or an answer of the root kind", preservationSteps),
	"determinism":    "determinism: a term decomposes one way (the static checks prove it of the file, with a witness otherwise), and a program's runs on every stage give the same answer and contractions twice",
}

// checkOn checks the property q of the program p, of type ty (nil when not known
// yet): on the stepper (the reference stage's one-step semantics), and, for
// determinism, on every stage given. A property of well-typed programs holds of a
// program the typing judgment does not type.
func (c Calculus) checkOn(q *sem.Property, p, ty *sem.Term, s sem.Stepper, stages []interderive.Stage, variant string) error {
	if sem.StandardProperties[q.Standard] && ty == nil {
		t, _, err := c.Lang.TypeOf(p, interderive.Options{Timeout: typingBudget})
		if err != nil || t == nil {
			return nil // not well-typed: nothing is claimed
		}
		ty = t
	}
	switch q.Standard {
	case "progress":
		if _, _, _, err := s.Step(c.Lang, p); err != nil {
			return fmt.Errorf("no progress: %v, in %s", err, sem.FormatShort(p, 200))
		}
		return nil
	case "preservation":
		return Preservation(c.Lang, s, p, ty, preservationSteps)
	case "type-soundness":
		return Soundness(c.Lang, s, p, preservationSteps)
	case "determinism":
		return c.deterministic(p, stages, variant)
	}
	return c.holds(q, p, s)
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

// typed draws a well-typed program, or skips the check.
func (c Calculus) typed(t *rapid.T, size int) (*sem.Term, *sem.Term) {
	p, ty := c.drawTyped(t, size)
	if ty == nil {
		t.Skipf("no program of the grammar that %s types in %d draws", c.Lang.Typing.Judgment.Name, typedDraws)
	}
	return p, ty
}

// Soundness follows the steps of the closed term t on the stepper, at most budget
// of them: every step must decompose and contract, and the answer, once reached, be
// a value or an answer of the root kind (Preservation without the types).
func Soundness(l *sem.Language, s sem.Stepper, t *sem.Term, budget int) error {
	return Preservation(l, s, t, nil, budget)
}

// deterministic: every stage runs p twice to the same answer by the same
// contractions.
func (c Calculus) deterministic(p *sem.Term, stages []interderive.Stage, variant string) error {
	prog := Program{calc: c, Term: p}
	for _, st := range stages {
		var runs [2][]string
		var answers [2]string
		for i := range 2 {
			opts := interderive.Options{Fuel: preservationSteps, OnContract: func(r string) { runs[i] = append(runs[i], r) }}
			out, err := prog.Run(st, variant, opts)
			answers[i] = out.Observation
			if err != nil {
				answers[i] = err.Error()
			}
		}
		if answers[0] != answers[1] || !slices.Equal(runs[0], runs[1]) {
			return fmt.Errorf("%s runs %s twice to %s and to %s", st.Name(), sem.FormatShort(p, 200), answers[0], answers[1])
		}
	}
	return nil
}

// holds checks a property of the file's own: of the program, or of each of its steps
// on the stepper.
func (c Calculus) holds(q *sem.Property, p *sem.Term, s sem.Stepper) error {
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
		return errors.New(msg)
	}
	if !q.Steps {
		ok, why, err := c.Lang.Holds(q, p, nil, opts)
		if err != nil {
			return err
		}
		if !ok {
			return fails(p, nil, why)
		}
		return nil
	}
	cur := p
	for range preservationSteps {
		next, _, done, err := s.Step(c.Lang, cur)
		if err != nil || done {
			return nil // a stuck program is progress's concern, not this property's
		}
		ok, why, err := c.Lang.Holds(q, cur, next, opts)
		if err != nil {
			return err
		}
		if !ok {
			return fails(cur, next, why)
		}
		cur = next
	}
	return nil
}

// CheckProperty checks a property the rule file states of this program
// (workbench.PropertyHolder: a holds: line), on the reference stage, which steps one
// at a time; other stages do not check it.
func (p Program) CheckProperty(name string, s interderive.Stage) (bool, error) {
	stated := p.calc.stated()
	i := slices.IndexFunc(stated, func(q *sem.Property) bool { return q.Name == name })
	if i < 0 {
		var names []string
		for _, q := range stated {
			names = append(names, q.Name)
		}
		return false, fmt.Errorf("%s states no property %s (its properties: %s)", p.calc.File, name, strings.Join(names, ", "))
	}
	q := stated[i]
	st, ok := sem.StageOf(s)
	stepper, steps := st.(sem.Stepper)
	if !ok || !steps {
		return false, nil
	}
	return true, p.calc.checkOn(q, p.Term, nil, stepper, []interderive.Stage{s}, variant)
}
