package compile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The compiled interpreter derived from a rule file, in lockstep with the derived
// interpreter and reduction semantics and, on the λ-calculus (cbv.sem), with the
// λ-calculus's hand-written compiled stage; and its decisions before the run against
// the engine's tests on the terms. (An internal test: the decisions are the stage's
// own.)

// TestRulesLambdaCorpus: the well-typed programs of testdata/lambda, translated, on
// the derived compiled stage, on the derived interpreter (a reference), and on the
// λ-calculus's hand-written compiled stage (its answer translated): the same
// contractions and answers.
func TestRulesLambdaCorpus(t *testing.T) {
	rulescases.LockstepCorpus(t, Stage{}.Rules(), Stage{}.Lambda(), interp.Stage{}.Rules())
}

// TestRulesLambdaRandom: random well-typed λ-programs, in lockstep as on the corpus.
func TestRulesLambdaRandom(t *testing.T) {
	n := 0 // rapid's checks (testenv.PropertyChecks): a bound above them leaves rapid short of valid tests
	if testing.Short() {
		n = 50
	}
	rulescases.LockstepRandom(t, n, Stage{}.Rules(), Stage{}.Lambda(), interp.Stage{}.Rules())
}

// TestRulesContextAndLayers: the programs of the rule files with answers, context
// rules and inner layers (rulescases.Suites) give on the compiled stage the answers
// and the contraction sequences derived by hand, and agree with the derived reduction
// semantics event by event.
func TestRulesContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, Stage{}.Rules(), reduction.Stage{}.Rules(), 30)
}

// TestRulesBudgets: a divergent program stops at its fuel, and at its timeout,
// cleanly; stuck ones of cbn.sem with their run-time errors at their redexes
// (rulescases.StuckCases derives them).
func TestRulesBudgets(t *testing.T) {
	s := Stage{}.Rules()
	rulescases.OutOfFuel(t, s)
	rulescases.TimesOut(t, s)
	rulescases.Stuck(t, s, rulescases.StuckCases...)
}

// TestRulesAnswers: small programs of cbv.sem whose answers follow from its rules by
// hand: ((λx:Int. x + 1) 41) is 42 (beta, delta); if0's branches; a recursive
// function (f : Int -> Int, its parameter n : Int).
func TestRulesAnswers(t *testing.T) {
	l := rulescases.Load(t, "cbv.sem")
	for _, tc := range []struct{ src, want string }{
		{"(app (lam x Int (add x 1)) 41)", "42"},
		{"(if0 0 1 2)", "1"},
		{"(if0 (add 1 0) 1 2)", "2"},
		// f 3 with f n = if0 n 0 (n + f (n - 1)): 3 + 2 + 1 + 0.
		{"(letrec f (Int -> Int) n Int (if0 n 0 (add n (app f (add n -1)))) (app f 3))", "6"},
	} {
		rulescases.Answers(t, l, tc.src, tc.want, Stage{}.Rules())
	}
}

// addChain is 1 + (1 + ... (1 + 1)) with n additions, built directly: deeper than the
// parser reads (sem.MaxNesting).
func addChain(t *testing.T, l *sem.Language, n int) *sem.Term {
	add, ok := l.Con("add")
	if !ok {
		t.Fatal("cbv.sem has no add")
	}
	e := sem.Int(sem.Pos{}, 1)
	for range n {
		e = sem.App(sem.Pos{}, add, sem.Int(sem.Pos{}, 1), e)
	}
	return e
}

