// Package slab allocates nodes of one type in chunks: a Slab hands out pointers to
// zero values from an array it allocates a chunk at a time.
//
// The stages build traces and derivative terms of hundreds of thousands of nodes
// that a later pass walks in order (R walks the trace, the stage walks the
// derivative). Allocated one by one among the run's other garbage, the nodes of a
// term lie scattered, and the walk waits on a cache miss per node; from a slab, the
// nodes made one after the other lie one after the other. A chunk lives as long as
// any of its nodes, which costs nothing for the nodes of a term: the term holds them
// all anyway.
package slab

import "unsafe"

// Size is how many values a chunk holds.
const Size = 256

// Slab hands out values of type T from chunks of Size. The zero Slab is ready to use.
// A Slab is not safe for concurrent use.
type Slab[T any] struct{ free []T }

// New returns a pointer to a zero T.
func (s *Slab[T]) New() *T {
	if len(s.free) == 0 {
		s.free = make([]T, Size)
	}
	n := &s.free[0]
	s.free = s.free[1:]
	return n
}

// TextSize is how many bytes a chunk of Text holds.
const TextSize = 4096

// Text hands out strings whose bytes lie in shared chunks: a run's fresh names, made
// by the hundred thousand, take no allocation each. A chunk's bytes are written once,
// before the string over them is handed out, and never again. The zero Text is ready
// to use; it is not safe for concurrent use, and a copy must not be used alongside the
// original (the two would write over each other's bytes): share it by pointer.
type Text struct{ free []byte }

// String returns a string with the bytes of b.
func (t *Text) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > TextSize/8 {
		return string(b)
	}
	if len(b) > len(t.free) {
		t.free = make([]byte, TextSize)
	}
	n := copy(t.free, b)
	s := unsafe.String(&t.free[0], n)
	t.free = t.free[n:]
	return s
}
