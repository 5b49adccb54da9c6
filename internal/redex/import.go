package redex

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Import translates a Redex model (read and recognized from the file named file)
// into a rule file and a corpus of its tests. The model's first reduction relation
// is the rule file's; its language is the one the relation names. What the rule
// language cannot say is a positioned error in the model (an ErrorList, every
// construct named); tests that cannot be a program of the corpus are Skipped, each
// with its reason. The rule file is then loaded, so that its static checks run (an
// ambiguous context a Redex model explores silently is an error with a witness), and
// each test's expected answer is read as a term of it and written as the stages
// print it.
func Import(m *Model, file string) (*Imported, error) {
	t := &translator{m: m, file: file, fns: map[string]*tfunc{}, substFns: map[string]*substRoles{}, generated: map[string]bool{}}
	if len(m.Relations) == 0 {
		return nil, interderive.ErrorList{interderive.Errorf(Pos{Line: 1, Col: 1}, "the model defines no reduction relation (reduction-relation): nothing to derive stages from")}
	}
	rel := m.Relations[0]
	for _, other := range m.Relations[1:] {
		t.skip(other.P, "reduction relation %s: the rule file is the first relation's, %s", nameOr(other.Name), nameOr(rel.Name))
	}
	if !t.language(rel.Lang) {
		t.errs.Sort()
		return nil, t.errs
	}
	for _, mf := range m.Metafunctions {
		if roles, ok := t.substitution(mf); ok {
			t.substFns[mf.Name] = roles
			t.notes = append(t.notes, fmt.Sprintf("meta-function %s (line %d) is capture-avoiding substitution: the rule language's (subst BODY X V), on the binders declared", mf.Name, mf.P.Line))
			continue
		}
		name := mf.Name
		if t.byName[name] != nil || t.conNames[name] || reservedWords[name] {
			// Redex's meta-functions and non-terminals are apart; a rule file's
			// functions and metavariables share their names.
			name += "-mf"
			t.notes = append(t.notes, fmt.Sprintf("meta-function %s is %s: %s names a non-terminal or a constructor too", mf.Name, name, mf.Name))
		}
		t.fns[mf.Name] = &tfunc{mf: mf, name: name}
	}
	if _, own := t.fns["subst"]; !own && requires(m, "subst.rkt") {
		// redex-examples' subst.rkt: (subst (x v e)), e[x := v].
		t.substFns["subst"] = &substRoles{x: 0, val: 1, body: 2, list: true}
		t.notes = append(t.notes, "subst, of the subst.rkt the model requires, is capture-avoiding substitution: the rule language's (subst BODY X V)")
		if _, own := t.fns["subst-n"]; !own {
			t.substN = true // (subst-n ((x v) ... e)): translate_seq.go
		}
	}
	if _, own := t.fns["substitute"]; !own {
		// Redex's own substitution, on the language's #:binding-forms.
		t.substFns["substitute"] = &substRoles{body: 0, x: 1, val: 2}
	}
	rules := expand(rel)
	t.numbersOf(rules)
	var used []*nonterm
	for _, r := range rules {
		if head(r.LHS) == "in-hole" && len(r.LHS.List) == 3 {
			if nt := t.ref(r.LHS.List[1]); nt != nil && nt.role == roleContext && !slices.Contains(used, nt) {
				used = append(used, nt)
			}
		}
	}
	t.contexts(used)
	if len(t.errs) > 0 {
		t.errs.Sort()
		return nil, t.errs
	}
	t.normalFormsOf()
	// The program sort first: the sort of the root kind's frames.
	if len(used) > 0 && used[0].sort != nil {
		i := slices.Index(t.sorts, used[0].sort)
		t.sorts = append([]*tsort{t.sorts[i]}, slices.Delete(slices.Clone(t.sorts), i, i+1)...)
	}
	ruleTexts := t.relation(rel)
	judgments := t.judgments()
	// The meta-functions no rule or judgment calls, as written, where the
	// translation can say them (their tests are Redex's test-equal, which the
	// corpus does not hold; judge and the stages' traces show them).
	for _, mf := range m.Metafunctions {
		if f := t.fns[mf.Name]; f != nil && !f.done {
			if err := t.function(f); err != nil {
				t.skip(mf.P, "meta-function %s: %v", mf.Name, err)
			}
		}
	}
	if len(t.errs) > 0 {
		t.errs.Sort()
		return nil, t.errs
	}
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	text := t.write(name, rel, t.kinds, ruleTexts, judgments)
	l, err := sem.Load([]byte(text))
	if err != nil && ambiguous(err) {
		// A relation Redex explores whole: the rule file says so, and the static
		// checks' witnesses say where.
		text = strings.Replace(text, "\n(language ", "\n; Redex explores every decomposition of a term: the relation is non-deterministic.\n(nondeterministic)\n(language ", 1)
		l, err = sem.Load([]byte(text))
	}
	if err != nil {
		return &Imported{Name: name, Sem: text}, fmt.Errorf("the rule file translated from %s does not load (an error of the translation, or a check the model fails):\n%w", file, err)
	}
	im := &Imported{Name: name, Relation: rel.Name, Sem: text}
	t.tests(im, rel, l)
	im.Skipped = t.skipped
	slices.SortStableFunc(im.Skipped, func(a, b Skip) int { return int(a.P.Line - b.P.Line) })
	nrules := len(ruleTexts)
	nfns := 0
	for _, f := range t.fns {
		if f.done && f.err == nil {
			nfns++
		}
	}
	im.Summary = fmt.Sprintf("%s, %s, %s, %s, %s; %s as programs, %s left out", count(len(t.sorts), "sort"), count(len(t.kinds), "kind"),
		count(nrules, "rule"), count(nfns, "meta-function"), count(len(judgments), "judgment"), count(len(im.Tests), "test"), count(len(im.Skipped), "form"))
	return im, nil
}

