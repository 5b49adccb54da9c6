package sem

import (
	"strconv"
	"strings"
)

// Typesetting: a rule file as LaTeX (interderive render), after Redex's
// render-language and render-reduction-relation. docs/rules.md shows the notation.

// RenderOptions say what Render writes.
type RenderOptions struct {
	// Fragment asks for the body alone, for a document that loads amsmath; by
	// default Render writes a standalone document.
	Fragment bool
}

// Rendering is a rule file typeset as LaTeX, and what the text holds.
type Rendering struct {
	TeX string
	// Sorts, Rules and Stucks count the declarations typeset in their notation, and
	// Kinds the context kinds (each with its values and contexts).
	Sorts, Kinds, Rules, Stucks int
	// Verbatim are the declarations (and the parts of a sort's declaration) that have
	// no notation yet: they are printed as written, in \texttt.
	Verbatim []*SExpr
}

// Render reads and checks a rule file (Load) and typesets it as LaTeX: the sorts as
// BNF, each context kind's values and contexts as BNF (a context's alternatives are
// its frames, in search order), the rules as LHS ⟶ RHS with their names and side
// conditions, and the stuck shapes in a table. Constructors are in \mathsf with their
// arguments spaced, metavariables in math italic with _ as a subscript (t_1 is
// t_{1}), and the names that are not metavariables escaped.
//
// It is a switch over the file's declarations, each found in the language by its
// position: a declaration it has no notation for — a keyword it does not know, or
// a form the language's data does not print back to exactly (a condition or a pattern
// node it does not know) — is printed as written, in \texttt, under "Other
// declarations", and listed in Rendering.Verbatim. It fails only where Load does.
func Render(src []byte, opts RenderOptions) (*Rendering, error) {
	l, err := Load(src)
	if err != nil {
		return nil, err
	}
	decls, err := ReadSExprs(src)
	if err != nil {
		return nil, err
	}
	return l.render(decls, opts), nil
}

// render typesets the language whose declarations are decls.
func (l *Language) render(decls []*SExpr, opts RenderOptions) *Rendering {
	r := &Rendering{}
	at := l.declarations()
	shown := map[any]bool{} // the declarations of l typeset in their notation
	var sorts []*Sort
	for _, d := range decls {
		if !l.classify(d, at[d.P], shown, r) {
			r.Verbatim = append(r.Verbatim, d)
		}
	}
	for _, so := range l.Sorts {
		if shown[so] {
			sorts = append(sorts, so)
		}
	}
	var b strings.Builder
	if !opts.Fragment {
		b.WriteString("\\documentclass{article}\n\\usepackage{amsmath}\n\\allowdisplaybreaks\n\\begin{document}\n")
	}
	b.WriteString("% A rule file typeset by interderive render.\n")
	b.WriteString("\\section*{The language \\textsf{" + texText(l.Name) + "}}\n")
	r.Sorts = len(sorts)
	if len(sorts) > 0 {
		b.WriteString("\n\\subsection*{Grammar}\n")
		for _, so := range sorts {
			writeSort(&b, so)
		}
	}
	l.writeClasses(&b, shown)
	r.Kinds = l.writeKinds(&b, shown)
	l.writeFunctions(&b, shown)
	r.Rules = l.writeRules(&b, shown)
	r.Stucks = l.writeStucks(&b, shown)
	if len(r.Verbatim) > 0 {
		b.WriteString("\n\\subsection*{Other declarations}\n\n\\noindent The declarations that have no notation here yet, as written.\n")
		for _, d := range r.Verbatim {
			b.WriteString("\n\\noindent\\texttt{" + texText(d.String()) + "}\n")
		}
	}
	if !opts.Fragment {
		b.WriteString("\\end{document}\n")
	}
	r.TeX = b.String()
	return r
}

