package gradualgen_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// Shadowing kinds a program can show: a binder (let, lambda, letrec function or letrec
// parameter) whose name is in scope, by what bound it; and the parameter named like its
// own function, with the unfolded function called (spec §4's erratum).
const (
	paramLikeFunction = "a letrec parameter named like its function, called"
	paramLikeVar      = "a parameter named like an outer variable"
	paramLikeLetrec   = "a parameter named like an outer letrec function"
	letLikeLetrec     = "a let named like a letrec function"
	letrecLikeVar     = "a letrec function named like a variable"
	letrecLikeLetrec  = "a letrec nested in a letrec of the same name"
	nestedLambdas     = "a lambda nested in a lambda of the same parameter"
)

// shadowing lists the kinds of shadowing e shows.
func shadowing(e g.Expr) map[string]bool {
	found := map[string]bool{}
	type binding struct{ letrec, lambda bool }
	var walk func(e g.Expr, sc map[string]binding)
	with := func(sc map[string]binding, x string, b binding) map[string]binding {
		out := make(map[string]binding, len(sc)+1)
		for k, v := range sc {
			out[k] = v
		}
		out[x] = b
		return out
	}
	walk = func(e g.Expr, sc map[string]binding) {
		switch e := e.(type) {
		case *g.Lam:
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
		case *g.Let:
			if b, ok := sc[e.Name]; ok && b.letrec {
				found[letLikeLetrec] = true
			}
			walk(e.Bound, sc)
			walk(e.Body, with(sc, e.Name, binding{}))
		case *g.Letrec:
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
		case *g.App:
			walk(e.Fun, sc)
			walk(e.Arg, sc)
		case *g.Unary:
			walk(e.X, sc)
		case *g.Binary:
			walk(e.X, sc)
			walk(e.Y, sc)
		case *g.If:
			walk(e.Cond, sc)
			walk(e.Then, sc)
			walk(e.Else, sc)
		case *g.Asc:
			walk(e.X, sc)
		case *g.Cast:
			walk(e.X, sc)
		case *g.Coerce:
			walk(e.X, sc)
		}
	}
	walk(e, map[string]binding{})
	return found
}

// selfNamed reports whether e has a letrec whose parameter is named like it.
func selfNamed(e g.Expr) bool {
	found := false
	var walk func(e g.Expr)
	walk = func(e g.Expr) {
		if l, ok := e.(*g.Letrec); ok && l.Fun.Param == l.Name {
			found = true
		}
		for _, k := range children(e) {
			walk(k)
		}
	}
	walk(e)
	return found
}

func children(e g.Expr) []g.Expr {
	switch e := e.(type) {
	case *g.Lam:
		return []g.Expr{e.Body}
	case *g.App:
		return []g.Expr{e.Fun, e.Arg}
	case *g.Unary:
		return []g.Expr{e.X}
	case *g.Binary:
		return []g.Expr{e.X, e.Y}
	case *g.If:
		return []g.Expr{e.Cond, e.Then, e.Else}
	case *g.Asc:
		return []g.Expr{e.X}
	case *g.Let:
		return []g.Expr{e.Bound, e.Body}
	case *g.Letrec:
		return []g.Expr{e.Fun, e.Body}
	case *g.Cast:
		return []g.Expr{e.X}
	case *g.Coerce:
		return []g.Expr{e.X}
	}
	return nil
}

// reached draws a program and counts the kinds of shadowing it shows.
func reached(rt *rapid.T, cast bool, seen map[string]int) {
	e := gradualgen.Program(rt, gradualgen.Config{Cast: cast})
	for k := range shadowing(e) {
		seen[k]++
	}
	if !selfNamed(e) {
		return
	}
	if !cast {
		var err error
		if e, _, err = g.InsertCasts(e); err != nil {
			rt.Fatalf("generated program rejected: %v", err)
		}
	}
	fired := map[string]int{}
	_, err := reduction.EvalCast(g.LD, g.Translate(g.LD, e), interderive.Options{Fuel: 3000, OnContract: func(r string) { fired[r]++ }})
	if err != nil && !errors.Is(err, interderive.ErrOutOfFuel) {
		rt.Fatalf("%s: %v", g.Format(e), err)
	}
	if fired["Letrec"] >= 2 && fired["beta"] > 0 {
		seen[paramLikeFunction]++
	}
}

// TestShadowingReached: the program generator reaches every kind of shadowing, in GTLC
// and in the cast calculus, and the erratum's case (a call of a letrec function whose
// parameter is named like it) runs: the reduction semantics unfolds such a function
// and calls it (two Letrec contractions at least, and a beta) without getting stuck.
func TestShadowingReached(t *testing.T) {
	for _, cast := range []bool{false, true} {
		t.Run(map[bool]string{false: "gtlc", true: "cast"}[cast], func(t *testing.T) { shadowingReached(t, cast) })
	}
}

func shadowingReached(t *testing.T, cast bool) {
	{
		seen := map[string]int{}
		// Five programs a case: the rarest kinds (a let or a letrec hiding a letrec
		// function) come a few times in a thousand programs.
		kinds := []string{paramLikeFunction, paramLikeVar, paramLikeLetrec, letLikeLetrec, letrecLikeVar, letrecLikeLetrec, nestedLambdas}
		body := func(rt *rapid.T) {
			for range 5 {
				reached(rt, cast, seen)
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
}
