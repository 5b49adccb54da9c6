package gradual

import (
	"fmt"
	"os"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"pgregory.net/rapid"
)

// mergedAgree checks one program under the semantics named variant: in the merging
// mode every stage performs the reduction semantics' contractions and reaches its
// answer (workbench.Lockstep), and the merged answer is the unmerged one where
// merging preserves answers.
func mergedAgree(w *workbench.Workbench, p workbench.Program, sem g.Semantics, fuel int) error {
	ref, d := w.Lockstep(Calculus, p, stages(), sem.Name(), merged, fuel)
	if d != nil {
		return d
	}
	plain := runOn(p, stages()[0], sem.Name(), interderive.Options{Fuel: fuel * 4, Merging: interderive.Unmerged})
	// Merging never changes the answer (when both modes reach one) under the
	// semantics where composition is associative.
	if a, ok := referenceAnswer(ref); ok && g.MergesSafely(sem) && plain.err == nil && !Calculus.Equal(a, plain.answer) {
		return fmt.Errorf("merged answer %s, unmerged %s", a, plain.answer)
	}
	return nil
}

func TestMergedStagesAgreeOnCorpus(t *testing.T) {
	w := newBench(t)
	files, err := w.SourceFiles([]string{"../../../testdata/gradual"})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range testenv.Sample(files) {
		c, l, err := w.LanguageFor(file, "")
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := c.Load(l.Ext, src)
		if err != nil {
			continue // a type error, on purpose
		}
		for _, sem := range g.Standard() {
			if err := mergedAgree(w, prog, sem, 20000); err != nil {
				t.Errorf("%s, %s: %v", file, sem.Name(), err)
			}
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("no corpus program ran")
	}
}

func TestMergedStagesAgree(t *testing.T) {
	w := newBench(t)
	for _, sem := range g.Standard() {
		t.Run(sem.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				e := gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem), Depth: 5})
				if err := mergedAgree(w, castProgram(e), sem, 3000); err != nil {
					t.Fatalf("%v\nprogram: %s", err, g.Format(e))
				}
			})
		})
	}
}

// tailCasts is a tail-recursive loop whose every call sits under two casts, Bool to
// Dyn and back: without merging, the pending casts pile up in the context
// (<Bool!> <Bool?^l> <Bool!> ...); with merging they stay one normal coercion.
func tailCasts(n int) g.Expr {
	src := fmt.Sprintf(`letrec f: Int -> Dyn = \n:Int. if zero? n then (true : Dyn) else ((f (dec n) : Bool)^l : Dyn) in f %d`, n)
	e, err := g.Parse([]byte(src), g.GTLC)
	if err != nil {
		panic(err)
	}
	c, _, err := g.InsertCasts(e)
	if err != nil {
		panic(err)
	}
	return c
}

// TestMergingRunsInConstantSpace measures the machine's meta-continuation and the
// interpreter's recursion on the loop at two sizes: merged, they do not grow with n;
// unmerged, the machine's stack grows linearly. The machine's environment frames
// (machine.State.Frames: f's calls make no closure) stay as few in both modes: each
// call is in tail position, under coercion frames only.
func TestMergingRunsInConstantSpace(t *testing.T) {
	for k, sem := range g.Standard() {
		frames := map[interderive.Merging]map[int]int{interderive.Merged: {}, interderive.Unmerged: {}}
		stack := func(n int, mode interderive.Merging) int {
			m := machine.New(sem, interderive.Options{Merging: mode})
			deepest := 0
			m.Trace = func(s *machine.State) {
				deepest = max(deepest, len(s.K))
				frames[mode][n] = max(frames[mode][n], s.Frames.Top())
			}
			a, err := m.Run(g.Translate(sem, tailCasts(n)))
			if err != nil || a.ToAnswer().Observe() != "dynamic" {
				t.Fatalf("%s, n = %d: %v, %v", sem.Name(), n, a, err)
			}
			return deepest
		}
		if small, large := stack(100, interderive.Merged), stack(1000, interderive.Merged); small != large {
			t.Errorf("%s merged: the machine's stack reaches %d frames at n = 100 but %d at n = 1000", sem.Name(), small, large)
		}
		if small, large := stack(100, interderive.Unmerged), stack(1000, interderive.Unmerged); large < 5*small {
			t.Errorf("%s unmerged: the stack should grow with n (%d at 100, %d at 1000)", sem.Name(), small, large)
		}
		for mode, top := range frames {
			if top[1000] > 2 {
				t.Errorf("%s, merging %v: %d environment frames in use at n = 1000 (%d at n = 100), want at most 2", sem.Name(), mode, top[1000], top[100])
			}
		}

		// The interpreter makes tail calls through merged casts in its loop: far more
		// iterations than its recursion bound allow if they nested (under -short under
		// the first semantics only; the full run checks every one).
		if testing.Short() && k > 0 {
			continue
		}
		p := program{lang: gtlc, source: tailCasts(3 * interp.MaxDepth), term: tailCasts(3 * interp.MaxDepth)}
		out, err := p.Run(interp.Stage{}, sem.Name(), interderive.Options{Merging: interderive.Merged})
		if err != nil || out.Observation != "dynamic" {
			t.Errorf("%s: interp on %d merged tail calls: %v, %v", sem.Name(), 3*interp.MaxDepth, out.Observation, err)
		}
	}
}

// TestMergingEagerCounterexample pins the actual behaviour on the program that shows
// why the eager semantics do not merge by default (gradual.MergesSafely). Derivation,
// ED and EUD (the casts translate alike in both strategies):
//
//	c1 = <<Dyn->Int <= Int->Int>>^l1 = Int?^l1 -> id
//	c2 = <<Bool->Int <= Dyn->Int>>^l2 = Bool! -> id
//	c3 = <<Dyn->Dyn <= Bool->Int>>^l3 = Bool?^l3 -> Int!
//
// Unmerged, c1 wraps the lambda, then c2 composes: (Bool! ; Int?^l1) -> (id ; id)
// -> fail^l1 -> id -> (FailL) fail^l1: blame l1. Merged, c2 ; c3 composes first:
// (Bool?^l3 ; Bool!) -> Int!, and then c1 ; that gives (Bool?^l3 ; fail^l1) -> Int!,
// a normal wrapper: the program is a function. The lazy semantics give that function
// in both modes.
func TestMergingEagerCounterexample(t *testing.T) {
	p := parseCast(t, `<Dyn -> Dyn <= Bool -> Int>^l3 <Bool -> Int <= Dyn -> Int>^l2 <Dyn -> Int <= Int -> Int>^l1 (\x:Int. x)`)
	want := map[string][2]string{ // semantics -> unmerged, merged
		"ld": {"function", "function"}, "lud": {"function", "function"},
		"ed": {"blame l1", "function"}, "eud": {"blame l1", "function"},
	}
	for _, sem := range g.Standard() {
		for _, st := range stages() {
			for i, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
				out, err := p.Run(st, sem.Name(), interderive.Options{Fuel: 1000, Merging: mode})
				if err != nil || out.Observation != want[sem.Name()][i] {
					t.Errorf("%s, %s, %s: %s %v, want %s", sem.Name(), st.Name(), mode, out.Observation, err, want[sem.Name()][i])
				}
			}
		}
		if got := g.MergesSafely(sem); got != (sem.Name() == "ld" || sem.Name() == "lud") {
			t.Errorf("MergesSafely(%s) = %v", sem.Name(), got)
		}
	}
}
