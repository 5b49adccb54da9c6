package gogen

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/cases/rulescases"
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
// (bools.sem's programs), and numbers, exact and inexact (numbers.sem's).
func TestExchange(t *testing.T) {
	n := 0
	atoms, numbers := false, false
	for _, sf := range rulescases.Files(t, "rules", "*.sem") {
		l, err := sem.Load(sf.Src)
		if err != nil {
			continue
		}
		if _, err := Generate(l, sf.Name); err != nil {
			continue // a file the generator refuses: the compiled engine refuses it too
		}
		dir := strings.TrimSuffix(sf.Name, ".sem")
		if m, _ := filepath.Glob(rulescases.Testdata(t, "rules", dir, "*.term")); len(m) == 0 {
			continue
		}
		for _, f := range rulescases.Files(t, "rules", dir, "*.term") {
			term, err := l.ReadTerm(f.Src)
			if err != nil {
				continue // the program's expectation is its syntax error
			}
			enc, names, err := Encode(term)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			back, err := Decode(l, enc, names)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			if got, want := sem.Format(back), sem.Format(term); got != want {
				t.Errorf("%s: decoded %s, want %s", f.Name, got, want)
			}
			if d := samePositions(term, back); d != "" {
				t.Errorf("%s: positions differ: %s", f.Name, d)
			}
			atoms = atoms || dir == "bools"
			numbers = numbers || dir == "numbers"
			n++
		}
	}
	if n < 30 || !atoms || !numbers {
		t.Fatalf("%d programs (atoms %v, numbers %v): the corpus should give more", n, atoms, numbers)
	}
	t.Logf("%d programs encoded and decoded", n)
}

// FuzzDecode: no table, however made, crashes Decode: it is a term of the language
// or an error.
//
//	go test -run XXX -fuzz FuzzDecode ./internal/gogen
func FuzzDecode(f *testing.F) {
	l := rulescases.Load(f, "bools.sem")
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
