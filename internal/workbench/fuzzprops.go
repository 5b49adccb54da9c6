package workbench

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"pgregory.net/rapid"
)

// MaxFuzzSize bounds the size (depth) of fuzz's random programs: a calculus's
// generator keeps a program's size linear in its depth, so that at the bound a
// program takes a reference stage that is quadratic in the term seconds rather than
// milliseconds.
const MaxFuzzSize = 1000

// Lockstep is the name of the property every calculus has: every stage gives the
// reference stage's contractions, answer and reports (Workbench.Lockstep).
const Lockstep = "lockstep"

// What the lockstep property states, and what its failure is called.
const (
	lockstepDoc     = "every stage gives the reference stage's answer, contraction sequence and reports, in every mode of the variant"
	lockstepFailure = "disagreement"
)

// PropertyInfo describes a property fuzz can check: its name, what it states, and the
// calculi that have it.
type PropertyInfo struct {
	Name, Doc, Failure string
	Calculi            []string
}

// Properties are the properties fuzz can check (--props): lockstep, then every
// calculus's own, in the registry's order, each name once.
func (w *Workbench) Properties() []PropertyInfo {
	out := []PropertyInfo{{Name: Lockstep, Doc: lockstepDoc, Failure: lockstepFailure}}
	for _, e := range w.calculi {
		out[0].Calculi = append(out[0].Calculi, e.c.Name())
		for _, p := range e.c.Properties() {
			i := slices.IndexFunc(out, func(q PropertyInfo) bool { return q.Name == p.Name })
			if i < 0 {
				out = append(out, PropertyInfo{Name: p.Name, Doc: p.Doc, Failure: p.Failure})
				i = len(out) - 1
			}
			out[i].Calculi = append(out[i].Calculi, e.c.Name())
		}
	}
	return out
}

// FuzzOptions select what fuzz checks; nil selects everything.
type FuzzOptions struct {
	Calculi []string            // by name
	Props   []string            // Properties' names
	Only    map[string][]string // the variants, per variant flag
	// Stages are the stages compared with the reference, which always runs.
	Stages []string
	Size   int // the depth of the random programs, 1 to MaxFuzzSize
	// Definitions are the definition flags' values, by flag: a Family is fuzzed in
	// the calculus of the definition its flag names.
	Definitions map[string]string
	// Fuel, when positive, is every lockstep run's fuel, instead of the calculus's
	// (LockstepFueler, or DefaultLockstepFuel); Timeout, Memory and Output, when
	// positive, bound every lockstep run as in interderive.Options: a run they stop
	// agrees with the others up to where it stopped.
	Fuel    int
	Timeout time.Duration
	Memory  int64
	Output  int
	// Engine, when not "" nor interderive.EngineTables, runs the stages lockstep
	// compares with the reference (the reference stage itself too) on that engine,
	// and the reference on the tables (LockstepOn): the engine checked against the
	// semantics' definition.
	Engine string
}

// A FuzzPlan is what fuzz checks of one calculus.
type FuzzPlan struct {
	Calculus Calculus
	// Props are the selected properties it has, in order: lockstep first, then its
	// own.
	Props []string
	// Variants are those a case draws from.
	Variants []string
	// Stages are those lockstep and the properties run, the reference first.
	Stages []interderive.Stage
	Size   int
	// Fuel is every lockstep run's (FuzzOptions.Fuel, LockstepFueler, or
	// DefaultLockstepFuel); Timeout, Memory and Output are FuzzOptions'.
	Fuel    int
	Timeout time.Duration
	Memory  int64
	Output  int
	// Engine is FuzzOptions' ("" for the tables).
	Engine string
	// lockstep are the stages lockstep runs under each variant (lockstepStages),
	// found once.
	lockstep map[string][]interderive.Stage
	// Skip, when not empty, says why the calculus is not fuzzed: a Family whose
	// definition flag is not given, when fuzz was not asked for it by name.
	Skip string
}

