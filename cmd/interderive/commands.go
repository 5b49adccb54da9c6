package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/driver"
	"github.com/spf13/cobra"
)

const exitStatusHelp = `Exit status:
  0  an answer: a value, blame or undefined (check: every run passed)
  1  check: some run failed its file's expectations; compare: the stages disagree;
     fuzz: a property failed; bench: an answer differs from the one the program states
  2  a usage, syntax or type error (FILE:LINE:COL: message, the line, a caret); an
     unknown name; check: a file that could not be checked
  3  the run stopped at a resource limit without an answer: it ran out of fuel
     (--fuel), time (--timeout) or memory (--memory), its value prints in more than
     --print-limit, its recursion went deeper than the stage's bound (interp), or a
     differentiation strategy gave up for size (the message names one that would not);
     compare: nothing disagreed, but some run was cut short
  4  internal error: a stage got stuck (the message shows the stuck term); a
     well-typed program never gets stuck, so this is a bug of the workbench`

// budgetsHelp says what the budgets of run, trace and compare are.
const budgetsHelp = `Budgets: every run stops after --fuel contractions, after --timeout (default 1m; 0
for none), or once its live heap passes --memory (default: half of the machine's
memory, or of its control group's limit if lower; the runtime's soft limit is set to
it too); no value or term is printed in more than --print-limit bytes (default 1MiB):
a longer answer stops the run, a longer item of a trace is cut and marked "… [cut at
1 MiB]". Printing, too, stops at the time and memory budgets. A run stopped at a
budget exits with status 3 and names the flag that allows more.`

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "interderive",
		Short: "A semantics workbench: interpreters derived by program transformation",
		Long: `interderive runs programs on semantic artefacts derived from one another by program
transformation (reduction semantics, calculus of closures, abstract machine, two-level
CPS evaluator, big-step interpreter), for two calculi: the gradually-typed lambda
calculus (GTLC, *.gtlc, and the cast calculus, *.cast) under the cast semantics LD,
LUD, ED and EUD (--semantics), and Abadi & Plotkin's differentiable language (*.dpl)
under the differentiation strategies pruned, figure6 and tape (--ad).

` + exitStatusHelp,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	root.SetVersionTemplate("interderive {{.Version}}\n")
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRunCmd(stdout, stderr), newTraceCmd(stdout, stderr), newCheckCmd(stdout, stderr), newCompareCmd(stdout, stderr), newFuzzCmd(stdout, stderr), newBenchCmd(stdout, stderr))
	// cobra's completion command (bash, zsh, fish, powershell), and the flags'
	// values: stages, semantics, strategies, languages.
	root.CompletionOptions.DisableDefaultCmd = false
	registerCompletions(root)
	return root
}

// runFlags are the flags run and trace share.
type runFlags struct {
	stage, semantics, ad, lang, space string
	fuel                              int
	timeout                           time.Duration
	budgets                           budgetFlags
	stdin                             io.Reader // the program for "-" (os.Stdin if nil)
}

// merging reads --space.
func (f *runFlags) merging() (interderive.Merging, error) {
	switch f.space {
	case "", "default":
		return interderive.MergeDefault, nil
	case "merged":
		return interderive.Merged, nil
	case "unmerged":
		return interderive.Unmerged, nil
	}
	return 0, fmt.Errorf("--space must be merged, unmerged or default, not %q", f.space)
}

// options are the run options the flags give.
func (f *runFlags) options() (interderive.Options, error) {
	m, err := f.merging()
	return f.budgets.apply(interderive.Options{Fuel: f.fuel, Merging: m, Timeout: f.timeout}), err
}

const stagesHelp = "derivation stage, one of reduction, closures, machine, cps2, interp (default: the last one the language has)"

