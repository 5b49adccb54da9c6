package redex

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The recognition of a Redex model's forms in a module read: its languages, reduction
// relations, metafunctions, judgment forms and tests, each kept as the data it was
// written as (patterns and terms are Datums), with positions. What the forms mean,
// and whether the rule language can say it, is the translation's question; what is
// recognized here is only their shape, and a form of Redex that is not written as
// Redex documents it is a positioned error naming the form.

// Model is a Redex model: the Redex forms of a module, in the order written.
type Model struct {
	Languages     []*Language
	Relations     []*Relation
	Metafunctions []*Metafunction
	Judgments     []*Judgment
	Tests         []*Test
	// Other are the forms that are not Redex's definitions or tests: requires,
	// Racket definitions, calls of traces, (test-results), ...: the translation
	// says which it ignores and which it cannot translate.
	Other []*Datum
}

// Language is a define-language, or a define-extended-language (Extends names the
// language it extends).
type Language struct {
	P            Pos
	Name         string
	Extends      string
	NonTerminals []*NonTerminal
	// BindingForms are the patterns after #:binding-forms: the binders Redex's
	// capture-avoiding substitution and α-equivalence respect.
	BindingForms []*Datum
}

// NonTerminal is a production of a language: its names (e and f for (e f ::= ...)),
// and its alternatives, patterns. In an extended language, Extend marks a production
// that adds to the extended one's (its alternatives began with ....).
type NonTerminal struct {
	P      Pos
	Names  []string
	Alts   []*Datum
	Extend bool
}

// Relation is a reduction-relation, named by the define that binds it (Name, ""
// for one given in place).
type Relation struct {
	P      Pos
	Name   string
	Lang   string
	Domain *Datum // #:domain, nil if none
	Arrow  string // #:arrow, --> if none
	Rules  []*Rule
	// Shortcuts are the with clauses: an arrow of the rules (the inner one, c--> in
	// (--> (in-hole E a) (in-hole E b)) with [(--> ...) (c--> a b)]) defined by an
	// outer rule.
	Shortcuts []*Shortcut
}

// Rule is a reduction rule (ARROW LHS RHS CLAUSE ...): its arrow, its sides, its
// name (a string or a symbol, "" if none) and its side clauses.
type Rule struct {
	P        Pos
	Arrow    string
	LHS, RHS *Datum
	Name     string
	Conds    []*Cond
}

// Shortcut is a with clause of a relation: the outer rule (with the arrow of the
// relation) whose LHS and RHS mention a and b, and the inner arrow's pattern (ARROW a b).
type Shortcut struct {
	P     Pos
	Outer *Rule
	Arrow string
	A, B  *Datum
}

// Cond is a side clause of a rule, a metafunction's clause or a judgment rule:
// (where PAT TERM), (side-condition RACKET), (fresh ...), their /hidden forms,
// (judgment-holds ...), and a judgment's premises written as judgments.
type Cond struct {
	P    Pos
	Kind string // where, where/hidden, side-condition, side-condition/hidden, fresh, judgment-holds, clause-name
	Args []*Datum
}

// Metafunction is a define-metafunction (or define-metafunction/extension, Extends
// the one extended): its contract, if written (NAME : DOMAIN ... -> RANGE), and its
// clauses.
type Metafunction struct {
	P        Pos
	Name     string
	Lang     string
	Extends  string
	Contract *Datum // the contract's data after the colon, as a list; nil if none
	Clauses  []*Clause
}

// Clause is a metafunction's clause [(NAME PAT ...) RHS CLAUSE ...].
type Clause struct {
	P     Pos
	LHS   *Datum
	RHS   *Datum
	Conds []*Cond
}

// Judgment is a define-judgment-form (or define-relation, Relation set): its mode
// (I and O, by position), its contract, and its rules.
type Judgment struct {
	P        Pos
	Name     string
	Lang     string
	Mode     []string
	Contract *Datum
	Rules    []*JudgmentRule
	Relation bool
}

// JudgmentRule is an inference rule: its premises above the line, its conclusion
// below, and its name (written after the dashes, or as a string), "" if none.
type JudgmentRule struct {
	P          Pos
	Premises   []*Cond
	Conclusion *Datum
	Name       string
}

