package redex

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The translation of a Redex model into a rule file (interderive import). Redex's
// grammar is untyped s-expressions; a rule file's is sorted constructors with shapes.
// The translation reads the model's language by roles:
//
//   - a non-terminal of variables (variable-not-otherwise-mentioned, variable,
//     variable-except, variable-prefix) is the variables of a sort;
//   - a non-terminal with hole among its alternatives is an evaluation context: a
//     context kind, whose other alternatives are its frames;
//   - a non-terminal each of whose alternatives is a term of a sort declared before
//     it is a class of that sort (a value non-terminal, v, used in a context's frames,
//     is the kind's values);
//   - any other non-terminal is a sort, and its alternatives its constructors, each
//     written as Redex writes it (a shape).
//
// Patterns, right-hand sides and premises are then read against these sorts: a list
// is the first constructor of the expected sort whose shape it fits (constructors
// with more literals first), a symbol a metavariable, a literal or a number. What a
// rule file cannot say (sequences, contexts as values, Racket code) is a positioned
// error that names the construct; what Redex leaves implicit (binders, the order in
// which a context's frames are searched, substitution) is decided here, each
// decision written in the rule file's comments.

// Imported is a model translated: the rule file's text and its corpus, and the
// tests left out, each with the reason.
type Imported struct {
	Name     string // the rule file's language name
	Relation string // the relation translated, as the model names it
	Sem      string // the rule file
	Tests    []*TermFile
	Skipped  []Skip
	// Summary counts what was translated, for the command's report.
	Summary string
}

// TermFile is one of the model's tests as a program of the corpus: its file name,
// and its text (expectations in comments, then the program).
type TermFile struct {
	Name string
	Text string
	// Expect is the expected answer as Redex writes it.
	Expect string
	// Program is the program, as Redex writes it; Line the test's line in the model.
	Program string
	Line    int
}

// Skip is a form of the model left out of the rule file or its corpus, and why.
type Skip struct {
	P   Pos
	Why string
}

// Roles of a non-terminal.
type role uint8

const (
	roleSort    role = iota // its alternatives are constructors of a sort of its own
	roleClass               // a subset of a sort's terms
	roleVar                 // variables
	roleContext             // evaluation contexts
)

// nonterm is a non-terminal of the language translated, its extensions merged.
type nonterm struct {
	P     Pos
	names []string
	alts  []*Datum
	role  role
	sort  *tsort // the sort of its terms (for a context, of its frames' roots)
	// kindName: a context non-terminal that is a kind of the rule file; "" for one
	// whose frames another context includes only.
	kindName string
	value    *nonterm // a context's values (its kind's value metavariable)
	frames   []*Datum // a context's frames, in search order
	isValue  bool     // a class that is a kind's values
	general  []string // a kind's constructors whose every term is a value
}

// tsort is a sort of the rule file.
type tsort struct {
	name     string
	metas    []string // the names of its non-terminals
	vars     []string // its variables' metavariables
	ints     []string // its integers' metavariables
	strs     bool     // strings are terms of it (a right-hand side or test gives one)
	cons     []*tcon
	nt       *nonterm
	intsFrom Pos
}

// tcon is a constructor: its name, its arguments' metavariables, its shape (the
// alternative as written) and its binders.
type tcon struct {
	name  string
	sort  *tsort
	args  []string // each argument's metavariable name, as the declaration writes it
	kinds []argKind
	shape string
	binds [][]int // (bind I J ...)
	seq   []bool  // the arguments that are sequences (E ...: translate_seq.go)
	lits  int     // the literals of its shape, to order the constructors
	alt   *Datum
	tmpl  *Datum // the shape, with each argument a symbol argN
}

type argKind uint8

const (
	argTerm argKind = iota
	argVar
	argInt
)