func (f *runFlags) register(cmd *cobra.Command, defaultStage string) {
	cmd.Flags().StringVar(&f.stage, "stage", defaultStage, stagesHelp)
	cmd.Flags().StringVar(&f.semantics, "semantics", "ed", "cast semantics: ld, lud, ed, eud, or a custom one (edn, ...)")
	cmd.Flags().StringVar(&f.ad, "ad", "tape", "differentiable language: differentiation strategy, tape, pruned or figure6")
	cmd.Flags().IntVar(&f.fuel, "fuel", interderive.DefaultFuel, "maximum number of contractions")
	cmd.Flags().StringVar(&f.lang, "lang", "", "language, overriding the file extension: gtlc, cast or dpl (required when FILE is -, standard input)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", defaultTimeout, "stop a run after this long (e.g. 10s, 5m); 0 for no limit")
	f.budgets.register(cmd)
	cmd.Flags().StringVar(&f.space, "space", "default", "cast calculus: merge pending coercions (merged), or not (unmerged); by default machine, cps2 and interp merge")
}

// load reads, parses and type-checks a file ("-": standard input, with --lang),
// printing a positioned error with a caret. Every name flag is checked, the ones
// that do not apply to the file's language too, before the file is read; reading
// stops at driver.MaxSource bytes and after --timeout.
func (f *runFlags) load(path string, stderr io.Writer) (driver.Language, driver.Program, string, string, error) {
	fail := func(err error) (driver.Language, driver.Program, string, string, error) {
		return nil, nil, "", "", err
	}
	stage, err := oneName("stage", f.stage)
	if err != nil {
		return fail(err)
	}
	semantics, err := oneName("semantics", f.semantics)
	if err != nil {
		return fail(err)
	}
	ad, err := oneName("ad", f.ad)
	if err != nil {
		return fail(err)
	}
	if path == "-" && f.lang == "" {
		return fail(fmt.Errorf("reading the program from standard input (-) needs --lang (gtlc, cast or dpl)"))
	}
	l, err := driver.LanguageFor(path, f.lang)
	if err != nil {
		return fail(err)
	}
	if stage, err = driver.CheckStage(l, stage); err != nil {
		return fail(err)
	}
	variant := semantics
	if driver.VariantFlag(l) == "ad" {
		variant = ad
	}
	if variant, err = driver.CheckVariant(l, variant); err != nil {
		return fail(err)
	}
	if f.fuel <= 0 {
		return fail(fmt.Errorf("--fuel must be positive"))
	}
	stdin := f.stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	src, err := readSource(path, stdin, f.timeout)
	var se *sourceError
	if errors.As(err, &se) && se.limit {
		fmt.Fprintln(stderr, se)
		return fail(&exitError{code: exitFuel})
	} else if err != nil {
		return fail(err)
	}
	prog, err := l.Load(src)
	if err != nil {
		fmt.Fprintln(stderr, interderive.Describe(displayName(path), src, err))
		return fail(&exitError{code: exitStatic})
	}
	return l, prog, stage, variant, nil
}

// finish turns a run's error into the documented exit status.
func finish(path string, err error, stderr io.Writer) error {
	if err == nil {
		return nil
	}
	fmt.Fprintf(stderr, "%s: %s%s\n", interderive.Escape(displayName(path)), interderive.EscapeLines(err.Error()), hint(err))
	switch {
	case errors.Is(err, interderive.ErrResourceLimit):
		return &exitError{code: exitFuel}
	case errors.Is(err, interderive.ErrStuck):
		return &exitError{code: exitStuck}
	}
	return &exitError{code: exitStatic}
}

// runReport is run --json's output.
type runReport struct {
	File         string `json:"file"`
	Language     string `json:"language"`
	Stage        string `json:"stage"`
	Semantics    string `json:"semantics"`
	Outcome      string `json:"outcome"` // answer, out of fuel, timeout, too deep, resource limit, internal error
	Answer       string `json:"answer,omitempty"`
	Value        string `json:"value,omitempty"`
	Contractions int    `json:"contractions"`
	Error        string `json:"error,omitempty"`
}

