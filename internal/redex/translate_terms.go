package redex

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The reading of Redex's patterns and terms against the sorts (translate.go): a
// pattern becomes a rule-file pattern, (NAME ARG ...) for each constructor; a term on
// a right-hand side becomes a builder, with calls of the translated meta-functions,
// substitution, and the few Racket expressions the translation knows (arithmetic on
// (term n)), each the rule language's own form.

// scope is what a rule's (or a clause's, or an inference rule's) patterns have bound
// so far: rule-file names, the renamings made (Redex's any_1, _, and a repeated
// metavariable's second occurrence), and the conditions the renamings owe.
type scope struct {
	bound  map[string]bool
	rename map[string]string
	conds  []string
	n      int
	// hole is the context non-terminal a frame's pattern reads as its hole, and
	// holeText the hole it becomes.
	hole     *nonterm
	holeText string
	holes    int
	// grammar: a pattern of the language's grammar (a frame, a value, a class),
	// whose repeated non-terminals match independently, as in define-language.
	grammar bool
	// context is the Redex context a rule's left-hand side names (E_1), capture the
	// name the rule file captures it by ("" at the root: (in-hole E t) is t).
	context, capture string
}

func newScope() *scope { return &scope{bound: map[string]bool{}, rename: map[string]string{}} }

// grammarScope is the scope of a pattern of the grammar.
func grammarScope() *scope { sc := newScope(); sc.grammar = true; return sc }

// fresh makes a name base_tagN not bound yet.
func (sc *scope) fresh(base, tag string) string {
	for {
		sc.n++
		name := fmt.Sprintf("%s_%s%d", base, tag, sc.n)
		if !sc.bound[name] {
			return name
		}
	}
}

// bind binds a pattern's metavariable: its first occurrence keeps its name; a later
// one is renamed, with the condition that the two are equal (Redex's non-linear
// patterns).
func (sc *scope) bind(name string) string {
	if !sc.bound[name] {
		sc.bound[name] = true
		return name
	}
	base, _ := splitName(name)
	again := sc.fresh(base, "r")
	sc.bound[again] = true
	if sc.grammar {
		return again
	}
	sc.conds = append(sc.conds, fmt.Sprintf("(= %s %s)", name, again))
	return again
}

// errAt is a positioned error of a translation.
func errAt(p Pos, format string, args ...any) error {
	return interderive.Errorf(p, format, args...)
}

// isIntName reports whether s is a Redex integer pattern (number, number_1, ...).
func isIntName(s string) bool {
	base, _ := splitName(s)
	return slices.Contains(builtinInts, base)
}

// literal translates a number (an integer of so) or a string (a string atom, which
// so then takes), in a pattern or a term alike.
func literal(d *Datum, so *tsort) (string, error) {
	if d.Kind == String {
		so.strs = true
		return fmt.Sprintf("%q", d.Text), nil
	}
	if len(so.ints) == 0 || !isInteger(d.Text) {
		return "", errAt(d.P, "%s is not a term of %s", d.Text, so.name)
	}
	return d.Text, nil
}

// pattern translates the Redex pattern d, a term of the sort so.
func (t *translator) pattern(d *Datum, so *tsort, sc *scope, depth int) (string, error) {
	if depth > 256 {
		return "", errAt(d.P, "a pattern nested deeper than 256 lists")
	}
	d = boolSym(d)
	switch d.Kind {
	case Number, String:
		return literal(d, so)
	case Symbol:
		return t.patternSym(d, so, sc)
	case List:
		if h := head(d); h != "" {
			if why, bad := unsupportedPatterns[h]; bad {
				return "", errAt(d.P, "%s: %s", h, why)
			}
		}
		if d.Quote != "" {
			return "", errAt(d.P, "%s: %s", d, unsupportedPatterns[map[string]string{",": "unquote", ",@": "unquote-splicing"}[d.Quote]])
		}
		return t.conOf(d, so, depth, func(x *Datum, s *tsort) (string, error) { return t.pattern(x, s, sc, depth+1) },
			func(x *Datum) (string, error) { return t.varPattern(x, sc) },
			func(x *Datum) (string, error) {
				if x.Kind == Number {
					return x.Text, nil
				}
				return t.patternSym(x, so, sc)
			})
	}
	return "", errAt(d.P, "%s is not a pattern the translation reads", d)
}

