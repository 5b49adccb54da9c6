// Package handlers is the language of reverse handlers for arrows as the workbench
// sees it (workbench.Calculus): its language (*.rh), its variant (the differentiation
// strategy of its term-level rd, shared with the differentiable language's --ad), its
// stages, its random programs and its metatheory.
package handlers

import (
	"fmt"
	"regexp"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	rh "github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/calculi/differentiable"
	"github.com/interderive/interderive/internal/gen/handlersgen"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// Calculus is the language of reverse handlers.
var Calculus workbench.Calculus = calculus{}

type calculus struct{}

const ext = "rh"

func (calculus) Name() string { return "handlers" }

func (calculus) Doc() string {
	return "reverse handlers for arrows (Sanada, Hoshino, Hirai & Katsumata): backpropagation as an effect, under the differentiation strategies tape, pruned, figure6"
}

func (calculus) Languages() []workbench.Language {
	return []workbench.Language{{Ext: ext, Doc: "operations, rev handle with forward and backward clauses, a heap, and the differentiable language's terms"}}
}

// Variant: the strategy of the term-level rd, as the differentiable language's (the
// same flag, --ad, and the same values).
func (calculus) Variant() workbench.Parameter { return differentiable.Strategies() }

// Modes: one, which changes nothing.
func (calculus) Modes(string) []workbench.Mode {
	return []workbench.Mode{{Name: "default", Reference: true, Apply: func(*interderive.Options) {}}}
}

func (calculus) Supports(s interderive.Stage) bool {
	_, ok := rh.StageOf(s)
	return ok
}

// Load parses and type-checks a program.
func (calculus) Load(lang string, src []byte) (workbench.Program, error) {
	if lang != ext {
		return nil, fmt.Errorf("no language %q in the language of reverse handlers", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	p, err := rh.Parse(src)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	if _, err := rh.Check(p); err != nil {
		return nil, &workbench.LoadError{Phase: "type", Err: err}
	}
	return program{prog: p}, nil
}

// Generate draws a program of depth about size (handlersgen), with log (undefined
// answers) now and then.
func (calculus) Generate(t *rapid.T, size int, _ string) workbench.Program {
	return program{prog: handlersgen.Program(t, handlersgen.Config{Depth: size, Undefined: true})}
}

func (calculus) Properties() []workbench.Property { return properties }

// Equal compares answers (rh.Answer): the same value and heap, reals to the bit, or
// undefined at the same redex, up to α-renaming.
func (calculus) Equal(a, b any) bool {
	x, ok1 := a.(rh.Answer)
	y, ok2 := b.(rh.Answer)
	return ok1 && ok2 && SameAnswer(x, y)
}

// SameAnswer compares two answers.
func SameAnswer(a, b rh.Answer) bool {
	if (a.Undefined == nil) != (b.Undefined == nil) {
		return false
	}
	if a.Undefined != nil {
		return dpl.AlphaEqual(a.Undefined.Redex, b.Undefined.Redex)
	}
	if a.Value == nil || b.Value == nil || !dpl.AlphaEqual(a.Value, b.Value) || len(a.Heap) != len(b.Heap) {
		return false
	}
	for i := range a.Heap {
		if a.Heap[i].Name != b.Heap[i].Name || !dpl.AlphaEqual(a.Heap[i].Value, b.Heap[i].Value) {
			return false
		}
	}
	return true
}

// program is a checked program.
type program struct{ prog *rh.Program }

func (program) Lang() string { return ext }

// generatedName matches a name made by a dpl.Names supply (z#3), which programs may
// not write.
var generatedName = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_]*)#([0-9]+)`)

// Source prints the program so that the command reads it back: generated names z#3
// become z_g3 (a name the generator never uses), if the result parses.
func (p program) Source(b interderive.PrintBudget) (string, error) {
	f := rh.Format(p.prog)
	if b.Max > 0 && len(f) > b.Max {
		return interderive.Cut(f, b.Max), &interderive.OutputError{Limit: b.Max}
	}
	renamed := generatedName.ReplaceAllString(f, "${1}_g$2")
	if _, err := rh.Parse([]byte(renamed)); err != nil {
		return f, nil
	}
	return renamed, nil
}

// Program is the checked program.
func (p program) Program() *rh.Program { return p.prog }

// Run runs the program on the stage under the strategy variant.
func (p program) Run(stage interderive.Stage, variant string, opts interderive.Options) (workbench.Outcome, error) {
	ad, ok := dpl.LookupDifferentiator(variant)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("unknown differentiation strategy %q", variant)
	}
	st, ok := rh.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the language of reverse handlers", stage.Name())
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(ad, p.prog, opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	obs := a.Observe()
	if b := opts.PrintBudget(interderive.NewLimits(opts, func() int { return *steps })); b.Max > 0 && len(obs) > b.Max {
		return workbench.Outcome{Steps: *steps}, &interderive.OutputError{What: "the value", Limit: opts.Output}
	}
	value := obs
	if a.Undefined != nil {
		value = a.String()
	}
	return workbench.Outcome{Observation: obs, Value: value, Answer: a, Steps: *steps}, nil
}
