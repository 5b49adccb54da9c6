package lambdagen_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/gen/lambdagen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// Shadowing kinds a program can show: a binder (let, lambda, letrec function or letrec
// parameter) whose name is in scope, by what bound it; and the parameter named like its
// own function, with the unfolded function called (the erratum to the letrec rule).
const (
	paramLikeFunction = "a letrec parameter named like its function, called"
	paramLikeVar      = "a parameter named like an outer variable"
	paramLikeLetrec   = "a parameter named like an outer letrec function"
	letLikeVar        = "a let named like an outer variable"
	letLikeLetrec     = "a let named like a letrec function"
	letrecLikeVar     = "a letrec function named like a variable"
	letrecLikeLetrec  = "a letrec nested in a letrec of the same name"
	nestedLambdas     = "a lambda nested in a lambda of the same parameter"
)

// shadowing lists the kinds of shadowing e shows (not counting the erratum's case,
// which takes a run).
func shadowing(e lambda.Expr) map[string]bool {
	found := map[string]bool{}
	type binding struct{ letrec, lambda bool }
	with := func(sc map[string]binding, x string, b binding) map[string]binding {
		out := make(map[string]binding, len(sc)+1)
		for k, v := range sc {
			out[k] = v
		}
		out[x] = b
		return out
	}
	var walk func(e lambda.Expr, sc map[string]binding)
	walk = func(e lambda.Expr, sc map[string]binding) {
		switch e := e.(type) {
		case *lambda.Lam:
			if b, ok := sc[e.Param]; ok {
				switch {
				case b.letrec:
					found[paramLikeLetrec] = true
				case b.lambda:
					found[nestedLambdas] = true
					found[paramLikeVar] = true
				default:
					found[paramLikeVar] = true
				}
			}
			walk(e.Body, with(sc, e.Param, binding{lambda: true}))
		case *lambda.Let:
			if b, ok := sc[e.Name]; ok {
				if b.letrec {
					found[letLikeLetrec] = true
				} else {
					found[letLikeVar] = true
				}
			}
			walk(e.Bound, sc)
			walk(e.Body, with(sc, e.Name, binding{}))
		case *lambda.Letrec:
			if b, ok := sc[e.Name]; ok {
				if b.letrec {
					found[letrecLikeLetrec] = true
				} else {
					found[letrecLikeVar] = true
				}
			}
			inner := with(sc, e.Name, binding{letrec: true})
			walk(e.Fun, inner)
			walk(e.Body, inner)
		default:
			for _, k := range lambda.Children(e) {
				walk(k, sc)
			}
		}
	}
	walk(e, map[string]binding{})
	return found
}

// selfNamed reports whether e has a letrec whose parameter is named like it.
func selfNamed(e lambda.Expr) bool {
	if l, ok := e.(*lambda.Letrec); ok && l.Fun.Param == l.Name {
		return true
	}
	for _, k := range lambda.Children(e) {
		if selfNamed(k) {
			return true
		}
	}
	return false
}

// run runs e on the reduction semantics with a little fuel: its contractions by rule.
func run(t *rapid.T, e lambda.Expr) map[string]int {
	fired := map[string]int{}
	_, err := reduction.Stage{}.Lambda().Eval(e, interderive.Options{Fuel: 3000, OnContract: func(r string) { fired[r]++ }})
	if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Fatalf("%s: %v", lambda.Format(e), err)
	}
	return fired
}

// TestWellTyped: every program the generator draws is closed and well typed.
func TestWellTyped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := lambdagen.Program(t, lambdagen.Config{})
		if _, err := lambda.TypeOf(e); err != nil {
			t.Fatalf("%v\n%s", err, lambda.Format(e))
		}
	})
}

// TestShadowingReached: the generator reaches every kind of shadowing, and the
// erratum's case (a call of a letrec function whose parameter is named like it) runs:
// the reduction semantics unfolds such a function and calls it (two letrec
// contractions at least, and a beta) without getting stuck.
func TestShadowingReached(t *testing.T) {
	kinds := []string{paramLikeFunction, paramLikeVar, paramLikeLetrec, letLikeVar, letLikeLetrec, letrecLikeVar, letrecLikeLetrec, nestedLambdas}
	seen := map[string]int{}
	body := func(t *rapid.T) {
		for range 5 {
			e := lambdagen.Program(t, lambdagen.Config{})
			for k := range shadowing(e) {
				seen[k]++
			}
			if selfNamed(e) {
				if fired := run(t, e); fired[lambda.RuleLetrec] >= 2 && fired[lambda.RuleBeta] > 0 {
					seen[paramLikeFunction]++
				}
			}
		}
	}
	rapid.Check(t, body)
	testenv.TopUp(body, func() bool { return testenv.Reached(seen, kinds) }, 500)
	t.Logf("shadowing made: %v", seen)
	for _, kind := range kinds {
		if seen[kind] == 0 {
			t.Errorf("the generator never made %s (made: %v)", kind, seen)
		}
	}
}

// TestRulesReached: the programs the generator draws fire every rule of the calculus.
func TestRulesReached(t *testing.T) {
	rules := lambda.Rules()
	fired := map[string]int{}
	body := func(t *rapid.T) {
		for r, n := range run(t, lambdagen.Program(t, lambdagen.Config{})) {
			fired[r] += n
		}
	}
	rapid.Check(t, body)
	testenv.TopUp(body, func() bool { return testenv.Reached(fired, rules) }, 500)
	t.Logf("contractions: %v", fired)
	for _, r := range rules {
		if fired[r] == 0 {
			t.Errorf("no generated program contracted by %s (fired: %v)", r, fired)
		}
	}
}

// TestSizeLinearInDepth: past NodeBudget every term is a leaf, so that a program of
// depth d has at most about NodeBudget(d) compound terms, each with at most three
// subterms (and a leaf lambda's body two more nodes), however deep d is.
func TestSizeLinearInDepth(t *testing.T) {
	depth := 50
	if testing.Short() {
		depth = 20
	}
	rapid.Check(t, func(t *rapid.T) {
		e := lambdagen.Program(t, lambdagen.Config{Depth: depth})
		if n, bound := size(e), 20*lambdagen.NodeBudget(depth); n > bound {
			t.Fatalf("a program of depth %d has %d nodes, more than %d", depth, n, bound)
		}
	})
}

// size is the number of nodes of e.
func size(e lambda.Expr) int {
	n := 0
	for stack := []lambda.Expr{e}; len(stack) > 0; {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		stack = append(stack, lambda.Children(e)...)
	}
	return n
}
