package sem

import (
	"errors"

	"github.com/interderive/interderive"
)

// Stage is a derived stage of a rule-defined calculus: it runs a closed term of the
// language to its answer. Every contraction goes to opts.OnContract (the rule's name),
// the stage's own steps to opts.Observer.
type Stage interface {
	Eval(l *Language, t *Term, opts interderive.Options) (Answer, error)
}

// A Describer is a derived stage that shows what it derived from a rule file, for a
// person (interderive derive): its transitions, its equations.
type Describer interface {
	Describe(l *Language) string
}

// StageOf is the derived artefact of the stage s, if s has one: a stage derives
// rule-defined calculi by a method Rules() Stage, in a file rules.go of its package.
// Its runs are guarded (Guard): a match or a substitution nested past MaxTermDepth is
// an error, and a function's evaluation watches the run's budgets.
func StageOf(s interderive.Stage) (Stage, bool) {
	r, ok := s.(interface{ Rules() Stage })
	if !ok {
		return nil, false
	}
	return guard(r.Rules()), true
}

// A Stepper is a stage that takes one step at a time: the derived reduction
// semantics, whose steps the lockstep tests follow term by term.
type Stepper interface {
	// Step decomposes t, contracts the redex and plugs the contractum back: the term
	// after the step and the rule it contracted by; done (and t's answer) when t is
	// an answer.
	Step(l *Language, t *Term) (next *Term, rule string, done bool, err error)
}

// Answer is the outcome of a run: a value of the root kind.
type Answer struct{ Value *Term }

// String prints the answer.
func (a Answer) String() string { return Format(a.Value) }

// RuleError is the error of a rule r whose right-hand side could not be built (err,
// from Instantiate) for the redex printed: a meta-function's failure is the rule
// file's (*FunctionError, which is told the rule); anything else, a prim undefined
// there, a stuck run.
func RuleError(r *Rule, redex string, err error) error {
	if fe, ok := calledBy(r, err); ok {
		return fe
	}
	if errors.Is(err, interderive.ErrResourceLimit) {
		return err // the run's time or memory, spent in a function's evaluation
	}
	var re *interderive.RuntimeError
	if errors.As(err, &re) {
		return re // a hook's: the program's run-time error (Racket's division by zero)
	}
	return interderive.Stuck(redex, "rule %s: %v", r.Name, err)
}

// calledBy is the function error err carries, told the rule r made the call (unless
// it knows a rule already): a right-hand side's call, or a condition's.
func calledBy(r *Rule, err error) (*FunctionError, bool) {
	var fe *FunctionError
	if !errors.As(err, &fe) {
		return nil, false
	}
	if fe.Rule == "" {
		fe.Rule = r.Name
	}
	return fe, true
}

// Compiled is an engine that runs the stages derived from a rule file in place of the
// file's tables: the compiled engine (internal/compiled), which the workbench's
// registry gives the calculi that run rule files.
type Compiled interface {
	// StageOf is the stage s derived from l, read from file; an error where the
	// engine cannot run it.
	StageOf(s interderive.Stage, l *Language, file string) (Stage, error)
	// Runs is why the engine does not run the stage s of l, read from file, nil where
	// it does: it may have fewer stages than the tables (the compiled engine has the
	// six since it has a compile stage), and it may not run the file at all (a file
	// the generator does not write, a machine where it cannot be built).
	Runs(s interderive.Stage, l *Language, file string) error
}

// RefusalOn is why the engine named engine does not run the stage s derived from l,
// read from file, nil where it does (the tables run every stage StageOf derives): a
// command that runs every stage leaves such a stage out, and says so.
func RefusalOn(s interderive.Stage, l *Language, file, engine string, compiled Compiled) error {
	if engine != interderive.EngineCompiled || compiled == nil {
		return nil
	}
	if _, ok := StageOf(s); !ok {
		return nil
	}
	return compiled.Runs(s, l, file)
}

// StageOn is the stage s derived from l (read from file) as the engine named engine
// runs it (interderive.Options.Engine): the tables' (StageOf) for "" and
// interderive.EngineTables, compiled's for interderive.EngineCompiled (where compiled
// is nil, the program that runs l has no compiled engine: an error). ok is false when
// s derives nothing from a rule file; an unknown engine is an error.
func StageOn(s interderive.Stage, l *Language, file, engine string, compiled Compiled) (st Stage, ok bool, err error) {
	tables, ok := StageOf(s)
	if !ok {
		return nil, false, nil
	}
	switch engine {
	case "", interderive.EngineTables:
		return tables, true, nil
	case interderive.EngineCompiled:
		if compiled == nil {
			return nil, true, errors.New("this program has no compiled engine (--engine compiled): the workbench's calculi have it")
		}
		st, err := compiled.StageOf(s, l, file)
		return st, true, err
	}
	return nil, true, interderive.CheckEngine(engine)
}
