package redex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// forms reads src and prints its forms back, one a line.
func forms(t *testing.T, src string) string {
	t.Helper()
	m, err := Read([]byte(src))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	out := make([]string, len(m.Forms))
	for i, d := range m.Forms {
		out[i] = d.String()
	}
	return strings.Join(out, "\n")
}

// TestRead: what the reader reads, printed back. The expected data are Racket's
// reading of each input (checked with racket -e '(write (read))', which prints the
// same data with its numbers normalized, 1e3 as 1000.0, and quote forms spelled out);
// this reader keeps numbers as written.
func TestRead(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"(e (e e) x (λ (x τ) e))", "(e (e e) x (λ (x τ) e))"},
		{"[--> (in-hole E (+ n_1 n_2)) (in-hole E ,(+ (term n_1) (term n_2))) \"+\"]", "[--> (in-hole E (+ n_1 n_2)) (in-hole E ,(+ (term n_1) (term n_2))) \"+\"]"},
		{"{a b}", "{a b}"},
		{"'x `(a ,b ,@c) #'f", "'x\n`(a ,b ,@c)\n#'f"},
		{"''x", "''x"},
		{"(1 -2 1/2 3.5 1e3 .5 1. +inf.0 - + ... 1+ -> -->)", "(1 -2 1/2 3.5 1e3 .5 1. +inf.0 - + ... 1+ -> -->)"},
		{"(#t #f #true #false)", "(#t #f #t #f)"},
		{"(#:mode (typeof I I O))", "(#:mode (typeof I I O))"},
		{`("a\nb" "q\"uote" "\x41;" "\u03bb")`, `("a\nb" "q\"uote" "A;" "λ")`},
		{`(#\a #\space #\λ)`, `(#\a #\space #\λ)`},
		{"#(1 2)", "#(1 2)"},
		{"(|two words| a\\ b)", "(|two words| |a b|)"},
		{"(a ; comment\n b #| block #| nested |# |# c #;(skipped d) e)", "(a b c e)"},
		{"'#;x y", "'y"},
		{"#;'x y", "y"},
		{"(a . b) (a b . c) `((store . ,_) ,res)", "(a . b)\n(a b . c)\n`((store . ,_) ,res)"},
		{"((and true ... false e ...) . ==> . false)", "(==> (and true ... false e ...) false)"},
		{"#`(a #,b #,@c)", "#`(a #,b #,@c)"},
		{`(#rx"a*" #px"\\d")`, `(#rx"a*" #px"\\d")`},
		{"(#hash() #hasheq((a . 1)) #%top)", "(#hash() #hasheq((a . 1)) #%top)"},
	} {
		if got := forms(t, tc.src); got != tc.want {
			t.Errorf("%q: read %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestReadStructure: the kinds, texts and positions of what is read, and the quote
// forms as lists (quote x).
func TestReadStructure(t *testing.T) {
	m, err := Read([]byte("#lang racket\n(require redex)\n  'x #:mode 1/2 \"s\""))
	if err != nil {
		t.Fatal(err)
	}
	if m.Lang != "racket" || len(m.Forms) != 5 {
		t.Fatalf("lang %q, %d forms: %v", m.Lang, len(m.Forms), m.Forms)
	}
	req, q, kw, n, s := m.Forms[0], m.Forms[1], m.Forms[2], m.Forms[3], m.Forms[4]
	if req.P != (Pos{Line: 2, Col: 1}) || req.Kind != List || req.List[1].P != (Pos{Line: 2, Col: 10}) || req.List[1].Text != "redex" {
		t.Errorf("(require redex): %+v", req)
	}
	if q.P != (Pos{Line: 3, Col: 3}) || q.Kind != List || len(q.List) != 2 || q.List[0].Text != "quote" || q.List[1].Text != "x" || q.List[1].P != (Pos{Line: 3, Col: 4}) {
		t.Errorf("'x: %+v", q)
	}
	if kw.Kind != Keyword || kw.Text != "mode" || kw.P != (Pos{Line: 3, Col: 6}) {
		t.Errorf("#:mode: %+v", kw)
	}
	if n.Kind != Number || n.Text != "1/2" || s.Kind != String || s.Text != "s" {
		t.Errorf("1/2 \"s\": %+v %+v", n, s)
	}
}

// TestReadErrors: what the reader refuses, each error at the position a person looks
// at.
func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		at   Pos
		want string
	}{
		{"(a b", Pos{Line: 1, Col: 1}, `"(" is never closed`},
		{"(a]", Pos{Line: 1, Col: 3}, `']' closes "(" at 1:1: expected ')'`},
		{"#(a}", Pos{Line: 1, Col: 4}, `'}' closes "#(" at 1:1: expected ')'`},
		{"a)", Pos{Line: 1, Col: 2}, "no list is open"},
		{"(. b)", Pos{Line: 1, Col: 2}, "a dot before the first element"},
		{"(a . b c)", Pos{Line: 1, Col: 8}, "a second datum after the dot"},
		{"(a . )", Pos{Line: 1, Col: 6}, "after the dot of the list at 1:1: expected its tail"},
		{"(a . b . c . d)", Pos{Line: 1, Col: 12}, "takes none"},
		{"a . b", Pos{Line: 1, Col: 3}, "a dot outside a list"},
		{"\n  \"abc", Pos{Line: 2, Col: 3}, "string is never closed"},
		{`"\q"`, Pos{Line: 1, Col: 3}, `unknown escape \q`},
		{"#| a", Pos{Line: 1, Col: 1}, "#| is never closed"},
		{"(a ')", Pos{Line: 1, Col: 4}, "' is followed by ')'"},
		{"'", Pos{Line: 1, Col: 1}, "' is followed by the end of the file"},
		{"(#;)", Pos{Line: 1, Col: 2}, "#; is followed by ')'"},
		{"#&box", Pos{Line: 1, Col: 1}, "#&box: Racket reader syntax"},
		{`#\nope`, Pos{Line: 1, Col: 1}, "not a character's name"},
		{"|ab", Pos{Line: 1, Col: 1}, "| is never closed"},
		{"a \xff", Pos{Line: 1, Col: 3}, "not UTF-8"},
	} {
		_, err := Read([]byte(tc.src))
		var e *interderive.Error
		if !errors.As(err, &e) || e.Pos != tc.at || !strings.Contains(e.Msg, tc.want) {
			t.Errorf("%q: %v, want %q at %s", tc.src, err, tc.want, tc.at)
		}
	}
}

// TestReadDeep: lists nested past MaxNesting are an error, not an exhausted stack;
// within it they read, and print back, without recursion.
func TestReadDeep(t *testing.T) {
	deep := strings.Repeat("(", MaxNesting) + strings.Repeat(")", MaxNesting)
	if got := forms(t, deep); got != deep {
		t.Errorf("%d lists deep: printed back differently", MaxNesting)
	}
	_, err := Read([]byte("(" + deep + ")"))
	if err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("%d lists deep: %v, want too deep", MaxNesting+1, err)
	}
	// Quote forms nest as lists do: 'x is (quote x).
	if _, err := Read([]byte(strings.Repeat("'", 1<<20) + "x")); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("2^20 quotes: %v, want too deep", err)
	}
}