// Test is one of Redex's tests: test-->> (Kind "-->>", the relation's normal forms),
// test--> ("-->", its one-step reducts), test-equal ("equal"), test-judgment-holds
// ("judgment"), test-predicate ("predicate"), with its data as written.
type Test struct {
	P        Pos
	Kind     string
	Relation *Datum   // test-->>, test-->: the relation
	Term     *Datum   // the term tested (test-equal: the first expression)
	Expected []*Datum // the expected results (test-equal: the second expression)
	// Cycles is test-->>'s #:cycles-ok.
	Cycles bool
	// Equiv is test-->>'s #:equiv, a Racket function that compares the normal forms
	// (nil if none).
	Equiv *Datum
	// From is the file of a test a macro of a required module wrote (redex-examples'
	// stlc-tests-lib.rkt: (stlc-tests ...) writes stlc+lists.rkt's tests), whose
	// positions P is in, and Call the position of the macro's call in the model;
	// "" for the model's own.
	From string
	Call Pos
}

// Recognize finds the Redex forms of a module read. A Redex form not written as
// Redex documents it is an error positioned at the part at fault; errors are
// collected, in source order.
func Recognize(m *Module) (*Model, error) { return RecognizeWith(m, nil) }

// Library finds a module a model requires, by its require spec (redex/examples/NAME,
// or "NAME.rkt"): its name, for the tests it writes, and the module read; ok is false
// for a module it does not have (Redex's own, Racket's).
type Library func(spec *Datum) (name string, m *Module, ok bool)

// RecognizeWith is Recognize, the macros of the modules the model requires found by
// lib (define-syntax-rule, expanded where the model calls them: the tests a shared
// library of tests writes).
func RecognizeWith(m *Module, lib Library) (*Model, error) {
	r := &recognizer{model: &Model{}, lib: lib, macros: map[string]*macro{}}
	for _, d := range m.Forms {
		r.form(d, "")
	}
	r.errs.Sort()
	return r.model, r.errs.Err()
}

type recognizer struct {
	model  *Model
	errs   interderive.ErrorList
	lib    Library
	macros map[string]*macro
	from   string // the file of the forms being recognized, when a macro wrote them
	call   Pos    // then, the macro's call in the model
}

// macro is a define-syntax-rule: (define-syntax-rule (NAME PARAM ...) BODY), of the
// module file ("" for the model).
type macro struct {
	params []string
	body   *Datum
	file   string
}

// defineMacro records a (define-syntax-rule (NAME PARAM ...) BODY) whose parameters
// are symbols (a pattern with an ellipsis is not expanded).
func (r *recognizer) defineMacro(d *Datum, file string) {
	if len(d.List) != 3 || head(d.List[1]) == "" {
		return
	}
	var params []string
	for _, p := range d.List[1].List[1:] {
		if p.Kind != Symbol || p.Text == "..." {
			return
		}
		params = append(params, p.Text)
	}
	r.macros[d.List[1].List[0].Text] = &macro{params: params, body: d.List[2], file: file}
}

// require reads the macros of the modules a (require SPEC ...) names that the
// library has.
func (r *recognizer) require(d *Datum) {
	if r.lib == nil {
		return
	}
	for _, spec := range d.List[1:] {
		name, m, ok := r.lib(spec)
		if !ok {
			continue
		}
		for _, f := range m.Forms {
			if head(f) == "define-syntax-rule" {
				r.defineMacro(f, name)
			}
		}
	}
}

// expandMacro is a macro's body with its parameters replaced by the call's arguments.
func expandMacro(mc *macro, call *Datum) (*Datum, bool) {
	if len(call.List)-1 != len(mc.params) {
		return nil, false
	}
	sub := map[string]*Datum{}
	for i, p := range mc.params {
		sub[p] = call.List[i+1]
	}
	return replace(mc.body, sub), true
}

func (r *recognizer) errorf(p Pos, format string, args ...any) {
	r.errs.Add(p, fmt.Sprintf(format, args...))
}

