package redex

import (
	"fmt"
	"slices"
	"strings"
)

// The translation of a model's contexts, relation and meta-functions.

// contexts reads the context non-terminals: each used by a rule (or as another
// context's hole) is a kind; its frames are its alternatives other than hole, those
// of a context it includes (E ::= ... | F) inlined; its values are the class its
// frames use (v in (v E)).
func (t *translator) contexts(used []*nonterm) {
	isKind := map[*nonterm]bool{}
	var order []*nonterm
	var visit func(nt *nonterm)
	visit = func(nt *nonterm) {
		if isKind[nt] {
			return
		}
		isKind[nt] = true
		order = append(order, nt)
		nt.kindName = nt.names[0]
		t.kinds = append(t.kinds, nt)
		for _, a := range t.frameAlts(nt, map[*nonterm]bool{}) {
			var inner []*nonterm
			walk(a, func(d *Datum) {
				if r := t.ref(d); r != nil && r.role == roleContext && r != nt {
					inner = append(inner, r)
				}
			})
			for _, r := range inner {
				visit(r)
			}
		}
	}
	for _, nt := range used {
		visit(nt)
	}
	for _, nt := range order {
		t.frames(nt)
	}
}

// frameAlts are a context's alternatives other than hole, the alternatives of the
// contexts it includes inlined.
func (t *translator) frameAlts(nt *nonterm, seen map[*nonterm]bool) []*Datum {
	if seen[nt] {
		return nil
	}
	seen[nt] = true
	var out []*Datum
	for _, a := range nt.alts {
		switch r := t.ref(a); {
		case isSym(a, "hole"):
		case r != nil && r.role == roleContext && a.Kind == Symbol:
			out = append(out, t.frameAlts(r, seen)...)
		default:
			out = append(out, a)
		}
	}
	return out
}

// walk calls f on d and each datum inside it.
func walk(d *Datum, f func(*Datum)) {
	f(d)
	for _, x := range d.List {
		walk(x, f)
	}
}

// holePath is the path to the context non-terminal in a frame's alternative.
func (t *translator) holePath(a *Datum) []int {
	var path []int
	var find func(d *Datum, p []int) bool
	find = func(d *Datum, p []int) bool {
		if r := t.ref(d); r != nil && r.role == roleContext && d.Kind == Symbol {
			path = p
			return true
		}
		for i, x := range d.List {
			if find(x, append(slices.Clip(p), i)) {
				return true
			}
		}
		return false
	}
	find(a, nil)
	return path
}

// frames translates a kind's frames, each against the sort it fits, in search
// order: a constructor's frames left to right by the hole's place (Redex's context
// grammar does not order its alternatives; a left-to-right strategy is what its
// v-restricted contexts, (E e) and (v E), spell out).
func (t *translator) frames(nt *nonterm) {
	alts := t.frameAlts(nt, map[*nonterm]bool{})
	type frame struct {
		text string
		con  string
		path []int
		at   int
	}
	var fs []frame
	firstCon := map[string]int{}
	var values []*nonterm
	for _, a := range alts {
		var text string
		var err error
		var inner *nonterm
		walk(a, func(d *Datum) {
			if r := t.ref(d); r != nil && r.role == roleContext && d.Kind == Symbol {
				inner = r
			}
		})
		if inner == nil {
			t.errorf(a.P, "%s: an alternative of context %s without a hole or a context in it", a, nt.names[0])
			continue
		}
		hole := "(hole)"
		if inner != nt && inner.kindName != nt.kindName {
			hole = "(hole " + inner.kindName + ")"
		}
		var so *tsort
		var first error
		for _, s := range t.sorts {
			sc := grammarScope()
			sc.hole, sc.holeText = inner, hole
			text, err = t.pattern(a, s, sc, 0)
			if first == nil {
				first = err
			}
			if err == nil && sc.holes == 1 {
				so = s
				for name := range sc.bound {
					if r := t.byName[strings.SplitN(name, "_", 2)[0]]; r != nil && r.role == roleClass && !slices.Contains(values, r) {
						values = append(values, r)
					}
				}
				break
			}
		}
		if so == nil {
			err = first
			if err == nil {
				err = errAt(a.P, "%s: a frame holds exactly one context", a)
			}
			t.within(err, a.P, fmt.Sprintf("frame %s of %s", a, nt.names[0]))
			continue
		}
		if nt.sort == nil {
			nt.sort = so
		} else if nt.sort != so {
			t.errorf(a.P, "frame %s of %s is a term of %s, the context's other frames of %s", a, nt.names[0], so.name, nt.sort.name)
			continue
		}
		con := strings.Fields(strings.TrimPrefix(text, "("))[0]
		if _, ok := firstCon[con]; !ok {
			firstCon[con] = len(firstCon)
		}
		fs = append(fs, frame{text: text, con: con, path: t.holePath(a), at: len(fs)})
	}
	slices.SortStableFunc(fs, func(a, b frame) int {
		if c := firstCon[a.con] - firstCon[b.con]; c != 0 {
			return c
		}
		return slices.Compare(a.path, b.path)
	})
	for _, f := range fs {
		nt.frames = append(nt.frames, &Datum{Kind: Symbol, Text: f.text})
	}
	// The kind's values: the class its frames use; else a non-terminal named v of
	// its sort.
	switch {
	case len(values) == 1:
		nt.value = values[0]
	case len(values) > 1:
		t.errorf(nt.P, "context %s's frames use %d classes (%s, %s): the translation takes one as the kind's values", nt.names[0], len(values), values[0].names[0], values[1].names[0])
	default:
		if v := t.byName["v"]; v != nil && v.role == roleClass && v.sort == nt.sort {
			nt.value = v
		}
	}
	if nt.value == nil && nt.sort != nil {
		// No values: the context is unrestricted ((e E) and (E e) over any e), and
		// so, in general, non-deterministic; its kind has no value (a normal form is
		// what no rule reduces).
		t.notes = append(t.notes, fmt.Sprintf("context %s restricts its frames by no values: its kind has none", nt.names[0]))
	}
	if nt.value != nil {
		nt.value.isValue = true
	}
}

