package compile

// Stage is the stage of this package, for every calculus it covers: a method per
// calculus, in that calculus's file, gives its artefact (gradual.StageOf). A calculus
// without such a method does not have this stage (workbench.Calculus.Supports).
type Stage struct{}

// Name is the stage's name on the command line.
func (Stage) Name() string { return "compile" }

// Doc says what the stage is.
func (Stage) Doc() string {
	return "the compiled interpreter: interp staged, the program translated once into Go closures"
}
