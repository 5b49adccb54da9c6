package lambda_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	calculus "github.com/interderive/interderive/internal/calculi/lambda"
	"github.com/interderive/interderive/internal/cases/lambdacases"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	lam "github.com/interderive/interderive/lambda"
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
		t.Fatal("no stage runs the λ-calculus")
	}
	return out
}

// run is one run of a program on a stage: its outcome, its contractions, its error.
type run struct {
	out   workbench.Outcome
	rules []string
	err   error
}

func runOn(p workbench.Program, s interderive.Stage, opts interderive.Options) run {
	var r run
	opts.OnContract = func(rule string) { r.rules = append(r.rules, rule) }
	r.out, r.err = p.Run(s, "cbv", opts)
	return r
}

// lockstep runs p on every stage and compares each with the reference (the first):
// the same contractions in the same order, the same answer (calculus.Equal), or the
// same resource limit. It returns the reference's run.
func lockstep(t tb, p workbench.Program, all []interderive.Stage, opts interderive.Options) run {
	t.Helper()
	ref := runOn(p, all[0], opts)
	if ref.err != nil && !errors.Is(ref.err, interderive.ErrResourceLimit) {
		t.Fatalf("%s: %v", all[0].Name(), ref.err)
	}
	for _, s := range all[1:] {
		r := runOn(p, s, opts)
		if i := firstDifference(ref.rules, r.rules); i >= 0 {
			t.Fatalf("%s parts from %s at contraction %d:\n  %s\n  %s", s.Name(), all[0].Name(), i+1,
				strings.Join(ref.rules, " "), strings.Join(r.rules, " "))
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

// tb is what lockstep needs of a test: a *testing.T or a *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// firstDifference is the index of the first contraction where a and b differ, or -1.
func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func load(t testing.TB, src string) workbench.Program {
	t.Helper()
	p, err := calculus.Calculus.Load("lam", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p
}

// TestStages: the calculus runs on the six stages, in derivation order, the reduction
// semantics first.
func TestStages(t *testing.T) {
	var names []string
	for _, s := range stages(t) {
		names = append(names, s.Name())
	}
	if want := []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}; !slices.Equal(names, want) {
		t.Errorf("stages %v, want %v", names, want)
	}
}

// TestCasesLockstep: every stage, in lockstep, on the hand-derived cases: their
// observations and whole contraction sequences.
func TestCasesLockstep(t *testing.T) {
	all := stages(t)
	for _, c := range lambdacases.Cases {
		ref := lockstep(t, load(t, c.Program), all, interderive.Options{})
		if got := strings.Join(ref.rules, " "); got != c.Rules {
			t.Errorf("%s: contractions %s, want %s", c.Name, got, c.Rules)
		}
		if ref.out.Observation != c.Observe {
			t.Errorf("%s: %s, want %s", c.Name, ref.out.Observation, c.Observe)
		}
	}
}

// TestRandomLockstep: every stage, in lockstep, on random programs (those that loop
// stop at the same fuel on every stage, having made the same contractions).
func TestRandomLockstep(t *testing.T) {
	all := stages(t)
	rapid.Check(t, func(rt *rapid.T) {
		p := calculus.Calculus.Generate(rt, 5, "cbv")
		lockstep(rt, p, all, interderive.Options{Fuel: 2000})
	})
}

// TestProperties: the calculus's metatheory holds on random programs.
func TestProperties(t *testing.T) {
	all := stages(t)
	for _, prop := range calculus.Calculus.Properties() {
		t.Run(prop.Name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				if ce := prop.Check(rt, 5, "cbv", all); ce != nil {
					rt.Fatalf("%s: %v\n%s", prop.Failure, ce.Err, ce.Source)
				}
			})
		})
	}
}

// brokenStepper is a reference semantics with a bug: its delta gives a function.
type brokenStepper struct{}

