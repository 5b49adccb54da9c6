package gogen

import (
	"fmt"
	"path/filepath"
	"slices"
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
			enc, names, err := Encode(term, nil)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			back, err := Decode(l, enc, names, nil)
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
	enc, _, err := Encode(term, nil)
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
		if back, err := Decode(l, enc, []string{"yes", "no", "x"}, nil); err == nil && back == nil {
			t.Fatal("no term and no error")
		}
	})
}

// TestOwnAtomsExchange: atoms of a calculus's own atom type (colors.sem's: equal up
// to case, each printed as written) cross as their tag (tagOwn0, the file's first
// and only own atom type), their text, and their handle and class; they decode back
// as the values they are. By hand: the generator registers the file's literals red,
// blue, purple (handles 0, 1, 2, in the order the rules purple and mix meet them:
// the left-hand side's red and blue, then the right-hand side's purple), so a run's
// first atom is handle 3; in (pick RED (pick Blue RED)), RED is handle 3 of class 0
// (red's), Blue handle 4 of class 1 (blue's), the second RED handle 5 of class 0.
func TestOwnAtomsExchange(t *testing.T) {
	l, err := sem.LoadWith(rulescases.ColorSource(t), rulescases.ColorHooks(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(l, "colors.sem"); err == nil {
		t.Error("derive --go wrote a file with an atom type of its calculus's own")
	}
	_, literals, err := GenerateHosted(l, "colors.sem")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, v := range literals.vals {
		texts = append(texts, v.text)
	}
	if strings.Join(texts, " ") != "red blue purple" {
		t.Errorf("the literals registered: %v, want red blue purple", texts)
	}
	prog := rulescases.Read(t, l, "(pick RED (pick Blue RED))")
	atoms := literals.Clone()
	enc, names, err := Encode(prog, atoms)
	if err != nil {
		t.Fatal(err)
	}
	type atom struct {
		tag, handle, class int64
		text               string
	}
	var got []atom
	for i := 0; i < len(enc); i += 4 {
		if enc[i] <= tagOwn0 {
			got = append(got, atom{enc[i], ownHandle(enc[i+2]), enc[i+2] & (1<<32 - 1), names[enc[i+3]]})
		}
	}
	want := []atom{{tagOwn0, 3, 0, "RED"}, {tagOwn0, 4, 1, "Blue"}, {tagOwn0, 5, 0, "RED"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("the atoms encoded: %v, want %v", got, want)
	}
	back, err := Decode(l, enc, names, atoms)
	if err != nil || sem.Format(back) != "(pick RED (pick Blue RED))" || samePositions(back, prog) != "" {
		t.Errorf("decoded back: %v, %v", back, err)
	}
	if len(literals.vals) != 3 {
		t.Errorf("a run's atoms went into the file's literals: %d", len(literals.vals))
	}
	// Without the registry, an own atom is no term of the generated package's.
	if _, _, err := Encode(prog, nil); err == nil || !strings.Contains(err.Error(), "atom of type color") {
		t.Errorf("an own atom encoded without a registry: %v", err)
	}
}

// TestAtomsKeyed: a type with a Key (AtomType.Key) finds a value's class by its key,
// calling Equal never; a type without compares the value with one of each class. The
// two give the same classes: "wK" and "WK" (K from 0 to 4,999) are equal up to case,
// so each pair has one class, the handle of its first value, and the 5,000 classes
// are distinct. A run's registry (Clone) adds to its own keys, not to those it was
// cloned from.
func TestAtomsKeyed(t *testing.T) {
	equals := 0
	word := func(keyed bool) *sem.AtomType {
		w := &sem.AtomType{Name: "word", Samples: []any{"w"},
			Read:   func(s string, quoted bool) (any, bool) { return s, !quoted },
			Format: func(v any) string { return v.(string) },
			Equal:  func(a, b any) bool { equals++; return strings.EqualFold(a.(string), b.(string)) },
		}
		if keyed {
			w.Key = func(v any) any { return strings.ToLower(v.(string)) }
		}
		return w
	}
	classes := func(keyed bool, n int) []int64 {
		a := atomsOf([]*sem.AtomType{word(keyed)})
		var got []int64
		for k := range n {
			for _, v := range []string{fmt.Sprintf("w%d", k), fmt.Sprintf("W%d", k)} {
				h, c, err := a.add(0, v)
				if err != nil || h != int64(len(got)) {
					t.Fatalf("add %s: handle %d, %v; want %d", v, h, err, len(got))
				}
				got = append(got, c)
			}
		}
		return got
	}
	keyed := classes(true, 5000)
	if equals != 0 {
		t.Errorf("a keyed type called Equal %d times", equals)
	}
	for k := range 5000 {
		if keyed[2*k] != int64(2*k) || keyed[2*k+1] != int64(2*k) {
			t.Fatalf("w%d and W%d: classes %d and %d, want %d and %d", k, k, keyed[2*k], keyed[2*k+1], 2*k, 2*k)
		}
	}
	if compared := classes(false, 300); !slices.Equal(compared, keyed[:600]) || equals == 0 {
		t.Errorf("without a key: classes %v (%d calls of Equal), want the keyed type's", compared[:6], equals)
	}
	lit := atomsOf([]*sem.AtomType{word(true)})
	if _, _, err := lit.literal(lit.types[0], "w0"); err != nil {
		t.Fatal(err)
	}
	run := lit.Clone()
	if _, c, err := run.add(0, "W0"); err != nil || c != 0 {
		t.Errorf("W0 in a run: class %d, %v; want the literal's, 0", c, err)
	}
	if _, c, err := run.add(0, "w1"); err != nil || c != 2 || len(lit.keys[0]) != 1 {
		t.Errorf("w1 in a run: class %d, %v; the literals' keys %d, want 2 and 1", c, err, len(lit.keys[0]))
	}
}
