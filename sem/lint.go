package sem

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/interderive/interderive"
)

// Warning is what the static checks find legal but suspect in a rule file: a
// declaration that can never take effect, or a rule that is wrong on some terms. It
// is positioned at the declaration, with a witness term that shows it.
type Warning struct {
	P       Pos
	Msg     string // what is wrong, the witness included
	Witness string // the witness, printed ("" if there is none)
}

// String is LINE:COL: warning: message.
func (w Warning) String() string { return w.P.String() + ": warning: " + w.Msg }

// FormatWarnings renders warnings for a person, as interderive.Describe renders
// errors: FILE:LINE:COL: warning: message, then the line and a caret, one a
// paragraph; src is the rule file's source.
func FormatWarnings(file string, src []byte, ws []Warning) string {
	var list interderive.ErrorList
	for _, w := range ws {
		list.Add(w.P, "warning: "+w.Msg)
	}
	if len(list) == 0 {
		return ""
	}
	return interderive.Describe(file, src, list)
}

// Lint finds, in a language that Check accepts, what is legal but suspect, in
// source order:
//
//   - a rule that can never fire: an earlier rule of its kind, with no side condition
//     that may fail (a fresh always holds), and whose context fits wherever this one's
//     does, matches every term this one matches (its pattern subsumes this one's);
//   - a stuck shape that can no longer be reached: every term it matches is a value
//     of its kind, or is contracted by a rule with no side condition that may fail,
//     or enters a frame (the subterm at the frame's hole is never a value), or matches
//     an earlier stuck shape of its kind first;
//   - a metavariable that may have a variable free and that a right-hand side puts
//     outside every binder of it (an eta rule without the freshness condition the
//     language cannot state): the contractum may be open (checkScopes).
//
// Subsumption is decided on the patterns, so that every warning is true: a rule
// shadowed by several rules together, each for a part of its terms, is not found.
// Each warning has its witness: the smallest instance of the pattern at fault.
func Lint(l *Language) []Warning {
	c := &checker{l: l, e: NewEngine(l, Substitution), reported: map[string]bool{}}
	c.representatives()
	c.checkScopes()
	c.emptyClasses()
	for _, k := range l.Kinds {
		c.shadowedRules(k)
		c.deadStucks(k)
	}
	slices.SortStableFunc(c.warns, func(a, b Warning) int {
		if d := cmp.Compare(a.P.Line, b.P.Line); d != 0 {
			return d
		}
		return cmp.Compare(a.P.Col, b.P.Col)
	})
	return c.warns
}

// warn adds a warning with its witness.
func (c *checker) warn(p Pos, witness *Term, format string, args ...any) {
	w := Warning{P: p, Msg: fmt.Sprintf(format, args...)}
	if witness != nil {
		w.Witness = FormatShort(witness, 80)
		w.Msg += ", e.g. " + w.Witness
	}
	c.warns = append(c.warns, w)
}

// total reports whether a rule's side conditions always hold: none but fresh.
func total(r *Rule) bool {
	for _, w := range r.Where {
		if w.Kind != CondFresh {
			return false
		}
	}
	return true
}

// contextCovers reports whether the context of rule a fits wherever b's does: a
// rule that is not a context rule fits everywhere; an abort to the root, in every
// non-empty context, so wherever a context rule fits; a delimited rule, wherever a
// delimited rule with a narrower delimiter at the same path fits.
func contextCovers(l *Language, a, b *Rule) bool {
	switch {
	case !a.Context:
		return true
	case !b.Context:
		return false
	case a.Delimiter == nil:
		return true
	case b.Delimiter == nil:
		return false
	}
	return slices.Equal(a.DelimiterPath, b.DelimiterPath) && l.subsumes(a.Delimiter, b.Delimiter, nil)
}

// shadowedRules warns of the rules of k an earlier rule always takes first.
func (c *checker) shadowedRules(k *Kind) {
	if c.l.Nondeterministic {
		return // every rule that matches fires: none shadows another
	}
	for j, r := range k.Rules {
		for _, e := range k.Rules[:j] {
			if !total(e) || !contextCovers(c.l, e, r) || !c.l.subsumes(e.LHS, r.LHS, nil) {
				continue
			}
			w := c.instanceWith(r.LHS, nil)
			if w != nil && !c.e.match(e.LHS, w, make([]*Term, e.Metas)) {
				continue // not so: the subsumption is wrong, and no warning is better
			}
			c.warn(r.P, w, "rule %s can never fire: rule %s at %s, tried first, has no side condition that may fail and matches every term this one matches", r.Name, e.Name, e.P)
			break
		}
	}
}

