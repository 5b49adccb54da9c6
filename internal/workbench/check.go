package workbench

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/interderive/interderive"
)

// CheckOptions select and bound the runs check makes.
type CheckOptions struct {
	// Stages are the names of the stages to run: every stage of a file's calculus
	// when nil.
	Stages []string
	// Only narrows the variants, per variant flag (Parameter.Flag). A calculus whose
	// flag is absent from the map, or nil there (all), runs every variant it has an
	// expectation for.
	Only map[string][]string
	// Fuel, when positive, is every run's budget, in place of the file's fuel line
	// (and of interderive.DefaultFuel).
	Fuel int
	// Timeout, when positive, bounds each run's time; Memory its live heap and Output
	// the printed answer (interderive.Options).
	Timeout time.Duration
	Memory  int64
	Output  int
	// Engine runs the stages derived from rule files (interderive.Options.Engine).
	Engine string
	// Definitions are the definition flags' values, by flag (Family): a file of a
	// family is in the calculus of the definition its flag names, else of the one the
	// file names or sits beside.
	Definitions map[string]string
}

// checkNames checks the names the options give: every stage a registered one, every
// flag a parameter's and every variant one of its values.
func (w *Workbench) checkNames(stages []string, only map[string][]string) error {
	for _, s := range stages {
		if _, err := w.StageNamed(s); err != nil {
			return err
		}
	}
	return w.checkOnly(only)
}

// A CheckRun is one run of a file: a stage under a variant in a mode (Mode.Name). A
// program that does not load has one run per variant and no stage (Stage "").
type CheckRun struct {
	Stage, Variant, Mode string
}

// A Failure is a run that did not give what the file expects.
type Failure struct {
	CheckRun
	// What the failure is, apart from the run: "expected 5, got 4", "rule beta never
	// fired (fired: delta)".
	What string
	// Detail, when not empty, follows What on lines of its own: the positioned error
	// of a program that does not load.
	Detail string
	// outOfMemory says that the run stopped at its memory budget (RunCheck makes it
	// again alone).
	outOfMemory bool
}

// A CheckPlan is a program file ready for check: its expectations, the program, and
// the runs that check it.
type CheckPlan struct {
	Path     string // as messages name it
	Calculus Calculus
	Lang     string // its language's extension
	Expect   Expectations
	Runs     []CheckRun
	// Stages are the names of the calculus's stages, and Variants its variants, in
	// order: how failures are grouped.
	Stages, Variants []string
	// Modal says whether the calculus has more than one mode under some variant: then
	// reports name a run's mode.
	Modal bool
	// Skipped are the stages selected that refuse the program (Refuser), each with the
	// number of runs it would have made: not runs of the plan, nor failures.
	Skipped []Skip

	src     []byte
	prog    Program                      // nil when the program does not load
	loadErr *LoadError                   // why it does not
	modes   map[string]Mode              // the modes of the runs, by variant and name
	stages  map[string]interderive.Stage // the stages of the runs, by name
}

// modeKey is the key of a run's mode in CheckPlan.modes.
func modeKey(variant, mode string) string { return variant + "\x00" + mode }

