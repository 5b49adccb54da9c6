package redex

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// recognize reads and recognizes src, failing the test on an error.
func recognize(t testing.TB, src string) *Model {
	t.Helper()
	m, err := Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	model, err := Recognize(m)
	if err != nil {
		t.Fatal(err)
	}
	return model
}

// model is a small model written with every form the recognizer knows, as Redex's
// documentation writes them.
const model = `#lang racket
(require redex)
(define-language L
  (e ::= (e e) x (λ (x) e) number)
  (v w ::= (λ (x) e) number)
  ((E F) hole (E e) (v E))
  (x variable-not-otherwise-mentioned)
  #:binding-forms
  (λ (x) e #:refers-to x))
(define-extended-language L2 L
  (e ::= .... (+ e e)))
(define red
  (reduction-relation L #:domain e
    (--> (in-hole E ((λ (x) e) v)) (in-hole E (subst e x v)) "βv")
    (c--> (+ number_1 number_2) ,(+ (term number_1) (term number_2)) add
          (side-condition (number? (term number_1))))
    with
    [(--> (in-hole E a) (in-hole E b)) (c--> a b)]))
(define-metafunction L
  subst : e x v -> e
  [(subst x x v) v]
  [(subst x_2 x v) x_2 (where #t (different x x_2))])
(define-metafunction L
  [(different x x) #f]
  [(different x y) #t])
(define-judgment-form L
  #:mode (types I I O)
  #:contract (types Γ e τ)
  [(types Γ e_1 (→ τ_1 τ_2)) (types Γ e_2 τ_1)
   ----------------------------------- app
   (types Γ (e_1 e_2) τ_2)]
  [(where τ (lookup Γ x))
   ------
   (types Γ x τ)])
(module+ test
  (test-->> red (term ((λ (x) x) 1)) (term 1))
  (test--> red #:cycles-ok (term ((λ (x) x) 1)) (term 1))
  (test-equal (term (subst x x 1)) (term 1))
  (test-results))
(traces red (term 1))
`

// TestRecognize: the forms of a model, as Redex's documentation defines them, found
// with their parts.
func TestRecognize(t *testing.T) {
	m := recognize(t, model)
	if len(m.Languages) != 2 || len(m.Relations) != 1 || len(m.Metafunctions) != 2 || len(m.Judgments) != 1 || len(m.Tests) != 3 {
		t.Fatalf("%d languages, %d relations, %d metafunctions, %d judgments, %d tests; want 2, 1, 2, 1, 3",
			len(m.Languages), len(m.Relations), len(m.Metafunctions), len(m.Judgments), len(m.Tests))
	}
	L := m.Languages[0]
	if L.Name != "L" || len(L.NonTerminals) != 4 || strings.Join(L.NonTerminals[1].Names, " ") != "v w" ||
		strings.Join(L.NonTerminals[2].Names, " ") != "E F" || len(L.NonTerminals[2].Alts) != 3 || L.NonTerminals[0].Alts[2].String() != "(λ (x) e)" {
		t.Errorf("language L: %+v", L)
	}
	if len(L.BindingForms) != 1 || L.BindingForms[0].String() != "(λ (x) e #:refers-to x)" {
		t.Errorf("binding forms of L: %v", L.BindingForms)
	}
	if L2 := m.Languages[1]; L2.Extends != "L" || !L2.NonTerminals[0].Extend || len(L2.NonTerminals[0].Alts) != 1 {
		t.Errorf("language L2: %+v", L2)
	}
	rel := m.Relations[0]
	if rel.Name != "red" || rel.Lang != "L" || rel.Domain.String() != "e" || len(rel.Rules) != 2 || len(rel.Shortcuts) != 1 {
		t.Fatalf("relation: %+v", rel)
	}
	if r := rel.Rules[0]; r.Name != "βv" || r.Arrow != "-->" || r.RHS.String() != "(in-hole E (subst e x v))" || r.P != (Pos{Line: 14, Col: 5}) {
		t.Errorf("rule βv: %+v", r)
	}
	if r := rel.Rules[1]; r.Name != "add" || r.Arrow != "c-->" || len(r.Conds) != 1 || r.Conds[0].Kind != "side-condition" {
		t.Errorf("rule add: %+v", r)
	}
	if sc := rel.Shortcuts[0]; sc.Arrow != "c-->" || sc.A.Text != "a" || sc.Outer.LHS.String() != "(in-hole E a)" {
		t.Errorf("shortcut: %+v", sc)
	}
	subst := m.Metafunctions[0]
	if subst.Name != "subst" || subst.Contract.String() != "(e x v -> e)" || len(subst.Clauses) != 2 || len(subst.Clauses[1].Conds) != 1 || subst.Clauses[1].Conds[0].Kind != "where" {
		t.Errorf("subst: %+v", subst)
	}
	if d := m.Metafunctions[1]; d.Name != "different" || d.Contract != nil || len(d.Clauses) != 2 {
		t.Errorf("different: %+v", d)
	}
	j := m.Judgments[0]
	if j.Name != "types" || strings.Join(j.Mode, " ") != "I I O" || len(j.Rules) != 2 || j.Rules[0].Name != "app" ||
		len(j.Rules[0].Premises) != 2 || j.Rules[0].Premises[0].Kind != "judgment" || j.Rules[1].Premises[0].Kind != "where" ||
		j.Rules[1].Conclusion.String() != "(types Γ x τ)" {
		t.Errorf("judgment: %+v", j)
	}
	if tt := m.Tests[0]; tt.Kind != "-->>" || tt.Relation.Text != "red" || tt.Term.String() != "(term ((λ (x) x) 1))" || len(tt.Expected) != 1 {
		t.Errorf("test-->>: %+v", tt)
	}
	if tt := m.Tests[1]; tt.Kind != "-->" || !tt.Cycles {
		t.Errorf("test-->: %+v", tt)
	}
	if tt := m.Tests[2]; tt.Kind != "equal" || tt.Expected[0].String() != "(term 1)" {
		t.Errorf("test-equal: %+v", tt)
	}
	var other []string
	for _, d := range m.Other {
		other = append(other, head(d))
	}
	if got := strings.Join(other, " "); got != "require test-results traces" {
		t.Errorf("other forms: %s, want require test-results traces", got)
	}
}

