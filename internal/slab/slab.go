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