// PlanCheck reads a program file's expectations, loads the program (of the calculus's
// language lang) and lists the runs that check it: every stage selected that the
// calculus has, under every variant the file expects something of that the options
// select, in every mode of that variant (Calculus.Modes). The error is a positioned
// one (an interderive.ErrorList) when the expectation comments are malformed, and a
// plain one when no run applies: a file that checks nothing does not pass.
func (w *Workbench) PlanCheck(path string, src []byte, c Calculus, lang string, opts CheckOptions) (*CheckPlan, error) {
	if err := w.checkNames(opts.Stages, opts.Only); err != nil {
		return nil, err
	}
	x, err := ParseExpectations(src, c)
	if err != nil {
		return nil, err
	}
	all := w.StagesOf(c)
	if len(all) == 0 {
		return nil, fmt.Errorf("calculus %s is not registered", c.Name())
	}
	p := &CheckPlan{Path: path, Calculus: c, Lang: lang, Expect: x, src: src, Stages: stageNames(all),
		Variants: c.Variant().Values, Modal: modal(c), modes: map[string]Mode{}, stages: map[string]interderive.Stage{}}
	// A variant that is a file (--semantics FILE.sem) answers to the expectations of
	// the variant the calculus says it stands for.
	if fv, ok := c.(FileVariants); ok {
		for _, v := range opts.Only[c.Variant().Flag] {
			if slices.Contains(p.Variants, v) || !c.Variant().Accepts(v) {
				continue
			}
			p.Variants = append(slices.Clone(p.Variants), v)
			if stand, ok := fv.StandsFor(v); ok {
				if a, ok := x.Answer[stand]; ok {
					x.Answer[v] = a
				}
				if r, ok := x.Rules[stand]; ok {
					x.Rules[v] = r
				}
			}
		}
	}
	// Only the variants with an expectation run: a program may be about some of them
	// (and a variant can be too slow for some programs).
	var expected, variants []string
	flag := c.Variant().Flag
	only := opts.Only[flag]
	narrowed := only != nil
	for _, v := range p.Variants {
		if _, ok := x.Answer[v]; ok {
			expected = append(expected, v)
			if !narrowed || slices.Contains(only, v) {
				variants = append(variants, v)
			}
		}
	}
	if len(expected) == 0 && len(x.Holds) > 0 {
		// Properties only (a counterexample fuzz saved): every variant checks them.
		expected = p.Variants
		variants = p.Variants
		if narrowed {
			variants = slices.DeleteFunc(slices.Clone(variants), func(v string) bool { return !slices.Contains(only, v) })
		}
	}
	switch {
	case len(expected) == 0:
		return nil, fmt.Errorf("no expectation: write %s expect: ANSWER", lineComment(c))
	case len(variants) == 0:
		return nil, fmt.Errorf("no run: the file expects something only under %s, and --%s selects %s",
			strings.Join(expected, ", "), flag, strings.Join(only, ", "))
	}
	prog, err := c.Load(lang, src)
	if errors.As(err, &p.loadErr) {
		for _, v := range variants {
			p.Runs = append(p.Runs, CheckRun{Variant: v})
		}
		return p, nil
	} else if err != nil {
		return nil, err
	}
	p.prog = prog
	stages := all
	if len(x.Answer) == 0 && len(all) > 0 {
		stages = all[:1] // properties only: the reference stage checks them
	}
	if opts.Stages != nil {
		stages = slices.DeleteFunc(slices.Clone(all), func(s interderive.Stage) bool { return !slices.Contains(opts.Stages, s.Name()) })
		if len(stages) == 0 {
			return nil, fmt.Errorf("%w: %s has none of the stages %s", ErrNoStage, c.Name(), strings.Join(opts.Stages, ", "))
		}
	}
	vs, staged := c.(VariantStager)
	for _, s := range stages {
		refused := Refusal(c, s)
		if refused == nil {
			p.stages[s.Name()] = s
		}
		runs := 0
		var offEngine []Skip // the engine's refusals (EngineRefuser), by reason
		for _, v := range variants {
			if staged && !vs.RunsUnder(s, v) {
				continue
			}
			off := RefusalOn(c, s, v, opts.Engine)
			for _, m := range c.Modes(v) {
				switch {
				case refused != nil:
					runs++
				case off != nil:
					if i := slices.IndexFunc(offEngine, func(k Skip) bool { return k.Reason == off.Error() }); i >= 0 {
						offEngine[i].Runs++
					} else {
						offEngine = append(offEngine, Skip{Stage: s.Name(), Reason: off.Error(), Runs: 1})
					}
				default:
					p.modes[modeKey(v, m.Name)] = m
					p.Runs = append(p.Runs, CheckRun{Stage: s.Name(), Variant: v, Mode: m.Name})
				}
			}
		}
		if refused != nil && runs > 0 {
			p.Skipped = append(p.Skipped, Skip{Stage: s.Name(), Reason: refused.Error(), Runs: runs})
		}
		p.Skipped = append(p.Skipped, offEngine...)
	}
	return p, nil
}

