package gogen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive/sem"
)

// Sequences (sem's seq.go): a sequence sort's terms are chains of two constructors,
// so the generated code sees nodes everywhere but in a sequence pattern, (P ... Q R
// ...), and a sequence template. A pattern is matched by the runtime's backtracking
// search (engine.go's matchSeq, sem's seqMatcher), each element's test a function
// literal written as any other pattern's, which binds the rule's slots; a template is
// built in place, a repeated element once for each element of the sequences its
// metavariables stand for (sem's seqBuilder).

// sortOf is the index of the sort so in the file's sorts (terms.go's tables).
func (g *gen) sortOf(so *sem.Sort) int { return slices.Index(g.l.Sorts, so) }

// matchSeq emits the test that the closure v matches the sequence pattern p, fail
// where it does not; bind says that the pattern's metavariables are bound (a rule's
// or a function's clause), not only tested (a value, a frame, a class).
func (g *gen) matchSeq(e *emitter, p *sem.Pattern, v, fail string, bind bool) {
	var elems []string
	var used []int // the slots the search reads or writes
	use := func(s int) {
		if !slices.Contains(used, s) {
			used = append(used, s)
		}
	}
	for i, a := range p.Args {
		rep := p.Reps[i]
		if !bind && (rep.NameSlot >= 0 || hasSame(a)) {
			g.fail("%s: a sequence pattern of a value, a frame or a class with a named ellipsis or a metavariable met again: derive --go does not write it yet", p.P)
			return
		}
		sub := &emitter{tmps: e.tmps, labels: e.labels}
		g.match(sub, a, "x", false, "return false", bind)
		e.tmps, e.labels = sub.tmps, sub.labels
		var under, underSort, binds []int
		if bind {
			for _, u := range rep.Under {
				under, underSort = append(under, u.Slot), append(underSort, g.sortOf(u.Sort))
				use(u.Slot)
			}
			for _, s := range slotsIn(a) {
				if !g.lazy[s] {
					binds = append(binds, s)
					use(s)
				}
			}
			if rep.NameSlot >= 0 {
				use(rep.NameSlot)
			}
		}
		suffix := a.Kind == sem.PatMeta && len(rep.Under) == 1 && rep.Under[0].Sort == p.Sort.Sort
		early := false
		for _, later := range p.Args[i+1:] {
			later.Walk(func(q *sem.Pattern) {
				early = early || q.Kind == sem.PatSame && slices.ContainsFunc(rep.Under, func(u sem.SeqVar) bool { return u.Slot == q.Slot })
			})
		}
		elems = append(elems, fmt.Sprintf("{match: func(x Val) bool {\n%sreturn true\n}, rep: %v, name: %d, under: %s, underSort: %s, binds: %s, suffix: %v, early: %v}",
			sub.b.String(), rep.Repeated(), nameSlot(rep, bind), intsLit(under), intsLit(underSort), intsLit(binds), suffix, early))
	}
	acc := "func(int) *Val { return new(Val) }" // nothing bound: nothing read back
	if len(used) > 0 {
		var cases []string
		for _, s := range used {
			cases = append(cases, fmt.Sprintf("case %d:\nreturn &s%d", s, s))
		}
		acc = "func(i int) *Val {\nswitch i {\n" + strings.Join(cases, "\n") + "\n}\nreturn new(Val)\n}"
	}
	list := "" // the elements, each on its lines
	for _, x := range elems {
		list += "\n" + x + ","
	}
	e.p("if !r.matchSeq(%s, %d, []seqElem{%s\n}, %s, %s) { %s }", v, g.sortOf(p.Sort.Sort), list, acc, posLit(p.P), fail)
}

// nameSlot is the slot of a repeated element's named ellipsis, -1 where it has none
// or nothing is bound.
func nameSlot(r sem.Rep, bind bool) int {
	if !bind {
		return -1
	}
	return r.NameSlot
}

// hasSame reports whether p compares a term with a metavariable bound before it
// (PatSame).
func hasSame(p *sem.Pattern) bool {
	same := false
	p.Walk(func(q *sem.Pattern) { same = same || q.Kind == sem.PatSame })
	return same
}

// instSeq emits the building of the sequence template p and returns the variable
// that holds it (sem's seqBuilder): its elements in order, a repeated one once for
// each element of the sequences its metavariables stand for (of one length, checked
// first), those metavariables bound to each element in turn and given back their
// sequences after; (x ...) is the sequence x stands for.
func (g *gen) instSeq(e *emitter, p *sem.Pattern, at string, bd body, depth int) string {
	so := p.Sort.Sort
	if len(p.Args) == 1 && p.Reps[0].Repeated() && p.Args[0].Kind == sem.PatMeta && len(p.Reps[0].Under) == 1 && p.Reps[0].Under[0].Sort == so {
		return fmt.Sprintf("s%d", p.Args[0].Slot)
	}
	elems := e.tmp("elems")
	e.p("var %s []Val", elems)
	for i, a := range p.Args {
		under := p.Reps[i].Under
		if !p.Reps[i].Repeated() {
			x := g.inst(e, a, at, bd, depth+1)
			e.p("%s = append(%s, %s)", elems, elems, x)
			continue
		}
		if len(under) == 0 {
			continue
		}
		length := e.tmp("length")
		e.p("%s := -1", length)
		for _, u := range under {
			e.p("if ln, ok := seqLen(s%d, %d); !ok {", u.Slot, g.sortOf(u.Sort))
			e.p("err := fmt.Errorf(\"%%s: a metavariable under the ellipsis stands for no sequence\", %s)", posLit(a.P))
			e.p("%s", bd.errRet)
			e.p("} else if %s >= 0 && ln != %s {", length, length)
			e.p("err := fmt.Errorf(\"%%s: the ellipsis repeats over sequences of lengths %%d and %%d\", %s, %s, ln)", posLit(a.P), length)
			e.p("%s", bd.errRet)
			e.p("} else {")
			e.p("%s = ln", length)
			e.p("}")
		}
		cells, saved := make([]string, len(under)), make([]string, len(under))
		for k, u := range under {
			cells[k], saved[k] = e.tmp("cell"), e.tmp("saved")
			e.p("%s, %s := s%d, s%d", cells[k], saved[k], u.Slot, u.Slot)
		}
		e.p("for range %s {", length)
		for k, u := range under {
			e.p("s%d, %s = kid(%s, 0), kid(%s, 1)", u.Slot, cells[k], cells[k], cells[k])
		}
		x := g.inst(e, a, at, bd, depth+1)
		e.p("%s = append(%s, %s)", elems, elems, x)
		e.p("}")
		for k, u := range under {
			e.p("s%d = %s", u.Slot, saved[k])
		}
	}
	x := e.tmp("x")
	e.p("%s := r.seqOf(%d, %s, %s)", x, g.sortOf(so), at, elems)
	return x
}