// TestRulesDeep: the compiled code's recursion is interp's, bounded by interp.MaxDepth:
// each addition's right operand is a call, so that 1 + (1 + ... (1 + 1)) with n
// additions runs to n + 1 within the bound, under a Go stack of half
// interderive.StackLimit (the bound's derivation, interp.DepthFrame a level), and a
// chain past the bound stops cleanly with a depth error.
func TestRulesDeep(t *testing.T) {
	s := Stage{}.Rules()
	rulescases.Deep(t, s, 1000)
	l := rulescases.Load(t, "cbv.sem")
	defer debug.SetMaxStack(debug.SetMaxStack(interderive.StackLimit / 2))
	for _, n := range []int{100_000, interp.MaxDepth - 2} {
		a, err := s.Eval(l, addChain(t, l, n), interderive.Options{Fuel: 1 << 30})
		if err != nil || a.Value.Op != sem.TermInt || a.Value.N != int64(n+1) {
			t.Errorf("%d: got %v (%v), want %d", n, a, err, n+1)
		}
	}
	n := interp.MaxDepth + 10
	if a, err := s.Eval(l, addChain(t, l, n), interderive.Options{Fuel: 1 << 30}); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("%d: got %v (%v), want too deep", n, a, err)
	}
}

// TestRulesAbortDepth: an abort returns early through every call inside its
// delimiter, to the one that entered the delimiter's frame (interp's
// TestRulesAbortDepth derives the answer, 11 + n/2, and the events).
func TestRulesAbortDepth(t *testing.T) {
	l := rulescases.Load(t, "exceptions.sem")
	const n = 1000
	src := "(handle " + strings.Repeat("(add 1 ", n/2) + "(handle " + strings.Repeat("(add 1 ", n/2) + "(raise 1)" +
		strings.Repeat(")", n/2) + " (lam x (add x 10)))" + strings.Repeat(")", n/2) + " (lam y 0))"
	e := rulescases.Read(t, l, src)
	want := []string{"raise", "beta", "delta"}
	for range n / 2 {
		want = append(want, "delta")
	}
	want = append(want, "handle")
	r := rulescases.RunDerived(Stage{}.Rules(), l, e, 10_000)
	if r.Outcome() != fmt.Sprint(11+n/2) || !slices.Equal(r.Events, want) {
		t.Errorf("got %s after %d events, want %d after %d", r.Outcome(), len(r.Events), 11+n/2, len(want))
	}
	rulescases.Agree(t, "compile / interp", r, rulescases.RunDerived(interp.Stage{}.Rules(), l, e, 10_000))
}

// TestRulesSubstitution: a file that does not qualify for environments (OpenSem: a
// rule matches a variable occurrence) runs by substitution, its contracta new terms
// that run their roots' code. (λy. (λz. z) y) 5 -> (λz. z) 5 -> 5: beta twice (the
// first rule, beta, takes every value argument), in agreement with the derived
// interpreter.
func TestRulesSubstitution(t *testing.T) {
	l := rulescases.LoadSource(t, "open.sem", rulescases.OpenSem)
	e := rulescases.Read(t, l, "(app (lam y (app (lam z z) y)) 5)")
	r := rulescases.RunDerived(Stage{}.Rules(), l, e, 100)
	if r.Outcome() != "5" || !slices.Equal(r.Events, []string{"beta", "beta"}) {
		t.Errorf("got %s after %v, want 5 after beta, beta", r.Outcome(), r.Events)
	}
	rulescases.Agree(t, "compile / interp", r, rulescases.RunDerived(interp.Stage{}.Rules(), l, e, 100))
}

