package sem_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// stlcWith loads testdata/rules/stlc.sem with more declarations after it.
func stlcWith(t *testing.T, more string) (*sem.Language, error) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", "stlc.sem"))
	if err != nil {
		t.Fatal(err)
	}
	return sem.Load(append(src, more...))
}

// TestProperties: a rule file states standard properties by name and its own as
// premises over a program e, or over a step e → e_2; a property of its own holds of a
// term when its premises have a derivation (stlc.sem's typing, derived by hand: ((λ
// (x num) x) 1) has type num, (1 1) none, and its step to 1 keeps num).
func TestProperties(t *testing.T) {
	l, err := stlcWith(t, `
(property progress)
(property preservation)
(property typed (e) (typeof (empty) e τ))
(property keeps (e e_2) (typeof (empty) e τ) (typeof (empty) e_2 τ_2) (where (= τ τ_2)))
`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, q := range l.Properties {
		names = append(names, q.Name+"/"+q.Standard)
	}
	if got := strings.Join(names, " "); got != "progress/progress preservation/preservation typed/ keeps/" {
		t.Fatalf("properties %s", got)
	}
	// The file printed (Language.String) states the same properties.
	l2, err := sem.Load([]byte(l.String()))
	if err != nil {
		t.Fatalf("the file printed does not load: %v\n%s", err, l.String())
	}
	var again []string
	for _, q := range l2.Properties {
		again = append(again, q.String())
	}
	var first []string
	for _, q := range l.Properties {
		first = append(first, q.String())
	}
	if strings.Join(again, "") != strings.Join(first, "") || len(first) != 4 {
		t.Errorf("printed and read again:\n%s\nwas\n%s", strings.Join(again, ""), strings.Join(first, ""))
	}
	read := func(s string) *sem.Term {
		x, err := l.ReadTerm([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	typed, _ := l.Property("typed")
	for _, tc := range []struct {
		prog string
		want bool
	}{{"((λ (x num) x) 1)", true}, {"(1 1)", false}} {
		ok, why, err := l.Holds(typed, read(tc.prog), nil, interderive.Options{})
		if err != nil || ok != tc.want {
			t.Errorf("typed %s: %v %v, want %v", tc.prog, ok, err, tc.want)
		}
		if !ok && len(why) == 0 {
			t.Errorf("typed %s fails without saying why", tc.prog)
		}
	}
	keeps, _ := l.Property("keeps")
	if ok, _, err := l.Holds(keeps, read("((λ (x num) x) 1)"), read("1"), interderive.Options{}); !ok || err != nil {
		t.Errorf("keeps: %v %v", ok, err)
	}
	if ok, _, _ := l.Holds(keeps, read("((λ (x num) x) 1)"), read("(λ (y num) y)"), interderive.Options{}); ok {
		t.Error("keeps holds of a step from num to (num -> num)")
	}
}

// TestPropertyErrors: an unknown standard property, a standard one of typed programs
// in a file without typing, a property's term that is not the programs' and a
// property without premises are positioned errors.
func TestPropertyErrors(t *testing.T) {
	untyped := strings.Replace(mustRead(t, filepath.Join("..", "testdata", "rules", "stlc.sem")), "(typing (typeof (empty) e τ))", "", 1)
	for _, tc := range []struct{ src, want string }{
		{mustRead(t, filepath.Join("..", "testdata", "rules", "stlc.sem")) + "\n(property parametricity)", "unknown property parametricity: a property without premises is a standard one (determinism, preservation, progress, type-soundness)"},
		{untyped + "\n(property progress)", "property progress is of well-typed programs: the file names no typing judgment"},
		{untyped + "\n(property p (τ) (typeof (empty) e τ))", "τ: a property's terms are metavariables of the programs' sort e (e)"},
		{untyped + "\n(property p (e))", "property p states no premise"},
		{untyped + "\n(property progress (e) (typeof (empty) e τ))", "progress is a standard property: state it as (property progress)"},
		{untyped + "\n(property typeof (e) (typeof (empty) e τ))", "judgment typeof declared twice"},
	} {
		_, err := sem.Load([]byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want an error with %q", err, tc.want)
		}
	}
}

func mustRead(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCaptureErrors: a captured context is named after the rule's kind, reinstated by
// its right-hand side, and (in-hole C t) is only where a rule captured C.
func TestCaptureErrors(t *testing.T) {
	base := mustRead(t, filepath.Join("..", "testdata", "rules", "callcc.sem"))
	for _, tc := range []struct{ more, want string }{
		{"(rule bad E (context K_k (callcc v)) (in-hole K_k v))", "K_k: a captured context is named after the rule's kind, E (E_k, ...)"},
		{"(rule bad E (context E_k (callcc v)) v)", "rule bad captures the context E_k and never reinstates it"},
		{"(rule bad E (callcc v) (in-hole E_k v))", "(in-hole C t) is only in the right-hand side of a rule that captures the context C"},
		{"(rule bad E (context E_k (callcc v)) (in-hole E_j v))", "expected (in-hole E_k t), the context the rule captures and a term"},
	} {
		_, err := sem.Load([]byte(base + "\n" + tc.more))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.more, err, tc.want)
		}
	}
}
