package workbench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// A Refuser is a calculus some of whose stages do not run its programs, by design: the
// stages over environments of a rule-defined calculus run only the rule files that
// qualify for them. Refuses says why the stage s does not run the calculus's
// programs, nil when it does.
//
// A refusal is a skip, never a failure nor a disagreement: check makes no run on a
// stage that refuses and counts the runs it skips, saying why (CheckPlan.Skipped);
// compare leaves the stage out of the comparison and says so (Comparison.Skipped); and
// run, with no --stage, runs the last stage that does not refuse (StageUnder). A
// stage named explicitly that refuses is the user's error.
type Refuser interface {
	Refuses(s interderive.Stage) error
}

// Refusal is why c's stage s does not run c's programs (Refuser), or nil.
func Refusal(c Calculus, s interderive.Stage) error {
	if r, ok := c.(Refuser); ok {
		return r.Refuses(s)
	}
	return nil
}

// Running are those of stages that do not refuse c's programs (Refuser), in order;
// stages itself is not changed.
func Running(c Calculus, stages []interderive.Stage) []interderive.Stage {
	if _, ok := c.(Refuser); !ok {
		return stages
	}
	return slices.DeleteFunc(slices.Clone(stages), func(s interderive.Stage) bool { return Refusal(c, s) != nil })
}

// An EngineRefuser is a calculus some of whose stages an engine does not run
// (interderive.Options.Engine): the compiled engine runs no file the generator does
// not write (internal/compiled), nor any stage of the hand-written calculi. RefusesOn
// says why the stage s does not run the calculus's programs under variant on the
// engine named engine, nil when it does. Such a refusal is a skip, as a Refuser's is:
// check and compare leave the stage out under that engine, and say so; run and trace,
// with no --stage, run the last stage the engine runs (StageUnder); a stage that run
// or trace names explicitly and the engine does not run is the user's error.
type EngineRefuser interface {
	RefusesOn(s interderive.Stage, variant, engine string) error
}

// RefusalOn is why c's stage s does not run under variant on the engine named
// engine (EngineRefuser), or nil.
func RefusalOn(c Calculus, s interderive.Stage, variant, engine string) error {
	if r, ok := c.(EngineRefuser); ok {
		return r.RefusesOn(s, variant, engine)
	}
	return nil
}

// onEngine are those of stages that run under variant on the engine named engine
// (EngineRefuser), in order, and the skips of the others (no run counted).
func onEngine(c Calculus, stages []interderive.Stage, variant, engine string) ([]interderive.Stage, []Skip) {
	var on []interderive.Stage
	var skips []Skip
	for _, s := range stages {
		if err := RefusalOn(c, s, variant, engine); err != nil {
			skips = append(skips, Skip{Stage: s.Name(), Reason: err.Error()})
			continue
		}
		on = append(on, s)
	}
	return on, skips
}

// A Skip is a stage that refused a program, and how many runs that skipped.
type Skip struct {
	Stage  string
	Reason string
	Runs   int
}

// skipsOf are the refusals of c's stages among stages, in order, each with no run
// counted yet.
func skipsOf(c Calculus, stages []interderive.Stage) []Skip {
	var out []Skip
	for _, s := range stages {
		if err := Refusal(c, s); err != nil {
			out = append(out, Skip{Stage: s.Name(), Reason: err.Error()})
		}
	}
	return out
}

// SkipLines say why runs were skipped, one line per reason, the stages that gave it
// together: "3 runs skipped: stages closures, cps2, interp do not run FILE: REASON";
// file names the program. Without runs counted (compare's skips, one per stage), the
// line starts with the stages.
func SkipLines(file string, skips []Skip) []string {
	var reasons []string
	stages, runs := map[string][]string{}, map[string]int{}
	for _, s := range skips {
		if _, seen := stages[s.Reason]; !seen {
			reasons = append(reasons, s.Reason)
		}
		stages[s.Reason] = append(stages[s.Reason], s.Stage)
		runs[s.Reason] += s.Runs
	}
	var lines []string
	for _, why := range reasons {
		st := stages[why]
		subject := fmt.Sprintf("stage %s does not run", st[0])
		if len(st) > 1 {
			subject = fmt.Sprintf("stages %s do not run", strings.Join(st, ", "))
		}
		line := fmt.Sprintf("%s %s: %s", subject, file, why)
		if n := runs[why]; n > 0 {
			line = fmt.Sprintf("%d %s skipped: %s", n, Plural(n, "run", "runs"), line)
		}
		lines = append(lines, line)
	}
	return lines
}
