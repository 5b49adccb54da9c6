package sem

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive"
)

// FunctionError is a meta-function of the rule file failing in a run. Either no
// clause applies to its arguments (or a hook, written in Go, fails: Reason) — the rule file's error: its functions do not cover
// what its rules call them on (the command's exit status 2, as for a type error) — or
// its calls nest deeper than MaxCallDepth (Limit), a resource limit: a function that
// recurses without end, or too deep (exit status 3; errors.Is(err,
// interderive.ErrResourceLimit) and interderive.ErrTooDeep hold). Either way it is not
// a stuck run of the workbench (interderive.ErrStuck does not hold). It is positioned
// at the function's declaration in the rule file, named by Language.File when the
// loader set it, and shows the line and a caret when the language kept its source.
type FunctionError struct {
	Function string
	P        Pos    // the function's declaration
	Call     string // the call that failed, printed: (worth 2)
	Rule     string // the rule whose right-hand side made the call ("" if not known)
	Limit    int    // > 0: the calls nested deeper than this limit
	Reason   string // a hook's failure (GoFunc): what it said
	File     string // the rule file ("" if not known)
	src      []byte // the rule file's source, for the line and the caret
}

func (l *Language) functionError(f *Function, args []*Term, limit int) *FunctionError {
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = FormatShort(a, 60)
	}
	return &FunctionError{
		Function: f.Name, P: f.P, Limit: limit, File: l.File, src: l.src,
		Call: "(" + strings.Join(append([]string{f.Name}, shown...), " ") + ")",
	}
}

// FunctionFailed is the failure of l's function named name on the call printed
// (made by the rule named rule, "" if not known; calls nested past limit, if
// positive), positioned at its declaration as a run's failure is: the error a
// stage that runs l's functions outside sem reports (the compiled engine). A name l
// does not declare has no position.
func (l *Language) FunctionFailed(name, call, rule string, limit int) *FunctionError {
	e := &FunctionError{Function: name, Call: call, Rule: rule, Limit: limit, File: l.File, src: l.src}
	if f, ok := l.Function(name); ok {
		e.P = f.P
	}
	return e
}

// Message is the error without its position: what failed, and what to do.
func (e *FunctionError) Message() string {
	by := ""
	if e.Rule != "" {
		by = ", called by rule " + e.Rule
	}
	if e.Limit > 0 {
		return fmt.Sprintf("function %s: calls nest deeper than the limit of %d (sem.MaxCallDepth) at %s%s: a function's recursion must end within that many nested calls",
			e.Function, e.Limit, e.Call, by)
	}
	if e.Reason != "" {
		return fmt.Sprintf("hook %s failed on %s%s: %s", e.Function, e.Call, by, e.Reason)
	}
	return fmt.Sprintf("function %s has no clause for %s%s: a function must cover every argument its callers give it",
		e.Function, e.Call, by)
}

// Error is FILE:LINE:COL: message, then the function's line and a caret when the
// source is known.
func (e *FunctionError) Error() string {
	file := e.File
	if file == "" {
		file = "rule file"
	}
	if e.src == nil {
		return fmt.Sprintf("%s:%s: %s", interderive.Escape(file), e.P, e.Message())
	}
	return interderive.Describe(file, e.src, interderive.Errorf(e.P, "%s", e.Message()))
}

// Is makes errors.Is(err, interderive.ErrResourceLimit) and errors.Is(err,
// interderive.ErrTooDeep) hold for calls nested too deep.
func (e *FunctionError) Is(target error) bool {
	return e.Limit > 0 && (target == interderive.ErrResourceLimit || target == interderive.ErrTooDeep)
}
