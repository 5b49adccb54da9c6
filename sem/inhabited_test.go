package sem_test

import (
	"strings"
	"testing"

	"github.com/interderive/interderive/sem"
)

// TestProgramsSortInhabited: a rule file whose programs' sort has no closed term (no
// base case) is an error at the sort, never a generator that fails at run time; a sort
// whose only leaf is a variable some binder of it binds (lam x x), or that reaches a
// leaf through another sort, has closed terms.
func TestProgramsSortInhabited(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"no base case", "(language x)\n(sort t (con s t))\n(kind E v)\n(value E (s t))\n", "2:1: sort t, the programs' sort, has no closed term"},
		{"a variable under its binder", "(language x)\n(sort t (variable x) (con lam x t (bind 0 1)))\n(kind E v)\n(value E (lam x t))\n", ""},
		{"through another sort", "(language x)\n(sort t (con wrap u))\n(sort u (integer n))\n(kind E v)\n(value E (wrap u))\n", ""},
		{"a variable with no binder", "(language x)\n(sort t (variable x) (con s t))\n(kind E v)\n(value E (s t))\n", "2:1: sort t, the programs' sort, has no closed term"},
	} {
		_, err := sem.Load([]byte(tc.src))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
