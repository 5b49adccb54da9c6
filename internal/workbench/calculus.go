// Package workbench runs the calculi on the stages of their derivation, whatever they
// are: it loads programs by their extension, runs and traces them on one stage or on
// all side by side, checks them against their expectation comments, compares the
// stages in lockstep, fuzzes them with random programs and their metatheory, and
// benchmarks them. It names no calculus and no stage: each is a value (Calculus,
// interderive.Stage) that the command's registry lists.
package workbench

import (
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// A Calculus is a language the workbench runs: everything check, compare, trace, fuzz
// and bench need to know of it.
type Calculus interface {
	// Name is the calculus's name (interderive calculi, fuzz --calculus).
	Name() string
	// Doc says what the calculus is, in a line.
	Doc() string
	// Languages are its source languages, each named by its file extension: a
	// surface language and an intermediate one make two, most calculi have one.
	Languages() []Language
	// Variant is its semantic parameter, whose values expectation comments name
	// (expect[V]: ...) and every stage is parametric in: a choice of rules, of a
	// meta-level function, ...
	Variant() Parameter
	// Modes are the ways a run may go under a variant besides the variant itself,
	// first the reference mode, whose contractions are the reference sequence
	// (a calculus with casts may merge pending coercions or not). Most calculi have one,
	// which changes nothing.
	Modes(variant string) []Mode
	// Supports reports whether the stage s has an artefact for this calculus.
	Supports(s interderive.Stage) bool
	// Load parses and checks a program of one of its languages. A syntax or type
	// error is a *LoadError.
	Load(lang string, src []byte) (Program, error)
	// Generate draws a random well-typed program of depth about size, fit to run
	// under variant (property tests and fuzz).
	Generate(t *rapid.T, size int, variant string) Program
	// Properties are its metatheory properties, which fuzz checks besides lockstep.
	Properties() []Property
	// Equal compares two answers (Outcome.Answer), or two values a stage reported
	// (interderive.Observer.Report), as the stages must agree on them: up to
	// α-renaming, reals to the bit.
	Equal(a, b any) bool
}

// A Language is a source language of a calculus, named by its file extension.
type Language struct {
	Ext string // without the dot
	Doc string
}

// A Parameter is a calculus's parameter on the command line: its flag, its values
// and its default.
type Parameter struct {
	Flag string // its flag on the command line, without the dashes
	Doc  string // what it selects, in a phrase
	// Noun is what one of its values is called in messages (unknown NOUN "xx").
	// Flag stands in for it when it is empty.
	Noun    string
	Values  []string // every value, the default first where it comes
	Default string
	// Expect are the values a plain -- expect: comment covers: all of them unless a
	// calculus says fewer (a variant that runs only where a file names it).
	Expect []string
	// FileExt, when set (".sem"), makes a value that ends in it a file's path: a
	// variant the calculus reads at run time (a cast semantics given as a rule file),
	// accepted besides Values wherever a value is.
	FileExt string
}

// Accepts reports whether v is a value of p: one of its values, or a file's path
// with its extension.
func (p Parameter) Accepts(v string) bool {
	return slices.Contains(p.Values, v) || p.FileExt != "" && strings.HasSuffix(v, p.FileExt) && len(v) > len(p.FileExt)
}

// A Mode is a way a run may go under a variant, set in its options.
type Mode struct {
	Name string
	// Reference marks the mode whose contractions are the reference sequence: a
	// file's rules[...] comments are checked in it, and lockstep compares in it.
	Reference bool
	// Apply sets the mode in a run's options.
	Apply func(*interderive.Options)
}

// A Program is a loaded, well-typed program of a calculus.
type Program interface {
	// Lang is its language's extension.
	Lang() string
	// Source prints it in its language's syntax, so that the command reads it back
	// (a counterexample that fuzz writes), within the budget.
	Source(b interderive.PrintBudget) (string, error)
	// Run evaluates it on a stage under a variant. opts carries the mode, the budgets
	// and the observers: every contraction goes to opts.OnContract, the stage's own
	// steps and reports to opts.Observer.
	Run(stage interderive.Stage, variant string, opts interderive.Options) (Outcome, error)
}

// Outcome is an answer as the command shows it.
type Outcome struct {
	// Observation is what run prints by default: 4, true, function, ..., as the
	// undefined, <3, 2>.
	Observation string
	// Value is the answer in the language's syntax (run --show value).
	Value string
	// Answer is the answer itself, which Calculus.Equal compares.
	Answer any
	// Steps is the number of contractions performed.
	Steps int
}

// LoadError is a static error: Phase is "syntax" or "type".
type LoadError struct {
	Phase string
	Err   error
}

func (e *LoadError) Error() string { return e.Phase + " error: " + e.Err.Error() }

func (e *LoadError) Unwrap() error { return e.Err }

// A Property is a metatheory property of a calculus that fuzz checks on random
// inputs: progress and preservation, a theorem about the answers, a function's correctness,
// Proposition 3.5, derivatives against finite differences.
type Property struct {
	Name string // on the command line (fuzz --props)
	Doc  string // what it states, for fuzz's help
	// Failure is what a failure is called: "preservation fails".
	Failure string
	// Check draws its input with t (programs of depth about size) and checks the
	// property under variant, on the stages given (the reference first); it returns
	// nil or the counterexample, smallest once rapid has shrunk it.
	Check func(t *rapid.T, size int, variant string, stages []interderive.Stage) *Counterexample
	// Applies, when not nil, says whether the property is stated for a variant: fuzz
	// checks it, and counts its checks, only on the cases that draw one it applies
	// to (a property a variant lacks is not a case to discard: the case's program
	// and its other properties count).
	Applies func(variant string) bool
	// Unit is what one check draws, for fuzz's summary ("compositions"); empty: a
	// program.
	Unit string
}

// A Counterexample is an input on which a property fails, written so that the command
// reproduces the failure.
type Counterexample struct {
	Lang    string   // the extension of the file it is written to
	Source  string   // the program
	Comment []string // lines of the comment above it: the failure, an expectation
	Err     error    // the failure
}

// Name is what a value of p is called in messages: Noun, or the flag.
func (p Parameter) Name() string {
	if p.Noun != "" {
		return p.Noun
	}
	return p.Flag
}

// expected are the values a plain -- expect: comment covers: Expect, or every value.
func (p Parameter) expected() []string {
	if len(p.Expect) > 0 {
		return p.Expect
	}
	return p.Values
}

// A calculus may say more than the Calculus interface asks, through these optional
// interfaces.

// A LockstepFueler says the fuel of the runs of fuzz's lockstep property, when its
// random programs need another than DefaultLockstepFuel (a reference stage that is
// quadratic on purpose takes less, so that a program that loops costs little).
type LockstepFueler interface {
	LockstepFuel() int
}

// DefaultLockstepFuel is the fuel of the runs of fuzz's lockstep property for a
// calculus that is not a LockstepFueler.
const DefaultLockstepFuel = 20_000

// A DynamicTyper is a calculus whose type annotations are optional: a benchmark
// program's annotation {name:T} is either kept (T) or replaced by DynamicType, the
// type of an unannotated binder (BenchProgram.Configurations).
type DynamicTyper interface {
	DynamicType() string
}

// A FileVariants calculus says which of its named variants a file variant (a value
// with the parameter's FileExt) stands for in expectation comments: check runs a file
// under --FLAG FILE against the expectations of that variant.
type FileVariants interface {
	StandsFor(file string) (variant string, ok bool)
}

// A VariantStager is a calculus some of whose stages run only some of its variants:
// a file variant runs on the stages that derive an artefact from a file. Every
// command runs a variant on the stages it has (StagesUnder), and says nothing of the
// others.
type VariantStager interface {
	RunsUnder(s interderive.Stage, variant string) bool
}

// A Preparer readies a variant before any of its runs (a file variant read and
// checked once), so that no run's time includes it, and a file that does not load
// is an error before anything runs.
type Preparer interface {
	Prepare(variant string) error
}

// prepare readies a variant of c, if c is a Preparer.
func prepare(c Calculus, variant string) error {
	if p, ok := c.(Preparer); ok {
		return p.Prepare(variant)
	}
	return nil
}

// Prepare readies a variant of c (Preparer) before its runs.
func Prepare(c Calculus, variant string) error { return prepare(c, variant) }

// CountContractions makes opts count the contractions of a run, passing each on to
// the OnContract it had: a calculus's Program.Run reads the count for
// Outcome.Steps and its print budget.
func CountContractions(opts *interderive.Options) *int {
	steps := new(int)
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		*steps++
		if on != nil {
			on(rule)
		}
	}
	return steps
}
