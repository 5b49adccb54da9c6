package sem

import (
	"strconv"
	"strings"
)

// FormatPattern prints a pattern in the rule file's syntax.
func FormatPattern(p *Pattern) string {
	var b strings.Builder
	writePattern(&b, p)
	return b.String()
}

func writePattern(b *strings.Builder, p *Pattern) {
	switch p.Kind {
	case PatMeta, PatSame:
		b.WriteString(p.Meta)
		return
	case PatInt:
		b.WriteString(strconv.FormatInt(p.N, 10))
		return
	case PatAtom:
		b.WriteString(p.Atom.Format(p.Val))
		return
	case PatHole:
		b.WriteString("(hole " + p.Hole.Name + ")")
		return
	case PatSubst:
		b.WriteString("(subst")
	case PatPlug:
		b.WriteString("(in-hole " + p.Meta)
	case PatPrim:
		b.WriteString("(prim " + p.Prim.Name)
	case PatCall:
		b.WriteString("(" + p.Fn.Name)
	case PatSeq:
		b.WriteByte('(')
		for i, a := range p.Args {
			if i > 0 {
				b.WriteByte(' ')
			}
			writePattern(b, a)
			if r := p.Reps[i]; r.Repeated() {
				b.WriteString(" " + r.Ellipsis)
			}
		}
		b.WriteByte(')')
		return
	case PatCon:
		if p.Con.Sort.IsSeq() { // a sequence's node: () or (P . Q)
			b.WriteByte('(')
			if len(p.Args) == 2 {
				writePattern(b, p.Args[0])
				b.WriteString(" . ")
				writePattern(b, p.Args[1])
			}
			b.WriteByte(')')
			return
		}
		b.WriteString("(" + p.Con.Name)
	}
	for _, a := range p.Args {
		b.WriteByte(' ')
		writePattern(b, a)
	}
	b.WriteByte(')')
}

// FormatCond prints a side condition.
func FormatCond(c *Cond) string {
	var parts []string
	switch c.Kind {
	case CondEq:
		parts = []string{"="}
	case CondNe:
		parts = []string{"!="}
	case CondPrim:
		parts = []string{"prim", c.Prim.Name}
	case CondFresh:
		parts = []string{"fresh"}
	case CondStep:
		parts = []string{"step", c.Layer.Name}
	case CondMatch:
		parts = []string{"match"}
	case CondCall:
		return "(where " + FormatPattern(c.Args[0]) + ")"
	}
	for i, a := range c.Args {
		if c.Kind == CondFresh && i == 1 && a.Slot < 0 {
			continue // (fresh x_k T ...): named like its own metavariable
		}
		parts = append(parts, FormatPattern(a))
	}
	return "(where (" + strings.Join(parts, " ") + "))"
}

// FormatRedex prints a rule's left-hand side as written: its pattern, or for a
// context rule (context [DELIMITER] PATTERN).
func FormatRedex(r *Rule) string {
	if !r.Context {
		return FormatPattern(r.LHS)
	}
	c := ""
	if r.CaptureName != "" {
		c = r.CaptureName + " "
	}
	if r.Delimiter != nil {
		return "(context " + FormatPattern(r.Delimiter) + " " + c + FormatPattern(r.LHS) + ")"
	}
	return "(context " + c + FormatPattern(r.LHS) + ")"
}