// varPattern translates a pattern in a binder's place: a variable metavariable.
func (t *translator) varPattern(d *Datum, sc *scope) (string, error) {
	if r := t.ref(d); r != nil && r.role == roleVar {
		return sc.bind(d.Text), nil
	}
	return "", errAt(d.P, "%s in a binder's place: the translation reads a variable non-terminal there", d)
}

// patternSym translates a symbol of a pattern.
func (t *translator) patternSym(d *Datum, so *tsort, sc *scope) (string, error) {
	s := d.Text
	if why, bad := unsupportedPatterns[s]; bad && s != "hole" {
		return "", errAt(d.P, "%s: %s", s, why)
	}
	base, sub := splitName(s)
	switch {
	case isIntName(s):
		if len(so.ints) == 0 {
			return "", errAt(d.P, "%s: %s has no integers", s, so.name)
		}
		name := sc.bind(s)
		if base == "natural" {
			sc.conds = append(sc.conds, fmt.Sprintf("(prim ge %s 0)", name))
		}
		return name, nil
	case s == "_":
		return sc.fresh(so.metas[0], "w"), nil
	case base == "any":
		if r, ok := sc.rename[s]; ok {
			return sc.bind(r), nil
		}
		r := so.metas[0] + "_any" + sub
		sc.rename[s] = r
		return sc.bind(r), nil
	}
	if r := t.ref(d); r != nil {
		switch {
		case r.role == roleContext && r == sc.hole:
			sc.holes++
			return sc.holeText, nil
		case r.role == roleContext:
			return "", errAt(d.P, "%s: a context in this place needs contexts as values, not in the rule language yet", s)
		case r.sort != so:
			where := "no sort"
			if r.sort != nil {
				where = r.sort.name
			}
			return "", errAt(d.P, "%s is a term of %s, not of %s", s, where, so.name)
		}
		return sc.bind(s), nil
	}
	for _, c := range so.cons {
		if len(c.args) == 0 && c.tmpl.Kind == Symbol && c.tmpl.Text == s {
			return "(" + c.name + ")", nil
		}
	}
	if s == "hole" {
		return "", errAt(d.P, "hole: %s", unsupportedPatterns["hole"])
	}
	return "", errAt(d.P, "%s is not a term of %s: no constructor of %s is written %s", s, so.name, so.name, s)
}