// valueAlts are a value class's alternatives, bare classes among them inlined.
func (t *translator) valueAlts(nt *nonterm, seen map[*nonterm]bool) []*Datum {
	if seen[nt] {
		return nil
	}
	seen[nt] = true
	var out []*Datum
	for _, a := range nt.alts {
		if r := t.ref(a); r != nil && r.role == roleClass && a.Kind == Symbol {
			out = append(out, t.valueAlts(r, seen)...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// tfunc is a meta-function translated.
type tfunc struct {
	mf    *Metafunction
	name  string
	args  []string // the domain, as metavariable names
	sorts []*tsort
	rng   *tsort
	rngM  string
	want  *tsort // the sort its first call builds (for a meta-function without a contract)
	err   error  // why it could not be translated
	text  string
	done  bool
}

// sortOfName is the sort (and the rule file's metavariable name) a contract's
// non-terminal names.
func (t *translator) sortOfName(d *Datum, intSort *tsort) (*tsort, string, error) {
	if d.Kind == Symbol {
		if isIntName(d.Text) && intSort != nil {
			return intSort, "number", nil
		}
		if r := t.ref(d); r != nil && r.sort != nil {
			switch r.role {
			case roleVar:
				return r.sort, r.names[0], nil
			case roleSort:
				return r.sort, d.Text, nil
			case roleClass:
				return r.sort, r.sort.metas[0], nil
			}
		}
	}
	return nil, "", errAt(d.P, "%s in a contract: the translation reads the language's non-terminals and number there", d)
}

// intSort is the sort with integers, nil if none.
func (t *translator) intSort() *tsort {
	for _, so := range t.sorts {
		if len(so.ints) > 0 {
			return so
		}
	}
	return nil
}

// function translates a meta-function the rules call (once, on its first call).
func (t *translator) function(f *tfunc) error {
	if f.done {
		return f.err
	}
	f.done = true
	f.err = t.translateFunction(f)
	return f.err
}

// translateFunction translates a meta-function: its contract, then each clause.
func (t *translator) translateFunction(f *tfunc) error {
	mf := f.mf
	cs, err := t.contract(f)
	if err != nil {
		return err
	}
	arrow := slices.IndexFunc(cs, func(d *Datum) bool { return isSym(d, "->") })
	// RANGE or #f: a partial function, whose #f clauses are left out (a call no
	// clause applies to is then the rule file's error where Redex gives #f).
	partial := arrow >= 0 && arrow+4 == len(cs) && isSym(cs[arrow+2], "or") && cs[arrow+3].Kind == Bool && !cs[arrow+3].Bool
	if arrow < 0 || arrow+2 != len(cs) && !partial {
		return errAt(mf.Contract.P, "the contract of %s: the translation reads DOMAIN ... -> RANGE and RANGE or #f", mf.Name)
	}
	if partial {
		t.notes = append(t.notes, fmt.Sprintf("meta-function %s gives RANGE or #f: its #f clauses are left out, so that a call none applies to is an error where Redex gives #f", mf.Name))
	}
	is := t.intSort()
	for _, a := range cs[:arrow] {
		so, m, err := t.sortOfName(a, is)
		if err != nil {
			return err
		}
		f.sorts, f.args = append(f.sorts, so), append(f.args, m)
	}
	so, m, err := t.sortOfName(cs[arrow+1], is)
	if err != nil {
		return err
	}
	f.rng, f.rngM = so, m
	var b strings.Builder
	fmt.Fprintf(&b, "; %s, line %d\n(function %s (%s) %s", mf.Name, mf.P.Line, f.name, strings.Join(f.args, " "), f.rngM)
	for _, c := range mf.Clauses {
		sc := newScope()
		if partial && c.RHS.Kind == Bool && !c.RHS.Bool {
			continue
		}
		if c.LHS.Kind != List || len(c.LHS.List)-1 != len(f.args) {
			return errAt(c.P, "a clause of %s with %d arguments, its contract %d", mf.Name, len(c.LHS.List)-1, len(f.args))
		}
		pats := []string{f.name}
		for i, p := range c.LHS.List[1:] {
			s, err := t.pattern(p, f.sorts[i], sc, 0)
			if err != nil {
				return err
			}
			pats = append(pats, s)
		}
		conds, err := t.conds(c.Conds, sc)
		if err != nil {
			return err
		}
		rhs, err := t.builder(c.RHS, f.rng, sc, 0)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "\n  ((%s) %s%s)", strings.Join(pats, " "), rhs, whereText(append(sc.conds, conds...)))
	}
	b.WriteString(")\n")
	f.text = b.String()
	return nil
}

// contract is a meta-function's contract as data; for one written without, the
// sorts its first clause's arguments name (each a non-terminal or number, as
// [(Σ number_1 number_2) ...] writes them) and the sort its first call expects.
func (t *translator) contract(f *tfunc) ([]*Datum, error) {
	mf := f.mf
	if mf.Contract != nil {
		return mf.Contract.List, nil
	}
	missing := errAt(mf.P, "meta-function %s has no contract, and its first clause's arguments are not each a non-terminal or a literal: write %s : DOMAIN ... -> RANGE", mf.Name, mf.Name)
	if len(mf.Clauses) == 0 || mf.Clauses[0].LHS.Kind != List {
		return nil, missing
	}
	if f.want == nil { // no call has said what it builds: the first clause's result, a literal or a non-terminal
		rhs := boolSym(mf.Clauses[0].RHS)
		if so := t.literalSort(rhs); so != nil {
			f.want = so
		} else if r := t.ref(rhs); r != nil && r.sort != nil {
			f.want = r.sort
		} else {
			return nil, missing
		}
	}
	var cs []*Datum
	for _, a := range mf.Clauses[0].LHS.List[1:] {
		a = boolSym(a)
		if so := t.literalSort(a); so != nil { // [(¬ +) -]: a literal of a sort
			cs = append(cs, &Datum{P: a.P, Kind: Symbol, Text: so.metas[0]})
			continue
		}
		if a.Kind != Symbol || t.ref(a) == nil && !isIntName(a.Text) {
			return nil, missing
		}
		base, _ := splitName(a.Text)
		cs = append(cs, &Datum{P: a.P, Kind: Symbol, Text: base})
	}
	t.notes = append(t.notes, fmt.Sprintf("meta-function %s has no contract: its sorts are its first clause's arguments' and what its first call builds", mf.Name))
	return append(cs, &Datum{Kind: Symbol, Text: "->"}, &Datum{Kind: Symbol, Text: f.want.metas[0]}), nil
}

// whereText writes conditions as (where C) ....
func whereText(cs []string) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(" (where " + c + ")")
	}
	return b.String()
}

// conds translates a rule's or a clause's side clauses (after its left-hand side has
// bound its metavariables): where, side-condition (the Racket the translation
// reads), and their /hidden forms.
func (t *translator) conds(cs []*Cond, sc *scope) ([]string, error) {
	var out []string
	for _, c := range cs {
		switch c.Kind {
		case "where", "where/hidden":
			if len(c.Args) != 2 {
				return nil, errAt(c.P, "(where PATTERN TERM) takes two")
			}
			so, err := t.sortOfTerm(c.Args[1])
			if err != nil {
				return nil, err
			}
			term, err := t.builder(c.Args[1], so, sc, 0)
			if err != nil {
				return nil, err
			}
			pat, err := t.pattern(c.Args[0], so, sc, 0)
			if err != nil {
				return nil, err
			}
			out = append(out, fmt.Sprintf("(match %s %s)", pat, term))
		case "side-condition", "side-condition/hidden":
			for _, e := range c.Args {
				cs, err := t.sideCondition(e, sc, false, 0)
				if err != nil {
					return nil, err
				}
				out = append(out, cs...)
			}
		case "fresh":
			// (fresh x): a variable in no term the rule has bound (nor in the context
			// it captures).
			var avoid []string
			for name := range sc.bound {
				if r := t.byName[strings.SplitN(name, "_", 2)[0]]; r != nil && r.role != roleContext || name == sc.capture {
					avoid = append(avoid, name)
				}
			}
			slices.Sort(avoid)
			for _, a := range c.Args {
				r := t.ref(a)
				if a.Kind != Symbol || r == nil || r.role != roleVar {
					return nil, errAt(a.P, "(fresh %s): the translation reads fresh variables, (fresh x)", a)
				}
				if sc.bound[a.Text] {
					return nil, errAt(a.P, "(fresh %s): %s is bound already", a, a.Text)
				}
				out = append(out, "(fresh "+strings.Join(append([]string{a.Text}, avoid...), " ")+")")
				sc.bound[a.Text] = true
			}
		case "clause-name":
		default:
			return nil, errAt(c.P, "(%s ...) in a rule: not translated (the translation reads where and side-condition)", c.Kind)
		}
	}
	return out, nil
}

// sortOfTerm is the sort a term built on a right-hand side has: a meta-function's
// range, a bound metavariable's sort, nil if the translation cannot tell.
func (t *translator) sortOfTerm(d *Datum) (*tsort, error) {
	if f, ok := t.fns[head(d)]; ok {
		if err := t.function(f); err != nil {
			return nil, err
		}
		return f.rng, nil
	}
	if d.Kind == Symbol {
		if r := t.ref(d); r != nil && r.sort != nil {
			return r.sort, nil
		}
	}
	if d.Kind == Number && t.intSort() != nil {
		return t.intSort(), nil
	}
	for _, so := range t.sorts {
		if t.fits(d, so, 0) {
			return so, nil
		}
	}
	return nil, errAt(d.P, "%s: the translation cannot tell the sort of this where's term", d)
}

// call translates a call of a meta-function on a right-hand side.
func (t *translator) call(d *Datum, f *tfunc, so *tsort, sc *scope, depth int) (string, error) {
	if f.want == nil {
		f.want = so
	}
	if err := t.function(f); err != nil {
		return "", err
	}
	if f.rng != so {
		return "", errAt(d.P, "%s gives a term of %s, where a term of %s is built", f.name, f.rng.name, so.name)
	}
	if len(d.List)-1 != len(f.args) {
		return "", errAt(d.P, "%s takes %d arguments, given %d", f.name, len(f.args), len(d.List)-1)
	}
	parts := []string{f.name}
	for i, a := range d.List[1:] {
		s, err := t.builder(a, f.sorts[i], sc, depth+1)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")", nil
}

// expand applies a relation's shortcuts (with clauses): a rule of an inner arrow
// becomes the outer rule with a and b its sides.
func expand(rel *Relation) []*Rule {
	var out []*Rule
	for _, r := range rel.Rules {
		i := slices.IndexFunc(rel.Shortcuts, func(s *Shortcut) bool { return s.Arrow == r.Arrow })
		if i < 0 {
			out = append(out, r)
			continue
		}
		s := rel.Shortcuts[i]
		sub := map[string]*Datum{}
		if s.A.Kind == Symbol {
			sub[s.A.Text] = r.LHS
		}
		if s.B.Kind == Symbol {
			sub[s.B.Text] = r.RHS
		}
		out = append(out, &Rule{P: r.P, Arrow: s.Outer.Arrow, LHS: replace(s.Outer.LHS, sub), RHS: replace(s.Outer.RHS, sub),
			Name: r.Name, Conds: append(slices.Clone(r.Conds), s.Outer.Conds...)})
	}
	return out
}

// replace substitutes data for symbols in d.
func replace(d *Datum, sub map[string]*Datum) *Datum {
	if d.Kind == Symbol {
		if x, ok := sub[d.Text]; ok {
			return x
		}
		return d
	}
	if d.Kind != List {
		return d
	}
	c := *d
	c.List = make([]*Datum, len(d.List))
	for i, x := range d.List {
		c.List[i] = replace(x, sub)
	}
	return &c
}

// ruleName is a Redex rule's name as a rule file's symbol.
func ruleName(r *Rule) string {
	if r.Name == "" {
		return fmt.Sprintf("rule-%d", r.P.Line)
	}
	// A rule file's event names have no / or , (they separate the events of layers
	// and lists): call/cc is call-cc.
	return strings.NewReplacer("/", "-", ",", "-").Replace(strings.Join(strings.Fields(r.Name), "-"))
}

// relation translates a reduction relation's rules.
func (t *translator) relation(rel *Relation) []string {
	var out []string
	for _, r := range expand(rel) {
		text, err := t.rule(r)
		if err != nil {
			t.within(err, r.P, "rule "+ruleName(r))
			continue
		}
		out = append(out, text)
	}
	return out
}

// rule translates one rule (in-hole E redex) → (in-hole E contractum), or an abort
// to the root, (in-hole E redex) → term.
func (t *translator) rule(r *Rule) (string, error) {
	if head(r.LHS) != "in-hole" || len(r.LHS.List) != 3 {
		return "", errAt(r.LHS.P, "a rule whose left-hand side is not (in-hole E redex) applies at the root only, not translated yet")
	}
	ctx := r.LHS.List[1]
	nt := t.ref(ctx)
	if nt == nil || nt.role != roleContext || nt.kindName == "" {
		return "", errAt(ctx.P, "%s is not a context of the language", ctx)
	}
	// The redex of (in-hole E redex) sits at E's hole, which may be the hole of a
	// context E includes (e-ctxt ::= (λ (x) e-ctxt) | a-ctxt, a-ctxt ::= ... | hole):
	// the rule is the kind's of every context reachable from E whose alternatives
	// have the hole.
	var out strings.Builder
	for _, k := range t.redexKinds(nt) {
		text, err := t.ruleIn(r, ctx, k)
		if err != nil {
			return "", err
		}
		out.WriteString(text)
	}
	return out.String(), nil
}

// redexKinds are the kinds of the contexts reachable from nt, itself first, whose
// alternatives (a context they include inlined) have the hole: where a redex of
// (in-hole nt redex) may sit.
func (t *translator) redexKinds(nt *nonterm) []*nonterm {
	var out []*nonterm
	seen := map[*nonterm]bool{}
	var visit func(n *nonterm)
	visit = func(n *nonterm) {
		if seen[n] || n.kindName == "" {
			return
		}
		seen[n] = true
		if t.hasHole(n, map[*nonterm]bool{}) {
			out = append(out, n)
		}
		for _, a := range t.frameAlts(n, map[*nonterm]bool{}) {
			walk(a, func(d *Datum) {
				if r := t.ref(d); r != nil && r.role == roleContext && d.Kind == Symbol {
					visit(r)
				}
			})
		}
	}
	visit(nt)
	return out
}

// hasHole reports whether the context nt has the hole among its alternatives, or
// among those of a context it includes.
func (t *translator) hasHole(nt *nonterm, seen map[*nonterm]bool) bool {
	if seen[nt] {
		return false
	}
	seen[nt] = true
	for _, a := range nt.alts {
		if isSym(a, "hole") {
			return true
		}
		if r := t.ref(a); r != nil && r.role == roleContext && a.Kind == Symbol && t.hasHole(r, seen) {
			return true
		}
	}
	return false
}

// ruleIn translates the rule r, (in-hole ctx redex), as a rule of the kind nt.
func (t *translator) ruleIn(r *Rule, ctx *Datum, nt *nonterm) (string, error) {
	rhs, abort := r.RHS, true
	if head(rhs) == "in-hole" && len(rhs.List) == 3 && isSym(rhs.List[1], ctx.Text) {
		rhs, abort = rhs.List[2], false
	}
	mentions := false
	walk(rhs, func(d *Datum) { mentions = mentions || isSym(d, ctx.Text) })
	name, k := ruleName(r), nt.kindName
	switch {
	case mentions:
		// The context is a value: captured, (context E_k redex), and reinstated
		// wherever the right-hand side puts it, (in-hole E_k t); in the empty
		// context, which no context rule takes, a rule with the hole for E.
		inCtx, err := t.ruleText(r, nt, ctx.Text, k+"_k", r.RHS, false)
		if err != nil {
			return "", err
		}
		atRoot, err := t.ruleText(r, nt, ctx.Text, "", r.RHS, false)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("; %s, line %d: its context captured and reinstated, and at the root\n%s%s", name, r.P.Line, inCtx, atRoot), nil
	case abort:
		// (in-hole E redex) → term: in a context, an abort to the root (a context
		// rule); in the empty context, which no context rule takes, a rule (tried
		// after, so only there) — unless a side condition says the context is not
		// the empty one, which a context rule says by itself.
		if rhs.Kind == String {
			t.answers = appendNew(t.answers, fmt.Sprintf("(answer %s %q)", k, rhs.Text))
		}
		if a := t.answerOf(rhs, nt.sort); a != "" {
			// What an abort gives ends the run at the root: Redex's normal form, an
			// answer of the kind, (blame l).
			t.answers = appendNew(t.answers, fmt.Sprintf("(answer %s %s)", k, a))
		}
		nonEmpty := false
		r2 := *r
		r2.Conds = nil
		for _, c := range r.Conds {
			if strings.HasPrefix(c.Kind, "side-condition") && len(c.Args) == 1 && nonEmptyContext(c.Args[0], ctx.Text) {
				nonEmpty = true
				continue
			}
			r2.Conds = append(r2.Conds, c)
		}
		r = &r2
		inCtx, err := t.ruleText(r, nt, ctx.Text, "", rhs, true)
		if err != nil {
			return "", err
		}
		if nonEmpty {
			return fmt.Sprintf("; %s, line %d: in a non-empty context (its side condition)\n%s", name, r.P.Line, inCtx), nil
		}
		text, err := t.ruleText(r, nt, ctx.Text, "", rhs, false)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("; %s, line %d: in a context, and at the root\n%s%s", name, r.P.Line, inCtx, text), nil
	}
	text, err := t.ruleText(r, nt, ctx.Text, "", rhs, false)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("; %s, line %d\n%s", name, r.P.Line, text), nil
}

// ruleText writes a rule of the kind nt whose contractum rhs is built, the Redex
// context ctx captured as capture (""; then (in-hole ctx t) is t, the empty context),
// or, abort, discarded: an abort to the root, (context LHS).
func (t *translator) ruleText(r *Rule, nt *nonterm, ctx, capture string, rhs *Datum, abort bool) (string, error) {
	so := nt.sort
	sc := newScope()
	sc.context, sc.capture = ctx, capture
	lhs, err := t.pattern(r.LHS.List[2], so, sc, 0)
	if err != nil {
		return "", err
	}
	switch {
	case capture != "":
		sc.bound[capture] = true
		lhs = "(context " + capture + " " + lhs + ")"
	case abort:
		lhs = "(context " + lhs + ")"
	}
	conds, err := t.conds(r.Conds, sc)
	if err != nil {
		return "", err
	}
	body, err := t.builder(rhs, so, sc, 0)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("(rule %s %s %s %s%s)\n", ruleName(r), nt.kindName, lhs, body, whereText(append(sc.conds, conds...))), nil
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// literalSort is the sort of which the symbol d is a nullary constructor's literal,
// nil if none.
func (t *translator) literalSort(d *Datum) *tsort {
	if d.Kind != Symbol || t.ref(d) != nil {
		return nil
	}
	for _, so := range t.sorts {
		for _, c := range so.cons {
			if len(c.args) == 0 && c.tmpl.Kind == Symbol && c.tmpl.Text == d.Text {
				return so
			}
		}
	}
	return nil
}

// answerOf is the pattern of the answers an abort's contractum rhs builds: its
// constructor over fresh metavariables, "" where rhs is not a constructor's term (a
// metavariable, a call).
func (t *translator) answerOf(rhs *Datum, so *tsort) string {
	if rhs.Kind != List || so == nil {
		return ""
	}
	if _, isFn := t.fns[head(rhs)]; isFn {
		return ""
	}
	for _, c := range so.cons {
		if !t.fitsShape(rhs, c.tmpl, c, 0) {
			continue
		}
		parts := []string{c.name}
		for i, a := range c.args {
			m := fmt.Sprintf("%s_ans%d", a, i+1)
			if c.seq[i] {
				m = "(" + m + " ...)"
			}
			parts = append(parts, m)
		}
		return "(" + strings.Join(parts, " ") + ")"
	}
	return ""
}
