package workbench

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/interderive/interderive"
)

// offEngine is a counter whose stages wrong and stuck do not run under the variant
// one on the engine "compiled" (EngineRefuser), as the compiled engine runs no
// compile stage of a rule file.
type offEngine struct{ *counter }

var errOffEngine = errors.New("the engine has no such stage")

func (offEngine) RefusesOn(s interderive.Stage, variant, engine string) error {
	if engine == interderive.EngineCompiled && variant == "one" && (s == wrongStage || s == stuckStage) {
		return fmt.Errorf("%s: %w", s.Name(), errOffEngine)
	}
	return nil
}

// TestEngineRefusal: a stage an engine does not run is left out, never failed: run's
// default stage is the last the engine runs, a stage named that it does not run is an
// error, compare skips it (the disagreements of wrong and stuck on 7 are not seen),
// and check plans no run on it and counts the runs it skips.
func TestEngineRefusal(t *testing.T) {
	c := offEngine{newCounter()}
	w := newBench(t, c)
	compiled := interderive.EngineCompiled
	for _, tc := range []struct {
		variant, name, engine, want string
	}{
		{"one", "", compiled, "quiet"},
		{"two", "", compiled, "stuck"},
		{"one", "", interderive.EngineTables, "stuck"},
		{"one", "wrong", interderive.EngineTables, "wrong"},
		{"one", "ref", compiled, "ref"},
	} {
		s, err := w.StageUnder(c, tc.variant, tc.name, tc.engine)
		if err != nil || s.Name() != tc.want {
			t.Errorf("StageUnder(%s, %q, %s): %v, %v; want %s", tc.variant, tc.name, tc.engine, s, err, tc.want)
		}
	}
	if _, err := w.StageUnder(c, "one", "wrong", compiled); !errors.Is(err, errOffEngine) {
		t.Errorf("StageUnder of a stage the engine does not run: %v, want its refusal", err)
	}

	cmp, err := w.Compare(c, load(t, c, "count", "7"), []string{"one"}, "", interderive.Options{Engine: compiled})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Disagreements) != 0 {
		t.Errorf("compare on the engine: disagreements %v, want none (wrong and stuck left out)", cmp.Disagreements)
	}
	var skipped []string
	for _, s := range cmp.Skipped {
		skipped = append(skipped, s.Stage)
	}
	if !slices.Equal(skipped, []string{"wrong", "stuck"}) {
		t.Errorf("compare on the engine skipped %v, want wrong, stuck", skipped)
	}

	p, err := w.PlanCheck("f", []byte("-- expect: done after 3\n3"), c, "count", CheckOptions{Engine: compiled})
	if err != nil {
		t.Fatal(err)
	}
	// 4 stages × 3 (variant, mode) pairs, less wrong's and stuck's two under one.
	if len(p.Runs) != 8 {
		t.Errorf("check on the engine plans %d runs, want 8: %v", len(p.Runs), p.Runs)
	}
	want := []Skip{{Stage: "wrong", Reason: "wrong: " + errOffEngine.Error(), Runs: 2}, {Stage: "stuck", Reason: "stuck: " + errOffEngine.Error(), Runs: 2}}
	if !slices.Equal(p.Skipped, want) {
		t.Errorf("check on the engine skips %v, want %v", p.Skipped, want)
	}
}

// TestLockstepOn: on an engine, the stages after the reference run on it and the
// reference on the tables, so that an engine's bug is found on the reference stage
// itself (the counter of 11 makes a second contraction of its own on the compiled
// engine: fake_test.go), and named with its engine; on the tables, nothing differs.
func TestLockstepOn(t *testing.T) {
	w, c := newBench(t), newCounter()
	compiled := interderive.EngineCompiled
	stages := []interderive.Stage{refStage, refStage, quietStage}
	if _, d := w.Lockstep(c, load(t, c, "count", "11"), stages, "one", plain, DefaultLockstepFuel); d != nil {
		t.Errorf("lockstep on the tables: %v", d)
	}
	if _, d := w.LockstepOn(c, load(t, c, "count", "10"), stages, "one", plain, DefaultLockstepFuel, compiled); d != nil {
		t.Errorf("lockstep on the engine of a program it runs right: %v", d)
	}
	_, d := w.LockstepOn(c, load(t, c, "count", "11"), stages, "one", plain, DefaultLockstepFuel, compiled)
	if want := "ref on the compiled engine under one (plain): contraction 2 is dec-compiled, but ref's is dec"; d == nil || d.Error() != want {
		t.Errorf("lockstep on the engine: %v, want %q", d, want)
	}
}

// TestPlanFuzzEngine: fuzz --engine takes the engines' names only, and on an engine
// lockstep runs the reference on the tables and then every stage the engine runs,
// the reference stage included.
func TestPlanFuzzEngine(t *testing.T) {
	c := offEngine{newCounter()}
	w := newBench(t, c)
	if _, err := w.PlanFuzz(FuzzOptions{Size: 5, Engine: "jit"}); err == nil || err.Error() != `unknown engine "jit": --engine takes tables, compiled` {
		t.Errorf("fuzz --engine jit: %v, want an unknown engine", err)
	}
	plans, err := w.PlanFuzz(FuzzOptions{Size: 5, Engine: interderive.EngineCompiled})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range plans[0].lockstep["one"] {
		names = append(names, s.Name())
	}
	if want := []string{"ref", "ref", "quiet"}; !slices.Equal(names, want) {
		t.Errorf("lockstep's stages on the engine under one: %v, want %v", names, want)
	}
	plans, _ = w.PlanFuzz(FuzzOptions{Size: 5, Engine: interderive.EngineTables})
	if got := plans[0].lockstep["one"]; len(got) != 4 {
		t.Errorf("lockstep's stages on the tables: %v, want the four", got)
	}
}
