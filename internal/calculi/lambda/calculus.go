// Package lambda is the simply-typed call-by-value λ-calculus with integers as the
// workbench sees it (workbench.Calculus): its language, its one evaluation order, its
// stages, its random programs and its metatheory. It is the worked example of
// docs/extending.md.
package lambda

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/internal/workbench"
	lam "github.com/interderive/interderive/lambda"
	"pgregory.net/rapid"
)

// Calculus is the λ-calculus.
var Calculus workbench.Calculus = calculus{}

type calculus struct{}

// The language's extension, and the one value of the variant parameter.
const (
	ext = "lam"
	cbv = "cbv"
)

func (calculus) Name() string { return "lambda" }

func (calculus) Doc() string {
	return "the simply-typed call-by-value λ-calculus with integers, if0, let and letrec (the worked example of docs/extending.md)"
}

func (calculus) Languages() []workbench.Language {
	return []workbench.Language{{Ext: ext, Doc: "integers (64-bit, wrapping), typed functions, if0, let and letrec"}}
}

// Variant: the calculus has no semantic parameter, and so one value, the evaluation
// order it has: call by value, left to right. The flag is its own (a calculus that
// shares a flag with another shares its values in the command's flag): --evaluation
// cbv, and expectation comments may name it (-- expect[cbv]: 4).
func (calculus) Variant() workbench.Parameter {
	return workbench.Parameter{Flag: "evaluation", Noun: "evaluation order", Doc: "evaluation order (call by value, left to right)",
		Values: []string{cbv}, Default: cbv, Expect: []string{cbv}}
}

// Modes: one, which changes nothing.
func (calculus) Modes(string) []workbench.Mode {
	return []workbench.Mode{{Name: "default", Reference: true, Apply: func(*interderive.Options) {}}}
}

func (calculus) Supports(s interderive.Stage) bool {
	_, ok := lam.StageOf(s)
	return ok
}

// Load parses and type-checks a program.
func (calculus) Load(lang string, src []byte) (workbench.Program, error) {
	if lang != ext {
		return nil, fmt.Errorf("no language %q in the λ-calculus", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	e, err := lam.Parse(src)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	if _, err := lam.TypeOf(e); err != nil {
		return nil, &workbench.LoadError{Phase: "type", Err: err}
	}
	return program{term: e}, nil
}

// Generate draws a program of depth about size (lambdagen).
func (calculus) Generate(t *rapid.T, size int, _ string) workbench.Program {
	return program{term: lambdagen.Program(t, lambdagen.Config{Depth: size})}
}

func (calculus) Properties() []workbench.Property { return properties }

// Equal compares answers (lam.Answer): values equal up to α-renaming.
func (calculus) Equal(a, b any) bool {
	x, ok1 := a.(lam.Answer)
	y, ok2 := b.(lam.Answer)
	return ok1 && ok2 && lam.AlphaEqual(x.Value, y.Value)
}

// program is a closed, well-typed program.
type program struct{ term lam.Expr }

func (program) Lang() string { return ext }

func (p program) Source(b interderive.PrintBudget) (string, error) {
	return lam.FormatBounded(p.term, b)
}

// Term is the program.
func (p program) Term() lam.Expr { return p.term }

// Run runs the program on the stage.
func (p program) Run(stage interderive.Stage, variant string, opts interderive.Options) (workbench.Outcome, error) {
	if variant != cbv {
		return workbench.Outcome{}, fmt.Errorf("unknown evaluation order %q (the λ-calculus has %s)", variant, cbv)
	}
	st, ok := lam.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the λ-calculus", stage.Name())
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(p.term, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	v, err := lam.FormatBounded(a.Value, opts.PrintBudget(interderive.NewLimits(opts, func() int { return *steps })))
	if err != nil {
		if errors.Is(err, interderive.ErrOutputLimit) {
			err = &interderive.OutputError{What: "the value", Limit: opts.Output}
		}
		return workbench.Outcome{Steps: *steps}, err
	}
	return workbench.Outcome{Observation: a.Observe(), Value: v, Answer: a, Steps: *steps}, nil
}
