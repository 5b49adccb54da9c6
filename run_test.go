package interderive

import (
	"errors"
	"testing"
	"time"
)

// TestCounter checks the counter's fast and slow paths against the budget, the
// observer and the clock: a budget of n allows exactly n contractions.
func TestCounter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		want    int   // contractions allowed
		wantErr error // error of the contraction after them
	}{
		{"budget", Options{Fuel: 1000}, 1000, ErrOutOfFuel},
		{"budget below the clock's period", Options{Fuel: 3, Timeout: time.Hour}, 3, ErrOutOfFuel},
		{"budget across the clock's period", Options{Fuel: 600, Timeout: time.Hour}, 600, ErrOutOfFuel},
		{"observer", Options{Fuel: 5, OnContract: func(string) {}}, 5, ErrOutOfFuel},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCounter(tc.opts)
			for i := range tc.want {
				if err := c.Contract("r"); err != nil {
					t.Fatalf("contraction %d: %v", i+1, err)
				}
			}
			if err := c.Contract("r"); !errors.Is(err, tc.wantErr) {
				t.Fatalf("contraction %d: got %v, want %v", tc.want+1, err, tc.wantErr)
			}
			if c.Steps() != tc.want {
				t.Errorf("Steps() = %d, want %d", c.Steps(), tc.want)
			}
		})
	}
}

// TestCounterObserver checks that the observer sees every contraction, in order.
func TestCounterObserver(t *testing.T) {
	var seen []string
	c := NewCounter(Options{OnContract: func(r string) { seen = append(seen, r) }})
	for _, r := range []string{"beta", "delta", "If"} {
		if err := c.Contract(r); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"beta", "delta", "If"}; len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
		t.Errorf("observer saw %v, want %v", seen, want)
	}
}

// TestCounterTimeout checks that an expired deadline stops the run within one period
// of the clock (timeCheckEvery contractions).
func TestCounterTimeout(t *testing.T) {
	c := NewCounter(Options{Timeout: time.Nanosecond})
	time.Sleep(time.Millisecond)
	var err error
	for i := 0; i <= timeCheckEvery && err == nil; i++ {
		err = c.Contract("r")
	}
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("after %d contractions past the deadline: %v, want a timeout", c.Steps(), err)
	}
}
