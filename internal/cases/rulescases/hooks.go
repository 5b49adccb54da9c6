package rulescases

import (
	"errors"
	"os"
	"path/filepath"
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
	for _, err := range []error{
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
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// GCDSource is the text of sem/testdata/hooks/gcd.sem, the rule file of GCDHooks.
func GCDSource(t testing.TB) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(filepath.Dir(Testdata(t)), "sem", "testdata", "hooks", "gcd.sem"))
	if err != nil {
		t.Fatal(err)
	}
	return src
}
