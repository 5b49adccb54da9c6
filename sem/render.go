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
	ts := &typesetter{l: l, notes: l.notationsOf(decls)}
	var sorts []*Sort
	var standard []string // the standard properties the file states
	for _, d := range decls {
		if d.Kind == SList && len(d.List) == 1 && isSym(d.List[0], "nondeterministic") {
			continue // said under the title
		}
		if d.Kind == SList && len(d.List) == 2 && isSym(d.List[0], "normal-forms") {
			continue // said with the kind's contexts
		}
		if d.Kind == SList && len(d.List) == 2 && isSym(d.List[0], "property") && d.List[1].Kind == SSym {
			if q, ok := l.Property(d.List[1].Sym); ok && q.Standard != "" {
				standard = append(standard, q.Name)
				continue
			}
		}
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
		b.WriteString("\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n")
	}
	b.WriteString("% A rule file typeset by interderive render.\n")
	b.WriteString("\\section*{The language \\textsf{" + texText(l.Name) + "}}\n")
	if l.Nondeterministic {
		b.WriteString("\n\\noindent Its reduction relation is non-deterministic: a term may decompose more than one way.\n")
	}
	if len(standard) > 0 {
		b.WriteString("\n\\noindent It states the properties " + texText(strings.Join(standard, ", ")) + ".\n")
	}
	r.Sorts = len(sorts)
	if len(sorts) > 0 {
		b.WriteString("\n\\subsection*{Grammar}\n")
		for _, so := range sorts {
			ts.writeSort(&b, so)
		}
	}
	ts.writeClasses(&b, shown)
	r.Kinds = ts.writeKinds(&b, shown)
	ts.writeFunctions(&b, shown)
	r.Rules = ts.writeRules(&b, shown)
	r.Stucks = ts.writeStucks(&b, shown)
	ts.writeJudgments(&b, shown)
	if len(r.Verbatim) > 0 {
		b.WriteString("\n\\subsection*{Other declarations}\n\n\\noindent The declarations that have no notation here yet, as written.\n{\\raggedright\n")
		for _, d := range r.Verbatim {
			b.WriteString("\n\\noindent\\texttt{" + texText(d.String()) + "}\n")
		}
		b.WriteString("\\par}\n")
	}
	if !opts.Fragment {
		b.WriteString("\\end{document}\n")
	}
	r.TeX = b.String()
	return r
}