func outcomeName(err error) string {
	switch {
	case err == nil:
		return "answer"
	case driver.IsFuel(err):
		return "out of fuel"
	case errors.Is(err, interderive.ErrTimeout):
		return "timeout"
	case errors.Is(err, interderive.ErrTooDeep):
		return "too deep"
	case errors.Is(err, interderive.ErrResourceLimit):
		return "resource limit"
	case errors.Is(err, interderive.ErrStuck):
		return "internal error"
	}
	return "error"
}

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	var show string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run [flags] FILE",
		Short: "Run a program and print its answer",
		Long: `Run a program and print exactly one line: by default the observation (4, true,
function, dynamic, blame l2); with --show value, the value in cast-calculus syntax.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if show != "observe" && show != "value" {
				return fmt.Errorf("--show must be observe or value, not %q", show)
			}
			opts, err := f.options()
			if err != nil {
				return err
			}
			f.stdin = cmd.InOrStdin()
			l, prog, stage, variant, err := f.load(args[0], stderr)
			if err != nil {
				return err
			}
			steps := 0
			opts.OnContract = func(string) { steps++ }
			out, err := prog.Run(stage, variant, opts)
			if asJSON {
				rep := runReport{File: displayName(args[0]), Language: l.Name(), Stage: stage, Semantics: variant,
					Outcome: outcomeName(err), Answer: out.Observation, Value: out.Value, Contractions: steps}
				if err != nil {
					rep.Error = err.Error()
				}
				enc := json.NewEncoder(stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(rep); err != nil {
					return err
				}
			}
			if err != nil {
				return finish(args[0], err, stderr)
			}
			if asJSON {
				return nil
			}
			if show == "value" {
				fmt.Fprintln(stdout, out.Value)
			} else {
				fmt.Fprintln(stdout, out.Observation)
			}
			return nil
		},
	}
	f.register(cmd, "")
	cmd.Flags().StringVar(&show, "show", "observe", "what to print: observe or value")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: outcome, answer, value, contractions")
	return cmd
}

func newTraceCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	var symbolic, asJSON, force bool
	var html string
	cmd := &cobra.Command{
		Use:   "trace [flags] FILE",
		Short: "Show every step of a run as the stage takes it",
		Long: `Trace shows the steps of a run as the chosen stage takes them: for the reduction
semantics (the default) every decomposition into context and redex, the rule (for
StepCst the coercion context and coercion redex too), the contractum and the term;
for the calculus of closures the same over closures, with its environment steps; for
the machine every state and its two stacks; for cps2 and interp their contractions.
With --stage all, every stage runs and the traces are aligned on the contractions
they share: for each contraction, what each stage did to reach it (decompositions,
environment steps, machine states); --html FILE writes a page to step through (FILE
must not exist, unless --force; it is never the program), --json the same data for
tools. For the differentiable language, nested layers (symbolic
evaluation inside rd) are indented under the step that starts them, every rd shows
the trace term of its body and its derivative term W.R_V(x:T. C) once its contraction
is complete, and a derived stage shows its lane of the aligned trace: for each
contraction, what the stage did to reach it; --symbolic shows only, for every rd, the
trace term and the derivative term.

The calculus of closures names each environment where it first appears, "ρ2 = (x ↦
cl) : ρ1", and refers to it by name after, so that the trace grows with the run.
With --stage all, the stages run at once and the text is written as they go; the
trace ends with each stage's answer or what stopped it.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			all := f.stage == "all"
			if all {
				f.stage = ""
			}
			if html != "" {
				if !all {
					return fmt.Errorf("--html is for --stage all")
				}
				// Before anything runs: never the program itself, never an
				// existing file without --force.
				if err := checkOutput(html, args, force); err != nil {
					return err
				}
			}
			opts, err := f.options()
			if err != nil {
				return err
			}
			f.stdin = cmd.InOrStdin()
			_, prog, stage, variant, err := f.load(args[0], stderr)
			if err != nil {
				return err
			}
			if all {
				return sideBySide(stdout, stderr, args[0], prog, variant, opts, html, asJSON)
			}
			if symbolic {
				st, ok := prog.(driver.SymbolicTracer)
				if !ok {
					return fmt.Errorf("--symbolic is for the differentiable language")
				}
				_, err = st.TraceSymbolic(stdout, stage, variant, opts)
				return finish(args[0], err, stderr)
			}
			_, err = prog.Trace(stdout, stage, variant, opts)
			return finish(args[0], err, stderr)
		},
	}
	f.register(cmd, "reduction")
	cmd.Flags().BoolVar(&symbolic, "symbolic", false, "differentiable language: show, for every rd, the trace term and its derivative")
	cmd.Flags().StringVar(&html, "html", "", "with --stage all: write a page to step through to this file (a new file, unless --force)")
	cmd.Flags().BoolVar(&force, "force", false, "let --html overwrite an existing file (never the program itself)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "with --stage all: print the aligned trace as JSON")
	return cmd
}

