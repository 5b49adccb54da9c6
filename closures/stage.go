package closures

// Stage is the stage of this package, for every calculus: a method per calculus, in
// that calculus's file, gives its artefact (gradual.StageOf, dpl.StageOf).
type Stage struct{}

// Name is the stage's name on the command line.
func (Stage) Name() string { return "closures" }

// Doc says what the stage is.
func (Stage) Doc() string {
	return "the calculus of closures: the reduction semantics over closures e[ρ], with environment steps"
}
