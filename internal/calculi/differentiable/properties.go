package differentiable

import (
	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// propertyFuel bounds every run the properties make.
const propertyFuel = 20_000

// properties are the metatheory of the differentiable language that fuzz checks
// besides lockstep.
var properties = Properties(dpl.LookupDifferentiator)

// Properties are the differentiable language's properties, for the strategy that
// lookup finds by the variant's name (a test may check them of a strategy it makes
// up).
func Properties(lookup func(string) (dpl.Differentiator, bool)) []workbench.Property {
	strategy := func(t *rapid.T, variant string) dpl.Differentiator {
		ad, ok := lookup(variant)
		if !ok {
			t.Fatalf("unknown differentiation strategy %q", variant)
		}
		return ad
	}
	return []workbench.Property{
		{Name: "interpolation", Failure: "Proposition 3.5 fails",
			Doc: "Proposition 3.5: M => V iff M ~> C and C => V, to the bit",
			Check: func(t *rapid.T, size int, variant string, _ []interderive.Stage) *workbench.Counterexample {
				return checkInterpolation(t, size, strategy(t, variant))
			}},
		{Name: "finite-differences", Failure: "finite differences disagree with the derivative",
			Doc: "Theorems 6.1 and 6.2: for a random body and point, 1.rd[a](x. N) agrees with central differences of x -> N",
			Check: func(t *rapid.T, size int, variant string, _ []interderive.Stage) *workbench.Counterexample {
				return checkFiniteDifferences(t, size, strategy(t, variant))
			}},
	}
}

func counterexample(p program, err error) *workbench.Counterexample {
	src, _ := p.Source(interderive.PrintBudget{})
	return &workbench.Counterexample{Lang: ext, Source: src, Comment: []string{err.Error()}, Err: err}
}

func checkInterpolation(t *rapid.T, size int, ad dpl.Differentiator) *workbench.Counterexample {
	p := Calculus.Generate(t, size, ad.Name()).(program)
	if err := Interpolation(ad, p.term, propertyFuel); err != nil {
		return counterexample(p, err)
	}
	return nil
}

// checkFiniteDifferences draws bodies two levels shallower than the programs, as the
// tests do.
func checkFiniteDifferences(t *rapid.T, size int, ad dpl.Differentiator) *workbench.Counterexample {
	c := DrawGradientCase(t, max(1, size-2))
	if err := FiniteDifferences(ad, c.Body, c.T, c.Point, propertyFuel); err != nil {
		return counterexample(program{term: c.Program()}, err)
	}
	return nil
}
