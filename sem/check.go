package sem

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The static checks that Generalized Refocusing leaves to proofs, decided on a
// bounded, exhaustive set of closed terms (the small-scope hypothesis): every
// constructor applied, in every way, to representative arguments — integers 0 and 1
// and those the rules name, the variables x and y (and those bound around), and a
// small instance of every constructor and of every pattern of the file (values,
// frames, rules, stuck shapes), so that every pattern meets a term it matches and
// one it does not. A violation is reported at the declaration at fault with the
// first term of the enumeration (smallest first) that witnesses it.

// MaxShapes bounds the terms Check enumerates per constructor: the arguments are
// drawn from fewer representatives (the smallest) until the product fits, and the
// enumeration stops at the bound in any case.
const MaxShapes = 20_000

// seqReps is how many of an element sort's representatives the checks make one-element
// sequences of.
const seqReps = 8

// Check runs the static checks on a parsed language; the error is an
// interderive.ErrorList, each violation positioned with its witness:
//
//   - values and redexes are disjoint: no value of a kind is matched by a rule of that
//     kind (a stuck shape may be broader than the stuck terms, a catch-all: it is
//     consulted only for a non-value that enters no frame and no rule contracts);
//   - decomposition is unique: no term enters two frames of a kind (each with a
//     non-value in its hole), nor a frame and a rule;
//   - the frames' order is a search order: once a frame's hole holds a value, no
//     earlier frame enters the term;
//   - every non-value decomposes: a term that is not a value of a kind enters a frame
//     or is contracted by a rule (a context rule's redex counts), or is a declared
//     stuck shape or answer.
//
// and the binders agree with the rules that use them (checkScopes): a (subst T X V)
// substitutes into a T in the scope of X. (A variable that a right-hand side lets
// escape its binder is a warning: Lint.)
func Check(l *Language) error {
	c := &checker{l: l, e: NewEngine(l, Substitution), reported: map[string]bool{}}
	if so := l.Sorts[0]; !Inhabited(l)[so] {
		// No program: every constructor of the programs' sort needs a term that no
		// finite term is (no base case).
		c.errs.Add(so.P, fmt.Sprintf("sort %s, the programs' sort, has no closed term: each of its constructors has an argument of a sort without one (no base case: an integer, an atom, or a constructor without such an argument)", so.Name))
		return c.errs.Err()
	}
	c.representatives()
	c.checkScopes()
	for _, so := range l.Sorts {
		for _, t := range c.shapes(so) {
			for _, k := range l.Kinds {
				if k.Sort == so {
					c.check(t, k)
				}
			}
		}
	}
	c.errs.Sort()
	return c.errs.Err()
}

type checker struct {
	l        *Language
	e        *Engine // the engine of the checks' matches, one for them all (an engine a match costs an allocation of its size)
	reps     map[*Sort][]*Term
	ints     []int64
	atoms    map[*AtomType][]*Term // each atom type's literals the checks try: its samples, and those the patterns name
	errs     interderive.ErrorList
	warns    []Warning // Lint's
	reported map[string]bool
}

// formatted prints its term when a report prints it.
type formatted struct{ t *Term }

func (f formatted) String() string { return Format(f.t) }

// report adds a violation once per key.
func (c *checker) report(key string, p Pos, format string, args ...any) {
	if c.reported[key] {
		return
	}
	c.reported[key] = true
	if c.l.Nondeterministic && (strings.HasPrefix(key, "frames") || strings.HasPrefix(key, "frame-rule") || strings.HasPrefix(key, "order")) {
		// A non-deterministic file decomposes some terms two ways, on purpose.
		w := p.String() + ": " + fmt.Sprintf(format, args...)
		if strings.Contains(w, "not unique") {
			c.l.Ambiguity = append([]string{w}, c.l.Ambiguity...) // two decompositions: the witness to show first
		} else {
			c.l.Ambiguity = append(c.l.Ambiguity, w)
		}
		return
	}
	c.errs.Add(p, fmt.Sprintf(format, args...))
}

// size is the number of nodes of t.
func size(t *Term) int {
	n := 1
	for _, a := range t.Args {
		n += size(a)
	}
	return n
}