// ErrNoStage says that a file's calculus has none of the stages --stage selects: check
// skips the file and counts it (CheckReport.Skipped), as --semantics leaves the files
// of other calculi alone; a check that runs nothing at all is still an error.
var ErrNoStage = errors.New("skipped")

// Run makes one of the plan's runs and returns its failures, none when it passed.
// The answer must be the expected one in every mode; the rules lines must hold in
// the reference mode (whose sequence of contractions is the reference one). A run
// stuck, stopped at a resource limit or timed out fails, saying why.
func (p *CheckPlan) Run(r CheckRun, opts CheckOptions) []Failure {
	want := p.Expect.Answer[r.Variant]
	shown := ShownExpectation(want)
	fail := func(format string, args ...any) []Failure {
		return []Failure{{CheckRun: r, What: fmt.Sprintf(format, args...)}}
	}
	if p.loadErr != nil {
		if want == "type error" && p.loadErr.Phase == "type" {
			return nil
		}
		f := fail("expected %s, got a %s error", shown, p.loadErr.Phase)
		f[0].Detail = interderive.Describe(p.Path, p.src, p.loadErr.Err)
		return f
	}
	st, ok := p.stages[r.Stage]
	mode, known := p.modes[modeKey(r.Variant, r.Mode)]
	if !ok || !known {
		return fail("not a run of this plan: %s under %s (%s)", r.Stage, r.Variant, r.Mode)
	}
	holds := p.checkHolds(r, st, mode.Reference)
	if _, expects := p.Expect.Answer[r.Variant]; !expects {
		return holds // properties only
	}
	fuel := p.Expect.Fuel
	if opts.Fuel > 0 {
		fuel = opts.Fuel
	}
	fired := map[string]bool{}
	o := interderive.Options{Fuel: fuel, Timeout: opts.Timeout, Memory: opts.Memory, Output: opts.Output, Engine: opts.Engine,
		OnContract: func(rule string) { fired[rule] = true }}
	mode.Apply(&o)
	out, err := runSafely(p.prog, st, r.Variant, o)
	got := out.Observation
	var rt *interderive.RuntimeError
	switch {
	case errors.As(err, &rt):
		got = "run-time error: " + rt.Reason
	case errors.Is(err, interderive.ErrOutOfFuel):
		got = "out of fuel"
	case errors.Is(err, interderive.ErrTimeout):
		return fail("expected %s, but the run timed out after %s", shown, opts.Timeout)
	case errors.Is(err, interderive.ErrResourceLimit):
		f := fail("expected %s, but the run stopped at a resource limit: %v", shown, err)
		f[0].outOfMemory = errors.Is(err, interderive.ErrOutOfMemory)
		return f
	case errors.Is(err, interderive.ErrStuck):
		return fail("expected %s, but %v", shown, err)
	case err != nil:
		return fail("expected %s, but the run failed: %v", shown, err)
	}
	fs := holds
	if err != nil && !Matches(want, got) || err == nil && !MatchesIn(p.Calculus, want, got, out) {
		if why := unreadable(p.Calculus, want); why != "" {
			fs = append(fs, fail("expected %s, which does not read as an answer (%s), got %s", shown, why, got)...)
		} else {
			fs = append(fs, fail("expected %s, got %s", shown, got)...)
		}
	}
	if wantType, ok := p.Expect.Type[r.Variant]; ok {
		fs = append(fs, p.checkType(r, wantType)...)
	}
	if !mode.Reference {
		return fs
	}
	for _, rule := range p.Expect.Rules[r.Variant] {
		if !fired[rule] {
			fs = append(fs, fail("rule %s never fired (fired: %s)", rule, strings.Join(sortedKeys(fired), " "))...)
		}
	}
	return fs
}

