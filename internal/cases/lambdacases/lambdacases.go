// Package lambdacases holds small programs of the λ-calculus with their answers and
// their whole contraction sequences, derived by hand from the rules of lambda/doc.go,
// so that every stage's own tests check it against the definition directly (and not
// only against the reduction semantics).
package lambdacases

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/lambda"
)

// Case is a program, its observation, and its contractions, one rule name per
// contraction.
type Case struct {
	Name    string
	Program string
	Observe string
	Rules   string // space-separated
}

// Cases lists the programs; the derivation of each is in its comment. F stands for
// the function a letrec unfolds to (lambda.Unfold).
var Cases = []Case{
	// * binds tighter: 1 + (2 * 3) -delta-> 1 + 6 -delta-> 7
	{Name: "delta", Program: `1 + 2 * 3`, Observe: "7", Rules: "delta delta"},
	// (\x:Int. x + 1) 41 -beta-> 41 + 1 -delta-> 42
	{Name: "beta", Program: `(\x:Int. x + 1) 41`, Observe: "42", Rules: "beta delta"},
	// if0 0 then 1 else 2 -if0-> 1
	{Name: "if0-zero", Program: `if0 0 then 1 else 2`, Observe: "1", Rules: "if0"},
	// if0 5 then 10 else 20 -if0-> 20
	{Name: "if0-nonzero", Program: `if0 5 then 10 else 20`, Observe: "20", Rules: "if0"},
	// if0 3 - 3 then 10 else 20 -delta-> if0 0 then 10 else 20 -if0-> 10
	{Name: "if0-computed", Program: `if0 3 - 3 then 10 else 20`, Observe: "10", Rules: "delta if0"},
	// let x = 2 * 3 in x + x -delta-> let x = 6 in x + x -let-> 6 + 6 -delta-> 12
	{Name: "let", Program: `let x = 2 * 3 in x + x`, Observe: "12", Rules: "delta let delta"},
	// 2^63 - 1 + 1 wraps around to -2^63
	{Name: "wrap", Program: `9223372036854775807 + 1`, Observe: "-9223372036854775808", Rules: "delta"},
	// -2^63 * -1 wraps around to -2^63
	{Name: "wrap-negative", Program: `-9223372036854775808 * -1`, Observe: "-9223372036854775808", Rules: "delta"},
	// Left to right: (\x:Int. x * 2) 1 + (\y:Int. y) 2 -beta-> 1 * 2 + ... -delta-> 2 + (\y:Int. y) 2
	// -beta-> 2 + 2 -delta-> 4 (right to left would be beta beta delta delta)
	{Name: "left-to-right", Program: `(\x:Int. x * 2) 1 + (\y:Int. y) 2`, Observe: "4", Rules: "beta delta beta delta"},
	// The function before its argument: (let f = \x:Int. x in f) (1 + 2)
	// -let-> (\x:Int. x) (1 + 2) -delta-> (\x:Int. x) 3 -beta-> 3
	{Name: "function-first", Program: `(let f = \x:Int. x in f) (1 + 2)`, Observe: "3", Rules: "let delta beta"},
	// (\x:Int. \y:Int. x + y) 1 -beta-> \y:Int. 1 + y, a value
	{Name: "function-answer", Program: `(\x:Int. \y:Int. x + y) 1`, Observe: "function", Rules: "beta"},
	// letrec f = \n. if0 n then 0 else f (n - 1) in f 1 -letrec-> F 1
	// -beta-> letrec f = ... in if0 1 then 0 else f (1 - 1) -letrec-> if0 1 then 0 else F (1 - 1)
	// -if0-> F (1 - 1) -delta-> F 0 -beta- -letrec-> if0 0 then 0 else F (0 - 1) -if0-> 0
	{Name: "letrec", Program: `letrec f:Int -> Int = \n:Int. if0 n then 0 else f (n - 1) in f 1`, Observe: "0",
		Rules: "letrec beta letrec if0 delta beta letrec if0"},
	// fact 3: letrec, then per call n = 3, 2, 1: beta letrec if0 -> n * F (n - 1), and
	// delta for n - 1 before the next call; fact 0: beta letrec if0 -> 1; then
	// 1 * 1, 2 * 1, 3 * 2: delta delta delta. 6.
	{Name: "factorial", Program: `letrec fact:Int -> Int = \n:Int. if0 n then 1 else n * fact (n - 1) in fact 3`, Observe: "6",
		Rules: "letrec beta letrec if0 delta beta letrec if0 delta beta letrec if0 delta beta letrec if0 delta delta delta"},
	// let twice = T in twice D 5 -let-> T D 5 -beta-> (\x:Int. D (D x)) 5 -beta-> D (D 5)
	// -beta-> D (5 * 2) -delta-> D 10 -beta-> 10 * 2 -delta-> 20
	{Name: "higher-order", Program: `let twice = \f:Int -> Int. \x:Int. f (f x) in twice (\y:Int. y * 2) 5`, Observe: "20",
		Rules: "let beta beta beta delta beta delta"},
	// (\x:Int. \x:Int. x) 1 2 -beta-> (\x:Int. x) 2 (the inner x is not substituted) -beta-> 2
	{Name: "nested-lambdas", Program: `(\x:Int. \x:Int. x) 1 2`, Observe: "2", Rules: "beta beta"},
	// let x = 1 in let x = x + 1 in x * 10 -let-> let x = 1 + 1 in x * 10 -delta->
	// let x = 2 in x * 10 -let-> 2 * 10 -delta-> 20
	{Name: "let-shadows-let", Program: `let x = 1 in let x = x + 1 in x * 10`, Observe: "20", Rules: "let delta let delta"},
	// Static scope: let a = 10 in let g = \x:Int. x + a in let a = 20 in g 1
	// -let-> let g = \x:Int. x + 10 in ... -let-> let a = 20 in G 1 -let-> G 1 -beta-> 1 + 10 -delta-> 11
	{Name: "static-scope", Program: `let a = 10 in let g = \x:Int. x + a in let a = 20 in g 1`, Observe: "11",
		Rules: "let let let beta delta"},
	// The erratum: the parameter named like its function. F = \f':Int. letrec f = \f:Int. f + 1 in f' + 1.
	// letrec ... in f 41 -letrec-> F 41 -beta-> letrec f = \f:Int. f + 1 in 41 + 1 -letrec-> 41 + 1
	// -delta-> 42 (without the renaming, the inner letrec would capture f' + 1: F + 1, stuck)
	{Name: "param-like-function", Program: `letrec f:Int -> Int = \f:Int. f + 1 in f 41`, Observe: "42",
		Rules: "letrec beta letrec delta"},
	// letrec f = \n. n * 2 in let f = f 3 in f + 1 -letrec-> let f = F 3 in f + 1 (the let
	// hides f) -beta-> let f = (letrec f = ... in 3 * 2) in f + 1 -letrec-> let f = 3 * 2 in
	// f + 1 -delta-> let f = 6 in f + 1 -let-> 6 + 1 -delta-> 7
	{Name: "let-like-letrec", Program: `letrec f:Int -> Int = \n:Int. n * 2 in let f = f 3 in f + 1`, Observe: "7",
		Rules: "letrec beta letrec delta let delta"},
	// letrec f = \n. n in letrec f = \n. n + 1 in f 1 -letrec-> letrec f = \n. n + 1 in f 1
	// (the inner letrec hides f) -letrec-> F2 1 -beta- -letrec-> 1 + 1 -delta-> 2
	{Name: "letrec-in-letrec", Program: `letrec f:Int -> Int = \n:Int. n in letrec f:Int -> Int = \n:Int. n + 1 in f 1`, Observe: "2",
		Rules: "letrec letrec beta letrec delta"},
	// A function of a letrec returned: letrec add = \x. \y. x + y in add 2 3
	// -letrec-> A 2 3 -beta-> (letrec add = ... in \y:Int. 2 + y) 3 -letrec-> (\y:Int. 2 + y) 3
	// -beta-> 2 + 3 -delta-> 5
	{Name: "letrec-curried", Program: `letrec add:Int -> Int -> Int = \x:Int. \y:Int. x + y in add 2 3`, Observe: "5",
		Rules: "letrec beta letrec beta delta"},
}

// Run checks a stage against every case.
func Run(t *testing.T, stage lambda.Stage) {
	t.Helper()
	for _, c := range Cases {
		e, err := lambda.Parse([]byte(c.Program))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if _, err := lambda.TypeOf(e); err != nil {
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
