package sem_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// TestMatchAndCallConditionErrors: the errors of (where (match P T)) and (where (F A
// ...)), each at the token at fault (columns counted by hand; mini's declarations
// end on line 5, the function is line 6, the rule line 7). Their runs are the
// corpus's: testdata/rules/pairs.sem, with hand-derived answers, on every stage.
func TestMatchAndCallConditionErrors(t *testing.T) {
	f := mini + "(function f (t) t ((f t) t))\n"
	for _, tc := range []struct{ name, rule, want string }{
		{"rebinds", "(rule r E (app v_1 v_2) v_1 (where (match (app v_1 t) v_2)))", "7:48: metavariable v_1 occurs twice"},
		{"not boolean", "(rule r E (app v_1 v_2) v_1 (where (f v_2)))", "7:37: f gives a term of sort t, not a boolean"},
		{"no sort", "(rule r E (app v_1 v_2) v_1 (where (match t 5)))", "7:45: 5: expected a term whose sort its head tells"},
		{"arity", "(rule r E (app v_1 v_2) v_1 (where (match t)))", "7:36: (match ...) takes 2 arguments, not 1"},
	} {
		_, err := sem.Parse([]byte(f + tc.rule))
		var l interderive.ErrorList
		if !errors.As(err, &l) || len(l) == 0 || !strings.HasPrefix(l[0].Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