func (brokenStepper) Step(e lam.Expr) (lam.Expr, string, bool, error) {
	if lam.IsValue(e) {
		return e, "", true, nil
	}
	return &lam.Lam{Param: "x", T: lam.Int, Body: &lam.Var{Name: "x"}}, lam.RuleDelta, false, nil
}

// TestPreservationFails: the preservation property catches a step that changes the
// type.
func TestPreservationFails(t *testing.T) {
	err := calculus.Preservation(brokenStepper{}, &lam.Binary{Op: lam.OpAdd, X: &lam.IntLit{N: 1}, Y: &lam.IntLit{N: 2}}, lam.Int, 10)
	if err == nil || !strings.Contains(err.Error(), "does not preserve the type Int") {
		t.Errorf("a step from Int to a function: %v", err)
	}
}

// TestLoad: syntax and type errors are load errors of their phase, positioned.
func TestLoad(t *testing.T) {
	for _, tt := range []struct{ src, phase, pos string }{
		{"1 +", "syntax", "1:4"},
		{"let x = 1 in\nx 2", "type", "2:1"},
	} {
		_, err := calculus.Calculus.Load("lam", []byte(tt.src))
		var le *workbench.LoadError
		var list interderive.ErrorList
		if !errors.As(err, &le) || le.Phase != tt.phase || !errors.As(err, &list) || list[0].Pos.String() != tt.pos {
			t.Errorf("%q: %v, want a %s error at %s", tt.src, err, tt.phase, tt.pos)
		}
	}
	if _, err := calculus.Calculus.Load("gtlc", []byte("1")); err == nil {
		t.Error("the λ-calculus loaded a program of another language")
	}
}

// fakeStage is a stage that runs no calculus.
type fakeStage struct{}

func (fakeStage) Name() string { return "fake" }
func (fakeStage) Doc() string  { return "" }

// TestRunRefuses: a run under an unknown evaluation order, or on a stage without the
// calculus, is an error, not an empty run.
func TestRunRefuses(t *testing.T) {
	p := load(t, "1")
	if _, err := p.Run(stages(t)[0], "cbn", interderive.Options{}); err == nil || !strings.Contains(err.Error(), `unknown evaluation order "cbn"`) {
		t.Errorf("under cbn: %v", err)
	}
	if _, err := p.Run(fakeStage{}, "cbv", interderive.Options{}); err == nil {
		t.Error("a stage without the calculus ran it")
	}
}

// TestBudgets: every stage stops at the fuel, at the timeout, and at the output
// budget of its answer, with the errors that name them.
func TestBudgets(t *testing.T) {
	loop := load(t, `letrec loop:Int -> Int = \n:Int. loop (n + 1) in loop 0`)
	long := load(t, `\x:Int. 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9`)
	for _, s := range stages(t) {
		var fuel *interderive.FuelError
		if r := runOn(loop, s, interderive.Options{Fuel: 100}); !errors.As(r.err, &fuel) || fuel.Steps != 100 || len(r.rules) != 100 {
			t.Errorf("%s with 100 fuel: %v after %d contractions", s.Name(), r.err, len(r.rules))
		}
		if r := runOn(loop, s, interderive.Options{Fuel: 1 << 40, Timeout: 20 * time.Millisecond}); !errors.Is(r.err, interderive.ErrTimeout) {
			t.Errorf("%s with a timeout: %v", s.Name(), r.err)
		}
		if r := runOn(long, s, interderive.Options{Output: 16}); !errors.Is(r.err, interderive.ErrOutputLimit) {
			t.Errorf("%s printing in 16 bytes: %v", s.Name(), r.err)
		}
	}
}

// lines records an observer's lines, each prefixed by its kind.
type lines struct{ got []string }

func (l *lines) Step(line string)                { l.got = append(l.got, "step "+line) }
func (l *lines) About(n int, line string)        { l.got = append(l.got, "about "+line) }
func (l *lines) Report(int, string, any, string) { l.got = append(l.got, "report") }

