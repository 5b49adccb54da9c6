package workbench

import (
	"errors"

	"github.com/interderive/interderive"
)

// FlagFor names the flag that gives a run stopped by err more of what it ran out of,
// or "" if none does.
func FlagFor(err error) string {
	switch {
	case errors.Is(err, interderive.ErrOutOfFuel):
		return "--fuel"
	case errors.Is(err, interderive.ErrTimeout):
		return "--timeout"
	case errors.Is(err, interderive.ErrOutOfMemory):
		return "--memory"
	case errors.Is(err, interderive.ErrOutputLimit):
		return "--print-limit"
	}
	return ""
}

// Hint is what a message of a run stopped at a budget ends with: the flag that allows
// more, " (--timeout allows more; 0 for no limit)"; "" for any other error.
func Hint(err error) string {
	switch flag := FlagFor(err); flag {
	case "":
		return ""
	case "--fuel":
		return " (--fuel allows more)"
	default:
		return " (" + flag + " allows more; 0 for no limit)"
	}
}

// OutcomeName is how a run ended, for reports in JSON: answer, out of fuel, timeout,
// too deep, resource limit, internal error (stuck), run-time error (the program's), or
// error.
func OutcomeName(err error) string {
	switch {
	case err == nil:
		return "answer"
	case errors.Is(err, interderive.ErrOutOfFuel):
		return "out of fuel"
	case errors.Is(err, interderive.ErrTimeout):
		return "timeout"
	case errors.Is(err, interderive.ErrTooDeep):
		return "too deep"
	case errors.Is(err, interderive.ErrResourceLimit):
		return "resource limit"
	case errors.Is(err, interderive.ErrStuck):
		return "internal error"
	case errors.Is(err, interderive.ErrRuntime):
		return "run-time error"
	}
	return "error"
}
