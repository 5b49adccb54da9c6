// Package driver connects the command line to the calculi and their stages: it loads
// a program (parse and type-check, by file extension), runs it on a stage, traces it,
// and checks it against the expectation comments it carries.
package driver

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/interderive/interderive"
)

// Language is a calculus the workbench runs.
type Language interface {
	// Name is the language's name on the command line (--lang) and its file
	// extension.
	Name() string
	// Variants are the values of the language's semantic parameter (for the gradual
	// calculi, the cast semantics), selectable with expect[...] comments.
	Variants() []string
	// DefaultVariant is the variant run uses when none is given.
	DefaultVariant() string
	// Stages are the derivation stages that can run this language, in derivation
	// order.
	Stages() []string
	// Load parses and type-checks a program. A syntax or type error is a *LoadError.
	Load(src []byte) (Program, error)
}

// Program is a loaded, well-typed program.
type Program interface {
	// Run evaluates the program on a stage under a variant.
	Run(stage, variant string, opts interderive.Options) (Outcome, error)
	// Trace writes every step of the run for a person to read, ending with the
	// outcome, and returns the outcome.
	Trace(w io.Writer, stage, variant string, opts interderive.Options) (Outcome, error)
}

// Outcome is an answer as the command shows it.
type Outcome struct {
	// Observation is what run prints by default: 4, true, function, dynamic,
	// blame l2, ...
	Observation string
	// Value is the answer in the language's syntax (run --show value).
	Value string
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

// MaxSource bounds the size of a program file in bytes, so that a program too large
// to load is refused with a message before anything runs. It is derived from memory:
// loading a program — lexing, parsing, checking and elaborating it — allocates at most
// SourceBytes of heap per byte of source (TestSourceBytes measures the densest
// programs of both calculi), and a program may take the memory the command gives a
// run by default, interderive.DefaultMemory() (half of the machine's or the control
// group's). On a machine with 16 GiB that is 2^33 / 512 = 16 MiB of source, a
// let-chain of about 600,000 lets. It is at most math.MaxInt32, so that a position's
// line and column (int32) cannot overflow. It is worked out once.
//
// Nesting is bounded apart, by the parsers (gradual.MaxNesting, dpl.MaxNesting), from
// the Go stack; a chain of lets does not nest, and is bounded by MaxSource alone.
func MaxSource() int { return maxSource() }

var maxSource = sync.OnceValue(func() int {
	return int(min(interderive.DefaultMemory()/SourceBytes, math.MaxInt32))
})

// SourceBytes bounds the heap, in bytes, that loading a program allocates per byte of
// its source (see MaxSource).
const SourceBytes = 512

// checkSize refuses a source longer than MaxSource(), positioned at the first byte past
// the limit.
func checkSize(src []byte) error { return checkSizeAt(src, MaxSource()) }

// checkSizeAt refuses a source longer than limit bytes, positioned at the first byte
// past the limit.
func checkSizeAt(src []byte, limit int) error {
	if len(src) <= limit {
		return nil
	}
	pos := interderive.Pos{Line: 1, Col: 1}
	for _, b := range src[:limit] {
		if b == '\n' {
			pos.Line, pos.Col = pos.Line+1, 1
		} else {
			pos.Col++
		}
	}
	return &LoadError{Phase: "syntax", Err: interderive.ErrorList{
		interderive.Errorf(pos, "the program is %d bytes long; the limit is %d (driver.MaxSource, derived from the memory of this machine)", len(src), limit)}}
}

// counting returns opts with an OnContract that also counts the contractions, and the
// counter.
func counting(opts interderive.Options) (interderive.Options, *int) {
	steps := new(int)
	on := opts.OnContract
	opts.OnContract = func(r string) {
		*steps++
		if on != nil {
			on(r)
		}
	}
	return opts, steps
}

// Languages lists the languages the workbench knows.
func Languages() []Language {
	return []Language{gradualLang{cast: false}, gradualLang{cast: true}, DPL()}
}

// LanguageNamed finds a language by name.
func LanguageNamed(name string) (Language, error) {
	var names []string
	for _, l := range Languages() {
		if l.Name() == name {
			return l, nil
		}
		names = append(names, l.Name())
	}
	return nil, fmt.Errorf("unknown language %q (known: %s)", name, strings.Join(names, ", "))
}

// LanguageFor picks the language of a file by its extension, unless override names
// one.
func LanguageFor(path, override string) (Language, error) {
	if override != "" {
		return LanguageNamed(override)
	}
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	l, err := LanguageNamed(ext)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot tell the language from the extension %q; use --lang", path, filepath.Ext(path))
	}
	return l, nil
}

// IsSource reports whether path has the extension of a known language.
func IsSource(path string) bool {
	_, err := LanguageFor(path, "")
	return err == nil
}

// CheckStage validates a stage name for a language ("" means the last, fastest
// stage available).
func CheckStage(l Language, stage string) (string, error) {
	stages := l.Stages()
	if stage == "" {
		return stages[len(stages)-1], nil
	}
	if !slices.Contains(stages, stage) {
		return "", fmt.Errorf("stage %q is not available for %s (available: %s)", stage, l.Name(), strings.Join(stages, ", "))
	}
	return stage, nil
}

// CheckVariant validates a variant name ("" means the default).
func CheckVariant(l Language, variant string) (string, error) {
	if variant == "" {
		return l.DefaultVariant(), nil
	}
	if !slices.Contains(l.Variants(), variant) {
		return "", fmt.Errorf("unknown semantics %q for %s (known: %s)", variant, l.Name(), strings.Join(l.Variants(), ", "))
	}
	return variant, nil
}

// VariantFlag is the command-line flag that picks a language's variant: --semantics
// for the gradual calculi (the cast semantics), --ad for the differentiable language
// (the differentiation strategy).
func VariantFlag(l Language) string {
	if l.Name() == "dpl" {
		return "ad"
	}
	return "semantics"
}

// IsFuel reports whether err is the end of a run's fuel.
func IsFuel(err error) bool { return errors.Is(err, interderive.ErrOutOfFuel) }
