package sem_test

import (
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// lintBase is mini with the call-by-value frames of app, on lines 6 and 7: each case's
// declarations start on line 8. Its lam is declared at 2:34.
const lintBase = mini + `(frame E (app (hole) t))
(frame E (app v (hole)))
`

// TestLint: the warnings of rule files that Load accepts, each derived by hand from
// the declarations (the subsumption of the patterns, and the witness: the smallest
// instance of the pattern at fault, a variable's metavariable named by its base name
// primed away from the variables given, a term's the smallest term, 0, a value's the
// smallest value, 0).
func TestLint(t *testing.T) {
	const beta = "(rule beta E (app (lam x t) v) (subst t x v))\n"
	const stuck = `(stuck E (app n v) "application of a non-function")` + "\n"
	tests := []struct {
		name, decls string
		want        []string
	}{
		{"none", beta + stuck, nil},
		// v, a value of E, is n or (lam x t): n is one of them, so beta matches every
		// (app (lam x t) n). (beta2's n is an integer: no variable escapes.)
		{"shadowed rule", beta + "(rule beta2 E (app (lam x t) n) n)\n" + stuck, []string{
			"9:1: warning: rule beta2 can never fire: rule beta at 8:1, tried first, has no side condition that may fail and matches every term this one matches, e.g. (app (lam x 0) 0)"}},
		// A side condition makes the earlier rule partial: no warning.
		{"partial", "(rule zero E (app n_1 n_2) 0 (where (= n_1 0)))\n(rule one E (app n_1 n_2) 1)\n" + beta + stuck, nil},
		// Every (app (lam x t) v) is beta's.
		{"stuck shape a rule contracts", beta + stuck + "(stuck E (app (lam x t) v) \"dead\")\n", []string{
			"10:1: warning: stuck shape (app (lam x t) v) can no longer be reached: rule beta at 8:1, which has no side condition that may fail, contracts every term it matches, e.g. (app (lam x 0) 0)"}},
		// (app t_1 t_2) is never a value of E (its values are integers and lams), so
		// every (app (app t_1 t_2) t_3) enters the frame (app (hole) t) at 6:1.
		{"stuck shape a frame enters", beta + stuck + "(stuck E (app (app t_1 t_2) t_3) \"dead\")\n", []string{
			"10:1: warning: stuck shape (app (app t_1 t_2) t_3) can no longer be reached: every term it matches enters the frame at 6:1: what is at its hole is never a value of kind E, e.g. (app (app 0 0) 0)"}},
		// (app 0 v) is an (app n v), the earlier shape's.
		{"stuck shape an earlier one takes", beta + stuck + "(stuck E (app 0 v) \"dead\")\n", []string{
			"10:1: warning: stuck shape (app 0 v) can no longer be reached: the stuck shape at 9:1, tried first, matches every term it matches, e.g. (app 0 0)"}},
		// Every (lam x t) is a value (the value at 5:1).
		{"stuck value", beta + stuck + "(stuck E (lam x t) \"dead\")\n", []string{
			"10:1: warning: stuck shape (lam x t) can no longer be reached: every term it matches is a value of kind E (the value at 5:1), e.g. (lam x 0)"}},
		// Each alternative of loop needs a loop (by hand: the least fixed point is
		// empty), and so do a's and b's of each other; fine has n, so it matches (and
		// so does nothing that needs only fine).
		{"empty classes", beta + stuck + "(class loop t (app loop_1 n))\n(class a t (app b n))\n(class b t (lam x a))\n(class fine t n (app fine_1 t))\n", []string{
			"10:1: warning: class loop matches no term: every alternative needs a term of class loop, and none of the classes it leads to has an alternative without such a need",
			"11:1: warning: class a matches no term: every alternative needs a term of class b, and none of the classes it leads to has an alternative without such a need",
			"12:1: warning: class b matches no term: every alternative needs a term of class a, and none of the classes it leads to has an alternative without such a need"}},
		// η without x not free in v: v is in the scope of x_1 on the left, and the
		// right-hand side is v alone, at 8:43. The witness names x_1's variable x, puts x free
		// in v's place in the smallest value whose pattern has a term argument,
		// (lam x' x) (its binder primed away from x), and names x_2 x' likewise.
		{"escape", "(rule eta E (app (lam x_1 (app v x_2)) n) v (where (= x_1 x_2)))\n" + beta + stuck, []string{
			"8:43: warning: rule eta: v may have x_1 free (on the left it is in the scope of x_1, argument 0 of lam, by (bind 0 1) of lam at 2:34), but the right-hand side puts it outside every binder of x_1 and every (subst v x_1 ...): x_1 escapes its binder, e.g. (app (lam x (app (lam x' x) x')) 0)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(lintBase + tc.decls)
			l, err := sem.Load(src)
			if err != nil {
				t.Fatal(interderive.Describe(tc.name, src, err))
			}
			var got []string
			for _, w := range sem.Lint(l) {
				got = append(got, w.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
