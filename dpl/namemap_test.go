package dpl

import (
	"testing"

	"pgregory.net/rapid"
)

// TestNameMapCollisions follows two fresh names with one number (a#5, s#5), a source
// name and a number past the slice's bound through set, get and remove.
func TestNameMapCollisions(t *testing.T) {
	var m NameMap[int]
	m.Set("a#5", 1)
	m.Set("s#5", 2) // same number: to the map
	m.Set("x", 3)
	m.Set("y#99999999", 4) // past maxSlot: to the map
	for name, want := range map[string]int{"a#5": 1, "s#5": 2, "x": 3, "y#99999999": 4} {
		if got, ok := m.Get(name); !ok || got != want {
			t.Errorf("get(%s) = %d, %v; want %d", name, got, ok, want)
		}
	}
	if _, ok := m.Get("b#5"); ok {
		t.Errorf("get(b#5) found a value: b#5 was never set")
	}
	m.Remove("a#5")
	if _, ok := m.Get("a#5"); ok {
		t.Errorf("a#5 still there after remove")
	}
	if got, ok := m.Get("s#5"); !ok || got != 2 {
		t.Errorf("removing a#5 lost s#5: %d, %v", got, ok)
	}
	m.Set("a#5", 6) // the slot is free again
	if got, _ := m.Get("a#5"); got != 6 {
		t.Errorf("get(a#5) = %d after setting it again, want 6", got)
	}
}

// TestNameMapAgreesWithMap runs random operations on a NameMap and a Go map side by
// side (names that collide on purpose).
func TestNameMapAgreesWithMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Enough names that are not fresh for the short list to turn into a map.
		names := []string{"x", "y", "a#1", "s#1", "a#2", "x#", "#3", "b#30", "p", "q", "r", "u", "v", "w", "z", "f"}
		var m NameMap[int]
		ref := map[string]int{}
		for i := range rapid.IntRange(1, 400).Draw(t, "ops") {
			name := rapid.SampledFrom(names).Draw(t, "name")
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				m.Set(name, i)
				ref[name] = i
			case 1:
				m.Remove(name)
				delete(ref, name)
			}
			for _, n := range names {
				got, ok := m.Get(n)
				want, wok := ref[n]
				if ok != wok || got != want {
					t.Fatalf("get(%s) = %d, %v; the map has %d, %v", n, got, ok, want, wok)
				}
			}
		}
	})
}

// TestFreshNumber checks the numbers of fresh names: base#k has k, any other name
// none (-1), nor a number too large to be a run's.
func TestFreshNumber(t *testing.T) {
	for _, tc := range []struct {
		name string
		want int
	}{
		{"x#7", 7}, {"abar#120", 120}, {"s#1", 1}, {"#3", 3},
		{"x", -1}, {"x#", -1}, {"x7", -1}, {"x#7a", -1}, {"", -1},
		{"x#99999999999999999999", -1},
	} {
		if got := FreshNumber(tc.name); got != tc.want {
			t.Errorf("FreshNumber(%q) = %d, want %d", tc.name, got, tc.want)
		}
	}
}
