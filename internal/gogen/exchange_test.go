package gogen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// samePositions reports whether a and b have the same shape and every node the same
// position, "" if so, else where they differ.
func samePositions(a, b *sem.Term) string {
	if a.P != b.P || len(a.Args) != len(b.Args) {
		return sem.Format(a) + " at " + a.P.String() + ", " + sem.Format(b) + " at " + b.P.String()
	}
	for i := range a.Args {
		if d := samePositions(a.Args[i], b.Args[i]); d != "" {
			return d
		}
	}
	return ""
}

// TestExchange: every program of testdata/rules whose file the generator writes,
// encoded as the compiled engine gives it to the generated package (Encode) and
// decoded back (Decode), is itself: the same term, printed alike, with every node's
// position (a run-time error is positioned by them). Booleans and strings cross too
// (bools.sem's programs).
func TestExchange(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, "testdata", "rules", "*.sem"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	atoms := false
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sem.Load(src)
		if err != nil {
			continue
		}
		if _, err := Generate(l, file); err != nil {
			continue // a file the generator refuses: the compiled engine refuses it too
		}
		terms, _ := filepath.Glob(strings.TrimSuffix(file, ".sem") + "/*.term")
		for _, f := range terms {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			term, err := l.ReadTerm(b)
			if err != nil {
				continue // the program's expectation is its syntax error
			}
			enc, names, err := Encode(term)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			back, err := Decode(l, enc, names)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if got, want := sem.Format(back), sem.Format(term); got != want {
				t.Errorf("%s: decoded %s, want %s", f, got, want)
			}
			if d := samePositions(term, back); d != "" {
				t.Errorf("%s: positions differ: %s", f, d)
			}
			atoms = atoms || strings.Contains(file, "bools")
			n++
		}
	}
	if n < 30 || !atoms {
		t.Fatalf("%d programs (atoms %v): the corpus should give more", n, atoms)
	}
	t.Logf("%d programs encoded and decoded", n)
}

// FuzzDecode: no table, however made, crashes Decode: it is a term of the language
// or an error.
//
//	go test -run XXX -fuzz FuzzDecode ./internal/gogen
func FuzzDecode(f *testing.F) {
	src, err := os.ReadFile(filepath.Join(root, "testdata", "rules", "bools.sem"))
	if err != nil {
		f.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		f.Fatal(err)
	}
	term, err := l.ReadTerm([]byte(`(if (lt 1 2) "yes" "no")`))
	if err != nil {
		f.Fatal(err)
	}
	enc, _, err := Encode(term)
	if err != nil {
		f.Fatal(err)
	}
	seed := make([]byte, 0, 8*len(enc))
	for _, x := range enc {
		seed = append(seed, byte(x), byte(x>>8), byte(x>>16), byte(x>>24), byte(x>>32), byte(x>>40), byte(x>>48), byte(x>>56))
	}
	f.Add(seed)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		enc := make([]int64, len(b)/8)
		for i := range enc {
			for j := 7; j >= 0; j-- {
				enc[i] = enc[i]<<8 | int64(b[8*i+j])
			}
		}
		if back, err := Decode(l, enc, []string{"yes", "no", "x"}); err == nil && back == nil {
			t.Fatal("no term and no error")
		}
	})
}