// translator holds a translation's state.
type translator struct {
	m        *Model
	file     string
	errs     interderive.ErrorList
	nts      []*nonterm
	byName   map[string]*nonterm
	sorts    []*tsort
	conNames map[string]bool
	skipped  []Skip
	fns      map[string]*tfunc
	substFns map[string]*substRoles
	out      strings.Builder
	notes    []string // decisions, written at the head of the rule file
	answers  []string // (answer K "error"): strings an abort to the root gives
	kinds    []*nonterm
	// failedJudgments are the judgment forms left out, and why.
	failedJudgments map[string]error
	// extra are the functions the translation writes for Racket's tests
	// (translate_racket.go), generated their names; needBool asks for the sort of
	// their results.
	extra        []string
	generated    map[string]bool
	needBool     bool
	disjunctions int
	// substN: subst-n is subst.rkt's, substitution of each x by its v in turn.
	substN bool
	// normalForms: a context reduces under a binder (a frame enters a term its
	// values hold), so the kinds' values are their normal forms, as Redex's are
	// (normalForms in import.go).
	normalForms bool
	// numbers: the model divides or takes square roots (Racket's / and sqrt on
	// numbers), so its numbers are Racket's, the rule language's number atom, and its
	// arithmetic the default hooks number-add ... number-sqrt (numbersOf).
	numbers bool
	hooks   []string // the hooks the translation calls, declared in the file
}

func (t *translator) errorf(p Pos, format string, args ...any) {
	t.errs.Add(p, fmt.Sprintf(format, args...))
}

// within adds an error of a part of the model (a rule, a frame): positioned at the
// construct at fault, its message naming the part; at the part, if the error has
// no position.
func (t *translator) within(err error, p Pos, part string) {
	var e *interderive.Error
	if errors.As(err, &e) && e.Pos.IsValid() {
		t.errs.Add(e.Pos, part+": "+e.Msg)
		return
	}
	t.errs.Add(p, part+": "+err.Error())
}

func (t *translator) skip(p Pos, format string, args ...any) {
	t.skipped = append(t.skipped, Skip{P: p, Why: fmt.Sprintf(format, args...)})
}

// builtins are Redex's pattern keywords the translation reads, by what they stand for.
var builtinInts = []string{"number", "integer", "natural"}

// varKeywords are Redex's patterns of variables.
func isVarPattern(d *Datum) bool {
	if d.Kind == Symbol {
		return d.Text == "variable" || d.Text == "variable-not-otherwise-mentioned"
	}
	h := head(d)
	return h == "variable-except" || h == "variable-prefix"
}

// unsupportedPatterns are Redex's pattern forms the rule language does not have, with
// what to do instead.
var unsupportedPatterns = map[string]string{
	"...":              "sequences (ellipses) are not in the rule language yet: write each arity as a constructor of its own",
	"..._":             "sequences (ellipses) are not in the rule language yet",
	"any":              "any is not a sort: give the position a non-terminal of the language",
	"name":             "(name x p) is not in the rule language: bind p's metavariable instead",
	"side-condition":   "a pattern's side-condition is Racket code: write the condition as a rule's (where ...) over a meta-function",
	"cross":            "(cross nt), the compatible closure's context, is not in the rule language: write its frames",
	"hide-hole":        "hide-hole is not in the rule language",
	"in-hole":          "a context inside a pattern (in-hole) needs contexts as values, not in the rule language yet",
	"mismatch-name":    "_!_ patterns are not in the rule language: compare with (where (!= a b))",
	"string":           "string patterns are not translated yet",
	"boolean":          "boolean patterns are not translated yet",
	"real":             "real numbers are not in the rule language (integers are)",
	"variable-prefix":  "variable-prefix is not translated",
	"hole":             "a hole outside a context's alternatives is not in the rule language",
	"unquote":          "Racket code (unquote) is not translated: write it as a meta-function or a hook",
	"unquote-splicing": "Racket code (unquote-splicing) is not translated",
}

