package abductive_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	abd "github.com/interderive/interderive/abductive"
	"github.com/interderive/interderive/internal/calculi"
	calculus "github.com/interderive/interderive/internal/calculi/abductive"
	"github.com/interderive/interderive/internal/cases/abductivecases"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stages are the registered stages that run the calculus, in derivation order.
func stages(t testing.TB) []interderive.Stage {
	var out []interderive.Stage
	for _, s := range calculi.Stages() {
		if calculus.Calculus.Supports(s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatal("no stage runs the abductive calculus")
	}
	return out
}

// reports collects the reports of a run.
type reports struct{ got []any }

func (*reports) Step(string)       {}
func (*reports) About(int, string) {}
func (r *reports) Report(_ int, _ string, v any, _ string) {
	r.got = append(r.got, v)
}

// run is one run of a program on a stage: its outcome, its contractions, its
// reports, its error.
type run struct {
	out     workbench.Outcome
	rules   []string
	reports []any
	err     error
}

func runOn(p workbench.Program, s interderive.Stage, opts interderive.Options) run {
	var r run
	opts.OnContract = func(rule string) { r.rules = append(r.rules, rule) }
	r.out, r.err = p.Run(s, "labelled", opts)
	return r
}

// observed is runOn with an observer that collects the run's reports, each item of
// the stage's own steps printed within a budget.
func observed(p workbench.Program, s interderive.Stage, opts interderive.Options) run {
	var obs reports
	opts.Observer = &obs
	if opts.Output == 0 {
		opts.Output = 1 << 12
	}
	r := runOn(p, s, opts)
	r.reports = obs.got
	return r
}

// tb is what lockstep needs of a test: a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// lockstep runs p on every stage and compares each with the reference (the first):
// the same contractions in the same order, the same reports, the same answer
// (calculus.Equal), or the same resource limit. It returns the reference's run.
func lockstep(t tb, p workbench.Program, all []interderive.Stage, opts interderive.Options) run {
	t.Helper()
	ref := observed(p, all[0], opts)
	if ref.err != nil && !errors.Is(ref.err, interderive.ErrResourceLimit) {
		t.Fatalf("%s: %v", all[0].Name(), ref.err)
	}
	for _, s := range all[1:] {
		r := observed(p, s, opts)
		if !slices.Equal(ref.rules, r.rules) {
			t.Fatalf("%s parts from %s:\n  %s\n  %s", s.Name(), all[0].Name(), strings.Join(ref.rules, " "), strings.Join(r.rules, " "))
		}
		if !slices.EqualFunc(ref.reports, r.reports, calculus.Calculus.Equal) {
			t.Fatalf("%s reports %v, %s reports %v", all[0].Name(), ref.reports, s.Name(), r.reports)
		}
		switch {
		case (ref.err == nil) != (r.err == nil):
			t.Fatalf("%s: %v; %s: %v", all[0].Name(), ref.err, s.Name(), r.err)
		case ref.err == nil && !calculus.Calculus.Equal(ref.out.Answer, r.out.Answer):
			t.Fatalf("%s answers %s, %s answers %s", all[0].Name(), ref.out.Value, s.Name(), r.out.Value)
		case ref.err == nil && (ref.out.Steps != len(ref.rules) || r.out.Steps != len(r.rules)):
			t.Fatalf("Steps %d, %d for %d contractions", ref.out.Steps, r.out.Steps, len(r.rules))
		}
	}
	return ref
}

func load(t testing.TB, src string) workbench.Program {
	t.Helper()
	p, err := calculus.Calculus.Load("abd", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p
}

// TestStages: the calculus runs on the five stages, in derivation order.
func TestStages(t *testing.T) {
	var names []string
	for _, s := range stages(t) {
		names = append(names, s.Name())
	}
	if want := []string{"reduction", "closures", "machine", "cps2", "interp"}; !slices.Equal(names, want) {
		t.Errorf("stages %v, want %v", names, want)
	}
}

// TestCasesLockstep: every stage, in lockstep, on the hand-derived cases.
func TestCasesLockstep(t *testing.T) {
	all := stages(t)
	for _, c := range abductivecases.Cases {
		ref := lockstep(t, load(t, c.Program), all, interderive.Options{})
		if got := strings.Join(ref.rules, " "); got != c.Rules {
			t.Errorf("%s: contractions %s, want %s", c.Name, got, c.Rules)
		}
		if ref.out.Observation != c.Observe {
			t.Errorf("%s: %s, want %s", c.Name, ref.out.Observation, c.Observe)
		}
	}
}

// TestRandomLockstep: every stage, in lockstep, on random programs.
func TestRandomLockstep(t *testing.T) {
	all := stages(t)
	rapid.Check(t, func(rt *rapid.T) {
		p := calculus.Calculus.Generate(rt, 5, "labelled")
		lockstep(rt, p, all, interderive.Options{Fuel: 5000})
	})
}

// TestProperties: the calculus's metatheory holds on random programs.
func TestProperties(t *testing.T) {
	all := stages(t)
	for _, prop := range calculus.Calculus.Properties() {
		t.Run(prop.Name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				if ce := prop.Check(rt, 5, "labelled", all); ce != nil {
					rt.Fatalf("%s: %v\n%s", prop.Failure, ce.Err, ce.Source)
				}
			})
		})
	}
}

