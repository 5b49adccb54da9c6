// Package differentiable is Abadi & Plotkin's differentiable programming language as
// the workbench sees it (workbench.Calculus): its differentiation strategies, its
// stages, its random programs and its metatheory.
package differentiable

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// Calculus is the differentiable language.
var Calculus workbench.Calculus = calculus{}

type calculus struct{}

// ext is the language's file extension.
const ext = "dpl"

func (calculus) Name() string { return "dpl" }

func (calculus) Doc() string {
	return "Abadi & Plotkin's differentiable programming language (POPL 2020), under the differentiation strategies tape, pruned, figure6"
}

func (calculus) Languages() []workbench.Language {
	return []workbench.Language{{Ext: ext, Doc: "reals, tuples, conditionals on predicates, recursion, and the reverse-mode derivative rd"}}
}

func (calculus) Variant() workbench.Parameter { return Strategies() }

// Strategies is the parameter --ad: the strategy of rd (tape, pruned, figure6), which
// every calculus on the differentiable language's terms takes.
func Strategies() workbench.Parameter {
	p := workbench.Parameter{Flag: "ad", Noun: "differentiation strategy", Doc: "differentiation strategy", Default: dpl.Tape.Name()}
	for _, d := range dpl.Differentiators() {
		p.Values = append(p.Values, d.Name())
	}
	p.Expect = p.Values
	return p
}

// Modes: one, which changes nothing.
func (calculus) Modes(string) []workbench.Mode {
	return []workbench.Mode{{Name: "default", Reference: true, Apply: func(*interderive.Options) {}}}
}

func (calculus) Supports(s interderive.Stage) bool {
	_, ok := dpl.StageOf(s)
	return ok
}

// Load parses, type-checks and elaborates a program.
func (calculus) Load(lang string, src []byte) (workbench.Program, error) {
	if lang != ext {
		return nil, fmt.Errorf("no language %q in the differentiable language", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	t, err := dpl.Parse(src)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	t, _, err = dpl.Check(t)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "type", Err: err}
	}
	return program{term: t}, nil
}

// Generate draws a program with every construct (dplgen.Full).
func (calculus) Generate(t *rapid.T, size int, _ string) workbench.Program {
	return program{term: dplgen.Program(t, dplgen.Full(size))}
}

func (calculus) Properties() []workbench.Property { return properties }

// Equal compares answers (dpl.Answer: the same value, reals to the bit, or undefined
// at the same redex) and reported terms (an rd's trace and derivative), up to
// α-renaming.
func (calculus) Equal(a, b any) bool {
	switch x := a.(type) {
	case dpl.Answer:
		y, ok := b.(dpl.Answer)
		return ok && SameDPLAnswer(x, y)
	case dpl.Term:
		y, ok := b.(dpl.Term)
		return ok && dpl.AlphaEqual(x, y)
	}
	return false
}

// program is an elaborated, well-typed program.
type program struct{ term dpl.Term }

func (program) Lang() string { return ext }

// generatedName matches a name made by a dpl.Names supply (x#3), which programs may
// not write.
var generatedName = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_]*)#([0-9]+)`)

// Source prints the program so that the command reads it back: generated names x#3
// become x_g3 (a name the generators never use), if the result parses.
func (p program) Source(b interderive.PrintBudget) (string, error) {
	text, err := dpl.FormatBounded(p.term, b)
	if err != nil {
		return text, err
	}
	renamed := generatedName.ReplaceAllString(text, "${1}_g$2")
	if _, err := dpl.Parse([]byte(renamed)); err != nil {
		return text, nil
	}
	return renamed, nil
}

// Term is the elaborated program.
func (p program) Term() dpl.Term { return p.term }

// Run runs the program on the stage under the strategy variant.
func (p program) Run(stage interderive.Stage, variant string, opts interderive.Options) (workbench.Outcome, error) {
	ad, ok := dpl.LookupDifferentiator(variant)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("unknown differentiation strategy %q", variant)
	}
	st, ok := dpl.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the differentiable language", stage.Name())
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(ad, p.term, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	return outcome(a, *steps, opts)
}

// outcome is an answer's outcome, printed within the run's budgets (the value, or the
// redex where it is undefined), or the error that says it does not print.
func outcome(a dpl.Answer, steps int, opts interderive.Options) (workbench.Outcome, error) {
	b := opts.PrintBudget(interderive.NewLimits(opts, func() int { return steps }))
	shown := a.Value
	if a.Undefined != nil {
		shown = a.Undefined.Redex
	}
	v, err := dpl.FormatBounded(shown, b)
	if err != nil {
		if errors.Is(err, interderive.ErrOutputLimit) {
			err = &interderive.OutputError{What: "the value", Limit: opts.Output}
		}
		return workbench.Outcome{Steps: steps}, err
	}
	if a.Undefined != nil {
		return workbench.Outcome{Observation: "undefined", Value: "undefined: " + v, Answer: a, Steps: steps}, nil
	}
	return workbench.Outcome{Observation: v, Value: v, Answer: a, Steps: steps}, nil
}

// LockstepFuel is the fuel of fuzz's lockstep runs.
func (calculus) LockstepFuel() int { return propertyFuel }
