// Package gradual is the gradually-typed lambda calculus as the workbench sees it
// (workbench.Calculus): GTLC and the cast calculus, their cast semantics, their stages,
// their random programs and their metatheory.
package gradual

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/gradual/custom"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// Calculus is the gradually-typed lambda calculus, its rule files run on their
// tables only (WithCompiled gives it the compiled engine).
var Calculus workbench.Calculus = calculus{files: &ruleFiles{}}

// WithCompiled is the calculus whose rule files also run on the compiled engine c
// (--engine compiled): the workbench's registry (internal/calculi) makes it so.
func WithCompiled(c sem.Compiled) workbench.Calculus {
	return calculus{files: &ruleFiles{compiled: c}}
}

type calculus struct {
	files *ruleFiles // the rule files read as semantics, by path
}

// The languages, by extension.
const (
	gtlc = "gtlc"
	cast = "cast"
)

func (calculus) Name() string { return "gradual" }

func (calculus) Doc() string {
	return "the gradually-typed lambda calculus: GTLC (Siek & Taha 2006) and the cast calculus, under the cast semantics LD, LUD, ED, EUD (Siek, Garcia & Taha 2009)"
}

func (calculus) Languages() []workbench.Language {
	return []workbench.Language{
		{Ext: gtlc, Doc: "GTLC, the gradually-typed source language: casts are inserted by the type checker"},
		{Ext: cast, Doc: "the cast calculus λ⟨·⟩: type-based casts, coercions, blame"},
	}
}

// Semantics lists the cast semantics the workbench knows: LD, LUD, ED, EUD, and the
// ones registered in package gradual/custom.
func Semantics() []g.Semantics { return append(g.Standard(), custom.All()...) }

func (calculus) Variant() workbench.Parameter {
	p := workbench.Parameter{Flag: "semantics", Noun: "cast semantics", Doc: "cast semantics (a name, or a rule file FILE.sem: gradual/rules/ld.sem, ...)",
		Default: g.ED.Name(), FileExt: RuleFileExt}
	for _, s := range Semantics() {
		p.Values = append(p.Values, s.Name())
	}
	for _, s := range g.Standard() {
		p.Expect = append(p.Expect, s.Name()) // a custom semantics runs where a file names it
	}
	return p
}

// Modes are unmerged, the reference (spec §4), and merged (spec §6), where merging
// preserves answers (gradual.MergesSafely): pending coercions in the context merge.
func (calculus) Modes(variant string) []workbench.Mode {
	modes := []workbench.Mode{{Name: interderive.Unmerged.String(), Reference: true,
		Apply: func(o *interderive.Options) { o.Merging = interderive.Unmerged }}}
	if IsRuleFile(variant) {
		return modes // a rule file gives the reference semantics of spec §4
	}
	if sem, ok := g.Lookup(variant, Semantics()...); ok && g.MergesSafely(sem) {
		modes = append(modes, workbench.Mode{Name: interderive.Merged.String(),
			Apply: func(o *interderive.Options) { o.Merging = interderive.Merged }})
	}
	return modes
}

func (calculus) Supports(s interderive.Stage) bool {
	_, ok := g.StageOf(s)
	return ok
}

// Load parses a program of GTLC (inserting its casts) or of the cast calculus, and
// type-checks it.
func (c calculus) Load(lang string, src []byte) (workbench.Program, error) {
	var syntax g.Lang
	switch lang {
	case gtlc:
		syntax = g.GTLC
	case cast:
		syntax = g.CastCalculus
	default:
		return nil, fmt.Errorf("no language %q in the gradual calculi", lang)
	}
	if err := workbench.CheckSize(src); err != nil {
		return nil, err
	}
	e, err := g.Parse(src, syntax)
	if err != nil {
		return nil, &workbench.LoadError{Phase: "syntax", Err: err}
	}
	prog := program{lang: lang, source: e, term: e, files: c.files}
	if lang == cast {
		if _, err := g.TypeOf(e); err != nil {
			return nil, &workbench.LoadError{Phase: "type", Err: err}
		}
	} else if prog.term, _, err = g.InsertCasts(e); err != nil {
		return nil, &workbench.LoadError{Phase: "type", Err: err}
	}
	return prog, nil
}