// head is the symbol a list starts with, "" if none.
func head(d *Datum) string {
	if d.Kind == List && d.Quote == "" && d.Prefix == "" && len(d.List) > 0 && d.List[0].Kind == Symbol {
		return d.List[0].Text
	}
	return ""
}

// isSym reports whether d is the symbol s.
func isSym(d *Datum, s string) bool { return d.Kind == Symbol && d.Text == s }

// form recognizes a top-level form; name is the name a define gives it ("" for none).
func (r *recognizer) form(d *Datum, name string) {
	switch h := head(d); h {
	case "define-language":
		r.language(d, false)
	case "define-extended-language":
		r.language(d, true)
	case "reduction-relation", "extend-reduction-relation":
		r.relation(d, name)
	case "define-metafunction", "define-metafunction/extension":
		r.metafunction(d, h == "define-metafunction/extension")
	case "define-judgment-form", "define-relation":
		r.judgment(d, h == "define-relation")
	case "test-->>", "test-->", "test-equal", "test-judgment-holds", "test-predicate":
		r.test(d)
	case "define":
		// (define NAME (reduction-relation ...)) names a relation; any other define is
		// Racket's.
		if len(d.List) == 3 && d.List[1].Kind == Symbol && slices.Contains([]string{"reduction-relation", "extend-reduction-relation"}, head(d.List[2])) {
			r.form(d.List[2], d.List[1].Text)
			return
		}
		r.model.Other = append(r.model.Other, d)
	case "module", "module+", "module*", "begin", "parameterize":
		// A submodule's (module+ test ...) forms are the model's too, and the body of
		// a parameterize around tests ((parameterize ([default-language L]) ...)).
		from := 1
		if h != "begin" {
			from = 2
			if h == "module" || h == "module*" {
				from = 3
			}
		}
		if len(d.List) < from {
			r.model.Other = append(r.model.Other, d)
			return
		}
		for _, f := range d.List[from:] {
			r.form(f, "")
		}
	case "define-syntax-rule":
		r.defineMacro(d, r.from)
		r.model.Other = append(r.model.Other, d)
	case "require":
		r.require(d)
		r.model.Other = append(r.model.Other, d)
	default:
		if mc := r.macros[h]; mc != nil {
			if body, ok := expandMacro(mc, d); ok {
				from, call := r.from, r.call
				r.from = mc.file
				if from == "" {
					r.call = d.P
				}
				r.form(body, "")
				r.from, r.call = from, call
				return
			}
		}
		r.model.Other = append(r.model.Other, d)
	}
}

// symbolAt is the symbol at d.List[i], or an error naming what the form expected.
func (r *recognizer) symbolAt(d *Datum, i int, what string) (string, bool) {
	if i >= len(d.List) {
		r.errorf(d.P, "(%s ...) ends before its %s", head(d), what)
		return "", false
	}
	if s := d.List[i]; s.Kind == Symbol {
		return s.Text, true
	}
	r.errorf(d.List[i].P, "%s: expected the %s of %s, a symbol", d.List[i], what, head(d))
	return "", false
}

// language recognizes (define-language NAME PRODUCTION ...) or
// (define-extended-language NAME BASE PRODUCTION ...). A production is
// (NAME ::= ALT ...), (NAME ... ::= ALT ...), ((NAME ...) ALT ...) or (NAME ALT ...).
func (r *recognizer) language(d *Datum, extended bool) {
	name, ok := r.symbolAt(d, 1, "name")
	if !ok {
		return
	}
	l := &Language{P: d.P, Name: name}
	from := 2
	if extended {
		if l.Extends, ok = r.symbolAt(d, 2, "base language"); !ok {
			return
		}
		from = 3
	}
	prods := d.List[from:]
	if i := slices.IndexFunc(prods, func(x *Datum) bool { return x.Kind == Keyword }); i >= 0 {
		if k := prods[i]; !isKeyword(k, "binding-forms") {
			r.errorf(k.P, "#:%s: not a keyword of %s (#:binding-forms)", k.Text, head(d))
			return
		}
		prods, l.BindingForms = prods[:i], prods[i+1:]
	}
	for _, p := range prods {
		if nt := r.production(p); nt != nil {
			l.NonTerminals = append(l.NonTerminals, nt)
		}
	}
	r.model.Languages = append(r.model.Languages, l)
}