// representatives builds the representative closed terms of every sort, smallest
// first.
func (c *checker) representatives() {
	l := c.l
	ints := map[int64]bool{0: true, 1: true}
	atoms := map[*AtomType][]*Term{} // each type's samples, then the literals the patterns name
	for _, so := range l.Sorts {
		for _, a := range so.Atoms {
			if atoms[a] == nil {
				for _, v := range a.Samples {
					atoms[a] = append(atoms[a], AtomOf(Pos{}, a, v))
				}
			}
		}
	}
	walk := func(p *Pattern) {
		p.preorder(func(q *Pattern) {
			switch q.Kind {
			case PatInt:
				ints[q.N] = true
			case PatAtom:
				if !slices.ContainsFunc(atoms[q.Atom], func(t *Term) bool { return q.Atom.Equal(t.Val, q.Val) }) {
					atoms[q.Atom] = append(atoms[q.Atom], AtomOf(Pos{}, q.Atom, q.Val))
				}
			}
		})
	}
	l.kindPatterns(walk) // a constant of = or != (or of a comparison) too
	for n := range ints {
		c.ints = append(c.ints, n)
	}
	slices.Sort(c.ints)
	c.atoms = atoms
	c.reps = map[*Sort][]*Term{}
	for _, so := range l.Sorts {
		if so.Ints {
			for _, n := range c.ints {
				c.reps[so] = append(c.reps[so], Int(Pos{}, n))
			}
		}
		for _, a := range so.Atoms {
			c.reps[so] = append(c.reps[so], atoms[a]...)
		}
	}
	for range 3 {
		var more []*Term
		for _, con := range l.Cons {
			if t := c.minimal(con); t != nil {
				more = append(more, t)
			}
		}
		for _, k := range l.Kinds {
			for _, v := range k.Values {
				more = append(more, c.instance(v.Pat, nil))
			}
			for _, f := range k.Frames {
				more = append(more, c.instance(f.Pat, f.Hole))
			}
			for _, r := range k.Rules {
				more = append(more, c.instance(r.LHS, nil))
			}
			for _, s := range k.Stucks {
				more = append(more, c.instance(s.Pat, nil))
			}
		}
		for _, so := range l.Sorts {
			// A sequence of each of its element sort's first representatives: a
			// sequence's elements are every term of their sort (seq.go).
			if so.IsSeq() && so.Elem.Kind == ArgTerm {
				for _, t := range c.reps[so.Elem.Sort][:min(len(c.reps[so.Elem.Sort]), seqReps)] {
					more = append(more, SeqOf(so, Pos{}, []*Term{t}, nil))
				}
			}
		}
		for _, t := range more {
			if t != nil {
				c.reps[t.Con.Sort] = append(c.reps[t.Con.Sort], t)
			}
		}
		for so, ts := range c.reps {
			c.reps[so] = dedupe(ts)
		}
	}
}

// dedupe sorts terms smallest first (then by their printing) and drops repeats.
func dedupe(ts []*Term) []*Term {
	type keyed struct {
		t    *Term
		n    int
		text string
	}
	ks := make([]keyed, len(ts))
	for i, t := range ts {
		ks[i] = keyed{t, size(t), Format(t)}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if d := cmp.Compare(a.n, b.n); d != 0 {
			return d
		}
		return cmp.Compare(a.text, b.text)
	})
	out := ts[:0]
	for i, k := range ks {
		if i > 0 && k.text == ks[i-1].text {
			continue
		}
		out = append(out, k.t)
	}
	return out
}

// leaf is the smallest closed term of a sort known so far, or a variable bound
// around (bound), or nil.
func (c *checker) leaf(so *Sort, bound []string) *Term {
	if rs := c.reps[so]; len(rs) > 0 {
		return rs[0]
	}
	if len(bound) > 0 && so.Vars {
		return Var(Pos{}, bound[len(bound)-1])
	}
	return nil
}

// minimal is the smallest instance of a constructor, or nil if its arguments have no
// representative yet.
func (c *checker) minimal(con *Con) *Term {
	args := make([]*Term, len(con.Args))
	for i, a := range con.Args {
		switch a.Kind {
		case ArgVar:
			args[i] = Var(Pos{}, "x")
		case ArgInt:
			args[i] = Int(Pos{}, 0)
		}
	}
	for i, a := range con.Args {
		if a.Kind == ArgTerm {
			var bound []string
			for _, b := range con.scope[i] {
				bound = slices.AppendSeq(bound, BinderNames(args[b]))
			}
			if args[i] = c.leaf(a.Sort, bound); args[i] == nil {
				return nil
			}
		}
	}
	return App(Pos{}, con, args...)
}