// declarations are the language's declarations by their positions (those of their
// s-expressions): the language, its sorts and constructors, its kinds, values,
// frames, rules and stuck shapes.
func (l *Language) declarations() map[Pos]any {
	at := map[Pos]any{l.P: l}
	for _, so := range l.Sorts {
		at[so.P] = so
		for _, c := range so.Cons {
			at[c.P] = c
		}
	}
	for _, k := range l.Kinds {
		at[k.P] = k
		for _, v := range k.Values {
			at[v.P] = v
		}
		for _, f := range k.Frames {
			at[f.P] = f
		}
	}
	for _, r := range l.Rules {
		at[r.P] = r
	}
	for _, s := range l.Stucks {
		at[s.P] = s
	}
	for _, k := range l.Kinds {
		for _, a := range k.Answers {
			at[a.P] = answer{a}
		}
	}
	for _, c := range l.Classes {
		at[c.P] = c
	}
	for _, f := range l.Functions {
		at[f.P] = f
	}
	return at
}

// answer is an answer declaration (a Value of Kind.Answers).
type answer struct{ *Value }

// classify checks that decl, the language's declaration at d's position (nil if
// none), has a notation: that d's keyword is known and decl prints back to exactly
// what d says; then it marks decl shown. It reports false for a declaration to print
// as written. The parts of a sort that have no notation are added to r.Verbatim.
func (l *Language) classify(d *SExpr, decl any, shown map[any]bool, r *Rendering) bool {
	if d.Kind != SList || len(d.List) < 2 || d.List[0].Kind != SSym {
		return false
	}
	args := d.List[1:]
	ok := false
	switch x := decl.(type) {
	case *Language:
		ok = d.List[0].Sym == "language" && len(args) == 1 && isSym(args[0], x.Name)
	case *Sort:
		ok = d.List[0].Sym == "sort" && isSym(args[0], x.Name)
		if ok {
			r.Verbatim = append(r.Verbatim, l.sortExtras(args[1:])...)
		}
	case *Kind:
		ok = d.List[0].Sym == "kind" && (len(args) == 2 || len(args) == 3 && isSym(args[2], x.Sort.Name)) &&
			isSym(args[0], x.Name) && isSym(args[1], x.Meta)
	case *Value:
		ok = d.List[0].Sym == "value" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1])
	case *Frame:
		ok = d.List[0].Sym == "frame" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1])
	case *Rule:
		ok = d.List[0].Sym == "rule" && sameRule(x, args)
	case answer:
		ok = d.List[0].Sym == "answer" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1])
	case *Class:
		ok = d.List[0].Sym == "class" && len(args) == 2+len(x.Alts) && isSym(args[0], x.Name) && isSym(args[1], x.Sort.Name)
		for i, a := range x.Alts {
			ok = ok && samePattern(a, args[2+i])
		}
	case *Function:
		ok = d.List[0].Sym == "function" && len(args) == 3+len(x.Clauses) && isSym(args[0], x.Name)
		for i, c := range x.Clauses {
			ok = ok && sameClause(x, c, args[3+i])
		}
	case *Stuck:
		ok = d.List[0].Sym == "stuck" && len(args) == 3 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1]) &&
			args[2].Kind == SStr && args[2].Sym == x.Reason
	}
	if ok {
		shown[decl] = true
	}
	return ok
}

func isSym(s *SExpr, name string) bool { return s.Kind == SSym && s.Sym == name }

