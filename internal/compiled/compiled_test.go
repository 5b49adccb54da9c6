package compiled_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/compiled"
	"github.com/interderive/interderive/internal/gogen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// The compiled engine runs the stages derive --go writes, loaded into the process:
// the checks here are that it gives what the tables give (the same events, answers
// and errors: an independent implementation, sem's engine and the stages' rules.go),
// on the λ-corpus against the hand-derived λ-stages too, and that its budgets and
// refusals hold. The generated code itself is checked against the tables by
// internal/gogen's lockstep, through the built binary.

// stages are the stages the compiled engine has, with their hand-derived λ-stages.
var stages = []struct {
	stage interderive.Stage
	hand  lambda.Stage
}{
	{reduction.Stage{}, reduction.Stage{}.Lambda()},
	{closures.Stage{}, closures.Stage{}.Lambda()},
	{machine.Stage{}, machine.Stage{}.Lambda()},
	{cps2.Stage{}, cps2.Stage{}.Lambda()},
	{interp.Stage{}, interp.Stage{}.Lambda()},
}

// load is the compiled stages of the repository's testdata/rules/NAME.
func load(t *testing.T, name string) (*sem.Language, *compiled.Semantics) {
	t.Helper()
	testenv.NeedCompiledEngine(t)
	l := rulescases.Load(t, name)
	s, err := compiled.Load(l, name, "")
	if err != nil {
		t.Fatal(err)
	}
	return l, s
}

// stageOf is the compiled stage of s.
func stageOf(t *testing.T, s *compiled.Semantics, st interderive.Stage) sem.Stage {
	t.Helper()
	cs, err := s.Stage(st.Name())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestLambdaCorpus: the well-typed programs of testdata/lambda, as terms of cbv.sem, on
// each compiled stage, its stage of the tables and the hand-derived λ-stage: the same
// contractions, the same answers.
func TestLambdaCorpus(t *testing.T) {
	_, s := load(t, "cbv.sem")
	for _, st := range stages {
		t.Run(st.stage.Name(), func(t *testing.T) {
			tables, _ := sem.StageOf(st.stage)
			rulescases.LockstepCorpus(t, stageOf(t, s, st.stage), st.hand, tables)
		})
	}
}

// TestBudgets: on each compiled stage, a divergent program stops at its fuel (1000
// contractions) and at its timeout; cbn.sem's stuck programs stop with their
// run-time errors at their redexes' positions (rulescases.StuckCases derives them),
// positions that cross into the plugin and back; a program nested 1000 deep runs.
func TestBudgets(t *testing.T) {
	_, cbv := load(t, "cbv.sem")
	_, cbn := load(t, "cbn.sem")
	for _, st := range stages {
		t.Run(st.stage.Name(), func(t *testing.T) {
			s := stageOf(t, cbv, st.stage)
			rulescases.OutOfFuel(t, s)
			rulescases.TimesOut(t, s)
			rulescases.Deep(t, s, 1000)
			rulescases.Stuck(t, stageOf(t, cbn, st.stage), rulescases.StuckCases...)
		})
	}
}

// registered is the workbench of the registry (whose calculi have the compiled
// engine) and its calculus named name.
func registered(t *testing.T, name string) (*workbench.Workbench, workbench.Calculus) {
	t.Helper()
	testenv.NeedCompiledEngine(t)
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	c, err := w.CalculusNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return w, c
}

// run is a run's events and its outcome, or its error's text.
type run struct {
	events []string
	value  string
	err    string
}

func runOn(p workbench.Program, st interderive.Stage, variant, engine string) run {
	var r run
	out, err := p.Run(st, variant, interderive.Options{Fuel: 20_000, Engine: engine, OnContract: func(ev string) { r.events = append(r.events, ev) }})
	if err != nil {
		r.err = err.Error()
	} else {
		r.value = out.Observation + " " + out.Value
	}
	return r
}

// same reports how b differs from a ("" where it does not).
func same(a, b run) string {
	switch {
	case !slices.Equal(a.events, b.events):
		i := 0
		for i < min(len(a.events), len(b.events)) && a.events[i] == b.events[i] {
			i++
		}
		return "the events differ from event " + strconv.Itoa(i+1)
	case a.err != b.err:
		return "the tables: " + a.err + "; compiled: " + b.err
	case a.value != b.value:
		return "the tables answer " + a.value + ", compiled " + b.value
	}
	return ""
}

// inLockstep runs p under variant on each stage, on the tables and on the compiled
// engine, and reports where they differ (name says which program it is); it gives
// the tables' runs.
func inLockstep(t *testing.T, p workbench.Program, variant, name string) []run {
	t.Helper()
	var runs []run
	for _, st := range stages {
		a, b := runOn(p, st.stage, variant, interderive.EngineTables), runOn(p, st.stage, variant, interderive.EngineCompiled)
		if d := same(a, b); d != "" {
			t.Errorf("%s on %s: %s", name, st.stage.Name(), d)
		}
		runs = append(runs, a)
	}
	return runs
}

// TestGradualCorpus: the programs of testdata/gradual under the cast semantics' rule
// files ED and LUD, run by the workbench's gradual calculus on each stage, on the
// tables and on the compiled engine: the same events, the same answer (its
// observation too: blame and its label) or the same error.
func TestGradualCorpus(t *testing.T) {
	_, c := registered(t, "gradual")
	files := rulescases.Files(t, "gradual", "*.*")
	root := filepath.Dir(rulescases.Testdata(t))
	runs, answers := 0, 0
	for _, variant := range []string{"ed.sem", "lud.sem"} {
		variant := filepath.Join(root, "gradual", "rules", variant)
		for _, f := range files {
			ext := strings.TrimPrefix(filepath.Ext(f.Name), ".")
			if ext != "gtlc" && ext != "cast" {
				continue
			}
			p, err := c.Load(ext, f.Src)
			if err != nil {
				continue // the program's expectation is its error
			}
			for _, r := range inLockstep(t, p, variant, f.Name+" under "+filepath.Base(variant)) {
				runs++
				if r.err == "" {
					answers++
				}
			}
		}
	}
	if answers < 100 {
		t.Fatalf("%d runs, %d answers: the corpus should give far more", runs, answers)
	}
	t.Logf("%d runs in lockstep, %d answers", runs, answers)
}

// TestRuleFiles: every program of testdata/rules whose rule file the generator
// writes, run by the workbench's rule-file calculus on each stage, on the tables and
// on the compiled engine: the same events and answers (atoms among them: booleans,
// strings), the same run-time errors and function failures. A file the generator
// refuses is refused by the compiled engine with the generator's reason.
func TestRuleFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("a plugin for each rule file: the λ and gradual corpora are the short checks")
	}
	w, family := registered(t, "rules")
	files, runs, refused := 0, 0, 0
	for _, sf := range rulescases.Files(t, "rules", "*.sem") {
		dir := strings.TrimSuffix(sf.Name, ".sem")
		if m, _ := filepath.Glob(rulescases.Testdata(t, "rules", dir, "*.term")); len(m) == 0 {
			continue
		}
		terms := rulescases.Files(t, "rules", dir, "*.term")
		file := rulescases.Testdata(t, "rules", sf.Name)
		c, err := w.Define(family, map[string]string{"rules": file}, rulescases.Testdata(t, "rules", dir, terms[0].Name), terms[0].Src)
		if err != nil {
			continue // a file that does not load: its own tests say why
		}
		_, genErr := gogen.Generate(c.(rules.Calculus).Lang, file)
		files++
		for _, term := range terms {
			p, err := c.Load("term", term.Src)
			if err != nil {
				continue
			}
			if genErr == nil {
				runs += len(inLockstep(t, p, "file", term.Name))
				continue
			}
			for _, st := range stages {
				if b := runOn(p, st.stage, "file", interderive.EngineCompiled); !strings.Contains(b.err, genErr.Error()) {
					t.Errorf("%s on %s: the compiled engine's error %q does not give the generator's reason %q", term.Name, st.stage.Name(), b.err, genErr)
				}
				refused++
			}
		}
	}
	t.Logf("%d rule files, %d runs in lockstep, %d refused", files, runs, refused)
}

