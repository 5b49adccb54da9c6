package driver

import "testing"

func TestMatches(t *testing.T) {
	tests := []struct {
		expected, actual string
		want             bool
	}{
		{"4", "4", true},
		{"4", "5", false},
		{"blame *", "blame l1", true},
		{"blame *", "4", false},
		{"blame l1", "blame l2", false},
		{approxPrefix + "0.8414709848078965", "0.8414709848078964", true},
		{approxPrefix + "0.84147", "0.8414709848078965", false},
		{approxPrefix + "<1, <2.5, 1e-3>>", "<1.0000000000001, <2.5, 0.001>>", true},
		{approxPrefix + "<1, 2>", "<<1, 2>, 3>", false},
		{approxPrefix + "0", "1e-12", true},
		{approxPrefix + "0", "1e-3", false},
		{approxPrefix + "1", "undefined", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.expected, tt.actual); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.expected, tt.actual, got, tt.want)
		}
	}
}