// writeSort writes a sort's BNF, then what its variables and integers are named and
// what its binders bind.
func (ts *typesetter) writeSort(b *strings.Builder, so *Sort) {
	var alts []string
	if so.Vars {
		alts = append(alts, texMeta(so.VarMetas[0]))
	}
	if so.Ints {
		alts = append(alts, texMeta(so.IntMetas[0]))
	}
	for i := range so.Atoms {
		if len(so.AtomMetas[i]) > 0 {
			alts = append(alts, texMeta(so.AtomMetas[i][0]))
		}
	}
	for _, c := range so.Cons {
		alts = append(alts, ts.con(c, conArgNames(c, false)))
	}
	writeBNF(b, texMetas(so.Metas), alts)
	var ranges []string
	if so.Vars {
		ranges = append(ranges, rangeOver(so.VarMetas, "variables"))
	}
	if so.Ints {
		ranges = append(ranges, rangeOver(so.IntMetas, "integers"))
	}
	for i, a := range so.Atoms {
		if len(so.AtomMetas[i]) > 0 {
			ranges = append(ranges, rangeOver(so.AtomMetas[i], "atoms of type "+texText(a.Name)))
		}
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
		lines = append(lines, "In $"+ts.con(c, names)+"$, "+strings.Join(binds, "; ")+".")
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
		if isSeqArg(a) {
			names[i] = argName(*a.Sort.Elem)
		} else {
			names[i] = argName(a)
		}
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
		if isSeqArg(c.Args[i]) {
			names[i] += `\,\ldots`
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

// writeBNF writes a BNF production as a paragraph of inline math, ragged right, which
// breaks after ::= and the bars (an alternative a source line), and inside an
// alternative only where it must (at a relation or an operator, penalized).
func writeBNF(b *strings.Builder, lhs string, alts []string) {
	b.WriteString("\n{\\raggedright\\relpenalty=5000 \\binoppenalty=5000\n\\noindent\\hangindent=2em\\hangafter=1\n$" + lhs + " \\mathrel{::=}\\allowbreak")
	for i, a := range alts {
		if i == 0 {
			b.WriteString(" " + a)
		} else {
			b.WriteString("\n  \\mid\\allowbreak " + a)
		}
	}
	b.WriteString("$\\par}\n")
}

// writeKinds writes each context kind's values and contexts, and returns the number
// of kinds written. A kind is typeset apart from the contexts rules capture
// (texKind): E is a context of kind \mathcal{E}.
func (ts *typesetter) writeKinds(b *strings.Builder, shown map[any]bool) int {
	l := ts.l
	b.WriteString("\n\\subsection*{Evaluation contexts}\n\n\\noindent The values and the contexts of each kind; the alternatives of a context are its frames, in search order.")
	if len(l.Kinds) > 1 {
		b.WriteString(" The root kind is $" + texKind(l.Root().Name) + "$.")
	}
	for _, r := range l.Rules {
		if r.Context && shown[r] {
			k := r.Kind.Name
			b.WriteString(" In a rule, $" + texMeta(k) + "$ is a context of kind $" + texKind(k) + "$ that the rule captures.")
			break
		}
	}
	b.WriteString("\n")
	for _, k := range l.Kinds {
		var values []string
		for _, v := range k.Values {
			if shown[v] {
				values = append(values, ts.pattern(v.Pat))
			}
		}
		if len(values) > 0 {
			writeBNF(b, texMeta(k.Meta), values)
		}
		if k.NormalForms {
			b.WriteString("\\noindent The values $" + texMeta(k.Meta) + "$ of kind $" + texKind(k.Name) + "$ are its normal forms: the terms in which its search finds no redex.\n")
		}
		var answers []string
		for _, a := range k.Answers {
			if shown[answer{a}] {
				answers = append(answers, ts.pattern(a.Pat))
			}
		}
		if len(answers) > 0 {
			b.WriteString("\\noindent Besides its values, a term of kind $" + texKind(k.Name) + "$ ends a run in the empty context when it is $" +
				strings.Join(answers, `$ or $`) + "$ (an answer).\n")
		}
		frames := []string{`[\,]`}
		for _, f := range k.Frames {
			if shown[f] {
				frames = append(frames, ts.pattern(f.Written()))
			}
		}
		writeBNF(b, texKind(k.Name), frames)
	}
	return len(l.Kinds)
}

// beginList begins a list of items labelled as wide as widest (at most 8em: a wider
// label pushes its item's first line), the labels flush left, the items ragged right:
// a long item breaks after its relations and operators and goes on 1em in from its
// first line (as its side conditions do), never into the margin.
func beginList(widest string) string {
	return `\begin{list}{}{\settowidth{\labelwidth}{` + widest + `}\ifdim\labelwidth>8em \setlength{\labelwidth}{8em}\fi` + "\n" +
		`\setlength{\labelsep}{1em}\setlength{\leftmargin}{\labelwidth}\addtolength{\leftmargin}{\labelsep}\addtolength{\leftmargin}{1em}\setlength{\itemindent}{-1em}` + "\n" +
		`\setlength{\itemsep}{0.5ex}\setlength{\parsep}{0pt}\renewcommand{\makelabel}[1]{#1\hfil}\raggedright}` + "\n"
}

// beginHanging begins a list of unlabelled items whose lines after the first are
// indented, ragged right.
const beginHanging = `\begin{list}{}{\setlength{\leftmargin}{2em}\setlength{\itemindent}{-2em}\setlength{\labelwidth}{0pt}\setlength{\labelsep}{0pt}` + "\n" +
	`\setlength{\itemsep}{0.5ex}\setlength{\parsep}{0pt}\raggedright}` + "\n"

// writeRules writes the rules shown, in the order they are tried, as a paper's table
// of reduction rules: the name, then LHS ⟶ RHS, breaking where it must, and the side
// conditions on a line below. It returns how many.
func (ts *typesetter) writeRules(b *strings.Builder, shown map[any]bool) int {
	l := ts.l
	var items []string
	widest := ""
	for _, r := range l.Rules {
		if !shown[r] {
			continue
		}
		if len([]rune(r.Name)) > len([]rune(widest)) {
			widest = r.Name
		}
		arrow := `\longrightarrow`
		if len(l.Kinds) > 1 {
			arrow += "_{" + texKind(r.Kind.Name) + "}"
		}
		lhs := ts.pattern(r.LHS)
		var conds []string
		if r.Context {
			// The context the rule discards: up to the root (E[...] with E not
			// empty), or up to the innermost frame that matches the delimiter.
			captured := texMeta(r.Kind.Name)
			if r.CaptureName != "" {
				captured = texMeta(r.CaptureName) // the context the right-hand side reinstates
			}
			inner := captured + "[" + lhs + "]"
			if r.Delimiter == nil {
				lhs = inner
				conds = append(conds, "$"+captured+` \neq [\,]$`)
			} else {
				lhs, _ = ts.term(r.Delimiter, inner)
				hole, _ := ts.term(r.Delimiter, `[\,]`)
				conds = append(conds, "$"+captured+"$ has no frame $"+hole+"$")
			}
		}
		item := `\item[{[\textsf{` + texText(r.Name) + `}]}] $` + lhs + " " + arrow + " " + ts.pattern(r.RHS) + "$"
		for _, c := range r.Where {
			conds = append(conds, "$"+ts.cond(c)+"$")
		}
		if len(conds) > 0 {
			item += "\\\\\nif " + andList(conds)
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		return 0
	}
	b.WriteString("\n\\subsection*{Reduction rules}\n\n\\noindent The rules, in the order they are tried.")
	if len(l.Kinds) > 1 {
		b.WriteString(" A rule $\\longrightarrow_{\\mathcal{K}}$ contracts a redex in a context of kind $\\mathcal{K}$.")
	}
	b.WriteString("\n" + beginList(`[\textsf{`+texText(widest)+`}]`) + strings.Join(items, "\n") + "\n\\end{list}\n")
	return len(items)
}

// writeClasses writes each class shown as BNF.
func (ts *typesetter) writeClasses(b *strings.Builder, shown map[any]bool) {
	var cs []*Class
	for _, c := range ts.l.Classes {
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
			alts[i] = ts.pattern(a)
		}
		writeBNF(b, texMeta(c.Name), alts)
	}
}

// writeFunctions writes each function shown as equations, its clauses in order, each
// with its side conditions after it.
func (ts *typesetter) writeFunctions(b *strings.Builder, shown map[any]bool) {
	var items []string
	for _, f := range ts.l.Functions {
		if !shown[f] {
			continue
		}
		for _, c := range f.Clauses {
			item := `\item $` + ts.call(f.Name, c.Args) + " = " + ts.pattern(c.RHS) + "$"
			if len(c.Where) > 0 {
				var conds []string
				for _, w := range c.Where {
					conds = append(conds, "$"+ts.cond(w)+"$")
				}
				item += `\quad if ` + andList(conds)
			}
			items = append(items, item)
		}
	}
	if len(items) == 0 {
		return
	}
	b.WriteString("\n\\subsection*{Meta-functions}\n\n\\noindent Computed at once within a contraction; the first clause that applies gives the result.\n" +
		beginHanging + strings.Join(items, "\n") + "\n\\end{list}\n")
}

// writeStucks writes the table of the stuck shapes shown, and returns how many. Its
// columns are as wide as the page, and a cell breaks as a paragraph does.
func (ts *typesetter) writeStucks(b *strings.Builder, shown map[any]bool) int {
	l := ts.l
	kinds := len(l.Kinds) > 1
	var rows []string
	for _, s := range l.Stucks {
		if !shown[s] {
			continue
		}
		row := `\raggedright $` + ts.pattern(s.Pat) + `$ & \raggedright ` + texText(s.Reason) + `\tabularnewline`
		if kinds {
			row = "$" + texKind(s.Kind.Name) + "$ & " + row
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return 0
	}
	b.WriteString("\n\\subsection*{Stuck terms}\n\n\\noindent The redexes no rule contracts, on purpose: a run that reaches one stops with the reason given.\n\n")
	if kinds {
		b.WriteString("\\noindent\\begin{tabular}{@{}p{0.08\\linewidth}@{\\hspace{0.02\\linewidth}}p{0.42\\linewidth}@{\\hspace{0.02\\linewidth}}p{0.46\\linewidth}@{}}\n\\textit{kind} & \\textit{term} & \\textit{reason}\\tabularnewline\n")
	} else {
		b.WriteString("\\noindent\\begin{tabular}{@{}p{0.45\\linewidth}@{\\hspace{0.03\\linewidth}}p{0.52\\linewidth}@{}}\n\\textit{term} & \\textit{reason}\\tabularnewline\n")
	}
	b.WriteString("\\hline\n" + strings.Join(rows, "\n") + "\n\\end{tabular}\n")
	return len(rows)
}
