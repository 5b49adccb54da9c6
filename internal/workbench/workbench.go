package workbench

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// A Workbench holds the calculi and the stages the command can run, as the registry
// lists them, and answers every question of names: which calculus a file is in, which
// stages a calculus has, which variants. Every lookup of a name that is not there is
// an error that lists the names that are.
type Workbench struct {
	calculi []*entry
	stages  []interderive.Stage
}

// entry is a registered calculus and its stages, in derivation order.
type entry struct {
	c      Calculus
	stages []interderive.Stage
}

// New makes a workbench of the calculi and the stages given, the stages in derivation
// order. A calculus's stages are the registered stages it Supports, in that order, the
// first being its reference. New refuses what would make a name ambiguous or a
// calculus unusable: two calculi of one name, two languages of one extension, two
// stages of one name, a calculus with no stage, and a variant parameter whose default
// or expected values are not among its values, or a variant whose modes are not one
// reference mode followed by the others.
func New(calculi []Calculus, stages []interderive.Stage) (*Workbench, error) {
	w := &Workbench{}
	var errs []error
	stageNames := map[string]bool{}
	for i, s := range stages {
		switch {
		case s == nil:
			errs = append(errs, fmt.Errorf("stage %d is nil", i+1))
			continue
		case s.Name() == "":
			errs = append(errs, fmt.Errorf("stage %d has no name", i+1))
			continue
		case stageNames[s.Name()]:
			errs = append(errs, fmt.Errorf("two stages are named %q", s.Name()))
			continue
		}
		stageNames[s.Name()] = true
		w.stages = append(w.stages, s)
	}
	names, exts := map[string]bool{}, map[string]string{}
	for i, c := range calculi {
		if c == nil {
			errs = append(errs, fmt.Errorf("calculus %d is nil", i+1))
			continue
		}
		name := c.Name()
		switch {
		case name == "":
			errs = append(errs, fmt.Errorf("calculus %d has no name", i+1))
			continue
		case names[name]:
			errs = append(errs, fmt.Errorf("two calculi are named %q", name))
			continue
		}
		names[name] = true
		if len(c.Languages()) == 0 {
			errs = append(errs, fmt.Errorf("calculus %s has no language", name))
		}
		for _, l := range c.Languages() {
			if l.Ext == "" || strings.ContainsAny(l.Ext, "./\\") {
				errs = append(errs, fmt.Errorf("calculus %s: %q is not a file extension (write it without the dot)", name, l.Ext))
				continue
			}
			if other, dup := exts[l.Ext]; dup {
				errs = append(errs, fmt.Errorf("the extension .%s is both %s's and %s's", l.Ext, other, name))
				continue
			}
			exts[l.Ext] = name
		}
		errs = append(errs, checkVariant(c)...)
		e := &entry{c: c}
		for _, s := range w.stages {
			if c.Supports(s) {
				e.stages = append(e.stages, s)
			}
		}
		if len(e.stages) == 0 {
			errs = append(errs, fmt.Errorf("calculus %s supports none of the stages", name))
		}
		w.calculi = append(w.calculi, e)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return w, nil
}

// checkVariant checks a calculus's variant parameter and its modes.
func checkVariant(c Calculus) []error {
	p := c.Variant()
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("calculus %s: "+format, append([]any{c.Name()}, args...)...))
	}
	if p.Flag == "" {
		bad("its variant parameter has no flag")
	}
	if len(p.Values) == 0 {
		bad("its variant parameter --%s has no value", p.Flag)
	}
	if p.Default != "" && !slices.Contains(p.Values, p.Default) {
		bad("the default %q of --%s is not one of its values (%s)", p.Default, p.Flag, strings.Join(p.Values, ", "))
	}
	seen := map[string]bool{}
	for _, v := range p.Values {
		if v == "" || v == "all" || strings.ContainsAny(v, ", \t[]") || seen[v] {
			bad("%q is not a name a list of --%s can hold", v, p.Flag)
		}
		seen[v] = true
		modes := c.Modes(v)
		if len(modes) == 0 || !modes[0].Reference {
			bad("under %s, the first mode is not the reference mode", v)
		}
		for i, m := range modes {
			if i > 0 && m.Reference {
				bad("under %s, two modes are the reference mode", v)
			}
			if m.Apply == nil {
				bad("under %s, the mode %q sets nothing (Apply is nil)", v, m.Name)
			}
		}
	}
	for _, v := range p.Expect {
		if !slices.Contains(p.Values, v) {
			bad("the expected value %q of --%s is not one of its values", v, p.Flag)
		}
	}
	return errs
}