// TestObserved: what the stages show an observer besides their contractions, for
// (\x:Int. x + 1) 41, written out by hand from each stage's definition: the reduction
// semantics' decompositions, contracta and plugged terms; the calculus of closures'
// environment steps and decompositions, its environments named; the machine's states.
func TestObserved(t *testing.T) {
	p := load(t, `(\x:Int. x + 1) 41`)
	want := map[string][]string{
		"reduction": {
			`step decompose: []  with redex  (\x:Int. x + 1) 41`,
			`about contract:  41 + 1`,
			`about plug:      41 + 1`,
			`step decompose: []  with redex  41 + 1`,
			`about contract:  42`,
			`about plug:      42`,
		},
		"closures": {
			`step expand: ((\x:Int. x + 1) 41)[ε]  ~>  ((\x:Int. x + 1)[ε]) · (41[ε])`,
			`step ρ1 = (x ↦ 41[ε]) : ε`,
			`step decompose: []  with redex  ((\x:Int. x + 1)[ε]) · (41[ε])`,
			`step contract:  (x + 1)[ρ1]`,
			`step expand: (x + 1)[ρ1]  ~>  (x[ρ1]) + (1[ρ1])`,
			`step lookup: x[ρ1]  ~>  41[ε]`,
			`step decompose: []  with redex  (41[ε]) + (1[ρ1])`,
			`step contract:  42[ε]`,
		},
		"machine": {
			"step eval       (\\x:Int. x + 1) 41  ρ={}\n           K=[]",
			"step eval       \\x:Int. x + 1  ρ={}\n           K=[[] 41]",
			"step continue   \\x:Int. x + 1\n           K=[[] 41]",
			"step eval       41  ρ={}\n           K=[\\x:Int. x + 1 []]",
			"step continue   41\n           K=[\\x:Int. x + 1 []]",
			"step eval       x + 1  ρ={x ↦ 41}\n           K=[]",
			"step eval       x  ρ={x ↦ 41}\n           K=[[] + 1]",
			"step continue   41\n           K=[[] + 1]",
			"step eval       1  ρ={x ↦ 41}\n           K=[41 + []]",
			"step continue   1\n           K=[41 + []]",
			"step continue   42\n           K=[]",
		},
		"cps2":   nil,
		"interp": nil,
	}
	for _, s := range stages(t) {
		var obs lines
		if _, err := p.Run(s, "cbv", interderive.Options{Observer: &obs}); err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if w := want[s.Name()]; !slices.Equal(obs.got, w) {
			t.Errorf("%s shows\n  %s\nwant\n  %s", s.Name(), strings.Join(obs.got, "\n  "), strings.Join(w, "\n  "))
		}
	}
}

// TestStuck: a term that bypassed the type checker may get stuck; every stage then
// says so with an internal error (interderive.StuckError), naming itself, and does not
// crash.
func TestStuck(t *testing.T) {
	for _, src := range []string{`1 2`, `(\x:Int. x) + 1`, `if0 (\x:Int. x) then 1 else 2`, `x`, `let y = 1 in y z`} {
		e, err := lam.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range stages(t) {
			st, _ := lam.StageOf(s)
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
	testenv.AddFiles(f, corpus+"/*.lam")
	all := stages(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		e, err := lam.Parse(src)
		if err != nil {
			return
		}
		opts := interderive.Options{Fuel: 2000, Timeout: time.Second, Output: 1 << 16}
		if _, err := lam.TypeOf(e); err != nil {
			for _, s := range all {
				st, _ := lam.StageOf(s)
				if _, err := st.Eval(e, opts); err != nil && !errors.Is(err, interderive.ErrStuck) && !errors.Is(err, interderive.ErrResourceLimit) {
					t.Fatalf("%s on an ill-typed program: %v", s.Name(), err)
				}
			}
			return
		}
		lockstep(t, load(t, string(src)), all, opts)
	})
}