// PlanFuzz checks fuzz's options and plans it: a plan per calculus selected that has
// a selected property, in the registry's order. Every name is checked, whichever
// calculi the selection keeps: an unknown calculus, property, stage, variant flag or
// variant is an error, and so is a selection of nothing. A Family is planned in the
// calculus of the definition its flag names; without one, it is an error when the
// family is named, and a plan with Skip set otherwise.
func (w *Workbench) PlanFuzz(o FuzzOptions) ([]FuzzPlan, error) {
	if o.Size < 1 || o.Size > MaxFuzzSize {
		return nil, fmt.Errorf("--size must be between 1 and %d, not %d", MaxFuzzSize, o.Size)
	}
	if err := w.checkNames(o.Stages, o.Only); err != nil {
		return nil, err
	}
	if o.Engine == interderive.EngineTables {
		o.Engine = ""
	}
	if err := interderive.CheckEngine(o.Engine); err != nil {
		return nil, err
	}
	props := w.Properties()
	for _, name := range o.Props {
		if !slices.ContainsFunc(props, func(p PropertyInfo) bool { return p.Name == name }) {
			var names []string
			for _, p := range props {
				names = append(names, p.Name)
			}
			return nil, fmt.Errorf("unknown property %q (--props takes all or a list of %s)", name, strings.Join(names, ", "))
		}
	}
	calculi := w.Calculi()
	if o.Calculi != nil {
		calculi = nil
		for _, name := range o.Calculi {
			c, err := w.CalculusNamed(name)
			if err != nil {
				return nil, err
			}
			calculi = append(calculi, c)
		}
	}
	var plans []FuzzPlan
	for _, c := range calculi {
		if f, ok := c.(Family); ok {
			flag, _ := f.DefinitionFlag()
			if o.Definitions[flag] == "" {
				if o.Calculi != nil {
					return nil, fmt.Errorf("fuzz of %s needs its definition: --%s FILE", c.Name(), flag)
				}
				plans = append(plans, FuzzPlan{Calculus: c, Skip: fmt.Sprintf("not fuzzed: its programs need a definition (--%s FILE)", flag)})
				continue
			}
			d, err := w.Define(c, o.Definitions, "", nil)
			if err != nil {
				return nil, err
			}
			c = d
			if all := w.StagesOf(c); len(all) > 0 && len(Running(c, all)) == 0 {
				// Nothing to run in lockstep, nor a property on: say why, never an
				// empty run (a non-deterministic rule file's relation).
				return nil, fmt.Errorf("fuzz of %s: no stage runs its programs: %v", c.Name(), Refusal(c, all[0]))
			}
		}
		p := FuzzPlan{Calculus: c, Size: o.Size, Fuel: DefaultLockstepFuel, Timeout: o.Timeout, Memory: o.Memory, Output: o.Output, Engine: o.Engine}
		if f, ok := c.(LockstepFueler); ok && f.LockstepFuel() > 0 {
			p.Fuel = f.LockstepFuel()
		}
		if o.Fuel > 0 {
			p.Fuel = o.Fuel
		}
		for _, name := range append([]string{Lockstep}, propNames(c.Properties())...) {
			if o.Props == nil || slices.Contains(o.Props, name) {
				p.Props = append(p.Props, name)
			}
		}
		if len(p.Props) == 0 {
			continue
		}
		values := c.Variant().Values
		p.Variants = values
		if only, ok := o.Only[c.Variant().Flag]; ok && only != nil {
			p.Variants = slices.DeleteFunc(slices.Clone(values), func(v string) bool { return !slices.Contains(only, v) })
			for _, v := range only { // a file variant (--semantics FILE.sem)
				if !slices.Contains(values, v) && c.Variant().Accepts(v) {
					if err := prepare(c, v); err != nil {
						return nil, err
					}
					p.Variants = append(p.Variants, v)
				}
			}
			if len(p.Variants) == 0 {
				return nil, fmt.Errorf("no variant of %s: --%s selects %s", c.Name(), c.Variant().Flag, strings.Join(only, ", "))
			}
			if !slices.ContainsFunc(p.Variants, func(v string) bool { return slices.Contains(values, v) }) {
				// Files only: the properties are of the named variants; a file is
				// fuzzed in lockstep, its stages against one another.
				p.Props = slices.DeleteFunc(p.Props, func(name string) bool { return name != Lockstep })
				if len(p.Props) == 0 {
					return nil, fmt.Errorf("--%s %s: a file variant is fuzzed in lockstep only (--props lockstep)", c.Variant().Flag, strings.Join(only, ","))
				}
			}
		}
		for i, s := range w.StagesOf(c) {
			if i == 0 || o.Stages == nil || slices.Contains(o.Stages, s.Name()) {
				p.Stages = append(p.Stages, s)
			}
		}
		p.lockstep = map[string][]interderive.Stage{}
		for _, v := range p.Variants {
			stages, skips := p.lockstepStages(v)
			if slices.Contains(p.Props, Lockstep) && p.Engine != "" && len(stages) < 2 {
				// Nothing on the engine to check against the reference: say why,
				// never a lockstep of the reference alone.
				why := "it has none of the stages selected"
				if len(skips) > 0 {
					why = skips[0].Reason
				}
				return nil, fmt.Errorf("fuzz of %s under %s on the %s engine: no stage runs there: %s", c.Name(), v, p.Engine, why)
			}
			p.lockstep[v] = stages
		}
		plans = append(plans, p)
	}
	if len(plans) == 0 {
		var names []string
		for _, c := range calculi {
			names = append(names, c.Name())
		}
		return nil, fmt.Errorf("--props %s selects no property of %s", strings.Join(o.Props, ","), strings.Join(names, ", "))
	}
	return plans, nil
}

