// Package rulescases is what the tests of the stages derived from a rule file share:
// loading a rule file of testdata/rules, running a derived stage while recording its
// contraction events, and the lockstep comparison of two runs.
package rulescases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Load reads a rule file of testdata/rules, from a stage package's directory.
func Load(t testing.TB, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(interderive.Describe(name, src, err))
	}
	return l
}

// TB is what the lockstep needs of a test: *testing.T or *rapid.T.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// A Run is a run of a stage: its contraction events, and its answer or error.
type Run struct {
	Events []string
	Value  *sem.Term
	Err    error
}

func (r Run) String() string {
	if r.Err != nil {
		return fmt.Sprintf("%v after %d contractions", r.Err, len(r.Events))
	}
	return sem.Format(r.Value)
}

// Options are a run's options with a fuel budget, recording its events in r.
func Options(r *Run, fuel int) interderive.Options {
	return interderive.Options{Fuel: fuel, OnContract: func(rule string) { r.Events = append(r.Events, rule) }}
}

// RunDerived runs a closed term on a derived stage.
func RunDerived(s sem.Stage, l *sem.Language, e *sem.Term, fuel int) Run {
	var r Run
	a, err := s.Eval(l, e, Options(&r, fuel))
	r.Value, r.Err = a.Value, err
	return r
}

// Agree checks that two runs made the same contractions and ended alike: the same
// answer up to α-equivalence, both out of fuel, or the same run-time error (reason and
// position).
func Agree(t TB, what string, a, b Run) {
	t.Helper()
	if !slices.Equal(a.Events, b.Events) {
		t.Fatalf("%s: the contraction events differ:\n%v\n%v", what, a.Events, b.Events)
	}
	var ra, rb *interderive.RuntimeError
	switch {
	case a.Err == nil && b.Err == nil:
		if !sem.AlphaEqual(a.Value, b.Value) {
			t.Fatalf("%s: answers differ: %s, %s", what, a, b)
		}
	case errors.Is(a.Err, interderive.ErrOutOfFuel) && errors.Is(b.Err, interderive.ErrOutOfFuel):
	case errors.As(a.Err, &ra) && errors.As(b.Err, &rb) && ra.Reason == rb.Reason && ra.Pos == rb.Pos:
	default:
		t.Fatalf("%s: %v, %v", what, a, b)
	}
}
