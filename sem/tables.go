package sem

import (
	"fmt"
	"strings"
)

// FormatTables prints what the stages derive their decomposition from, for a person:
// for each kind, its values, its frames in search order (the hole as [], with its
// kind), its rules in order, its stuck shapes, and the decomposition table: for each
// root (an integer, a variable, each constructor), the value patterns, frames, rules
// and stuck shapes a term with that root is tried against, in order.
func FormatTables(l *Language) string {
	var b strings.Builder
	fmt.Fprintf(&b, "language %s, root kind %s\n", l.Name, l.Root().Name)
	if len(l.Layers) > 0 {
		var names []string
		for _, k := range l.Layers {
			names = append(names, k.Name)
		}
		fmt.Fprintf(&b, "inner layers (stepped by a rule's (step K a b)): %s\n", strings.Join(names, ", "))
	}
	if len(l.Classes) > 0 {
		b.WriteString("\nclasses:\n")
		for _, c := range l.Classes {
			var alts []string
			for _, a := range c.Alts {
				alts = append(alts, FormatPattern(a))
			}
			fmt.Fprintf(&b, "  %s ::= %s\n", c.Name, strings.Join(alts, " | "))
		}
	}
	if len(l.Functions) > 0 {
		b.WriteString("\nfunctions (meta-level: computed at once, no contraction):\n")
		for _, f := range l.Functions {
			if f.Hook != nil {
				fmt.Fprintf(&b, "  (%s ...) = a hook, written in Go: %s\n", f.Name, f.Hook.Doc)
			}
			for _, c := range f.Clauses {
				var args []string
				for _, a := range c.Args {
					args = append(args, FormatPattern(a))
				}
				fmt.Fprintf(&b, "  (%s %s) = %s", f.Name, strings.Join(args, " "), FormatPattern(c.RHS))
				for _, w := range c.Where {
					b.WriteString("  " + FormatCond(w))
				}
				b.WriteByte('\n')
			}
		}
	}
	for _, k := range l.Kinds {
		fmt.Fprintf(&b, "\nkind %s (sort %s), values %s:\n", k.Name, k.Sort.Name, k.Meta)
		if k.NormalForms {
			b.WriteString("  value  its normal forms\n")
		}
		for _, v := range k.Values {
			fmt.Fprintf(&b, "  value  %s\n", formatFrame(v.Pat))
		}
		for _, a := range k.Answers {
			fmt.Fprintf(&b, "  answer %s   (in the empty context)\n", formatFrame(a.Pat))
		}
		if len(k.Frames) > 0 {
			b.WriteString("  frames, in search order:\n")
			for i, f := range k.Frames {
				fmt.Fprintf(&b, "    %d  %-28s hole %s\n", i+1, formatFrame(f.Pat), f.Hole.Name)
			}
		}
		if len(k.Rules) > 0 {
			b.WriteString("  rules, in order:\n")
			for _, r := range k.Rules {
				fmt.Fprintf(&b, "    %-8s %s  ->  %s", r.Name, FormatRedex(r), FormatPattern(r.RHS))
				for _, c := range r.Where {
					b.WriteString("  " + FormatCond(c))
				}
				b.WriteByte('\n')
			}
		}
		if len(k.Stucks) > 0 {
			b.WriteString("  stuck shapes:\n")
			for i, s := range k.Stucks {
				fmt.Fprintf(&b, "    %d  %s  %s\n", i+1, FormatPattern(s.Pat), quote(s.Reason))
			}
		}
		b.WriteString("  decomposition table, by root:\n")
		row := func(root string, op TermOp, con *Con) {
			var parts []string
			if n := len(k.Lookup(ValueTable, op, con)); n > 0 {
				parts = append(parts, "value")
			}
			if fs := k.Lookup(FrameTable, op, con); len(fs) > 0 {
				parts = append(parts, "frames "+numbers(fs))
			}
			if rs := k.Lookup(RuleTable, op, con); len(rs) > 0 {
				var names []string
				for _, i := range rs {
					names = append(names, k.Rules[i].Name)
				}
				parts = append(parts, "rules "+strings.Join(names, ", "))
			}
			if ss := k.Lookup(StuckTable, op, con); len(ss) > 0 {
				parts = append(parts, "stuck "+numbers(ss))
			}
			if len(parts) == 0 {
				parts = []string{"nothing: no term of this root in this kind decomposes"}
			}
			fmt.Fprintf(&b, "    %-8s %s\n", root, strings.Join(parts, "; "))
		}
		if k.Sort.Ints {
			row("integer", TermInt, nil)
		}
		if k.Sort.Vars {
			row("variable", TermVar, nil)
		}
		if len(k.Sort.Atoms) > 0 {
			row("atom", TermAtom, nil)
		}
		for _, c := range k.Sort.Cons {
			row(c.Name, TermCon, c)
		}
	}
	return b.String()
}

// numbers prints 0-based indices as the 1-based numbers the tables show.
func numbers(is []int) string {
	s := make([]string, len(is))
	for i, n := range is {
		s[i] = fmt.Sprint(n + 1)
	}
	return strings.Join(s, ", ")
}

// FormatFrame prints a frame's pattern with its hole as [].
func FormatFrame(p *Pattern) string { return formatFrame(p) }

// formatFrame prints a pattern with its hole as [].
func formatFrame(p *Pattern) string {
	return strings.NewReplacer("(hole "+holeKind(p)+")", "[]").Replace(FormatPattern(p))
}

func holeKind(p *Pattern) string {
	if p.Kind == PatHole {
		return p.Hole.Name
	}
	for _, a := range p.Args {
		if k := holeKind(a); k != "" {
			return k
		}
	}
	return ""
}
