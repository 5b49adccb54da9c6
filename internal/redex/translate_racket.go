package redex

import (
	"fmt"
	"strings"
)

// Racket's predicates in side conditions (docs/redex.md). A side condition is Racket
// code; the translation reads, besides comparisons, equal?, zero?, not and and
// (translate_terms.go), Racket's tests of numbers, number? integer? odd? even?
// positive? negative?, of (term x), disjunctions (or) and the lengths of sequences,
// (length (term (x ...))). Each test is a meta-function the translation writes,
// whose result is a boolean: (where (F x)) holds when it gives true, and a negated
// one is (where (match false (F x))). A disjunction is a function too, a clause for
// each disjunct, true when its conditions hold, false after them all.

// boolSort is the sort of the generated tests' results: booleans.
const boolSort, boolMeta = "rkt-bool", "rkt-b"

// numberTests are Racket's tests of numbers: the condition on an integer n that
// makes each true (a number of the model is an integer of the rule file).
var numberTests = map[string]string{
	"number?":   "",
	"integer?":  "",
	"real?":     "",
	"rational?": "",
	"exact?":    "",
	"odd?":      "(prim ne (rkt-rem2-SORT %s) 0)",
	"even?":     "(prim eq (rkt-rem2-SORT %s) 0)",
	"positive?": "(prim gt %s 0)",
	"negative?": "(prim lt %s 0)",
}

// numberTest writes, once, the function of the test name on the terms of so, and
// gives its name.
func (t *translator) numberTest(name string, so *tsort) (string, error) {
	if len(so.ints) == 0 {
		return "", fmt.Errorf("%s of a term of %s, which has no numbers", name, so.name)
	}
	fname := "rkt-" + strings.TrimSuffix(name, "?") + "-" + so.name
	if t.generated[fname] {
		return fname, nil
	}
	n := so.ints[0]
	cond := ""
	if c := numberTests[name]; c != "" {
		cond = " (where " + fmt.Sprintf(strings.ReplaceAll(c, "SORT", so.name), n) + ")"
	}
	if rem := "rkt-rem2-" + so.name; strings.Contains(cond, rem) && !t.generated[rem] {
		// A condition's prim takes no prim: the remainder is a function's.
		t.generated[rem] = true
		t.extra = append(t.extra, fmt.Sprintf("; the remainder of a number by 2\n(function %s (%s) %s\n  ((%s %s) (prim rem %s 2)))\n", rem, n, n, rem, n, n))
	}
	t.needBool = true
	t.generated[fname] = true
	t.extra = append(t.extra, fmt.Sprintf("; Racket's %s\n(function %s (%s) %s\n  ((%s %s) true%s)\n  ((%s %s) false))\n",
		name, fname, so.metas[0], boolMeta, fname, n, cond, fname, so.metas[0]))
	return fname, nil
}

// lengthOf writes, once, the function of the length of a sequence of so's terms, its
// result a number of the sort that has them, and gives its name.
func (t *translator) lengthOf(so *tsort) (string, error) {
	ns := t.intSort()
	if ns == nil {
		return "", fmt.Errorf("the length of a sequence, where no sort has numbers")
	}
	fname := "rkt-length-" + so.name
	if t.generated[fname] {
		return fname, nil
	}
	t.generated[fname] = true
	m := so.metas[0]
	t.extra = append(t.extra, fmt.Sprintf("; Racket's length of a sequence of %s\n(function %s (%s ...) %s\n  ((%s ()) 0)\n  ((%s (%s %s_rest ...)) (prim add 1 (%s (%s_rest ...)))))\n",
		so.name, fname, m, ns.ints[0], fname, fname, m, m, fname, m))
	return fname, nil
}

// lengthOperand translates (length (term (x ...))): a call of the length function of
// x's sort on the sequence x stands for.
func (t *translator) lengthOperand(d *Datum, sc *scope) (string, bool, error) {
	if head(d) != "length" || len(d.List) != 2 || head(d.List[1]) != "term" || len(d.List[1].List) != 2 {
		return "", false, nil
	}
	seq := d.List[1].List[1]
	if seq.Kind != List || len(seq.List) != 2 || seq.List[0].Kind != Symbol || !isEllipsis(seq.List[1]) {
		return "", true, errAt(d.P, "%s: the translation reads the length of (term (x ...))", d)
	}
	r := t.ref(seq.List[0])
	name := t.boundName(seq.List[0].Text, sc)
	if r == nil || r.sort == nil || !sc.bound[name] {
		return "", true, errAt(seq.P, "%s is not a sequence the left-hand side binds", seq)
	}
	f, err := t.lengthOf(r.sort)
	if err != nil {
		return "", true, errAt(d.P, "%s: %v", d, err)
	}
	return fmt.Sprintf("(%s (%s ...))", f, name), true, nil
}

