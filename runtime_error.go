package interderive

import (
	"errors"
	"fmt"
)

// ErrRuntime is returned (wrapped in a *RuntimeError) by a run that reached a state its
// semantics declares stuck on purpose: the program's own run-time error, not the
// workbench's (compare ErrStuck).
var ErrRuntime = errors.New("run-time error")

// RuntimeError is a program's run-time error: the run reached a shape that its
// semantics declares stuck (a rule file's (stuck K PATTERN "REASON"), a type error of an
// untyped calculus that a type system would have ruled out). It is positioned at the
// redex, where the source put the term it came from, and the command exits with the
// status of a type error.
type RuntimeError struct {
	Pos    Pos    // the redex's position in the source (the zero Pos if it has none)
	Reason string // the declared reason
	Term   string // the redex, printed (at most MaxStuckShown bytes)
}

// Runtime makes a RuntimeError at pos, with its reason and the printed redex, cut
// to MaxStuckShown bytes as a stuck term is.
func Runtime(pos Pos, term, reason string) *RuntimeError {
	return &RuntimeError{Pos: pos, Reason: reason, Term: Stuck(term, "").Term}
}

func (e *RuntimeError) Error() string {
	at := ""
	if e.Pos.IsValid() {
		at = " at " + e.Pos.String()
	}
	return fmt.Sprintf("run-time error%s: %s: %s", at, e.Reason, e.Term)
}

// Unwrap makes errors.Is(err, ErrRuntime) hold.
func (e *RuntimeError) Unwrap() error { return ErrRuntime }