// propNames are the names of properties, in order.
func propNames(ps []Property) []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return names
}

// Fuzz checks a plan's properties on random cases (see FuzzConfig for how many, and
// the rounds): each case draws a variant, then lockstep, if selected, draws a program
// (Calculus.Generate) and runs it in lockstep on the plan's stages in every mode of
// the variant, and each selected property of the calculus draws its own input and
// checks it. A failure is shrunk by rapid, and the smallest counterexample kept: for
// lockstep, the program with the disparity and the reference's answer as its
// expectation ("expect[VARIANT]: ANSWER", or "out of fuel" with the fuel), ready for
// check. progress, if not nil, hears how many cases were checked, every half second,
// and -1 at the end.
func (w *Workbench) Fuzz(p FuzzPlan, cfg FuzzConfig, progress func(int64)) FuzzResult {
	if progress == nil {
		progress = func(int64) {}
	}
	lockstep := slices.Contains(p.Props, Lockstep)
	var props []Property
	for _, q := range p.Calculus.Properties() {
		if slices.Contains(p.Props, q.Name) {
			props = append(props, q)
		}
	}
	flag := p.Calculus.Variant().Flag
	res := fuzz(func(t *rapid.T, found *Found) {
		variant := rapid.SampledFrom(p.Variants).Draw(t, flag)
		if lockstep {
			w.fuzzLockstep(t, found, p, variant)
		}
		if !slices.Contains(p.Calculus.Variant().Values, variant) {
			return // a file variant: lockstep only (the properties are of the named variants)
		}
		for _, q := range props {
			if q.Applies != nil && !q.Applies(variant) {
				continue
			}
			ce := q.Check(t, p.Size, variant, p.Stages)
			found.checked(q.Name)
			if ce != nil {
				found.record(q.Name, q.Failure, *ce)
				if ce.Err != nil {
					t.Fatalf("%s: %v", q.Failure, ce.Err)
				}
				t.Fatalf("%s", q.Failure)
			}
		}
	}, p.Props, cfg, progress)
	if !lockstep {
		res.Distinct = -1
	}
	if res.Found != nil {
		res.Found.LineComment = lineComment(p.Calculus)
	}
	return res
}

// fuzzLockstep draws a program under variant and runs it in lockstep in every mode.
func (w *Workbench) fuzzLockstep(t *rapid.T, found *Found, p FuzzPlan, variant string) {
	c := p.Calculus
	prog := c.Generate(t, p.Size, variant)
	src, err := prog.Source(interderive.PrintBudget{Max: 1 << 20})
	if err != nil {
		src += " …"
	}
	found.drawn(variant + "\n" + prog.Lang() + ": " + src)
	for i, mode := range c.Modes(variant) {
		ref, d := w.LockstepOn(c, prog, p.lockstep[variant], variant, p.bounded(mode), p.Fuel, p.Engine)
		if i == 0 {
			found.reached(ref.Err)
		}
		if d == nil {
			continue
		}
		found.checked(Lockstep)
		var comment []string
		if h, ok := prog.(Headed); ok {
			comment = append(comment, h.Header()...)
		}
		comment = append(comment, d.Error())
		var rt *interderive.RuntimeError
		switch {
		case errors.As(ref.Err, &rt):
			comment = append(comment, fmt.Sprintf("expect[%s]: run-time error: %s", variant, rt.Reason))
		case errors.Is(ref.Err, interderive.ErrOutOfFuel):
			comment = append(comment, fmt.Sprintf("expect[%s]: out of fuel", variant), fmt.Sprintf("fuel: %d", p.Fuel))
		case ref.Err != nil:
			// The reference failed too (stuck, too deep): which answer is right is not
			// known, and the file has no expectation.
			comment = append(comment, fmt.Sprintf("the reference stage: %v", ref.Err))
		default:
			comment = append(comment, fmt.Sprintf("expect[%s]: %s", variant, ref.Outcome.Observation))
		}
		found.record(Lockstep, lockstepFailure, Counterexample{Lang: prog.Lang(), Source: src, Comment: comment, Err: d})
		t.Fatalf("%v", d)
	}
	found.checked(Lockstep)
}

