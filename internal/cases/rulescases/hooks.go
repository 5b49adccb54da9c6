package rulescases

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// GCDHooks are the hooks of sem/testdata/hooks/gcd.sem: euclid (gcd by Euclid's
// algorithm, undefined at 0 and 0), flip (a pair's components swapped: a term built
// in Go), broken (a hook that returns a variable where the file declares an integer),
// and the comparison divides (n1 divides n2, n1 ≠ 0), beside the δ-table.
func GCDHooks(t testing.TB) *sem.Hooks {
	t.Helper()
	h := sem.DefaultHooks()
	registered(t, []error{
		h.Add(&sem.GoFunc{Name: "euclid", Arity: 2, Doc: "gcd(n1, n2)", Call: func(l *sem.Language, args []*sem.Term) (*sem.Term, error) {
			a, b := args[0].N, args[1].N
			if a == 0 && b == 0 {
				return nil, errors.New("gcd(0, 0) is undefined")
			}
			for b != 0 {
				a, b = b, a%b
			}
			return sem.Int(args[0].P, max(a, -a)), nil
		}}),
		h.Add(&sem.GoFunc{Name: "flip", Arity: 1, Doc: "(pair a b) to (pair b a)", Call: func(l *sem.Language, args []*sem.Term) (*sem.Term, error) {
			p := args[0]
			return sem.App(p.P, p.Con, p.Args[1], p.Args[0]), nil
		}}),
		h.Add(&sem.GoFunc{Name: "broken", Arity: 1, Call: func(l *sem.Language, args []*sem.Term) (*sem.Term, error) {
			return sem.Var(args[0].P, "x"), nil
		}}),
		h.AddPrim(&sem.Prim{Name: "divides", Arity: 2, Test: true, Doc: "n1 divides n2", Cmp: func(a []int64) bool { return a[0] != 0 && a[1]%a[0] == 0 }}),
	})
	return h
}

// GCDSource is the text of sem/testdata/hooks/gcd.sem, the rule file of GCDHooks.
func GCDSource(t testing.TB) []byte {
	t.Helper()
	return hooksSource(t, "gcd.sem")
}

// GCDCase is a program of gcd.sem with its answer and contraction events, derived by
// hand.
type GCDCase struct {
	Prog, Answer string
	Events       []string
}

// GCDCases are gcd.sem's programs with hooks, derived by hand:
//
//   - (add (gcd 12 18) (app (lam x (gcd x 4)) 10)): 12 does not divide 18, so the
//     second gcd rule calls euclid: 6; beta gives (gcd 10 4), euclid: 2; add is
//     (prim add (double 6) 2) = 12 + 2 = 14. Events gcd, beta, gcd, add.
//   - (gcd 3 9): 3 divides 9 (the prim registered), so the first rule gives 3; and
//     (gcd -3 9) gives -3, where euclid would give 3: the prim decides.
//   - (swap (pair 1 (lam y y))): flip builds (pair (lam y y) 1).
var GCDCases = []GCDCase{
	{"(add (gcd 12 18) (app (lam x (gcd x 4)) 10))", "14", []string{"gcd", "beta", "gcd", "add"}},
	{"(gcd 3 9)", "3", []string{"gcd"}},
	{"(gcd -3 9)", "-3", []string{"gcd"}},
	{"(swap (pair 1 (lam y y)))", "(pair (lam y y) 1)", []string{"swap"}},
}

// GCDBroken is what gcd.sem's failures add to it: the hook broken, and a rule that
// calls it.
const GCDBroken = "(hook broken (n) n)\n(rule broke E (gcd n (lam x t)) (broken n))\n"

// GCDFailures are programs of gcd.sem with GCDBroken whose hook fails, and the
// function's error each stops with (*sem.FunctionError, positioned at the hook's
// declaration: line 26 of gcd.sem for euclid): euclid's own error, and a result of
// another sort than the file declares.
var GCDFailures = []struct{ Prog, Want string }{
	{"(gcd 0 0)", "26:1: hook euclid failed on (euclid 0 0), called by rule gcd: gcd(0, 0) is undefined"},
	{"(gcd 1 (lam y y))", "hook broken failed on (broken 1), called by rule broke: it returned x, not an integer"},
}

