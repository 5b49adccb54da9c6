package sem

import (
	"slices"
	"strings"
)

// The reading of patterns, templates and side conditions (Parse).

// cond reads a side condition (where C).
func (p *langParser) cond(s *SExpr, ps *patScope) *Cond {
	if s.Kind != SList || len(s.List) != 2 || s.List[0].Kind != SSym || s.List[0].Sym != "where" ||
		s.List[1].Kind != SList || len(s.List[1].List) == 0 || s.List[1].List[0].Kind != SSym {
		p.errorf(s.P, "expected a side condition, (where (= A B)), (where (!= A B)), (where (prim OP N ...)), (where (fresh X-NEW X T ...)), (where (step KIND A B)), (where (match PATTERN TERM)) or (where (F A ...)), not %s", token(s))
		return nil
	}
	c := s.List[1]
	args := c.List[1:]
	switch op := c.List[0].Sym; op {
	case "=", "!=":
		if len(args) != 2 {
			p.errorf(c.P, "(%s A B) takes 2 arguments, metavariables or integers, not %d", op, len(args))
			return nil
		}
		a, b := p.eqArg(args[0], ps), p.eqArg(args[1], ps)
		if a == nil || b == nil {
			return nil
		}
		if !eqSorts(a, b) {
			p.errorf(c.P, "%s and %s are not of one sort", FormatPattern(a), FormatPattern(b))
			return nil
		}
		k := CondEq
		if op == "!=" {
			k = CondNe
		}
		return &Cond{P: s.P, Kind: k, Args: []*Pattern{a, b}}
	case "prim":
		pr := p.prim(c, true)
		if pr == nil {
			return nil
		}
		pats := p.intArgs(args[1:], ps)
		if pats == nil {
			return nil
		}
		return &Cond{P: s.P, Kind: CondPrim, Prim: pr, Args: pats}
	case "fresh":
		if len(args) < 1 {
			p.errorf(c.P, "%s ends before its X-NEW: expected (fresh X-NEW X T ...), a variable named like X that occurs in no T, or (fresh X-NEW T ...), named like X-NEW's metavariable", token(c))
			return nil
		}
		if len(args) == 1 || args[1].Kind == SSym && !(ps.sorts[args[1].Sym].Kind == MetaVar && ps.slots[args[1].Sym] >= 0 && hasSlot(ps, args[1].Sym)) {
			return p.freshNamed(s, args, ps)
		}
		base := p.boundMeta(args[1], ps)
		if base == nil {
			return nil
		}
		if base.Sort.Kind != MetaVar {
			p.errorf(args[1].P, "%s is not a variable's metavariable: it stands for %s", base.Meta, describeMeta(base.Sort))
			return nil
		}
		out := []*Pattern{nil, base}
		for _, a := range args[2:] {
			m := p.boundMeta(a, ps)
			if m == nil {
				return nil
			}
			out = append(out, m)
		}
		ms, ok := p.metaOf(args[0])
		if !ok || ms.Kind != MetaVar || ms.Sort != base.Sort.Sort {
			p.errorf(args[0].P, "expected a new metavariable of %s's variables, not %s", base.Meta, token(args[0]))
			return nil
		}
		if _, dup := ps.slots[args[0].Sym]; dup {
			p.errorf(args[0].P, "metavariable %s is already bound", args[0].Sym)
			return nil
		}
		ps.slots[args[0].Sym] = len(ps.slots)
		ps.sorts[args[0].Sym] = ms
		out[0] = &Pattern{P: args[0].P, Kind: PatMeta, Meta: args[0].Sym, Sort: ms, Slot: ps.slots[args[0].Sym]}
		return &Cond{P: s.P, Kind: CondFresh, Args: out}
	case "step":
		if len(args) != 3 {
			p.errorf(c.P, "(step ...) takes 3 arguments, not %d: expected (step KIND A B), A, a term of the inner layer KIND, steps by one of its contractions to B", len(args))
			return nil
		}
		k := p.kindArg(args[0])
		if k == nil {
			return nil
		}
		if ps.kind == k {
			p.errorf(args[0].P, "a rule of kind %s steps an inner layer, not its own kind", k.Name)
			return nil
		}
		a := p.boundMeta(args[1], ps)
		if a == nil {
			return nil
		}
		if a.Sort.Sort != k.Sort || family(a.Sort.Kind) != MetaTerm {
			p.errorf(args[1].P, "%s is not a term of %s's sort %s", a.Meta, k.Name, k.Sort.Name)
			return nil
		}
		ms, ok := p.metaOf(args[2])
		if !ok || ms.Kind != MetaTerm || ms.Sort != k.Sort {
			p.errorf(args[2].P, "expected a new metavariable of sort %s's terms, not %s", k.Sort.Name, token(args[2]))
			return nil
		}
		if _, dup := ps.slots[args[2].Sym]; dup {
			p.errorf(args[2].P, "metavariable %s is already bound", args[2].Sym)
			return nil
		}
		ps.slots[args[2].Sym] = len(ps.slots)
		ps.sorts[args[2].Sym] = ms
		b := &Pattern{P: args[2].P, Kind: PatMeta, Meta: args[2].Sym, Sort: ms, Slot: ps.slots[args[2].Sym]}
		return &Cond{P: s.P, Kind: CondStep, Layer: k, Args: []*Pattern{a, b}}
	case "match":
		return p.matchCond(s, c, ps)
	}
	if _, ok := p.l.funcs[c.List[0].Sym]; ok {
		return p.callCond(s, c, ps)
	}
	p.errorf(c.List[0].P, "unknown condition %s: =, !=, prim, fresh, step, match, or a call of a function that gives a boolean", c.List[0].Sym)
	return nil
}

