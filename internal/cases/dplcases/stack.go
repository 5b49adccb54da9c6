package dplcases

import (
	"runtime"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
)

// FlatStack checks a stage whose program's recursion and nesting of layers grow its
// own stacks (the machine's, the CPS evaluator's continuations), not the Go stack: at
// every contraction of a deep program the Go stack is no deeper than at any of a small
// one.
func FlatStack(t *testing.T, traced dpl.Traced) {
	t.Helper()
	depth := func(src string) (int, Outcome) {
		most := 0
		var pcs [512]uintptr
		var r Outcome
		opts := interderive.Options{OnContract: func(string) { most = max(most, runtime.Callers(0, pcs[:])) }}
		r.Answer, r.Err = traced(dpl.Pruned, Program(t, src), opts, nil)
		return most, r
	}
	small, _ := depth("letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(2))")
	for _, tt := range []struct{ src, want string }{
		// 2000 + ... + 1.
		{"letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(2000)", "2.001e+06"},
		// Each pending call of g under rd is a nested layer (Figure 5): 300 of them.
		{"letrec g(n:real):real = if n <. 0.5 then 0 else 1 + g(n + -1) in 1.rd[1](x:real. x * g(300))", "300"},
		// rd nested 40 deep, each in the trivial context of the one around it.
		{strings.Repeat("1.rd[1](x:real. ", 40) + "x * x" + strings.Repeat(")", 40), "0"},
	} {
		d, r := depth(tt.src)
		if r.Err != nil || r.Answer.Observe() != tt.want || d > small {
			t.Errorf("%.60s...: %v (%v), Go stack %d deep at most, want %s with at most %d", tt.src, r.Answer, r.Err, d, tt.want, small)
		}
	}
}
