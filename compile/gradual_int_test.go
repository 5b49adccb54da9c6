package compile

import (
	"errors"
	"github.com/interderive/interderive/internal/testenv"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/reduction"
)

// TestIntBody: which functions are compiled for integers — those whose body computes
// with integers only, calling itself not in tail position — and which are not.
func TestIntBody(t *testing.T) {
	for _, tt := range []struct {
		src string
		int bool
	}{
		{`letrec fib:Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib`, true},
		{`letrec fact:Int -> Int = \n:Int. if n = 0 then 1 else n * fact (n - 1) in fact`, true},
		{`letrec f:Int -> Int = \n:Int. if n = 0 then 0 else inc (f (dec n)) in f`, true},
		{`letrec fact:Int -> Int = \n:Int. if zero? n then 1 else n * fact (dec n) in fact`, true},
		// A call in tail position is the activation loop's.
		{`letrec loop:Int -> Int = \n:Int. if n = 0 then 0 else loop (n - 1) in loop`, false},
		// A let, a free variable, a boolean result, a Dyn parameter: general code only.
		{`letrec f:Int -> Int = \n:Int. let m:Int = n in m in f`, false},
		{`let a:Int = 1 in letrec f:Int -> Int = \n:Int. n + a in f`, false},
		{`letrec f:Int -> Bool = \n:Int. n < 1 in f`, false},
		{`letrec f:Dyn -> Int = \n:Dyn. 1 in f`, false},
	} {
		e, err := g.Parse([]byte(tt.src), g.CastCalculus)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		l, ok := e.(*g.Letrec)
		for !ok { // under the lets in front
			e = e.(*g.Let).Body
			l, ok = e.(*g.Letrec)
		}
		c := &compiler{sem: g.ED}
		fn := c.function(g.Unfold(l), &gradualScope{})
		if got := fn.ibody != nil; got != tt.int {
			t.Errorf("%s: compiled for integers %v, want %v", tt.src, got, tt.int)
		}
	}
}

// TestIntLockstep: functions compiled for integers run in lockstep with the reduction
// semantics, under every semantics (unmerged: the merging mode does not compile for
// integers), on programs that reach every construct of gradual_int.go; and a function
// compiled for integers, called on something else (a term no type checker lets
// through), gets stuck as its general code does.
func TestIntLockstep(t *testing.T) {
	programs := []string{
		`letrec fib:Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib 10`,
		`letrec fact:Int -> Int = \n:Int. if zero? n then 1 else n * fact (dec n) in fact 10`,
		`letrec sum:Int -> Int = \n:Int. if n = 0 then 0 else n + sum (n - 1) in sum 50`,
		`letrec f:Int -> Int = \n:Int. if n < 1 then 7 else inc (f (n - 2)) * 3 - f (n - 3) in f 9`,
		`letrec f:Int -> Int = \n:Int. if 3 < n then f (dec n) + f (n - 4) else if n = 2 then 2 else n - 1 in f 11`,
		`letrec f:Int -> Int = \n:Int. if zero? (n * n - 4) then 100 else 1 + f (n + 1) in f (0 - 5)`,
		`(\x:Int. x + 1) 41`,
		`letrec f:Int -> Int = \n:Int. if n < 0 then n else f (n - 1) + 1 in f 1000000`, // out of fuel
	}
	for i, src := range programs {
		e, err := g.Parse([]byte(src), g.CastCalculus)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for k, sem := range g.Standard() {
			if !testenv.InTurn(i, k, len(g.Standard())) {
				continue // under -short, each program under one semantics in turn (the full run: every one)
			}
			var ref, got []string
			opts := func(rules *[]string) interderive.Options {
				return interderive.Options{Fuel: 3_000, Merging: interderive.Unmerged, OnContract: func(r string) { *rules = append(*rules, r) }}
			}
			want, werr := reduction.Stage{}.Gradual().Eval(sem, g.Translate(sem, e), opts(&ref))
			a, err := EvalCast(sem, g.Translate(sem, e), opts(&got))
			if !slices.Equal(ref, got) || (err == nil) != (werr == nil) || err == nil && a.Observe() != want.Observe() {
				t.Errorf("%s under %s: %s, %v after %d contractions; the reduction semantics %s, %v after %d", src, sem.Name(), a.Observe(), err, len(got), want.Observe(), werr, len(ref))
			}
		}
	}
	e, err := g.Parse([]byte(`letrec f:Int -> Int = \n:Int. if n < 1 then 0 else f (n - 1) + 1 in f true`), g.CastCalculus)
	if err != nil {
		t.Fatal(err)
	}
	var s *interderive.StuckError
	if _, err := EvalCast(g.ED, e, interderive.Options{}); !errors.As(err, &s) || s.Reason != "< applied to ill-typed values" {
		t.Errorf("f true: %v, want stuck at <", err)
	}
}