// matchCond reads (where (match P T)): the term T, built as a right-hand side is from
// the metavariables bound so far, matches the pattern P, which binds new ones.
func (p *langParser) matchCond(s, c *SExpr, ps *patScope) *Cond {
	args := c.List[1:]
	if len(args) != 2 {
		p.errorf(c.P, "(match ...) takes 2 arguments, not %d: expected (match PATTERN TERM)", len(args))
		return nil
	}
	so := p.sortOfTemplate(args[1], ps)
	if so == nil {
		return nil
	}
	mode := ps.mode
	ps.mode = patRHS
	t := p.pattern(args[1], Arg{Kind: ArgTerm, Sort: so}, ps)
	ps.mode = patLHS
	pat := p.pattern(args[0], Arg{Kind: ArgTerm, Sort: so}, ps)
	ps.mode = mode
	if t == nil || pat == nil {
		return nil
	}
	return &Cond{P: s.P, Kind: CondMatch, Args: []*Pattern{pat, t}}
}

// sortOfTemplate is the sort of the term a template builds, known from its head: a
// constructor's, a function's result, a bound metavariable's.
func (p *langParser) sortOfTemplate(s *SExpr, ps *patScope) *Sort {
	switch {
	case s.Kind == SSym:
		if ms, ok := ps.sorts[s.Sym]; ok && ms.Sort != nil {
			return ms.Sort
		}
		if _, ok := p.metaOf(s); ok {
			p.errorf(s.P, "metavariable %s is not %s", s.Sym, ps.boundBy())
			return nil
		}
	case s.Kind == SList && len(s.List) > 0 && s.List[0].Kind == SSym:
		h := s.List[0].Sym
		if c, ok := p.l.cons[h]; ok {
			return c.Sort
		}
		if f, ok := p.l.funcs[h]; ok && f.Result.Sort != nil {
			return f.Result.Sort
		}
		if h == "subst" && len(s.List) == 4 {
			return p.sortOfTemplate(s.List[1], ps)
		}
	}
	p.errorf(s.P, "%s: expected a term whose sort its head tells, a constructor's, a function's call or a bound metavariable", token(s))
	return nil
}

// callCond reads (where (F A ...)): the call of a function (or hook) whose result is
// a boolean atom holds when it gives true.
func (p *langParser) callCond(s, c *SExpr, ps *patScope) *Cond {
	f := p.l.funcs[c.List[0].Sym]
	if f.Result.Kind != ArgTerm || !slices.Contains(f.Result.Sort.Atoms, BoolAtom) {
		p.errorf(c.List[0].P, "%s gives %s, not a boolean: a condition (F A ...) calls a function whose result sort has (atom bool ...)", f.Name, describe(f.Result))
		return nil
	}
	mode := ps.mode
	ps.mode = patRHS
	call := p.pattern(c, f.Result, ps)
	ps.mode = mode
	if call == nil {
		return nil
	}
	return &Cond{P: s.P, Kind: CondCall, Args: []*Pattern{call}}
}

// eqArg reads an argument of = or !=: a bound metavariable, or an integer (a
// constant).
func (p *langParser) eqArg(s *SExpr, ps *patScope) *Pattern {
	if s.Kind == SInt {
		return &Pattern{P: s.P, Kind: PatInt, N: s.N}
	}
	return p.boundMeta(s, ps)
}