// production recognizes a production of a language.
func (r *recognizer) production(p *Datum) *NonTerminal {
	if p.Kind != List || p.Quote != "" || len(p.List) == 0 {
		r.errorf(p.P, "%s: expected a production, (NAME ::= PATTERN ...) or (NAME PATTERN ...)", p)
		return nil
	}
	nt := &NonTerminal{P: p.P}
	rest := p.List
	if i := slices.IndexFunc(rest, func(x *Datum) bool { return isSym(x, "::=") }); i >= 0 {
		for _, n := range rest[:i] {
			if n.Kind != Symbol {
				r.errorf(n.P, "%s: expected a non-terminal's name before ::=, a symbol", n)
				return nil
			}
			nt.Names = append(nt.Names, n.Text)
		}
		rest = rest[i+1:]
	} else {
		switch n := rest[0]; {
		case n.Kind == Symbol:
			nt.Names = []string{n.Text}
		case n.Kind == List && len(n.List) > 0:
			for _, x := range n.List {
				if x.Kind != Symbol {
					r.errorf(x.P, "%s: expected a non-terminal's name, a symbol", x)
					return nil
				}
				nt.Names = append(nt.Names, x.Text)
			}
		default:
			r.errorf(n.P, "%s: expected a non-terminal's name, a symbol, or a list of names", n)
			return nil
		}
		rest = rest[1:]
	}
	if len(nt.Names) == 0 {
		r.errorf(p.P, "%s: a production names no non-terminal", p)
		return nil
	}
	if len(rest) > 0 && isSym(rest[0], "....") {
		nt.Extend, rest = true, rest[1:]
	}
	if len(rest) == 0 && !nt.Extend {
		r.errorf(p.P, "%s: the production of %s has no alternative", p, nt.Names[0])
		return nil
	}
	nt.Alts = rest
	return nt
}

// relation recognizes (reduction-relation LANG [#:domain D] [#:arrow A] RULE ...
// [with SHORTCUT ...]) and extend-reduction-relation (whose first argument is the
// relation extended, kept as the domain's place is: not translated here).
func (r *recognizer) relation(d *Datum, name string) {
	i := 1
	if head(d) == "extend-reduction-relation" {
		i = 2
	}
	lang, ok := r.symbolAt(d, i, "language")
	if !ok {
		return
	}
	rel := &Relation{P: d.P, Name: name, Lang: lang, Arrow: "-->"}
	args := d.List[i+1:]
	for len(args) > 0 && args[0].Kind == Keyword {
		if len(args) < 2 {
			r.errorf(args[0].P, "#:%s ends the reduction-relation: expected its value", args[0].Text)
			return
		}
		switch args[0].Text {
		case "domain":
			rel.Domain = args[1]
		case "arrow":
			if args[1].Kind != Symbol {
				r.errorf(args[1].P, "%s: expected the arrow, a symbol", args[1])
				return
			}
			rel.Arrow = args[1].Text
		case "codomain":
		default:
			r.errorf(args[0].P, "#:%s: not a keyword of reduction-relation (#:domain, #:codomain, #:arrow)", args[0].Text)
		}
		args = args[2:]
	}
	with := slices.IndexFunc(args, func(x *Datum) bool { return isSym(x, "with") })
	rules := args
	if with >= 0 {
		rules = args[:with]
	}
	for _, x := range rules {
		if ru := r.rule(x); ru != nil {
			rel.Rules = append(rel.Rules, ru)
		}
	}
	if with >= 0 {
		for _, x := range args[with+1:] {
			if sc := r.shortcut(x); sc != nil {
				rel.Shortcuts = append(rel.Shortcuts, sc)
			}
		}
	}
	r.model.Relations = append(r.model.Relations, rel)
}