// String prints the language as a rule file: its declarations in a normal form
// (explicit hole kinds, one declaration a line) that Parse reads back to the same
// language.
func (l *Language) String() string {
	var b strings.Builder
	b.WriteString("(language " + l.Name + ")\n")
	if l.Nondeterministic {
		b.WriteString("(nondeterministic)\n")
	}
	for _, so := range l.Sorts {
		if so.IsSeq() {
			continue // made by the reader from E ... (seq.go)
		}
		b.WriteString("(sort " + strings.Join(so.Metas, " "))
		if so.Vars {
			b.WriteString("\n  (variable " + strings.Join(so.VarMetas, " ") + ")")
		}
		if so.Ints {
			b.WriteString("\n  (integer " + strings.Join(so.IntMetas, " ") + ")")
		}
		for i, a := range so.Atoms {
			b.WriteString("\n  (atom " + a.Name + " " + strings.Join(so.AtomMetas[i], " ") + ")")
		}
		for _, c := range so.Cons {
			b.WriteString("\n  (con " + c.Name)
			for _, a := range c.Args {
				b.WriteString(" " + argName(a))
			}
			for _, bd := range c.Binds {
				b.WriteString(" (bind " + strconv.Itoa(bd.Binder))
				for _, j := range bd.Scope {
					b.WriteString(" " + strconv.Itoa(j))
				}
				b.WriteString(")")
			}
			if c.shape != nil {
				b.WriteString(" (shape " + c.shapeText() + ")")
			}
			b.WriteString(")")
		}
		b.WriteString(")\n")
	}
	for _, k := range l.Kinds {
		if k.Seq == nil {
			b.WriteString("(kind " + k.Name + " " + k.Meta + " " + k.Sort.Name + ")\n")
		}
	}
	for _, c := range l.Classes {
		b.WriteString("(class " + c.Name + " " + c.Sort.Name)
		for _, a := range c.Alts {
			b.WriteString(" " + FormatPattern(a))
		}
		b.WriteString(")\n")
	}
	for _, f := range l.Functions {
		decl := "(function "
		if f.Hook != nil {
			decl = "(hook "
		}
		b.WriteString(decl + f.Name + " (")
		for i, a := range f.Params {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(argName(a))
		}
		res := argName(f.Result)
		if isSeqArg(f.Result) {
			res = "(" + res + ")"
		}
		b.WriteString(") " + res)
		for _, c := range f.Clauses {
			b.WriteString("\n  ((" + f.Name)
			for _, a := range c.Args {
				b.WriteString(" " + FormatPattern(a))
			}
			b.WriteString(") " + FormatPattern(c.RHS))
			for _, w := range c.Where {
				b.WriteString(" " + FormatCond(w))
			}
			b.WriteString(")")
		}
		b.WriteString(")\n")
	}
	for _, k := range l.Kinds {
		if k.Seq != nil {
			continue // made by the reader from a frame of another kind (seq.go)
		}
		if k.NormalForms {
			b.WriteString("(normal-forms " + k.Name + ")\n")
		}
		for _, v := range k.Values {
			b.WriteString("(value " + k.Name + " " + FormatPattern(v.Pat) + ")\n")
		}
		for _, a := range k.Answers {
			b.WriteString("(answer " + k.Name + " " + FormatPattern(a.Pat) + ")\n")
		}
		for _, f := range k.Frames {
			b.WriteString("(frame " + k.Name + " " + FormatPattern(f.Written()) + ")\n")
		}
	}
	for _, r := range l.Rules {
		b.WriteString("(rule " + r.Name + " " + r.Kind.Name + " " + FormatRedex(r) + " " + FormatPattern(r.RHS))
		for _, c := range r.Where {
			b.WriteString(" " + FormatCond(c))
		}
		b.WriteString(")\n")
	}
	for _, s := range l.Stucks {
		b.WriteString("(stuck " + s.Kind.Name + " " + FormatPattern(s.Pat) + " " + quote(s.Reason) + ")\n")
	}
	for _, j := range l.Judgments {
		if l.propertyOf(j) == nil {
			b.WriteString(j.String())
		}
	}
	for _, q := range l.Properties {
		b.WriteString(q.String())
	}
	if ty := l.Typing; ty != nil {
		args := make([]string, len(ty.Args))
		for i, a := range ty.Args {
			switch {
			case a != nil:
				args[i] = FormatPattern(a)
			default:
				args[i] = argName(ty.Judgment.Params[i])
			}
		}
		b.WriteString("(typing (" + ty.Judgment.Name + " " + strings.Join(args, " ") + "))\n")
	}
	return b.String()
}

// String prints the judgment as a rule file declares it.
func (j *Judgment) String() string {
	var b strings.Builder
	sorts, modes := make([]string, len(j.Params)), make([]string, len(j.Params))
	for i, a := range j.Params {
		sorts[i], modes[i] = argName(a), j.Mode(i)
	}
	b.WriteString("(judgment " + j.Name + " (" + strings.Join(sorts, " ") + ") (" + strings.Join(modes, " ") + ")")
	for _, r := range j.Rules {
		b.WriteString("\n  (infer " + r.Name + " " + formatJudgment(j, r.Conclusion))
		for _, pr := range r.Premises {
			b.WriteString(" " + formatPremise(pr))
		}
		b.WriteString(")")
	}
	b.WriteString(")\n")
	return b.String()
}

// String prints the property as a rule file states it.
func (q *Property) String() string {
	if q.Standard != "" {
		return "(property " + q.Name + ")\n"
	}
	r := q.Judgment.Rules[0]
	terms := make([]string, len(r.Conclusion))
	for i, p := range r.Conclusion {
		terms[i] = FormatPattern(p)
	}
	var b strings.Builder
	b.WriteString("(property " + q.Name + " (" + strings.Join(terms, " ") + ")")
	for _, pr := range r.Premises {
		b.WriteString(" " + formatPremise(pr))
	}
	b.WriteString(")\n")
	return b.String()
}

// propertyOf is the property of the file's own whose judgment j is, nil if none.
func (l *Language) propertyOf(j *Judgment) *Property {
	for _, q := range l.Properties {
		if q.Judgment == j {
			return q
		}
	}
	return nil
}

// shapeText is c's shape as the rule file writes it: each argument by the name the
// printer gives its sort (argName), in the order of the arguments.
func (c *Con) shapeText() string {
	names := make([]*Term, len(c.Args))
	for i, a := range c.Args {
		if isSeqArg(a) {
			a = *a.Sort.Elem // written NAME ... by the shape
		}
		names[i] = Var(Pos{}, argName(a))
	}
	var b strings.Builder
	c.shape.written(names, func(s string) { b.WriteString(s) }, func(t *Term) { b.WriteString(t.Name) })
	return b.String()
}

// argName is the metavariable name that declares an argument's sort.
func argName(a Arg) string {
	if isSeqArg(a) {
		return argName(*a.Sort.Elem) + " ..."
	}
	switch a.Kind {
	case ArgVar:
		return a.Sort.VarMetas[0]
	case ArgInt:
		return a.Sort.IntMetas[0]
	}
	return a.Sort.Metas[0]
}

// quote writes a string in the reader's syntax: in double quotes, with " and \
// escaped.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
