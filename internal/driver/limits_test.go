package driver

import (
	"runtime"
	"strings"
	"testing"
)

// allocated is the heap that f allocates, in bytes (garbage included: at least as
// much as it holds at its peak).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestSourceBytes: loading a program allocates at most SourceBytes of heap per byte of
// its source, for the densest programs of every language (a node or more for every
// byte or two): the bound MaxSource is derived from.
func TestSourceBytes(t *testing.T) {
	r := strings.Repeat
	const n = 60_000 // within the nesting limit: 1 + 1 + ... nests as a tree
	for _, tt := range []struct{ lang, src string }{
		{"gtlc", "1" + r("+1", n)},
		{"gtlc", r("(", n) + "1" + r(")", n)},
		{"gtlc", r("let x=1 in ", n) + "x"},
		{"gtlc", `(\x.x)` + r(" x", n)},
		{"cast", r("<Int!> ", n/2) + "1"},
		{"dpl", "<" + r("1,", n) + "1>"},
		{"dpl", "1" + r("+1", n)},
		{"dpl", r("let x=1 in ", n) + "x"},
		{"dpl", "1.rd[1](x:real." + r("x*", n/2) + "x)"},
		{"dpl", r("- ", n) + "1"},
	} {
		l, err := LanguageNamed(tt.lang)
		if err != nil {
			t.Fatal(err)
		}
		var loadErr error
		bytes := allocated(func() { _, loadErr = l.Load([]byte(tt.src)) })
		if loadErr != nil && strings.Contains(loadErr.Error(), "nests too deeply") {
			t.Fatalf("%s %.30q: %v", tt.lang, tt.src, loadErr)
		}
		if perByte := bytes / uint64(len(tt.src)); perByte > SourceBytes {
			t.Errorf("%s %.30q: loading it allocates %d bytes a byte of source, over SourceBytes (%d)", tt.lang, tt.src, perByte, SourceBytes)
		} else {
			t.Logf("%s %.30q: %d bytes a byte of source", tt.lang, tt.src, perByte)
		}
	}
}
