package abductivegen_test

import (
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/gen/abductivegen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// The properties of the calculus over these programs (progress and preservation,
// lockstep, direct mode, permutation invariance) are checked in
// internal/calculi/abductive (TestProperties, TestRandomLockstep).

func TestMain(m *testing.M) { testenv.Main(m) }

// fuel bounds every run: the generated programs terminate (the calculus has no
// recursion), but may take long.
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
	fired := map[string]int{}
	body := func(t *rapid.T) {
		e := abductivegen.Program(t, abductivegen.Config{})
		_, _ = reduction.Stage{}.Abductive().Eval(e, interderive.Options{Fuel: fuel, OnContract: func(r string) { fired[r]++ }})
	}
	rapid.Check(t, body)
	testenv.TopUp(body, func() bool { return testenv.Reached(fired, abductive.Rules()) }, 500)
	for _, r := range abductive.Rules() {
		if fired[r] == 0 {
			t.Errorf("no generated program fires %s", r)
		}
	}
}