// brokenStepper is a reference semantics with a bug: every step gives a function.
type brokenStepper struct{}

func (brokenStepper) Step(e abd.Expr, _ abd.Store) (abd.Expr, string, bool, error) {
	if abd.IsValue(e) {
		return e, "", true, nil
	}
	return &abd.Lam{Param: "x", T: abd.Field, Body: &abd.Var{Name: "x"}}, abd.RuleDelta, false, nil
}

// TestPreservationFails: the preservation property catches a step that changes the
// type.
func TestPreservationFails(t *testing.T) {
	e := &abd.Binary{Op: abd.OpAdd, X: &abd.Num{V: 1}, Y: &abd.Num{V: 2}}
	err := calculus.Preservation(brokenStepper{}, e, abd.Field, 10)
	if err == nil || !strings.Contains(err.Error(), "does not preserve the type F") {
		t.Errorf("a step from F to a function: %v", err)
	}
}

// TestPermute: permuting labels renumbers the provisional constants, and so the
// parameters' order: E4b's and X3's programs with their labels swapped (by hand: the
// parameters in the other order, the same dot product).
func TestPermute(t *testing.T) {
	e, err := abd.Parse([]byte(`let f @ p = {1} + {2} in f (2 * p)`))
	if err != nil {
		t.Fatal(err)
	}
	swapped := calculus.Permute(e, []int{2, 1})
	if s := abd.Sigma(swapped); len(s) != 2 || s[0] != 2 || s[1] != 1 {
		t.Errorf("σ after the permutation: %v, want [2 1]", s)
	}
	for _, p := range []abd.Expr{e, swapped} {
		if got := load(t, abd.Format(p)); got == nil {
			t.Fatal("no program")
		}
		a, err := stages(t)[0].(interface{ Abductive() abd.Stage }).Abductive().Eval(p, interderive.Options{})
		if err != nil || a.Observe() != "6" {
			t.Errorf("%s: %v (%v), want 6", abd.Format(p), a.Observe(), err)
		}
	}
}

