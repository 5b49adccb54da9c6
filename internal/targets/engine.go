package targets

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/compiled"
	"github.com/interderive/interderive/internal/workbench"
)

// TargetEngine measures the one engine of the rule files (issue 25) against the
// hand-written stages, as ratios within one run: on typed fib 14 and dynamic fib 15
// under ED, the derived reduction semantics, machine, interpreter and compile stage
// (from RuleFile) on the compiled engine (internal/compiled: where it cannot be
// built, the target says why and is not met) each within 2× of the hand-written
// one, and the same on the file's tables, with no target; the hand-written calculus
// of closures within 2× of the hand-written reduction semantics, and the
// hand-written CPS evaluator within 2× of the
// hand-written machine (typed fib 14); the derived machine within 2 allocations a
// contraction, on both programs; and the machine generated as Go source (derive
// --go) within 1.5× of the hand-written machine on typed fib 14, built with the Go
// toolchain (where there is none, the target says so and is not met).
func TargetEngine(c Config) (Target, error) {
	t := Target{Name: "one engine: the derived stages against the hand-written ones (ED, fib)",
		Bound: "derived reduction, machine, interp, compile ≤ 2× hand-written on typed fib 14 and dynamic fib 15; closures ≤ 2× reduction, cps2 ≤ 2× machine (hand-written, typed fib 14); derived machine ≤ 2 allocations a contraction on both; generated Go machine ≤ 1.5×"}
	met := true
	var measured []string
	// ratio times stage under variant (on engine, for a rule file) against base under
	// baseVariant, best of three each; bound 0 reports the ratio with no target.
	ratio := func(what string, p workbench.BenchProgram, size, stage, variant, engine, base, baseVariant string, bound float64) error {
		a, b := bestOfThreeOn(p, size, stage, variant, engine), bestOfThree(p, size, base, baseVariant)
		for _, r := range []workbench.BenchRow{a, b} {
			line := fmt.Sprintf("%s %s: %s", p.Name, r.Variant, describeRow(r))
			if r.Variant == variant && engine != interderive.EngineTables {
				line = fmt.Sprintf("%s %s (--engine %s): %s", p.Name, r.Variant, engine, describeRow(r))
			}
			c.logf("  %s", line)
			t.Details = append(t.Details, line)
			if r.Err != nil {
				return fmt.Errorf("%s %s on %s: %w", p.Name, size, r.Stage, r.Err)
			}
		}
		if a.Contractions != b.Contractions {
			return fmt.Errorf("%s %s: %s makes %d contractions, %s %d", p.Name, size, stage, a.Contractions, base, b.Contractions)
		}
		x := a.Time.Seconds() / b.Time.Seconds()
		if bound == 0 {
			measured = append(measured, fmt.Sprintf("%s %.1f× (no target)", what, x))
			return nil
		}
		met = met && x <= bound
		// To two decimals: a ratio near its bound (the interpreter's, 1.9× of 2×)
		// shows its margin.
		measured = append(measured, fmt.Sprintf("%s %.2f×", what, x))
		return nil
	}
	typed, err := c.program("fib-typed.gtlc")
	if err != nil {
		return t, err
	}
	dynamic, err := c.program("fib-dynamic.gtlc")
	if err != nil {
		return t, err
	}
	// The derived reduction semantics, machine, interpreter and compile stage run on
	// the compiled engine (internal/compiled: the stages derive --go writes, loaded
	// into the process), which the targets are about, and on the tables, reported
	// with no target.
	compiledOK := true
	for _, fib := range []struct {
		p    workbench.BenchProgram
		size string
	}{{typed, "14"}, {dynamic, "15"}} {
		name := strings.TrimSuffix(fib.p.Name, ".gtlc")
		for _, stage := range []string{"reduction", "machine", "interp", "compile"} {
			if !compiledOK {
				break
			}
			what := fmt.Sprintf("%s %s: derived %s (compiled)", name, fib.size, stage)
			if err := ratio(what, fib.p, fib.size, stage, RuleFile, interderive.EngineCompiled, stage, "ed", 2); err != nil {
				if !errors.Is(err, compiled.ErrUnavailable) {
					return t, err
				}
				// No toolchain, no cgo: the compiled engine is not measured, and
				// its targets are not met.
				compiledOK, met = false, false
				measured = append(measured, "derived stages (compiled): "+err.Error())
			}
		}
		for _, stage := range []string{"reduction", "machine", "interp", "compile"} {
			what := fmt.Sprintf("%s %s: derived %s (tables)", name, fib.size, stage)
			if err := ratio(what, fib.p, fib.size, stage, RuleFile, interderive.EngineTables, stage, "ed", 0); err != nil {
				return t, err
			}
		}
	}
	if err := ratio("hand-written closures/reduction", typed, "14", "closures", "ed", interderive.EngineTables, "reduction", "ed", 2); err != nil {
		return t, err
	}
	if err := ratio("hand-written cps2/machine", typed, "14", "cps2", "ed", interderive.EngineTables, "machine", "ed", 2); err != nil {
		return t, err
	}
	for _, fib := range []struct {
		p    workbench.BenchProgram
		size string
	}{{typed, "14"}, {dynamic, "15"}} {
		allocs, err := allocsPerContraction(fib.p, fib.size, "machine", RuleFile)
		if err != nil {
			return t, err
		}
		met = met && allocs <= 2
		measured = append(measured, fmt.Sprintf("%s %s: derived machine %.2f allocations a contraction", strings.TrimSuffix(fib.p.Name, ".gtlc"), fib.size, allocs))
	}
	// The machine derive --go writes, built once and timed by itself, against the
	// hand-written machine, best of three each (to two decimals: its bound, 1.5, is
	// near); and its interpreter, against the hand-written one (no target: what the
	// generated package gives for it).
	hand := bestOfThree(typed, "14", "machine", "ed")
	handInterp := bestOfThree(typed, "14", "interp", "ed")
	gen, err := generatedStages(typed, "14", hand.Answer, 3, "machine", "interp")
	if errors.Is(err, errNoGo) {
		met = false
		measured = append(measured, "generated Go machine: "+err.Error())
	} else if err != nil {
		return t, err
	}
	if gen != nil {
		x := gen["machine"].Seconds() / hand.Time.Seconds()
		met = met && x <= 1.5
		line := fmt.Sprintf("fib-typed generated machine (derive --go): %v a run, hand-written machine %v; generated interp %v, hand-written interp %v", gen["machine"], hand.Time, gen["interp"], handInterp.Time)
		c.logf("  %s", line)
		t.Details = append(t.Details, line)
		measured = append(measured, fmt.Sprintf("fib-typed 14: generated Go machine %.2f× (and generated Go interp %.1f× the hand-written interp, no target)", x, gen["interp"].Seconds()/handInterp.Time.Seconds()))
	}
	t.Measured = strings.Join(measured, "; ")
	t.Met = met
	return t, nil
}

// allocsPerContraction is the heap allocations a run of the program at size makes on
// the stage under variant, a contraction, after a run that warms it (loads the rule
// file).
func allocsPerContraction(p workbench.BenchProgram, size, stage, variant string) (float64, error) {
	prog, err := p.Calculus.Load(p.Lang, []byte(p.Source(size)))
	if err != nil {
		return 0, err
	}
	if _, err := prog.Run(stageNamed(stage), variant, interderive.Options{}); err != nil {
		return 0, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, err := prog.Run(stageNamed(stage), variant, interderive.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		return 0, err
	}
	return float64(after.Mallocs-before.Mallocs) / float64(max(out.Steps, 1)), nil
}