// TestRefusals: a run whose states are watched (a trace's Observer) and a stage the
// compiled engine has not are errors that name --engine tables; so is an engine of
// another name.
func TestRefusals(t *testing.T) {
	l, s := load(t, "cbv.sem")
	st := stageOf(t, s, machine.Stage{})
	e := rulescases.Read(t, l, "(add 1 2)")
	if _, err := st.Eval(l, e, interderive.Options{Observer: observer{}}); err == nil || !strings.Contains(err.Error(), "--engine tables") {
		t.Errorf("an observed run: %v, want a refusal naming --engine tables", err)
	}
	if _, err := s.Stage("compile"); err == nil || !strings.Contains(err.Error(), "--engine tables") {
		t.Errorf("the compile stage: %v, want a refusal naming --engine tables", err)
	}
	if _, _, err := sem.StageOn(machine.Stage{}, l, "cbv.sem", "jit", nil); err == nil || !strings.Contains(err.Error(), `unknown engine "jit"`) {
		t.Errorf("engine jit: %v, want unknown engine", err)
	}
	if _, _, err := sem.StageOn(machine.Stage{}, l, "cbv.sem", interderive.EngineCompiled, nil); err == nil {
		t.Error("the compiled engine where there is none: no error")
	}
}

// TestOwnHookRefused: a rule file that calls a calculus's own hook (a Go function
// the generated package cannot hold) is refused by the compiled engine with the
// generator's reason; the tables run it.
func TestOwnHookRefused(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	h := sem.DefaultHooks()
	if err := h.Add(&sem.GoFunc{Name: "twice", Arity: 1, Call: func(l *sem.Language, a []*sem.Term) (*sem.Term, error) {
		return sem.Int(a[0].P, 2*a[0].N), nil
	}}); err != nil {
		t.Fatal(err)
	}
	l, err := sem.LoadWith([]byte("(language own)\n(sort t (integer n) (con dbl t))\n(hook twice (n) n)\n(kind E v)\n(value E n)\n(frame E (dbl (hole)))\n(rule dbl E (dbl n) (twice n))\n"), h)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compiled.Load(l, "own.sem", t.TempDir()); err == nil || !strings.Contains(err.Error(), "writes only the default hooks") {
		t.Errorf("a file with a calculus's own hook: %v, want the generator's refusal", err)
	}
	tables, _ := sem.StageOf(machine.Stage{})
	if a, err := tables.Eval(l, rulescases.Read(t, l, "(dbl 21)"), interderive.Options{}); err != nil || sem.Format(a.Value) != "42" {
		t.Errorf("on the tables: %v %v, want 42", a.Value, err)
	}
}

