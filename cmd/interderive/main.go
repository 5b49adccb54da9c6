// Command interderive runs, traces and checks programs of the workbench's calculi on
// their derived semantic artefacts, fuzzes them, and benchmarks them.
//
// It names no calculus and no stage: it takes them all from the registry,
// internal/calculi, and runs them through the workbench, internal/workbench.
//
// Exit status: 0 for an answer (whatever the program means); 1 when check, compare,
// fuzz or bench finds a failure; 2 for a usage, syntax or type error; 3 when a run
// stopped at a resource limit without an answer (out of fuel, time or memory, recursion
// deeper than a stage's bound, a meta-level function that gave up for size); 4 for an
// internal error: a stage got stuck, which progress rules out for well-typed programs,
// so it is a bug of the workbench.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/interderive/interderive"
)

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitStatic = 2
	exitFuel   = 3
	exitStuck  = 4
)

// exitError carries an exit status; its message, if any, has already been printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status. An error is
// printed with its control characters escaped: it may quote the input.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, err := newRoot(stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "interderive: %s\n", err)
		return exitStatic
	}
	root.SetArgs(args)
	err = root.Execute()
	if err == nil {
		return exitOK
	}
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	fmt.Fprintf(stderr, "interderive: %s\n", interderive.EscapeLines(err.Error()))
	return exitStatic
}
