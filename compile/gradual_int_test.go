package compile

import (
	"testing"

	g "github.com/interderive/interderive/gradual"
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
