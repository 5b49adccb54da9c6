package redex

import (
	"fmt"
	"slices"
)

// Substitution: a model's meta-function that is capture-avoiding substitution is the
// rule language's own (subst BODY X V), on the binders the translation declares.

// substRoles are the places of a substitution meta-function's arguments: the term
// substituted in, the variable, the term substituted for it; list if the three are
// one list argument ((subst (x v e))).
type substRoles struct {
	body, x, val int
	list         bool
}

// substitution recognizes a meta-function that is capture-avoiding substitution
// (the rule language's own, on the binders the translation found): one of its
// clauses substitutes at the variable itself, [(subst x_1 any_1 x_1) any_1], or it
// calls redex/tut-subst's subst/proc.
func (t *translator) substitution(mf *Metafunction) (*substRoles, bool) {
	for _, c := range mf.Clauses {
		if c.LHS.Kind != List || len(c.LHS.List) < 2 {
			continue
		}
		args, list := c.LHS.List[1:], false
		if len(args) == 1 && args[0].Kind == List && len(args[0].List) == 3 {
			args, list = args[0].List, true
		}
		if len(args) != 3 {
			continue
		}
		// [(subst x_1 any_1 x_1) any_1]
		for x := range 3 {
			r := t.ref(args[x])
			if r == nil || r.role != roleVar {
				continue
			}
			for body := range 3 {
				if body != x && isSym(args[body], args[x].Text) {
					val := 3 - x - body
					if !isSym(c.RHS, args[val].Text) {
						continue
					}
					// [(subst x x M) M] reads either way: the contract, if it gives
					// the variable's place, says which x is the variable.
					if dom := contractDomain(mf); len(dom) == 3 && !list {
						if r := t.ref(dom[x]); (r == nil || r.role != roleVar) && t.ref(dom[body]) != nil && t.ref(dom[body]).role == roleVar {
							x, body = body, x
						}
					}
					return &substRoles{body: body, x: x, val: val, list: list}, true
				}
			}
		}
		// ,(subst/proc x? (term (x)) (term (N)) (term M))
		if e := c.RHS; e.Kind == List && e.Quote == "," && head(e.List[1]) == "subst/proc" && len(e.List[1].List) == 5 {
			p := e.List[1].List
			place := func(d *Datum, inList bool) int {
				if head(d) != "term" || len(d.List) != 2 {
					return -1
				}
				d = d.List[1]
				if inList {
					if d.Kind != List || len(d.List) != 1 {
						return -1
					}
					d = d.List[0]
				}
				return slices.IndexFunc(args, func(a *Datum) bool { return isSym(a, d.Text) })
			}
			x, val, body := place(p[2], true), place(p[3], true), place(p[4], false)
			if x >= 0 && val >= 0 && body >= 0 && x != val && x != body && val != body {
				return &substRoles{body: body, x: x, val: val, list: list}, true
			}
		}
	}
	return nil, false
}

// contractDomain is a meta-function's contract's domain, nil if it has none.
func contractDomain(mf *Metafunction) []*Datum {
	if mf.Contract == nil {
		return nil
	}
	cs := mf.Contract.List
	if i := slices.IndexFunc(cs, func(d *Datum) bool { return isSym(d, "->") }); i >= 0 {
		return cs[:i]
	}
	return nil
}

// substCall translates a call of a substitution meta-function as the rule
// language's substitution.
func (t *translator) substCall(d *Datum, roles *substRoles, so *tsort, sc *scope, depth int) (string, error) {
	args := d.List[1:]
	if roles.list {
		if len(args) != 1 || args[0].Kind != List {
			return "", errAt(d.P, "%s: a call of substitution with its arguments in one list", d)
		}
		args = args[0].List
	}
	if len(args) != 3 {
		return "", errAt(d.P, "%s: substitution takes 3 arguments", d)
	}
	body, err := t.builder(args[roles.body], so, sc, depth+1)
	if err != nil {
		return "", err
	}
	x := args[roles.x]
	r := t.ref(x)
	name := t.boundName(x.Text, sc)
	if r == nil || r.role != roleVar || !sc.bound[name] {
		return "", errAt(x.P, "%s: substitution of a variable the left-hand side binds", x)
	}
	val, err := t.builder(args[roles.val], r.sort, sc, depth+1)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("(subst %s %s %s)", body, name, val), nil
}
