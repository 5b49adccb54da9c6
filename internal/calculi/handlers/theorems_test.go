package handlers_test

import (
	"testing"

	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// property is the calculus's fuzz property of that name.
func property(t *testing.T, c workbench.Calculus, name string) workbench.Property {
	t.Helper()
	for _, p := range c.Properties() {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("the calculus has no property %s", name)
	return workbench.Property{}
}

// checkProperty runs a fuzz property as a rapid test (1,000 cases, 200 with -short),
// on every stage, under a strategy drawn for each case.
func checkProperty(t *testing.T, name string, size int) {
	w, c := bench(t)
	stages := w.StagesOf(c)
	prop := property(t, c, name)
	var strategies []string
	for _, d := range dpl.Differentiators() {
		strategies = append(strategies, d.Name())
	}
	rapid.Check(t, func(t *rapid.T) {
		ad := rapid.SampledFrom(strategies).Draw(t, "strategy")
		if ce := prop.Check(t, size, ad, stages); ce != nil {
			t.Fatalf("%s under %s: %v\n%s", prop.Failure, ad, ce.Err, ce.Source)
		}
	})
}

// TestReverseHandlerTheorem: a handler whose backward clauses are the reverse
// derivatives of its forward clauses computes the term-level rd of the handled body,
// to 1e-12, and leaves the heap alone.
func TestReverseHandlerTheorem(t *testing.T) { checkProperty(t, "reverse-handler", 5) }

// TestStaticElaboration: elaborating rev handle into RH and expanding RH by Fig. 7
// before the run (Def. 5.7) gives the answer of the dynamic reduction.
func TestStaticElaboration(t *testing.T) { checkProperty(t, "elaboration", 5) }

// TestFiniteDifferences: rev handle's gradients agree with central finite differences.
func TestFiniteDifferences(t *testing.T) { checkProperty(t, "fd-gradients", 5) }
