package sem_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// derivedStages are the six stages derived from a rule file.
var derivedStages = []struct {
	name  string
	stage sem.Stage
}{
	{"reduction", reduction.Stage{}.Rules()},
	{"closures", closures.Stage{}.Rules()},
	{"machine", machine.Stage{}.Rules()},
	{"cps2", cps2.Stage{}.Rules()},
	{"interp", interp.Stage{}.Rules()},
	{"compile", compile.Stage{}.Rules()},
}

// onEveryStage runs prog on every derived stage and checks its answer and its
// contractions.
func onEveryStage(t *testing.T, l *sem.Language, prog, answer string, want []string) {
	t.Helper()
	e := read(t, l, prog)
	for _, s := range derivedStages {
		var events []string
		a, err := s.stage.Eval(l, e, interderive.Options{Fuel: 100, OnContract: func(r string) { events = append(events, r) }})
		if err != nil || sem.Format(a.Value) != answer || !slices.Equal(events, want) {
			t.Errorf("%s on %s: %v, %v after %v; want %s after %v", prog, s.name, a.Value, err, events, answer, want)
		}
	}
}

// TestHooks: the rule file with hooks runs on every derived stage with the answers and
// contractions derived by hand (rulescases.GCDCases).
func TestHooks(t *testing.T) {
	casesOnEveryStage(t, rulescases.GCDSource(t), rulescases.GCDHooks(t), rulescases.GCDCases)
}

// casesOnEveryStage reads the rule file src with the hooks h and runs each case on
// every derived stage (onEveryStage).
func casesOnEveryStage(t *testing.T, src []byte, h *sem.Hooks, cases []rulescases.GCDCase) {
	t.Helper()
	l, err := sem.LoadWith(src, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		onEveryStage(t, l, tc.Prog, tc.Answer, tc.Events)
	}
}

// TestOwnAtomType: a rule file with an atom type of its calculus's own (colors.sem:
// equal up to case, each printed as written) and a hook that builds its atoms runs
// on every derived stage with the answers and contractions derived by hand
// (rulescases.ColorCases).
func TestOwnAtomType(t *testing.T) {
	casesOnEveryStage(t, rulescases.ColorSource(t), rulescases.ColorHooks(t), rulescases.ColorCases)
}

// TestHookFailures: a hook's error, and a result of another sort than the file
// declares, stop the run with the function's error (*sem.FunctionError, the rule
// file's), positioned at the hook's declaration, on every stage
// (rulescases.GCDFailures).
func TestHookFailures(t *testing.T) {
	l, err := sem.LoadWith([]byte(string(rulescases.GCDSource(t))+rulescases.GCDBroken), rulescases.GCDHooks(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range rulescases.GCDFailures {
		for _, s := range derivedStages {
			_, err := s.stage.Eval(l, read(t, l, tc.Prog), interderive.Options{Fuel: 100})
			var fe *sem.FunctionError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.Want) {
				t.Errorf("%s on %s: %v, want a function error %q", tc.Prog, s.name, err, tc.Want)
			}
		}
	}
}

// TestHookErrors: a hook the file names and the hooks do not hold, a hook used with
// another arity, and a prim not registered are positioned errors; registering a name
// twice is refused.
func TestHookErrors(t *testing.T) {
	src := rulescases.GCDSource(t)
	_, err := sem.Load(src) // the default hooks: the δ-table, Racket's arithmetic on numbers
	if err == nil || !strings.Contains(err.Error(), "26:7: unknown hook euclid: the hooks registered: number-add, number-sub, number-mul, number-div, number-sqrt") {
		t.Errorf("without the hooks: %v", err)
	}
	h := rulescases.GCDHooks(t)
	for _, tc := range []struct{ edit, want string }{
		{"(hook euclid (n n) n)→(hook nosuch (n n) n)", "26:7: unknown hook nosuch: the hooks registered: number-add, number-sub, number-mul, number-div, number-sqrt, euclid, flip, broken"},
		{"(hook euclid (n n) n)→(hook euclid (n) n)", "26:14: hook euclid takes 2 arguments, not 1"},
		// (rule gcd E (gcd n_1 n_2) n_1 (where (prim : 43 columns, the name at the 44th.
		{"(prim divides n_1 n_2)→(prim splits n_1 n_2)", "30:44: unknown prim splits: one of add, sub, mul, neg, quot, rem, lt, le, gt, ge, eq, ne, divides"},
	} {
		from, to, _ := strings.Cut(tc.edit, "→")
		_, err := sem.LoadWith([]byte(strings.Replace(string(src), from, to, 1)), h)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.edit, err, tc.want)
		}
	}
	if err := h.Add(&sem.GoFunc{Name: "euclid", Arity: 2, Call: func(*sem.Language, []*sem.Term) (*sem.Term, error) { return nil, nil }}); err == nil {
		t.Error("euclid registered twice")
	}
	if err := h.AddPrim(&sem.Prim{Name: "add", Arity: 2, Int: func([]int64) (int64, bool) { return 0, true }}); err == nil {
		t.Error("add registered twice")
	}
	if err := h.Add(&sem.GoFunc{Name: "subst", Arity: 1, Call: func(*sem.Language, []*sem.Term) (*sem.Term, error) { return nil, nil }}); err == nil {
		t.Error("a hook named by a reserved word")
	}
}

