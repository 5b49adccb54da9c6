package interderive

import (
	"errors"
	"fmt"
)

// ErrStuck is returned (wrapped in a *StuckError) by a stage that reached a state with
// no transition: a term that is neither an answer nor decomposes into a redex, a redex
// no rule contracts, a machine state with no rule. Progress rules this out for every
// well-typed program, so a stuck run is a bug in the workbench (or a program that
// bypassed the type checker), never the user's error.
var ErrStuck = errors.New("stuck")

// StuckError reports a stuck run: what has no transition, and the term, state or
// value where it happened.
type StuckError struct {
	// Stage is the stage that got stuck; the workbench fills it in when the stage
	// does not know its own name.
	Stage string
	// Reason says what has no transition ("+ applied to a non-constant").
	Reason string
	// Term is the stuck term, state or value, printed (at most MaxStuckShown bytes).
	Term string
}

// MaxStuckShown is the longest printed term a StuckError keeps: a stuck term can be
// as large as the run made it, and the message is for a person.
const MaxStuckShown = 4096

// Stuck makes a StuckError with a reason and the printed stuck term ("" if there is
// none to show), cut to MaxStuckShown bytes.
func Stuck(term, format string, args ...any) *StuckError {
	if len(term) > MaxStuckShown {
		cut := MaxStuckShown
		for cut > 0 && term[cut]&0xC0 == 0x80 { // do not split a UTF-8 sequence
			cut--
		}
		term = fmt.Sprintf("%s… (%d more bytes)", term[:cut], len(term)-cut)
	}
	return &StuckError{Reason: fmt.Sprintf(format, args...), Term: term}
}

func (e *StuckError) Error() string {
	where := "a run"
	if e.Stage != "" {
		where = "the " + e.Stage + " stage"
	}
	msg := fmt.Sprintf("internal error: %s is stuck: %s", where, e.Reason)
	if e.Term != "" {
		msg += "\n  stuck term: " + e.Term
	}
	return msg + "\n  a well-typed program never gets stuck: this is a bug in interderive; please report it with the program"
}

// Unwrap makes errors.Is(err, ErrStuck) hold.
func (e *StuckError) Unwrap() error { return ErrStuck }

// InStage names the stage of a stuck run, if err is one that does not name it yet,
// and returns err.
func InStage(err error, stage string) error {
	var s *StuckError
	if errors.As(err, &s) && s.Stage == "" {
		s.Stage = stage
	}
	return err
}