// TestRecognizeErrors: Redex forms not written as Redex documents them, each error at
// the part at fault, naming the form.
func TestRecognizeErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		at   Pos
		want string
	}{
		{"(define-language)", Pos{Line: 1, Col: 1}, "ends before its name"},
		{"(define-language L (e))", Pos{Line: 1, Col: 20}, "has no alternative"},
		{"(define-language L 5)", Pos{Line: 1, Col: 20}, "expected a production"},
		{"(reduction-relation L (--> a))", Pos{Line: 1, Col: 23}, "expected a reduction rule"},
		{"(reduction-relation L (--> a b (sidecondition #t)))", Pos{Line: 1, Col: 32}, "not a side clause of Redex"},
		{"(reduction-relation L (--> a b (where x)))", Pos{Line: 1, Col: 32}, "(where ...) takes 2 arguments, not 1"},
		{"(reduction-relation L #:direction x (--> a b))", Pos{Line: 1, Col: 23}, "#:direction: not a keyword"},
		{"(define-metafunction L [(f x) 1] [(g x) 2])", Pos{Line: 1, Col: 35}, "clause of g in the metafunction f"},
		{"(define-judgment-form L #:mode (J I X) [(J a b)])", Pos{Line: 1, Col: 37}, "a mode position is I or O"},
		{"(define-judgment-form L #:mode (J I O) [(J a b) --- x y z])", Pos{Line: 1, Col: 49}, "after the line, expected [NAME] CONCLUSION, not 3 data"},
		{"(define-language L (e x) #:bindings (λ x e))", Pos{Line: 1, Col: 26}, "#:bindings: not a keyword of define-language"},
		{"(test-equal (term 1))", Pos{Line: 1, Col: 1}, "takes 2 expressions, not 1"},
		{"(test-->> red #:pred f (term 1) 1)", Pos{Line: 1, Col: 15}, "#:pred: a keyword of test-->> that the importer does not know"},
	} {
		m, err := Read([]byte(tc.src))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		_, err = Recognize(m)
		var l interderive.ErrorList
		if !errors.As(err, &l) || l[0].Pos != tc.at || !strings.Contains(l[0].Msg, tc.want) {
			t.Errorf("%q: %v, want %q at %s", tc.src, err, tc.want, tc.at)
		}
	}
}

