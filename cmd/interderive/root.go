package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/compiled"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

const exitStatusHelp = `Exit status:
  0  an answer: whatever the program means (check: every run passed)
  1  check: some run failed its file's expectations; compare: the stages disagree;
     fuzz: a property failed; bench: an answer differs from the one the program states
  2  a usage, syntax or type error (FILE:LINE:COL: message, the line, a caret); an
     unknown name; check: a file that could not be checked
  3  the run stopped at a resource limit without an answer: it ran out of fuel
     (--fuel), time (--timeout) or memory (--memory), its value prints in more than
     --print-limit, its recursion went deeper than the stage's bound, or a meta-level
     function gave up for size (the message names what would run the program);
     compare: nothing disagreed, but some run was cut short
  4  internal error: a stage got stuck (the message shows the stuck term); a
     well-typed program never gets stuck, so this is a bug of the workbench`

// budgetsHelp says what the budgets of run, trace, compare and check are.
const budgetsHelp = `Budgets: every run stops after --fuel contractions, after --timeout (default 1m; 0
for none), or once its live heap passes --memory (default: half of the computer's
memory, or of its control group's limit if lower; the runtime's soft limit is set to
it too); no value or term is printed in more than --print-limit bytes (default 1MiB):
a longer answer stops the run, a longer item of a trace is cut and marked "… [cut at
1 MiB]". Printing, too, stops at the time and memory budgets. A run stopped at a
budget exits with status 3 and names the flag that allows more.`

// app is what every command works with: the workbench, as the registry makes it, and
// the command's input and outputs.
type app struct {
	wb             *workbench.Workbench
	stdin          io.Reader
	stdout, stderr io.Writer
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer) (*cobra.Command, error) {
	// The compiled engine's first run of a rule file waits for its build: a line on
	// standard error says why.
	engine := &compiled.Cache{Building: func(file, dir string) {
		fmt.Fprintf(stderr, "interderive: building the compiled stages of %s (once; kept in %s)\n", file, dir)
	}}
	wb, err := workbench.New(calculi.With(engine), calculi.Stages())
	if err != nil {
		return nil, fmt.Errorf("the registry: %w", err)
	}
	a := &app{wb: wb, stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "interderive",
		Short: "A workbench of interpreters derived by program transformation",
		Long: `interderive runs programs on semantic artefacts derived from one another by program
transformation, for the calculi and the stages below (interderive calculi says more).

` + a.overview() + `
` + exitStatusHelp,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetVersionTemplate("interderive {{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(a.newRunCmd(), a.newTraceCmd(), a.newCheckCmd(), a.newCompareCmd(), a.newFuzzCmd(), a.newBenchCmd(), a.newCalculiCmd(), a.newDeriveCmd(), a.newRenderCmd(), a.newJudgeCmd(), a.newImportCmd())
	// cobra's completion command (bash, zsh, fish, powershell), and the flags'
	// values: stages, variants, modes, languages.
	root.CompletionOptions.DisableDefaultCmd = false
	a.registerCompletions(root)
	return root, nil
}

// overview lists the stages and the calculi, for the root's help.
func (a *app) overview() string {
	var b strings.Builder
	b.WriteString("Stages, in derivation order:\n")
	for _, s := range a.wb.Stages() {
		fmt.Fprintf(&b, "  %-10s %s\n", s.Name(), s.Doc())
	}
	b.WriteString("Calculi:\n")
	for _, c := range a.wb.Calculi() {
		var exts []string
		for _, l := range c.Languages() {
			exts = append(exts, "*."+l.Ext)
		}
		p := c.Variant()
		fmt.Fprintf(&b, "  %-10s %s (%s; --%s %s)\n", c.Name(), c.Doc(), strings.Join(exts, ", "), p.Flag, strings.Join(p.Values, "|"))
	}
	return b.String()
}

// finish turns a run's error into the documented exit status, printing it with the
// flag that allows more, if any.
func (a *app) finish(path string, err error) error {
	if err == nil {
		return nil
	}
	fmt.Fprintf(a.stderr, "%s: %s%s\n", interderive.Escape(workbench.DisplayName(path)), interderive.EscapeLines(err.Error()), workbench.Hint(err))
	return &exitError{code: exitCode(err)}
}

// exitCode is the exit status of a run that ended with err.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, interderive.ErrResourceLimit):
		return exitFuel
	case errors.Is(err, interderive.ErrStuck):
		return exitStuck
	}
	return exitStatic
}
