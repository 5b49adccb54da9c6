package dpl

// slabSize is how many nodes a slab allocates at once.
const slabSize = 256

// slab hands out nodes of type T from chunks of slabSize, one allocation per chunk:
// the tape's R builds a handful of nodes per binding of a trace, hundreds of thousands
// for a long one, and allocating them one by one was most of its time. A chunk lives
// as long as any of its nodes (the derivative term holds them all anyway).
type slab[T any] struct{ free []T }

// new returns a pointer to a zero T.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.free = make([]T, slabSize)
	}
	n := &s.free[0]
	s.free = s.free[1:]
	return n
}