// splitName splits a Redex pattern variable into its non-terminal and its subscript:
// e_1 is e and 1; e is e and "".
func splitName(s string) (base, sub string) {
	if i := strings.Index(s, "_"); i > 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// language flattens the language the model's first relation uses (its extensions
// merged) and reads its non-terminals' roles.
func (t *translator) language(name string) bool {
	langs := map[string]*Language{}
	for _, l := range t.m.Languages {
		langs[l.Name] = l
	}
	l, ok := langs[name]
	if !ok {
		if len(t.m.Languages) == 0 {
			t.errorf(Pos{Line: 1, Col: 1}, "the model defines no language (define-language)")
			return false
		}
		l = t.m.Languages[len(t.m.Languages)-1]
	}
	var chain []*Language
	for seen := map[string]bool{}; l != nil && !seen[l.Name]; l = langs[l.Extends] {
		seen[l.Name] = true
		chain = append([]*Language{l}, chain...)
		if l.Extends != "" && langs[l.Extends] == nil {
			t.errorf(l.P, "language %s extends %s, which the model does not define", l.Name, l.Extends)
			return false
		}
	}
	t.byName = map[string]*nonterm{}
	for _, l := range chain {
		if len(l.BindingForms) > 0 {
			t.notes = append(t.notes, fmt.Sprintf("%s's #:binding-forms are read as the binders below", l.Name))
		}
		for _, n := range l.NonTerminals {
			if old := t.byName[n.Names[0]]; old != nil {
				if n.Extend {
					old.alts = append(old.alts, n.Alts...)
				} else {
					old.alts = n.Alts
				}
				continue
			}
			nt := &nonterm{P: n.P, names: n.Names, alts: n.Alts}
			t.nts = append(t.nts, nt)
			for _, x := range n.Names {
				t.byName[x] = nt
			}
		}
	}
	return t.roles()
}

// ref is the non-terminal a pattern symbol names (e_1: e), nil if none.
func (t *translator) ref(d *Datum) *nonterm {
	if d.Kind != Symbol {
		return nil
	}
	base, _ := splitName(d.Text)
	return t.byName[base]
}

// roles reads each non-terminal's role, and declares the sorts and constructors.
func (t *translator) roles() bool {
	// Variables and contexts first: what they are does not depend on the others.
	for _, nt := range t.nts {
		switch {
		case len(nt.alts) > 0 && all(nt.alts, isVarPattern):
			nt.role = roleVar
		case slices.ContainsFunc(nt.alts, func(d *Datum) bool { return isSym(d, "hole") }):
			nt.role = roleContext
		}
	}
	// A context includes another as an alternative (e-ctxt ::= ... | a-ctxt): a
	// context too.
	for changed := true; changed; {
		changed = false
		for _, nt := range t.nts {
			if nt.role == roleSort && slices.ContainsFunc(nt.alts, func(d *Datum) bool {
				r := t.ref(d)
				return d.Kind == Symbol && r != nil && r.role == roleContext
			}) {
				nt.role, changed = roleContext, true
			}
		}
	}
	// A bare non-terminal among a sort's alternatives (e ::= ... | v) brings its
	// alternatives into the sort; the non-terminal is then a class of it.
	for _, nt := range t.nts {
		if nt.role != roleSort {
			continue
		}
		var alts []*Datum
		seen := map[*nonterm]bool{nt: true}
		var add func(ds []*Datum)
		add = func(ds []*Datum) {
			for _, d := range ds {
				if r := t.ref(d); r != nil && r.role == roleSort && slices.Contains(r.names, d.Text) {
					if !seen[r] {
						seen[r] = true
						add(r.alts)
					}
					continue
				}
				alts = append(alts, d)
			}
		}
		add(nt.alts)
		nt.alts = alts
	}
	for _, nt := range t.nts {
		if nt.role != roleSort {
			continue
		}
		if so := t.classOf(nt); so != nil {
			nt.role, nt.sort = roleClass, so
			continue
		}
		so := &tsort{name: nt.names[0], metas: nt.names, nt: nt}
		nt.sort = so
		t.sorts = append(t.sorts, so)
		for _, a := range nt.alts {
			t.constructor(so, a)
		}
	}
	// Variables belong to the sort that takes them as an alternative (the first
	// sort, if none does).
	for _, nt := range t.nts {
		if nt.role != roleVar {
			continue
		}
		for _, so := range t.sorts {
			if slices.ContainsFunc(so.nt.alts, func(d *Datum) bool { return t.ref(d) == nt }) {
				nt.sort = so
				break
			}
		}
		if nt.sort == nil && len(t.sorts) > 0 {
			nt.sort = t.sorts[0]
		}
		if nt.sort != nil {
			nt.sort.vars = append(nt.sort.vars, nt.names...)
		}
	}
	for _, so := range t.sorts {
		t.args(so)
	}
	return len(t.errs) == 0
}

func all[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

// classOf is the sort declared before nt of which each of nt's alternatives is a
// term (nt is then a class of it), nil if none.
func (t *translator) classOf(nt *nonterm) *tsort {
	defer func() { nt.sort = nil }()
	for _, so := range t.sorts {
		nt.sort = so // a class may use itself: (cons v) among v's alternatives
		if all(nt.alts, func(d *Datum) bool { return t.fits(d, so, 0) }) {
			return so
		}
	}
	return nil
}

// fits reports whether the pattern d can be a term of the sort so: a literal of a
// nullary constructor, an integer pattern where so has integers, a non-terminal of
// so, or a list that one of so's constructors' shapes fits.
func (t *translator) fits(d *Datum, so *tsort, depth int) bool {
	if depth > 64 {
		return false
	}
	d = boolSym(d)
	switch d.Kind {
	case Number:
		return len(so.ints) > 0
	case Symbol:
		if slices.Contains(builtinInts, d.Text) || slices.Contains(builtinInts, strings.SplitN(d.Text, "_", 2)[0]) {
			return len(so.ints) > 0
		}
		if r := t.ref(d); r != nil {
			return r.role == roleContext || r.sort == so || r.role == roleVar && slices.ContainsFunc(so.nt.alts, func(a *Datum) bool { return t.ref(a) == r }) || r.role == roleSort && r == so.nt
		}
		for _, c := range so.cons {
			if c.tmpl.Kind == Symbol && c.tmpl.Text == d.Text && len(c.args) == 0 {
				return true
			}
		}
		return false
	case List:
		if head(d) == "in-hole" {
			return true // a context reinstated: a term of the context's sort
		}
		for _, c := range so.cons {
			if t.fitsShape(d, c.tmpl, c, depth) {
				return true
			}
		}
	}
	return false
}

// fitsShape reports whether d fits a constructor's template.
func (t *translator) fitsShape(d, tmpl *Datum, c *tcon, depth int) bool {
	d = boolSym(d)
	switch tmpl.Kind {
	case Symbol:
		if i, ok := argIndex(tmpl.Text); ok {
			return t.fitsArg(d, c, i, depth+1)
		}
		return d.Kind == Symbol && d.Text == tmpl.Text
	case List:
		if d.Kind != List || d.Quote != "" {
			return false
		}
		if k := seqArg(tmpl); k >= 0 {
			before, seq, after, ok := align(d, tmpl, k)
			if !ok {
				return false
			}
			for i, x := range before {
				if !t.fitsShape(x, tmpl.List[i], c, depth) {
					return false
				}
			}
			for i, x := range after {
				if !t.fitsShape(x, tmpl.List[k+2+i], c, depth) {
					return false
				}
			}
			j, _ := argIndex(tmpl.List[k].Text)
			elems, _ := items(seq)
			for _, x := range elems {
				if isEllipsis(x) || !t.fitsArg(x, c, j, depth+1) {
					return false
				}
			}
			return true
		}
		if len(d.List) != len(tmpl.List) {
			return false
		}
		for i := range d.List {
			if !t.fitsShape(d.List[i], tmpl.List[i], c, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// fitsArg reports whether d can be the constructor's argument i.
func (t *translator) fitsArg(d *Datum, c *tcon, i, depth int) bool {
	switch c.kinds[i] {
	case argVar:
		if r := t.ref(d); r != nil {
			return r.role == roleVar
		}
		return d.Kind == Symbol && !slices.Contains(builtinInts, d.Text)
	case argInt:
		return d.Kind == Number || d.Kind == Symbol && slices.Contains(builtinInts, strings.SplitN(d.Text, "_", 2)[0])
	}
	so := t.argSort(c, i)
	if so == nil {
		return true // a sort not yet read: any datum
	}
	return t.fits(d, so, depth)
}

// argIndex reads a template's argument symbol, argN.
func argIndex(s string) (int, bool) {
	if !strings.HasPrefix(s, "\x00arg") {
		return 0, false
	}
	var i int
	_, err := fmt.Sscanf(s[4:], "%d", &i)
	return i, err == nil
}

// argSort is the sort of a constructor's term argument, nil while it is not known.
func (t *translator) argSort(c *tcon, i int) *tsort {
	if r := t.byName[c.args[i]]; r != nil {
		return r.sort
	}
	return nil
}

// constructor declares an alternative of a sort as a constructor.
func (t *translator) constructor(so *tsort, a *Datum) {
	a = boolSym(a)
	switch a.Kind {
	case Number:
		t.errorf(a.P, "a number literal as an alternative of %s is not in the rule language: use number", so.name)
		return
	case Symbol:
		if slices.Contains(builtinInts, a.Text) {
			if len(so.ints) == 0 {
				so.ints = []string{"number", "integer", "natural"}
				so.intsFrom = a.P
				for _, other := range t.sorts {
					if other != so && len(other.ints) > 0 {
						t.errorf(a.P, "integers in %s and in %s: the translation gives integers to one sort", other.name, so.name)
					}
				}
			}
			return
		}
		if r := t.ref(a); r != nil {
			if r.role == roleVar {
				return // the sort's variables: read when the sort of each is decided
			}
			t.errorf(a.P, "%s among the alternatives of %s: a %s here is not translated", a.Text, so.name, map[role]string{roleContext: "context", roleClass: "class"}[r.role])
			return
		}
		if why, bad := unsupportedPatterns[a.Text]; bad {
			t.errorf(a.P, "%s: %s", a.Text, why)
			return
		}
	case List:
		if h := head(a); h != "" {
			if why, bad := unsupportedPatterns[h]; bad {
				t.errorf(a.P, "%s: %s", h, why)
				return
			}
		}
	default:
		t.errorf(a.P, "%s: only symbols, lists and number are alternatives the translation reads", a)
		return
	}
	if m, merged := t.mergeFirst(a); merged {
		a = m
		note := "a fixed element before a sequence of the same non-terminal is the sequence's first: (e e ...) is written (e ...), its empty sequence a normal form"
		if !slices.Contains(t.notes, note) {
			t.notes = append(t.notes, note)
		}
	}
	c := &tcon{sort: so, alt: a}
	var tmpl func(d *Datum, depth int) *Datum
	tmpl = func(d *Datum, depth int) *Datum {
		switch d.Kind {
		case Symbol:
			if slices.Contains(builtinInts, d.Text) {
				c.args = append(c.args, d.Text)
				c.kinds = append(c.kinds, argInt)
				c.seq = append(c.seq, false)
				return &Datum{P: d.P, Kind: Symbol, Text: fmt.Sprintf("\x00arg%d", len(c.args)-1)}
			}
			if why, bad := unsupportedPatterns[d.Text]; bad {
				t.errorf(d.P, "%s: %s", d.Text, why)
				return nil
			}
			if r := t.ref(d); r != nil {
				if r.role == roleContext {
					t.errorf(d.P, "%s: a context inside a term needs contexts as values, not in the rule language yet", d.Text)
					return nil
				}
				base, _ := splitName(d.Text)
				c.args = append(c.args, base)
				k := argTerm
				if r.role == roleVar {
					k = argVar
				}
				c.kinds = append(c.kinds, k)
				c.seq = append(c.seq, false)
				return &Datum{P: d.P, Kind: Symbol, Text: fmt.Sprintf("\x00arg%d", len(c.args)-1)}
			}
			c.lits++
			return d
		case List:
			if depth > 64 || d.Quote != "" || d.Dot {
				t.errorf(d.P, "%s: not a pattern the translation reads", d)
				return nil
			}
			if h := head(d); h != "" {
				if why, bad := unsupportedPatterns[h]; bad {
					t.errorf(d.P, "%s: %s", h, why)
					return nil
				}
			}
			out := &Datum{P: d.P, Kind: List, Open: '('}
			for k, x := range d.List {
				if isEllipsis(x) {
					// The argument before it is a sequence (translate_seq.go).
					var last *Datum
					if len(out.List) > 0 {
						last = out.List[len(out.List)-1]
					}
					i, isArg := 0, false
					if last != nil && last.Kind == Symbol {
						i, isArg = argIndex(last.Text)
					}
					if !isArg && last != nil && last.Kind == List {
						// A sequence of lists, ((x e) ...): the elements are a sort of
						// their own (translate_seq.go).
						i, isArg = t.elementSort(so, a, d.List[k-1], c), true
						out.List[len(out.List)-1] = &Datum{P: last.P, Kind: Symbol, Text: fmt.Sprintf("\x00arg%d", i)}
					}
					switch {
					case !isArg:
						t.errorf(x.P, "%s: a sequence of literals in the grammar is not translated", x.Text)
						return nil
					case seqArg(out) >= 0:
						t.errorf(x.P, "%s: a second sequence in one list of the grammar is not translated yet", x.Text)
						return nil
					}
					c.seq[i] = true
					out.List = append(out.List, &Datum{P: x.P, Kind: Symbol, Text: "..."})
					continue
				}
				n, lits := len(c.args), c.lits
				y := tmpl(x, depth+1)
				if y == nil {
					return nil
				}
				if x.Kind == List {
					// An element of a sequence of lists: its arguments are its own
					// sort's (elementSort), its reading here undone.
					if k+1 < len(d.List) && isEllipsis(d.List[k+1]) {
						c.args, c.kinds, c.seq, c.lits = c.args[:n], c.kinds[:n], c.seq[:n], lits
						y = x
					}
				}
				out.List = append(out.List, y)
			}
			return out
		}
		t.errorf(d.P, "%s in an alternative of %s: only symbols and lists are translated", d, so.name)
		return nil
	}
	c.tmpl = tmpl(a, 0)
	if c.tmpl == nil {
		return
	}
	c.name = t.conName(c)
	so.cons = append(so.cons, c)
	// Constructors with more literals first: the shape read is the first that
	// fits, and a more literal shape is the more specific.
	slices.SortStableFunc(so.cons, func(a, b *tcon) int { return b.lits - a.lits })
}

// args decides each constructor's binders, and the metavariable of each argument:
// a variable in a list that later arguments follow binds in them ((λ (x τ) e): x
// binds in e; (let (x e_1) e_2): in e_2 only); a variable not so placed is a term of
// its sort (the x of an environment (x τ Γ)).
func (t *translator) args(so *tsort) {
	for _, c := range so.cons {
		// The top-level element of the template that holds each argument.
		top := make([]int, len(c.args))
		if c.tmpl.Kind == List {
			for i, x := range c.tmpl.List {
				var mark func(d *Datum)
				mark = func(d *Datum) {
					if j, ok := argIndex(d.Text); ok && d.Kind == Symbol {
						top[j] = i
					}
					for _, y := range d.List {
						mark(y)
					}
				}
				mark(x)
			}
		}
		for i, k := range c.kinds {
			if r := t.byName[c.args[i]]; k == argTerm && r != nil && r.role == roleClass && r.sort != nil {
				// A class among a constructor's arguments ([C @ σ], C a class of
				// M): a term of its sort.
				c.args[i] = r.sort.metas[0]
			}
			if k != argVar {
				continue
			}
			var scope []int
			if c.tmpl.Kind == List && c.tmpl.List[top[i]].Kind == List {
				for j := range c.args {
					if top[j] > top[i] && c.kinds[j] == argTerm {
						scope = append(scope, j)
					}
				}
			}
			// (∀ α Σ): a variable right after a literal head, and one term after
			// it, binds in that term.
			if l := c.tmpl.List; c.tmpl.Kind == List && top[i] == 1 && len(l) == 3 && l[0].Kind == Symbol && c.kinds[i] == argVar {
				if _, isArg := argIndex(l[0].Text); !isArg && l[1].Kind == Symbol && l[2].Kind == Symbol {
					// (A rule file's binder binds in terms of its own sort.)
					if j, ok := argIndex(l[2].Text); ok && c.kinds[j] == argTerm && t.byName[c.args[j]] != nil && t.byName[c.args[j]] == t.byName[c.args[i]].sort.nt {
						scope = []int{j}
					}
				}
			}
			if len(scope) == 0 {
				// Not a binder: the variable is a term of its sort.
				vs := t.byName[c.args[i]].sort
				if vs == nil {
					t.errorf(c.alt.P, "%s: the sort of variable %s is not known", c.alt, c.args[i])
					continue
				}
				c.kinds[i] = argTerm
				c.args[i] = vs.metas[0]
				continue
			}
			c.binds = append(c.binds, append([]int{i}, scope...))
		}
		c.shape = shapeText(c)
	}
}

// shapeText writes a constructor's shape: its template with each argument its
// metavariable name.
func shapeText(c *tcon) string {
	var b strings.Builder
	var write func(d *Datum)
	write = func(d *Datum) {
		if d.Kind == Symbol {
			if i, ok := argIndex(d.Text); ok {
				b.WriteString(c.args[i])
			} else {
				b.WriteString(d.Text)
			}
			return
		}
		b.WriteByte('(')
		for i, x := range d.List {
			if i > 0 {
				b.WriteByte(' ')
			}
			write(x)
		}
		b.WriteByte(')')
	}
	write(c.tmpl)
	return b.String()
}
