package workbench

import (
	"errors"
	"fmt"

	"github.com/interderive/interderive"
)

// A Disparity is what a lockstep check found: the stage, the variant, the mode (for a
// calculus with modes), and how the stage parted from the reference.
type Disparity struct {
	Stage, Variant, Mode string
	What                 string
}

// Error says which stage parted from the reference, under which variant and mode,
// and how.
func (d *Disparity) Error() string {
	mode := ""
	if d.Mode != "" {
		mode = " (" + d.Mode + ")"
	}
	return fmt.Sprintf("%s under %s%s: %s", d.Stage, d.Variant, mode, d.What)
}

// Reference is the reference stage's outcome of a lockstep run: its answer, or the
// error that ended it (out of fuel).
type Reference struct {
	Outcome Outcome
	Err     error
}

// report is a report of a run, as lockstep compares it.
type report struct {
	label string
	value any
	line  string
}

// recorder is the observer of a lockstep run: it keeps the contractions and the
// reports, and nothing else; it wants nothing else (interderive.ReportObserver), so
// that the stages do not print their steps for it.
type recorder struct {
	rules   []string
	reports []report
}

// ReportsOnly marks the recorder as an interderive.ReportObserver.
func (*recorder) ReportsOnly() {}

// Step is not kept.
func (*recorder) Step(string) {}

// About is not kept.
func (*recorder) About(int, string) {}

// Report keeps the report.
func (r *recorder) Report(_ int, label string, value any, line string) {
	r.reports = append(r.reports, report{label, value, line})
}

// lockstepRun is one stage's run in a lockstep check.
type lockstepRun struct {
	recorder
	out Outcome
	err error
}

// Lockstep runs a program on the given stages (the first is the reference) under a
// variant, in a mode, each run with the given fuel, and reports the first stage that
// parts from the reference: a different contraction; a different kind of error; an
// answer the calculus does not find Equal to the reference's; or reports (labels and
// values, in order) that differ. A run that gets stuck, or fails otherwise, is a
// disparity wherever it is, the reference included; running out of fuel alike on
// every stage (the same contractions up to it) is agreement, and so is the program's
// run-time error with the same reason (interderive.RuntimeError); a run stopped by
// its time, memory or output budget (which mode.Apply may set) agrees with the others
// if their contractions agree up to where it stopped. It returns the
// reference's outcome too, and needs a stage at least.
func (w *Workbench) Lockstep(c Calculus, prog Program, stages []interderive.Stage, variant string, mode Mode, fuel int) (Reference, *Disparity) {
	return w.LockstepOn(c, prog, stages, variant, mode, fuel, "")
}

