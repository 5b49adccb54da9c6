package abductivegen_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/gen/abductivegen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fuel bounds every run of the properties: the generated programs terminate (the
// calculus has no recursion), but may take long.
const fuel = 20000

// TestGenerated: a generated program type-checks and prints as a program that reads
// back as itself.
func TestGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{})
		if _, err := abductive.TypeOf(e); err != nil {
			t.Fatalf("%s: %v", abductive.Format(e), err)
		}
		text := abductive.Format(e)
		back, err := abductive.Parse([]byte(text))
		if err != nil || !abductive.AlphaEqual(e, back) || abductive.Format(back) != text {
			t.Fatalf("%s reads back as %v (%v)", text, back, err)
		}
	})
}

// TestRulesReached: the generator reaches every rule of the calculus.
func TestRulesReached(t *testing.T) {
	fired := map[string]bool{}
	rapid.Check(t, func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{})
		_, _ = reduction.Stage{}.Abductive().Eval(e, interderive.Options{Fuel: fuel, OnContract: func(r string) { fired[r] = true }})
	})
	for _, r := range abductive.Rules() {
		if !fired[r] {
			t.Errorf("no generated program fires %s", r)
		}
	}
}

// TestProgressPreservation: a well-typed program never gets stuck, and every step of
// the reduction semantics gives a term of the program's type.
func TestProgressPreservation(t *testing.T) {
	step := reduction.Stage{}.Abductive().(abductive.Stepper)
	rapid.Check(t, func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{})
		ty, err := abductive.TypeOf(e)
		if err != nil {
			t.Fatal(err)
		}
		sigma := abductive.Sigma(e)
		for i := 0; i < fuel; i++ {
			next, rule, done, err := step.Step(e, sigma)
			if err != nil {
				t.Fatalf("%s: stuck: %v", abductive.Format(e), err)
			}
			if done {
				return
			}
			got, err := abductive.TypeOf(next)
			if err != nil || !abductive.TypesEqual(got, ty) {
				t.Fatalf("%s -%s-> %s: type %v (%v), want %s", abductive.Format(e), rule, abductive.Format(next), got, err, abductive.FormatType(ty))
			}
			e = next
		}
	})
}

// collected is a run: its contractions, its decouplings, its answer or error.
type collected struct {
	rules []string
	decs  []abductive.Decoupling
	a     abductive.Answer
	err   error
}

func (c *collected) Step(string)       {}
func (c *collected) About(int, string) {}
func (c *collected) Report(_ int, _ string, v any, _ string) {
	if d, ok := v.(abductive.Decoupling); ok {
		c.decs = append(c.decs, d)
	}
}

func runStage(s abductive.Stage, e abductive.Expr) *collected {
	c := &collected{}
	c.a, c.err = s.Eval(e, interderive.Options{Fuel: fuel, Observer: c, OnContract: func(r string) { c.rules = append(c.rules, r) }})
	return c
}

// TestStagesAgree: every stage performs the reduction semantics' contractions, in
// order, reports the same decouplings and reaches the same answer (up to α-renaming).
func TestStagesAgree(t *testing.T) {
	stages := map[string]abductive.Stage{
		"closures": closures.Stage{}.Abductive(), "machine": machine.Stage{}.Abductive(),
		"cps2": cps2.Stage{}.Abductive(), "interp": interp.Stage{}.Abductive(),
	}
	rapid.Check(t, func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{})
		ref := runStage(reduction.Stage{}.Abductive(), e)
		for name, s := range stages {
			got := runStage(s, e)
			if !slices.Equal(got.rules, ref.rules) {
				t.Fatalf("%s on %s:\n  %v\nwant\n  %v", name, abductive.Format(e), got.rules, ref.rules)
			}
			if !slices.EqualFunc(got.decs, ref.decs, abductive.Decoupling.Equal) {
				t.Fatalf("%s on %s: decouplings %v, want %v", name, abductive.Format(e), got.decs, ref.decs)
			}
			if (got.err == nil) != (ref.err == nil) || ref.err != nil && !errors.Is(got.err, interderive.ErrOutOfFuel) {
				t.Fatalf("%s on %s: %v, want %v", name, abductive.Format(e), got.err, ref.err)
			}
			if ref.err == nil && !abductive.AlphaEqual(got.a.Value, ref.a.Value) {
				t.Fatalf("%s on %s: %s, want %s", name, abductive.Format(e), got.a, ref.a)
			}
		}
	})
}

