package dpl

import "testing"

// TestList: the chunks of a list are 32, 64, 128, ... long, in order, and hold the
// elements in the order they were added; an element does not move when the list grows.
func TestList(t *testing.T) {
	tests := []struct{ i, k, off int }{ // by hand: chunk k holds [32(2^k - 1), 32(2^(k+1) - 1))
		{0, 0, 0}, {31, 0, 31}, {32, 1, 0}, {95, 1, 63}, {96, 2, 0}, {223, 2, 127}, {224, 3, 0}, {1000, 5, 8},
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
	if len(l.chunks) != 6 { // 32 + 64 + ... + 1024 = 2016 >= 1000 > 992
		t.Errorf("%d chunks for 1000 elements, want 6", len(l.chunks))
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
	l.extend(100) // indices 0..99: chunks 0 (32), 1 (64), 2 (128)
	if l.len() != 100 || len(l.chunks) != 3 || *l.at(0) != 5 || *l.at(99) != 0 {
		t.Fatalf("extend(100): len %d, %d chunks, at(0) %d, at(99) %d", l.len(), len(l.chunks), *l.at(0), *l.at(99))
	}
	l.extend(3)
	if l.len() != 100 {
		t.Fatalf("extend(3) shortened the list to %d", l.len())
	}
	if e := l.next(); *e != 0 || l.len() != 101 || l.at(100) != e {
		t.Fatalf("next: %d, len %d", *e, l.len())
	}
}