// eqSorts reports whether = and != may compare a and b: two metavariables of one
// sort and family (names, integers, terms), or an integer and a metavariable that
// may stand for one (of integers, or of terms of a sort with integers).
func eqSorts(a, b *Pattern) bool {
	if a.Kind == PatInt {
		a, b = b, a
	}
	if b.Kind == PatInt {
		switch {
		case a.Kind == PatInt:
			return true
		case a.Sort.Kind == MetaInt:
			return true
		}
		return family(a.Sort.Kind) == MetaTerm && a.Sort.Sort.Ints
	}
	return family(a.Sort.Kind) == family(b.Sort.Kind) && a.Sort.Sort == b.Sort.Sort
}

// family groups the metavariable kinds compared by = and !=: names, integers, terms.
func family(k MetaKind) MetaKind {
	if k == MetaValue || k == MetaClass || k == MetaAtom {
		return MetaTerm
	}
	return k
}

// boundMeta reads a metavariable that the left-hand side (or a fresh) bound.
func (p *langParser) boundMeta(s *SExpr, ps *patScope) *Pattern {
	if s.Kind != SSym {
		p.errorf(s.P, "expected a metavariable, not %s", token(s))
		return nil
	}
	slot, ok := ps.slots[s.Sym]
	if !ok {
		p.errorf(s.P, "metavariable %s is not %s", s.Sym, ps.boundBy())
		return nil
	}
	return &Pattern{P: s.P, Kind: PatMeta, Meta: s.Sym, Sort: ps.sorts[s.Sym], Slot: slot}
}

// prim reads the name of a δ-hook: a comparison (test) or an integer operation.
func (p *langParser) prim(c *SExpr, test bool) *Prim {
	if len(c.List) < 2 || c.List[1].Kind != SSym {
		p.errorf(c.P, "expected (prim OP ARG ...), OP one of %s, not %s", strings.Join(p.l.hooks.PrimNames(), ", "), token(c))
		return nil
	}
	pr, ok := p.l.hooks.Prim(c.List[1].Sym)
	if !ok {
		p.errorf(c.List[1].P, "unknown prim %s: one of %s", c.List[1].Sym, strings.Join(p.l.hooks.PrimNames(), ", "))
		return nil
	}
	if pr.Test != test {
		what := "an integer operation, for right-hand sides"
		if pr.Test {
			what = "a comparison, for side conditions"
		}
		p.errorf(c.List[1].P, "prim %s is %s", pr.Name, what)
		return nil
	}
	if len(c.List)-2 != pr.Arity {
		p.errorf(c.P, "prim %s takes %d arguments, not %d", pr.Name, pr.Arity, len(c.List)-2)
		return nil
	}
	return pr
}

// intArgs reads the integer arguments of a prim.
func (p *langParser) intArgs(args []*SExpr, ps *patScope) []*Pattern {
	out := make([]*Pattern, len(args))
	for i, a := range args {
		out[i] = p.pattern(a, Arg{Kind: ArgInt}, ps)
		if out[i] == nil {
			return nil
		}
	}
	return out
}

// hasSlot reports whether the metavariable name is bound in ps.
func hasSlot(ps *patScope, name string) bool { _, ok := ps.slots[name]; return ok }

// freshNamed reads (fresh X-NEW T ...): X-NEW bound to a variable named like its
// metavariable (x for x_k), primed until it occurs in no T (Redex's (fresh x), which
// a rule needs to make a binder its left-hand side has no variable to prime for). Its
// base is a PatMeta with no slot, Meta the name.
func (p *langParser) freshNamed(s *SExpr, args []*SExpr, ps *patScope) *Cond {
	ms, ok := p.metaOf(args[0])
	if !ok || ms.Kind != MetaVar {
		p.errorf(args[0].P, "expected a new metavariable of a sort's variables, not %s", token(args[0]))
		return nil
	}
	if hasSlot(ps, args[0].Sym) {
		p.errorf(args[0].P, "metavariable %s is already bound", args[0].Sym)
		return nil
	}
	base, _, _ := strings.Cut(args[0].Sym, "_")
	out := []*Pattern{nil, {P: args[0].P, Kind: PatMeta, Meta: base, Sort: ms, Slot: -1}}
	for _, a := range args[1:] {
		m := p.boundMeta(a, ps)
		if m == nil {
			return nil
		}
		out = append(out, m)
	}
	ps.slots[args[0].Sym] = len(ps.slots)
	ps.sorts[args[0].Sym] = ms
	out[0] = &Pattern{P: args[0].P, Kind: PatMeta, Meta: args[0].Sym, Sort: ms, Slot: ps.slots[args[0].Sym]}
	return &Cond{P: s.P, Kind: CondFresh, Args: out}
}

