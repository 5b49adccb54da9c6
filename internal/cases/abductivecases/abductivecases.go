// Package abductivecases holds small programs of the abductive calculus with their
// answers and their whole contraction sequences, derived by hand from the rules of
// abductive/doc.go, so that every stage's own tests check it against the definition
// directly (and not only against the reduction semantics). The vectors E1 ... X3 are
// the test vectors of the calculus's specification (docs/abductive.md), whose answers were confirmed on the authors'
// own machine; the contraction sequences are derived here.
package abductivecases

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
)

// Case is a program, its observation, and its contractions, one rule name per
// contraction.
type Case struct {
	Name    string
	Program string
	Observe string
	Rules   string // space-separated
}

// Cases lists the programs; the derivation of each is in its comment. In the
// derivations, P is the parameters and F the parameterised model a decoupling binds
// (abductive.Decouple), ^L a footprint, and a let f @ p = m in t is the application
// (abduct f, p. t) m: its model is evaluated first (the abduct is a value), then the
// abduct contraction substitutes F and P into t.
var Cases = []Case{
	// E1. {1} -param-> ℓ1; ℓ1 + 2 -delta-> ⟨ℓ1 + 2⟩; -abduct-> P = [1]^{ℓ1},
	// F = \y:V. y . [1] + 2; F P -beta-> [1] . [1] + 2 -delta-> 1 + 2 -delta-> 3.
	{Name: "E1", Program: `let f @ p = {1} + 2 in f p`, Observe: "3",
		Rules: "param delta abduct beta delta delta"},
	// E2. As E1 up to abduct; 2 * P -delta-> [2]; F [2] -beta-> [2] . [1] + 2 -delta->
	// 2 + 2 -delta-> 4.
	{Name: "E2", Program: `let f @ p = {1} + 2 in f (2 * p)`, Observe: "4",
		Rules: "param delta abduct delta beta delta delta"},
	// E3 (deep decoupling: y is a free variable of the model). {2} -param-> ℓ1,
	// + 1 -delta-> ⟨ℓ1 + 1⟩; let y -beta->; let m (a lambda) -beta->; the model
	// \x:F. {3} + ⟨ℓ1 + 1⟩ + x has footprint {ℓ1, ℓ2} ({3} is ℓ2) -abduct-> P = [2, 3],
	// F = \y:V. \x:F. y . [0, 1] + (y . [1, 0] + 1) + x; F P -beta-> \x:F. ...;
	// applied to 7 -beta-> P . [0, 1] + (P . [1, 0] + 1) + 7: -delta-> 3, -delta-> 2,
	// -delta-> 3, -delta-> 6, -delta-> 13.
	{Name: "E3", Program: `let y = {2} + 1 in let m x:F = {3} + y + x in let f @ p = m in f p 7`, Observe: "13",
		Rules: "param delta beta beta abduct beta beta delta delta delta delta delta"},
	// E3'. The same model; P . P = 2*2 + 3*3 -delta-> 13.
	{Name: "E3'", Program: `let y = {2} + 1 in let m x:F = {3} + y + x in let f @ p = m in p . p`, Observe: "13",
		Rules: "param delta beta beta abduct delta"},
	// E4a. {1} -param-> ℓ1; (\x:F. x + x) ℓ1 -beta-> ℓ1 + ℓ1 -delta-> ⟨ℓ1 + ℓ1⟩, one
	// label -abduct-> P = [1]; P . P -delta-> 1.
	{Name: "E4a", Program: `let f @ p = (\x:F. x + x) {1} in p . p`, Observe: "1",
		Rules: "param beta delta abduct delta"},
	// E4b. {1} -param-> ℓ1, {1} -param-> ℓ2, -delta-> ⟨ℓ1 + ℓ2⟩ -abduct-> P = [1, 1];
	// P . P -delta-> 2.
	{Name: "E4b", Program: `let f @ p = {1} + {1} in p . p`, Observe: "2",
		Rules: "param param delta abduct delta"},
	// E5a. {1} -param-> ℓ1; (\x:F. 0) ℓ1 -beta-> 0^{ℓ1} -abduct-> P = [1]; -delta-> 1.
	{Name: "E5a", Program: `let f @ p = (\x:F. 0) {1} in p . p`, Observe: "1",
		Rules: "param beta abduct delta"},
	// E5b. 0 has no footprint -abduct-> P = []; P . P -delta-> 0.
	{Name: "E5b", Program: `let f @ p = 0 in p . p`, Observe: "0",
		Rules: "abduct delta"},
	// E6 (meta-learning). {1} -param-> ℓ1 -abduct-> P = [1]^{ℓ1}, F = \y:V. y . [1],
	// under ^{ℓ1, ℓ2} (the inner abduct's body has {2}); {2} -param-> ℓ2; ℓ2 * P
	// -delta-> [⟨ℓ2 * 1⟩]^{ℓ1, ℓ2}; F [...] -beta-> [...] . [1] -delta-> ⟨ℓ2 * 1 * 1⟩
	// with footprint {ℓ1, ℓ2} -abduct-> Q = [1, 2], G = \y:V. y . [0, 1] * 1 * 1;
	// G Q -beta-> Q . [0, 1] * 1 * 1 -delta-> 2 -delta-> 2 -delta-> 2.
	{Name: "E6", Program: `let g @ q = (let f @ p = {1} in f ({2} * p)) in g q`, Observe: "2",
		Rules: "param abduct param delta beta delta abduct beta delta delta delta"},
	// E6'. As E6 up to the outer abduct; Q . Q = 1 + 4 -delta-> 5.
	{Name: "E6'", Program: `let g @ q = (let f @ p = {1} in f ({2} * p)) in q . q`, Observe: "5",
		Rules: "param abduct param delta beta delta abduct delta"},
	// X1. 1 + {2}: {2} -param-> ℓ1, -delta-> ⟨1 + ℓ1⟩ -abduct-> P = [2]; -delta-> 4.
	{Name: "X1", Program: `let f @ p = 1 + {2} in p . p`, Observe: "4",
		Rules: "param delta abduct delta"},
	// X2. 1 + 2 -delta-> 3, no label -abduct-> P = []; -delta-> 0.
	{Name: "X2", Program: `let f @ p = 1 + 2 in p . p`, Observe: "0",
		Rules: "delta abduct delta"},
	// X3 (one parameter across calls). let g -beta-> (the lambda has {5}, ℓ1); g 2
	// -beta-> {5} * 2: -param-> ℓ1, -delta-> ⟨ℓ1 * 2⟩; g 3 likewise: beta param delta;
	// + -delta-> ⟨ℓ1 * 2 + ℓ1 * 3⟩ -abduct-> P = [5]; P . P -delta-> 25.
	{Name: "X3", Program: `let g = \x:F. {5} * x in let f @ p = (g 2) + (g 3) in p . p`, Observe: "25",
		Rules: "beta beta param delta beta param delta delta abduct delta"},

	// Direct mode: {2} -param-> ℓ1, {3} -param-> ℓ2, * -delta-> ⟨ℓ1 * ℓ2⟩, - 1
	// -delta-> ⟨ℓ1 * ℓ2 - 1⟩, which denotes 2 * 3 - 1 = 5.
	{Name: "direct", Program: `{2} * {3} - 1`, Observe: "5", Rules: "param param delta delta"},
	// ({1} + 1) / 4: param, delta ⟨ℓ1 + 1⟩, delta ⟨(ℓ1 + 1) / 4⟩ = 2 / 4 = 0.5.
	{Name: "divide", Program: `({1} + 1) / 4`, Observe: "0.5", Rules: "param delta delta"},
	// let x = 2 in x * x -beta-> 2 * 2 -delta-> 4.
	{Name: "let", Program: `let x = 2 in x * x`, Observe: "4", Rules: "beta delta"},
	// +L over one parameter. {3} -param-> ℓ1 -abduct-> P = [3]^{ℓ1}; with
	// g = \e:V. e: 0 * P -delta-> [0]^{ℓ1}; g +L [0] -iterate-> g [1] + (g +L[1] [0]);
	// g [1] -beta-> [1]; g +L[1] [0] -iterate-> [0]^{ℓ1}; + -delta-> [1]; . P -delta-> 3.
	{Name: "iterate-add", Program: `let f @ p = {3} in ((\e:V. e) +L 0 * p) . p`, Observe: "3",
		Rules: "param abduct delta iterate beta iterate delta delta"},
	// *L over two parameters. {2}, {3} -param-> ℓ1, ℓ2, -delta-> ⟨ℓ1 + ℓ2⟩ -abduct->
	// P = [2, 3]; with g = \e:V. e . P: g *L P -iterate-> g [1, 0] * (g *L[1] P);
	// g [1, 0] -beta-> [1, 0] . P -delta-> 2; -iterate-> g [0, 1] * (g *L[2] P);
	// -beta-> -delta-> 3; g *L[2] P -iterate-> P; 3 * P -delta-> [6, 9]; 2 * [6, 9]
	// -delta-> [12, 18]; . P -delta-> 12*2 + 18*3 = 78.
	{Name: "iterate-scale", Program: `let f @ p = {2} + {3} in ((\e:V. e . p) *L p) . p`, Observe: "78",
		Rules: "param param delta abduct iterate beta delta iterate beta delta iterate delta delta delta"},
	// A function answer: the model \x:F. {1} * x has footprint {ℓ1} -abduct-> P = [1];
	// 2 * P -delta-> [2]; F [2] -beta-> \x:F. [2] . [1] * x, a value.
	{Name: "function-answer", Program: `let f @ p = \x:F. {1} * x in f (2 * p)`, Observe: "function",
		Rules: "abduct delta beta"},
	// A footprint is never dropped: the inner decoupling's result 7 keeps {ℓ1}
	// ({1} -param-> ℓ1 -abduct-> 7^{ℓ1}) -abduct-> Q = [1]; Q . Q -delta-> 1.
	{Name: "footprint-kept", Program: `let g @ q = (let f @ p = {1} in 7) in q . q`, Observe: "1",
		Rules: "param abduct abduct delta"},
	// Parameters named alike: abduct f, f. t binds f to the parameters (the second
	// binder hides the first). {4} -param-> ℓ1 -abduct-> f = [4]; f . f -delta-> 16.
	{Name: "hiding", Program: `let f @ f = {4} in f . f`, Observe: "16",
		Rules: "param abduct delta"},
}

// Run checks a stage against every case.
func Run(t *testing.T, stage abductive.Stage) {
	t.Helper()
	for _, c := range Cases {
		e, err := abductive.Parse([]byte(c.Program))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if _, err := abductive.TypeOf(e); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var rules []string
		a, err := stage.Eval(e, interderive.Options{OnContract: func(r string) { rules = append(rules, r) }})
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if got := a.Observe(); got != c.Observe {
			t.Errorf("%s: %s, want %s", c.Name, got, c.Observe)
		}
		if got := strings.Join(rules, " "); got != c.Rules {
			t.Errorf("%s: contractions\n  %s\nwant\n  %s", c.Name, got, c.Rules)
		}
	}
}
