package reduction_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/handlers"
	"github.com/interderive/interderive/internal/cases/handlerscases"
	"github.com/interderive/interderive/reduction"
)

// TestHandlersCases runs the hand-derived programs of package handlerscases on the
// reduction semantics, under every strategy.
func TestHandlersCases(t *testing.T) { handlerscases.Run(t, reduction.Stage{}.Handlers()) }

// TestHandlersCorpus runs testdata/handlers on the reduction semantics.
func TestHandlersCorpus(t *testing.T) { handlerscases.RunCorpus(t, reduction.Stage{}.Handlers()) }

// TestHandlersEveryRule: every rule of handlers.Rules fires in some hand-derived case
// on the reduction semantics.
func TestHandlersEveryRule(t *testing.T) {
	fired := map[string]bool{}
	for _, c := range handlerscases.Cases {
		p := handlerscases.Load(t, c.Program)
		opts := interderive.Options{OnContract: func(r string) { fired[r] = true }}
		if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, opts); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	for _, r := range handlers.Rules() {
		if !fired[r] {
			t.Errorf("rule %s never fires", r)
		}
	}
}

// TestHandlersBudgets: the fuel stops a run after that many contractions, as an
// *interderive.FuelError, and so does the timeout.
func TestHandlersBudgets(t *testing.T) {
	p := handlerscases.Load(t, handlerscases.TwoLayers)
	var n int
	_, err := reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 5, OnContract: func(string) { n++ }})
	var fe *interderive.FuelError
	if !errors.As(err, &fe) || fe.Steps != 5 || n != 5 {
		t.Errorf("fuel 5: %v after %d contractions, want a FuelError after 5", err, n)
	}
	// 53 contractions (handlerscases): fuel 53 is enough, 52 is not.
	if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 53}); err != nil { // fits
		t.Errorf("fuel 53: %v", err)
	}
	if _, err := (reduction.Stage{}).Handlers().Eval(dpl.Tape, p, interderive.Options{Fuel: 52}); !errors.Is(err, interderive.ErrOutOfFuel) {
		t.Errorf("fuel 52: %v, want out of fuel", err)
	}
	_, err = reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{Timeout: time.Nanosecond})
	if err != nil && !errors.Is(err, interderive.ErrResourceLimit) {
		t.Errorf("timeout: %v, want an answer or a resource limit", err)
	}
}

// TestHandlersStuck: a program the checker would refuse gets stuck, as an
// *interderive.StuckError, never a panic or an empty answer.
func TestHandlersStuck(t *testing.T) {
	for _, src := range []string{
		"op f : real -> real\nf(1)", // unhandled: refused by CheckHandled
		"[x + 1]",                   // a free variable
		"let y <= [1] in [fst(y)]",  // ill-typed
	} {
		p, err := handlers.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = reduction.Stage{}.Handlers().Eval(dpl.Tape, p, interderive.Options{})
		var se *interderive.StuckError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a StuckError", src, err)
		}
	}
}

// nestedSquares is k rev handles nested in one another, each with the return clause
// o -> [o * o], the innermost on [x_k], at 1.
func nestedSquares(k int) string {
	p := fmt.Sprintf("[x%d]", k)
	for i := k; i >= 1; i-- {
		arg := "1"
		if i > 1 {
			arg = fmt.Sprintf("x%d", i-1)
		}
		p = fmt.Sprintf("rev handle(%s) <x%d>. (%s) with { return o -> [o * o] }", arg, i, p)
	}
	return p
}

// TestHandlersNestedCost is the regression test of the cost of nested handlers
// (handlers/rh.go): programs that used to take a number of contractions and a
// configuration size doubly exponential in their nesting run within bounds, with
// their answers derived by hand.
//
// nestedSquares(k) is F_k(1), where the handle on x_{i-1} is, as a function of x_{i-1},
// F_1(x) = x² (rh/ret: the return clause at the input) and F_{j+1}(x) = F_j(x)² ·
// F_j'(x) (rh/pure: the return clause at the inner handle's value, times the inner
// handle's derivative): F_2 = 2x⁵, F_3 = 4x¹⁰ · 10x⁴ = 40x¹⁴, F_4 = 1600x²⁸ · 560x¹³ =
// 896000x⁴¹, F_5 = 896000²x⁸² · 896000 · 41x⁴⁰ = 896000³ · 41 x¹²² = 29492248576 · 10⁹
// x¹²². Before the fix, k = 4 took 31,183 contractions and k = 5 ran out of 3 GiB after
// 5,760; the bounds below are about twice what they take now (496 and 3,063
// contractions, configurations of at most 381 and 2,146 nodes: handlers.Size).
//
// heapNests is a program fuzz drew at size 4: three nested handles, more in their
// return clauses, and a heap. It ran out of memory (the calculus of closures passed 2
// GiB at 1,233 contractions; the reduction semantics reached 230 handled variables and
// 2.4 million nodes); it takes 791 contractions now, configurations of at most 1,230
// nodes. Its answer by hand: no handle's body depends on its handled variable (the
// values flow from constants and the heap), so every gradient is 0; the heap ends with
// h2 = 1 (put[h2](1)) and h1 = 0 (put[h1](y), y the middle handle's body's value: the
// innermost handle's gradient, 0).
func TestHandlersNestedCost(t *testing.T) {
	const heapNests = `heap h1 : real = 0
heap h2 : real = 0
rev handle(1) <y>. (rev handle(1) <z>. (let u:unit <= put[h2](1) in rev handle(3) <y>. get[h2]() with { return w -> [1] })
  with { return y -> (let x:real <= (rev handle(-1) <y>. get[h1]() with { return y -> [2] }) in let u:unit <= put[h1](y) in [x]) })
with { return y -> (let z:real <= (rev handle(0.5 + y) <y>. get[h1]() with { return z -> (let x:real <= [z] in [3]) }) in [mul(<z, 0.5>)]) }`
	for _, c := range []struct {
		name, src, want string
		steps, maxNodes int
	}{
		{"k = 1", nestedSquares(1), "1", 10, 20},
		{"k = 2", nestedSquares(2), "2", 50, 50},
		{"k = 3", nestedSquares(3), "40", 200, 200},
		{"k = 4", nestedSquares(4), "896000", 1000, 800},
		{"k = 5", nestedSquares(5), "2.9492248576e+19", 6500, 4500},
		{"heapNests", heapNests, "0 with h1 = 0, h2 = 1", 1600, 2400},
	} {
		p := handlerscases.Load(t, c.src)
		run := reduction.Stage{}.Handlers().(handlers.Stepper).Start(dpl.Tape, p)
		steps, most := 0, 0
		for {
			_, done, err := run.Step()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if done {
				break
			}
			steps++
			most = max(most, handlers.Size(run.Current()))
			if steps > c.steps || most > c.maxNodes {
				t.Fatalf("%s: past %d contractions or %d nodes (%d, %d)", c.name, c.steps, c.maxNodes, steps, most)
			}
		}
		if got := run.Answer().Observe(); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		t.Logf("%s: %d contractions, at most %d nodes", c.name, steps, most)
	}
}
