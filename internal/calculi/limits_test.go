package calculi_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
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

// TestSourceBytes: loading a program allocates at most workbench.SourceBytes of heap
// per byte of its source, for the densest programs of every language (a node or more
// for every byte or two): the bound workbench.MaxSource is derived from.
func TestSourceBytes(t *testing.T) {
	w := newBench(t)
	r := strings.Repeat
	n := 60_000 // within the nesting limit: 1 + 1 + ... nests as a tree
	if testing.Short() {
		// 15,000 repetitions keep a load's fixed cost small beside the per-byte cost
		// (the ratios are within a few percent of the full run's); the full run
		// covers 60,000.
		n = 15_000
	}
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
		{"lam", "1" + r("+1", n)},
		{"lam", r("(", n) + "1" + r(")", n)},
		{"lam", r("let x=1 in ", n) + "x"},
		{"lam", `(\x:Int.x)` + r(" x", n)},
	} {
		c, _, err := w.LanguageNamed(tt.lang)
		if err != nil {
			t.Fatal(err)
		}
		var loadErr error
		bytes := allocated(func() { _, loadErr = c.Load(tt.lang, []byte(tt.src)) })
		if loadErr != nil && strings.Contains(loadErr.Error(), "nests too deeply") {
			t.Fatalf("%s %.30q: %v", tt.lang, tt.src, loadErr)
		}
		if perByte := bytes / uint64(len(tt.src)); perByte > workbench.SourceBytes {
			t.Errorf("%s %.30q: loading it allocates %d bytes a byte of source, over SourceBytes (%d)", tt.lang, tt.src, perByte, workbench.SourceBytes)
		} else {
			t.Logf("%s %.30q: %d bytes a byte of source", tt.lang, tt.src, perByte)
		}
	}
}

// TestMaxSource: a program past the size limit is refused before parsing, with a
// positioned message, in every language; one at the limit is parsed (here: a comment,
// then 1, or the language's smallest program where 1 is not one: [1], a command that
// returns 1, for reverse handlers). The limit comes from the machine's memory, and admits the let-chains of
// 100,000 lets of TestLongLetChains (3 MB). With -short, the limit is checked
// (workbench.CheckSize, what every Load calls first) without loading.
func TestMaxSource(t *testing.T) {
	limit := workbench.MaxSource()
	if interderive.DefaultMemory() >= 2<<30 && limit < 4<<20 {
		t.Errorf("MaxSource() = %d with %d bytes of memory, below 4 MiB", limit, interderive.DefaultMemory())
	}
	w := newBench(t)
	smallest := map[string]string{"rh": "[1]"}
	for _, c := range w.Calculi() {
		pad := byte('-') // a line of dashes is a comment in every language but a family's
		if f, ok := c.(workbench.Family); ok {
			// A calculus made from a definition file: call by value's, where 1 is a
			// program and ; starts a comment.
			d, err := f.Define(filepath.Join("..", "..", "testdata", "rules", "cbv.sem"), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			c, pad = d, ';'
		}
		for _, l := range c.Languages() {
			program := "1"
			if p, ok := smallest[l.Ext]; ok {
				program = p
			}
			body := []byte("\n" + program)
			at := append(bytes.Repeat([]byte{pad}, limit-len(body)), body...)
			over := append(at, '\n') // its byte past the limit is on line 2, after the program
			load := func(src []byte) error {
				if testing.Short() {
					return workbench.CheckSize(src)
				}
				_, err := c.Load(l.Ext, src)
				return err
			}
			if err := load(at); err != nil {
				t.Errorf("%s: a program of exactly MaxSource() bytes: %v", l.Ext, err)
			}
			err := load(over)
			var le *workbench.LoadError
			var list interderive.ErrorList
			if !errors.As(err, &le) || !errors.As(err, &list) || len(list) != 1 || list[0].Pos != (interderive.Pos{Line: 2, Col: int32(len(program) + 1)}) {
				t.Errorf("%s: %v, want a positioned syntax error at 2:%d", l.Ext, err, len(program)+1)
			}
		}
	}
}
