package handlers

import (
	"math"
	"testing"
)

// TestDifferencesAllowForTruncation: fuzz's counterexample cos(sin(x) · (2x)⁶) at x = 2
// (a rev handle of f1 = sin, f3 = square and f2 = cos over squares of 2x), whose third
// derivative is large: central differences with h = 1e-6 are 0.14 off its derivative,
// more than 1e-5 relative. The check allows for the truncation it measures (D(2h) -
// D(h)) and takes the derivative derived by hand; it still refuses one 1% off.
func TestDifferencesAllowForTruncation(t *testing.T) {
	f := func(v []float64) (float64, error) {
		x := v[0]
		return math.Cos(math.Sin(x) * math.Pow(2*x, 6)), nil
	}
	// d/dx cos(u) = -sin(u) u', u = sin(x) (2x)⁶, u' = cos(x) (2x)⁶ + 12 sin(x) (2x)⁵.
	x := 2.0
	u := math.Sin(x) * math.Pow(2*x, 6)
	du := math.Cos(x)*math.Pow(2*x, 6) + 12*math.Sin(x)*math.Pow(2*x, 5)
	want := -math.Sin(u) * du
	fv, _ := f([]float64{x})
	for _, tt := range []struct {
		g    float64
		want bool
	}{{want, true}, {want * 1.01, false}} {
		ok, d, err := agreesWithDifferences(tt.g, f, []float64{x}, 0, 1, fv)
		if err != nil || ok != tt.want {
			t.Errorf("gradient %v against central difference %v: agrees %v, want %v (%v)", tt.g, d, ok, tt.want, err)
		}
	}
}