// Calculi are the registered calculi, in the registry's order.
func (w *Workbench) Calculi() []Calculus {
	out := make([]Calculus, len(w.calculi))
	for i, e := range w.calculi {
		out[i] = e.c
	}
	return out
}

// Stages are the registered stages, in derivation order.
func (w *Workbench) Stages() []interderive.Stage { return slices.Clone(w.stages) }

// StageNames are the names of the registered stages, in derivation order.
func (w *Workbench) StageNames() []string { return stageNames(w.stages) }

// stageNames are the names of stages, in order.
func stageNames(stages []interderive.Stage) []string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.Name()
	}
	return names
}

// entry finds a registered calculus's entry, by its name; a calculus that is not
// registered has none.
func (w *Workbench) entry(c Calculus) *entry {
	for _, e := range w.calculi {
		if e.c.Name() == c.Name() {
			return e
		}
	}
	return nil
}

// StagesOf are a calculus's stages, in derivation order: the registered stages it
// supports, the first its reference.
func (w *Workbench) StagesOf(c Calculus) []interderive.Stage {
	if e := w.entry(c); e != nil {
		return slices.Clone(e.stages)
	}
	return nil
}

// StagesUnder are the stages of c that run the variant (VariantStager): all of them,
// unless c says otherwise.
func (w *Workbench) StagesUnder(c Calculus, variant string) []interderive.Stage {
	return RunningUnder(c, w.StagesOf(c), variant)
}

// RunningUnder are those of stages that run the variant of c (VariantStager), in
// order; stages itself is not changed.
func RunningUnder(c Calculus, stages []interderive.Stage, variant string) []interderive.Stage {
	vs, ok := c.(VariantStager)
	if !ok {
		return stages
	}
	return slices.DeleteFunc(slices.Clone(stages), func(s interderive.Stage) bool { return !vs.RunsUnder(s, variant) })
}

// Reference is a calculus's reference stage, the first of its stages.
func (w *Workbench) Reference(c Calculus) interderive.Stage {
	if e := w.entry(c); e != nil {
		return e.stages[0]
	}
	return nil
}

// CalculusNamed finds a calculus by name.
func (w *Workbench) CalculusNamed(name string) (Calculus, error) {
	var names []string
	for _, e := range w.calculi {
		if e.c.Name() == name {
			return e.c, nil
		}
		names = append(names, e.c.Name())
	}
	return nil, fmt.Errorf("unknown calculus %q (known: %s)", name, strings.Join(names, ", "))
}

// LanguageNames are the extensions of every calculus's languages, in the registry's
// order: what --lang takes.
func (w *Workbench) LanguageNames() []string {
	var names []string
	for _, e := range w.calculi {
		for _, l := range e.c.Languages() {
			names = append(names, l.Ext)
		}
	}
	return names
}

// LanguageNamed finds the calculus and the language of an extension (--lang).
func (w *Workbench) LanguageNamed(ext string) (Calculus, Language, error) {
	for _, e := range w.calculi {
		for _, l := range e.c.Languages() {
			if l.Ext == ext {
				return e.c, l, nil
			}
		}
	}
	return nil, Language{}, fmt.Errorf("unknown language %q (known: %s)", ext, strings.Join(w.LanguageNames(), ", "))
}