// rule recognizes a reduction rule (ARROW LHS RHS CLAUSE ...), its name among the
// clauses (a string, or a symbol), the others side clauses.
func (r *recognizer) rule(d *Datum) *Rule {
	if d.Kind != List || d.Quote != "" || len(d.List) < 3 || d.List[0].Kind != Symbol {
		r.errorf(d.P, "%s: expected a reduction rule, (--> LHS RHS CLAUSE ...)", d)
		return nil
	}
	ru := &Rule{P: d.P, Arrow: d.List[0].Text, LHS: d.List[1], RHS: d.List[2]}
	for _, c := range d.List[3:] {
		switch {
		case c.Kind == String || c.Kind == Symbol:
			if ru.Name != "" {
				r.errorf(c.P, "%s: a second name for the rule named %s", c, ru.Name)
				continue
			}
			ru.Name = c.Text
		case head(c) == "computed-name":
			r.errorf(c.P, "(computed-name ...): a name computed by Racket code")
		default:
			if cond := r.cond(c); cond != nil {
				ru.Conds = append(ru.Conds, cond)
			}
		}
	}
	return ru
}

// shortcut recognizes a with clause [(OUTER-ARROW LHS RHS) (ARROW a b)].
func (r *recognizer) shortcut(d *Datum) *Shortcut {
	if d.Kind != List || len(d.List) != 2 || head(d.List[1]) == "" || len(d.List[1].List) != 3 {
		r.errorf(d.P, "%s: expected a shortcut, [(--> (in-hole E a) (in-hole E b)) (c--> a b)]", d)
		return nil
	}
	outer := r.rule(d.List[0])
	if outer == nil {
		return nil
	}
	in := d.List[1]
	return &Shortcut{P: d.P, Outer: outer, Arrow: in.List[0].Text, A: in.List[1], B: in.List[2]}
}

// condKinds are the side clauses of rules and clauses, with their arities (-1: any).
var condKinds = map[string]int{
	"where": 2, "where/hidden": 2, "side-condition": -1, "side-condition/hidden": -1,
	"fresh": -1, "judgment-holds": 1, "where/error": 2, "clause-name": 1,
}

// isCond reports whether a list headed h is a side clause.
func isCond(h string) bool {
	_, ok := condKinds[h]
	return ok
}

// cond recognizes a side clause.
func (r *recognizer) cond(d *Datum) *Cond {
	h := head(d)
	arity, ok := condKinds[h]
	if !ok {
		r.errorf(d.P, "%s: not a side clause of Redex (where, side-condition, fresh, judgment-holds, and their /hidden forms)", d)
		return nil
	}
	args := d.List[1:]
	if arity >= 0 && len(args) != arity {
		r.errorf(d.P, "(%s ...) takes %d arguments, not %d", h, arity, len(args))
		return nil
	}
	if h != "fresh" && h != "clause-name" && len(args) == 0 {
		r.errorf(d.P, "(%s) has nothing to test", h)
		return nil
	}
	return &Cond{P: d.P, Kind: h, Args: args}
}

// metafunction recognizes (define-metafunction LANG [NAME : DOMAIN ... -> RANGE ...]
// CLAUSE ...), the contract optional; for /extension, (define-metafunction/extension
// BASE LANG ...).
func (r *recognizer) metafunction(d *Datum, extension bool) {
	i := 1
	mf := &Metafunction{P: d.P}
	if extension {
		var ok bool
		if mf.Extends, ok = r.symbolAt(d, 1, "metafunction extended"); !ok {
			return
		}
		i = 2
	}
	lang, ok := r.symbolAt(d, i, "language")
	if !ok {
		return
	}
	mf.Lang = lang
	rest := d.List[i+1:]
	if len(rest) >= 2 && rest[0].Kind == Symbol && isSym(rest[1], ":") {
		mf.Name = rest[0].Text
		// The contract runs to the first clause, [(NAME PATTERN ...) RESULT ...].
		end := slices.IndexFunc(rest[2:], func(x *Datum) bool {
			return x.Kind == List && len(x.List) > 0 && head(x.List[0]) == mf.Name
		})
		if end < 0 {
			end = len(rest) - 2
		}
		mf.Contract = &Datum{P: rest[1].P, Kind: List, Open: '(', List: rest[2 : 2+end]}
		rest = rest[2+end:]
	}
	for _, c := range rest {
		cl := r.clause(c)
		if cl == nil {
			continue
		}
		name := head(cl.LHS)
		switch {
		case name == "":
			r.errorf(cl.LHS.P, "%s: a clause's left-hand side is (NAME PATTERN ...)", cl.LHS)
			continue
		case mf.Name == "":
			mf.Name = name
		case name != mf.Name:
			r.errorf(cl.LHS.P, "clause of %s in the metafunction %s", name, mf.Name)
			continue
		}
		mf.Clauses = append(mf.Clauses, cl)
	}
	if mf.Name == "" {
		r.errorf(d.P, "a metafunction with neither a contract nor a clause")
		return
	}
	r.model.Metafunctions = append(r.model.Metafunctions, mf)
}

