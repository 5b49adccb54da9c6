package driver

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
)

// CheckOptions select and bound the runs check makes.
type CheckOptions struct {
	// Stages are the stages to run: every stage of a file's language when nil.
	Stages []string
	// Only narrows the variants, per variant flag (VariantFlag: "semantics" for the
	// gradual calculi, "ad" for the differentiable language). A language whose flag
	// is absent from the map runs every variant it has an expectation for.
	Only map[string][]string
	// Fuel, when positive, is every run's budget, in place of the file's fuel line
	// (and of interderive.DefaultFuel).
	Fuel int
	// Timeout, when positive, bounds each run's time; Memory its live heap and Output
	// the printed answer (interderive.Options).
	Timeout time.Duration
	Memory  int64
	Output  int
}

// A CheckRun is one run of a file: a stage under a variant in a merging mode. A
// program that does not load has one run per variant and no stage (Stage "").
type CheckRun struct {
	Stage, Variant string
	Mode           interderive.Merging
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
}

// A CheckPlan is a program file ready for check: its expectations, the program, and
// the runs that check it.
type CheckPlan struct {
	Path   string // as messages name it
	Lang   Language
	Expect Expectations
	Runs   []CheckRun

	src     []byte
	prog    Program    // nil when the program does not load
	loadErr *LoadError // why it does not
}

// mergingModes is a language whose programs can run merging pending coercions or
// not (the gradual calculi): check runs them once per mode that applies.
type mergingModes interface {
	// MergingModes lists the modes check runs a program in under a variant, the
	// first being the one the rules lines describe.
	MergingModes(variant string) []interderive.Merging
}

// MergingModes are the modes a gradual program is checked in under a semantics:
// unmerged, the reference sequence of contractions (what rules lines describe), and,
// where merging preserves answers (gradual.MergesSafely: LD and LUD), merged on
// every stage, the reduction semantics and the calculus of closures included. Where
// merging may change the answer (ED, EUD) no stage merges by default, and the
// unmerged run is the only one.
func (gradualLang) MergingModes(variant string) []interderive.Merging {
	if sem, ok := g.Lookup(variant, CastSemantics()...); ok && g.MergesSafely(sem) {
		return []interderive.Merging{interderive.Unmerged, interderive.Merged}
	}
	return []interderive.Merging{interderive.Unmerged}
}

// PlanCheck reads a program file's expectations, loads the program and lists the runs
// that check it: every stage selected that the language has, under every variant
// the file expects something of that the options select, in every merging mode that
// applies (a language without modes runs once, in its default). The error is a
// positioned one (an interderive.ErrorList) when the expectation comments are
// malformed, and a plain one when no run applies: a file that checks nothing does not
// pass.
func PlanCheck(path string, src []byte, l Language, opts CheckOptions) (*CheckPlan, error) {
	x, err := ParseExpectations(src, l)
	if err != nil {
		return nil, err
	}
	p := &CheckPlan{Path: path, Lang: l, Expect: x, src: src}
	// Only the variants with an expectation run: a program may be about some of them
	// (and a variant can be too slow for some programs, like figure6 differentiation).
	var expected, variants []string
	only, narrowed := opts.Only[VariantFlag(l)]
	for _, v := range l.Variants() {
		if _, ok := x.Answer[v]; ok {
			expected = append(expected, v)
			if !narrowed || slices.Contains(only, v) {
				variants = append(variants, v)
			}
		}
	}
	switch {
	case len(expected) == 0:
		return nil, fmt.Errorf("no expectation: write -- expect: ANSWER")
	case len(variants) == 0:
		return nil, fmt.Errorf("no run: the file expects something only under %s, and --%s selects %s",
			strings.Join(expected, ", "), VariantFlag(l), strings.Join(only, ", "))
	}
	prog, err := l.Load(src)
	if errors.As(err, &p.loadErr) {
		for _, v := range variants {
			p.Runs = append(p.Runs, CheckRun{Variant: v})
		}
		return p, nil
	} else if err != nil {
		return nil, err
	}
	p.prog = prog
	stages := l.Stages()
	if opts.Stages != nil {
		stages = slices.DeleteFunc(slices.Clone(opts.Stages), func(s string) bool { return !slices.Contains(l.Stages(), s) })
		if len(stages) == 0 {
			return nil, fmt.Errorf("no run: %s has none of the stages %s", l.Name(), strings.Join(opts.Stages, ", "))
		}
	}
	for _, stage := range stages {
		for _, v := range variants {
			modes := []interderive.Merging{interderive.MergeDefault}
			if m, ok := l.(mergingModes); ok {
				modes = m.MergingModes(v)
			}
			for _, mode := range modes {
				p.Runs = append(p.Runs, CheckRun{Stage: stage, Variant: v, Mode: mode})
			}
		}
	}
	return p, nil
}

// Run makes one of the plan's runs and returns its failures, none when it passed.
// The answer must be the expected one in every mode; the rules lines must hold in
// the runs that do not merge (their sequence of contractions is the reference one).
func (p *CheckPlan) Run(r CheckRun, opts CheckOptions) []Failure {
	want := p.Expect.Answer[r.Variant]
	shown := strings.TrimPrefix(want, approxPrefix)
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
	fuel := p.Expect.Fuel
	if opts.Fuel > 0 {
		fuel = opts.Fuel
	}
	fired := map[string]bool{}
	out, err := p.prog.Run(r.Stage, r.Variant, interderive.Options{Fuel: fuel, Merging: r.Mode, Timeout: opts.Timeout,
		Memory: opts.Memory, Output: opts.Output, OnContract: func(rule string) { fired[rule] = true }})
	got := out.Observation
	switch {
	case IsFuel(err):
		got = "out of fuel"
	case errors.Is(err, interderive.ErrTimeout):
		return fail("expected %s, but the run timed out after %s", shown, opts.Timeout)
	case errors.Is(err, interderive.ErrResourceLimit):
		return fail("expected %s, but the run stopped at a resource limit: %v", shown, err)
	case errors.Is(err, interderive.ErrStuck):
		return fail("expected %s, but %v", shown, err)
	case err != nil:
		return fail("expected %s, but the run failed: %v", shown, err)
	}
	var fs []Failure
	if !Matches(want, got) {
		fs = fail("expected %s, got %s", shown, got)
	}
	if r.Mode == interderive.Merged {
		return fs
	}
	for _, rule := range p.Expect.Rules[r.Variant] {
		if !fired[rule] {
			fs = append(fs, fail("rule %s never fired (fired: %s)", rule, strings.Join(sortedKeys(fired), " "))...)
		}
	}
	return fs
}
