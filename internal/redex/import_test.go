package redex

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// imported reads, recognizes and imports src (named file).
func imported(t testing.TB, file, src string) (*Imported, error) {
	t.Helper()
	return Import(recognize(t, src), file)
}

// TestImportModels imports Redex's own models (testdata/models, copied from
// redex-examples). The counts are the models' own: `grep -c '(test-->>'` gives 10
// for stlc.rkt and 18 for poly-stlc.rkt, each with one normal form and of the
// relation translated; stlc.rkt's relation has the rules +, if0t, if0f and βv. The
// refusals are positioned where the model writes the construct.
func TestImportModels(t *testing.T) {
	tests := []struct {
		file  string
		tests int      // programs of the corpus
		rules []string // rule declarations expected in the rule file
		err   string   // a refusal: its position and what it names
	}{
		{file: "stlc.rkt", tests: 10, rules: []string{"(rule + E ", "(rule if0t E ", "(rule if0f E ", "(rule βv E "}},
		{file: "poly-stlc.rkt", tests: 18, rules: []string{"(rule βv E ", "(rule hd E ", "(rule map-cons E ", "(rule hd-err E (context "}},
		{file: "stlc+lists.rkt", tests: 0, rules: []string{"(rule βv E ", "(rule tl-err E (context ", "(judgment typeof (Γ M σ) (I I O)"}},
		{file: "church.rkt", tests: 0, rules: []string{"(class v e (lambda x e) x)", "(kind e-ctxt nf-e-ctxt)\n(normal-forms e-ctxt)", "(frame e-ctxt (lambda x (hole)))", "(kind a-ctxt nf-a-ctxt)\n(normal-forms a-ctxt)"}},
		{file: "combinators.rkt", tests: 0, rules: []string{"(nondeterministic)", "(kind e-ctxt v-e-ctxt)", "(frame e-ctxt (app (hole) e))\n(frame e-ctxt (app e (hole)))"}},
		// / and sqrt: Racket's numbers, the number atom and its hooks; its context
		// restricts no operand, so its relation is non-deterministic.
		{file: "arithmetic.rkt", tests: 0, rules: []string{"(nondeterministic)", "(sort e (atom number number integer natural)",
			"(hook number-div (e e) e)", "(hook number-sqrt (e) e)",
			"(rule divide e-ctxt (e-node (/) number_1 number_2) (number-div number_1 number_2))",
			"(rule sqrt e-ctxt (sqrt number_1) (number-sqrt number_1))"}},
		// call/cc captures its context and reinstates it twice; (fresh x) names the
		// continuation's parameter; subst is subst.rkt's, which the model requires.
		{file: "omega.rkt", tests: 0, rules: []string{
			"(rule call-cc c (context c_k (app (call/cc) v)) (in-hole c_k (app v (lambda x (abort (in-hole c_k x))))) (where (fresh x c_k v)))",
			"(rule call-cc c (app (call/cc) v) (app v (lambda x (abort x))) (where (fresh x v)))",
			"(rule βv c (app (lambda x e) v) (subst e x v))"}},
		// Sequences read ((let ((x_!_ e) ...) e): a sort of let-items); numbers in
		// two sorts do not.
		{file: "letrec.rkt", err: "28:7: integers in e and in o"},
		// (e e ...), (λ (x ...) e), (v ... E e ...), subst.rkt's subst-n, Racket's
		// tests of numbers, booleans, blame as an answer: 21 test-->>.
		{file: "contracts.rkt", tests: 21, rules: []string{
			"(con app e ... (shape (e ...)))",
			"(con λ x ... e (bind 0 1) (shape (λ (x ...) e)))",
			"(frame E (app (v ... (hole) e ...)))",
			"(rule βv E (app ((λ (x ...) e) v ...)) (rkt-subst-n-e e (x ...) (v ...)) (where (prim eq (rkt-length-e (x ...)) (rkt-length-e (v ...)))))",
			"(answer E (blame e_ans1))"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "models", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			im, err := imported(t, tt.file, string(src))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("import: %v, want an error with %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Tests) != tt.tests {
				t.Errorf("%d tests as programs, want %d", len(im.Tests), tt.tests)
			}
			for _, r := range tt.rules {
				if !strings.Contains(im.Sem, r) {
					t.Errorf("the rule file has no %q:\n%s", r, im.Sem)
				}
			}
		})
	}
}

// lambda is a small model written as Redex's documentation writes one: the
// call-by-value λ-calculus with numbers, an environment sort, a value class, a
// shortcut (with), a non-linear pattern, a side condition and an abort.
const lambda = `#lang racket
(require redex)
(define-language L
  (e ::= (e e) x (λ (x) e) number (+ e e) (err))
  (v ::= (λ (x) e) number)
  (E ::= hole (E e) (v E) (+ E e) (+ v E))
  (Γ ::= · (x Γ))
  (x ::= variable-not-otherwise-mentioned))
(define red
  (reduction-relation L
    (--> (in-hole E ((λ (x) e) v)) (in-hole E (subst e x v)) "βv")
    (c--> (+ number_1 number_2) ,(+ (term number_1) (term number_2)) add
      (side-condition (not (= 0 (term number_2)))))
    (c--> (+ number 0) number zero)
    (--> (in-hole E (err)) "error" err)
    with
    [(--> (in-hole E a) (in-hole E b)) (c--> a b)]))
(define-metafunction L
  subst : e x v -> e
  [(subst x x v) v]
  [(subst any x v) any])
(define-metafunction L
  bound : Γ x -> number
  [(bound (x Γ) x) 1]
  [(bound (x_1 Γ) x_2) (bound Γ x_2)]
  [(bound · x) 0])
(test-->> red (term ((λ (x) (+ x 1)) 2)) 3)
(test-->> red (term (+ 1 (err))) "error")
(test--> red (term (+ 1 2)) (term 3))
`