// sideBySide is trace --stage all: every stage, aligned on the contractions. The
// stages run at once within the same budgets; the text is written as they go (--json
// and --html collect the whole trace first). Once everything is written, if some stage
// stopped without an answer (out of fuel, time or memory, ...), the exit status says
// so (finish), with the flag that allows more.
func sideBySide(stdout, stderr io.Writer, path string, prog driver.Program, variant string, opts interderive.Options, html string, asJSON bool) error {
	sb, ok := prog.(driver.SideBySider)
	if !ok {
		return fmt.Errorf("--stage all is not available for this language yet")
	}
	if !asJSON && html == "" {
		return finish(path, sb.WriteSideBySide(stdout, variant, opts), stderr)
	}
	s, err := sb.SideBySide(variant, opts)
	if err != nil {
		return err
	}
	switch {
	case asJSON:
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			return err
		}
	default:
		f, err := os.Create(html)
		if err != nil {
			return err
		}
		if err := s.WriteHTML(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", html)
	}
	return finish(path, s.Err(), stderr)
}

// compareRow is a row of compare --json's output.
type compareRow struct {
	Semantics    string  `json:"semantics"`
	Stage        string  `json:"stage"`
	Outcome      string  `json:"outcome"`
	Answer       string  `json:"answer"`
	Value        string  `json:"value,omitempty"`
	Contractions int     `json:"contractions"`
	Seconds      float64 `json:"seconds"`
}

// comparePartial is an entry of compare --json's "partial": a semantics under which
// the stages agree as far as they could be compared, and the runs cut short.
type comparePartial struct {
	Semantics string       `json:"semantics"`
	Agreed    int          `json:"agreed"`
	Cut       []compareCut `json:"cut"`
	Message   string       `json:"message"`
}

// compareCut is a run cut short: its stage, and the flag that allows it more.
type compareCut struct {
	Stage string `json:"stage"`
	By    string `json:"by"`
}

// cutBy says what cut a run short: the flag that allows more, or the error's kind.
func cutBy(r driver.CompareRow) string {
	if f := flagFor(r.Err); f != "" {
		return f
	}
	return r.Answer()
}

