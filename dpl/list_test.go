package dpl

import "testing"

// TestList: the chunks of a list are 8, 16, 32, ... long, in order, and hold the
// elements in the order they were added; an element does not move when the list grows.
func TestList(t *testing.T) {
	tests := []struct{ i, k, off int }{ // by hand: chunk k holds [8(2^k - 1), 8(2^(k+1) - 1))
		{0, 0, 0}, {7, 0, 7}, {8, 1, 0}, {23, 1, 15}, {24, 2, 0}, {55, 2, 31}, {56, 3, 0}, {1000, 6, 496},
	}
	for _, tt := range tests {
		if k, off := listChunk(tt.i); k != tt.k || off != tt.off {
			t.Errorf("listChunk(%d) = %d, %d; want %d, %d", tt.i, k, off, tt.k, tt.off)
		}
	}
	var l list[int]
	first := l.add(0)
	for i := 1; i < 1000; i++ {
		if e := l.add(i); *e != i {
			t.Fatalf("add(%d) = %d", i, *e)
		}
	}
	if l.len() != 1000 || first != l.at(0) || *first != 0 {
		t.Fatalf("len %d, first element moved or changed: %d", l.len(), *l.at(0))
	}
	for i := range 1000 {
		if *l.at(i) != i {
			t.Fatalf("at(%d) = %d", i, *l.at(i))
		}
	}
	if len(l.chunks) != 7 { // 8 + 16 + ... + 512 = 1016 >= 1000 > 504
		t.Errorf("%d chunks for 1000 elements, want 7", len(l.chunks))
	}
}

// TestListExtend: extend lengthens a list with zero elements, by whole chunks, and
// never shortens it.
func TestListExtend(t *testing.T) {
	var l list[int]
	l.extend(0)
	if l.len() != 0 || len(l.chunks) != 0 {
		t.Fatalf("extend(0): len %d, %d chunks", l.len(), len(l.chunks))
	}
	*l.add(5) = 5
	l.extend(30) // indices 0..29: chunks 0 (8), 1 (16), 2 (32)
	if l.len() != 30 || len(l.chunks) != 3 || *l.at(0) != 5 || *l.at(29) != 0 {
		t.Fatalf("extend(30): len %d, %d chunks, at(0) %d, at(29) %d", l.len(), len(l.chunks), *l.at(0), *l.at(29))
	}
	l.extend(3)
	if l.len() != 30 {
		t.Fatalf("extend(3) shortened the list to %d", l.len())
	}
	if e := l.next(); *e != 0 || l.len() != 31 || l.at(30) != e {
		t.Fatalf("next: %d, len %d", *e, l.len())
	}
}
