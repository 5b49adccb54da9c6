package dpl

import (
	"fmt"
	"testing"
)

// TestOperatorWidth: an operator's count of real coordinates (n, which the fused
// evaluation checks an argument against) is width(Dom), for every base operator and
// its derivatives up to MaxOrder (by hand: mul 2, mul_r 2 + 1, mul_rr 3 + 2, sin 1,
// sin_r 2, dprod2 4, dprod2_r 5).
func TestOperatorWidth(t *testing.T) {
	want := map[string]int{"mul": 2, "mul_r": 3, "mul_rr": 5, "sin": 1, "sin_r": 2, "dprod2": 4, "dprod2_r": 5}
	names := []string{"mul", "neg", "sin", "cos", "exp", "log", "inv"}
	for k := 1; k <= 3; k++ {
		names = append(names, fmt.Sprintf("dprod%d", k))
	}
	for _, name := range names {
		op, ok := LookupOperator(name)
		if !ok {
			t.Fatalf("no operator %s", name)
		}
		for i := 0; ; i++ {
			if got := width(op.Dom); got != op.n {
				t.Errorf("%s: width(%s) = %d, n = %d", op.Name, FormatType(op.Dom), got, op.n)
			}
			if w, ok := want[op.Name]; ok && op.n != w {
				t.Errorf("%s: n = %d, want %d", op.Name, op.n, w)
			}
			if i == MaxOrder {
				break
			}
			op = op.R()
		}
	}
}