// numbersOf decides whether the model's numbers are Racket's: when a rule's
// right-hand side divides or takes a square root (arithmetic.rkt's ,(/ (term
// number_1) (term number_2))), whose results are rationals and reals, the numbers are
// the rule language's number atom, exact rationals and inexact reals, and the
// arithmetic its hooks; otherwise integers, the δ-table's.
func (t *translator) numbersOf(rules []*Rule) {
	for _, r := range rules {
		walk(r.RHS, func(d *Datum) {
			if d.Quote == "," { // an unquote: Racket code
				walk(d, func(x *Datum) { t.numbers = t.numbers || head(x) == "/" || head(x) == "sqrt" })
			}
		})
	}
	if t.numbers {
		t.notes = append(t.notes, "the model divides or takes square roots: its numbers are Racket's, the number atom (exact rationals, inexact reals), its arithmetic the hooks number-add, number-sub, number-mul, number-div and number-sqrt")
	}
}

// normalFormsOf decides whether the kinds' values are their normal forms: when a
// frame of a kind enters a value of it — the frame and a value alternative have the
// same constructor and arity, and where the frame has its hole the value has any
// term of its sort (church.rkt's e-ctxt ::= (lambda (x) e-ctxt) | ..., its v ::=
// (lambda (x) e) | x) — the context reduces inside values, and Redex's normal forms
// are not the value class: every kind then declares (normal-forms K), and the value
// classes are classes.
func (t *translator) normalFormsOf() {
	for _, k := range t.kinds {
		if k.value == nil || k.sort == nil {
			continue
		}
		var values [][]string
		for _, a := range t.valueAlts(k.value, map[*nonterm]bool{}) {
			if s, err := t.pattern(a, k.sort, grammarScope(), 0); err == nil {
				values = append(values, topFields(s))
			}
		}
		for _, f := range k.frames {
			ff := topFields(f.Text)
			hole := slices.IndexFunc(ff, func(x string) bool { return strings.HasPrefix(x, "(hole") })
			for _, v := range values {
				if hole < 1 || len(v) != len(ff) || v[0] != ff[0] || slices.Contains(ff, "...") || slices.Contains(v, "...") {
					continue
				}
				base, _ := splitName(v[hole])
				if r := t.byName[base]; r == nil || r.role != roleSort {
					continue
				}
				t.normalForms = true
				t.notes = append(t.notes, fmt.Sprintf("context %s reduces inside its values (its frame %s enters the value (%s) of %s): each kind's values are its normal forms, (normal-forms K), as Redex's, and %s is a class",
					k.names[0], f.Text, strings.Join(v, " "), k.value.names[0], k.value.names[0]))
				return
			}
		}
	}
}

// topFields splits a pattern's text, (CON ARG ...), into its constructor and its
// arguments' texts, as the rule language's reader reads it (a symbol's text alone).
func topFields(s string) []string {
	ss, err := sem.ReadSExprs([]byte(s))
	if err != nil || len(ss) != 1 || ss[0].Kind != sem.SList {
		return []string{s}
	}
	out := make([]string, len(ss[0].List))
	for i, x := range ss[0].List {
		out[i] = x.String()
	}
	return out
}

// general reports whether the pattern (CON ARG ...), split in fields, is every term
// of the constructor: each argument a metavariable of the argument's declared sort.
func (t *translator) general(so *tsort, f []string) bool {
	i := slices.IndexFunc(so.cons, func(c *tcon) bool { return c.name == f[0] })
	if i < 0 || len(so.cons[i].args) != len(f)-1 {
		return false
	}
	for j, a := range so.cons[i].args {
		base, _ := splitName(f[j+1])
		r, decl := t.byName[base], t.byName[a]
		if base != a && (r == nil || decl == nil || r.sort != decl.sort || r.role != decl.role) {
			return false
		}
	}
	return true
}