// runSafely is prog.Run, with a panic of the stage turned into an error and a stuck
// run's error naming the stage, so that a run always ends with its outcome.
func runSafely(prog Program, s interderive.Stage, variant string, opts interderive.Options) (out Outcome, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: the %s stage panicked: %v", s.Name(), p)
		}
	}()
	out, err = prog.Run(s, variant, opts)
	return out, interderive.InStage(err, s.Name())
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// PlanFiles reads and plans every file, in order, each in the calculus and language
// of its extension, or of lang (--lang) when it is given: what check runs. A file
// that cannot be checked has a nil plan and its error, ready to print: unreadable,
// with malformed expectation comments (FILE:LINE:COL: message, the line, a caret),
// with no expectation, or that no run applies to. "-" is read from stdin, and needs
// lang. Reading a file stops after opts.Timeout. An unknown name among the options
// is an error of every file. A file of a Family is planned in the calculus its
// definition makes (Define); a definition that cannot be made is the file's error.
func (w *Workbench) PlanFiles(files []string, lang string, stdin io.Reader, opts CheckOptions) ([]*CheckPlan, []error) {
	plans, errs := make([]*CheckPlan, len(files)), make([]error, len(files))
	if err := w.checkNames(opts.Stages, opts.Only); err != nil {
		for i := range errs {
			errs[i] = err
		}
		return plans, errs
	}
	for i, file := range files {
		c, l, err := w.LanguageFor(file, lang)
		if file == "-" && lang == "" {
			err = fmt.Errorf("reading a program from standard input (-) needs --lang (%s)", strings.Join(w.LanguageNames(), ", "))
		}
		if err != nil {
			errs[i] = err
			continue
		}
		src, err := ReadSource(file, stdin, opts.Timeout)
		if err != nil {
			errs[i] = err
			continue
		}
		if c, err = w.Define(c, opts.Definitions, file, src); err != nil {
			errs[i] = err
			continue
		}
		plans[i], err = w.PlanCheck(DisplayName(file), src, c, l.Ext, opts)
		switch {
		case errors.Is(err, ErrNoStage):
			errs[i] = err // skipped, not an error of the file
		case err != nil:
			errs[i] = errors.New(interderive.Describe(DisplayName(file), src, err))
		}
	}
	return plans, errs
}

// checkHolds checks the file's holds: lines on a run of the reference mode, on the
// stages that check them (PropertyHolder).
func (p *CheckPlan) checkHolds(r CheckRun, st interderive.Stage, reference bool) []Failure {
	if len(p.Expect.Holds) == 0 || !reference {
		return nil
	}
	h, ok := p.prog.(PropertyHolder)
	if !ok {
		return []Failure{{CheckRun: r, What: "a holds: line, but the calculus states no property of a program"}}
	}
	var fs []Failure
	for _, q := range p.Expect.Holds {
		if _, err := h.CheckProperty(q, st); err != nil {
			fs = append(fs, Failure{CheckRun: r, What: fmt.Sprintf("%s does not hold: %v", q, err)})
		}
	}
	return fs
}

// checkType checks the program's type against the file's type: line, where its
// calculus types it (Typed); a calculus that types no program fails the line.
func (p *CheckPlan) checkType(r CheckRun, want string) []Failure {
	typed, ok := p.prog.(Typed)
	got, types := "", false
	if ok {
		got, types = typed.TypeOf()
	}
	switch {
	case !types:
		return []Failure{{CheckRun: r, What: "a type: line, but the calculus types no program (a rule file names its typing judgment with (typing ...))"}}
	case !Matches(want, got):
		return []Failure{{CheckRun: r, What: fmt.Sprintf("expected type %s, got %s", want, got)}}
	}
	return nil
}