// TestDecoupled: the direct-mode property's program.
func TestDecoupled(t *testing.T) {
	m, err := abd.Parse([]byte(`{2} * f + p`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := abd.Format(calculus.Decoupled(m)), `let f' @ p' = {2} * f + p in f' p'`; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}

// TestLoad: syntax and type errors are load errors of their phase, positioned.
func TestLoad(t *testing.T) {
	for _, tt := range []struct{ src, phase, pos string }{
		{"1 +", "syntax", "1:4"},
		{"let f @ p = {1} in\nf", "type", "1:1"},
		{"let x = 1 in\nx 2", "type", "2:1"},
	} {
		_, err := calculus.Calculus.Load("abd", []byte(tt.src))
		var le *workbench.LoadError
		var list interderive.ErrorList
		if !errors.As(err, &le) || le.Phase != tt.phase || !errors.As(err, &list) || list[0].Pos.String() != tt.pos {
			t.Errorf("%q: %v, want a %s error at %s", tt.src, err, tt.phase, tt.pos)
		}
	}
	if _, err := calculus.Calculus.Load("lam", []byte("1")); err == nil {
		t.Error("the abductive calculus loaded a program of another language")
	}
}

// fakeStage is a stage that runs no calculus.
type fakeStage struct{}

func (fakeStage) Name() string { return "fake" }
func (fakeStage) Doc() string  { return "" }

// TestRunRefuses: a run under an unknown semantics, or on a stage without the
// calculus, is an error, not an empty run.
func TestRunRefuses(t *testing.T) {
	p := load(t, "1")
	if _, err := p.Run(stages(t)[0], "shared", interderive.Options{}); err == nil || !strings.Contains(err.Error(), `unknown parameter semantics "shared"`) {
		t.Errorf("under shared: %v", err)
	}
	if _, err := p.Run(fakeStage{}, "labelled", interderive.Options{}); err == nil {
		t.Error("a stage without the calculus ran it")
	}
}

// long is a program of 2^24 applications (twice applied to itself 24 times): it
// ends, but not within a small budget.
const long = `let t g:F -> F x:F = g (g x) in
t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (t (\x:F. x + 1)))))))))))))))))))))))) 0`

// TestBudgets: every stage stops at the fuel, at the timeout, and at the output
// budget of its answer, with the errors that name them.
func TestBudgets(t *testing.T) {
	loop := load(t, long)
	wide := load(t, `\x:F. 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9`)
	for _, s := range stages(t) {
		var fuel *interderive.FuelError
		if r := runOn(loop, s, interderive.Options{Fuel: 100}); !errors.As(r.err, &fuel) || fuel.Steps != 100 || len(r.rules) != 100 {
			t.Errorf("%s with 100 fuel: %v after %d contractions", s.Name(), r.err, len(r.rules))
		}
		if r := runOn(loop, s, interderive.Options{Fuel: 1 << 40, Timeout: 20 * time.Millisecond}); !errors.Is(r.err, interderive.ErrTimeout) {
			t.Errorf("%s with a timeout: %v", s.Name(), r.err)
		}
		if r := runOn(wide, s, interderive.Options{Output: 16}); !errors.Is(r.err, interderive.ErrOutputLimit) {
			t.Errorf("%s printing in 16 bytes: %v", s.Name(), r.err)
		}
	}
}

// TestStuck: a term that bypassed the type checker may get stuck; every stage then
// says so with an internal error (interderive.StuckError), and does not crash.
func TestStuck(t *testing.T) {
	for _, src := range []string{`1 2`, `(\x:F. x) + 1`, `x`, `1 . 2`, `1 +L 2`, `let f @ p = 1 in p + 1`, `(\e:V. e) +L 1`} {
		e, err := abd.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stages(t) {
			st, _ := abd.StageOf(s)
			_, err := st.Eval(e, interderive.Options{})
			var stuck *interderive.StuckError
			if !errors.As(err, &stuck) {
				t.Errorf("%s on %s: %v, want stuck", src, s.Name(), err)
			}
		}
	}
}

// FuzzStages: whatever program parses, every stage runs it without crashing, to an
// answer, a resource limit or (if it is ill-typed) a stuck state; a well-typed one never
// gets stuck, and every stage runs it in lockstep with the reference.
func FuzzStages(f *testing.F) {
	testenv.AddFiles(f, corpus+"/*.abd")
	all := stages(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := abd.Parse(src)
		if err != nil {
			return
		}
		opts := interderive.Options{Fuel: 2000, Timeout: time.Second, Output: 1 << 16}
		if _, err := abd.TypeOf(e); err != nil {
			for _, s := range all {
				st, _ := abd.StageOf(s)
				if _, err := st.Eval(e, opts); err != nil && !errors.Is(err, interderive.ErrStuck) && !errors.Is(err, interderive.ErrResourceLimit) {
					t.Fatalf("%s on an ill-typed program: %v", s.Name(), err)
				}
			}
			return
		}
		lockstep(t, load(t, string(src)), all, opts)
	})
}