// TestRulesDecisions: every decision compile takes before the run is the engine's
// answer on the term. For every subterm u of the programs of testdata/rules (each read
// in its file's language), in every kind, the code of its body and the code of its
// root, where they decide, say what IsValue, IsAnswer and FindFrame say of u (by
// substitution, where a program's subterm is its own closure); and where a frame is
// found, the code of the term plugged after it decides the next search as FindFrame
// does on u with that frame's hole holding a value (u's own hole contents where
// IsValue says they are one). Enough decisions are taken before the run for the test
// to mean something.
func TestRulesDecisions(t *testing.T) {
	files, _ := filepath.Glob(rulescases.Testdata(t, "rules", "*.sem"))
	decided, checked := 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sem.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		e := sem.NewEngine(l, sem.Substitution)
		for _, own := range rulescases.OwnPrograms(t, l, file) {
			if own.Err != nil {
				continue // a program of another file's language
			}
			prog := own.Path
			for stack := []*sem.Term{own.Term}; len(stack) > 0; {
				u := stack[len(stack)-1]
				stack = append(stack[:len(stack)-1], u.Args...)
				for _, k := range l.Kinds {
					for _, cd := range []*rulesCode{build(&shape{op: shBody, term: u}, k, 0), build(&shape{op: shNode, root: u.Op, con: u.Con}, k, 0)} {
						where := fmt.Sprintf("%s: %s in %s", prog, sem.FormatShort(u, 60), k.Name)
						decided += checkCode(t, e, cd, u, where)
						checked++
					}
				}
			}
		}
	}
	if checked < 500 || 2*decided < checked {
		t.Errorf("%d decisions before the run in %d codes: too few to mean something", decided, checked)
	}
}

// checkCode checks the decisions of the code cd against the engine's tests on u, and
// those of the code after its first frame; it returns how many it took before the
// run.
func checkCode(t *testing.T, e *sem.Engine, cd *rulesCode, u *sem.Term, where string) int {
	t.Helper()
	n := 0
	if cd.value != maybe {
		n++
		if got, want := cd.value == yes, e.IsValue(u, cd.k); got != want {
			t.Errorf("%s: a value before the run %v, the engine %v", where, got, want)
		}
	}
	if cd.answer != maybe {
		n++
		if got, want := cd.answer == yes, e.IsAnswer(u, cd.k); got != want {
			t.Errorf("%s: an answer before the run %v, the engine %v", where, got, want)
		}
	}
	in := &rulesInterpreter{Engine: e}
	fr, ok := in.findFrame(cd, u)
	f, want := e.Enter(u, cd.k, 0)
	if len(cd.frames) > 0 && cd.frames[0].test == yes {
		n++
	}
	if ok != want || ok && fr.f != f {
		t.Errorf("%s: the search finds %v, the engine %v", where, ok, want)
	}
	// u matches a frame whose hole holds a value already (the search passed over it):
	// u is its own plugged term there, and the code after that frame decides as the
	// engine's search after it.
	if g, found := e.FindFrame(u, cd.k, 0); found && e.IsValue(sem.At(u, g.Path), g.Hole) {
		next := build(cd.shape.plug(g.Path, &shape{op: shValue, kind: g.Hole}), g.Kind, g.Index+1)
		h, ok := in.findFrame(next, u)
		j, want := e.Enter(u, g.Kind, g.Index+1)
		if ok != want || ok && h.f != j {
			t.Errorf("%s: after frame %d the search finds %v, the engine %v", where, g.Index+1, ok, want)
		}
		if is := e.IsValue(u, g.Kind); next.value != maybe && (next.value == yes) != is {
			t.Errorf("%s: after frame %d a value before the run %v, the engine %v", where, g.Index+1, next.value == yes, is)
		}
	}
	return n
}

// TestRulesDescribe: derive's description of the compiled interpreter of cbv.sem
// shows the decisions derived by hand from its values and frames: an application of
// unknown children enters its function's frame (app [] t) if the function is not a
// value, which the run decides; then, its function a value of E, its argument's frame
// (app v []) if the argument is not a value, the run again, else it is a redex; or,
// its function a value from the start, the argument's frame, the run deciding, else a
// redex. A λ is a value ((value E (lam x t))), an integer too.
func TestRulesDescribe(t *testing.T) {
	text := rulesStage{}.Describe(rulescases.Load(t, "cbv.sem"))
	for _, want := range []string{
		"(app ...)                {frame 1 (app [] t) [run] → {frame 2 (app v []) [run] → a redex | a redex} | frame 2 (app v []) [run] → a redex | a redex}",
		"(lam ...)                a value",
		"an integer               a value",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no line %q in\n%s", want, text)
		}
	}
}