// patMode says where a pattern is.
type patMode uint8

const (
	patValue patMode = iota
	patFrame
	patLHS
	patCond
	patRHS
)

// patScope is what a pattern's reading knows: where it is, and the metavariables bound
// so far with their slots.
type patScope struct {
	mode  patMode
	kind  *Kind
	slots map[string]int
	sorts map[string]MetaSort
	holes int
	// unbound says what binds the metavariables, for an error that met an unbound
	// one ("" for a rule's: the left-hand side).
	unbound string
	// captured is the name of the context a rule captures, "" if none; captureSort
	// the sort of the terms (in-hole C t) builds; plugged, that one does.
	captured    string
	captureSort *Sort
	plugged     bool
	// same: a delimiter's pattern, read after the redex, where a metavariable the
	// redex bound is one the frame must equal (PatSame).
	same bool
	// depth is 1 under an ellipsis (seq.go), and depths the metavariables bound under
	// one, with seqs the sequence sort each stands for (by slot); under
	// collect the repeated element's as it is read.
	depth  int
	inSeq  int // inside a sequence's pattern
	depths map[string]int
	seqs   map[int]*Sort
	under  []SeqVar
}

// boundBy says what binds a metavariable where ps reads, for an error.
func (ps *patScope) boundBy() string {
	if ps.unbound != "" {
		return ps.unbound
	}
	return "bound by the left-hand side"
}

func newPatScope(mode patMode, k *Kind) *patScope {
	return &patScope{mode: mode, kind: k, slots: map[string]int{}, sorts: map[string]MetaSort{}}
}

// metaOf resolves a symbol to a metavariable: its base name (before the first _) is
// a declared metavariable name.
func (p *langParser) metaOf(s *SExpr) (MetaSort, bool) {
	if s.Kind != SSym {
		return MetaSort{}, false
	}
	base, sub, hasSub := strings.Cut(s.Sym, "_")
	if hasSub && sub == "" {
		return MetaSort{}, false
	}
	ms, ok := p.l.metas[base]
	return ms, ok
}

// fits reports whether a metavariable of sort ms may stand in a position of sort a.
func fits(ms MetaSort, a Arg) bool {
	if ms.Sort != a.Sort && a.Sort != nil {
		return false
	}
	switch a.Kind {
	case ArgVar:
		return ms.Kind == MetaVar
	case ArgInt:
		return ms.Kind == MetaInt
	}
	return true // a term position takes terms, values, variables (occurrences), integers and atoms
}

func describe(a Arg) string {
	switch a.Kind {
	case ArgVar:
		return "a variable of sort " + a.Sort.Name
	case ArgInt:
		if a.Sort == nil {
			return "an integer"
		}
		return "an integer of sort " + a.Sort.Name
	}
	return "a term of sort " + a.Sort.Name
}

