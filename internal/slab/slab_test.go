package slab

import (
	"testing"
	"unsafe"
)

// TestNew checks by hand what a slab hands out: zero values, distinct, the first Size
// of them consecutive in one chunk, the next one in a new chunk.
func TestNew(t *testing.T) {
	var s Slab[[2]int]
	first := s.New()
	if *first != [2]int{} {
		t.Fatalf("New() = %v, want a zero value", *first)
	}
	first[0] = 7
	prev := first
	for i := 1; i < Size; i++ {
		n := s.New()
		if *n != [2]int{} {
			t.Fatalf("value %d = %v, want zero", i, *n)
		}
		if uintptr(unsafe.Pointer(n))-uintptr(unsafe.Pointer(prev)) != unsafe.Sizeof(*n) {
			t.Fatalf("value %d is not next to value %d in the chunk", i, i-1)
		}
		prev = n
	}
	if next := s.New(); next == first || *next != [2]int{} {
		t.Errorf("value %d: %p = %v, want a zero value in a new chunk", Size, next, *next)
	}
	if first[0] != 7 {
		t.Errorf("the first value changed: %v", *first)
	}
}
