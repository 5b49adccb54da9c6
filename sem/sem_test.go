package sem_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// load reads a rule file of testdata/rules.
func load(t testing.TB, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(interderive.Describe(name, src, err))
	}
	return l
}

func read(t *testing.T, l *sem.Language, src string) *sem.Term {
	t.Helper()
	e, err := l.ReadTerm([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e
}

// mini is a small language for the error cases: each case appends declarations.
const mini = `(language mini)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con app t t))
(kind E v)
(value E n)
(value E (lam x t))
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string // want: "LINE:COL: message" prefix of one of the errors
	}{
		{"empty", "", "1:1: no (language NAME) declaration"},
		{"unclosed", "(language x", "1:1: unclosed ("},
		{"stray paren", "(language x))", "1:13: unexpected )"},
		{"big integer", "(language x) 99999999999999999999", "1:14: integer 99999999999999999999 does not fit in 64 bits"},
		{"unknown declaration", "(language x) (grammar)", "1:15: unknown declaration grammar"},
		{"layer", "(language x) (layer c)", "1:15: unknown declaration layer"},
		{"step own kind", mini + "(rule r E (app v_1 v_2) v_1 (where (step E v_1 t)))", "6:42: a rule of kind E steps an inner layer, not its own kind"},
		{"call in lhs", mini + "(function f (t) t ((f t) t)) (rule r E (app (f v) v_2) v_2)", "6:45: a call of function f is only in a right-hand side"},
		{"call arity", mini + "(function f (t) t ((f t) t)) (rule r E (app v_1 v_2) (f v_1 v_2))", "6:54: f takes 1 arguments, not 2"},
		{"no clause", mini + "(function f (t) t)", "6:1: function f has no clause: expected (function NAME"},
		{"clause head", mini + "(function f (t) t ((g t) t))", "6:19: expected a clause of f, ((f PATTERN ...) RESULT (where CONDITION) ...), not ((g t) ...)"},
		{"class sort", mini + "(class s nosort n)", "6:10: nosort is not a sort: expected (class NAME SORT PATTERN ...), the class's sort after its name (the sorts: t)"},
		{"class itself", mini + "(class s t n s)", "6:14: an alternative of s is more than s itself"},
		{"context arity", mini + "(rule r E (context) v)", "6:11: expected (context [DELIMITER] [E_k] REDEX), not (context)"},
		{"delimiter hole", mini + "(rule r E (context (app v t) (lam x t_2)) v)", "6:20: expected a delimiter, a constructor around one (hole), not (app v t)"},
		{"no sort", "(language x)", "1:1: no (sort ...) declaration"},
		{"unbound binder", "(language x) (sort t (variable x) (con lam x t)) (kind E v)", "1:35: argument 0 of lam is a variable that no (bind 0 ...) declares a binder"},
		{"bind a term", "(language x) (sort t (variable x) (con lam x t (bind 1 0))) (kind E v)", "1:54: argument 1 of lam is not a variable"},
		{"reserved", "(language x) (sort hole)", "1:20: hole is a reserved word"},
		{"meta with _", "(language x) (sort t_1)", "1:20: t_1: a metavariable name has no _"},
		{"meta twice", "(language x) (sort t (variable t))", "1:32: metavariable t declared twice"},
		{"non-linear", mini + "(rule r E (app x x) x)", "6:18: metavariable x occurs twice: patterns are linear"},
		{"unbound rhs", mini + "(rule r E (app (lam x t) v) t_2)", "6:29: metavariable t_2 is not bound by the left-hand side"},
		{"ill-sorted", mini + "(rule r E (lam t x) x)", "6:16: metavariable t stands for a term of sort t, here is expected a variable of sort t"},
		{"arity", mini + "(rule r E (app v) v)", "6:11: app takes 2 arguments, not 1"},
		{"unknown constructor", mini + "(rule r E (apply v v) v)", "6:12: unknown constructor apply"},
		{"unknown meta", mini + "(rule r E (app w v) v)", "6:16: w is not a metavariable"},
		{"two holes", mini + "(frame E (app (hole) (hole)))", "6:10: a frame has exactly one hole, not 2"},
		{"hole in rule", mini + "(rule r E (app (hole) v) v)", "6:16: a hole is only in a frame"},
		{"unknown kind", mini + "(frame F (app (hole) t))", "6:8: expected a context kind's name"},
		{"unknown prim", mini + "(rule r E (app n_1 n_2) (prim pow n_1 n_2))", "6:31: unknown prim pow"},
		{"test prim in rhs", mini + "(rule r E (app n_1 n_2) (prim lt n_1 n_2))", "6:31: prim lt is a comparison, for side conditions"},
		{"prim arity", mini + "(rule r E (app n_1 n_2) (prim add n_1))", "6:25: prim add takes 2 arguments"},
		{"unbound condition", mini + "(rule r E (app n_1 n_2) n_1 (where (= n_1 n_3)))", "6:43: metavariable n_3 is not bound by the left-hand side"},
		{"condition sorts", mini + "(rule r E (app (lam x t) n) n (where (= x n)))", "6:38: x and n are not of one sort"},
		{"subst outside rhs", mini + "(rule r E (subst t x v) v)", "6:11: subst is only in a right-hand side"},
		{"string", mini + `(rule r E "t" v)`, "6:11: \"t\": a string is not a pattern"},
		{"stuck without reason", mini + "(stuck E (app n v))", "6:1: (stuck E (app n v)) ends before its \"REASON\": expected (stuck KIND PATTERN \"REASON\")"},
		{"bad escape", `(language x) "a\n"`, `1:14: a string may escape only " and \`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sem.Parse([]byte(tc.src))
			var list interderive.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("got %v, want an error list", err)
			}
			for _, e := range list {
				if strings.HasPrefix(e.Error(), tc.want) {
					return
				}
			}
			t.Errorf("got  %v\nwant %s", list, tc.want)
		})
	}
}

