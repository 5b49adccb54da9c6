package targets

import "testing"

// TestFloorFib checks the floor interpreter against fib's first values (0, 1, 1, 2, 3,
// 5, 8, 13, 21, 34, 55) and fib 25 = 75025.
func TestFloorFib(t *testing.T) {
	for n, want := range []int64{0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55} {
		if got := FloorFib(n); got != want {
			t.Errorf("fib %d = %v, want %d", n, got, want)
		}
	}
	if got := FloorFib(25); got != 75025 {
		t.Errorf("fib 25 = %v, want 75025", got)
	}
}