// deadStucks warns of the stuck shapes of k that no term reaches.
func (c *checker) deadStucks(k *Kind) {
	l := c.l
	for j, s := range k.Stucks {
		why := ""
		for _, v := range k.Values {
			if l.subsumes(v.Pat, s.Pat, nil) {
				why = fmt.Sprintf("every term it matches is a value of kind %s (the value at %s)", k.Name, v.P)
				break
			}
		}
		for _, r := range k.Rules {
			if why == "" && !r.Context && total(r) && l.subsumes(r.LHS, s.Pat, nil) {
				why = fmt.Sprintf("rule %s at %s, which has no side condition that may fail, contracts every term it matches", r.Name, r.P)
			}
		}
		for _, f := range k.Frames {
			if why == "" && l.subsumes(f.Pat, s.Pat, nil) && neverValue(s.Pat, f.Path, f.Hole) {
				why = fmt.Sprintf("every term it matches enters the frame at %s: what is at its hole is never a value of kind %s", f.P, f.Hole.Name)
			}
		}
		for _, e := range k.Stucks[:j] {
			if why == "" && l.subsumes(e.Pat, s.Pat, nil) {
				why = fmt.Sprintf("the stuck shape at %s, tried first, matches every term it matches", e.P)
			}
		}
		if why == "" {
			continue
		}
		w := c.instanceWith(s.Pat, nil)
		if w != nil && c.reaches(w, k, s) {
			continue // not so: the witness is stuck there, and no warning is better
		}
		c.warn(s.P, w, "stuck shape %s can no longer be reached: %s", FormatPattern(s.Pat), why)
	}
}

// reaches reports whether the closed term t, in kind k, is stuck at the stuck shape
// s: not a value, entering no frame, contracted by no rule (a context rule counts as
// not contracting, for it may not fit), and s the first stuck shape it matches.
func (c *checker) reaches(t *Term, k *Kind, s *Stuck) bool {
	e := c.e
	if e.IsValue(t, k) {
		return false
	}
	if _, in := e.Enter(t, k, 0); in {
		return false
	}
	for _, i := range k.rules.candidates(t) {
		if r := k.Rules[i]; !r.Context && r.Layer == nil {
			if _, holds := e.redexOf(r, t); holds {
				return false
			}
		}
	}
	for _, i := range k.stucks.candidates(t) {
		if st := k.Stucks[i]; e.matches(st.Pat, t, st.Metas) {
			return st == s
		}
	}
	return false
}

// neverValue reports whether the subpattern of p at path matches no value of kind h:
// its root is a constructor, or an integer, that no value pattern of h may have.
func neverValue(p *Pattern, path []int, h *Kind) bool {
	for _, i := range path {
		if p.Kind != PatCon {
			return false
		}
		p = p.Args[i]
	}
	switch {
	case p.Kind == PatCon:
		return len(h.values.byCon[p.Con.Index]) == 0
	case p.Kind == PatInt || p.Kind == PatMeta && p.Sort.Kind == MetaInt:
		return len(h.values.ints) == 0
	case p.Kind == PatAtom || p.Kind == PatMeta && p.Sort.Kind == MetaAtom:
		return len(h.values.atoms) == 0
	}
	return false
}

// subsumes reports whether every term q matches, p matches: decided on the
// patterns, true only when it holds (a pair met again on the way, through a
// recursive class, counts as not).
func (l *Language) subsumes(p, q *Pattern, seen map[[2]*Pattern]bool) bool {
	key := [2]*Pattern{p, q}
	if seen[key] {
		return false
	}
	if seen == nil {
		seen = map[[2]*Pattern]bool{}
	}
	seen[key] = true
	defer delete(seen, key)
	// A q that stands for a set of shapes: each must be subsumed.
	if q.Kind == PatMeta && (q.Sort.Kind == MetaValue || q.Sort.Kind == MetaClass) {
		if p.Kind == PatMeta && p.Sort == q.Sort {
			return true
		}
		if p.Kind == PatMeta && p.Sort.Kind == MetaTerm {
			return true
		}
		alts := l.alternatives(q.Sort)
		if len(alts) == 0 {
			return false
		}
		for _, a := range alts {
			if !l.subsumes(p, a, seen) {
				return false
			}
		}
		return true
	}
	switch p.Kind {
	case PatHole:
		return true
	case PatInt:
		return q.Kind == PatInt && q.N == p.N
	case PatAtom:
		return q.Kind == PatAtom && q.Atom == p.Atom && p.Atom.Equal(q.Val, p.Val)
	case PatCon:
		if q.Kind != PatCon || q.Con != p.Con {
			return false
		}
		for i, a := range p.Args {
			if !l.subsumes(a, q.Args[i], seen) {
				return false
			}
		}
		return true
	case PatMeta:
		switch p.Sort.Kind {
		case MetaTerm:
			return true
		case MetaVar:
			return q.Kind == PatMeta && q.Sort.Kind == MetaVar
		case MetaInt:
			return q.Kind == PatInt || q.Kind == PatMeta && q.Sort.Kind == MetaInt
		case MetaAtom:
			return q.Kind == PatAtom && q.Atom == p.Sort.Atom || q.Kind == PatMeta && q.Sort.Kind == MetaAtom && q.Sort.Atom == p.Sort.Atom
		case MetaValue, MetaClass:
			for _, a := range l.alternatives(p.Sort) {
				if l.subsumes(a, q, seen) {
					return true
				}
			}
		}
	}
	return false
}

// alternatives are the patterns a value or class metavariable stands for.
func (l *Language) alternatives(ms MetaSort) []*Pattern {
	var out []*Pattern
	switch ms.Kind {
	case MetaValue:
		for _, v := range ms.ValuesOf.Values {
			out = append(out, v.Pat)
		}
	case MetaClass:
		out = ms.Class.Alts
	}
	return out
}

// LintSummary says how many warnings there are, for a command's report: "1 warning".
func LintSummary(ws []Warning) string {
	if len(ws) == 1 {
		return "1 warning"
	}
	return fmt.Sprintf("%d warnings", len(ws))
}
