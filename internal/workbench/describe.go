package workbench

import (
	"fmt"
	"io"
	"strings"
)

// Description is what the workbench can run, for interderive calculi: the stages in
// derivation order, and every calculus with its languages, stages and variants.
type Description struct {
	Stages  []StageInfo    `json:"stages"`
	Calculi []CalculusInfo `json:"calculi"`
}

// StageInfo describes a stage.
type StageInfo struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// CalculusInfo describes a calculus.
type CalculusInfo struct {
	Name      string         `json:"name"`
	Doc       string         `json:"doc"`
	Languages []LanguageInfo `json:"languages"`
	// Stages are its stages in derivation order, the first its reference.
	Stages  []string      `json:"stages"`
	Variant ParameterInfo `json:"variant"`
	// Definition, for a Family, is the flag that names a program's definition file,
	// and what it says: how to run one of its programs.
	Definition *DefinitionInfo `json:"definition,omitempty"`
}

// DefinitionInfo describes a family's definition flag (Family), and the command
// that shows what the stages derive from a definition, if the family has it (Deriver).
type DefinitionInfo struct {
	Flag   string `json:"flag"`
	Doc    string `json:"doc"`
	Derive string `json:"derive,omitempty"`
}

// LanguageInfo describes a language.
type LanguageInfo struct {
	Ext string `json:"extension"`
	Doc string `json:"doc"`
}

// ParameterInfo describes a calculus's variant parameter.
type ParameterInfo struct {
	Flag    string        `json:"flag"`
	Doc     string        `json:"doc"`
	Default string        `json:"default"`
	Values  []VariantInfo `json:"values"`
}

// VariantInfo describes a variant: its name, whether a plain -- expect: comment covers
// it, and its modes, the reference first.
type VariantInfo struct {
	Name   string   `json:"name"`
	Expect bool     `json:"expect"`
	Modes  []string `json:"modes"`
}

// Describe describes the workbench.
func (w *Workbench) Describe() Description {
	d := Description{Stages: []StageInfo{}, Calculi: []CalculusInfo{}}
	for _, s := range w.stages {
		d.Stages = append(d.Stages, StageInfo{Name: s.Name(), Doc: s.Doc()})
	}
	for _, e := range w.calculi {
		c := e.c
		info := CalculusInfo{Name: c.Name(), Doc: c.Doc(), Languages: []LanguageInfo{}, Stages: stageNames(e.stages)}
		for _, l := range c.Languages() {
			info.Languages = append(info.Languages, LanguageInfo(l))
		}
		if f, ok := c.(Family); ok {
			flag, doc := f.DefinitionFlag()
			info.Definition = &DefinitionInfo{Flag: flag, Doc: doc}
			if d, ok := c.(Deriver); ok {
				info.Definition.Derive = "interderive derive FILE." + d.DefinitionExt()
			}
		}
		p := c.Variant()
		def, _ := w.VariantFor(c, "")
		info.Variant = ParameterInfo{Flag: p.Flag, Doc: p.Doc, Default: def, Values: []VariantInfo{}}
		expected := p.expected()
		for _, v := range p.Values {
			vi := VariantInfo{Name: v, Modes: []string{}}
			for _, m := range c.Modes(v) {
				vi.Modes = append(vi.Modes, m.Name)
			}
			for _, x := range expected {
				vi.Expect = vi.Expect || x == v
			}
			info.Variant.Values = append(info.Variant.Values, vi)
		}
		d.Calculi = append(d.Calculi, info)
	}
	return d
}

// WriteText prints the description for a person: each calculus with its doc, its
// languages (*.EXT), its stages (the reference marked), its variant flag and values
// (the default marked, with the modes of those that have more than one), for a
// family its definition flag (and the command that shows a derivation), then the
// stages with their docs.
func (d Description) WriteText(w io.Writer) {
	for i, c := range d.Calculi {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s: %s\n", c.Name, c.Doc)
		for _, l := range c.Languages {
			fmt.Fprintf(w, "  *.%-10s %s\n", l.Ext, l.Doc)
		}
		stages := append([]string{}, c.Stages...)
		if len(stages) > 0 {
			stages[0] += " (reference)"
		}
		fmt.Fprintf(w, "  stages     %s\n", strings.Join(stages, ", "))
		var values []string
		for _, v := range c.Variant.Values {
			s := v.Name
			if v.Name == c.Variant.Default {
				s += " (default)"
			}
			if len(v.Modes) > 1 {
				s += " [" + strings.Join(v.Modes, ", ") + "]"
			}
			values = append(values, s)
		}
		fmt.Fprintf(w, "  --%-9s %s: %s\n", c.Variant.Flag, c.Variant.Doc, strings.Join(values, ", "))
		if d := c.Definition; d != nil {
			fmt.Fprintf(w, "  --%-9s %s\n", d.Flag+" FILE", d.Doc)
			if d.Derive != "" {
				fmt.Fprintf(w, "  %-11s what the stages derive from FILE\n", d.Derive)
			}
		}
	}
	if len(d.Stages) > 0 {
		fmt.Fprintln(w, "\nstages, in derivation order:")
		for _, s := range d.Stages {
			fmt.Fprintf(w, "  %-11s %s\n", s.Name, s.Doc)
		}
	}
}
