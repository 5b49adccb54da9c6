package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// The names the flags take, all from the registry (internal/calculi): --stage the
// stages, each calculus's variant flag (Parameter.Flag) its
// values, --mode the modes, --lang the languages. Every name is exact (case-sensitive),
// and an unknown one is a usage error (exit status 2) whose message lists the known
// ones, whatever the file's calculus: a flag that does not apply to it is still
// checked.
//
// --stage takes one stage in run and trace (trace also takes all), and a
// comma-separated list, or all, in check, fuzz and bench; a variant flag takes one name
// in run and trace, and a list, or all, in check, compare, fuzz and bench.

// modeNames lists every mode of every calculus, under any variant.
func (a *app) modeNames() []string {
	var names []string
	for _, c := range a.wb.Calculi() {
		for _, v := range c.Variant().Values {
			for _, m := range c.Modes(v) {
				if !slices.Contains(names, m.Name) {
					names = append(names, m.Name)
				}
			}
		}
	}
	return names
}

// flagNames is what a value of a name flag is called, and the known names; ok is
// false for a flag that takes no names.
func (a *app) flagNames(flag string) (noun string, known []string, ok bool) {
	switch flag {
	case "stage":
		return "stage", a.wb.StageNames(), true
	case "mode":
		return "mode", a.modeNames(), true
	case "lang":
		return "language", a.wb.LanguageNames(), true
	}
	if p, err := a.wb.Parameter(flag); err == nil {
		return p.Name(), p.Values, true
	}
	return "", nil, false
}

// nameFlags are the flags whose values are names: --stage, the variant flags, --mode.
func (a *app) nameFlags() []string {
	flags := []string{"stage"}
	for _, p := range a.wb.Parameters() {
		flags = append(flags, p.Flag)
	}
	return append(flags, "mode")
}

// known reports whether name is a value of flag: one of its names, or, for a
// parameter whose values may be files (workbench.Parameter.FileExt), a file's path.
func (a *app) known(flag, name string) bool {
	if p, err := a.wb.Parameter(flag); err == nil {
		return p.Accepts(name)
	}
	_, known, _ := a.flagNames(flag)
	return slices.Contains(known, name)
}

// unknownName is the error for a name that is not one of the known ones.
func (a *app) unknownName(flag, name string) error {
	noun, known, _ := a.flagNames(flag)
	files := ""
	if p, err := a.wb.Parameter(flag); err == nil && p.FileExt != "" {
		files = ", or a FILE" + p.FileExt
	}
	return fmt.Errorf("unknown %s %q in --%s (known: %s%s)", noun, name, flag, strings.Join(known, ", "), files)
}

// oneName reads a flag that takes one name (run, trace): "" stays "" (the default).
func (a *app) oneName(flag, value string) (string, error) {
	if value == "" {
		return "", nil
	}
	if strings.Contains(value, ",") {
		return "", fmt.Errorf("--%s takes one name here, not the list %q (check, fuzz and bench take lists)", flag, value)
	}
	if !a.known(flag, value) {
		return "", a.unknownName(flag, value)
	}
	return value, nil
}

// nameList reads a flag that takes a comma-separated list of names, or all: nil
// for all, else the names in the order given, each once. An empty list is an error.
func (a *app) nameList(flag, value string) ([]string, error) {
	_, known, _ := a.flagNames(flag)
	parts := splitList(value)
	if len(parts) == 0 {
		return nil, fmt.Errorf("--%s is empty (give all, or a comma-separated list of %s)", flag, strings.Join(known, ", "))
	}
	var names []string
	for _, name := range parts {
		if name == "all" {
			if len(parts) > 1 {
				return nil, fmt.Errorf("--%s: all stands alone, not in a list", flag)
			}
			return nil, nil
		}
		if !a.known(flag, name) {
			return nil, a.unknownName(flag, name)
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// splitList splits a comma-separated list, trimming blanks and dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// registerCompletions completes, in every command, the values of the flags that take
// names (after the last comma, for the flags that take lists) and of --lang.
func (a *app) registerCompletions(root *cobra.Command) {
	lists := map[string]bool{"check": true, "fuzz": true, "bench": true, "compare": true}
	for _, cmd := range root.Commands() {
		for _, flag := range append(a.nameFlags(), "lang") {
			if cmd.Flags().Lookup(flag) == nil {
				continue
			}
			known := func() []string { _, k, _ := a.flagNames(flag); return k }
			list := lists[cmd.Name()] && !(cmd.Name() == "compare" && flag == "stage") && flag != "mode" && flag != "lang"
			extra := []string{}
			if flag == "stage" && cmd.Name() == "trace" || list {
				extra = []string{"all"}
			}
			_ = cmd.RegisterFlagCompletionFunc(flag, completeNames(known, extra, list))
		}
	}
}

// completeNames completes a name, or (list) the item after the last comma with the
// names not yet in the list.
func completeNames(known func() []string, extra []string, list bool) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		prefix, last := "", toComplete
		if i := strings.LastIndexByte(toComplete, ','); list && i >= 0 {
			prefix, last = toComplete[:i+1], toComplete[i+1:]
		}
		given := splitList(prefix)
		var out []cobra.Completion
		names := known()
		if prefix == "" {
			names = append(slices.Clone(extra), names...)
		}
		for _, n := range names {
			if strings.HasPrefix(n, last) && !slices.Contains(given, n) {
				out = append(out, prefix+n)
			}
		}
		directive := cobra.ShellCompDirectiveNoFileComp
		if list {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return out, directive
	}
}