// instance is a small closed instance of a pattern: each metavariable the smallest
// term it stands for, a hole the smallest non-value of its kind; nil if there is none
// yet.
func (c *checker) instance(p *Pattern, hole *Kind) *Term {
	var inst func(p *Pattern, so *Sort, bound []string) *Term
	inst = func(p *Pattern, so *Sort, bound []string) *Term {
		switch p.Kind {
		case PatInt:
			return Int(Pos{}, p.N)
		case PatAtom:
			return AtomOf(Pos{}, p.Atom, p.Val)
		case PatHole:
			return c.rep(p.Hole.Sort, func(t *Term) bool { return !c.e.IsValue(t, p.Hole) })
		case PatMeta:
			switch p.Sort.Kind {
			case MetaVar:
				if len(bound) > 0 {
					return Var(Pos{}, bound[len(bound)-1])
				}
				return Var(Pos{}, "x")
			case MetaInt:
				return Int(Pos{}, 0)
			case MetaAtom:
				return c.atoms[p.Sort.Atom][0]
			case MetaValue:
				return c.rep(p.Sort.Sort, func(t *Term) bool { return c.e.IsValue(t, p.Sort.ValuesOf) })
			}
			return c.leaf(p.Sort.Sort, bound)
		case PatSeq: // each element once, a repeated one too
			el := p.Sort.Sort.Elem
			elems := make([]*Term, len(p.Args))
			for i, a := range p.Args {
				if elems[i] = inst(a, el.Sort, bound); elems[i] == nil {
					return nil
				}
			}
			return SeqOf(p.Sort.Sort, Pos{}, elems, nil)
		case PatCon:
			args := make([]*Term, len(p.Args))
			for i, a := range p.Args {
				if p.Con.Args[i].Kind != ArgTerm {
					if args[i] = inst(a, nil, nil); args[i] == nil {
						return nil
					}
				}
			}
			for i, a := range p.Args {
				if p.Con.Args[i].Kind == ArgTerm {
					b := bound
					for _, bi := range p.Con.scope[i] {
						b = slices.AppendSeq(b[:len(b):len(b)], BinderNames(args[bi]))
					}
					if args[i] = inst(a, p.Con.Args[i].Sort, b); args[i] == nil {
						return nil
					}
				}
			}
			return App(Pos{}, p.Con, args...)
		}
		return nil
	}
	t := inst(p, nil, nil)
	if t == nil || t.Op != TermCon {
		return nil
	}
	return t
}

// rep is the first (smallest) representative of the sort so that keep keeps, or nil
// if there is none yet.
func (c *checker) rep(so *Sort, keep func(*Term) bool) *Term {
	for _, t := range c.reps[so] {
		if keep(t) {
			return t
		}
	}
	return nil
}

// shapes are the terms of a sort the checks enumerate: its integers, and every
// constructor applied to representatives in every way, smallest first.
func (c *checker) shapes(so *Sort) []*Term {
	var out []*Term
	if so.Ints {
		for _, n := range c.ints {
			out = append(out, Int(Pos{}, n))
		}
	}
	for _, a := range so.Atoms {
		out = append(out, c.atoms[a]...)
	}
	for _, con := range so.Cons {
		out = append(out, c.applications(con)...)
	}
	return out
}

// applications enumerates con applied to representatives, the first argument varying
// slowest.
func (c *checker) applications(con *Con) []*Term {
	choices := make([][]*Term, len(con.Args))
	limit := len(c.reps[con.Sort]) + 4
	for {
		total := 1
		for i, a := range con.Args {
			switch a.Kind {
			case ArgVar:
				choices[i] = []*Term{Var(Pos{}, "x"), Var(Pos{}, "y")}
			case ArgInt:
				choices[i] = nil
				for _, n := range c.ints {
					choices[i] = append(choices[i], Int(Pos{}, n))
				}
			case ArgTerm:
				rs := c.reps[a.Sort]
				choices[i] = rs[:min(len(rs), limit)]
			}
			total *= max(len(choices[i]), 1) + 2
		}
		if total <= MaxShapes || limit <= 2 {
			break
		}
		limit--
	}
	// The binders and integers first, so that the terms under a binder may use its
	// name.
	var out []*Term
	args := make([]*Term, len(con.Args))
	var order []int
	for i, a := range con.Args {
		if a.Kind != ArgTerm {
			order = append(order, i)
		}
	}
	var binders func(j int)
	binders = func(j int) {
		if j == len(order) {
			enumerateTerms(con, choices, args, 0, &out)
			return
		}
		for _, t := range choices[order[j]] {
			if len(out) >= MaxShapes {
				return
			}
			args[order[j]] = t
			binders(j + 1)
		}
	}
	binders(0)
	return out
}

// enumerateTerms enumerates the term arguments of con (its binders and integers
// already in args), the variables bound around an argument included among its
// choices.
func enumerateTerms(con *Con, choices [][]*Term, args []*Term, i int, out *[]*Term) {
	for i < len(con.Args) && con.Args[i].Kind != ArgTerm {
		i++
	}
	if len(*out) >= MaxShapes {
		return // the bound: the enumeration stops, smallest first
	}
	if i == len(con.Args) {
		*out = append(*out, App(Pos{}, con, slices.Clone(args)...))
		return
	}
	opts := choices[i]
	if con.Args[i].Sort.Vars {
		for _, bi := range con.scope[i] {
			if args[bi].Op == TermVar {
				opts = append(opts[:len(opts):len(opts)], args[bi])
				continue
			}
			for y := range BinderNames(args[bi]) { // a sequence of binders
				opts = append(opts[:len(opts):len(opts)], Var(Pos{}, y))
			}
		}
	}
	for _, t := range opts {
		args[i] = t
		enumerateTerms(con, choices, args, i+1, out)
	}
}