// TestCheckErrors loads every file of testdata/rules/errors: each must be refused with
// exactly the errors its "; error: " lines give, in order.
func TestCheckErrors(t *testing.T) {
	files, _ := filepath.Glob("../testdata/rules/errors/*.sem")
	if len(files) == 0 {
		t.Fatal("no files in testdata/rules/errors")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, line := range strings.Split(string(src), "\n") {
				if w, ok := strings.CutPrefix(line, "; error: "); ok {
					want = append(want, w)
				}
			}
			if len(want) == 0 {
				t.Fatal("no ; error: line")
			}
			_, err = sem.Load(src)
			var list interderive.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want the errors %q", err, want)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	// The cast semantics exercise classes, functions, answers, a context rule and an
	// inner layer's step.
	for _, name := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem", "../../gradual/rules/ld.sem", "../../gradual/rules/eud.sem"} {
		t.Run(name, func(t *testing.T) {
			l := load(t, name)
			printed := l.String()
			l2, err := sem.Load([]byte(printed))
			if err != nil {
				t.Fatalf("%v\n%s", err, printed)
			}
			if again := l2.String(); again != printed {
				t.Errorf("printing is not a fixed point:\n%s\n----\n%s", printed, again)
			}
		})
	}
}

func TestReadTerm(t *testing.T) {
	l := load(t, "cbn.sem")
	ok := []struct{ src, want string }{
		{"1", "1"},
		{"-9223372036854775808", "-9223372036854775808"},
		{" (app (lam x (add x 1)) 2) ; a comment", "(app (lam x (add x 1)) 2)"},
		{"(letrec f x (app f x) (app f 0))", "(letrec f x (app f x) (app f 0))"},
	}
	for _, tc := range ok {
		if got := sem.Format(read(t, l, tc.src)); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.src, got, tc.want)
		}
	}
	bad := []struct{ src, want string }{
		{"", "1:1: no term"},
		{"1 2", "1:3: a second term after the program"},
		{"x", "1:1: unbound variable x"},
		{"(lam x y)", "1:8: unbound variable y"},
		{"(app 1)", "1:1: app takes 2 arguments, not 1"},
		{"(lam 1 1)", "1:6: argument 0 of lam is a variable"},
		{"(foo 1)", "1:2: unknown constructor foo of sort t"},
		{"(letrec f x x f)", ""},
		{"(let x 1 (add x y))", "1:17: unbound variable y"},
		{`"s"`, "1:1: a string is not a term"},
		{"()", "1:1: a term is an integer, a variable or (constructor argument ...)"},
	}
	for _, tc := range bad {
		_, err := l.ReadTerm([]byte(tc.src))
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.src, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", tc.src, err, tc.want)
		}
	}
}

