package compiled_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
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
	"pgregory.net/rapid"
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
	{compile.Stage{}, compile.Stage{}.Lambda()},
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

// loadWith is the rule file src, read with the hooks h, and its compiled stages (file
// names it).
func loadWith(t testing.TB, file string, src []byte, h *sem.Hooks) (*sem.Language, *compiled.Semantics) {
	t.Helper()
	l, err := sem.LoadWith(src, h)
	if err != nil {
		t.Fatal(err)
	}
	s, err := compiled.Load(l, file, "")
	if err != nil {
		t.Fatal(err)
	}
	return l, s
}

// stageOf is the compiled stage of s.
func stageOf(t testing.TB, s *compiled.Semantics, st interderive.Stage) sem.Stage {
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
	programs := gradualPrograms(t, c)
	root := filepath.Dir(rulescases.Testdata(t))
	runs, answers := 0, 0
	for _, variant := range []string{"ed.sem", "lud.sem"} {
		variant := filepath.Join(root, "gradual", "rules", variant)
		for _, p := range programs {
			for _, r := range inLockstep(t, p.Program, variant, p.name+" under "+filepath.Base(variant)) {
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

// namedProgram is a program of the corpus, with its file's name.
type namedProgram struct {
	name string
	workbench.Program
}

// gradualPrograms are the programs of testdata/gradual that load (a program whose
// expectation is its error does not), in the gradual calculus c.
func gradualPrograms(t *testing.T, c workbench.Calculus) []namedProgram {
	var ps []namedProgram
	for _, f := range rulescases.Files(t, "gradual", "*.*") {
		ext := strings.TrimPrefix(filepath.Ext(f.Name), ".")
		if ext != "gtlc" && ext != "cast" {
			continue
		}
		if p, err := c.Load(ext, f.Src); err == nil {
			ps = append(ps, namedProgram{f.Name, p})
		}
	}
	return ps
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
	if _, err := s.Stage("jit"); err == nil || !strings.Contains(err.Error(), "--engine tables") {
		t.Errorf("a stage of no name the engine knows: %v, want a refusal naming --engine tables", err)
	}
	if _, _, err := sem.StageOn(machine.Stage{}, l, "cbv.sem", "jit", nil); err == nil || !strings.Contains(err.Error(), `unknown engine "jit"`) {
		t.Errorf("engine jit: %v, want unknown engine", err)
	}
	if _, _, err := sem.StageOn(machine.Stage{}, l, "cbv.sem", interderive.EngineCompiled, nil); err == nil {
		t.Error("the compiled engine where there is none: no error")
	}
}

// TestOwnHooks: a rule file with hooks of its calculus's own (sem/testdata/hooks/gcd.sem:
// Go meta-functions, one of which builds a term, and a comparison prim) runs on every
// compiled stage, the hooks and the prim called back in this process, with the answers
// and the contractions derived by hand (rulescases.GCDCases, which sem's TestHooks
// runs on the tables). A hook's failures are the tables' errors: its own error and a
// result of another sort are the function's error with the reason
// (rulescases.GCDFailures), and a run-time error it returns is the program's, at its
// position. An integer prim of a calculus's own is called back too. derive --go still
// refuses the file, naming the compiled engine, and so a file with an atom type of
// its calculus's own (which the compiled engine runs: TestOwnAtoms).
func TestOwnHooks(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	h := rulescases.GCDHooks(t)
	if err := h.Add(&sem.GoFunc{Name: "boom", Arity: 1, Call: func(l *sem.Language, a []*sem.Term) (*sem.Term, error) {
		return nil, interderive.Runtime(a[0].P, sem.Format(a[0]), "boom on an integer")
	}}); err != nil {
		t.Fatal(err)
	}
	src := string(rulescases.GCDSource(t)) + rulescases.GCDBroken + "(hook boom (n) n)\n(rule boom E (gcd (pair v_1 v_2) n) (boom n))\n"
	l, s := loadWith(t, "gcd.sem", []byte(src), h)
	casesOnCompiled(t, l, s, rulescases.GCDCases)
	for _, tc := range rulescases.GCDFailures {
		for _, st := range stages {
			_, err := stageOf(t, s, st.stage).Eval(l, rulescases.Read(t, l, tc.Prog), interderive.Options{Fuel: 100})
			var fe *sem.FunctionError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.Want) {
				t.Errorf("%s on %s: %v, want a function error %q", tc.Prog, st.stage.Name(), err, tc.Want)
			}
		}
	}
	// boom's run-time error, at the position of its argument: 1:17, the 7 of
	// (gcd (pair 1 2) 7).
	for _, st := range stages {
		_, err := stageOf(t, s, st.stage).Eval(l, rulescases.Read(t, l, "(gcd (pair 1 2) 7)"), interderive.Options{Fuel: 100})
		var re *interderive.RuntimeError
		if !errors.As(err, &re) || re.Reason != "boom on an integer" || re.Term != "7" || re.Pos != (interderive.Pos{Line: 1, Col: 17}) {
			t.Errorf("(gcd (pair 1 2) 7) on %s: %v, want boom's run-time error at 1:17", st.stage.Name(), err)
		}
	}
	// An integer prim of the calculus's own: half, defined on even numbers only; where
	// it is not, the right-hand side cannot be built, and (half 7) is stuck, the
	// rule's prim undefined, as on the tables (a stuck shape declared for it does not
	// apply: the rule does).
	hh := sem.DefaultHooks()
	if err := hh.AddPrim(&sem.Prim{Name: "half", Arity: 1, Int: func(a []int64) (int64, bool) { return a[0] / 2, a[0]%2 == 0 }}); err != nil {
		t.Fatal(err)
	}
	lh, sh := loadWith(t, "halves.sem", []byte("(language halves)\n(sort t (integer n) (con half t))\n(kind E v)\n(value E n)\n(frame E (half (hole)))\n"+
		"(rule half E (half n) (prim half n))\n(stuck E (half n) \"half of an odd number\")\n"), hh)
	tables, _ := sem.StageOf(machine.Stage{})
	_, tablesErr := tables.Eval(lh, rulescases.Read(t, lh, "(half (half 14))"), interderive.Options{Fuel: 100})
	for _, st := range stages {
		a, err := stageOf(t, sh, st.stage).Eval(lh, rulescases.Read(t, lh, "(half 84)"), interderive.Options{Fuel: 100})
		if err != nil || sem.Format(a.Value) != "42" {
			t.Errorf("(half 84) on %s: %v, %v; want 42", st.stage.Name(), a.Value, err)
		}
		_, err = stageOf(t, sh, st.stage).Eval(lh, rulescases.Read(t, lh, "(half (half 14))"), interderive.Options{Fuel: 100})
		if err == nil || tablesErr == nil || err.Error() != tablesErr.Error() || !strings.Contains(err.Error(), "rule half: prim half is undefined here") {
			t.Errorf("(half (half 14)) on %s: %v; want the tables' %v", st.stage.Name(), err, tablesErr)
		}
	}
	if _, err := gogen.Generate(l, "gcd.sem"); err == nil || !strings.Contains(err.Error(), "the compiled engine, --engine compiled, runs it") {
		t.Errorf("derive --go of a file with its calculus's own hooks: %v, want a refusal that names the compiled engine", err)
	}
	ha := sem.DefaultHooks()
	color := &sem.AtomType{Name: "color", Samples: []any{"red"},
		Read:   func(s string, quoted bool) (any, bool) { return s, !quoted && s == "red" },
		Format: func(v any) string { return v.(string) },
		Equal:  func(a, b any) bool { return a == b }}
	if err := ha.AddAtom(color); err != nil {
		t.Fatal(err)
	}
	la, err := sem.LoadWith([]byte("(language colors)\n(sort t (atom color c))\n(kind E v)\n(value E c)\n"), ha)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gogen.Generate(la, "colors.sem"); err == nil || !strings.Contains(err.Error(), "atom type color") || !strings.Contains(err.Error(), "the compiled engine, --engine compiled, runs it") {
		t.Errorf("derive --go of a file with an atom type of its calculus's own: %v, want a refusal that names the compiled engine", err)
	}
}

// TestSameName: two rule files of one name, in different directories, both run in one
// process, each with its own rules: (inc 1) is 2 under the first, whose inc adds 1,
// and 3 under the second, whose inc adds 2. (Their plugins were one to Go, by their
// module's path, and the second was refused: "plugin already loaded".)
func TestSameName(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	for _, tc := range []struct{ add, want string }{{"1", "2"}, {"2", "3"}} {
		src := "(language same)\n(sort t (integer n) (con inc t))\n(kind E v)\n(value E n)\n(frame E (inc (hole)))\n(rule inc E (inc n) (prim add n " + tc.add + "))\n"
		l := rulescases.LoadSource(t, "same.sem", src)
		s, err := compiled.Load(l, filepath.Join(t.TempDir(), "same.sem"), "")
		if err != nil {
			t.Fatal(err)
		}
		a, err := stageOf(t, s, machine.Stage{}).Eval(l, rulescases.Read(t, l, "(inc 1)"), interderive.Options{})
		if err != nil || sem.Format(a.Value) != tc.want {
			t.Errorf("(inc 1) where inc adds %s: %v %v, want %s", tc.add, a.Value, err, tc.want)
		}
	}
}

// TestOwnHooksRandom: random programs of gcd.sem (internal/calculi/rules' generator)
// on every compiled stage, in lockstep with the tables' machine: the same events, and
// the same answer up to α-equivalence or the same error. The rules that call the hooks
// and the prim (gcd, swap) must fire in some of them.
func TestOwnHooksRandom(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	l, s := loadWith(t, "gcd.sem", rulescases.GCDSource(t), rulescases.GCDHooks(t))
	gen := rapid.Custom(func(t *rapid.T) *sem.Term { return rules.Generator{Lang: l, Depth: 5}.Draw(t) })
	n, fired := randomAgainstTables(t, s, l, func(i int) *sem.Term { return gen.Example(i) }, alike)
	if fired["gcd"] == 0 || fired["swap"] == 0 {
		t.Errorf("the rules that call the hooks fired %d (gcd) and %d (swap) times in %d programs: want both", fired["gcd"], fired["swap"], n)
	}
}

// alike reports whether two runs made the same contractions and ended alike: the same
// answer up to α-equivalence, or the same error.
func alike(a, b rulescases.Run) bool {
	return slices.Equal(a.Events, b.Events) &&
		(a.Err == nil && b.Err == nil && sem.AlphaEqual(a.Value, b.Value) ||
			a.Err != nil && b.Err != nil && a.Err.Error() == b.Err.Error())
}

// FuzzOwnHooks runs a program text, whatever it is, of gcd.sem (its hooks and prim
// the calculus's own, called back) on every compiled stage, in lockstep with the
// tables' machine (alike); a text that does not read is skipped. The seeds are
// rulescases.GCDCases and GCDFailures; go test runs them, and
//
//	go test -run XXX -fuzz FuzzOwnHooks ./internal/compiled
//
// searches further.
func FuzzOwnHooks(f *testing.F) {
	testenv.NeedCompiledEngine(f)
	l, s := loadWith(f, "gcd.sem", []byte(string(rulescases.GCDSource(f))+rulescases.GCDBroken), rulescases.GCDHooks(f))
	for _, tc := range rulescases.GCDCases {
		f.Add(tc.Prog)
	}
	for _, tc := range rulescases.GCDFailures {
		f.Add(tc.Prog)
	}
	fuzzAgainstTables(f, s, l, "gcd.sem", alike)
}

// fuzzAgainstTables runs each program text of l (read from file) on the tables'
// machine and on every compiled stage of s, in lockstep (againstTables, agree); a
// text that does not read is skipped.
func fuzzAgainstTables(f *testing.F, s *compiled.Semantics, l *sem.Language, file string, agree func(a, b rulescases.Run) bool) {
	f.Fuzz(func(t *testing.T, src string) {
		e, err := l.ReadTerm([]byte(src))
		if err != nil {
			t.Skip("not a program of " + file)
		}
		if _, d := againstTables(t, s, l, e, agree); d != "" {
			t.Error(d)
		}
	})
}

// randomAgainstTables runs the programs draw(i) (300 of them, 60 with -short) on the
// tables' machine and on every compiled stage, in lockstep (againstTables, agree),
// and stops at the first that parts; it returns how many it ran, and how many times
// each event happened on the tables.
func randomAgainstTables(t *testing.T, s *compiled.Semantics, l *sem.Language, draw func(i int) *sem.Term, agree func(a, b rulescases.Run) bool) (int, map[string]int) {
	t.Helper()
	n := 300
	if testing.Short() {
		n = 60
	}
	fired := map[string]int{}
	for i := range n {
		want, d := againstTables(t, s, l, draw(i), agree)
		if d != "" {
			t.Fatal(d)
		}
		for _, ev := range want.Events {
			fired[ev]++
		}
	}
	t.Logf("fired: %v", fired)
	return n, fired
}

// casesOnCompiled runs each case on every compiled stage of s, with 100
// contractions of fuel: its answer, printed, and its events are the case's.
func casesOnCompiled(t *testing.T, l *sem.Language, s *compiled.Semantics, cases []rulescases.GCDCase) {
	t.Helper()
	for _, tc := range cases {
		for _, st := range stages {
			var events []string
			a, err := stageOf(t, s, st.stage).Eval(l, rulescases.Read(t, l, tc.Prog), interderive.Options{Fuel: 100, OnContract: func(r string) { events = append(events, r) }})
			if err != nil || sem.Format(a.Value) != tc.Answer || !slices.Equal(events, tc.Events) {
				t.Errorf("%s on %s: %v, %v after %v; want %s after %v", tc.Prog, st.stage.Name(), a.Value, err, events, tc.Answer, tc.Events)
			}
		}
	}
}

// againstTables runs e on the tables' machine and on every compiled stage of s, with
// 200 contractions of fuel: the tables' run, and where a compiled stage's is not like
// it (agree), which stage and how ("" where every one is).
func againstTables(t testing.TB, s *compiled.Semantics, l *sem.Language, e *sem.Term, agree func(a, b rulescases.Run) bool) (rulescases.Run, string) {
	t.Helper()
	tables, _ := sem.StageOf(machine.Stage{})
	want := rulescases.RunDerived(tables, l, e, 200)
	for _, st := range stages {
		if got := rulescases.RunDerived(stageOf(t, s, st.stage), l, e, 200); !agree(got, want) {
			return want, fmt.Sprintf("%s on %s: %s, want the tables' %s", sem.Format(e), st.stage.Name(), got, want)
		}
	}
	return want, ""
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