// lockstepStages are the stages lockstep runs under variant, the reference first:
// those of the plan that run the calculus's programs (a stage that refuses them,
// Refuser, is not in the lockstep); on an engine, the reference (run on the tables)
// and then each of them that the engine runs, the reference stage included
// (LockstepOn runs them on the engine), with the skips of the others.
func (p FuzzPlan) lockstepStages(variant string) ([]interderive.Stage, []Skip) {
	stages := Running(p.Calculus, RunningUnder(p.Calculus, p.Stages, variant))
	if p.Engine == "" || len(stages) == 0 {
		return stages, nil
	}
	on, skips := onEngine(p.Calculus, stages, variant, p.Engine)
	return append([]interderive.Stage{stages[0]}, on...), skips
}

// bounded is mode with the plan's time, memory and output budgets added to its
// options.
func (p FuzzPlan) bounded(mode Mode) Mode {
	if p.Timeout <= 0 && p.Memory <= 0 && p.Output <= 0 {
		return mode
	}
	apply := mode.Apply
	mode.Apply = func(o *interderive.Options) {
		if apply != nil {
			apply(o)
		}
		o.Timeout, o.Memory, o.Output = p.Timeout, p.Memory, p.Output
	}
	return mode
}

// Summary is the line fuzz prints for a calculus whose properties all held: "NAME: N
// programs (D distinct; reference run: V values, E run-time errors, S stuck, F out of
// fuel), every property holds (lockstep N programs, P2 N programs, P3 M
// compositions); seed S". N is the cases, --count of them: each case draws a variant
// and a program, which lockstep runs on every stage in every mode of the variant, and
// each property draws its own input. The part in parentheses is lockstep's, left out
// without it (and N is then "N cases": no program is common to them): D of the N programs are distinct, and each program is classified once,
// by its reference run (the reference stage's, in the variant's first mode), so that
// the outcomes add up to N; ", L at another limit" is added when some were. Each
// property is followed by how many inputs it was checked on, in its unit
// (Property.Unit): N, or fewer for a property that applies only to some variants
// (Property.Applies); lockstep on an engine says so ("lockstep N programs on the
// compiled engine against the tables' reference").
func (p FuzzPlan) Summary(res FuzzResult) string {
	head, programs := "cases", ""
	if res.Distinct >= 0 {
		head = "programs"
		programs = fmt.Sprintf(" (%d distinct; reference run: %d values, %d run-time errors, %d stuck, %d out of fuel",
			res.Distinct, res.Values, res.Errors, res.Stuck, res.OutOfFuel)
		if res.Limited > 0 {
			programs += fmt.Sprintf(", %d at another limit", res.Limited)
		}
		programs += ")"
	}
	units := map[string]string{}
	for _, q := range p.Calculus.Properties() {
		units[q.Name] = q.Unit
	}
	props := make([]string, len(res.Props))
	for i, name := range res.Props {
		unit := units[name]
		if unit == "" {
			unit = "programs"
		}
		props[i] = fmt.Sprintf("%s %d %s", name, res.PropChecks[i], unit)
		if name == Lockstep && p.Engine != "" {
			props[i] += fmt.Sprintf(" on the %s engine against the tables' reference", p.Engine)
		}
	}
	return fmt.Sprintf("%s: %d %s%s, every property holds (%s); seed %d",
		p.Calculus.Name(), res.Cases, head, programs, strings.Join(props, ", "), res.Seed)
}

// Text is the counterexample as a program file: a comment that says where it comes
// from, its comment lines (the failure, an expectation), and the program.
func (c *Found) Text() string {
	comment := c.LineComment
	if comment == "" {
		comment = "--"
	}
	text := comment + " found by interderive fuzz\n"
	for _, lines := range c.Comment {
		// A comment of several lines (an error with its source line and caret) is a
		// comment on each: the file stays a program.
		for _, line := range strings.Split(lines, "\n") {
			text += strings.TrimRight(comment+" "+line, " ") + "\n"
		}
	}
	return text + c.Source + "\n"
}

// Headline is what fuzz prints before the counterexample's text: "NAME: FAILURE (N
// runs, shrinking included; seed S, round R):".
func (c *Found) Headline(calculus string, res FuzzResult) string {
	return fmt.Sprintf("%s: %s (%d runs, shrinking included; seed %d, round %d):", calculus, c.Failure, res.Checked, res.Seed, c.Round)
}

// Path is the file in dir fuzz writes the counterexample to:
// fuzz-CALCULUS-PROPERTY-UNIXTIME.EXT.
func (c *Found) Path(dir, calculus string, unix int64) string {
	return filepath.Join(dir, fmt.Sprintf("fuzz-%s-%s-%d.%s", calculus, c.Prop, unix, c.Lang))
}
