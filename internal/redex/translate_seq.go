package redex

import (
	"fmt"
	"strings"
)

// Sequences (docs/redex.md): an alternative's element followed by an ellipsis,
// (e e ...), (λ (x ...) e), is an argument that is a sequence of the non-terminal's
// terms, E ... in the rule file (docs/rules.md, "Sequences"), its shape writing it
// inline. A fixed element just before a sequence of the same non-terminal is the
// sequence's first, (e e ...) written (e ...): a rule file's sequence may be empty,
// and the empty one is then one of the model's normal forms that are not values
// (the catch-all stuck shapes). Patterns and right-hand sides keep Redex's ellipses,
// named ones, ..._1, too.

// isEllipsis reports whether d is an ellipsis, ... or ..._NAME.
func isEllipsis(d *Datum) bool {
	return d.Kind == Symbol && (d.Text == "..." || strings.HasPrefix(d.Text, "..._"))
}

// mergeFirst rewrites an alternative's lists so that a fixed element before a
// sequence of the same non-terminal is the sequence's first: (e e ...) is (e ...).
// It reports whether it merged any.
func (t *translator) mergeFirst(d *Datum) (*Datum, bool) {
	if d.Kind != List {
		return d, false
	}
	out := *d
	out.List = nil
	merged := false
	for i := 0; i < len(d.List); i++ {
		x := d.List[i]
		if i+2 < len(d.List) && x.Kind == Symbol && d.List[i+1].Kind == Symbol && isEllipsis(d.List[i+2]) {
			a, _ := splitName(x.Text)
			b, _ := splitName(d.List[i+1].Text)
			if a == b && t.byName[a] != nil {
				merged = true
				continue
			}
		}
		y, m := t.mergeFirst(x)
		merged = merged || m
		out.List = append(out.List, y)
	}
	return &out, merged
}

// seqArg is the index of the template list's sequence argument, -1 if none: an
// argument symbol followed by an ellipsis.
func seqArg(tmpl *Datum) int {
	for i := 0; i+1 < len(tmpl.List); i++ {
		if _, ok := argIndex(tmpl.List[i].Text); ok && tmpl.List[i].Kind == Symbol && isEllipsis(tmpl.List[i+1]) {
			return i
		}
	}
	return -1
}

// align splits the list d against a template list with a sequence at k (k elements
// before it, the rest after it and its ellipsis): the data before, the sequence's
// items (a list datum, ellipses kept), the data after. ok is false where d is too
// short, or an ellipsis falls outside the sequence.
func align(d, tmpl *Datum, k int) (before []*Datum, seq *Datum, after []*Datum, ok bool) {
	nafter := len(tmpl.List) - k - 2
	if len(d.List) < k+nafter {
		return nil, nil, nil, false
	}
	before, after = d.List[:k], d.List[len(d.List)-nafter:]
	for _, x := range before {
		if isEllipsis(x) {
			return nil, nil, nil, false
		}
	}
	for _, x := range after {
		if isEllipsis(x) {
			return nil, nil, nil, false
		}
	}
	mid := d.List[k : len(d.List)-nafter]
	if len(mid) > 0 && isEllipsis(mid[0]) {
		return nil, nil, nil, false // an ellipsis repeats the fixed element before the sequence
	}
	return before, &Datum{P: d.P, Kind: List, Open: '(', List: mid}, after, true
}

// items are a sequence datum's elements, each with the ellipsis that follows it, ""
// if none.
func items(seq *Datum) (elems []*Datum, reps []string) {
	for i := 0; i < len(seq.List); i++ {
		elems = append(elems, seq.List[i])
		rep := ""
		if i+1 < len(seq.List) && isEllipsis(seq.List[i+1]) {
			rep = seq.List[i+1].Text
			i++
		}
		reps = append(reps, rep)
	}
	return elems, reps
}