// LanguageFor picks the calculus and the language of a file by its extension, unless
// override (--lang) names one.
func (w *Workbench) LanguageFor(path, override string) (Calculus, Language, error) {
	if override != "" {
		return w.LanguageNamed(override)
	}
	ext := filepath.Ext(path)
	c, l, err := w.LanguageNamed(strings.TrimPrefix(ext, "."))
	if err != nil || ext == "" {
		return nil, Language{}, fmt.Errorf("%s: cannot tell the language from the extension %q; use --lang", path, ext)
	}
	return c, l, nil
}

// IsSource reports whether path has the extension of a registered language.
func (w *Workbench) IsSource(path string) bool {
	_, _, err := w.LanguageFor(path, "")
	return err == nil
}

// StageNamed finds a registered stage by name, whichever calculus has it.
func (w *Workbench) StageNamed(name string) (interderive.Stage, error) {
	for _, s := range w.stages {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("unknown stage %q (known: %s)", name, strings.Join(w.StageNames(), ", "))
}

// StageFor finds a stage of a calculus by name: "" is its last stage, the one
// furthest down the derivation (what run uses by default).
func (w *Workbench) StageFor(c Calculus, name string) (interderive.Stage, error) {
	stages := w.StagesOf(c)
	if len(stages) == 0 {
		return nil, fmt.Errorf("calculus %s is not registered", c.Name())
	}
	if name == "" {
		return stages[len(stages)-1], nil
	}
	for _, s := range stages {
		if s.Name() == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("stage %q is not available for %s (available: %s)", name, c.Name(), strings.Join(stageNames(stages), ", "))
}

// StageUnder finds a stage of a calculus that runs the variant on the engine named
// engine (interderive.Options.Engine), by name: "" is the last one that does, and
// does not refuse the calculus's programs (Refuser, EngineRefuser).
func (w *Workbench) StageUnder(c Calculus, variant, name, engine string) (interderive.Stage, error) {
	s, err := w.stageUnder(c, variant, name, engine)
	if err != nil {
		return nil, err
	}
	if err := RefusalOn(c, s, variant, engine); err != nil {
		return nil, err // a stage named that the engine does not run: the user's error
	}
	return s, nil
}

func (w *Workbench) stageUnder(c Calculus, variant, name, engine string) (interderive.Stage, error) {
	if name == "" {
		all := w.StagesUnder(c, variant)
		under := Running(c, all)
		for i := len(under) - 1; i >= 0; i-- {
			if RefusalOn(c, under[i], variant, engine) == nil {
				return under[i], nil
			}
		}
		if len(under) > 0 {
			return under[len(under)-1], nil // none on the engine: StageUnder says why
		}
		if len(all) > 0 {
			if err := Refusal(c, all[len(all)-1]); err != nil {
				return nil, err // every stage refuses: why
			}
		}
	}
	s, err := w.StageFor(c, name)
	if err != nil {
		return nil, err
	}
	if err := Refusal(c, s); err != nil {
		return nil, err // a stage named that refuses: the user's error
	}
	if vs, ok := c.(VariantStager); ok && !vs.RunsUnder(s, variant) {
		var names []string
		for _, u := range w.StagesUnder(c, variant) {
			names = append(names, u.Name())
		}
		return nil, fmt.Errorf("the %s stage does not run %s (the stages that do: %s)", s.Name(), variant, strings.Join(names, ", "))
	}
	return s, nil
}

// VariantFor checks a variant's name for a calculus: "" is the default.
func (w *Workbench) VariantFor(c Calculus, name string) (string, error) {
	p := c.Variant()
	if name == "" {
		if p.Default != "" {
			return p.Default, nil
		}
		return p.Values[0], nil
	}
	if !p.Accepts(name) {
		return "", fmt.Errorf("unknown %s %q for %s (known: %s%s)", p.Name(), name, c.Name(), strings.Join(p.Values, ", "), fileHint(p))
	}
	return name, nil
}

// ModeFor finds a mode of a calculus under a variant by name: "" is the reference
// mode. A name the variant does not list is looked for among the modes of the
// calculus's other variants, so that every variant can run in a mode that some
// variant has (compare --mode M runs every variant in M, where one variant has M, as it always
// has): a mode sets run options, whatever the variant.
func (w *Workbench) ModeFor(c Calculus, variant, name string) (Mode, error) {
	modes := c.Modes(variant)
	if name == "" {
		return modes[0], nil
	}
	for _, m := range modes {
		if m.Name == name {
			return m, nil
		}
	}
	var known []string
	for _, v := range c.Variant().Values {
		for _, m := range c.Modes(v) {
			if m.Name == name {
				return m, nil
			}
			if !slices.Contains(known, m.Name) {
				known = append(known, m.Name)
			}
		}
	}
	return Mode{}, fmt.Errorf("unknown mode %q for %s (known: %s)", name, c.Name(), strings.Join(known, ", "))
}

// modal reports whether a calculus has more than one mode under some variant: then
// a run's mode is worth naming in reports.
func modal(c Calculus) bool {
	for _, v := range c.Variant().Values {
		if len(c.Modes(v)) > 1 {
			return true
		}
	}
	return false
}

// Parameters are the calculi's variant parameters, one per flag, in the registry's
// order, for the command to register as flags. Calculi that
// share a flag share its entry: its values are all theirs, in order, each once, and
// its default and doc are the first's.
func (w *Workbench) Parameters() []Parameter {
	var out []Parameter
	for _, e := range w.calculi {
		p := e.c.Variant()
		i := slices.IndexFunc(out, func(q Parameter) bool { return q.Flag == p.Flag })
		if i < 0 {
			p.Values, p.Expect = slices.Clone(p.Values), slices.Clone(p.Expect)
			out = append(out, p)
			continue
		}
		for _, v := range p.Values {
			if !slices.Contains(out[i].Values, v) {
				out[i].Values = append(out[i].Values, v)
			}
		}
		if out[i].FileExt == "" {
			out[i].FileExt = p.FileExt
		}
	}
	return out
}

// Parameter is the parameter of a flag (without its dashes), as Parameters gives it.
func (w *Workbench) Parameter(flag string) (Parameter, error) {
	var flags []string
	for _, p := range w.Parameters() {
		if p.Flag == flag {
			return p, nil
		}
		flags = append(flags, "--"+p.Flag)
	}
	return Parameter{}, fmt.Errorf("unknown parameter --%s (known: %s)", flag, strings.Join(flags, ", "))
}

// fileHint says, in an error's list of known values, that a file's path is one too.
func fileHint(p Parameter) string {
	if p.FileExt == "" {
		return ""
	}
	return ", or a FILE" + p.FileExt
}

// checkOnly checks a selection of variants per flag (check --FLAG V1,V2 ...):
// every flag is a parameter's, and every name one of its values.
func (w *Workbench) checkOnly(only map[string][]string) error {
	flags := make([]string, 0, len(only))
	for f := range only {
		flags = append(flags, f)
	}
	slices.Sort(flags)
	for _, f := range flags {
		p, err := w.Parameter(f)
		if err != nil {
			return err
		}
		for _, v := range only[f] {
			if !p.Accepts(v) {
				return fmt.Errorf("unknown %s %q in --%s (known: %s%s)", p.Name(), v, f, strings.Join(p.Values, ", "), fileHint(p))
			}
		}
	}
	return nil
}

// SelectVariants are the variants of a calculus that a selection per flag keeps
// (--FLAG V1,V2: only[flag] lists them): every variant when the calculus's flag
// is absent or nil, else the ones listed, in the order given. A name the calculus does
// not have is an error.
func (w *Workbench) SelectVariants(c Calculus, only map[string][]string) ([]string, error) {
	p := c.Variant()
	names := only[p.Flag]
	if names == nil {
		return slices.Clone(p.Values), nil
	}
	var out []string
	for _, v := range names {
		if !p.Accepts(v) {
			return nil, fmt.Errorf("unknown %s %q for %s (known: %s%s)", p.Name(), v, c.Name(), strings.Join(p.Values, ", "), fileHint(p))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}