// TestImportTranslation checks the rule file a small model translates to, each
// expected line written by hand from the model above and docs/rules.md.
func TestImportTranslation(t *testing.T) {
	im, err := imported(t, "lambda.rkt", lambda)
	if err != nil {
		t.Fatalf("%v\n%s", err, im.Sem)
	}
	for _, want := range []string{
		// (λ (x) e): x in a list that e follows binds in e.
		"(con λ x e (bind 0 1) (shape (λ (x) e)))",
		// (x Γ): x is not in a list of its own: a term of e, its sort.
		"(con Γ-node e Γ (shape (e Γ)))",
		// v is E's values; its alternatives are e's.
		"(kind E v)", "(value E (λ x e))", "(value E number)",
		// E's frames: app's left to right, then +'s.
		"(frame E (app (hole) e))\n(frame E (app v (hole)))\n(frame E (+ (hole) e))\n(frame E (+ v (hole)))",
		// subst is substitution: [(subst x x v) v].
		"(rule βv E (app (λ x e) v) (subst e x v))",
		// the shortcut c--> made rules of E; Racket's + a prim; not (= 0 n) a prim ne.
		"(rule add E (+ number_1 number_2) (prim add number_1 number_2) (where (prim ne 0 number_2)))",
		// a repeated number is equal to the first.
		"(rule zero E (+ number 0) number)",
		// an abort to the root, in a context and at the root; "error" an answer.
		"(rule err E (context (err)) \"error\")\n(rule err E (err) \"error\")", "(answer E \"error\")",
		// x twice in bound's first clause: equal.
		"((bound (Γ-node x Γ) x_r1) 1 (where (= x x_r1)))",
	} {
		if !strings.Contains(im.Sem, want) {
			t.Errorf("the rule file has no\n%s\n%s", want, im.Sem)
		}
	}
	// The first test's answer is 3; the second's "error"; test--> is left out.
	if len(im.Tests) != 2 || !strings.Contains(im.Tests[0].Text, "; expect: 3\n((λ (x) (+ x 1)) 2)") ||
		!strings.Contains(im.Tests[1].Text, "; expect: \"error\"") {
		t.Errorf("tests: %+v", im.Tests)
	}
	if len(im.Skipped) != 1 || !strings.Contains(im.Skipped[0].Why, "test-->: a test of one step") {
		t.Errorf("skipped: %+v", im.Skipped)
	}
}

// TestImportRefusals: what the rule language cannot say is an error positioned in
// the model that names the construct (the columns counted with Python's str.find
// on each model's third line).
func TestImportRefusals(t *testing.T) {
	base := "#lang racket\n(define-language L (e ::= (e e) x (λ (x) e) number) (v ::= (λ (x) e) number) (E ::= hole (E e) (v E)) (x ::= variable-not-otherwise-mentioned))\n"
	tests := []struct{ name, src, want string }{
		{"no relation", "#lang racket\n(define-language L (e ::= x) (x ::= variable))", "1:1: the model defines no reduction relation"},
		{"racket in a side condition", base + "(define r (reduction-relation L (--> (in-hole E (number_1 number_2)) number_1 (side-condition (prime? (term number_1))))))",
			"3:95: rule rule-3: side-condition (prime? (term number_1)): Racket code the translation does not read"},
		{"racket on a right-hand side", base + "(define r (reduction-relation L (--> (in-hole E (number_1 number_2)) (in-hole E ,(expt (term number_1) (term number_2))))))",
			"3:82: rule rule-3: (expt (term number_1) (term number_2)): Racket code is not translated (the translation reads +, -, *, quotient and remainder of (term n) and integers)"},
		{"root only", base + "(define r (reduction-relation L (--> (number v) v)))",
			"3:38: rule rule-3: a rule whose left-hand side is not (in-hole E redex) applies at the root only"},
		{"sequence in a pattern", base + "(define r (reduction-relation L (--> (in-hole E (number v ...)) v)))",
			"3:49: rule rule-3: (number v ...) is not a term of e: no constructor of e is written so, with a sequence there"},
		{"unbound", base + "(define r (reduction-relation L (--> (in-hole E (number v)) (in-hole E e_2))))",
			"3:72: rule rule-3: e_2 is not bound by the left-hand side or a where"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := imported(t, "m.rkt", tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("import: %v\nwant an error with %q", err, tt.want)
			}
		})
	}
}

// FuzzImport: no model read makes the importer panic.
func FuzzImport(f *testing.F) {
	f.Add(lambda)
	for _, file := range []string{"stlc.rkt", "poly-stlc.rkt", "church.rkt"} {
		if src, err := os.ReadFile(filepath.Join("testdata", "models", file)); err == nil {
			f.Add(string(src))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Read([]byte(src))
		if err != nil {
			return
		}
		model, err := Recognize(m)
		if err != nil {
			return
		}
		_, _ = Import(model, "fuzz.rkt")
	})
}

// TestTopFields: a pattern's text split into its constructor and arguments, nested
// lists whole.
func TestTopFields(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"x", []string{"x"}},
		{"(lambda x e)", []string{"lambda", "x", "e"}},
		{"(let x (hole a-ctxt) e)", []string{"let", "x", "(hole a-ctxt)", "e"}},
		{"(app (f (g y)) (hole))", []string{"app", "(f (g y))", "(hole)"}},
		{"(app v ... (hole) e ...)", []string{"app", "v", "...", "(hole)", "e", "..."}},
	} {
		if got := topFields(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("topFields(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
