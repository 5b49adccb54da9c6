package dpl

import "math/bits"

// list is an append-only sequence whose elements never move: it grows by chunks, each
// as long as all those before it (the first listFirst long: a small tape takes one),
// so that n elements lie in O(log n) chunks, each allocated once and never copied. The tape keeps its bindings
// and the fused evaluation's variables in lists: a tape fed let by let (TapeSink) does
// not know its length in advance, and a slice grown by append would copy a long tape
// over and over. The zero list is empty and ready to use.
type list[T any] struct {
	chunks [][]T
	n      int
}

// listFirst is the length of a list's first chunk (a power of 2).
const listFirst = 32

// listChunk is the chunk of the element at index i (i + listFirst has bits.Len
// log2(listFirst) + 1 + k in chunk k), and i's offset in it.
func listChunk(i int) (k, off int) {
	j := uint(i + listFirst)
	k = bits.Len(j) - bits.Len(listFirst)
	return k, int(j) - listFirst<<k
}

// len is the number of elements.
func (l *list[T]) len() int { return l.n }

// at is the element at index i, 0 <= i < len().
func (l *list[T]) at(i int) *T {
	k, off := listChunk(i)
	return &l.chunks[k][off]
}

// add appends v and returns the element it is.
func (l *list[T]) add(v T) *T {
	e := l.next()
	*e = v
	return e
}

// next appends a zero element and returns it (for the caller to fill in without a
// copy of a whole T).
func (l *list[T]) next() *T {
	k, off := listChunk(l.n)
	if k == len(l.chunks) {
		l.chunks = append(l.chunks, make([]T, listFirst<<k))
	}
	l.n++
	return &l.chunks[k][off]
}

// extend makes the list n long at least, with zero elements.
func (l *list[T]) extend(n int) {
	if n <= l.n {
		return
	}
	for k, _ := listChunk(n - 1); len(l.chunks) <= k; {
		l.chunks = append(l.chunks, make([]T, listFirst<<len(l.chunks)))
	}
	l.n = n
}
