package cps2

// Stage is the stage of this package, for every calculus: a method per calculus, in
// that calculus's file, gives its artefact (gradual.StageOf, dpl.StageOf).
type Stage struct{}

// Name is the stage's name on the command line.
func (Stage) Name() string { return "cps2" }

// Doc says what the stage is.
func (Stage) Doc() string {
	return "the two-level CPS evaluator: the machine's stacks refunctionalized into two layers of continuations"
}