// clause recognizes a metafunction's clause [(NAME PAT ...) RHS CLAUSE ...].
func (r *recognizer) clause(d *Datum) *Clause {
	if d.Kind != List || d.Quote != "" || len(d.List) < 2 {
		r.errorf(d.P, "%s: expected a clause, [(NAME PATTERN ...) RESULT CLAUSE ...]", d)
		return nil
	}
	cl := &Clause{P: d.P, LHS: d.List[0], RHS: d.List[1]}
	for _, c := range d.List[2:] {
		if cond := r.cond(c); cond != nil {
			cl.Conds = append(cl.Conds, cond)
		}
	}
	return cl
}

// judgment recognizes (define-judgment-form LANG #:mode (NAME I O ...) [#:contract
// (NAME PAT ...)] RULE ...) and (define-relation LANG [NAME ⊆ ...] RULE ...). A rule is
// [PREMISE ... DASHES [NAME] CONCLUSION] (dashes: a symbol of three or more -),
// [CONCLUSION PREMISE ...] without them, a name given as a string anywhere in it.
func (r *recognizer) judgment(d *Datum, relation bool) {
	lang, ok := r.symbolAt(d, 1, "language")
	if !ok {
		return
	}
	j := &Judgment{P: d.P, Lang: lang, Relation: relation}
	rest := d.List[2:]
	for len(rest) > 0 && rest[0].Kind == Keyword {
		if len(rest) < 2 {
			r.errorf(rest[0].P, "#:%s ends the form: expected its value", rest[0].Text)
			return
		}
		switch k, v := rest[0].Text, rest[1]; k {
		case "mode":
			if head(v) == "" {
				r.errorf(v.P, "%s: expected the mode, (NAME I O ...)", v)
				return
			}
			j.Name = head(v)
			for _, m := range v.List[1:] {
				if !isSym(m, "I") && !isSym(m, "O") {
					r.errorf(m.P, "%s: a mode position is I or O", m)
					return
				}
				j.Mode = append(j.Mode, m.Text)
			}
		case "contract":
			j.Contract = v
		default:
			r.errorf(rest[0].P, "#:%s: not a keyword of %s (#:mode, #:contract)", k, head(d))
		}
		rest = rest[2:]
	}
	if relation && len(rest) > 0 && head(rest[0]) != "" && len(rest[0].List) > 1 && isSym(rest[0].List[1], "⊆") {
		j.Name, j.Contract, rest = head(rest[0]), rest[0], rest[1:]
	}
	for _, x := range rest {
		if jr := r.judgmentRule(x); jr != nil {
			if j.Name == "" {
				j.Name = head(jr.Conclusion)
			}
			j.Rules = append(j.Rules, jr)
		}
	}
	if j.Name == "" {
		r.errorf(d.P, "(%s ...) without a mode and without a rule: no judgment is named", head(d))
		return
	}
	if !relation && j.Mode == nil {
		r.errorf(d.P, "the judgment form %s has no #:mode", j.Name)
	}
	r.model.Judgments = append(r.model.Judgments, j)
}

// isDashes reports whether d is an inference rule's line: three or more dashes.
func isDashes(d *Datum) bool {
	return d.Kind == Symbol && len(d.Text) >= 3 && strings.Trim(d.Text, "-") == ""
}