// TestHookFailures: a default hook on arguments that are not numbers fails, and the
// failure is the rule file's sem.FunctionError with the hook's reason, on each
// compiled stage as on the tables.
func TestHookFailures(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	l := rulescases.LoadSource(t, "badadd.sem", `(language badadd)
(sort e (atom number n) (con plus e e) (con pair e e))
(hook number-add (e e) e)
(kind E v)
(value E n)
(value E (pair e_1 e_2))
(frame E (plus (hole) e))
(frame E (plus v (hole)))
(rule plus E (plus v_1 v_2) (number-add v_1 v_2))
`)
	s, err := compiled.Load(l, "badadd.sem", "")
	if err != nil {
		t.Fatal(err)
	}
	e := rulescases.Read(t, l, "(plus (pair 1 2) 3/4)")
	for _, st := range stages {
		tables, _ := sem.StageOf(st.stage)
		_, want := tables.Eval(l, e, interderive.Options{})
		_, got := stageOf(t, s, st.stage).Eval(l, e, interderive.Options{})
		var fe *sem.FunctionError
		if !errors.As(got, &fe) || fe.Reason != "number-add of (pair 1 2) and 3/4, not two numbers" || want == nil || got.Error() != want.Error() {
			t.Errorf("%s: compiled %v, tables %v", st.stage.Name(), got, want)
		}
	}
}

// observer watches a run's steps (as a trace does), and records nothing.
type observer struct{}

func (observer) Step(string)                     {}
func (observer) About(int, string)               {}
func (observer) Report(int, string, any, string) {}

// TestFunctionFailures: rulescases.FailingCoinsSem's function with no clause for its
// argument, and its function that recurses past the limit, fail on each compiled
// stage as on the tables: the same sem.FunctionError, positioned at the function's
// declaration with its line and caret, naming the call and the rule that made it.
func TestFunctionFailures(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	l := rulescases.LoadSource(t, "coins.sem", rulescases.FailingCoinsSem)
	s, err := compiled.Load(l, "coins.sem", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"(tally (join (coin 1) 5))", "(spin 1)"} {
		e := rulescases.Read(t, l, src)
		for _, st := range stages {
			tables, _ := sem.StageOf(st.stage)
			_, want := tables.Eval(l, e, interderive.Options{Fuel: 20_000})
			_, got := stageOf(t, s, st.stage).Eval(l, e, interderive.Options{Fuel: 20_000})
			var fe *sem.FunctionError
			if !errors.As(got, &fe) || want == nil || got.Error() != want.Error() {
				t.Errorf("%s on %s: compiled %v, tables %v", src, st.stage.Name(), got, want)
			}
		}
	}
}

// TestFunctionBudgets: (go 100) of sem/testdata/fan.sem, whose function builds a tree
// of 2^100 leaves within one contraction, on each compiled stage stops at its
// timeout (50 ms), and at a memory budget of 1 byte, with the workbench's errors: the
// generated code watches the budgets in its functions' calls too.
func TestFunctionBudgets(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	src, err := os.ReadFile(filepath.Join("..", "..", "sem", "testdata", "fan.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l := rulescases.LoadSource(t, "fan.sem", string(src))
	s, err := compiled.Load(l, "fan.sem", "")
	if err != nil {
		t.Fatal(err)
	}
	e := rulescases.Read(t, l, "(go 100)")
	for _, st := range stages {
		for _, tc := range []struct {
			opts interderive.Options
			want error
		}{
			{interderive.Options{Timeout: 50 * time.Millisecond}, interderive.ErrTimeout},
			{interderive.Options{Memory: 1}, interderive.ErrOutOfMemory},
		} {
			start := time.Now()
			_, err := stageOf(t, s, st.stage).Eval(l, e, tc.opts)
			if !errors.Is(err, tc.want) {
				t.Errorf("%s: got %v, want %v", st.stage.Name(), err, tc.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%s: stopped after %v", st.stage.Name(), d)
			}
		}
	}
}