// castPrograms are programs of the cast calculi's rule files (gradual/rules), with
// coercions nested in values, classes of coercions and blame: a function coerced to
// Dyn -> Dyn applied to an injected integer; an injection projected back, to its type
// and to another (blame 3); a sequence of function coercions merged (Arr); a recursive
// sum; an injected function applied (a run-time error).
var castPrograms = []string{
	"(app (crc (arrow (proj (Int) 1) (inj (Int))) (lam x (add x 1))) (crc (inj (Int)) 41))",
	"(crc (seq (inj (Int)) (proj (Int) 2)) 5)",
	"(add 1 (crc (seq (inj (Int)) (proj (Bool) 3)) 5))",
	"(app (crc (seq (arrow (proj (Int) 1) (inj (Int))) (arrow (inj (Int)) (proj (Int) 2))) (lam x (add x 1))) 41)",
	"(letrec f n (if (zero n) 0 (add n (app f (dec n)))) (app f 3))",
	"(app (crc (inj (fn (Int) (Int))) (lam x x)) 1)",
}

// TestRulesVerified: in runs of every program of testdata/rules, of the suites of
// rulescases (answers, context rules, inner layers) and of castPrograms on the cast
// calculi's rule files, under environments (where the file qualifies) and
// by substitution, every decision taken before the run is the engine's on the term
// the run meets (verify: the engine asked too), and the run agrees with the derived
// interpreter, event by event.
func TestRulesVerified(t *testing.T) {
	type file struct {
		path  string
		lang  *sem.Language // nil: read from path
		progs []string
	}
	var files []file
	sems, _ := filepath.Glob(rulescases.Testdata(t, "rules", "*.sem"))
	for _, path := range sems {
		progs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(path, ".sem"), "*.term"))
		var srcs []string
		for _, prog := range progs {
			src, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(src))
		}
		files = append(files, file{path, nil, srcs})
	}
	casts, _ := filepath.Glob(filepath.Join(filepath.Dir(rulescases.Testdata(t)), "gradual", "rules", "*.sem"))
	if len(casts) != 4 {
		t.Fatalf("%d cast rule files", len(casts))
	}
	for _, path := range casts {
		files = append(files, file{path, nil, castPrograms})
	}
	for _, suite := range rulescases.Suites(t) {
		var srcs []string
		for _, c := range suite.Cases {
			srcs = append(srcs, c.Src)
		}
		files = append(files, file{suite.Name, suite.Lang, srcs})
	}
	verified, runs := 0, 0
	for _, f := range files {
		l := f.lang
		if l == nil {
			src, err := os.ReadFile(f.path)
			if err != nil {
				t.Fatal(err)
			}
			if l, err = sem.Load(src); err != nil {
				t.Fatal(err)
			}
		}
		subst := *l
		subst.Substitute = true
		for _, prog := range f.progs {
			term, err := l.ReadTerm([]byte(prog))
			if err != nil {
				continue // a program of another file's language
			}
			for _, lang := range []*sem.Language{l, &subst} {
				var r rulescases.Run
				in := newRulesInterpreter(lang, term, rulescases.Options(&r, 10_000))
				in.verify = true
				a, err := sem.Guard(func() (sem.Answer, error) { return in.run(lang, term) })
				r.Value, r.Err = a.Value, err
				for _, m := range in.mismatches {
					t.Errorf("%s, %s (%v): %s", filepath.Base(f.path), prog, lang.Discipline(), m)
				}
				rulescases.Agree(t, filepath.Base(f.path)+" "+prog, r, rulescases.RunDerived(interp.Stage{}.Rules(), lang, term, 10_000))
				verified += in.verified
				runs++
			}
		}
	}
	if runs < 50 || verified < 10*runs {
		t.Errorf("%d decisions verified in %d runs: too few", verified, runs)
	}
}
