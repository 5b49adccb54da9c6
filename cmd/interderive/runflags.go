package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/spf13/cobra"
)

// runFlags are the flags run and trace share: a stage, a value of every calculus's
// variant flag, a mode, the language, and the budgets.
type runFlags struct {
	stage, mode, lang string
	variants          map[string]*string // by flag (Parameter.Flag)
	definitions       map[string]*string // by flag (workbench.Family)
	fuel              int
	timeout           time.Duration
	engine            string // of the stages derived from a rule file (interderive.Options.Engine)
	budgets           budgetFlags
	// lists says that the variant flags take lists (compare), which the command
	// reads itself: load leaves them alone.
	lists bool
}

func (a *app) registerRunFlags(cmd *cobra.Command, f *runFlags, stageHelp string) {
	cmd.Flags().StringVar(&f.stage, "stage", "", stageHelp)
	f.variants = map[string]*string{}
	for _, p := range a.wb.Parameters() {
		f.variants[p.Flag] = new(string)
		cmd.Flags().StringVar(f.variants[p.Flag], p.Flag, "", fmt.Sprintf("%s (%s); default %s", p.Doc, joinNames(p.Values), p.Default))
	}
	f.definitions = a.registerDefinitionFlags(cmd)
	cmd.Flags().StringVar(&f.mode, "mode", "", fmt.Sprintf("a mode of the run (%s); by default each stage runs in its own", joinNames(a.modeNames())))
	cmd.Flags().IntVar(&f.fuel, "fuel", interderive.DefaultFuel, "maximum number of contractions")
	cmd.Flags().StringVar(&f.lang, "lang", "", fmt.Sprintf("language, overriding the file extension (%s; required when FILE is -, standard input)", joinNames(a.wb.LanguageNames())))
	cmd.Flags().DurationVar(&f.timeout, "timeout", defaultTimeout, "stop a run after this long (e.g. 10s, 5m); 0 for no limit")
	registerEngine(cmd, &f.engine)
	f.budgets.register(cmd)
}

// registerEngine adds --engine to cmd: the engine of the stages derived from a rule
// file.
func registerEngine(cmd *cobra.Command, engine *string) {
	cmd.Flags().StringVar(engine, "engine", interderive.EngineTables, fmt.Sprintf("how the stages derived from a rule file run (%s): %s, the file's tables interpreted; %s, the stages derive --go writes, built by the Go toolchain as a plugin and loaded (docs/derive-go.md)",
		joinNames(interderive.Engines), interderive.EngineTables, interderive.EngineCompiled))
}

// options are the run options the flags give (the mode apart: it depends on the
// calculus).
func (f *runFlags) options() interderive.Options {
	return f.budgets.apply(interderive.Options{Fuel: f.fuel, Timeout: f.timeout, Engine: f.engine})
}

// loaded is a program read and checked, with the names its run takes.
type loaded struct {
	c       workbench.Calculus
	lang    workbench.Language
	prog    workbench.Program
	variant string
}

// load reads, parses and type-checks a file ("-": standard input, with --lang),
// printing a positioned error with a caret. Every name flag is checked, those that do
// not apply to the file's calculus too, before the file is read; reading stops at
// workbench.MaxSource bytes and after --timeout.
func (a *app) load(f *runFlags, path string) (loaded, error) {
	var l loaded
	if err := interderive.CheckEngine(f.engine); err != nil {
		return l, err
	}
	for _, flag := range append(a.nameFlags(), "lang") {
		value := ""
		switch flag {
		case "stage":
			value = f.stage
		case "mode":
			value = f.mode
		case "lang":
			value = f.lang
		default:
			if f.lists {
				continue
			}
			value = *f.variants[flag]
		}
		if value == "all" && flag == "stage" {
			continue
		}
		if _, err := a.oneName(flag, value); err != nil {
			return l, err
		}
	}
	if path == "-" && f.lang == "" {
		return l, fmt.Errorf("reading the program from standard input (-) needs --lang (%s)", joinNames(a.wb.LanguageNames()))
	}
	if f.fuel <= 0 {
		return l, fmt.Errorf("--fuel must be positive")
	}
	c, lang, err := a.wb.LanguageFor(path, f.lang)
	if err != nil {
		return l, err
	}
	variant := *f.variants[c.Variant().Flag]
	if f.lists {
		variant = ""
	}
	if l.variant, err = a.wb.VariantFor(c, variant); err != nil {
		return l, err
	}
	if f.mode != "" {
		if _, err := a.wb.ModeFor(c, l.variant, f.mode); err != nil {
			return l, err
		}
	}
	src, err := workbench.ReadSource(path, a.stdin, f.timeout)
	var se *workbench.SourceError
	if errors.As(err, &se) && se.Limit {
		fmt.Fprintln(a.stderr, se)
		return l, &exitError{code: exitFuel}
	} else if err != nil {
		return l, err
	}
	if c, err = a.wb.Define(c, values(f.definitions), path, src); err != nil {
		return l, err
	}
	prog, err := c.Load(lang.Ext, src)
	if err != nil {
		fmt.Fprintln(a.stderr, interderive.Describe(workbench.DisplayName(path), src, err))
		return l, &exitError{code: exitStatic}
	}
	l.c, l.lang, l.prog = c, lang, prog
	return l, nil
}

// registerDefinitionFlags registers the families' definition flags
// (workbench.Family: --FLAG FILE names the file that defines a program's calculus).
func (a *app) registerDefinitionFlags(cmd *cobra.Command) map[string]*string {
	defs := map[string]*string{}
	for _, d := range a.wb.DefinitionFlags() {
		defs[d[0]] = new(string)
		cmd.Flags().StringVar(defs[d[0]], d[0], "", d[1])
	}
	return defs
}

// values are the flags' values, by flag.
func values(flags map[string]*string) map[string]string {
	out := map[string]string{}
	for f, v := range flags {
		out[f] = *v
	}
	return out
}

// joinNames lists names for a flag's help: a, b or c.
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " or " + names[len(names)-1]
}
