package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// The rule-defined calculi through the workbench's engines, from the registry, as the
// command runs them.

func bench(t *testing.T) (*workbench.Workbench, workbench.Calculus) {
	t.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := w.LanguageNamed("term")
	if err != nil || c.Name() != "rules" {
		t.Fatalf("the extension term: %v, %v", c, err)
	}
	return w, c
}

// testdata is the path of testdata/rules from this package.
var testdata = filepath.Join("..", "..", "..", "testdata", "rules")

// define makes the calculus of a rule file of testdata/rules.
func define(t *testing.T, w *workbench.Workbench, c workbench.Calculus, file string) workbench.Calculus {
	t.Helper()
	d, err := w.Define(c, map[string]string{"rules": filepath.Join(testdata, file)}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRuleFileOf: the rule file of a program, by the flag, a "; semantics:" line
// (relative to the program's directory), or the directory's sibling; none is an error
// that says how to give one.
func TestRuleFileOf(t *testing.T) {
	cbn := filepath.Join(testdata, "cbn")
	tests := []struct {
		name, def, path, src string
		want                 string // the file, or a part of the error
		err                  bool
	}{
		{"flag", "x.sem", filepath.Join(cbn, "twice.term"), "; semantics: y.sem\n1", "x.sem", false},
		{"header", "", filepath.Join(cbn, "twice.term"), "; a comment\n  ;semantics:  ../y.sem \n1", filepath.Join(testdata, "y.sem"), false},
		{"absolute header", "", "p.term", "; semantics: /r/y.sem\n1", "/r/y.sem", false},
		{"sibling", "", filepath.Join(cbn, "twice.term"), "1", filepath.Join(testdata, "cbn.sem"), false},
		{"stdin header", "", "-", "; semantics: y.sem\n1", "y.sem", false},
		{"empty header", "", "p.term", "; semantics:\n1", "names no rule file", true},
		{"stdin", "", "-", "1", "needs its rule file: --rules FILE.sem", true},
		{"no sibling", "", filepath.Join(testdata, "named", "strict-argument.term"), "1", "no " + filepath.Join(testdata, "named.sem"), true},
	}
	for _, tt := range tests {
		got, err := rules.RuleFileOf(tt.def, tt.path, []byte(tt.src))
		switch {
		case tt.err && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %q, %v, want an error with %q", tt.name, got, err, tt.want)
		case !tt.err && (err != nil || got != tt.want):
			t.Errorf("%s: got %q, %v, want %q", tt.name, got, err, tt.want)
		}
	}
}

// TestDefineErrors: an unknown or ill-formed rule file is an error, the latter with
// its positions; the family alone loads nothing.
func TestDefineErrors(t *testing.T) {
	w, c := bench(t)
	if _, err := w.Define(c, map[string]string{"rules": filepath.Join(testdata, "none.sem")}, "", nil); err == nil {
		t.Error("a missing rule file: no error")
	}
	_, err := w.Define(c, map[string]string{"rules": filepath.Join(testdata, "errors", "ambiguous.sem")}, "", nil)
	if err == nil || !strings.Contains(err.Error(), "ambiguous.sem:27:1: frames overlap") {
		t.Errorf("an ambiguous rule file: %v", err)
	}
	if _, err := c.Load("term", []byte("1")); err == nil || !strings.Contains(err.Error(), "needs its rule file") {
		t.Errorf("the family's Load: %v", err)
	}
}

// TestCheckCorpus: check runs testdata/rules: every program in the calculus of its
// rule file, on the six derived stages, with the answers and the rules its comments
// derive by hand; a program its file's typing judgment rejects is one run, its type
// error.
func TestCheckCorpus(t *testing.T) {
	w, _ := bench(t)
	files, err := w.SourceFiles([]string{testdata})
	if err != nil {
		t.Fatal(err)
	}
	plans, errs := w.PlanFiles(files, "", nil, workbench.CheckOptions{})
	r := workbench.RunCheck(files, plans, errs, workbench.CheckOptions{}, nil, nil)
	typeErrors := 0 // a program the typing judgment rejects is one run, not one a stage
	for _, p := range plans {
		if p != nil && p.Expect.Answer["file"] == "type error" {
			typeErrors++
		}
	}
	if r.Errors > 0 || r.Failed > 0 || r.Runs != 6*(len(files)-typeErrors)+typeErrors || len(files) < 16 || typeErrors == 0 {
		t.Errorf("%s (%d files)", r.Summary(), len(files))
		for i, p := range plans {
			for _, run := range p.Runs {
				for _, f := range p.Run(run, workbench.CheckOptions{}) {
					t.Errorf("%s: %s", files[i], f.What)
				}
			}
			if errs[i] != nil {
				t.Error(errs[i])
			}
		}
	}
}

// TestRun: a program's answer on every derived stage; a run-time error (a declared
// stuck shape) with the reason and the position its comments derive; and a type
// error. cbv.sem types its programs before they run (its judgment typeof), so that an
// ill-typed program of it is refused at loading, positioned at the program; the stuck
// shapes are reached through cbn.sem, untyped, which declares the same ones.
func TestRun(t *testing.T) {
	w, c := bench(t)
	cbv, cbn := define(t, w, c, "cbv.sem"), define(t, w, c, "cbn.sem")
	tests := []struct {
		calc   workbench.Calculus
		src    string
		answer string
		reason string
		pos    interderive.Pos
	}{
		{cbv, "(add 1 2)", "3", "", interderive.Pos{}},
		{cbv, "(app (lam x Int (lam y Int x)) 1)", "(lam y Int 1)", "", interderive.Pos{}},
		{cbn, "(app 1 2)", "", "application of a non-function", interderive.Pos{Line: 1, Col: 1}},
		// the application at column 8 is the redex once its function is 2
		{cbn, "(add 1 (app (add 1 1) 0))", "", "application of a non-function", interderive.Pos{Line: 1, Col: 8}},
		{cbn, "\n  (if0 (lam x x) 1 2)", "", "if0 on a non-integer", interderive.Pos{Line: 2, Col: 3}},
	}
	for _, tt := range tests {
		p, err := tt.calc.Load("term", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range w.StagesOf(tt.calc) {
			out, err := p.Run(s, "file", interderive.Options{Fuel: 100})
			var rt *interderive.RuntimeError
			switch {
			case tt.reason == "" && (err != nil || out.Observation != tt.answer):
				t.Errorf("%s on %s: %q, %v, want %s", tt.src, s.Name(), out.Observation, err, tt.answer)
			case tt.reason != "" && (!errors.As(err, &rt) || rt.Reason != tt.reason || rt.Pos != tt.pos):
				t.Errorf("%s on %s: %v, want a run-time error at %s: %s", tt.src, s.Name(), err, tt.pos, tt.reason)
			}
		}
	}
	// Type errors of cbv.sem, at the program's root: 1 is no function (t-app's first
	// premise asks for an arrow), and a function is no operand of + (t-add's second).
	for _, tt := range []struct{ src, want string }{
		{"(app 1 2)", "1:1: the program has no type (typeof): rule t-app: premise 1"},
		{"\n  (add 1 (lam x Int x))", "2:3: the program has no type (typeof): rule t-add: premise 2"},
	} {
		if _, err := cbv.Load("term", []byte(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want a type error %s", tt.src, err, tt.want)
		}
	}
	if _, err := cbv.Load("term", []byte("(app x 1)")); err == nil || !strings.Contains(err.Error(), "1:6: unbound variable x") {
		t.Errorf("an unbound variable: %v", err)
	}
}

// TestGenerator: random programs are closed terms of the grammar, which print and read
// back as themselves, for every rule file.
func TestGenerator(t *testing.T) {
	for _, file := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem"} {
		l, err := rules.LoadFile(filepath.Join(testdata, file))
		if err != nil {
			t.Fatal(err)
		}
		rapid.Check(t, func(t *rapid.T) {
			e := rules.Generator{Lang: l, Depth: rapid.IntRange(1, 8).Draw(t, "depth")}.Draw(t)
			if fv := sem.FreeVars(e); len(fv) > 0 {
				t.Fatalf("%s: free variables %v", sem.Format(e), fv)
			}
			back, err := l.ReadTerm([]byte(sem.Format(e)))
			if err != nil || !sem.AlphaEqual(back, e) {
				t.Fatalf("%s: read back as %v, %v", sem.Format(e), back, err)
			}
		})
	}
}

// TestFuzz: fuzz checks lockstep on random programs of each rule file, and finds
// nothing; the header of a program names its rule file, so that a counterexample
// reads back in its calculus.
func TestFuzz(t *testing.T) {
	w, c := bench(t)
	for _, file := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem"} {
		plans, err := w.PlanFuzz(workbench.FuzzOptions{Calculi: []string{"rules"}, Size: 5,
			Definitions: map[string]string{"rules": filepath.Join(testdata, file)}})
		if err != nil || len(plans) != 1 {
			t.Fatalf("%s: %v, %d plans", file, err, len(plans))
		}
		r := w.Fuzz(plans[0], workbench.FuzzConfig{Count: 100, Jobs: 1, Seed: 1}, nil)
		if r.Found != nil || r.Checked == 0 {
			t.Errorf("%s: %d checked, found %v", file, r.Checked, r.Found)
		}
	}
	d := define(t, w, c, "cbv.sem")
	p, _ := d.Load("term", []byte("(add 1 2)"))
	src, _ := p.Source(interderive.PrintBudget{})
	abs, _ := filepath.Abs(filepath.Join(testdata, "cbv.sem"))
	head := p.(workbench.Headed).Header()
	if src != "(add 1 2)" || len(head) != 1 || head[0] != "semantics: "+abs {
		t.Errorf("source %q, header %q", src, head)
	}
	src = "; " + head[0] + "\n" + src
	dir := t.TempDir()
	path := filepath.Join(dir, "p.term")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := w.Define(c, nil, path, []byte(src)); err != nil || back.(rules.Calculus).File != abs {
		t.Errorf("read back: %v, %v", back, err)
	}
}

// TestDerive: derive prints the tables, the machine's transitions, what transition
// compression removed and the CPS evaluator's and the interpreter's equations, among
// them the lines below, derived by hand from cbv.sem's values, frames and rules.
func TestDerive(t *testing.T) {
	w, c := bench(t)
	text, err := c.(workbench.Deriver).Derive(filepath.Join(testdata, "cbv.sem"), w.StagesOf(c))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"language cbv, root kind E",
		"    1  (app [] t)                   hole E",
		"== machine",
		"eval((app t_hole t), E, K)                   -> eval(t_hole, E, (app [] t) : K)          frame 1, t_hole not a value of E",
		"eval((app (lam x T t) v), E, K)              -> eval((subst t x v), E, K)                beta",
		"continue((app [] t) : K, v')                 -> search (app v' t) after frame 1          frame 2, else a value, or a rule, of E",
		"continue([], v)                              -> halt(v)",
		// cbv.sem has two value shapes: eval of each hands it to continue.
		"transition compression, before refunctionalization: 2 administrative transitions removed",
		"eval((lam x T t), E, K) -> continue(K, (lam x T t))",
		"eval((app t_hole t), E, κ)                   = eval(t_hole, E, λv'. resume_1(v', κ))",
		"interp((app t_hole t), E)                = resume_1(interp(t_hole, E))",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("derive lacks %q:\n%s", want, text)
		}
	}
	if _, err := w.DeriverFor("x.lam"); err == nil || !strings.Contains(err.Error(), "*.sem") {
		t.Errorf("DeriverFor x.lam: %v", err)
	}
}