// TestReadTermTyped: cbv.sem's programs carry their types, written by the shapes of
// the sort T (Int, and (S -> T) with its parentheses), and print as they are written.
func TestReadTermTyped(t *testing.T) {
	l := load(t, "cbv.sem")
	for _, src := range []string{
		"(app (lam x Int (add x 1)) 2)",
		"(lam f (Int -> (Int -> Int)) (lam x ((Int -> Int) -> Int) x))",
		"(letrec f (Int -> Int) x Int (app f x) (app f 0))",
	} {
		if got := sem.Format(read(t, l, src)); got != src {
			t.Errorf("%s: got %s", src, got)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"(lam x x)", "1:1: lam takes 3 arguments, not 2"},
		{"(letrec f x (app f x) (app f 0))", "1:1: letrec takes 6 arguments, not 4"},
	} {
		if _, err := l.ReadTerm([]byte(tc.src)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %s", tc.src, err, tc.want)
		}
	}
}

func TestReadTermDeep(t *testing.T) {
	l := load(t, "cbv.sem")
	n := sem.MaxNesting + 1
	src := strings.Repeat("(add 1 ", n) + "1" + strings.Repeat(")", n)
	if _, err := l.ReadTerm([]byte(src)); err == nil || !strings.Contains(err.Error(), "nest deeper") {
		t.Errorf("got %v, want a nesting error", err)
	}
	n = sem.MaxNesting
	src = strings.Repeat("(add 1 ", n) + "1" + strings.Repeat(")", n)
	if _, err := l.ReadTerm([]byte(src)); err != nil {
		t.Error(err)
	}
}

// TestSubst: capture-avoiding substitution on the declared binders, each expected
// result derived by hand from the binders of cbn.sem, the untyped λ-calculus (lam
// binds 0 in 1; let 0 in 2; letrec 0 in 2 and 3, and 1 in 2) and the renaming rule
// (the binder primed).
func TestSubst(t *testing.T) {
	l := load(t, "cbn.sem")
	// Each term is read closed under (lam x (lam y ...)) so that x and y may be free.
	open := func(src string) *sem.Term {
		e := read(t, l, "(lam x (lam y "+src+"))")
		return e.Args[1].Args[1]
	}
	tests := []substCase{
		{"(lam y (add x y))", "x", "1", "(lam y (add 1 y))"},
		{"(lam x x)", "x", "1", "(lam x x)"},
		{"(lam y (add x y))", "x", "y", "(lam y' (add y y'))"},
		{"(lam y (lam y' (add x y)))", "x", "y", "(lam y'' (lam y' (add y y'')))"},
		{"(let y x (add x y))", "x", "y", "(let y' y (add y y'))"},
		{"(let x x x)", "x", "1", "(let x 1 x)"},
		{"(letrec x y (app x y) (app x y))", "x", "1", "(letrec x y (app x y) (app x y))"},
		{"(letrec y x (app y x) (app x y))", "x", "1", "(letrec y x (app y x) (app 1 y))"},
		{"(letrec f y (app x y) x)", "x", "y", "(letrec f y' (app y y') y)"},
		// Both binders named y: in the function's body y is the parameter (the inner
		// bind); renaming the function's name must leave it alone.
		{"(letrec y y (app x y) (app y x))", "x", "y", "(letrec y' y' (app y y') (app y' y))"},
		{"(app x (if0 x y x))", "x", "(lam y y)", "(app (lam y y) (if0 (lam y y) y (lam y y)))"},
	}
	checkSubst(t, open, tests)
}

// substCase is a substitution, term[x := value], and the term it gives.
type substCase struct{ term, x, value, want string }

// checkSubst checks each substitution, its terms read by open.
func checkSubst(t *testing.T, open func(string) *sem.Term, tests []substCase) {
	t.Helper()
	for _, tc := range tests {
		got := sem.Subst(open(tc.term), tc.x, open(tc.value))
		if sem.Format(got) != tc.want {
			t.Errorf("%s[%s := %s]: got %s, want %s", tc.term, tc.x, tc.value, got, tc.want)
		}
	}
}