// observe is a program's observation on the reduction semantics, or its error.
func observe(e abductive.Expr) (string, error) {
	a, err := reduction.Stage{}.Abductive().Eval(e, interderive.Options{Fuel: 4 * fuel})
	if err != nil {
		return "", err
	}
	return a.Observe(), nil
}

// TestDirectMode: decoupling leaves direct mode unchanged: let f @ p = m in f p
// observes as m, for a model m of type F.
func TestDirectMode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		m := abductivegen.Model(t, abductivegen.Config{})
		f, p := abductive.FreshName("f", m), abductive.FreshName("p", m)
		wrapped := abductivegen.Relabel(&abductive.App{Sugar: true, Arg: m,
			Fun: &abductive.Abduct{F: f, Par: p, Body: &abductive.App{Fun: &abductive.Var{Name: f}, Arg: &abductive.Var{Name: p}}}})
		want, err1 := observe(m)
		got, err2 := observe(wrapped)
		if err1 != nil || err2 != nil {
			if !errors.Is(err1, interderive.ErrOutOfFuel) && !errors.Is(err2, interderive.ErrOutOfFuel) {
				t.Fatalf("%s: %v; decoupled: %v", abductive.Format(m), err1, err2)
			}
			return
		}
		if got != want {
			t.Fatalf("%s observes %s, decoupled %s", abductive.Format(m), want, got)
		}
	})
}

// permute gives the provisional constants of e the labels perm[label-1].
func permute(e abductive.Expr, perm []int) abductive.Expr {
	switch e := e.(type) {
	case *abductive.Param:
		return &abductive.Param{P: e.P, R: e.R, Label: perm[e.Label-1]}
	case *abductive.Lam:
		return &abductive.Lam{P: e.P, Param: e.Param, T: e.T, Body: permute(e.Body, perm)}
	case *abductive.Abduct:
		return &abductive.Abduct{P: e.P, F: e.F, Par: e.Par, Body: permute(e.Body, perm)}
	case *abductive.App:
		return &abductive.App{P: e.P, Fun: permute(e.Fun, perm), Arg: permute(e.Arg, perm), Sugar: e.Sugar}
	case *abductive.Binary:
		return &abductive.Binary{P: e.P, Op: e.Op, X: permute(e.X, perm), Y: permute(e.Y, perm)}
	case *abductive.Let:
		return &abductive.Let{P: e.P, Name: e.Name, Bound: permute(e.Bound, perm), Body: permute(e.Body, perm)}
	}
	return e
}

// TestPermutationInvariance: permuting the labels (the order of every decoupling's
// parameters) changes no observation, for programs whose arithmetic float64 computes
// exactly in any order.
func TestPermutationInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{Exact: true})
		n := len(abductive.Sigma(e))
		perm := rapid.Permutation(func() []int {
			p := make([]int, n)
			for i := range p {
				p[i] = i + 1
			}
			return p
		}()).Draw(t, "perm")
		permuted := permute(e, perm)
		want, err1 := observe(e)
		got, err2 := observe(permuted)
		if err1 != nil || err2 != nil {
			if !errors.Is(err1, interderive.ErrOutOfFuel) && !errors.Is(err2, interderive.ErrOutOfFuel) {
				t.Fatalf("%s: %v; permuted %v: %v", abductive.Format(e), err1, perm, err2)
			}
			return
		}
		if got != want {
			t.Fatalf("%s observes %s, with labels permuted by %v %s", abductive.Format(e), want, perm, got)
		}
	})
}
