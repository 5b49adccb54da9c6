package driver

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// CastStage is one derivation stage of the cast calculus: it runs a translated,
// well-typed cast-calculus term under a cast semantics.
type CastStage struct {
	Name string
	Eval func(sem g.Semantics, e g.Expr, opts interderive.Options) (g.Answer, error)
}

// CastStages lists the stages of the cast calculus in derivation order.
func CastStages() []CastStage {
	return []CastStage{
		{"reduction", reduction.EvalCast},
		{"closures", closures.EvalCast},
		{"machine", machine.EvalCast},
		{"cps2", cps2.EvalCast},
		{"interp", interp.EvalCast},
	}
}

// castStage finds a stage by name.
func castStage(name string) (CastStage, bool) {
	for _, s := range CastStages() {
		if s.Name == name {
			return s, true
		}
	}
	return CastStage{}, false
}