// TestSubstTyped: substitution past the type arguments of cbv.sem's binders (lam binds
// 0 in 2, over its parameter's type 1; letrec 0 in 4 and 5, and 2 in 4, over the
// types 1 and 3), the cases of TestSubst with their types added: a type has no
// variable, and is copied as it is.
func TestSubstTyped(t *testing.T) {
	l := load(t, "cbv.sem")
	// Each term is read closed under (lam x Int (lam y Int ...)).
	open := func(src string) *sem.Term {
		e := read(t, l, "(lam x Int (lam y Int "+src+"))")
		return e.Args[2].Args[2]
	}
	tests := []substCase{
		{"(lam y Int (add x y))", "x", "1", "(lam y Int (add 1 y))"},
		{"(lam x Int x)", "x", "1", "(lam x Int x)"},
		{"(lam y (Int -> Int) (add x y))", "x", "y", "(lam y' (Int -> Int) (add y y'))"},
		{"(letrec y (Int -> Int) x Int (app y x) (app x y))", "x", "1", "(letrec y (Int -> Int) x Int (app y x) (app 1 y))"},
		{"(letrec f (Int -> Int) y Int (app x y) x)", "x", "y", "(letrec f (Int -> Int) y' Int (app y y') y)"},
		{"(letrec y (Int -> Int) y Int (app x y) (app y x))", "x", "y", "(letrec y' (Int -> Int) y' Int (app y y') (app y' y))"},
	}
	checkSubst(t, open, tests)
}

func TestAlphaEqual(t *testing.T) {
	l := load(t, "cbn.sem")
	tests := []struct {
		a, b string
		want bool
	}{
		{"(lam x x)", "(lam y y)", true},
		{"(lam x (lam y x))", "(lam y (lam x y))", true},
		{"(lam x (lam y x))", "(lam x (lam y y))", false},
		{"(lam x (lam x x))", "(lam x (lam y y))", true},
		{"(lam x (lam x x))", "(lam y (lam x y))", false},
		{"(letrec f x (app f x) f)", "(letrec g y (app g y) g)", true},
		{"(letrec f f f 0)", "(letrec g y y 0)", true},
		{"(letrec f f f 0)", "(letrec g y g 0)", false},
		{"1", "1", true},
		{"1", "2", false},
		{"(add 1 2)", "(sub 1 2)", false},
	}
	for _, tc := range tests {
		if got := sem.AlphaEqual(read(t, l, tc.a), read(t, l, tc.b)); got != tc.want {
			t.Errorf("%s ≡α %s: got %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestFreshName(t *testing.T) {
	l := load(t, "cbn.sem")
	e := read(t, l, "(lam f (lam f' (app f f')))")
	if got := sem.FreshName("f", e); got != "f''" {
		t.Errorf("got %s, want f''", got)
	}
}

func TestIsValue(t *testing.T) {
	l := load(t, "cbn.sem")
	E := l.Root()
	tests := []struct {
		src  string
		want bool
	}{
		{"1", true},
		{"(lam x (app x x))", true},
		{"(app (lam x x) 1)", false},
		{"(add 1 2)", false},
		{"(let x 1 x)", false},
	}
	for _, tc := range tests {
		if got := l.IsValue(read(t, l, tc.src), E); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.src, got, tc.want)
		}
	}
}

// FuzzLoad: no rule file and no program crashes the reader, the parser, the checks or
// the warnings.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../testdata/rules/*.sem")
	more, _ := filepath.Glob("../testdata/rules/errors/*.sem")
	for _, file := range append(files, more...) {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src, []byte("(app (lam x x) 1)"))
		}
	}
	f.Fuzz(func(t *testing.T, src, prog []byte) {
		l, err := sem.Parse(src)
		if err != nil {
			var list interderive.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("not an error list: %v", err)
			}
			return
		}
		if sem.Check(l) == nil {
			_ = sem.Lint(l)
		}
		if e, err := l.ReadTerm(prog); err == nil {
			_ = sem.Format(e)
		}
	})
}

