package workbench

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// A Family is a calculus made at run time from a definition file: a file that
// defines a calculus's grammar and semantics (docs/extending.md), and every program of
// the family is in the calculus its definition makes. The family is what the registry
// lists; its Load refuses (a program needs its definition), and the workbench loads a
// program of the family in the calculus Define makes for it (Workbench.Define).
//
// A calculus Define makes has the family's name, languages and variant parameter,
// and supports the same stages: the workbench finds its stages, variants and modes
// as the family's.
type Family interface {
	Calculus
	// DefinitionFlag is the flag, without its dashes, that names a definition file on
	// the command line (run, trace, compare, check, fuzz), and its help.
	DefinitionFlag() (flag, doc string)
	// Define makes the calculus of a program: from the definition file def when it is
	// not "" (the flag's value), else from the one the program at path, whose source is
	// src, names or sits beside. An unknown, unreadable or ill-formed definition is an
	// error, rendered for a person (positions in the definition file, with carets).
	// fuzz calls it with path "" and src nil: then def must be given.
	Define(def, path string, src []byte) (Calculus, error)
}

// A Deriver is a Family that shows what the stages derive from a definition, for a
// person (interderive derive FILE): tables, transitions, equations.
type Deriver interface {
	Family
	// DefinitionExt is the extension of its definition files, without the dot.
	DefinitionExt() string
	// Derive reads the definition file def and prints what the stages given (those
	// the family supports, in derivation order) derive from it. An unreadable or
	// ill-formed definition is an error, rendered for a person.
	Derive(def string, stages []interderive.Stage) (string, error)
}

// DeriverFor finds the Deriver of a definition file by its extension.
func (w *Workbench) DeriverFor(path string) (Deriver, error) {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	var exts []string
	for _, e := range w.calculi {
		if d, ok := e.c.(Deriver); ok {
			if d.DefinitionExt() == ext {
				return d, nil
			}
			exts = append(exts, "*."+d.DefinitionExt())
		}
	}
	return nil, fmt.Errorf("%s: not a definition file (known: %s)", interderive.Escape(path), strings.Join(exts, ", "))
}

// A Headed program needs comment lines above its source to read back as the same
// program (one that names its definition file). fuzz writes them first in a
// counterexample's file (each after the calculus's LineComment and a blank).
type Headed interface {
	Header() []string
}

// A Commenter is a calculus whose line comments do not start with "--": its
// expectation comments (ParseExpectations) start with LineComment instead
// (";" for s-expressions: ; expect: 4).
type Commenter interface {
	LineComment() string
}

// lineComment is what a line comment of c starts with.
func lineComment(c Calculus) string {
	if cm, ok := c.(Commenter); ok && cm.LineComment() != "" {
		return cm.LineComment()
	}
	return "--"
}

// DefinitionFlags are the definition flags of the registered families, in the
// registry's order, each once: the flags run, trace, compare, check and fuzz take
// besides the variant flags. Each is its flag and its help.
func (w *Workbench) DefinitionFlags() [][2]string {
	var out [][2]string
	for _, e := range w.calculi {
		if f, ok := e.c.(Family); ok {
			flag, doc := f.DefinitionFlag()
			if !slices.ContainsFunc(out, func(p [2]string) bool { return p[0] == flag }) {
				out = append(out, [2]string{flag, doc})
			}
		}
	}
	return out
}

// Define is the calculus a program of c is in: c itself, or, when c is a Family, the
// calculus its definition makes (defs gives the definition flags' values, by flag;
// path and src are the program's). A calculus that is not a family takes no
// definition: a definition flag given for it is ignored, as a variant flag of another
// calculus is.
func (w *Workbench) Define(c Calculus, defs map[string]string, path string, src []byte) (Calculus, error) {
	f, ok := c.(Family)
	if !ok {
		return c, nil
	}
	flag, _ := f.DefinitionFlag()
	d, err := f.Define(defs[flag], path, src)
	if err != nil {
		return nil, err
	}
	if d.Name() != c.Name() {
		return nil, fmt.Errorf("calculus %s: its definition made a calculus named %s", c.Name(), d.Name())
	}
	return d, nil
}

// VariantLabel is how the commands name a variant of c for a person, in a trace's
// header and a comparison's column: the variant parameter (its flag) and the variant.
// A calculus a definition file makes (Defined) has one variant, the file itself, whose
// value (a rule file's "file") names nothing the person wrote: its label is the
// language the file declares and the file, "cbv (testdata/rules/cbv.sem)", under the
// parameter "language".
func VariantLabel(c Calculus, variant string) (parameter, label string) {
	if d, ok := c.(Defined); ok {
		if language, file := d.Defined(); file != "" {
			return "language", language + " (" + file + ")"
		}
	}
	return c.Variant().Flag, variant
}

// LabelVariants is a comparison of c's variants, and the variants compared, with each
// variant named by its label (VariantLabel), for a person: cmp itself, and variants,
// are not changed.
func LabelVariants(c Calculus, cmp Comparison, variants []string) (Comparison, []string) {
	label := func(v string) string {
		_, l := VariantLabel(c, v)
		return l
	}
	out := cmp
	out.Rows = slices.Clone(cmp.Rows)
	for i := range out.Rows {
		out.Rows[i].Variant = label(out.Rows[i].Variant)
	}
	out.Disagreements = slices.Clone(cmp.Disagreements)
	for i := range out.Disagreements {
		out.Disagreements[i].Variant = label(out.Disagreements[i].Variant)
	}
	out.Partial = slices.Clone(cmp.Partial)
	for i := range out.Partial {
		out.Partial[i].Variant = label(out.Partial[i].Variant)
	}
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = label(v)
	}
	return out, names
}
