package compile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/compile"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// corpus is the gradual calculi's corpus, from the repository's root.
const corpus = "../testdata/gradual"

// lockstepFuel bounds the lockstep runs: the reference semantics is quadratic, and
// the corpus has divergent programs (which run out of fuel alike on both stages).
const lockstepFuel = 20_000

// wb is the workbench of the registry, as the command has it.
func wb(t testing.TB) *workbench.Workbench {
	t.Helper()
	w, err := workbench.New(calculi.All(), calculi.Stages())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// lockstepAll runs p on the compiled stage against the reduction semantics, contraction
// by contraction, under every semantics and in every mode of each (workbench.Lockstep:
// the same contractions, the same answer up to α, the same kind of stop), and returns
// the number of runs compared.
func lockstepAll(w *workbench.Workbench, p workbench.Program, fuel int) (int, error) {
	runs := 0
	for _, sem := range gradual.Semantics() {
		for _, mode := range gradual.Calculus.Modes(sem.Name()) {
			_, d := w.Lockstep(gradual.Calculus, p, []interderive.Stage{reduction.Stage{}, compile.Stage{}}, sem.Name(), mode, fuel)
			if d != nil {
				return runs, d
			}
			runs++
		}
	}
	return runs, nil
}

// TestRegistered: the registry has the stage after interp, and the gradual calculi
// have it; a calculus without the artefact does not (and keeps its stages).
func TestRegistered(t *testing.T) {
	w := wb(t)
	names := w.StageNames()
	if len(names) < 2 || names[len(names)-1] != "compile" || names[len(names)-2] != "interp" {
		t.Errorf("registered stages %v, want compile after interp, last", names)
	}
	for _, c := range w.Calculi() {
		has := false
		for _, s := range w.StagesOf(c) {
			has = has || s.Name() == "compile"
		}
		_, ok := g.StageOf(compile.Stage{})
		if c.Name() == "gradual" && (!has || !ok) {
			t.Errorf("the gradual calculi lack the compile stage")
		}
		if c.Name() == "dpl" && has {
			t.Errorf("the differentiable language has a compile stage it has no artefact for")
		}
	}
}

// TestCorpusLockstep: every program of the gradual corpus that loads runs on the
// compiled stage in lockstep with the reduction semantics, under every semantics, in
// every mode.
func TestCorpusLockstep(t *testing.T) {
	w := wb(t)
	files, err := filepath.Glob(filepath.Join(corpus, "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(corpus, "examples", "*.*"))
	files = append(files, more...)
	fuel := lockstepFuel
	if testing.Short() {
		fuel = 1_000 // the reduction semantics is quadratic in a run's length
	}
	runs, loaded := 0, 0
	for _, file := range files {
		ext := strings.TrimPrefix(filepath.Ext(file), ".")
		if ext != "gtlc" && ext != "cast" {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := gradual.Calculus.Load(ext, src)
		if err != nil {
			continue // a type error, checked by check
		}
		loaded++
		n, err := lockstepAll(w, p, fuel)
		if err != nil {
			t.Errorf("%s: %v", file, err)
		}
		runs += n
	}
	if loaded < 60 {
		t.Errorf("%d programs of the corpus loaded, want the corpus (60 or more)", loaded)
	}
	t.Logf("%d programs, %d lockstep runs", loaded, runs)
}

// TestRandomLockstep: random well-typed programs (gradualgen, through the calculus's
// generator) run on the compiled stage in lockstep with the reduction semantics, under
// every semantics, in every mode.
func TestRandomLockstep(t *testing.T) {
	w := wb(t)
	rapid.Check(t, func(rt *rapid.T) {
		sem := rapid.SampledFrom(gradual.Semantics()).Draw(rt, "semantics")
		p := gradual.Calculus.Generate(rt, 5, sem.Name())
		if _, err := lockstepAll(w, p, 5_000); err != nil {
			rt.Fatalf("%v", err)
		}
	})
}

// answer runs a cast-calculus or GTLC program on the compiled stage under ED.
func answer(t *testing.T, lang, src string, opts interderive.Options) (g.Answer, error) {
	t.Helper()
	p, err := gradual.Calculus.Load(lang, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	term := p.(interface{ Term() g.Expr }).Term()
	return compile.EvalCast(g.ED, g.Translate(g.ED, term), opts)
}

// loop counts down from n: 3 contractions an iteration (delta for n = 0, If, delta
// for n - 1, beta and Letrec: 5) — derived in TestFuel.
const loop = `letrec loop:Int -> Int = \n:Int. if n = 0 then 0 else loop (n - 1) in loop `

// TestFuel: the fuel is spent contraction by contraction, with an observer of the
// contractions and without (where the code counts corridors at once): a budget one
// short of the run's contractions stops it after exactly that many, the run's own
// budget lets it answer. loop 3 makes Letrec, then per call beta and Letrec, and per
// iteration delta (n = 0), If, and but for the last delta (n - 1): 1 + 4 × 2 + 3 × 3
// + 2 = 1 + 8 + 9 + 2 = 20.
func TestFuel(t *testing.T) {
	const want = 20
	for _, watched := range []bool{false, true} {
		for _, fuel := range []int{want - 1, want, 1, 2, 3, 7} {
			steps := 0
			opts := interderive.Options{Fuel: fuel}
			if watched {
				opts.OnContract = func(string) { steps++ }
			}
			a, err := answer(t, "gtlc", loop+"3", opts)
			var fe *interderive.FuelError
			switch {
			case fuel >= want:
				if err != nil || a.Observe() != "0" {
					t.Errorf("watched %v, fuel %d: %v, %v; want 0", watched, fuel, a.Observe(), err)
				}
			case !errors.As(err, &fe) || fe.Steps != fuel:
				t.Errorf("watched %v, fuel %d: %v, want out of fuel after %d contractions", watched, fuel, err, fuel)
			}
			if watched && steps != min(fuel, want) {
				t.Errorf("fuel %d: %d contractions reported, want %d", fuel, steps, min(fuel, want))
			}
		}
	}
}

// TestTimeout: a divergent loop stops at its timeout, watched or not, and says how
// many contractions it made.
func TestTimeout(t *testing.T) {
	const diverge = `letrec f:Int -> Int = \n:Int. f (n + 1) in f 0`
	for _, watched := range []bool{false, true} {
		opts := interderive.Options{Fuel: 1 << 62, Timeout: 50 * time.Millisecond}
		if watched {
			opts.OnContract = func(string) {}
		}
		start := time.Now()
		_, err := answer(t, "gtlc", diverge, opts)
		var te *interderive.TimeoutError
		if !errors.As(err, &te) || te.Steps == 0 {
			t.Errorf("watched %v: %v, want a timeout after the contractions made", watched, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("watched %v: stopped after %s, want about 50ms", watched, d)
		}
	}
}

// TestTailCalls: calls in tail position run in constant space — a million iterations
// of a loop (100,000 with -short), and as many calls of a function through Dyn in the
// merging mode, stay far from the depth bound.
func TestTailCalls(t *testing.T) {
	n := "1000000"
	if testing.Short() {
		n = "100000"
	}
	if a, err := answer(t, "gtlc", loop+n, interderive.Options{Fuel: 1 << 30}); err != nil || a.Observe() != "0" {
		t.Errorf("loop %s: %v, %v; want 0", n, a.Observe(), err)
	}
	// even n through Dyn: n = 0 gives true, injected (dynamic).
	dyn := `letrec even:Dyn -> Dyn = \n:Dyn. if n = 0 then true else even (n - 1) in even ` + n
	p, err := gradual.Calculus.Load("gtlc", []byte(dyn))
	if err != nil {
		t.Fatal(err)
	}
	term := p.(interface{ Term() g.Expr }).Term()
	for _, sem := range []g.Semantics{g.LD, g.LUD} {
		a, err := compile.EvalCast(sem, g.Translate(sem, term), interderive.Options{Fuel: 1 << 30, Merging: interderive.Merged})
		if err != nil || a.Observe() != "dynamic" {
			t.Errorf("%s merged, even %s through Dyn: %v, %v; want dynamic", sem.Name(), n, a.Observe(), err)
		}
	}
}

// TestDepthBound: a recursion that is not a tail call stops at the depth bound, an
// *interderive.DepthError, and only there: with a bound of 1,000, sum 100 (depth 4 a
// level: the call is under the if's else and the +, and the call's own 2) answers
// 5050, and sum 1000 stops.
func TestDepthBound(t *testing.T) {
	const sum = `letrec sum:Int -> Int = \n:Int. if n = 0 then 0 else n + sum (n - 1) in sum `
	for _, tt := range []struct {
		n, want string
	}{{"100", "5050"}, {"1000", ""}} {
		p, err := gradual.Calculus.Load("gtlc", []byte(sum+tt.n))
		if err != nil {
			t.Fatal(err)
		}
		e := g.Translate(g.ED, p.(interface{ Term() g.Expr }).Term())
		a, err := compile.EvalCastDepth(g.ED, e, interderive.Options{}, 1000)
		switch {
		case tt.want != "" && (err != nil || a.Observe() != tt.want):
			t.Errorf("sum %s: %v, %v; want %s", tt.n, a.Observe(), err, tt.want)
		case tt.want == "" && !errors.Is(err, interderive.ErrTooDeep):
			t.Errorf("sum %s: %v, %v; want the depth bound", tt.n, a.Observe(), err)
		}
	}
}

// TestStuck: terms no type checker let through (built here by the parser alone) get
// the compiled stage stuck, an internal error that names what has no transition,
// where the other stages get stuck too.
func TestStuck(t *testing.T) {
	for _, tt := range []struct{ src, reason string }{
		{`1 2`, "application of a non-function"},
		{`if 1 then 2 else 3`, "if on a non-boolean"},
		{`if 1 < true then 2 else 3`, "< applied to ill-typed values"},
		{`inc true`, "inc applied to ill-typed values"},
		{`true + 1`, "+ applied to ill-typed values"},
		{`(\x:Int. x + 1) true`, "+ applied to ill-typed values"},
		{`letrec f:Int -> Int = \n:Int. f (n - true) in f 1`, "- applied to ill-typed values"},
		{`x`, "unbound variable x"},
		{`(\x:Int. y) 1`, "unbound variable y"},
	} {
		e, err := g.Parse([]byte(tt.src), g.CastCalculus)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		for _, watched := range []bool{false, true} {
			opts := interderive.Options{}
			if watched {
				opts.OnContract = func(string) {}
			}
			_, err = compile.EvalCast(g.ED, e, opts)
			var s *interderive.StuckError
			if !errors.As(err, &s) || !strings.Contains(s.Reason, tt.reason) {
				t.Errorf("%s (watched %v): %v, want stuck: %s", tt.src, watched, err, tt.reason)
			}
		}
	}
}

// TestFuelUnwatched: without an observer the compiled code counts corridors of
// contractions at once (and functions compiled for integers count their own), yet
// spends the fuel contraction by contraction: for every program of the corpus under
// every standard semantics, unmerged, with N the number of contractions the reduction
// semantics makes (an independent count), the compiled stage answers as it does with
// fuel N, and stops after exactly k contractions with fuel k < N.
func TestFuelUnwatched(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "*.gtlc"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := gradual.Calculus.Load("gtlc", src)
		if err != nil {
			continue
		}
		term := p.(interface{ Term() g.Expr }).Term()
		for _, sem := range g.Standard() {
			e := g.Translate(sem, term)
			n := 0
			count := interderive.Options{Fuel: 5_000, Merging: interderive.Unmerged, OnContract: func(string) { n++ }}
			ref, err := reduction.Stage{}.Gradual().Eval(sem, e, count)
			if err != nil {
				continue // out of fuel: not a run to count
			}
			for _, fuel := range []int{n, n - 1, n / 2, 1} {
				if fuel < 1 {
					continue
				}
				a, err := compile.EvalCast(sem, e, interderive.Options{Fuel: fuel, Merging: interderive.Unmerged})
				var fe *interderive.FuelError
				switch {
				case fuel == n && (err != nil || a.Observe() != ref.Observe()):
					t.Errorf("%s under %s, fuel %d: %v, %v; want %s", file, sem.Name(), fuel, a.Observe(), err, ref.Observe())
				case fuel < n && (!errors.As(err, &fe) || fe.Steps != fuel):
					t.Errorf("%s under %s, fuel %d of %d: %v, want out of fuel after %d", file, sem.Name(), fuel, n, err, fuel)
				}
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("%d runs checked, want the corpus's (100 or more)", checked)
	}
}