// TestFormatTables: the tables of a small language, written by hand from its
// declarations: each root's row lists what a term with that root is tried against.
func TestFormatTables(t *testing.T) {
	l, err := sem.Load([]byte(mini + `(frame E (app (hole) t))
(frame E (app v (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(stuck E (app n v) "application of a non-function")`))
	if err != nil {
		t.Fatal(err)
	}
	want := `language mini, root kind E

kind E (sort t), values v:
  value  n
  value  (lam x t)
  frames, in search order:
    1  (app [] t)                   hole E
    2  (app v [])                   hole E
  rules, in order:
    beta     (app (lam x t) v)  ->  (subst t x v)
  stuck shapes:
    1  (app n v)  "application of a non-function"
  decomposition table, by root:
    integer  value
    variable nothing: no term of this root in this kind decomposes
    lam      value
    app      frames 1, 2; rules beta; stuck 1
`
	if got := sem.FormatTables(l); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// layered is a tiny rule file with every new declaration: a class, a function, an
// answer, an abort to the root, a delimited abort and an inner layer. Coins (c) are
// normalised by an inner layer K (merge two heads into a tail) that the outer rule
// pay steps; boom aborts to the root; (catch (hole) t) delimits throw.
const layered = `(language layered)
(sort t (integer n) (con pay c t) (con boom) (con catch t t) (con throw t) (con twice t))
(sort c (con h) (con tl) (con pair c c))
(class coin c (h) (tl))
(function flip (c) c ((flip (h)) (tl)) ((flip (tl)) (h)))
(kind E v)
(kind K k c)
(value E n)
(answer E (boom))
(answer E (throw v))
(value K coin)
(frame K (pair (hole) c))
(frame K (pair k (hole)))
(rule heads K (pair (h) (h)) (tl))
(rule mixed K (pair coin_1 coin_2) (flip coin_2))
(frame E (pay c (hole)))
(frame E (catch (hole) t))
(frame E (throw (hole)))
(frame E (twice (hole)))
(rule pay E (pay c n) (pay c_2 n) (where (step K c c_2)))
(rule paid E (pay coin n) n)
(rule boom E (context (boom)) (boom))
(rule caught E (context (catch (hole) t) (throw v)) t)
(rule catch E (catch v t) v)
(rule twice E (twice n) (prim add n n))
`

// TestLayered contracts by each new kind of rule on the reduction semantics, derived
// by hand: the events, and the answer.
func TestLayered(t *testing.T) {
	l, err := sem.Load([]byte(layered))
	if err != nil {
		t.Fatal(err)
	}
	st := reductionStage(t)
	tests := []struct {
		src, want string
		events    []string
	}{
		// (pay (pair (pair h h) h) 1): the inner layer reduces leftmost-innermost:
		// (pair h h) -> tl by heads, then (pair tl h) -> (flip h) = tl by mixed; then
		// paid.
		{"(pay (pair (pair (h) (h)) (h)) 1)", "1", []string{"pay/heads", "pay/mixed", "paid"}},
		// boom in a non-empty context aborts to the root; the root's boom is an answer.
		{"(twice (twice (boom)))", "(boom)", []string{"boom"}},
		// throw 3 inside twice inside catch: the innermost catch's frame is replaced
		// by its handler 5; twice 5 = 10.
		{"(twice (catch (twice (throw 3)) 5))", "10", []string{"caught", "twice"}},
		// An uncaught throw is an answer at the root.
		{"(twice (throw 3))", "", nil},
	}
	for _, tt := range tests {
		term, err := l.ReadTerm([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		var events []string
		a, err := st.Eval(l, term, interderive.Options{OnContract: func(r string) { events = append(events, r) }})
		if tt.want == "" {
			if err == nil {
				t.Errorf("%s: answer %s, want stuck (an uncaught throw in a context is no answer)", tt.src, a)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if a.String() != tt.want || strings.Join(events, ",") != strings.Join(tt.events, ",") {
			t.Errorf("%s: %s by %v, want %s by %v", tt.src, a, events, tt.want, tt.events)
		}
	}
	// A function with no clause for its argument is an error of the run.
	f, _ := l.Function("flip")
	if _, err := l.Call(f, []*sem.Term{sem.App(sem.Pos{}, mustCon(t, l, "pair"), sem.App(sem.Pos{}, mustCon(t, l, "h")), sem.App(sem.Pos{}, mustCon(t, l, "h")))}, sem.Pos{}); err == nil ||
		!strings.Contains(err.Error(), "function flip has no clause for (flip (pair (h) (h)))") {
		t.Errorf("flip of a pair: %v", err)
	}
}

func mustCon(t *testing.T, l *sem.Language, name string) *sem.Con {
	c, ok := l.Con(name)
	if !ok {
		t.Fatalf("no constructor %s", name)
	}
	return c
}

func reductionStage(t *testing.T) sem.Stage {
	t.Helper()
	st, ok := sem.StageOf(reduction.Stage{})
	if !ok {
		t.Fatal("the reduction stage derives nothing from a rule file")
	}
	return st
}