// judgmentRule recognizes an inference rule of a judgment form.
func (r *recognizer) judgmentRule(d *Datum) *JudgmentRule {
	if d.Kind != List || d.Quote != "" || len(d.List) == 0 {
		r.errorf(d.P, "%s: expected an inference rule, [PREMISE ... ---- CONCLUSION]", d)
		return nil
	}
	jr := &JudgmentRule{P: d.P}
	var items []*Datum
	for _, x := range d.List {
		if x.Kind == String && jr.Name == "" {
			jr.Name = x.Text
			continue
		}
		items = append(items, x)
	}
	if i := slices.IndexFunc(items, isDashes); i >= 0 {
		after := items[i+1:]
		if len(after) == 2 && after[0].Kind == Symbol && jr.Name == "" {
			jr.Name, after = after[0].Text, after[1:]
		}
		if len(after) != 1 {
			r.errorf(items[i].P, "after the line, expected [NAME] CONCLUSION, not %d data", len(after))
			return nil
		}
		jr.Conclusion = after[0]
		items = items[:i]
	} else { // [CONCLUSION PREMISE ...], as define-relation writes its rules
		if len(items) == 0 {
			r.errorf(d.P, "an inference rule without a conclusion")
			return nil
		}
		jr.Conclusion, items = items[0], items[1:]
	}
	for _, p := range items {
		switch h := head(p); {
		case h == "":
			r.errorf(p.P, "%s: expected a premise, a judgment (NAME ...) or a side clause", p)
		case isCond(h):
			if c := r.cond(p); c != nil {
				jr.Premises = append(jr.Premises, c)
			}
		default:
			jr.Premises = append(jr.Premises, &Cond{P: p.P, Kind: "judgment", Args: []*Datum{p}})
		}
	}
	if head(jr.Conclusion) == "" {
		r.errorf(jr.Conclusion.P, "%s: a conclusion is a judgment, (NAME ...)", jr.Conclusion)
		return nil
	}
	return jr
}

// test recognizes a test: (test-->> REL [#:cycles-ok] [#:equiv F] TERM EXPECTED ...),
// (test--> REL TERM EXPECTED ...), (test-equal A B), (test-judgment-holds J),
// (test-predicate P TERM).
func (r *recognizer) test(d *Datum) {
	h := head(d)
	t := &Test{P: d.P, Kind: testKinds[h], From: r.from, Call: r.call}
	args := slices.DeleteFunc(slices.Clone(d.List[1:]), func(x *Datum) bool {
		if isKeyword(x, "cycles-ok") {
			t.Cycles = true
			return true
		}
		return false
	})
	if i := slices.IndexFunc(args, func(x *Datum) bool { return isKeyword(x, "equiv") }); i >= 0 && i+1 < len(args) {
		// #:equiv F: Racket's equivalence, which the translation leaves out with the
		// test (Test.Equiv).
		t.Equiv = args[i+1]
		args = slices.Delete(args, i, i+2)
	}
	if i := slices.IndexFunc(args, func(x *Datum) bool { return x.Kind == Keyword }); i >= 0 {
		r.errorf(args[i].P, "#:%s: a keyword of %s that the importer does not know", args[i].Text, h)
		return
	}
	switch t.Kind {
	case "-->>", "-->":
		if len(args) < 2 {
			r.errorf(d.P, "(%s REL TERM EXPECTED ...) takes a relation and a term", h)
			return
		}
		t.Relation, t.Term, t.Expected = args[0], args[1], args[2:]
	case "equal", "predicate":
		if len(args) != 2 {
			r.errorf(d.P, "(%s A B) takes 2 expressions, not %d", h, len(args))
			return
		}
		if t.Kind == "equal" {
			t.Term, t.Expected = args[0], args[1:]
		} else {
			t.Relation, t.Term = args[0], args[1]
		}
	case "judgment":
		if len(args) != 1 {
			r.errorf(d.P, "(test-judgment-holds J) takes 1 judgment, not %d", len(args))
			return
		}
		t.Term = args[0]
	}
	r.model.Tests = append(r.model.Tests, t)
}

// testKinds are the tests' kinds, by form.
var testKinds = map[string]string{"test-->>": "-->>", "test-->": "-->", "test-equal": "equal", "test-judgment-holds": "judgment", "test-predicate": "predicate"}

// isKeyword reports whether d is the keyword #:k.
func isKeyword(d *Datum, k string) bool { return d.Kind == Keyword && d.Text == k }
