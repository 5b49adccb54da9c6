package differentiable

import (
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/cps2"
	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
)

// TestMain runs rapid properties with the project's number of checks.
func TestMain(m *testing.M) { testenv.Main(m) }

// The tests of this package run the language on its stages through Program.Run and
// the workbench's engines, as the command does. The registry (internal/calculi)
// imports this package, so that its tests cannot import it: they list its stages
// (stages), and an external test (registry_test.go) checks that the list is the
// registry's.

// stages are the stages of the derivation, in order, the reduction semantics first:
// internal/calculi.Stages.
func stages() []interderive.Stage {
	return []interderive.Stage{reduction.Stage{}, closures.Stage{}, machine.Stage{}, cps2.Stage{}, interp.Stage{}}
}

// newBench is a workbench of the differentiable language alone, on stages().
func newBench(t testing.TB) *workbench.Workbench {
	t.Helper()
	w, err := workbench.New([]workbench.Calculus{Calculus}, stages())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// only is the language's one mode.
var only = Calculus.Modes("")[0]

// load loads a program.
func load(t testing.TB, src string) program {
	t.Helper()
	p, err := Calculus.Load(ext, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p.(program)
}

// answer is a run's answer.
func answer(out workbench.Outcome) dpl.Answer {
	a, _ := out.Answer.(dpl.Answer)
	return a
}