// ambiguous reports whether every error of a rule file's loading is an ambiguity of
// its decomposition (which (nondeterministic) accepts).
func ambiguous(err error) bool {
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return false
	}
	for _, e := range list {
		if !strings.Contains(e.Msg, "decomposition is not unique") && !strings.Contains(e.Msg, "not in search order") {
			return false
		}
	}
	return true
}

// requires reports whether the model requires a module whose path ends in file.
func requires(m *Model, file string) bool {
	found := false
	for _, d := range m.Other {
		if head(d) == "require" {
			// "subst.rkt", or a collection's path, redex/examples/subst.
			walk(d, func(x *Datum) {
				found = found || x.Kind == String && strings.HasSuffix(x.Text, file) ||
					x.Kind == Symbol && strings.HasSuffix(x.Text, "/"+strings.TrimSuffix(file, ".rkt"))
			})
		}
	}
	return found
}

// count writes n things: 1 rule, 2 rules.
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func nameOr(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// write writes the rule file.
func (t *translator) write(name string, rel *Relation, kinds []*nonterm, rules, judgments []string) string {
	b := &t.out
	fmt.Fprintf(b, "; Translated from the Redex model %s by interderive import: language %s, relation %s.\n", filepath.Base(t.file), rel.Lang, nameOr(rel.Name))
	b.WriteString("; Each constructor is an alternative of the grammar, written as the model writes it (shape).\n")
	b.WriteString("; A variable in a list that later arguments follow binds in them (bind); the frames of a\n")
	b.WriteString("; constructor are searched left to right.\n")
	for _, n := range t.notes {
		fmt.Fprintf(b, "; %s.\n", n)
	}
	fmt.Fprintf(b, "(language %s)\n\n", symbolText(name))
	for _, so := range t.sorts {
		fmt.Fprintf(b, "; %s, line %d\n(sort %s", so.name, so.nt.P.Line, strings.Join(so.metas, " "))
		if len(so.vars) > 0 {
			fmt.Fprintf(b, " (variable %s)", strings.Join(so.vars, " "))
		}
		if len(so.ints) > 0 && t.numbers {
			fmt.Fprintf(b, " (atom number %s)", strings.Join(so.ints, " "))
		} else if len(so.ints) > 0 {
			fmt.Fprintf(b, " (integer %s)", strings.Join(so.ints, " "))
		}
		if so.strs {
			b.WriteString(" (atom string str)")
		}
		for _, c := range so.cons {
			fmt.Fprintf(b, "\n  (con %s", c.name)
			for i, a := range c.args {
				b.WriteString(" " + a)
				if c.seq[i] {
					b.WriteString(" ...")
				}
			}
			for _, bd := range c.binds {
				b.WriteString(" (bind")
				for _, i := range bd {
					fmt.Fprintf(b, " %d", i)
				}
				b.WriteString(")")
			}
			fmt.Fprintf(b, " (shape %s))", c.shape)
		}
		b.WriteString(")\n")
	}
	for _, h := range t.hooks {
		so := t.intSort()
		args := strings.Repeat(" "+so.metas[0], 2)
		if h == "number-sqrt" {
			args = " " + so.metas[0]
		}
		fmt.Fprintf(b, "(hook %s (%s) %s)\n", h, strings.TrimSpace(args), so.metas[0])
	}
	if t.needBool {
		fmt.Fprintf(b, "; the results of Racket's tests\n(sort %s (atom bool %s))\n", boolSort, boolMeta)
	}
	b.WriteString("\n")
	for _, nt := range t.nts {
		if nt.role != roleClass || nt.isValue && !t.normalForms {
			continue
		}
		for _, n := range nt.names {
			var alts []string
			for _, a := range nt.alts {
				s, err := t.pattern(a, nt.sort, grammarScope(), 0)
				if err != nil {
					t.skip(a.P, "class %s's alternative %s: %v", n, a, err)
					continue
				}
				alts = append(alts, s)
			}
			fmt.Fprintf(b, "; %s, line %d\n(class %s %s %s)\n", n, nt.P.Line, n, nt.sort.metas[0], strings.Join(alts, " "))
		}
	}
	valueNames := map[string]bool{}
	for _, k := range kinds {
		if t.normalForms && k.sort != nil {
			fmt.Fprintf(b, "; %s, line %d; its values are its normal forms\n(kind %s nf-%s", k.names[0], k.P.Line, k.kindName, k.kindName)
			if k.sort != t.sorts[0] {
				b.WriteString(" " + k.sort.metas[0])
			}
			fmt.Fprintf(b, ")\n(normal-forms %s)\n", k.kindName)
			for _, f := range k.frames {
				fmt.Fprintf(b, "(frame %s %s)\n", k.kindName, f.Text)
			}
			b.WriteString("\n")
			continue
		}
		if k.value == nil {
			if k.sort == nil {
				continue
			}
			vname := "v-" + k.kindName // a value metavariable that matches nothing
			fmt.Fprintf(b, "; %s, line %d; it has no values\n(kind %s %s", k.names[0], k.P.Line, k.kindName, vname)
			if k.sort != t.sorts[0] {
				b.WriteString(" " + k.sort.metas[0])
			}
			b.WriteString(")\n")
			for _, f := range k.frames {
				fmt.Fprintf(b, "(frame %s %s)\n", k.kindName, f.Text)
			}
			b.WriteString("\n")
			continue
		}
		// A class that is the values of two kinds names the first kind's values;
		// the second kind's are named after it (its frames' v still match the first
		// kind's values, the same terms).
		vname := k.value.names[0]
		if valueNames[vname] {
			vname += "-" + k.kindName
		}
		valueNames[vname] = true
		fmt.Fprintf(b, "; %s, line %d; its values %s, line %d\n(kind %s %s", k.names[0], k.P.Line, k.value.names[0], k.value.P.Line, k.kindName, vname)
		if k.sort != t.sorts[0] {
			b.WriteString(" " + k.sort.metas[0])
		}
		b.WriteString(")\n")
		for _, a := range t.valueAlts(k.value, map[*nonterm]bool{}) {
			s, err := t.pattern(a, k.sort, grammarScope(), 0)
			if err != nil {
				t.within(err, a.P, fmt.Sprintf("value %s of %s", a, k.kindName))
				continue
			}
			if f := strings.Fields(strings.Trim(s, "()")); len(f) > 0 && strings.Count(s, "(") == 1 && t.general(k.sort, f) {
				k.general = append(k.general, f[0]) // every term of the constructor is a value
			}
			if !strings.Contains(s, "(") {
				k.general = append(k.general, s) // number, x: every integer, every variable
			}
			fmt.Fprintf(b, "(value %s %s)\n", k.kindName, s)
		}
		for _, f := range k.frames {
			fmt.Fprintf(b, "(frame %s %s)\n", k.kindName, f.Text)
		}
		b.WriteString("\n")
	}
	for _, mf := range t.m.Metafunctions {
		if f := t.fns[mf.Name]; f != nil && f.done && f.err == nil {
			b.WriteString(f.text + "\n")
		}
	}
	for _, x := range t.extra {
		b.WriteString(x + "\n")
	}
	for _, r := range rules {
		b.WriteString(r)
	}
	for _, a := range t.answers {
		b.WriteString(a + "\n")
	}
	// Redex's normal forms that are not values: a run that reaches one ends there
	// (Redex's test-->> gives it); the rule file says so with a catch-all stuck shape
	// per constructor (consulted only where no frame is entered and no rule
	// applies), the run's run-time error.
	for _, k := range kinds {
		if k.sort == nil || t.normalForms {
			continue
		}
		why := fmt.Sprintf("%q", "no rule of "+filepath.Base(t.file)+" applies (a normal form that is not a value)")
		fmt.Fprintf(b, "\n; the normal forms of %s that are not values\n", k.kindName)
		for _, c := range k.sort.cons {
			if slices.Contains(k.general, c.name) {
				continue
			}
			parts := []string{c.name}
			for i, a := range c.args {
				if c.seq[i] {
					parts = append(parts, fmt.Sprintf("(%s_s%d ...)", a, i+1))
					continue
				}
				parts = append(parts, fmt.Sprintf("%s_s%d", a, i+1))
			}
			fmt.Fprintf(b, "(stuck %s (%s) %s)\n", k.kindName, strings.Join(parts, " "), why)
		}
		if k.sort.strs {
			fmt.Fprintf(b, "(stuck %s str %s)\n", k.kindName, why)
		}
		if len(k.sort.ints) > 0 && !slices.ContainsFunc(k.general, isIntName) {
			fmt.Fprintf(b, "(stuck %s number %s)\n", k.kindName, why)
		}
		if len(k.sort.vars) > 0 && !slices.ContainsFunc(k.general, func(g string) bool { return slices.Contains(k.sort.vars, g) }) {
			fmt.Fprintf(b, "(stuck %s %s %s)\n", k.kindName, k.sort.vars[0], why)
		}
	}
	for _, j := range judgments {
		b.WriteString("\n" + j)
	}
	return b.String()
}

// Load reads the Redex model src (read from file, for names and messages),
// recognizes it, the modules it requires from lib (nil: none), and imports it
// (Import): the pipeline of interderive import.
func Load(src []byte, file string, lib Library) (*Imported, error) {
	mod, err := Read(src)
	if err != nil {
		return nil, err
	}
	m, err := RecognizeWith(mod, lib)
	if err != nil {
		return nil, err
	}
	return Import(m, file)
}
