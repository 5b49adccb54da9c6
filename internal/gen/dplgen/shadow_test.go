package dplgen_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/gen/dplgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// Shadowing kinds a differentiable program can show. Variables and functions live
// apart, so a variable may be named like a function and the other way round.
const (
	paramLikeFunction = "a function's parameter named like it, called"
	paramLikeVar      = "a parameter named like an outer variable"
	funLikeFun        = "a function named like an outer function"
	funLikeVar        = "a function named like a variable in scope"
	varLikeFun        = "a let or rd variable named like a function in scope"
	letLikeVar        = "a let named like a variable in scope"
	nestedRd          = "an rd nested in an rd of the same variable"
)

// shadowing lists the kinds of shadowing t shows.
func shadowing(t dpl.Term) map[string]bool {
	found := map[string]bool{}
	type scope struct{ vars, funcs map[string]bool }
	with := func(m map[string]bool, x string) map[string]bool {
		out := make(map[string]bool, len(m)+1)
		for k := range m {
			out[k] = true
		}
		out[x] = true
		return out
	}
	var walk func(t dpl.Term, sc scope, rds map[string]bool)
	walk = func(t dpl.Term, sc scope, rds map[string]bool) {
		switch t := t.(type) {
		case *dpl.Let:
			if sc.vars[t.Name] {
				found[letLikeVar] = true
			}
			if sc.funcs[t.Name] {
				found[varLikeFun] = true
			}
			walk(t.Bound, sc, rds)
			walk(t.Body, scope{with(sc.vars, t.Name), sc.funcs}, rds)
			return
		case *dpl.Rd:
			if sc.funcs[t.Param] {
				found[varLikeFun] = true
			}
			if rds[t.Param] {
				found[nestedRd] = true
			}
			walk(t.Cotangent, sc, rds)
			walk(t.Point, sc, rds)
			walk(t.Body, scope{with(sc.vars, t.Param), sc.funcs}, with(rds, t.Param))
			return
		case *dpl.Letrec:
			if sc.funcs[t.Name] {
				found[funLikeFun] = true
			}
			if sc.vars[t.Name] {
				found[funLikeVar] = true
			}
			if sc.vars[t.Param] {
				found[paramLikeVar] = true
			}
			funcs := with(sc.funcs, t.Name)
			walk(t.Fun, scope{map[string]bool{t.Param: true}, funcs}, map[string]bool{})
			walk(t.Body, scope{sc.vars, funcs}, rds)
			return
		}
		for _, k := range dpl.Children(t) {
			walk(k, sc, rds)
		}
	}
	walk(t, scope{map[string]bool{}, map[string]bool{}}, map[string]bool{})
	return found
}

// selfNamed reports whether t defines a function whose parameter is named like it.
func selfNamed(t dpl.Term) bool {
	if l, ok := t.(*dpl.Letrec); ok && l.Param == l.Name {
		return true
	}
	for _, k := range dpl.Children(t) {
		if selfNamed(k) {
			return true
		}
	}
	return false
}

// TestShadowingReached: the program generator reaches every kind of shadowing, and a
// function whose parameter is named like it is called (the reduction semantics
// contracts a call) without the run getting stuck.
func TestShadowingReached(t *testing.T) {
	kinds := []string{paramLikeFunction, paramLikeVar, funLikeFun, funLikeVar, varLikeFun, letLikeVar, nestedRd}
	seen := map[string]int{}
	body := func(rt *rapid.T) {
		for range 5 {
			p := dplgen.Program(rt, dplgen.Full(5))
			for k := range shadowing(p) {
				seen[k]++
			}
			if !selfNamed(p) {
				continue
			}
			calls := 0
			_, err := reduction.EvalDiff(dpl.Tape, p, interderive.Options{Fuel: 20_000, OnContract: func(r string) {
				if r == dpl.RuleCall || r == dpl.SymCall {
					calls++
				}
			}})
			if err != nil && !errors.Is(err, interderive.ErrResourceLimit) {
				rt.Fatalf("%s: %v", dpl.Format(p), err)
			}
			if calls > 0 {
				seen[paramLikeFunction]++
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
