package gradual

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// propertyFuel bounds every run the properties make: random programs loop now and
// then, and the reduction semantics is quadratic.
const propertyFuel = 3000

// preservationSteps bounds the steps the preservation property follows.
const preservationSteps = 300

// properties are the metatheory of the gradual calculi that fuzz checks besides
// lockstep.
var properties = Properties(func(name string) (g.Semantics, bool) { return g.Lookup(name, Semantics()...) })

// Properties are the gradual calculi's properties, for the semantics that lookup finds
// by the variant's name (a test may check them of a semantics it makes up).
func Properties(lookup func(string) (g.Semantics, bool)) []workbench.Property {
	semantics := func(t *rapid.T, variant string) g.Semantics {
		sem, ok := lookup(variant)
		if !ok {
			t.Fatalf("unknown semantics %q", variant)
		}
		return sem
	}
	return []workbench.Property{
		{Name: "preservation", Failure: "progress or preservation fails",
			Doc: "the reference semantics makes progress and preserves the program's type at every step, unmerged and merged",
			Check: func(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
				return checkPreservation(t, size, semantics(t, variant), stages)
			}},
		{Name: "blame", Failure: "the blame theorem fails",
			Doc: "the blame theorem: blame never falls on a label carried only by casts that respect the subtyping " +
				"of the semantics' strategy (LD, ED: <:D; LUD, EUD: <:UD; a custom semantics: the label must be the program's)",
			Check: func(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
				return checkBlame(t, size, semantics(t, variant), stages)
			}},
		{Name: "rulefiles", Failure: "a rule file parts from the hand-written semantics",
			Doc: "the semantics as a rule file (gradual/rules/NAME.sem): every stage derived from it contracts as the hand-written reduction semantics does, one for one, to the same answer",
			Check: func(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
				return checkRuleFiles(t, size, semantics(t, variant), stages)
			},
			// A custom semantics (edn) has no rule file: its cases are checked, and
			// counted, without this property (checkRuleFiles skipped them, and rapid
			// discarded each such case after lockstep, preservation and blame had
			// run on it, which fuzz then counted as programs beyond --count).
			Applies: hasRuleFile},
		{Name: "seq", Failure: "seq is not correct",
			Doc: "seq correctness: for a random pair of well-typed normal forms, seq(c1, c2) is the normal form that reduction reaches from c1 ; c2",
			Check: func(t *rapid.T, size int, variant string, stages []interderive.Stage) *workbench.Counterexample {
				return checkSeq(t, size, semantics(t, variant), stages)
			},
			Unit: "compositions"},
	}
}

// draw draws a program for the properties, with the injections of sem's strategy.
func draw(t *rapid.T, size int, sem g.Semantics) program {
	return generate(t, size, gradualgen.For(sem))
}

func source(p program) string {
	s, _ := p.Source(interderive.PrintBudget{})
	return s
}

func checkPreservation(t *rapid.T, size int, sem g.Semantics, _ []interderive.Stage) *workbench.Counterexample {
	p := draw(t, size, sem)
	ty, err := g.TypeOf(p.term)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v", err)
	}
	for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
		if err := CastPreservation(sem, g.Translate(sem, p.term), ty, preservationSteps, mode); err != nil {
			return &workbench.Counterexample{Lang: p.lang, Source: source(p), Comment: []string{err.Error()}, Err: err}
		}
	}
	return nil
}

// checkBlame runs the program on the reference stage, in both modes, and judges the
// answer by the blame theorem (BlameSafe). The counterexample is the program's
// cast-calculus form, whose labels are those of the message.
func checkBlame(t *rapid.T, size int, sem g.Semantics, stages []interderive.Stage) *workbench.Counterexample {
	p := draw(t, size, sem)
	ref, ok := g.StageOf(stages[0])
	if !ok {
		t.Fatalf("the reference stage %s does not run the gradual calculi", stages[0].Name())
	}
	for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
		a, err := ref.Eval(sem, g.Translate(sem, p.term), interderive.Options{Fuel: propertyFuel, Merging: mode})
		if errors.Is(err, interderive.ErrOutOfFuel) {
			continue
		}
		if err == nil {
			err = BlameSafe(sem, p.term, a)
		}
		if err != nil {
			return &workbench.Counterexample{Lang: cast, Source: g.Format(p.term), Comment: []string{fmt.Sprintf("%v (%s)", err, mode)}, Err: err}
		}
	}
	return nil
}

// checkSeq draws a composition of normal forms (DrawComposition) and checks seq
// against reduction. No stage calls seq: the counterexample applies c1 ; c2 to a
// value, so that a trace shows reduction normalising it.
func checkSeq(t *rapid.T, _ int, sem g.Semantics, _ []interderive.Stage) *workbench.Counterexample {
	comp := DrawComposition(t, sem)
	_, err := SeqCorrect(sem, comp.C1, comp.C2)
	if err == nil {
		return nil
	}
	return &workbench.Counterexample{Lang: cast, Err: err,
		Source: g.Format(&g.Coerce{C: g.Then(comp.C1, comp.C2), X: valueOf(comp.S)}),
		Comment: []string{err.Error(),
			fmt.Sprintf("c1 : %s => %s, c2 : %s => %s. No stage calls seq: the program applies c1 ; c2 to a value,",
				g.FormatType(comp.S), g.FormatType(comp.T), g.FormatType(comp.T), g.FormatType(comp.U)),
			fmt.Sprintf("and interderive trace --semantics %s on it shows reduction normalising c1 ; c2.", sem.Name())}}
}

// valueOf is a value of type ty, for the program that shows a composition.
func valueOf(ty g.Type) g.Expr {
	switch ty := ty.(type) {
	case *g.Arrow:
		return &g.Lam{Param: "x", T: ty.From, Body: valueOf(ty.To)}
	case g.DynType:
		return &g.Coerce{C: &g.Inj{T: g.Int}, X: &g.IntLit{N: 1}}
	}
	if ty == g.Bool {
		return &g.BoolLit{B: true}
	}
	return &g.IntLit{N: 1}
}