// ColorHooks are the hooks of sem/testdata/hooks/colors.sem: the atom type color
// (red, green, blue and purple in any case, equal up to case, each printed as it
// was written) and the hook succ (the next color: red, green, blue, red; purple's is
// red; in capitals where the color was written in capitals).
func ColorHooks(t testing.TB) *sem.Hooks { t.Helper(); return colorHooks(t, false) }

// ColorHooksKeyed are ColorHooks with a Key for the colors (sem.AtomType.Key: the
// lower case), by which the compiled engine finds the class of a color at once.
func ColorHooksKeyed(t testing.TB) *sem.Hooks { t.Helper(); return colorHooks(t, true) }

func colorHooks(t testing.TB, keyed bool) *sem.Hooks {
	t.Helper()
	names := []string{"red", "green", "blue", "purple"}
	color := &sem.AtomType{Name: "color", Samples: []any{"red", "Blue", "GREEN", "purple", "RED", "blue"}, Doc: "red, green, blue, purple, in any case",
		Read: func(s string, quoted bool) (any, bool) {
			if quoted || !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, s) }) {
				return nil, false
			}
			return s, true
		},
		Format: func(v any) string { return v.(string) },
		Equal:  func(a, b any) bool { return strings.EqualFold(a.(string), b.(string)) },
	}
	if keyed {
		color.Key = func(v any) any { return strings.ToLower(v.(string)) }
	}
	h := sem.DefaultHooks()
	registered(t, []error{
		h.AddAtom(color),
		h.Add(&sem.GoFunc{Name: "succ", Arity: 1, Doc: "the next color", Call: func(l *sem.Language, args []*sem.Term) (*sem.Term, error) {
			c := args[0].Val.(string)
			next := map[string]string{"red": "green", "green": "blue", "blue": "red", "purple": "red"}[strings.ToLower(c)]
			if c == strings.ToUpper(c) {
				next = strings.ToUpper(next)
			}
			return sem.AtomOf(args[0].P, color, next), nil
		}}),
	})
	return h
}

// ColorSource is the text of sem/testdata/hooks/colors.sem, the rule file of
// ColorHooks.
func ColorSource(t testing.TB) []byte {
	t.Helper()
	return hooksSource(t, "colors.sem")
}

// ColorCases are colors.sem's programs, derived by hand:
//
//   - (mix RED Blue): the literals red and blue of rule purple are equal to RED and
//     Blue (up to case): purple, the rule's literal. (mix Green red): green is not
//     red, so rule mix gives its first color, Green, as written.
//   - (same (pick red BLUE) blue): pick gives BLUE, which is blue up to case: true;
//     (same red green): false.
//   - (pick Red RED): RED, as written, though equal to Red, which came first.
//   - (next (app (lam x (pick x x)) BLUE)): beta, then pick gives BLUE, and succ
//     RED, in capitals.
//   - (same (next BLUE) red): succ gives RED (a color the hook built), equal to red.
var ColorCases = []GCDCase{
	{"(mix RED Blue)", "purple", []string{"purple"}},
	{"(mix Green red)", "Green", []string{"mix"}},
	{"(same (pick red BLUE) blue)", "true", []string{"pick", "same"}},
	{"(same red green)", "false", []string{"same"}},
	{"(pick Red RED)", "RED", []string{"pick"}},
	{"(next (app (lam x (pick x x)) BLUE))", "RED", []string{"beta", "pick", "next"}},
	{"(same (next BLUE) red)", "true", []string{"next", "same"}},
}

// registered fails t at the first error of the registrations errs (AddAtom, Add,
// AddPrim).
func registered(t testing.TB, errs []error) {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// hooksSource is the text of the rule file sem/testdata/hooks/NAME.
func hooksSource(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(filepath.Dir(Testdata(t)), "sem", "testdata", "hooks", name))
	if err != nil {
		t.Fatal(err)
	}
	return src
}
