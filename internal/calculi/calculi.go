// Package calculi is the workbench's registry: the calculi it runs, and the stages of
// their derivation in order. A new calculus is a line in All, a new stage a line in
// Stages (docs/extending.md).
package calculi

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/calculi/abductive"
	"github.com/interderive/interderive/internal/calculi/differentiable"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/calculi/handlers"
	"github.com/interderive/interderive/internal/calculi/lambda"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/compiled"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// All lists the calculi. Those that run rule files run them on the compiled engine
// too (--engine compiled), one for the calculi All gives.
func All() []workbench.Calculus { return With(&compiled.Cache{}) }

// With is All, the calculi that run rule files running them on the compiled engine
// c (its plugins' directory, what it says of a build).
func With(c *compiled.Cache) []workbench.Calculus {
	return []workbench.Calculus{
		gradual.WithCompiled(c),
		differentiable.Calculus,
		lambda.Calculus,
		abductive.Calculus,
		handlers.Calculus,
		rules.WithCompiled(c),
	}
}

// Stages lists the derivation stages in derivation order: the first, the reduction
// semantics, is every calculus's reference.
func Stages() []interderive.Stage {
	return []interderive.Stage{
		reduction.Stage{},
		closures.Stage{},
		machine.Stage{},
		cps2.Stage{},
		interp.Stage{},
		compile.Stage{},
	}
}
