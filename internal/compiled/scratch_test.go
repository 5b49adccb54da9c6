package compiled_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/workbench"
)

// TestScratch: the generated package keeps what a run fills and drops (its
// constants, its table of closed nodes, the chunks of its stack of entries, its
// stack of frames) for the runs after it (rt/engine.go.txt's scratch). No run sees
// another's: the programs of testdata/gradual under ed.sem, run on the compiled
// machine and interpreter one after the other (each after a different one) and then
// on two goroutines at once, in opposite orders, give each the outcome and the
// events of their run on the tables.
func TestScratch(t *testing.T) {
	_, c := registered(t, "gradual")
	variant := filepath.Join(filepath.Dir(rulescases.Testdata(t)), "gradual", "rules", "ed.sem")
	type job struct {
		name string
		p    workbench.Program
		st   interderive.Stage
		want run
	}
	var jobs []job
	for _, p := range gradualPrograms(t, c) {
		for _, st := range stages[2:] { // the machine, the CPS evaluator, the interpreter, the compiled one
			jobs = append(jobs, job{p.name, p.Program, st.stage, runOn(p.Program, st.stage, variant, interderive.EngineTables)})
		}
	}
	if len(jobs) < 200 {
		t.Fatalf("%d runs: the corpus should give more", len(jobs))
	}
	check := func(j job) {
		if d := same(j.want, runOn(j.p, j.st, variant, interderive.EngineCompiled)); d != "" {
			t.Errorf("%s on %s: %s", j.name, j.st.Name(), d)
		}
	}
	for _, j := range jobs {
		check(j)
	}
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i := range jobs {
				if g == 1 {
					i = len(jobs) - 1 - i
				}
				check(jobs[i])
			}
		})
	}
	wg.Wait()
}
