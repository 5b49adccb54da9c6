package sem_test

import (
	"errors"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// TestDeclarationErrors: one malformed case per declaration form and per error of
// Parse, each naming the token at fault and what was expected there. The expected
// messages are written from the forms of docs/rules.md; each position is that of the
// token the message names (its line, and its column counted by hand in the source,
// the declarations after mini starting on line 6), or of the declaration when
// something is missing from it.
func TestDeclarationErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"language arity", "(language)", "1:1: (language) ends before its NAME: expected (language NAME)"},
		{"language extra", "(language a b)", "1:13: unexpected b after a: expected (language NAME)"},
		{"language name", "(language 5)", "1:11: expected the language's name, a symbol, not 5"},
		{"second language", "(language a) (language b)", "1:14: a second (language ...): the language is a"},
		{"not a declaration", mini + "5", "6:1: expected a declaration, (KEYWORD ...) with KEYWORD one of language, sort, kind, class, function, hook, judgment, typing, property, nondeterministic, value, normal-forms, frame, rule, stuck, answer or notation, not 5"},
		{"sort arity", "(language x) (sort)", "1:14: (sort) ends before its NAME: expected (sort NAME META ... (variable X ...) (integer N ...) (con NAME ARG ... (bind I J ...)) ...)"},
		{"sort name", "(language x) (sort 5)", "1:20: expected the sort's name, a symbol, not 5"},
		{"sort reserved", "(language x) (sort hole)", "1:20: hole is a reserved word, not the sort's name (the reserved words: hole, subst, prim, where, fresh, =, !=, bind, step, context, in-hole)"},
		{"sort item", "(language x) (sort t (5))", "1:22: expected (variable ...), (integer ...), (atom ...) or (con ...), not (5)"},
		{"variable arity", "(language x) (sort t (variable))", "1:22: (variable) names no metavariable: expected (variable META ...)"},
		{"sort item unknown", "(language x) (sort t (lambda))", "1:23: unknown sort declaration lambda: (variable ...), (integer ...), (atom ...) or (con ...)"},
		{"sort twice", "(language x) (sort t) (sort t)", "1:29: sort t declared twice"},
		{"kind arity", "(language x) (sort t (integer n)) (kind E)", "1:35: (kind E) ends before its VALUE-METAVARIABLE: expected (kind NAME VALUE-METAVARIABLE [SORT])"},
		{"kind extra", "(language x) (sort t (integer n)) (kind E v t w)", "1:47: unexpected w after t: expected (kind NAME VALUE-METAVARIABLE [SORT])"},
		{"kind sort", "(language x) (sort t (integer n)) (kind E v u)", "1:45: expected the kind's sort, a sort's name, not u (the sorts: t)"},
		{"kind twice", "(language x) (sort t (integer n)) (kind E v) (kind E w)", "1:52: kind E declared twice"},
		{"con arity", "(language x) (sort t (con)) (kind E v)", "1:22: (con) ends before its NAME: expected (con NAME ARG ... (bind I J ...) ...)"},
		{"con argument", "(language x) (sort t (integer n) (con a q)) (kind E v)", "1:41: expected an argument sort, a metavariable name of a sort's terms, variables or integers, not q (the argument sorts: n, t)"},
		{"con twice", "(language x) (sort t (con a) (con a)) (kind E v)", "1:35: constructor a declared twice"},
		{"con meta", "(language x) (sort t (con t)) (kind E v)", "1:27: t is a metavariable name"},
		{"bind order", "(language x) (sort t (variable x) (con lam x t (bind 0 1) t)) (kind E v)", "1:59: argument t after a (bind ...): the arguments come before the binds"},
		{"bind self", "(language x) (sort t (variable x) (con lam x t (bind 0 0))) (kind E v)", "1:56: argument 0 of lam is the binder itself: a binder binds in other arguments, the terms in its scope (items, (x e) ..., may bind in themselves)"},
		{"bind term", "(language x) (sort t (variable x) (con lam x t (bind 1 1))) (kind E v)", "1:54: argument 1 of lam is not a variable: it is t, and a binder is a variable argument, or a sequence of them (x ...), or of items that each bind a variable ((x e) ...)"},
		{"bind range", "(language x) (sort t (variable x) (con lam x t (bind 0 2))) (kind E v)", "1:56: expected an argument index of lam, 0 to 1, not 2"},
		{"bind arity", "(language x) (sort t (variable x) (con lam x t (bind 0))) (kind E v)", "1:48: (bind 0) ends before its SCOPE: expected (bind BINDER SCOPE ...)"},
		{"bind keyword", "(language x) (sort t (variable x) (con lam x t (bond 0 1))) (kind E v)", "1:48: expected (bind BINDER SCOPE ...), argument indices from 0, not (bond 0 1)"},
		{"bind twice", "(language x) (sort t (variable x) (con lam x t (bind 0 1 1))) (kind E v)", "1:58: argument 1 twice in this bind"},
		{"second bind", "(language x) (sort t (variable x) (con lam x t (bind 0 1) (bind 0 1))) (kind E v)", "1:59: argument 0 of lam has a second bind"},
		{"bind in a variable", "(language x) (sort t (variable x) (con lam x x t (bind 0 1 2))) (kind E v)", "1:58: argument 1 of lam is not a term: it is x, and a binder binds in terms"},
		{"value arity", mini + "(value E)", "6:1: (value E) ends before its PATTERN: expected (value KIND PATTERN)"},
		{"value kind", mini + "(value F n)", "6:8: expected a context kind's name, not F (the kinds: E)"},
		{"value meta", mini + "(value E v)", "6:10: v: a value pattern is more than a value metavariable"},
		{"normal forms and a value", mini + "(normal-forms E)", "4:1: kind E's values are its normal forms (normal-forms E): it declares no value pattern"},
		{"normal forms stuck", "(language x) (sort t (integer n) (con app t t)) (kind E v) (normal-forms E) (stuck E (app n n_2) \"r\")", "1:77: kind E's values are its normal forms (normal-forms E): a term in which no rule applies is a value, not stuck"},
		{"normal forms twice", "(language x) (sort t (integer n)) (kind E v) (normal-forms E) (normal-forms E)", "1:63: (normal-forms E) declared twice"},
		{"normal forms arity", "(language x) (sort t (integer n)) (kind E v) (normal-forms)", "1:46: (normal-forms) ends before its KIND: expected (normal-forms KIND)"},
		{"normal forms kind", "(language x) (sort t (integer n)) (kind E v) (normal-forms F)", "1:60: expected a context kind's name, not F (the kinds: E)"},
		{"frame meta", mini + "(frame E t)", "6:10: expected a constructor around the hole, not t: a frame is a constructor around its hole"},
		{"frame extra", mini + "(frame E (app (hole) t) t)", "6:25: unexpected t after (app (hole) t): expected (frame KIND PATTERN): a pattern with one (hole [KIND])"},
		{"hole arity", mini + "(frame E (app (hole E F) t))", "6:23: unexpected F: expected (hole [KIND])"},
		{"stuck reason", mini + "(stuck E (app n v) reason)", "6:20: expected the reason, a string in double quotes, not reason"},
		{"stuck extra", mini + "(stuck E (app n v) \"r\" 5)", "6:24: unexpected 5 after \"r\": expected (stuck KIND PATTERN \"REASON\")"},
		{"rule arity", mini + "(rule r E (app v_1 v_2))", "6:1: (rule r E (app v_1 v_2)) ends before its RHS: expected (rule NAME KIND LHS RHS (where CONDITION) ...)"},
		{"rule name", mini + "(rule a/b E (app v_1 v_2) v_1)", "6:7: a/b: a rule's name has no / or , (they separate the events of layers and lists)"},
		{"rule lhs", mini + "(rule r E t t)", "6:11: t: a left-hand side is more than a metavariable"},
		{"condition form", mini + "(rule r E (app v_1 v_2) v_1 (when x))", "6:29: expected a side condition, (where (= A B)), (where (!= A B)), (where (prim OP N ...)), (where (fresh X-NEW X T ...)), (where (step KIND A B)), (where (match PATTERN TERM)) or (where (F A ...)), not (when x)"},
		{"condition unknown", mini + "(rule r E (app v_1 v_2) v_1 (where (< v_1 v_2)))", "6:37: unknown condition <: =, !=, prim, fresh, step, match, or a call of a function that gives a boolean"},
		{"equality arity", mini + "(rule r E (app v_1 v_2) v_1 (where (= v_1)))", "6:36: (= A B) takes 2 arguments, metavariables or integers, not 1"},
		{"equality term", mini + "(rule r E (app v_1 v_2) v_1 (where (= v_1 (lam x t))))", "6:43: expected a metavariable, not (lam x t)"},
		{"equality sorts", mini + "(rule r E (app (lam x t) v) t (where (= x 0)))", "6:38: x and 0 are not of one sort"},
		{"fresh arity", mini + "(rule r E (app (lam x t) v) t (where (fresh)))", "6:38: (fresh) ends before its X-NEW: expected (fresh X-NEW X T ...), a variable named like X that occurs in no T, or (fresh X-NEW T ...), named like X-NEW's metavariable"},
		{"fresh new", mini + "(rule r E (app (lam x t) v) t (where (fresh t_2 t)))", "6:45: expected a new metavariable of a sort's variables, not t_2"},
		{"fresh named bound", mini + "(rule r E (app (lam x t) v) t (where (fresh x t)))", "6:45: metavariable x is already bound"},
		{"step arity", mini + "(rule r E (app v_1 v_2) v_1 (where (step E)))", "6:36: (step ...) takes 3 arguments, not 1: expected (step KIND A B), A, a term of the inner layer KIND, steps by one of its contractions to B"},
		{"prim form", mini + "(rule r E (app v_1 v_2) v_1 (where (prim)))", "6:36: expected (prim OP ARG ...), OP one of add, sub, mul, neg, quot, rem, lt, le, gt, ge, eq, ne, not (prim)"},
		{"prim arity", mini + "(rule r E (app n_1 n_2) (prim add n_1))", "6:25: prim add takes 2 arguments, not 1"},
		{"pattern form", mini + "(rule r E (app v ()) v)", "6:18: expected (CONSTRUCTOR PATTERN ...), not ()"},
		{"subst form", mini + "(rule r E (app v_1 v_2) (subst v_1 x))", "6:25: expected (subst TERM VARIABLE TERM), a term, not (subst v_1 x)"},
		{"unknown declaration", "(language x) (grammar)", "1:15: unknown declaration grammar: expected language, sort, kind, class, function, hook, judgment, typing, property, nondeterministic, value, normal-forms, frame, rule, stuck, answer or notation"},
		{"string pattern", mini + `(rule r E (app v_1 v_2) "v")`, "6:25: \"v\": a string is not a pattern here (a stuck shape's reason is a string, and a string atom in a sort with (atom string ...))"},
		{"class sort", mini + "(class notfun nf n)", "6:15: nf is not a sort: expected (class NAME SORT PATTERN ...), the class's sort after its name (the sorts: t)"},
		{"class arity", mini + "(class c t)", "6:1: (class c t) ends before its PATTERN: expected (class NAME SORT PATTERN ...)"},
		{"class name", mini + "(class t t n)", "6:8: metavariable t declared twice"},
		{"function sorts", mini + "(function f t t ((f t) t))", "6:13: expected the argument sorts, a list (ARG-SORT ...), not t: expected (function NAME (ARG-SORT ...) RESULT-SORT ((NAME PATTERN ...) RESULT (where CONDITION) ...) ...)"},
		{"function arity", mini + "(function f)", "6:1: (function f) ends before its ARG-SORT: expected (function NAME (ARG-SORT ...) RESULT-SORT ((NAME PATTERN ...) RESULT (where CONDITION) ...) ...)"},
		{"function clauses", mini + "(function f (t) t)", "6:1: function f has no clause: expected (function NAME (ARG-SORT ...) RESULT-SORT ((NAME PATTERN ...) RESULT (where CONDITION) ...) ...)"},
		{"function argument sort", mini + "(function f (q) t ((f t) t))", "6:14: expected an argument sort, a metavariable name of a sort's terms, variables or integers, not q (the argument sorts: n, t, x)"},
		{"function constructor", mini + "(function app (t) t ((app t) t))", "6:11: app is a constructor"},
		{"function clause", mini + "(function f (t) t 5)", "6:19: expected a clause of f, ((f PATTERN ...) RESULT (where CONDITION) ...), not 5"},
		{"function clause arity", mini + "(function f (t) t ((f t t) t))", "6:20: f takes 1 arguments, not 2"},
		{"answer arity", mini + "(answer E)", "6:1: (answer E) ends before its PATTERN: expected (answer KIND PATTERN)"},
		{"answer pattern", mini + "(answer E n)", "6:11: expected a constructor or an atom, not n: an answer pattern is a constructor or an atom literal (\"error\")"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sem.Parse([]byte(tc.src))
			var list interderive.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("got %v, want an error list", err)
			}
			for _, e := range list {
				if e.Error() == tc.want {
					return
				}
			}
			t.Errorf("got  %v\nwant %s", list, tc.want)
		})
	}
}