// conOf reads the list d as the first constructor of so whose shape it fits, each
// argument translated by term, binder or integer.
func (t *translator) conOf(d *Datum, so *tsort, depth int, term func(*Datum, *tsort) (string, error),
	binder func(*Datum) (string, error), integer func(*Datum) (string, error)) (string, error) {
	var first error
	for _, c := range so.cons {
		if !t.fitsShape(d, c.tmpl, c, depth) {
			continue
		}
		args := make([]*Datum, len(c.args))
		collect(d, c.tmpl, args)
		parts := []string{c.name}
		var err error
		for i, a := range args {
			var s string
			elem := func(x *Datum) (string, error) {
				switch c.kinds[i] {
				case argVar:
					return binder(x)
				case argInt:
					return integer(x)
				}
				return term(x, t.argSort(c, i))
			}
			if c.seq[i] {
				s, err = seqText(a, elem)
			} else {
				s, err = elem(a)
			}
			if err != nil {
				break
			}
			parts = append(parts, s)
		}
		if err == nil {
			return "(" + strings.Join(parts, " ") + ")", nil
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return "", first
	}
	with := ""
	if slices.ContainsFunc(d.List, isEllipsis) {
		with = ", with a sequence there"
	}
	return "", errAt(d.P, "%s is not a term of %s: no constructor of %s is written so%s (%s)", d, so.name, so.name, with, shapesOf(so))
}

// shapesOf lists a sort's constructors as written.
func shapesOf(so *tsort) string {
	var ss []string
	for _, c := range so.cons {
		ss = append(ss, c.shape)
	}
	if len(so.vars) > 0 {
		ss = append(ss, so.vars[0])
	}
	if len(so.ints) > 0 {
		ss = append(ss, "number")
	}
	return strings.Join(ss, ", ")
}

// collect finds the data at the template's arguments: a sequence's, a list of its
// items (translate_seq.go).
func collect(d, tmpl *Datum, args []*Datum) {
	if tmpl.Kind == Symbol {
		if i, ok := argIndex(tmpl.Text); ok {
			args[i] = d
		}
		return
	}
	if k := seqArg(tmpl); k >= 0 {
		before, seq, after, _ := align(d, tmpl, k)
		for i, x := range before {
			collect(x, tmpl.List[i], args)
		}
		j, _ := argIndex(tmpl.List[k].Text)
		args[j] = seq
		for i, x := range after {
			collect(x, tmpl.List[k+2+i], args)
		}
		return
	}
	for i := range tmpl.List {
		collect(d.List[i], tmpl.List[i], args)
	}
}

// builder translates the Redex term d, built on a right-hand side, a term of the
// sort so, from the metavariables sc has bound.
func (t *translator) builder(d *Datum, so *tsort, sc *scope, depth int) (string, error) {
	if depth > 256 {
		return "", errAt(d.P, "a term nested deeper than 256 lists")
	}
	d = boolSym(d)
	switch d.Kind {
	case Number, String:
		return literal(d, so)
	case Symbol:
		return t.builderSym(d, so, sc)
	case List:
		if d.Quote == "," {
			return t.racket(d.List[1], so, sc)
		}
		if d.Quote != "" {
			return "", errAt(d.P, "%s: a quoted term in a term is not translated", d)
		}
		h := head(d)
		if h == "in-hole" {
			if len(d.List) != 3 || sc.context == "" || !isSym(d.List[1], sc.context) {
				return "", errAt(d.P, "in-hole: a context reinstated on a right-hand side is the one the left-hand side names")
			}
			inner, err := t.builder(d.List[2], so, sc, depth+1)
			if err != nil || sc.capture == "" {
				return inner, err // the empty context: the term itself
			}
			return "(in-hole " + sc.capture + " " + inner + ")", nil
		}
		if why, bad := unsupportedPatterns[h]; bad && h != "hole" {
			return "", errAt(d.P, "%s: %s", h, why)
		}
		if h == "subst-n" && t.substN {
			return t.substNCall(d, so, sc, depth)
		}
		if roles, ok := t.substFns[h]; ok {
			return t.substCall(d, roles, so, sc, depth)
		}
		if f, ok := t.fns[h]; ok {
			return t.call(d, f, so, sc, depth)
		}
		return t.conOf(d, so, depth, func(x *Datum, s *tsort) (string, error) { return t.builder(x, s, sc, depth+1) },
			func(x *Datum) (string, error) {
				if r := t.ref(x); r != nil && r.role == roleVar && sc.bound[t.boundName(x.Text, sc)] {
					return t.boundName(x.Text, sc), nil
				}
				return "", errAt(x.P, "%s in a binder's place: the translation builds a variable bound by the left-hand side there", x)
			},
			func(x *Datum) (string, error) {
				if x.Kind == Number {
					return x.Text, nil
				}
				return t.builderSym(x, so, sc)
			})
	}
	return "", errAt(d.P, "%s is not a term the translation reads", d)
}

// boundName is the rule-file name of a Redex metavariable on a right-hand side.
func (t *translator) boundName(s string, sc *scope) string {
	if r, ok := sc.rename[s]; ok {
		return r
	}
	return s
}

// builderSym translates a symbol of a right-hand side: a bound metavariable, or a
// literal of a nullary constructor.
func (t *translator) builderSym(d *Datum, so *tsort, sc *scope) (string, error) {
	s := d.Text
	if name := t.boundName(s, sc); sc.bound[name] {
		if r := t.ref(d); r != nil && r.sort != so && !(r.role == roleVar && r.sort == so) {
			return "", errAt(d.P, "%s is a term of %s, not of %s", s, r.sort.name, so.name)
		}
		return name, nil
	}
	if t.ref(d) != nil || isIntName(s) || strings.HasPrefix(s, "any") {
		return "", errAt(d.P, "%s is not bound by the left-hand side or a where", s)
	}
	for _, c := range so.cons {
		if len(c.args) == 0 && c.tmpl.Kind == Symbol && c.tmpl.Text == s {
			return "(" + c.name + ")", nil
		}
	}
	return "", errAt(d.P, "%s is not a term of %s: no constructor of %s is written %s", s, so.name, so.name, s)
}

// prims are the Racket functions on numbers the translation reads as the rule
// language's integer operations (unquoted on a right-hand side).
var prims = map[string]string{"+": "add", "-": "sub", "*": "mul", "quotient": "quot", "remainder": "rem"}

// racket translates an unquoted Racket expression on a right-hand side: integer
// arithmetic on (term n) and integers, as prims; anything else is an error that
// names it.
func (t *translator) racket(e *Datum, so *tsort, sc *scope) (string, error) {
	if len(so.ints) == 0 {
		return "", errAt(e.P, "Racket code (unquote) that gives a number, where a term of %s is built", so.name)
	}
	var arith func(e *Datum, depth int) (string, error)
	arith = func(e *Datum, depth int) (string, error) {
		if depth > 64 {
			return "", errAt(e.P, "Racket code nested deeper than 64")
		}
		switch {
		case e.Kind == Number && isInteger(e.Text):
			return e.Text, nil
		case head(e) == "term" && len(e.List) == 2:
			return t.builder(e.List[1], so, sc, depth+1)
		}
		if t.numbers {
			return t.numberCall(e, arith)
		}
		op, ok := prims[head(e)]
		if !ok || len(e.List) < 2 {
			return "", errAt(e.P, "%s: Racket code is not translated (the translation reads +, -, *, quotient and remainder of (term n) and integers); write it as a meta-function or a hook", e)
		}
		var args []string
		for _, a := range e.List[1:] {
			s, err := arith(a, depth+1)
			if err != nil {
				return "", err
			}
			args = append(args, s)
		}
		switch {
		case op == "sub" && len(args) == 1:
			return "(prim neg " + args[0] + ")", nil
		case (op == "add" || op == "mul") && len(args) > 2:
			acc := args[0]
			for _, a := range args[1:] {
				acc = fmt.Sprintf("(prim %s %s %s)", op, acc, a)
			}
			return acc, nil
		case len(args) != 2:
			return "", errAt(e.P, "%s: %s of %d arguments is not translated", e, head(e), len(args))
		}
		return fmt.Sprintf("(prim %s %s %s)", op, args[0], args[1]), nil
	}
	return arith(e, 0)
}

// numberHooks are Racket's operations on numbers the translation reads as the rule
// language's hooks on the number atom (numbersOf).
var numberHooks = map[string]string{"+": "number-add", "-": "number-sub", "*": "number-mul", "/": "number-div", "sqrt": "number-sqrt"}

// numberCall translates Racket's arithmetic on numbers to calls of the number atom's
// hooks: + and * of several operands folded left, (- x) as (number-sub 0 x).
func (t *translator) numberCall(e *Datum, arith func(*Datum, int) (string, error)) (string, error) {
	h, ok := numberHooks[head(e)]
	if !ok || len(e.List) < 2 || h == "number-sqrt" && len(e.List) != 2 {
		return "", errAt(e.P, "%s: Racket code is not translated (the translation reads +, -, *, / and sqrt of (term n) and numbers); write it as a meta-function or a hook", e)
	}
	var args []string
	for _, a := range e.List[1:] {
		s, err := arith(a, 1)
		if err != nil {
			return "", err
		}
		args = append(args, s)
	}
	t.hooks = appendNew(t.hooks, h)
	switch {
	case h == "number-sqrt":
		return "(number-sqrt " + args[0] + ")", nil
	case len(args) == 1 && h == "number-sub":
		return "(number-sub 0 " + args[0] + ")", nil
	case len(args) == 1:
		return "", errAt(e.P, "%s: %s of one argument is not translated", e, head(e))
	}
	acc := args[0]
	for _, a := range args[1:] {
		acc = fmt.Sprintf("(%s %s %s)", h, acc, a)
	}
	return acc, nil
}

// comparisons are Racket's comparisons of numbers, and their negations.
var comparisons = map[string][2]string{"=": {"eq", "ne"}, "<": {"lt", "ge"}, "<=": {"le", "gt"}, ">": {"gt", "le"}, ">=": {"ge", "lt"}}

// sideCondition translates a (side-condition RACKET) the translation knows: a
// comparison of (term n) and integers, equal? of two terms, zero?, their negations
// (not) and conjunctions (and), each a rule-file condition.
func (t *translator) sideCondition(e *Datum, sc *scope, neg bool, depth int) ([]string, error) {
	if depth > 64 {
		return nil, errAt(e.P, "a side condition nested deeper than 64")
	}
	operand := func(d *Datum) (string, *tsort, error) {
		if s, ok, err := t.lengthOperand(d, sc); ok {
			return s, nil, err
		}
		switch {
		case d.Kind == Number && isInteger(d.Text):
			return d.Text, nil, nil
		case head(d) == "term" && len(d.List) == 2 && d.List[1].Kind == Symbol:
			name := t.boundName(d.List[1].Text, sc)
			if !sc.bound[name] {
				return "", nil, errAt(d.List[1].P, "%s is not bound by the left-hand side", d.List[1].Text)
			}
			var so *tsort
			if r := t.ref(d.List[1]); r != nil {
				so = r.sort
			}
			return name, so, nil
		}
		return "", nil, errAt(d.P, "%s: the translation reads (term x) and integers in a side condition", d)
	}
	h := head(e)
	if c, ok, err := t.predicate(e, sc, neg); ok {
		if err != nil {
			return nil, err
		}
		return []string{c}, nil
	}
	switch {
	case h == "not" && len(e.List) == 2:
		return t.sideCondition(e.List[1], sc, !neg, depth+1)
	case h == "or" && neg: // not (or A B) = (and (not A) (not B))
		return t.conjunction(e.List[1:], sc, true, depth)
	case h == "or" && len(e.List) > 1:
		c, err := t.disjunction(e, sc, depth)
		if err != nil {
			return nil, err
		}
		return []string{c}, nil
	case h == "and" && !neg:
		return t.conjunction(e.List[1:], sc, false, depth)
	case h == "zero?" && len(e.List) == 2:
		a, _, err := operand(e.List[1])
		if err != nil {
			return nil, err
		}
		return []string{fmt.Sprintf("(%s %s 0)", map[bool]string{false: "=", true: "!="}[neg], a)}, nil
	case (h == "equal?" || h == "eq?" || h == "eqv?") && len(e.List) == 3:
		a, _, err := operand(e.List[1])
		if err != nil {
			return nil, err
		}
		b, _, err := operand(e.List[2])
		if err != nil {
			return nil, err
		}
		return []string{fmt.Sprintf("(%s %s %s)", map[bool]string{false: "=", true: "!="}[neg], a, b)}, nil
	}
	if ops, ok := comparisons[h]; ok && len(e.List) == 3 {
		a, _, err := operand(e.List[1])
		if err != nil {
			return nil, err
		}
		b, _, err := operand(e.List[2])
		if err != nil {
			return nil, err
		}
		op := ops[0]
		if neg {
			op = ops[1]
		}
		return []string{fmt.Sprintf("(prim %s %s %s)", op, a, b)}, nil
	}
	return nil, errAt(e.P, "side-condition %s: Racket code the translation does not read (it reads comparisons of (term n) and of lengths of sequences, equal?, zero?, Racket's tests of numbers, not, and and or); write it as a meta-function or a hook and test it with a where", e)
}

// conjunction translates each of the side conditions xs (each negated, neg), all of
// which must hold.
func (t *translator) conjunction(xs []*Datum, sc *scope, neg bool, depth int) ([]string, error) {
	var out []string
	for _, x := range xs {
		cs, err := t.sideCondition(x, sc, neg, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}
