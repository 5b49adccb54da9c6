package names

import (
	"strings"
	"testing"
)

// TestSame checks Same against ==, on names that share bytes, that are equal with
// bytes of their own, and that differ in length, in their last byte or elsewhere.
func TestSame(t *testing.T) {
	x := "a#123"
	copied := strings.Clone(x)
	cases := []struct{ a, b string }{
		{x, x},
		{x, copied},
		{x, "a#124"},
		{x, "b#123"},
		{x, "a#1234"},
		{"", ""},
		{"", "a"},
		{x[:3], x[:4]},
		{"fib", "fob"},
		{"fib", "fi"},
		{"x", ""},
	}
	for _, c := range cases {
		if got, want := Same(c.a, c.b), c.a == c.b; got != want {
			t.Errorf("Same(%q, %q) = %v, want %v", c.a, c.b, got, want)
		}
	}
}
