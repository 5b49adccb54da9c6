package interp

import (
	"math"
	"testing"

	v "github.com/interderive/interderive/internal/values/castval"
)

// TestBoxInt: boxInt(n) is the value v.Int(n), from the table and past its ends
// alike (the ends by hand: 0 and 1023 in it, -1 and 1024 not).
func TestBoxInt(t *testing.T) {
	for _, n := range []int64{math.MinInt64, -1, 0, 1, 2, 255, 256, 1023, 1024, math.MaxInt64} {
		if got := boxInt(n); got != v.Value(v.Int(n)) {
			t.Errorf("boxInt(%d) = %v, want %v", n, got, v.Int(n))
		}
	}
	if boxInt(1023) != smallInts[1023] || len(smallInts) != 1024 {
		t.Errorf("the table holds %d integers, 1023 from it: %v", len(smallInts), boxInt(1023) == smallInts[1023])
	}
}