// redexExamples is where Debian's racket package puts the models of Redex's authors.
const redexExamples = "/usr/share/racket/pkgs/redex-examples/redex/examples"

// TestReadRedexExamples: every Racket file of redex-examples reads, and prints back
// to data that read the same. Skipped where racket is not installed.
func TestReadRedexExamples(t *testing.T) {
	if _, err := os.Stat(redexExamples); err != nil {
		t.Skipf("redex-examples not installed (Debian package racket): %v", err)
	}
	n := 0
	err := filepath.WalkDir(redexExamples, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(path) != ".rkt" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m, err := Read(src)
		if err != nil {
			t.Errorf("%s:%v", path, err)
			return nil
		}
		roundTrip(t, path, m)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Errorf("read %d files of %s, want the 30 and more it holds", n, redexExamples)
	}
	t.Logf("read %d files", n)
}

// roundTrip checks that m's forms, printed, read back to the same print.
func roundTrip(t *testing.T, what string, m *Module) {
	t.Helper()
	var b strings.Builder
	for _, d := range m.Forms {
		b.WriteString(d.String() + "\n")
	}
	again, err := Read([]byte(b.String()))
	if err != nil {
		t.Errorf("%s printed back does not read: %v", what, err)
		return
	}
	if len(again.Forms) != len(m.Forms) {
		t.Errorf("%s printed back reads %d forms, not %d", what, len(again.Forms), len(m.Forms))
		return
	}
	for i, d := range again.Forms {
		if d.String() != m.Forms[i].String() {
			t.Errorf("%s: form %d reads back as %s, not %s", what, i+1, d, m.Forms[i])
			return
		}
	}
}

// FuzzRead: no input crashes the reader, and what it reads prints back to data that
// read the same.
func FuzzRead(f *testing.F) {
	for _, s := range []string{"(e (e e) x)", "'x `(a ,b ,@c)", "#(1 #t #:k #\\a \"s\\n\")", "#| a |# ; b\n#;c d", "[a {b}]", "|a b| c\\ d 1/2 -1.5e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Read([]byte(src))
		if err != nil {
			var e *interderive.Error
			if !errors.As(err, &e) || !e.Pos.IsValid() {
				t.Fatalf("%q: an error without a position: %v", src, err)
			}
			return
		}
		roundTrip(t, "the input", m)
	})
}