// TestRecognizeRedexExamples: the models issue 26 names, as redex-examples holds
// them, are recognized without an error, with as many forms of each kind as the
// files hold (counted with grep: `grep -c '(define-language\|(define-extended-language'`
// and so on). Skipped where racket is not installed.
func TestRecognizeRedexExamples(t *testing.T) {
	if _, err := os.Stat(redexExamples); err != nil {
		t.Skipf("redex-examples not installed (Debian package racket): %v", err)
	}
	for _, tc := range []struct {
		file                                    string
		langs, rels, mfs, jfs, tests, testsStar int
	}{
		{"arithmetic.rkt", 1, 1, 0, 0, 0, 0},
		{"church.rkt", 1, 1, 1, 0, 0, 0},
		{"omega.rkt", 1, 1, 0, 0, 0, 0},
		{"stlc.rkt", 2, 1, 4, 1, 39, 10},
		{"poly-stlc.rkt", 1, 1, 5, 2, 28, 18},
		{"letrec.rkt", 2, 1, 0, 0, 25, 0},
		{"lazy.rkt", 1, 0, 11, 1, 41, 0},
		{"cbn-letrec.rkt", 1, 0, 2, 0, 11, 0},
	} {
		src, err := os.ReadFile(filepath.Join(redexExamples, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		mod, err := Read(src)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		m, err := Recognize(mod)
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		star := 0
		for _, x := range m.Tests {
			if x.Kind == "-->>" {
				star++
			}
		}
		if len(m.Languages) != tc.langs || len(m.Relations) != tc.rels || len(m.Metafunctions) != tc.mfs ||
			len(m.Judgments) != tc.jfs || len(m.Tests) != tc.tests || star != tc.testsStar {
			t.Errorf("%s: %d languages, %d relations, %d metafunctions, %d judgments, %d tests (%d test-->>); want %d, %d, %d, %d, %d (%d)",
				tc.file, len(m.Languages), len(m.Relations), len(m.Metafunctions), len(m.Judgments), len(m.Tests), star,
				tc.langs, tc.rels, tc.mfs, tc.jfs, tc.tests, tc.testsStar)
		}
	}
}

// FuzzRecognize: no input crashes the recognizer, and its errors are positioned.
func FuzzRecognize(f *testing.F) {
	f.Add(model)
	for _, s := range []string{"(define-language L (e ::= x))", "(reduction-relation L (--> a b \"n\" (where x y)) with [(--> a b) (c--> a b)])", "(define-judgment-form L #:mode (J I O) [--- (J a b)])", "(test-->> r 1 2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Read([]byte(src))
		if err != nil {
			return
		}
		if _, err := Recognize(m); err != nil {
			var l interderive.ErrorList
			if !errors.As(err, &l) || !l[0].Pos.IsValid() {
				t.Fatalf("%q: an error without a position: %v", src, err)
			}
		}
	})
}

// TestRecognizeLibraryMacro: a test macro of a module the model requires
// (define-syntax-rule, as redex-examples' stlc-tests-lib.rkt) is expanded where the
// model calls it, inside a parameterize too: its tests are the model's, their
// arguments substituted, positioned in the library and marked with its name and the
// call's position. A module the library does not have, and a macro whose pattern has
// an ellipsis, are left as they are.
func TestRecognizeLibraryMacro(t *testing.T) {
	lib := `#lang racket/base
(require redex/reduction-semantics)
(provide two-tests)
(define-syntax-rule (two-tests rel)
  (begin
    (test-->> rel (term 1) (term 1))
    (test-->> rel (term 2) (term 2))))
(define-syntax-rule (many a ...) (begin a ...))
`
	src := `#lang racket
(require redex)
(module+ test
  (require redex/examples/tests-lib)
  (parameterize ([default-language L])
    (two-tests red))
  (many (test-->> red (term 3) (term 3))))
`
	m, err := Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	libMod, err := Read([]byte(lib))
	if err != nil {
		t.Fatal(err)
	}
	model, err := RecognizeWith(m, func(spec *Datum) (string, *Module, bool) {
		if spec.Kind == Symbol && spec.Text == "redex/examples/tests-lib" {
			return "tests-lib.rkt", libMod, true
		}
		return "", nil, false
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(model.Tests) != 2 {
		t.Fatalf("%d tests, want the macro's 2 (many's ellipsis is not expanded)", len(model.Tests))
	}
	for i, ts := range model.Tests {
		if ts.From != "tests-lib.rkt" || ts.P.Line != int32(6+i) || ts.Call.Line != 6 || ts.Relation.Text != "red" {
			t.Errorf("test %d: from %q at line %d, called at line %d, relation %s; want tests-lib.rkt, %d, 6, red",
				i, ts.From, ts.P.Line, ts.Call.Line, ts.Relation, 6+i)
		}
	}
}