// TestAtoms: the atom types of the default hooks, on testdata/rules/bools.sem, on
// every derived stage; by hand: (lt 1 2) is true, so if-true gives "yes"; "b" and "a"
// differ, so same gives false and if-false the float 2.5; -0.5e1 is the float -5,
// printed back as -5.0 (a float literal keeps its point); and a string with an escaped
// quote equals itself, so if-true gives the first branch, false.
func TestAtoms(t *testing.T) {
	l := load(t, "bools.sem")
	for _, tc := range []struct {
		prog, answer string
		events       []string
	}{
		{`(if (lt 1 2) "yes" "no")`, `"yes"`, []string{"lt", "if-true"}},
		{`(app (lam x (if (same x "a") 1.5 2.5)) "b")`, "2.5", []string{"beta", "same", "if-false"}},
		{`(app (lam x x) -0.5e1)`, "-5.0", []string{"beta"}},
		{`(if (same "a\"b" "a\"b") false true)`, "false", []string{"same", "if-true"}}, // equal strings: true, so t_1
	} {
		onEveryStage(t, l, tc.prog, tc.answer, tc.events)
	}
}

// TestAtomErrors: an atom type the hooks do not hold, and a literal a sort does not
// take, are positioned errors; a calculus's own atom type reads, matches and prints.
func TestAtomErrors(t *testing.T) {
	const lang = "(language a)\n(sort t (integer n) (atom bool b))\n(kind E v)\n(value E n)\n(value E b)\n"
	if _, err := sem.Load([]byte("(language a)\n(sort t (atom char c))\n(kind E v)\n(value E c)\n")); err == nil ||
		!strings.Contains(err.Error(), "2:15: unknown atom type char: the atom types: bool, string, float") {
		t.Errorf("unknown atom type: %v", err)
	}
	l, err := sem.Load([]byte(lang))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ prog, want string }{
		{`"abc"`, `1:1: a string is not a term of sort t (its atoms: bool)`},
		{`maybe`, `1:1: sort t has no variables (its atoms: bool)`},
		{`1.5`, `1:1: sort t has no variables (its atoms: bool)`},
	} {
		if _, err := l.ReadTerm([]byte(tc.prog)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.prog, err, tc.want)
		}
	}
	// A calculus's own atoms: symbols written 'name.
	h := sem.DefaultHooks()
	sym := &sem.AtomType{Name: "symbol", Samples: []any{"a"},
		Read: func(s string, quoted bool) (any, bool) {
			if quoted || len(s) < 2 || s[0] != '\'' {
				return nil, false
			}
			return s[1:], true
		},
		Format: func(v any) string { return "'" + v.(string) },
		Equal:  func(a, b any) bool { return a == b },
	}
	if err := h.AddAtom(sym); err != nil {
		t.Fatal(err)
	}
	if err := h.AddAtom(sym); err == nil {
		t.Error("an atom type registered twice")
	}
	src := "(language s)\n(sort t (atom symbol y) (con is t))\n(kind E v)\n(value E y)\n(frame E (is (hole)))\n" +
		"(rule yes E (is 'x) 'yes)\n(rule no E (is y) 'no)\n"
	ls, err := sem.LoadWith([]byte(src), h)
	if err != nil {
		t.Fatal(err)
	}
	// (is 'x) matches the literal 'x of rule yes; (is 'z) only the metavariable of no.
	for prog, want := range map[string]string{"(is 'x)": "'yes", "(is 'z)": "'no"} {
		for _, s := range derivedStages {
			if a, err := s.stage.Eval(ls, read(t, ls, prog), interderive.Options{Fuel: 10}); err != nil || sem.Format(a.Value) != want {
				t.Errorf("%s on %s: %v, %v; want %s", prog, s.name, a.Value, err, want)
			}
		}
	}
}

// TestAtomKey: an atom type's Key is checked on its samples when the type is
// registered: a key that is not comparable (a slice) and a key that tells apart two
// samples Equal says are equal (case kept, where Equal ignores it) are refused, with
// the type's name; a key that agrees with Equal (the lower case) is taken.
func TestAtomKey(t *testing.T) {
	word := func(key func(any) any) *sem.AtomType {
		return &sem.AtomType{Name: "word", Samples: []any{"a", "A", "b"},
			Read:   func(s string, quoted bool) (any, bool) { return s, quoted },
			Format: func(v any) string { return strconv.Quote(v.(string)) },
			Equal:  func(a, b any) bool { return strings.EqualFold(a.(string), b.(string)) },
			Key:    key,
		}
	}
	for _, tc := range []struct {
		name string
		key  func(any) any
		want string // "" for none
	}{
		{"not comparable", func(v any) any { return []byte(v.(string)) }, `atom type word: Key of the sample "a" is [97], not a comparable value`},
		{"nil", func(any) any { return nil }, `atom type word: Key of the sample "a" is <nil>, not a comparable value`},
		{"case kept", func(v any) any { return v }, `atom type word: Key and Equal disagree on the samples "a" and "A"`},
		{"lower case", func(v any) any { return strings.ToLower(v.(string)) }, ""},
	} {
		err := sem.DefaultHooks().AddAtom(word(tc.key))
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