// LockstepOn is Lockstep with the stages after the reference run on the engine named
// engine (interderive.Options.Engine; "" for the default), the reference on the
// tables: the engine checked against the semantics' definition, the reference stage
// itself too where it is among the others. A disparity names the stage with its
// engine ("machine on the compiled engine").
func (w *Workbench) LockstepOn(c Calculus, prog Program, stages []interderive.Stage, variant string, mode Mode, fuel int, engine string) (Reference, *Disparity) {
	modeName := ""
	if modal(c) {
		modeName = mode.Name
	}
	run := func(s interderive.Stage, engine string) *lockstepRun {
		r := &lockstepRun{}
		o := interderive.Options{Fuel: fuel, Observer: &r.recorder, OnContract: func(rule string) { r.rules = append(r.rules, rule) }}
		if mode.Apply != nil {
			mode.Apply(&o)
		}
		o.Engine = engine
		r.out, r.err = runSafely(prog, s, variant, o)
		return r
	}
	if len(stages) == 0 {
		return Reference{}, &Disparity{Variant: variant, Mode: modeName, What: "no stage to run"}
	}
	refStage := stages[0].Name()
	ref := run(stages[0], "")
	out := Reference{Outcome: ref.out, Err: ref.err}
	if ref.err != nil && !sameEnd(ref.err, ref.err) && !cutShort(ref.err) {
		return out, &Disparity{Stage: refStage, Variant: variant, Mode: modeName, What: ref.err.Error()}
	}
	for _, s := range stages[1:] {
		r := run(s, engine)
		name := s.Name()
		if engine != "" && engine != interderive.EngineTables {
			name += " on the " + engine + " engine"
		}
		d := &Disparity{Stage: name, Variant: variant, Mode: modeName}
		if cutShort(ref.err) || cutShort(r.err) {
			// Stopped by the clock or the heap, at a point that depends on the
			// stage's speed: the runs agree if their contractions do up to the
			// first stop.
			n := min(len(ref.rules), len(r.rules))
			if i := firstDiff(ref.rules[:n], r.rules[:n]); i >= 0 {
				return out, &Disparity{Stage: name, Variant: variant, Mode: modeName,
					What: fmt.Sprintf("contraction %d is %s, but %s's is %s", i+1, ruleAt(r.rules, i), refStage, ruleAt(ref.rules, i))}
			}
			continue
		}
		switch i := firstDiff(ref.rules, r.rules); {
		case i >= 0:
			d.What = fmt.Sprintf("contraction %d is %s, but %s's is %s", i+1, ruleAt(r.rules, i), refStage, ruleAt(ref.rules, i))
		case !sameEnd(r.err, ref.err):
			d.What = fmt.Sprintf("error %v, but %s's %v", r.err, refStage, ref.err)
		case r.err == nil && !c.Equal(r.out.Answer, ref.out.Answer):
			d.What = fmt.Sprintf("answer %s, but %s's %s", r.out.Value, refStage, ref.out.Value)
		default:
			d.What = differentReports(ref.reports, r.reports, refStage, c.Equal)
		}
		if d.What != "" {
			return out, d
		}
	}
	return out, nil
}

// sameEnd reports whether two runs that ended with these errors agree: both with an
// answer, both out of fuel, both too deep (a rule file's function that recurses
// without end, on every stage: interderive.ErrTooDeep), or both with the program's
// run-time error for the same reason. Any other error agrees with nothing.
func sameEnd(a, b error) bool {
	var ra, rb *interderive.RuntimeError
	switch {
	case a == nil || b == nil:
		return a == nil && b == nil
	case errors.Is(a, interderive.ErrOutOfFuel):
		return errors.Is(b, interderive.ErrOutOfFuel)
	case errors.Is(a, interderive.ErrTooDeep):
		return errors.Is(b, interderive.ErrTooDeep)
	case errors.As(a, &ra):
		return errors.As(b, &rb) && ra.Reason == rb.Reason
	}
	return false
}

// cutShort reports whether a run was stopped by its time, memory or output budget
// (Options.Timeout, Memory, Output), at a point that depends on the stage's speed and
// allocations rather than on the program: not out of fuel, not too deep.
func cutShort(err error) bool {
	return errors.Is(err, interderive.ErrTimeout) || errors.Is(err, interderive.ErrOutOfMemory) || errors.Is(err, interderive.ErrOutputLimit)
}

// differentReports says how a stage's reports part from the reference's, or "" when
// they have the same labels and equal values, in the same order.
func differentReports(ref, got []report, refStage string, equal func(a, b any) bool) string {
	for i := range max(len(ref), len(got)) {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%d reports, but %s made %d: its report %d is %s", len(got), refStage, len(ref), i+1, ref[i].line)
		case i >= len(ref):
			return fmt.Sprintf("%d reports, but %s made %d: report %d is %s", len(got), refStage, len(ref), i+1, got[i].line)
		case got[i].label != ref[i].label:
			return fmt.Sprintf("report %d is a %s, but %s's is a %s", i+1, got[i].label, refStage, ref[i].label)
		case !equal(ref[i].value, got[i].value):
			return fmt.Sprintf("report %d (%s) is %s, but %s's is %s", i+1, got[i].label, got[i].line, refStage, ref[i].line)
		}
	}
	return ""
}