// sortExtras are the items of a sort's declaration that its notation does not show:
// any but its metavariable names, (variable ...), (integer ...), and the (con ...) of
// its constructors that print back to what they say.
func (l *Language) sortExtras(items []*SExpr) []*SExpr {
	var out []*SExpr
	for _, it := range items {
		switch {
		case it.Kind == SSym:
			continue
		case it.Kind == SList && len(it.List) > 0 && it.List[0].Kind == SSym:
			switch it.List[0].Sym {
			case "variable", "integer":
				continue
			case "con":
				if c, ok := l.cons[conName(it)]; ok && c.P == it.P && sameCon(c, it) {
					continue
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// conName is the name a (con NAME ...) declares, or "".
func conName(s *SExpr) string {
	if len(s.List) < 2 || s.List[1].Kind != SSym {
		return ""
	}
	return s.List[1].Sym
}

// sameCon reports whether (con NAME ARG ... (bind I J ...) ...) says exactly what c is.
func sameCon(c *Con, s *SExpr) bool {
	if len(s.List) != 2+len(c.Args)+len(c.Binds) || !isSym(s.List[1], c.Name) {
		return false
	}
	for i, a := range c.Args {
		x := s.List[2+i]
		if x.Kind != SSym || !argNamed(a, x.Sym) {
			return false
		}
	}
	for i, bd := range c.Binds {
		x := s.List[2+len(c.Args)+i]
		if x.Kind != SList || len(x.List) != 2+len(bd.Scope) || !isSym(x.List[0], "bind") || !isInt(x.List[1], bd.Binder) {
			return false
		}
		for j, sc := range bd.Scope {
			if !isInt(x.List[2+j], sc) {
				return false
			}
		}
	}
	return true
}

// argNamed reports whether name is one of the metavariable names of a's sort.
func argNamed(a Arg, name string) bool {
	names := a.Sort.Metas
	switch a.Kind {
	case ArgVar:
		names = a.Sort.VarMetas
	case ArgInt:
		names = a.Sort.IntMetas
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func isInt(s *SExpr, n int) bool { return s.Kind == SInt && s.N == int64(n) }

// samePattern reports whether the pattern p prints back to the s-expression s: the
// same nodes, the same names. A node it does not know is not the same.
func samePattern(p *Pattern, s *SExpr) bool {
	switch p.Kind {
	case PatMeta:
		return isSym(s, p.Meta)
	case PatInt:
		return s.Kind == SInt && s.N == p.N
	case PatHole:
		return p.Hole != nil && s.Kind == SList && (len(s.List) == 1 || len(s.List) == 2 && isSym(s.List[1], p.Hole.Name)) && isSym(s.List[0], "hole")
	}
	if s.Kind != SList || len(s.List) == 0 {
		return false
	}
	var head []string
	switch p.Kind {
	case PatCon:
		head = []string{p.Con.Name}
	case PatSubst:
		head = []string{"subst"}
	case PatPrim:
		head = []string{"prim", p.Prim.Name}
	case PatCall:
		head = []string{p.Fn.Name}
	default:
		return false
	}
	return sameList(head, p.Args, s)
}

// sameList reports whether s is the list of the symbols head followed by args.
func sameList(head []string, args []*Pattern, s *SExpr) bool {
	if len(s.List) != len(head)+len(args) {
		return false
	}
	for i, h := range head {
		if !isSym(s.List[i], h) {
			return false
		}
	}
	for i, a := range args {
		if !samePattern(a, s.List[len(head)+i]) {
			return false
		}
	}
	return true
}

// sameRule reports whether (rule NAME K LHS RHS (where C) ...), given by its
// arguments, says exactly what r is.
func sameRule(r *Rule, args []*SExpr) bool {
	if len(args) != 4+len(r.Where) || !isSym(args[0], r.Name) || !isSym(args[1], r.Kind.Name) ||
		!sameRedex(r, args[2]) || !samePattern(r.RHS, args[3]) {
		return false
	}
	return sameConds(r.Where, args[4:])
}

// sameClause reports whether s is the clause c of f: ((f PATTERN ...) RHS (where C) ...).
func sameClause(f *Function, c *Clause, s *SExpr) bool {
	return s.Kind == SList && len(s.List) == 2+len(c.Where) && s.List[0].Kind == SList &&
		sameList([]string{f.Name}, c.Args, s.List[0]) && samePattern(c.RHS, s.List[1]) && sameConds(c.Where, s.List[2:])
}

// sameRedex reports whether s is r's left-hand side: its pattern, or a context
// rule's (context [DELIMITER] PATTERN).
func sameRedex(r *Rule, s *SExpr) bool {
	if !r.Context {
		return samePattern(r.LHS, s)
	}
	if s.Kind != SList || len(s.List) < 2 || !isSym(s.List[0], "context") {
		return false
	}
	if r.Delimiter == nil {
		return len(s.List) == 2 && samePattern(r.LHS, s.List[1])
	}
	return len(s.List) == 3 && samePattern(r.Delimiter, s.List[1]) && samePattern(r.LHS, s.List[2])
}

// sameConds reports whether the (where C) s-expressions say exactly the conditions.
func sameConds(where []*Cond, ws []*SExpr) bool {
	if len(where) != len(ws) {
		return false
	}
	for i, c := range where {
		w := ws[i]
		if w.Kind != SList || len(w.List) != 2 || !isSym(w.List[0], "where") || w.List[1].Kind != SList {
			return false
		}
		var head []string
		switch c.Kind {
		case CondEq:
			head = []string{"="}
		case CondNe:
			head = []string{"!="}
		case CondPrim:
			head = []string{"prim", c.Prim.Name}
		case CondFresh:
			head = []string{"fresh"}
		case CondStep:
			head = []string{"step", c.Layer.Name}
		default:
			return false
		}
		if !sameList(head, c.Args, w.List[1]) {
			return false
		}
	}
	return true
}

// writeSort writes a sort's BNF, then what its variables and integers are named and
// what its binders bind.
func writeSort(b *strings.Builder, so *Sort) {
	var alts []string
	if so.Vars {
		alts = append(alts, texMeta(so.VarMetas[0]))
	}
	if so.Ints {
		alts = append(alts, texMeta(so.IntMetas[0]))
	}
	for _, c := range so.Cons {
		alts = append(alts, texApp(c.Name, conArgNames(c, false)))
	}
	writeBNF(b, texMetas(so.Metas), alts)
	var ranges []string
	if so.Vars {
		ranges = append(ranges, rangeOver(so.VarMetas, "variables"))
	}
	if so.Ints {
		ranges = append(ranges, rangeOver(so.IntMetas, "integers"))
	}
	var lines []string
	if len(ranges) > 0 {
		lines = append(lines, "Here "+strings.Join(ranges, " and ")+".")
	}
	for _, c := range so.Cons {
		if len(c.Binds) == 0 {
			continue
		}
		names := conArgNames(c, true)
		var binds []string
		for _, bd := range c.Binds {
			var scope []string
			for _, j := range bd.Scope {
				scope = append(scope, "$"+names[j]+"$")
			}
			binds = append(binds, "$"+names[bd.Binder]+"$ binds in "+andList(scope))
		}
		lines = append(lines, "In $"+texApp(c.Name, names)+"$, "+strings.Join(binds, "; ")+".")
	}
	if len(lines) > 0 {
		b.WriteString("\n\\noindent " + strings.Join(lines, "\n") + "\n")
	}
}

// conArgNames are the metavariable names of a constructor's arguments, typeset; with
// numbered, a name that stands for two arguments is numbered (t_{1}, t_{2}) so that
// each names one.
func conArgNames(c *Con, numbered bool) []string {
	names := make([]string, len(c.Args))
	count := map[string]int{}
	for i, a := range c.Args {
		names[i] = argName(a)
		count[names[i]]++
	}
	seen := map[string]int{}
	for i, n := range names {
		if numbered && count[n] > 1 {
			seen[n]++
			names[i] = texMeta(n + "_" + strconv.Itoa(seen[n]))
		} else {
			names[i] = texMeta(n)
		}
	}
	return names
}

// rangeOver says what the metavariable names metas range over.
func rangeOver(metas []string, what string) string {
	if len(metas) == 1 {
		return "$" + texMeta(metas[0]) + "$ ranges over " + what
	}
	return "$" + texMetas(metas) + "$ range over " + what
}

// andList joins items as English does: a, b and c.
func andList(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// writeBNF writes a BNF production as a paragraph of inline math, which breaks after
// ::= and the bars: an alternative a source line.
func writeBNF(b *strings.Builder, lhs string, alts []string) {
	b.WriteString("\n\\noindent\\hangindent=2em\\hangafter=1\n$" + lhs + " \\mathrel{::=}")
	for i, a := range alts {
		if i == 0 {
			b.WriteString(" " + a)
		} else {
			b.WriteString("\n  \\mid " + a)
		}
	}
	b.WriteString("$\n")
}

// writeKinds writes each context kind's values and contexts, and returns the number
// of kinds written.
func (l *Language) writeKinds(b *strings.Builder, shown map[any]bool) int {
	b.WriteString("\n\\subsection*{Evaluation contexts}\n\n\\noindent The values and the contexts of each kind; the alternatives of a context are its frames, in search order.")
	if len(l.Kinds) > 1 {
		b.WriteString(" The root kind is $" + texMeta(l.Root().Name) + "$.")
	}
	b.WriteString("\n")
	for _, k := range l.Kinds {
		var values []string
		for _, v := range k.Values {
			if shown[v] {
				values = append(values, texPattern(v.Pat, false))
			}
		}
		if len(values) > 0 {
			writeBNF(b, texMeta(k.Meta), values)
		}
		var answers []string
		for _, a := range k.Answers {
			if shown[answer{a}] {
				answers = append(answers, texPattern(a.Pat, false))
			}
		}
		if len(answers) > 0 {
			b.WriteString("\\noindent Besides its values, a term of kind $" + texMeta(k.Name) + "$ ends a run in the empty context when it is $" +
				strings.Join(answers, `$ or $`) + "$ (an answer).\n")
		}
		frames := []string{`[\,]`}
		for _, f := range k.Frames {
			if shown[f] {
				frames = append(frames, texPattern(f.Pat, false))
			}
		}
		writeBNF(b, texMeta(k.Name), frames)
	}
	return len(l.Kinds)
}

// writeRules writes the rules shown, in the order they are tried, and returns how
// many.
func (l *Language) writeRules(b *strings.Builder, shown map[any]bool) int {
	var rows []string
	n := 0
	for _, r := range l.Rules {
		if !shown[r] {
			continue
		}
		n++
		arrow := `\longrightarrow`
		if len(l.Kinds) > 1 {
			arrow += "_{" + texMeta(r.Kind.Name) + "}"
		}
		lhs := texPattern(r.LHS, false)
		var conds []string
		if r.Context {
			// The context the rule discards: up to the root (E[...] with E not
			// empty), or up to the innermost frame that matches the delimiter.
			inner := texMeta(r.Kind.Name) + "[" + lhs + "]"
			if r.Delimiter == nil {
				lhs = inner
				conds = append(conds, texMeta(r.Kind.Name)+` \neq [\,]`)
			} else {
				lhs = texPatternIn(r.Delimiter, false, inner)
				conds = append(conds, texMeta(r.Kind.Name)+` \text{ has no frame } `+texPatternIn(r.Delimiter, false, `[\,]`))
			}
		}
		rows = append(rows, lhs+" &"+arrow+" "+texPattern(r.RHS, false)+` && [\textsf{`+texText(r.Name)+`}]`)
		for _, c := range r.Where {
			conds = append(conds, texCond(c))
		}
		if len(conds) > 0 {
			rows = append(rows, `&\qquad \text{if } `+strings.Join(conds, `,\ `))
		}
	}
	if len(rows) == 0 {
		return 0
	}
	b.WriteString("\n\\subsection*{Reduction rules}\n\n\\noindent The rules, in the order they are tried.")
	if len(l.Kinds) > 1 {
		b.WriteString(" A rule $\\longrightarrow_{K}$ contracts a redex in a context of kind $K$.")
	}
	b.WriteString("\n\\begin{align*}\n" + strings.Join(rows, "\\\\\n") + "\n\\end{align*}\n")
	return n
}

// writeClasses writes each class shown as BNF.
func (l *Language) writeClasses(b *strings.Builder, shown map[any]bool) {
	var cs []*Class
	for _, c := range l.Classes {
		if shown[c] {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return
	}
	b.WriteString("\n\\subsection*{Classes}\n\n\\noindent Named sets of terms: a metavariable of a class matches a term of one of its alternatives.\n")
	for _, c := range cs {
		alts := make([]string, len(c.Alts))
		for i, a := range c.Alts {
			alts[i] = texPattern(a, false)
		}
		writeBNF(b, texMeta(c.Name), alts)
	}
}

// writeFunctions writes each function shown as equations, its clauses in order.
func (l *Language) writeFunctions(b *strings.Builder, shown map[any]bool) {
	var rows []string
	for _, f := range l.Functions {
		if !shown[f] {
			continue
		}
		for _, c := range f.Clauses {
			row := texCall(f.Name, c.Args) + " &= " + texPattern(c.RHS, false)
			if len(c.Where) > 0 {
				var conds []string
				for _, w := range c.Where {
					conds = append(conds, texCond(w))
				}
				row += `&& \text{if } ` + strings.Join(conds, `,\ `)
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n\\subsection*{Meta-functions}\n\n\\noindent Computed at once within a contraction; the first clause that applies gives the result.\n\\begin{align*}\n" + strings.Join(rows, "\\\\\n") + "\n\\end{align*}\n")
}

// writeStucks writes the table of the stuck shapes shown, and returns how many.
func (l *Language) writeStucks(b *strings.Builder, shown map[any]bool) int {
	kinds := len(l.Kinds) > 1
	var rows []string
	for _, s := range l.Stucks {
		if !shown[s] {
			continue
		}
		row := "$" + texPattern(s.Pat, false) + "$ & " + texText(s.Reason) + `\\`
		if kinds {
			row = "$" + texMeta(s.Kind.Name) + "$ & " + row
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return 0
	}
	b.WriteString("\n\\subsection*{Stuck terms}\n\n\\noindent The redexes no rule contracts, on purpose: a run that reaches one stops with the reason given.\n\n")
	if kinds {
		b.WriteString("\\noindent\\begin{tabular}{@{}lll@{}}\n\\textit{kind} & \\textit{term} & \\textit{reason}\\\\\n")
	} else {
		b.WriteString("\\noindent\\begin{tabular}{@{}ll@{}}\n\\textit{term} & \\textit{reason}\\\\\n")
	}
	b.WriteString("\\hline\n" + strings.Join(rows, "\n") + "\n\\end{tabular}\n")
	return len(rows)
}

// texCond typesets a side condition.
func texCond(c *Cond) string {
	arg := func(i int) string { return texPattern(c.Args[i], false) }
	switch {
	case c.Kind == CondFresh && len(c.Args) < 2, (c.Kind == CondEq || c.Kind == CondNe) && len(c.Args) != 2:
		return texCall("?", c.Args)
	}
	switch c.Kind {
	case CondEq:
		return arg(0) + " = " + arg(1)
	case CondNe:
		return arg(0) + ` \neq ` + arg(1)
	case CondPrim:
		if op, ok := comparisons[c.Prim.Name]; ok && len(c.Args) == 2 {
			return operand(c.Args[0]) + " " + op + " " + operand(c.Args[1])
		}
		return texCall(c.Prim.Name, c.Args)
	case CondFresh:
		return arg(0) + " = " + texCall("fresh", c.Args[1:])
	case CondStep:
		if len(c.Args) == 2 {
			return arg(0) + ` \longrightarrow_{` + texMeta(c.Layer.Name) + "} " + arg(1)
		}
	}
	return `\text{?}`
}

// comparisons and operators are the prims typeset infix.
var (
	comparisons = map[string]string{"lt": "<", "le": `\leq`, "gt": ">", "ge": `\geq`, "eq": "=", "ne": `\neq`}
	operators   = map[string]string{"add": "+", "sub": "-", "mul": `\times`}
)

// texCall typesets an operation applied to its arguments: \operatorname{f}(a, b).
func texCall(name string, args []*Pattern) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = texPattern(a, false)
	}
	return `\operatorname{` + texWord(name) + "}(" + strings.Join(parts, ", ") + ")"
}

// texPattern typesets a pattern: a constructor in \mathsf with its arguments spaced, a
// frame's hole as the kind of context it holds, (subst t x v) as t[x := v], the
// arithmetic prims infix and the others as functions. With arg, the pattern is an
// argument of a constructor: parenthesized unless atomic.
func texPattern(p *Pattern, arg bool) string { return texPatternIn(p, arg, "") }

// texPatternIn is texPattern with the hole typeset as hole, if not "".
func texPatternIn(p *Pattern, arg bool, hole string) string {
	var s string
	atomic := true
	switch p.Kind {
	case PatMeta:
		return texMeta(p.Meta)
	case PatInt:
		s, atomic = strconv.FormatInt(p.N, 10), p.N >= 0
	case PatHole:
		if hole != "" {
			return hole
		}
		if p.Hole == nil {
			return `[\,]`
		}
		return texMeta(p.Hole.Name)
	case PatCon:
		args := make([]string, len(p.Args))
		for i, a := range p.Args {
			args[i] = texPatternIn(a, true, hole)
		}
		s, atomic = texApp(p.Con.Name, args), len(p.Args) == 0
	case PatSubst:
		if len(p.Args) != 3 {
			return texCall("subst", p.Args)
		}
		s = postfix(p.Args[0]) + "[" + texPattern(p.Args[1], false) + " := " + texPattern(p.Args[2], false) + "]"
	case PatCall:
		s = texCall(p.Fn.Name, p.Args)
	case PatPrim:
		if op, ok := operators[p.Prim.Name]; ok && len(p.Args) == 2 {
			s, atomic = operand(p.Args[0])+" "+op+" "+operand(p.Args[1]), false
		} else if p.Prim.Name == "neg" && len(p.Args) == 1 {
			s, atomic = "-"+operand(p.Args[0]), false
		} else {
			s = texCall(p.Prim.Name, p.Args)
		}
	default:
		return `\text{?}`
	}
	if arg && !atomic {
		return "(" + s + ")"
	}
	return s
}

// operand typesets an operand of an infix operator: parenthesized unless atomic.
func operand(p *Pattern) string { return texPattern(p, true) }

// postfix typesets the term a substitution applies to: parenthesized unless atomic or
// itself a substitution.
func postfix(p *Pattern) string {
	if p.Kind == PatSubst {
		return texPattern(p, false)
	}
	return texPattern(p, true)
}

// texApp typesets a constructor applied to typeset arguments.
func texApp(name string, args []string) string {
	s := texCon(name)
	for _, a := range args {
		s += `\;` + a
	}
	return s
}

// texCon typesets a constructor's name: in \mathsf when it is letters and digits,
// else in \textsf, escaped.
func texCon(name string) string {
	if isWord(name) {
		return `\mathsf{` + name + "}"
	}
	return `\textsf{` + texText(name) + "}"
}

// texMetas typesets metavariable names as a list: t, e.
func texMetas(metas []string) string {
	parts := make([]string, len(metas))
	for i, m := range metas {
		parts[i] = texMeta(m)
	}
	return strings.Join(parts, ", ")
}

// texMeta typesets a metavariable (or a kind's name): its base name in math italic,
// and what follows the first _ as a subscript: t_1 is t_{1}.
func texMeta(name string) string {
	base, sub, ok := strings.Cut(name, "_")
	s := texIdent(base)
	if ok {
		if isAlnum(sub) {
			s += "_{" + sub + "}"
		} else {
			s += `_{\textit{` + texText(sub) + "}}"
		}
	}
	return s
}

// texIdent typesets a name in math italic: a letter as itself, a longer word in
// \mathit, and primes as primes; any other name in \textit, escaped.
func texIdent(name string) string {
	word := strings.TrimRight(name, "'")
	primes := name[len(word):]
	switch {
	case len(word) == 1 && isLetter(word[0]):
		return word + primes
	case isWord(word):
		return `\mathit{` + word + "}" + primes
	}
	return `\textit{` + texText(name) + "}"
}

// texWord typesets a name inside \operatorname: letters and digits as they are, any
// other name in \text, escaped.
func texWord(name string) string {
	if isWord(name) {
		return name
	}
	return `\text{` + texText(name) + "}"
}

// isWord reports whether s is a letter followed by letters and digits (ASCII).
func isWord(s string) bool { return s != "" && isLetter(s[0]) && isAlnum(s) }

// isAlnum reports whether s is letters and digits (ASCII), at least one.
func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return s != ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// texText escapes text for LaTeX's text mode: its special characters, those the
// default font encoding does not have (< > |), and the control characters (as \x1b).
func texText(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch c {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '{', '}', '$', '&', '#', '_', '%':
			b.WriteString(`\` + string(c))
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '<':
			b.WriteString(`\textless{}`)
		case '>':
			b.WriteString(`\textgreater{}`)
		case '|':
			b.WriteString(`\textbar{}`)
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteString(`\textbackslash{}x` + strconv.FormatInt(int64(c)+0x100, 16)[1:])
			} else {
				b.WriteRune(c)
			}
		}
	}
	return b.String()
}