// Generate draws a program of GTLC or of the cast calculus (half the time each), with
// the injections of variant's blame strategy.
func (c calculus) Generate(t *rapid.T, size int, variant string) workbench.Program {
	inj := gradualgen.D
	if sem, ok := g.Lookup(variant, Semantics()...); ok {
		inj = gradualgen.For(sem)
	}
	p := generate(t, size, inj)
	p.files = c.files // a rule file variant is read once
	return p
}

// generate draws a program of GTLC or of the cast calculus (half the time each), the
// latter with the injections inj.
func generate(t *rapid.T, size int, inj gradualgen.Injectable) program {
	if rapid.Bool().Draw(t, "gtlc") {
		src := gradualgen.Program(t, gradualgen.Config{Depth: size})
		e, _, err := g.InsertCasts(src)
		if err != nil {
			t.Fatalf("generated program rejected: %v\n%s", err, g.Format(src))
		}
		return program{lang: gtlc, source: src, term: e}
	}
	e := gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: inj, Depth: size})
	if _, err := g.TypeOf(e); err != nil {
		t.Fatalf("generated program is ill-typed: %v\n%s", err, g.Format(e))
	}
	return program{lang: cast, source: e, term: e}
}

// Equal compares answers (g.Answer): the same blame label, or values equal up to
// α-renaming; under a rule file (RuleAnswer), terms equal up to α-renaming.
func (calculus) Equal(a, b any) bool {
	if x, ok := a.(RuleAnswer); ok {
		y, ok := b.(RuleAnswer)
		return ok && sem.AlphaEqual(x.Value, y.Value)
	}
	x, ok1 := a.(g.Answer)
	y, ok2 := b.(g.Answer)
	if !ok1 || !ok2 {
		return false
	}
	if x.Blamed || y.Blamed {
		return x.Blamed == y.Blamed && x.Blame == y.Blame
	}
	return g.AlphaEqual(x.Value, y.Value)
}

// program is a well-typed program: its source as written, and its cast-calculus form
// (casts not yet translated: each semantics translates them its own way).
type program struct {
	lang         string
	source, term g.Expr
	files        *ruleFiles // where the calculus keeps the rule files it read (nil: none)
}

func (p program) Lang() string { return p.lang }

func (p program) Source(b interderive.PrintBudget) (string, error) {
	return g.FormatBounded(p.source, b)
}

// Term is the program's cast-calculus form.
func (p program) Term() g.Expr { return p.term }

// Run translates the program's casts under the semantics variant and runs it on the
// stage.
func (p program) Run(stage interderive.Stage, variant string, opts interderive.Options) (workbench.Outcome, error) {
	if IsRuleFile(variant) {
		return p.runRuleFile(stage, variant, opts)
	}
	sem, ok := g.Lookup(variant, Semantics()...)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("unknown semantics %q", variant)
	}
	st, ok := g.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the gradual calculi", stage.Name())
	}
	steps := workbench.CountContractions(&opts)
	a, err := st.Eval(sem, g.Translate(sem, p.term), opts)
	if err != nil {
		return workbench.Outcome{Steps: *steps}, interderive.InStage(err, stage.Name())
	}
	return outcome(a, *steps, opts)
}

// outcome is an answer's outcome, its value printed within the run's budgets, or the
// error that says it does not print.
func outcome(a g.Answer, steps int, opts interderive.Options) (workbench.Outcome, error) {
	if a.Blamed {
		return workbench.Outcome{Observation: a.Observe(), Value: a.String(), Answer: a, Steps: steps}, nil
	}
	v, err := g.FormatBounded(a.Value, opts.PrintBudget(interderive.NewLimits(opts, func() int { return steps })))
	if err != nil {
		if errors.Is(err, interderive.ErrOutputLimit) {
			err = &interderive.OutputError{What: "the value", Limit: opts.Output}
		}
		return workbench.Outcome{Steps: steps}, err
	}
	return workbench.Outcome{Observation: a.Observe(), Value: v, Answer: a, Steps: steps}, nil
}

func (calculus) Properties() []workbench.Property { return properties }

// LockstepFuel is the fuel of fuzz's lockstep runs: the reference semantics is
// quadratic, and random programs loop now and then.
func (calculus) LockstepFuel() int { return propertyFuel }

// DynamicType is the type of an unannotated binder: a benchmark configuration that
// drops an annotation {name:T} writes Dyn.
func (calculus) DynamicType() string { return "Dyn" }