// seqText translates a sequence's items, each by elem, into the rule file's
// sequence, (P ... Q): a named ellipsis, ..._1, as it is (the lengths it equates).
func seqText(seq *Datum, elem func(*Datum) (string, error)) (string, error) {
	elems, reps := items(seq)
	parts := make([]string, 0, len(elems))
	for i, x := range elems {
		s, err := elem(x)
		if err != nil {
			return "", err
		}
		if reps[i] != "" {
			s += " " + reps[i]
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, " ") + ")", nil
}

// boolSym is a boolean datum read as the literal symbol Redex prints, #t or #f: a
// nullary constructor of the rule file written so (its name true or false).
func boolSym(d *Datum) *Datum {
	if d.Kind != Bool {
		return d
	}
	return &Datum{P: d.P, Kind: Symbol, Text: map[bool]string{true: "#t", false: "#f"}[d.Bool]}
}

// substNCall translates a call of subst.rkt's (subst-n ((x v) ... e)), e with each
// x substituted by its v, the last pair first: a call of a function the translation
// writes for the sort, over the sequence of the x and that of the v.
func (t *translator) substNCall(d *Datum, so *tsort, sc *scope, depth int) (string, error) {
	if len(d.List) != 2 || d.List[1].Kind != List || len(d.List[1].List) == 0 {
		return "", errAt(d.P, "%s: subst-n takes one list, ((x v) ... e)", d)
	}
	list := d.List[1]
	bodyD := list.List[len(list.List)-1]
	if isEllipsis(bodyD) {
		return "", errAt(bodyD.P, "%s: subst-n's last element is the term substituted in", d)
	}
	pairs := &Datum{P: list.P, Kind: List, Open: '(', List: list.List[:len(list.List)-1]}
	elems, reps := items(pairs)
	var xs, vs []string
	var vsort *tsort
	for i, p := range elems {
		if p.Kind != List || len(p.List) != 2 {
			return "", errAt(p.P, "%s: subst-n substitutes pairs (x v)", p)
		}
		r := t.ref(p.List[0])
		name := t.boundName(p.List[0].Text, sc)
		if r == nil || r.role != roleVar || !sc.bound[name] {
			return "", errAt(p.List[0].P, "%s: substitution of a variable the left-hand side binds", p.List[0])
		}
		vsort = r.sort
		v, err := t.builder(p.List[1], r.sort, sc, depth+1)
		if err != nil {
			return "", err
		}
		rep := ""
		if reps[i] != "" {
			rep = " " + reps[i]
		}
		xs, vs = append(xs, name+rep), append(vs, v+rep)
	}
	body, err := t.builder(bodyD, so, sc, depth+1)
	if err != nil {
		return "", err
	}
	if vsort == nil {
		return body, nil // no pair: the term itself
	}
	if vsort != so {
		return "", errAt(d.P, "%s: the variables substituted are of %s, the term of %s", d, vsort.name, so.name)
	}
	fname := "rkt-subst-n-" + so.name
	if !t.generated[fname] {
		t.generated[fname] = true
		m, x := so.metas[0], so.vars[0]
		t.extra = append(t.extra, fmt.Sprintf("; subst.rkt's subst-n: each x substituted by its v, the last first\n(function %s (%s %s ... %s ...) %s\n  ((%s %s_body () ()) %s_body)\n  ((%s %s_body (%s %s_xs ...) (%s_v %s_vs ...)) (subst (%s %s_body (%s_xs ...) (%s_vs ...)) %s %s_v)))\n",
			fname, m, m, m, m, fname, m, m, fname, m, x, x, m, m, fname, m, x, m, x, m))
	}
	return fmt.Sprintf("(%s %s (%s) (%s))", fname, body, strings.Join(xs, " "), strings.Join(vs, " ")), nil
}

// elementSort declares the elements of a sequence of lists, elem in the alternative
// alt of so, as a sort of their own, its one constructor written as elem is, and adds
// the argument to c: its index. The sort is named after the alternative's first
// literal, let-item for (let ((x e) ...) e).
func (t *translator) elementSort(so *tsort, alt, elem *Datum, c *tcon) int {
	base := so.name + "-item"
	if alt.Kind == List && len(alt.List) > 0 && alt.List[0].Kind == Symbol && t.ref(alt.List[0]) == nil {
		base = alt.List[0].Text + "-item"
	}
	name := base
	for i := 2; t.byName[name] != nil || t.conNames[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	nt := &nonterm{P: elem.P, names: []string{name}, alts: []*Datum{elem}, role: roleSort}
	es := &tsort{name: name, metas: []string{name}, nt: nt}
	nt.sort = es
	t.nts = append(t.nts, nt)
	t.byName[name] = nt
	t.sorts = append(t.sorts, es)
	t.constructor(es, elem)
	t.notes = appendNew(t.notes, fmt.Sprintf("the elements of a sequence of lists are a sort of their own: %s, of %s", name, elem))
	c.args = append(c.args, name)
	c.kinds = append(c.kinds, argTerm)
	c.seq = append(c.seq, false)
	return len(c.args) - 1
}
