package interderive

// A Stage is a derivation stage (the reduction semantics, the calculus of closures,
// ...): a package holding that stage's artefact for every calculus. Its type names
// it; the calculi it covers are the methods its package adds to that type, one file
// per calculus (each calculus asks a stage, by an interface of its own, for the method
// that gives its artefact), so that adding a calculus to a stage, or a stage, is a
// file of its own.
type Stage interface {
	// Name is the stage's name on the command line: reduction, closures, ...
	Name() string
	// Doc says what the stage is, in a line.
	Doc() string
}

// An Observer watches a run besides its contractions (which go to Options.OnContract):
// what a stage does between them, which is the stage's own business (decompositions
// and plugging, environment steps, machine transitions), and what it reports that
// every stage must report alike. A stage calls it only when Options.Observer is set,
// and builds the lines only then, each within the run's print budget.
//
// Lines are for a person, and a trace cuts the run at its contractions: a line goes
// with the contraction to come (Step), or is about a contraction already made
// (About, Report), which matters when a contraction completes only after others: an
// rd of the differentiable language completes after the contractions of the symbolic
// evaluation it starts.
type Observer interface {
	// Step is a line about what the stage does on its way to its next contraction.
	Step(line string)
	// About is a line about contraction n (1-based, already made): its contractum,
	// the term after it. It goes with contraction n if n is still the last one, and
	// otherwise with the contraction to come, under a line saying which contraction it
	// completes.
	About(n int, line string)
	// Report is a result of contraction n that every stage reports, labelled
	// ("trace", "derivative"): value is compared across stages by the calculus's
	// equality, line shows it. It goes with the contraction to come (so that it stands
	// in the same row in every stage's trace), under a line saying which contraction it
	// completes if the stage knows n; n is 0 if it does not.
	Report(n int, label string, value any, line string)
}

// A ReportObserver is an Observer that wants only what a run reports (Report), not
// the stage's own steps: a stage need not build its Step and About lines for it, which
// cost a printed term, closure or state at every step (a lockstep check compares the
// contractions and the reports alone).
type ReportObserver interface {
	Observer
	// ReportsOnly marks the observer; it is never called.
	ReportsOnly()
}

// StepObserver is the observer that wants the stage's own steps (Observer.Step,
// Observer.About): Observer, or nil when there is none or it wants only reports
// (ReportObserver). A stage builds its lines for it alone, and reports to Observer.
func (o Options) StepObserver() Observer {
	if _, reportsOnly := o.Observer.(ReportObserver); reportsOnly {
		return nil
	}
	return o.Observer
}
