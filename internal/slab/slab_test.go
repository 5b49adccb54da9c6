package slab

import (
	"fmt"
	"strings"
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

// TestText checks by hand that Text hands out the bytes it was given, that later
// strings do not write over earlier ones (within a chunk and across chunks), and that
// a long string and an empty one are made as Go makes them.
func TestText(t *testing.T) {
	var tx Text
	var made []string
	var want []string
	buf := []byte("x#0000")
	for i := range 2 * TextSize / len(buf) {
		copy(buf[2:], fmt.Sprintf("%04d", i%10000))
		made = append(made, tx.String(buf))
		want = append(want, string(buf))
		buf[0]++ // the caller's buffer changes; the strings must not
		buf[0] = 'x'
	}
	for i := range made {
		if made[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, made[i], want[i])
		}
	}
	long := strings.Repeat("a", TextSize)
	if got := tx.String([]byte(long)); got != long {
		t.Errorf("a string of %d bytes came back as %d bytes", len(long), len(got))
	}
	if got := tx.String(nil); got != "" {
		t.Errorf("String(nil) = %q, want \"\"", got)
	}
}