// TestTrace: trace --stage all shows every stage's own steps for a rule-defined
// program, aligned on its contractions: (\x:Int. x + 1) 2 contracts by beta, then delta
// (testdata/rules/cbv/beta-delta.term); the calculus of closures expands (add x 1)[ρ1]
// in the second, looking its child x up at once (to 2; the literal 1 is its own
// closure), where the machine contracts (add x 1)[ρ1] from its one state, eval in the
// empty stack (both holes hold values: no frame entered), both over closures: x bound
// to 2 in the body's environment, ρ1 = (x ↦ 2) : ε, by beta (the literal 2, closed, is
// its own closure).
func TestTrace(t *testing.T) {
	w, c := bench(t)
	d := define(t, w, c, "cbv.sem")
	p, err := d.Load("term", []byte("(app (lam x Int (add x 1)) 2)"))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := w.WriteSideBySide(&out, d, p, "file", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"contraction 1: beta",
		"decompose: []  with redex  (app (lam x Int (add x 1)) 2)  of kind E",
		"contraction 2: delta",
		"ρ1 = (x ↦ 2) : ε",
		"expand:    (add x 1)[ρ1]  ~>  (add 2 1)",
		"eval       (add x 1)[ρ1]  in E",
		"contract:  3",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the side-by-side trace lacks %q:\n%s", line, out.String())
		}
	}
}