// predicate translates a test of numbers on (term x), neg its negation, into a
// condition; ok is false for another expression.
func (t *translator) predicate(e *Datum, sc *scope, neg bool) (cond string, ok bool, err error) {
	h := head(e)
	if _, known := numberTests[h]; !known || len(e.List) != 2 {
		return "", false, nil
	}
	arg := e.List[1]
	if head(arg) != "term" || len(arg.List) != 2 || arg.List[1].Kind != Symbol {
		return "", true, errAt(arg.P, "%s: the translation reads %s of (term x)", arg, h)
	}
	name := t.boundName(arg.List[1].Text, sc)
	r := t.ref(arg.List[1])
	var so *tsort
	switch {
	case !sc.bound[name]:
		return "", true, errAt(arg.List[1].P, "%s is not bound by the left-hand side", arg.List[1].Text)
	case r != nil:
		so = r.sort
	case isIntName(arg.List[1].Text):
		so = t.intSort()
	}
	if so == nil {
		return "", true, errAt(arg.P, "%s: the sort of %s is not known", e, arg.List[1].Text)
	}
	f, err := t.numberTest(h, so)
	if err != nil {
		return "", true, errAt(e.P, "%v", err)
	}
	if neg {
		return fmt.Sprintf("(match false (%s %s))", f, name), true, nil
	}
	return fmt.Sprintf("(%s %s)", f, name), true, nil
}

// disjunction translates (or D ...) into a call of a function written for it: its
// parameters the metavariables the disjuncts test, a clause for each disjunct, true
// where its conditions hold, and false after them.
func (t *translator) disjunction(e *Datum, sc *scope, depth int) (string, error) {
	var params []string
	seen := map[string]bool{}
	walk(e, func(d *Datum) {
		if head(d) == "term" && len(d.List) == 2 && d.List[1].Kind == Symbol {
			if name := t.boundName(d.List[1].Text, sc); sc.bound[name] && !seen[name] {
				seen[name] = true
				params = append(params, name)
			}
		}
	})
	var sorts []string
	for _, p := range params {
		base, _ := splitName(p)
		r := t.byName[base]
		switch {
		case r != nil && r.sort != nil:
			sorts = append(sorts, r.sort.metas[0])
		case isIntName(p) && t.intSort() != nil:
			sorts = append(sorts, t.intSort().metas[0])
		default:
			return "", errAt(e.P, "%s: the sort of %s is not known", e, p)
		}
	}
	t.disjunctions++
	fname := fmt.Sprintf("rkt-or-%d", t.disjunctions)
	var b strings.Builder
	fmt.Fprintf(&b, "; Racket's %s\n(function %s (%s) %s", e, fname, strings.Join(sorts, " "), boolMeta)
	call := "(" + fname + " " + strings.Join(params, " ") + ")" // the clauses' head, and the condition
	for _, d := range e.List[1:] {
		inner := newScope()
		for _, p := range params {
			inner.bound[p] = true
		}
		cs, err := t.sideCondition(d, inner, false, depth+1)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n  (%s true%s)", call, whereText(cs))
	}
	fmt.Fprintf(&b, "\n  (%s false))\n", call)
	t.needBool = true
	t.extra = append(t.extra, b.String())
	return call, nil
}

// nonEmptyContext reports whether the side condition e says that the context ctx is
// not the empty one, (not (equal? (term E) (term hole))): a context rule's own
// condition.
func nonEmptyContext(e *Datum, ctx string) bool {
	if head(e) != "not" || len(e.List) != 2 {
		return false
	}
	q := e.List[1]
	if h := head(q); (h != "equal?" && h != "eq?") || len(q.List) != 3 {
		return false
	}
	is := func(d *Datum, s string) bool { return head(d) == "term" && len(d.List) == 2 && isSym(d.List[1], s) }
	return is(q.List[1], ctx) && is(q.List[2], "hole") || is(q.List[1], "hole") && is(q.List[2], ctx)
}
