package dpl

import "testing"

// TestValueKinds classifies values by hand (spec §3: V ::= x | r | () | <V, W>), and
// a value of 2^60 leaves built by sharing, which a walk as a tree could not finish.
func TestValueKinds(t *testing.T) {
	one, x := &RealLit{R: 1}, &Var{Name: "x"}
	pair := func(a, b Term) *Pair { return &Pair{X: a, Y: b} }
	for _, tt := range []struct {
		t             Term
		value, closed bool
	}{
		{one, true, true},
		{x, true, false},
		{&UnitLit{}, true, true},
		{pair(one, &UnitLit{}), true, true},
		{pair(x, one), true, false},
		{pair(pair(one, one), pair(one, x)), true, false},
		{pair(&Plus{X: one, Y: one}, one), false, false},
		{pair(pair(one, one), pair(one, &Fst{X: x})), false, false},
		{pair(x, pair(one, &Plus{X: one, Y: one})), false, false},
		{&Plus{X: one, Y: one}, false, false},
	} {
		if got := IsValue(tt.t); got != tt.value {
			t.Errorf("IsValue(%s) = %v, want %v", Format(tt.t), got, tt.value)
		}
		if got := IsClosedValue(tt.t); got != tt.closed {
			t.Errorf("IsClosedValue(%s) = %v, want %v", Format(tt.t), got, tt.closed)
		}
	}
	shared, open := Term(pair(one, one)), Term(pair(x, one))
	for range 60 {
		shared, open = pair(shared, shared), pair(open, open)
	}
	if !IsClosedValue(shared) || !IsValue(open) || IsClosedValue(open) {
		t.Errorf("a shared value of 2^60 leaves is misclassified")
	}
	if got := substClosed(shared, "x", one); got != shared {
		t.Errorf("substitution into a closed value rebuilt it")
	}
}
