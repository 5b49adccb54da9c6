package driver

import (
	"fmt"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/gradual/custom"
)

// gradualLang is GTLC (cast false) or the cast calculus (cast true).
type gradualLang struct{ cast bool }

func (l gradualLang) Name() string {
	if l.cast {
		return "cast"
	}
	return "gtlc"
}

// Variants are the cast semantics: the four standard ones, then the custom ones.
func (gradualLang) Variants() []string {
	var names []string
	for _, s := range CastSemantics() {
		names = append(names, s.Name())
	}
	return names
}

// CastSemantics lists the cast semantics the command knows: LD, LUD, ED, EUD, and the
// ones registered in package gradual/custom.
func CastSemantics() []g.Semantics {
	return append(g.Standard(), custom.All()...)
}

func (gradualLang) DefaultVariant() string { return g.ED.Name() }

func (gradualLang) Stages() []string {
	var names []string
	for _, s := range CastStages() {
		names = append(names, s.Name)
	}
	return names
}

func (l gradualLang) Load(src []byte) (Program, error) {
	lang := g.GTLC
	if l.cast {
		lang = g.CastCalculus
	}
	if err := checkSize(src); err != nil {
		return nil, err
	}
	e, err := g.Parse(src, lang)
	if err != nil {
		return nil, &LoadError{Phase: "syntax", Err: err}
	}
	if l.cast {
		if _, err := g.TypeOf(e); err != nil {
			return nil, &LoadError{Phase: "type", Err: err}
		}
	} else if e, _, err = g.InsertCasts(e); err != nil {
		return nil, &LoadError{Phase: "type", Err: err}
	}
	return gradualProgram{term: e}, nil
}

// gradualProgram is a well-typed cast-calculus term, casts not yet translated.
type gradualProgram struct{ term g.Expr }

func (p gradualProgram) prepare(stage, variant string) (CastStage, g.Semantics, g.Expr, error) {
	sem, ok := g.Lookup(variant, CastSemantics()...)
	if !ok {
		return CastStage{}, nil, nil, fmt.Errorf("unknown semantics %q", variant)
	}
	st, ok := castStage(stage)
	if !ok {
		return CastStage{}, nil, nil, fmt.Errorf("stage %q is not available for the gradual calculi", stage)
	}
	return st, sem, g.Translate(sem, p.term), nil
}

func outcomeOf(a g.Answer, steps int) Outcome {
	return Outcome{Observation: a.Observe(), Value: a.String(), Steps: steps}
}

func (p gradualProgram) Run(stage, variant string, opts interderive.Options) (Outcome, error) {
	st, sem, e, err := p.prepare(stage, variant)
	if err != nil {
		return Outcome{}, err
	}
	opts, steps := counting(opts)
	limits := interderive.NewLimits(opts, func() int { return *steps })
	a, err := st.Eval(sem, e, opts)
	if err != nil {
		return Outcome{Steps: *steps}, interderive.InStage(err, stage)
	}
	return newPrinter(opts, limits).castAnswer(a, *steps)
}
