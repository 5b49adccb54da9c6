// Package castcases holds small cast-calculus programs with their answers and their
// whole contraction sequences, derived by hand from the rules of the layered semantics (docs/derivation.md), so
// that every stage's own tests check it against the specification directly (and not
// only against the reduction semantics).
package castcases

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// Case is a program, the semantics it runs under, its observation, and its
// contractions (unmerged), one rule name per contraction.
type Case struct {
	Name    string
	Sems    []string // the semantics; all four when empty
	Program string
	Observe string
	Rules   string // space-separated
}

// Cases lists the programs; the derivation of each is in its comment.
var Cases = []Case{
	// (\x:Int. inc x) 3 -beta-> inc 3 -delta-> 4
	{Name: "beta-delta", Program: `(\x:Int. inc x) 3`, Observe: "4", Rules: "beta delta"},
	// if 1 < 2 then 10 else 20 -delta-> if true ... -If-> 10
	{Name: "if", Program: `if 1 < 2 then 10 else 20`, Observe: "10", Rules: "delta If"},
	// let x:Int = 2 * 3 in x + 1 -delta-> let x = 6 ... -Let-> 6 + 1 -delta-> 7
	{Name: "let", Program: `let x:Int = 2 * 3 in x + 1`, Observe: "7", Rules: "delta Let delta"},
	// letrec f = \n. if zero? n then 0 else f (dec n) in f 1:
	// Letrec, beta, Letrec (the unfolding), delta (zero? 1), If, delta (dec 1), beta,
	// Letrec, delta (zero? 0), If
	{Name: "letrec", Program: `letrec f:Int -> Int = \n:Int. if zero? n then 0 else f (dec n) in f 1`, Observe: "0",
		Rules: "Letrec beta Letrec delta If delta beta Letrec delta If"},
	// <Int?^l2> <Int!> 4 -CmpCst-> <Int! ; Int?^l2> 4 -InOut-> <id> 4 -IdCst-> 4
	{Name: "project-inject", Program: `<Int?^l2> <Int!> 4`, Observe: "4", Rules: "CmpCst StepCst/InOut IdCst"},
	// <Bool?^l2> <Int!> 4 -CmpCst- -InOut-> <fail^l2> 4 -FailCst-> blame l2
	{Name: "project-wrong", Program: `<Bool?^l2> <Int!> 4`, Observe: "blame l2", Rules: "CmpCst StepCst/InOut FailCst"},
	// inc (<fail^l> 4) -FailCst-> inc (blame l) -Blame-> blame l
	{Name: "blame-in-context", Program: `inc (<fail^l> 4)`, Observe: "blame l", Rules: "FailCst Blame"},
	// <id ; Int!> 4 -IdL-> <Int!> 4, a value
	{Name: "idl", Program: `<id ; Int!> 4`, Observe: "dynamic", Rules: "StepCst/IdL"},
	// <Int! ; id> 4 -IdR-> <Int!> 4
	{Name: "idr", Program: `<Int! ; id> 4`, Observe: "dynamic", Rules: "StepCst/IdR"},
	// <fail^l ; Int!> 4 -FailCo-> <fail^l> 4 -FailCst-> blame l
	{Name: "failco", Program: `<fail^l ; Int!> 4`, Observe: "blame l", Rules: "StepCst/FailCo FailCst"},
	// <Int! ; fail^l> 4 -InFail-> <fail^l> 4 -FailCst-> blame l
	{Name: "infail", Program: `<Int! ; fail^l> 4`, Observe: "blame l", Rules: "StepCst/InFail FailCst"},
	// (<Int! -> Int?^l> \x:Dyn. x) 3 -AppCst-> <Int?^l> ((\x:Dyn. x) (<Int!> 3))
	// -beta-> <Int?^l> <Int!> 3 -CmpCst- -InOut- -IdCst-> 3
	{Name: "appcst", Program: `(<Int! -> Int?^l> \x:Dyn. x) 3`, Observe: "3", Rules: "AppCst beta CmpCst StepCst/InOut IdCst"},
	// <(Int! -> Int?^l) ; (id -> id)> \x:Dyn. x -Arr-> <(id ; Int!) -> (Int?^l ; id)> ...
	// -IdL (domain first)-> <Int! -> (Int?^l ; id)> -IdR-> <Int! -> Int?^l> ..., a value
	{Name: "arr", Program: `<(Int! -> Int?^l) ; (id -> id)> \x:Dyn. x`, Observe: "function", Rules: "StepCst/Arr StepCst/IdL StepCst/IdR"},
	// Lazy: <(id -> id) ; fail^l> s -ArrFail-> <fail^l> s -FailCst-> blame l.
	{Name: "arrfail", Sems: []string{"ld", "lud"}, Program: `<(id -> id) ; fail^l> \x:Int. x`, Observe: "blame l", Rules: "StepCst/ArrFail FailCst"},
	// Eager: (id -> id) ; fail^l is normal: FailFC.
	{Name: "failfc", Sems: []string{"ed", "eud"}, Program: `<(id -> id) ; fail^l> \x:Int. x`, Observe: "blame l", Rules: "FailFC"},
	// Eager: <fail^a -> id> s -FailL-> <fail^a> s -FailCst-> blame a; lazy: a value.
	{Name: "faill", Sems: []string{"ed", "eud"}, Program: `<fail^a -> id> \x:Int. x`, Observe: "blame a", Rules: "StepCst/FailL FailCst"},
	{Name: "faill-lazy", Sems: []string{"ld", "lud"}, Program: `<fail^a -> id> \x:Int. x`, Observe: "function", Rules: ""},
	// Eager: <Int?^a -> fail^b> s -FailR-> <fail^b> s -FailCst-> blame b.
	{Name: "failr", Sems: []string{"ed", "eud"}, Program: `<Int?^a -> fail^b> \x:Int. x`, Observe: "blame b", Rules: "StepCst/FailR FailCst"},
	// Spec §7, row 3 (the translations give the contractions; see
	// testdata/gradual/examples/who-is-blamed.cast): LD blames l2 after the call.
	{Name: "who-is-blamed-ld", Sems: []string{"ld"},
		Program: `(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`,
		Observe: "blame l2", Rules: "CmpCst StepCst/InOut AppCst CmpCst StepCst/InOut FailCst Blame"},
	// ED: mkArr fails the composed coercion at once: CmpCst, InOut to fail^l2, FailCst,
	// and the application around it is discarded.
	{Name: "who-is-blamed-ed", Sems: []string{"ed"},
		Program: `(<Dyn -> Int <= Dyn>^l2 <Dyn <= Bool -> Bool>^l1 (\x:Bool. x)) (<Dyn <= Int>^l3 1)`,
		Observe: "blame l2", Rules: "CmpCst StepCst/InOut FailCst Blame"},
}

// Run checks a stage against every case.
func Run(t *testing.T, eval func(g.Semantics, g.Expr, interderive.Options) (g.Answer, error)) {
	t.Helper()
	for _, c := range Cases {
		e, err := g.Parse([]byte(c.Program), g.CastCalculus)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		sems := c.Sems
		if len(sems) == 0 {
			sems = []string{"ld", "lud", "ed", "eud"}
		}
		for _, name := range sems {
			sem, _ := g.Lookup(name)
			var rules []string
			a, err := eval(sem, g.Translate(sem, e), interderive.Options{Merging: interderive.Unmerged, OnContract: func(r string) { rules = append(rules, r) }})
			if err != nil {
				t.Errorf("%s, %s: %v", c.Name, name, err)
				continue
			}
			if got := a.Observe(); got != c.Observe {
				t.Errorf("%s, %s: %s, want %s", c.Name, name, got, c.Observe)
			}
			if got := strings.Join(rules, " "); got != c.Rules {
				t.Errorf("%s, %s: contractions\n  %s\nwant\n  %s", c.Name, name, got, c.Rules)
			}
		}
	}
}
