package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive/dpl"
	"github.com/interderive/interderive/internal/driver"
	"github.com/spf13/cobra"
)

// The names the flags take. Every name is exact (case-sensitive), and an unknown one
// is a usage error (exit status 2) whose message lists the known ones, whatever the
// file's language: a flag that does not apply to it is still checked.
//
// --stage takes one stage in run and trace (trace also takes all), and a
// comma-separated list, or all, in check, fuzz and bench; --semantics and --ad take
// one name in run and trace, and a list, or all, in check, compare, fuzz and bench.

// stageNames lists every language's stages, in derivation order.
func stageNames() []string {
	var names []string
	for _, l := range driver.Languages() {
		for _, s := range l.Stages() {
			if !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
	}
	return names
}

// semanticsNames lists the cast semantics: ld, lud, ed, eud, then the custom ones.
func semanticsNames() []string {
	var names []string
	for _, s := range driver.CastSemantics() {
		names = append(names, s.Name())
	}
	return names
}

// strategyNames lists the differentiation strategies.
func strategyNames() []string {
	var names []string
	for _, d := range dpl.Differentiators() {
		names = append(names, d.Name())
	}
	return names
}

// nameFlags are the flags whose values are names.
var nameFlags = [...]string{"stage", "semantics", "ad"}

// flagNames is what a value of a name flag is called, and the known names.
func flagNames(flag string) (noun string, known []string) {
	switch flag {
	case "stage":
		return "stage", stageNames()
	case "semantics":
		return "cast semantics", semanticsNames()
	case "ad":
		return "differentiation strategy", strategyNames()
	}
	panic("flagNames: not a name flag: " + flag)
}

// unknownName is the error for a name that is not one of the known ones.
func unknownName(flag, name string) error {
	noun, known := flagNames(flag)
	return fmt.Errorf("unknown %s %q in --%s (known: %s)", noun, name, flag, strings.Join(known, ", "))
}

// oneName reads a flag that takes one name (run, trace): "" stays "" (the default).
func oneName(flag, value string) (string, error) {
	if value == "" {
		return "", nil
	}
	if strings.Contains(value, ",") {
		return "", fmt.Errorf("--%s takes one name here, not the list %q (check, fuzz and bench take lists)", flag, value)
	}
	if _, known := flagNames(flag); !slices.Contains(known, value) {
		return "", unknownName(flag, value)
	}
	return value, nil
}

// nameList reads a flag that takes a comma-separated list of names, or all: nil
// for all, else the names in the order given, each once. An empty list is an error.
func nameList(flag, value string) ([]string, error) {
	_, known := flagNames(flag)
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
		if !slices.Contains(known, name) {
			return nil, unknownName(flag, name)
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
// names: --stage, --semantics, --ad and --lang (after the last comma, for the flags
// that take lists).
func registerCompletions(root *cobra.Command) {
	lists := map[string]bool{"check": true, "fuzz": true, "bench": true, "compare": true}
	for _, cmd := range root.Commands() {
		for _, flag := range nameFlags {
			if cmd.Flags().Lookup(flag) == nil {
				continue
			}
			known := func() []string { _, k := flagNames(flag); return k }
			list := lists[cmd.Name()] && !(cmd.Name() == "compare" && flag == "stage")
			extra := []string{}
			if flag == "stage" && cmd.Name() == "trace" || list {
				extra = []string{"all"}
			}
			_ = cmd.RegisterFlagCompletionFunc(flag, completeNames(known, extra, list))
		}
		if cmd.Flags().Lookup("lang") != nil {
			_ = cmd.RegisterFlagCompletionFunc("lang", completeNames(func() []string {
				var names []string
				for _, l := range driver.Languages() {
					names = append(names, l.Name())
				}
				return names
			}, nil, false))
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