// partialMessage is "ed: the stages agree on the first 4096 contractions; reduction
// cut by --timeout, interp cut by --fuel": the stages cut for one reason are named
// together ("reduction, interp cut by --timeout").
func partialMessage(p driver.Partial) string {
	var reasons []string
	stages := map[string][]string{}
	for _, r := range p.Cut {
		why := cutBy(r)
		if stages[why] == nil {
			reasons = append(reasons, why)
		}
		stages[why] = append(stages[why], r.Stage)
	}
	var cuts []string
	for _, why := range reasons {
		cuts = append(cuts, strings.Join(stages[why], ", ")+" cut by "+why)
	}
	return fmt.Sprintf("%s: the stages agree on the first %d contractions; %s", p.Variant, p.Agreed, strings.Join(cuts, "; "))
}

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var semantics, lang string
	var fuel int
	var timeout time.Duration
	var budgets budgetFlags
	var asJSON bool
	var space string
	cmd := &cobra.Command{
		Use:   "compare [flags] FILE",
		Short: "Run a program on every stage under every semantics, and compare",
		Long: `Compare runs the program on every derivation stage under each requested semantics
and prints a table: semantics, stage, answer, contractions, time. Within one
semantics every stage must give the reduction semantics' answer and perform the same
contractions in the same order (all stages run in the same --space mode); a
disagreement is reported with the first point where the two sequences part, and the
exit status is 1.

Under each semantics the stages run at once and their contractions are compared as
they go, in memory that does not grow with the runs; a stage ahead of the others waits
for them (the time column leaves its waits out). Every run has the budgets --fuel,
--timeout and --memory. A run cut short agrees with another if its contractions are a
prefix of the other's: when nothing disagrees but some run was cut, compare says how
far the stages were compared ("ed: the stages agree on the first 4096 contractions;
interp cut by --timeout") and the exit status is 3.

` + budgetsHelp + `

` + exitStatusHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f := runFlags{lang: lang, fuel: fuel, timeout: timeout}
			l, prog, _, _, err := f.load(args[0], stderr)
			if err != nil {
				return err
			}
			variants := l.Variants()
			if semantics != "all" {
				variants = nil
				for _, s := range strings.Split(semantics, ",") {
					v, err := driver.CheckVariant(l, strings.TrimSpace(s))
					if err != nil {
						return err
					}
					variants = append(variants, v)
				}
			}
			merging := interderive.Unmerged
			switch space {
			case "merged":
				merging = interderive.Merged
			case "unmerged":
			default:
				return fmt.Errorf("--space must be merged or unmerged, not %q", space)
			}
			opts := budgets.apply(interderive.Options{Fuel: fuel, Timeout: timeout, Merging: merging})
			c := driver.Compare(l, prog, variants, opts)
			status := func() error {
				switch {
				case len(c.Disagreements) > 0:
					return &exitError{code: exitFailed}
				case len(c.Partial) > 0:
					return &exitError{code: exitFuel}
				}
				return nil
			}
			if asJSON {
				out := struct {
					Rows          []compareRow     `json:"rows"`
					Disagreements []string         `json:"disagreements"`
					Partial       []comparePartial `json:"partial"`
				}{Disagreements: []string{}, Partial: []comparePartial{}}
				for _, r := range c.Rows {
					out.Rows = append(out.Rows, compareRow{Semantics: r.Variant, Stage: r.Stage, Outcome: outcomeName(r.Err),
						Answer: r.Answer(), Value: r.Outcome.Value, Contractions: r.Contractions, Seconds: r.Time.Seconds()})
				}
				for _, d := range c.Disagreements {
					out.Disagreements = append(out.Disagreements, d.String())
				}
				for _, p := range c.Partial {
					jp := comparePartial{Semantics: p.Variant, Agreed: p.Agreed, Message: partialMessage(p)}
					for _, r := range p.Cut {
						jp.Cut = append(jp.Cut, compareCut{Stage: r.Stage, By: cutBy(r)})
					}
					out.Partial = append(out.Partial, jp)
				}
				enc := json.NewEncoder(stdout)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(out); err != nil {
					return err
				}
				return status()
			}
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "semantics\tstage\tanswer\tcontractions\ttime")
			for _, r := range c.Rows {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", r.Variant, r.Stage, r.Answer(), r.Contractions, r.Time.Round(time.Microsecond))
			}
			tw.Flush()
			for _, d := range c.Disagreements {
				fmt.Fprintf(stdout, "DISAGREE %s\n", d)
			}
			for _, p := range c.Partial {
				fmt.Fprintf(stdout, "PARTIAL %s\n", partialMessage(p))
			}
			var whole []string
			for _, v := range variants {
				if !slices.ContainsFunc(c.Disagreements, func(d driver.Disagreement) bool { return d.Variant == v }) &&
					!slices.ContainsFunc(c.Partial, func(p driver.Partial) bool { return p.Variant == v }) {
					whole = append(whole, v)
				}
			}
			if len(whole) > 0 {
				fmt.Fprintf(stdout, "all stages agree under %s\n", strings.Join(whole, ", "))
			}
			return status()
		},
	}
	cmd.Flags().StringVar(&semantics, "semantics", "all", "semantics to compare: all, or a comma-separated list")
	cmd.Flags().IntVar(&fuel, "fuel", interderive.DefaultFuel, "maximum number of contractions per run")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultTimeout, "stop each run after this long (e.g. 10s, 5m); 0 for no limit")
	budgets.register(cmd)
	cmd.Flags().StringVar(&lang, "lang", "", "language, overriding the file extension")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the table, any disagreements and the semantics compared only in part as JSON")
	cmd.Flags().StringVar(&space, "space", "unmerged", "cast calculus: run every stage merging pending coercions (merged) or not (unmerged)")
	return cmd
}