// pattern reads a pattern in a position of sort a. Left-hand sides (and values, frames,
// stuck shapes) bind their metavariables, each once (linear patterns); right-hand
// sides use only bound ones.
func (p *langParser) pattern(s *SExpr, a Arg, ps *patScope) *Pattern {
	if a.Kind == ArgTerm {
		if at, v, ok := a.Sort.readAtom(s); ok {
			if _, meta := p.metaOf(s); !meta {
				return &Pattern{P: s.P, Kind: PatAtom, Atom: at, Val: v}
			}
		}
	}
	switch s.Kind {
	case SStr:
		p.errorf(s.P, "%s: a string is not a pattern here (a stuck shape's reason is a string, and a string atom in a sort with (atom string ...))", token(s))
		return nil
	case SInt:
		if a.Kind == ArgVar || a.Kind == ArgTerm && !a.Sort.Ints {
			p.errorf(s.P, "expected %s, not an integer", describe(a))
			return nil
		}
		return &Pattern{P: s.P, Kind: PatInt, N: s.N}
	case SSym:
		ms, ok := p.metaOf(s)
		if !ok {
			p.errorf(s.P, "%s is not a metavariable (a declared metavariable name, with an optional _subscript)", s.Sym)
			return nil
		}
		if !fits(ms, a) {
			p.errorf(s.P, "metavariable %s stands for %s, here is expected %s", s.Sym, describeMeta(ms), describe(a))
			return nil
		}
		slot, bound := ps.slots[s.Sym]
		switch ps.mode {
		case patRHS, patCond:
			if !bound {
				p.errorf(s.P, "metavariable %s is not %s", s.Sym, ps.boundBy())
				return nil
			}
			if bs := ps.sorts[s.Sym]; bs != ms {
				p.errorf(s.P, "metavariable %s is bound to %s", s.Sym, describeMeta(bs))
				return nil
			}
			if !p.seqMeta(s, slot, false, a, ps) {
				return nil
			}
		default:
			if bound && (ps.same || ps.inSeq > 0 && ps.depths[s.Sym] == 0) {
				// A delimiter's metavariable bound by the redex: the delimiter matches a
				// frame whose term there equals it (a prompt's label). In a sequence, a
				// metavariable bound outside it: the sequence's elements that match are
				// those with an equal term there (Redex's non-linear patterns, as in
				// (lookup ((x_1 v_1) ... (x v) (x_2 v_2) ...) x)), the search going on
				// past an element whose term differs (seq.go).
				if bs := ps.sorts[s.Sym]; bs != ms {
					p.errorf(s.P, "metavariable %s is bound to %s", s.Sym, describeMeta(bs))
					return nil
				}
				p.l.readsUnbound = true
				return &Pattern{P: s.P, Kind: PatSame, Meta: s.Sym, Sort: ms, Slot: slot}
			}
			if bound {
				p.errorf(s.P, "metavariable %s occurs twice: patterns are linear (compare with (where (= A B)))", s.Sym)
				return nil
			}
			slot = len(ps.slots)
			ps.slots[s.Sym] = slot
			ps.sorts[s.Sym] = ms
			p.seqMeta(s, slot, true, a, ps)
		}
		return &Pattern{P: s.P, Kind: PatMeta, Meta: s.Sym, Sort: ms, Slot: slot}
	}
	if a.Kind == ArgTerm && a.Sort.IsSeq() && !(len(s.List) > 0 && s.List[0].Kind == SSym && (p.l.funcs[s.List[0].Sym] != nil || s.List[0].Sym == "in-hole")) {
		return p.seqPattern(s, a, ps)
	}
	if len(s.List) == 0 || s.List[0].Kind != SSym {
		p.errorf(s.P, "expected (CONSTRUCTOR PATTERN ...), not %s", token(s))
		return nil
	}
	head := s.List[0].Sym
	args := s.List[1:]
	switch head {
	case "hole":
		if ps.mode != patFrame {
			p.errorf(s.P, "a hole is only in a frame")
			return nil
		}
		if a.Kind != ArgTerm {
			p.errorf(s.P, "expected %s, not a hole", describe(a))
			return nil
		}
		hk := ps.kind
		if len(args) > 1 {
			p.errorf(args[1].P, "unexpected %s: expected (hole [KIND])", token(args[1]))
			return nil
		}
		if len(args) == 1 {
			if hk = p.kindArg(args[0]); hk == nil {
				return nil
			}
		}
		if hk.Sort != a.Sort {
			p.errorf(s.P, "the hole's kind %s is of sort %s, here is expected %s", hk.Name, hk.Sort.Name, describe(a))
			return nil
		}
		ps.holes++
		return &Pattern{P: s.P, Kind: PatHole, Hole: hk}
	case "in-hole":
		if ps.mode != patRHS || ps.captured == "" {
			p.errorf(s.P, "(in-hole C t) is only in the right-hand side of a rule that captures the context C, (context [DELIMITER] C REDEX)")
			return nil
		}
		if len(args) != 2 || args[0].Kind != SSym || args[0].Sym != ps.captured {
			p.errorf(s.P, "expected (in-hole %s t), the context the rule captures and a term, not %s", ps.captured, token(s))
			return nil
		}
		if a.Kind != ArgTerm || a.Sort != ps.captureSort {
			p.errorf(s.P, "(in-hole %s t) is a term of sort %s, here is expected %s", ps.captured, ps.captureSort.Name, describe(a))
			return nil
		}
		t := p.pattern(args[1], Arg{Kind: ArgTerm, Sort: ps.kind.Sort}, ps)
		if t == nil {
			return nil
		}
		ps.plugged = true
		return &Pattern{P: s.P, Kind: PatPlug, Slot: ps.slots[ps.captured], Meta: ps.captured, Args: []*Pattern{t}}
	case "subst":
		if ps.mode != patRHS {
			p.errorf(s.P, "subst is only in a right-hand side")
			return nil
		}
		if a.Kind != ArgTerm || len(args) != 3 {
			p.errorf(s.P, "expected (subst TERM VARIABLE TERM), a term, not %s", token(s))
			return nil
		}
		t := p.pattern(args[0], a, ps)
		x := p.pattern(args[1], Arg{Kind: ArgVar, Sort: a.Sort}, ps)
		v := p.pattern(args[2], a, ps)
		if t == nil || x == nil || v == nil {
			return nil
		}
		return &Pattern{P: s.P, Kind: PatSubst, Args: []*Pattern{t, x, v}}
	case "prim":
		if ps.mode != patRHS {
			p.errorf(s.P, "an integer prim is only in a right-hand side (a comparison is a (where (prim ...)))")
			return nil
		}
		if a.Kind == ArgVar || a.Kind == ArgTerm && !a.Sort.Ints {
			p.errorf(s.P, "expected %s, not an integer", describe(a))
			return nil
		}
		pr := p.prim(s, false)
		if pr == nil {
			return nil
		}
		pats := p.intArgs(args[1:], ps)
		if pats == nil {
			return nil
		}
		return &Pattern{P: s.P, Kind: PatPrim, Prim: pr, Args: pats}
	}
	if f, ok := p.l.funcs[head]; ok {
		if ps.mode != patRHS && ps.mode != patCond {
			p.errorf(s.P, "a call of function %s is only in a right-hand side or a prim's argument", head)
			return nil
		}
		// A prim's argument (an integer of no sort) takes any function whose result is
		// an integer.
		// an integer, and a term of a sort with integers any function whose result is an
		// integer of that sort.
		primArg := a.Kind == ArgInt && a.Sort == nil && f.Result.Kind == ArgInt
		intTerm := a.Kind == ArgTerm && f.Result.Kind == ArgInt && f.Result.Sort == a.Sort
		if !primArg && !intTerm && (a.Kind == ArgVar || f.Result.Sort != a.Sort || (f.Result.Kind == ArgInt) != (a.Kind == ArgInt)) {
			p.errorf(s.P, "expected %s, not a call of %s (%s)", describe(a), head, describe(f.Result))
			return nil
		}
		if len(args) != len(f.Params) {
			p.errorf(s.P, "%s takes %d arguments, not %d", head, len(f.Params), len(args))
			return nil
		}
		out := &Pattern{P: s.P, Kind: PatCall, Fn: f, Args: make([]*Pattern, len(args))}
		for i, x := range args {
			if out.Args[i] = p.pattern(x, f.Params[i], ps); out.Args[i] == nil {
				return nil
			}
		}
		return out
	}
	c, ok := p.l.cons[head]
	if !ok {
		p.errorf(s.List[0].P, "unknown constructor %s", head)
		return nil
	}
	if a.Kind != ArgTerm || c.Sort != a.Sort {
		p.errorf(s.P, "expected %s, not a %s", describe(a), c.Name)
		return nil
	}
	if len(args) != len(c.Args) {
		p.errorf(s.P, "%s takes %d arguments, not %d", c.Name, len(c.Args), len(args))
		return nil
	}
	out := &Pattern{P: s.P, Kind: PatCon, Con: c, Args: make([]*Pattern, len(args))}
	// The arguments with an ellipsis are read, and matched, after the others: a
	// metavariable that occurs in both is bound outside the sequence and compared in
	// it (seq.go).
	if out.Order = ellipsesLast(args); out.Order == nil {
		for i, x := range args {
			if out.Args[i] = p.pattern(x, c.Args[i], ps); out.Args[i] == nil {
				return nil
			}
		}
		return out
	}
	for _, i := range out.Order {
		if out.Args[i] = p.pattern(args[i], c.Args[i], ps); out.Args[i] == nil {
			return nil
		}
	}
	return out
}

func describeMeta(ms MetaSort) string {
	switch ms.Kind {
	case MetaVar:
		return "a variable of sort " + ms.Sort.Name
	case MetaInt:
		return "an integer of sort " + ms.Sort.Name
	case MetaValue:
		return "a value of kind " + ms.ValuesOf.Name
	case MetaClass:
		return "a term of class " + ms.Class.Name
	case MetaAtom:
		return "an atom " + ms.Atom.Name + " of sort " + ms.Sort.Name
	}
	return "a term of sort " + ms.Sort.Name
}
