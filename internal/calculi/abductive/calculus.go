// Package abductive is the abductive calculus (Muroya, Cheung & Ghica) as the
// workbench sees it (workbench.Calculus): its language, its one semantics (labelled
// parameters, docs/abductive.md), its stages, its random programs and its
// metatheory.
package abductive

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	abd "github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/gen/abductivegen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// Calculus is the abductive calculus.
var Calculus workbench.Calculus = calculus{}

type calculus struct{}

// The language's extension, and the one value of the variant parameter.
const (
	ext      = "abd"
	labelled = "labelled"
)

func (calculus) Name() string { return "abductive" }

func (calculus) Doc() string {
	return "the abductive calculus: provisional constants, decoupling of parameters and the iterators over their basis (Muroya, Cheung & Ghica)"
}

func (calculus) Languages() []workbench.Language {
	return []workbench.Language{{Ext: ext, Doc: "a λ-calculus over a field with provisional constants {r}, abduct f, p. t, vectors and +L, *L"}}
}

// Variant: the calculus has one semantics, the term-level one of the specification:
// call by value with labelled parameters. The flag is its own: --parameters labelled,
// and expectation comments may name it (-- expect[labelled]: 3).
func (calculus) Variant() workbench.Parameter {
	return workbench.Parameter{Flag: "parameters", Noun: "parameter semantics",
		Doc:    "semantics of provisional constants (labelled: each {r} one label, ground values residuals, footprints)",
		Values: []string{labelled}, Default: labelled, Expect: []string{labelled}}
}

// Modes: one, which changes nothing.
func (calculus) Modes(string) []workbench.Mode {
	return []workbench.Mode{{Name: "default", Reference: true, Apply: func(*interderive.Options) {}}}
}

func (calculus) Supports(s interderive.Stage) bool {
	_, ok := abd.StageOf(s)
	return ok
}

// Load parses and type-checks a program.
func (calculus) Load(lang string, src []byte) (workbench.Program, error) {
	if lang != ext {
		return nil, fmt.Errorf("no language %q in the abductive calculus", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	e, err := abd.Parse(src)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	if _, err := abd.TypeOf(e); err != nil {
		return nil, &workbench.LoadError{Phase: "type", Err: err}
	}
	return program{term: e}, nil
}

// Generate draws a program of depth about size (abductivegen).
func (calculus) Generate(t *rapid.T, size int, _ string) workbench.Program {
	return program{term: abductivegen.Program(t, abductivegen.Config{Depth: size})}
}

func (calculus) Properties() []workbench.Property { return properties }

// Equal compares answers (abd.Answer: values equal up to α-renaming, numbers to the
// bit) and decoupling reports (abd.Decoupling: the same footprint and σ).
func (calculus) Equal(a, b any) bool {
	switch x := a.(type) {
	case abd.Answer:
		y, ok := b.(abd.Answer)
		return ok && abd.AlphaEqual(x.Value, y.Value)
	case abd.Decoupling:
		y, ok := b.(abd.Decoupling)
		return ok && x.Equal(y)
	}
	return false
}

// program is a closed, well-typed program.
type program struct{ term abd.Expr }

func (program) Lang() string { return ext }

func (p program) Source(b interderive.PrintBudget) (string, error) {
	return abd.FormatBounded(p.term, b)
}

// Term is the program.
func (p program) Term() abd.Expr { return p.term }

// Run runs the program on the stage.
func (p program) Run(stage interderive.Stage, variant string, opts interderive.Options) (workbench.Outcome, error) {
	if variant != labelled {
		return workbench.Outcome{}, fmt.Errorf("unknown parameter semantics %q (the abductive calculus has %s)", variant, labelled)
	}
	st, ok := abd.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the abductive calculus", stage.Name())
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(p.term, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	v, err := abd.FormatBounded(a.Value, opts.PrintBudget(interderive.NewLimits(opts, func() int { return *steps })))
	if err != nil {
		if errors.Is(err, interderive.ErrOutputLimit) {
			err = &interderive.OutputError{What: "the value", Limit: opts.Output}
		}
		return workbench.Outcome{Steps: *steps}, err
	}
	return workbench.Outcome{Observation: a.Observe(), Value: v, Answer: a, Steps: *steps}, nil
}