// check runs the checks on one closed term t of kind k.
func (c *checker) check(t *Term, k *Kind) {
	w := formatted{t} // printed only in a report
	isVal := c.e.IsValue(t, k)
	var rule, shaped *Rule // the first rule that contracts t; the first whose redex t is
	for _, i := range k.rules.candidates(t) {
		r := k.Rules[i]
		matched, holds := c.e.redexOf(r, t) // a context rule's redex counts, whatever its conditions say
		if !matched {
			continue
		}
		if shaped == nil {
			shaped = r
		}
		if holds {
			rule = r
			break
		}
	}
	var stuck *Stuck
	for _, i := range k.stucks.candidates(t) {
		if s := k.Stucks[i]; c.e.matches(s.Pat, t, s.Metas) {
			stuck = s
			break
		}
	}
	if isVal && rule != nil {
		c.report("value-rule "+rule.Name+fmt.Sprint(rule.P), rule.P,
			"values and redexes overlap: %s is a value of kind %s and a redex of rule %s", w, k.Name, rule.Name)
	}
	var entered []*Frame
	for _, i := range k.frames.candidates(t) {
		f := k.Frames[i]
		matched, holds := c.e.inFrame(f, t, true)
		if !matched {
			continue
		}
		if holds {
			entered = append(entered, f)
		}
		// The search order: with a value in this frame's hole, no earlier frame
		// enters the term.
		for _, v := range c.reps[f.Hole.Sort] {
			if !c.e.IsValue(v, f.Hole) {
				continue
			}
			t2 := PlugAt(t, f.Path, v)
			for _, e := range k.Frames[:f.Index] {
				if c.e.Enters(t2, e) {
					c.report(fmt.Sprint("order", e.P, f.P), e.P,
						"the frames are not in search order: %s, with the value %s in the hole of the frame at %s, enters this earlier frame; put it after that one",
						Format(t2), Format(v), f.P)
				}
			}
			break
		}
	}
	if len(entered) > 1 {
		c.report(fmt.Sprint("frames", entered[0].P, entered[1].P), entered[1].P,
			"frames overlap, so decomposition is not unique: %s enters both this frame and the frame at %s", w, entered[0].P)
	}
	// A term that enters a frame and is a rule's redex decomposes two ways, whatever
	// the rule's conditions say of this term: other terms of its shape may meet them
	// (the witness is the shape's smallest term, not the one that meets them).
	if len(entered) > 0 && shaped != nil {
		c.report(fmt.Sprint("frame-rule", entered[0].P, shaped.P), shaped.P,
			"a redex decomposes, so decomposition is not unique: %s is a redex of rule %s and enters the frame at %s", w, shaped.Name, entered[0].P)
	}
	if !isVal && len(entered) == 0 && rule == nil && stuck == nil && !c.e.IsAnswer(t, k) {
		key := "cover " + k.Name
		if t.Op == TermCon {
			key += " " + t.Con.Name
		}
		p := k.P
		if t.Op == TermCon {
			p = t.Con.P
		}
		c.report(key, p, "a non-value does not decompose: %s is not a value of kind %s, enters no frame, and no rule contracts it (declare it with (stuck ...) if it is an error by design)", w, k.Name)
	}
}

// Inhabited are the sorts that have a closed term: a least fixed point, from the sorts
// with integers or atoms, adding those with a constructor whose term arguments are of
// sorts that have one, or are in the scope of a binder of their own sort (a variable
// occurrence).
func Inhabited(l *Language) map[*Sort]bool {
	has := map[*Sort]bool{}
	for _, so := range l.Sorts {
		has[so] = so.Ints || len(so.Atoms) > 0
	}
	for changed := true; changed; {
		changed = false
		for _, so := range l.Sorts {
			if has[so] {
				continue
			}
			for _, c := range so.Cons {
				if ConInhabited(c, has) {
					has[so], changed = true, true
					break
				}
			}
		}
	}
	return has
}

// ConInhabited reports whether c has a closed node when the sorts has says have closed
// terms: each term argument of such a sort, or a variable of a binder around it.
func ConInhabited(c *Con, has map[*Sort]bool) bool {
	for i, a := range c.Args {
		if a.Kind != ArgTerm || has[a.Sort] {
			continue
		}
		bound := false
		for _, b := range c.scope[i] {
			bound = bound || binderSort(c.Args[b]) == a.Sort
		}
		if !bound {
			return false
		}
	}
	return true
}
