package sem

import (
	"slices"
	"strings"
	"sync"

	"github.com/interderive/interderive"
)

// reserved are the words a rule file gives a meaning: they name no sort, constructor,
// kind or metavariable.
var reserved = []string{"hole", "subst", "prim", "where", "fresh", "=", "!=", "bind", "step", "context", "in-hole"}

// Parse reads a rule file into a language, checking its syntax, its names, and that
// its patterns are linear and well-sorted and its right-hand sides use only bound
// metavariables. It does not run the static checks of decomposition (Check does;
// Load does both). It never panics; on failure the error is an interderive.ErrorList
// in source order.
func Parse(src []byte) (*Language, error) { return parseWith(src, DefaultHooks()) }

func parseWith(src []byte, h *Hooks) (*Language, error) {
	ss, err := ReadSExprs(src)
	if err != nil {
		return nil, err
	}
	p := &langParser{l: &Language{src: src, hooks: h, engines: new(sync.Pool), cons: map[string]*Con{}, kinds: map[string]*Kind{}, funcs: map[string]*Function{}, metas: map[string]MetaSort{}}, sorts: map[string]*Sort{}}
	p.parse(ss)
	if len(p.errs) > 0 {
		p.errs.Sort()
		return nil, p.errs
	}
	return p.l, nil
}

// Load parses a rule file and runs the static checks (Check).
func Load(src []byte) (*Language, error) {
	l, err := Parse(src)
	if err != nil {
		return nil, err
	}
	if err := Check(l); err != nil {
		return nil, err
	}
	return l, nil
}

type langParser struct {
	l     *Language
	sorts map[string]*Sort
	errs  interderive.ErrorList
	// unbound and items are checked once every sort is read (checkItems).
	unbound []conArg
	items   []conArg
}

func (p *langParser) errorf(pos Pos, format string, args ...any) {
	p.errs = append(p.errs, interderive.Errorf(pos, format, args...))
}

// head returns a declaration's keyword, or "" (and reports it) if s is not a list
// starting with a symbol.
func (p *langParser) head(s *SExpr) string {
	if s.Kind != SList || len(s.List) == 0 || s.List[0].Kind != SSym {
		p.errorf(s.P, "expected a declaration, (KEYWORD ...) with KEYWORD one of %s, not %s", declarationWords(), token(s))
		return ""
	}
	return s.List[0].Sym
}

// name checks that s is a symbol usable as a name and returns it.
func (p *langParser) name(s *SExpr, what string) (string, bool) {
	if s.Kind != SSym {
		p.errorf(s.P, "expected %s, a symbol, not %s", what, token(s))
		return "", false
	}
	if slices.Contains(reserved, s.Sym) {
		p.errorf(s.P, "%s is a reserved word, not %s (the reserved words: %s)", s.Sym, what, reservedWords())
		return "", false
	}
	return s.Sym, true
}

// meta declares a metavariable base name.
func (p *langParser) meta(s *SExpr, ms MetaSort) string {
	n, ok := p.name(s, "a metavariable name")
	if !ok {
		return ""
	}
	if strings.Contains(n, "_") {
		p.errorf(s.P, "%s: a metavariable name has no _ (t_1 is the metavariable t with subscript 1)", n)
		return ""
	}
	if _, dup := p.l.metas[n]; dup {
		p.errorf(s.P, "metavariable %s declared twice", n)
		return ""
	}
	p.l.metas[n] = ms
	return n
}

func (p *langParser) parse(ss []*SExpr) {
	// Pass 1: the language's name, the sorts and their metavariables, the kinds.
	for _, s := range ss {
		switch p.head(s) {
		case "language":
			if p.l.Name != "" {
				p.errorf(s.P, "a second (language ...): the language is %s", p.l.Name)
			} else if p.form(s, 2, 2, "(language NAME)") {
				if s.List[1].Kind != SSym {
					p.errorf(s.List[1].P, "expected the language's name, a symbol, not %s", token(s.List[1]))
				} else {
					p.l.Name, p.l.P = s.List[1].Sym, s.P
				}
			}
		case "sort":
			p.sortHeader(s)
		case "nondeterministic":
			if p.form(s, 1, 1, "(nondeterministic)") {
				p.l.Nondeterministic = true
			}
		case "kind", "class", "function", "hook", "judgment", "typing", "property", "value", "normal-forms", "frame", "rule", "stuck", "answer", "notation", "":
		default:
			p.errorf(s.List[0].P, "unknown declaration %s: expected %s", s.List[0].Sym, declarationWords())
		}
	}
	if p.l.Name == "" {
		p.errorf(Pos{Line: 1, Col: 1}, "no (language NAME) declaration")
	}
	if len(p.l.Sorts) == 0 {
		p.errorf(Pos{Line: 1, Col: 1}, "no (sort ...) declaration")
		return
	}
	for _, s := range ss {
		if s.Kind == SList && len(s.List) > 0 && s.List[0].Kind == SSym && s.List[0].Sym == "kind" {
			p.kind(s)
		}
	}
	if len(p.l.Kinds) == 0 {
		p.errorf(Pos{Line: 1, Col: 1}, "no (kind ...) declaration")
		return
	}
	// Pass 2: the constructors, then the classes' and functions' names.
	for _, s := range ss {
		if s.Kind == SList && len(s.List) > 0 && s.List[0].Kind == SSym && s.List[0].Sym == "sort" {
			p.sortBody(s)
		}
	}
	p.checkItems()
	if len(p.errs) > 0 {
		return
	}
	classes := map[*SExpr]*Class{}
	funcs := map[*SExpr]*Function{}
	judgments := map[*SExpr]*Judgment{}
	propertyDecls := map[*SExpr]*SExpr{} // a property's declaration, as the judgment it stands for
	for _, s := range ss {
		if s.Kind == SList && len(s.List) > 0 && s.List[0].Kind == SSym {
			switch s.List[0].Sym {
			case "class":
				if c := p.classHeader(s); c != nil {
					classes[s] = c
				}
			case "function":
				if f := p.functionHeader(s); f != nil {
					funcs[s] = f
				}
			case "hook":
				p.hookHeader(s)
			case "judgment":
				if j := p.judgmentHeader(s); j != nil {
					judgments[s] = j
				}
			case "property":
				// A property of the file's own is a judgment of its own.
				if decl := p.propertyHeader(s); decl != nil {
					if j := p.judgmentHeader(decl); j != nil {
						judgments[s] = j
						propertyDecls[s] = decl
					}
				}
			}
		}
	}
	if len(p.errs) > 0 {
		return
	}
	// Pass 3: classes, functions, values, frames, rules, stuck shapes, answers.
	for _, s := range ss {
		if c := classes[s]; c != nil {
			p.classBody(c, s)
		}
		if f := funcs[s]; f != nil {
			p.functionBody(f, s)
		}
	}
	for _, s := range ss {
		if j := judgments[s]; j != nil {
			if decl := propertyDecls[s]; decl != nil {
				s = decl
			}
			p.judgmentBody(j, s)
		}
	}
	for _, s := range ss {
		if s.Kind == SList && len(s.List) > 0 && isSym(s.List[0], "typing") {
			p.typing(s)
		}
	}
	p.checkProperties()
	for _, s := range ss {
		if s.Kind != SList || len(s.List) == 0 || s.List[0].Kind != SSym {
			continue
		}
		switch s.List[0].Sym {
		case "answer":
			p.answer(s)
		case "value":
			p.value(s)
		case "normal-forms":
			p.normalForms(s)
		case "frame":
			p.frame(s)
		case "rule":
			p.rule(s)
		case "stuck":
			p.stuck(s)
		}
	}
	p.notations(ss) // notation.go: render's typesetting of constructors
	p.checkNormalForms()
	if len(p.errs) == 0 {
		p.l.buildIndexes()
		p.l.groundSorts()
		p.l.stage()
		p.l.unqualified = p.l.qualify()
	}
}

// classRoots are the roots a term of the class c may have: integers, variables, and
// the constructors (by index) its alternatives put at the root, through the classes
// they name. A term or value metavariable at an alternative's root may be anything.
func (l *Language) classRoots(c *Class, seen map[*Class]bool) (ints, vars bool, cons map[int]bool) {
	cons = map[int]bool{}
	if seen[c] {
		return false, false, cons
	}
	seen[c] = true
	for _, p := range c.Alts {
		switch {
		case p.Kind == PatCon:
			cons[p.Con.Index] = true
		case p.Kind == PatInt || p.Kind == PatMeta && p.Sort.Kind == MetaInt,
			p.Kind == PatAtom || p.Kind == PatMeta && p.Sort.Kind == MetaAtom:
			ints = true // the roots that are literals: integers and atoms
		case p.Kind == PatMeta && p.Sort.Kind == MetaVar:
			vars = true
		case p.Kind == PatMeta && p.Sort.Kind == MetaClass:
			i, v, cs := l.classRoots(p.Sort.Class, seen)
			ints, vars = ints || i, vars || v
			for k := range cs {
				cons[k] = true
			}
		default:
			ints, vars = true, true
			for k := range l.Cons {
				cons[k] = true
			}
		}
	}
	return ints, vars, cons
}

// kind declares a context kind (kind NAME VALUE-META [SORT]).
func (p *langParser) kind(s *SExpr) {
	if !p.form(s, 3, 4, "(kind NAME VALUE-METAVARIABLE [SORT])") {
		return
	}
	n, ok := p.name(s.List[1], "the kind's name")
	if !ok {
		return
	}
	if _, dup := p.l.kinds[n]; dup {
		p.errorf(s.List[1].P, "kind %s declared twice", n)
		return
	}
	so := p.l.Sorts[0]
	if len(s.List) == 4 {
		if s.List[3].Kind != SSym || p.sorts[s.List[3].Sym] == nil {
			p.errorf(s.List[3].P, "expected the kind's sort, a sort's name, not %s (%s)", token(s.List[3]), p.sortNames())
			return
		}
		so = p.sorts[s.List[3].Sym]
	}
	k := &Kind{Name: n, P: s.P, Sort: so, Index: len(p.l.Kinds)}
	k.Meta = p.meta(s.List[2], MetaSort{Kind: MetaValue, Sort: so, ValuesOf: k})
	p.l.kinds[n] = k
	p.l.Kinds = append(p.l.Kinds, k)
}

// kindArg reads the kind a declaration is of.
func (p *langParser) kindArg(s *SExpr) *Kind {
	if s.Kind == SSym {
		if k, ok := p.l.kinds[s.Sym]; ok {
			return k
		}
	}
	p.errorf(s.P, "expected a context kind's name, not %s (%s)", token(s), p.kindNames())
	return nil
}

// kindPattern reads a declaration (WORD KIND PATTERN): its kind, and its pattern read
// in mode (nil, with the error reported, if either is wrong); usage is the form an
// error shows.
func (p *langParser) kindPattern(s *SExpr, usage string, mode patMode) (*Kind, *Pattern, *patScope) {
	if !p.form(s, 3, 3, usage) {
		return nil, nil, nil
	}
	k := p.kindArg(s.List[1])
	if k == nil {
		return nil, nil, nil
	}
	ps := newPatScope(mode, k)
	return k, p.pattern(s.List[2], Arg{Kind: ArgTerm, Sort: k.Sort}, ps), ps
}

// value reads (value KIND PATTERN).
func (p *langParser) value(s *SExpr) {
	k, pat, ps := p.kindPattern(s, "(value KIND PATTERN)", patValue)
	if pat == nil {
		return
	}
	if pat.Kind == PatMeta && pat.Sort.Kind == MetaValue {
		p.errorf(s.List[2].P, "%s: a value pattern is more than a value metavariable", token(s.List[2]))
		return
	}
	k.Values = append(k.Values, &Value{P: s.P, Kind: k, Pat: pat, Metas: len(ps.slots)})
}

// checkNormalForms refuses value patterns and stuck shapes of a kind whose values
// are its normal forms: a term in which its search finds no redex is a value.
func (p *langParser) checkNormalForms() {
	for _, k := range p.l.Kinds {
		if !k.NormalForms {
			continue
		}
		for _, v := range k.Values {
			p.errorf(v.P, "kind %s's values are its normal forms (normal-forms %s): it declares no value pattern", k.Name, k.Name)
		}
		for _, st := range k.Stucks {
			p.errorf(st.P, "kind %s's values are its normal forms (normal-forms %s): a term in which no rule applies is a value, not stuck", k.Name, k.Name)
		}
	}
}

// normalForms reads (normal-forms KIND): the kind's values are its normal forms.
func (p *langParser) normalForms(s *SExpr) {
	if !p.form(s, 2, 2, "(normal-forms KIND)") {
		return
	}
	k := p.kindArg(s.List[1])
	if k == nil {
		return
	}
	if k.NormalForms {
		p.errorf(s.P, "(normal-forms %s) declared twice", k.Name)
	}
	k.NormalForms = true
}

// frame reads (frame KIND PATTERN), the pattern with one (hole [KIND]).
func (p *langParser) frame(s *SExpr) {
	k, pat, ps := p.kindPattern(s, "(frame KIND PATTERN): a pattern with one (hole [KIND])", patFrame)
	if pat == nil {
		return
	}
	if pat.Kind != PatCon {
		p.errorf(s.List[2].P, "expected a constructor around the hole, not %s: a frame is a constructor around its hole", token(s.List[2]))
		return
	}
	if ps.holes != 1 {
		p.errorf(s.List[2].P, "a frame has exactly one hole, not %d", ps.holes)
		return
	}
	written := pat
	pat, seq := p.seqFrame(k, pat, ps, s.List[2])
	if pat == nil {
		return
	}
	f := &Frame{P: s.P, Kind: k, Pat: pat, Metas: len(ps.slots) + 1, HoleSlot: len(ps.slots), Index: len(k.Frames)}
	if seq != nil {
		f.written, seq.Seq = written, f
	}
	f.Path, f.Hole = holePath(pat)
	setHoleSlot(pat, f.HoleSlot)
	k.Frames = append(k.Frames, f)
}

// holePath finds the hole of a frame's pattern: the path of argument indices to it.
func holePath(pat *Pattern) ([]int, *Kind) {
	var path []int
	for pat.Kind == PatCon {
		found := false
		for i, a := range pat.Args {
			if containsHole(a) {
				path, pat, found = append(path, i), a, true
				break
			}
		}
		if !found {
			return nil, nil
		}
	}
	return path, pat.Hole
}

func containsHole(pat *Pattern) bool {
	if pat.Kind == PatHole {
		return true
	}
	for _, a := range pat.Args {
		if containsHole(a) {
			return true
		}
	}
	return false
}

func setHoleSlot(pat *Pattern, slot int) {
	if pat.Kind == PatHole {
		pat.Slot = slot
	}
	for _, a := range pat.Args {
		setHoleSlot(a, slot)
	}
}

// stuck reads (stuck KIND PATTERN "REASON").
func (p *langParser) stuck(s *SExpr) {
	if !p.form(s, 4, 4, "(stuck KIND PATTERN \"REASON\")") {
		return
	}
	if s.List[3].Kind != SStr {
		p.errorf(s.List[3].P, "expected the reason, a string in double quotes, not %s", token(s.List[3]))
		return
	}
	k := p.kindArg(s.List[1])
	if k == nil {
		return
	}
	ps := newPatScope(patLHS, k)
	pat := p.pattern(s.List[2], Arg{Kind: ArgTerm, Sort: k.Sort}, ps)
	if pat == nil {
		return
	}
	st := &Stuck{P: s.P, Kind: k, Pat: pat, Reason: s.List[3].Sym, Metas: len(ps.slots)}
	k.Stucks = append(k.Stucks, st)
	p.l.Stucks = append(p.l.Stucks, st)
}

// rule reads (rule NAME KIND LHS RHS (where COND) ...).
func (p *langParser) rule(s *SExpr) {
	if !p.form(s, 5, -1, "(rule NAME KIND LHS RHS (where CONDITION) ...)") {
		return
	}
	n, ok := p.name(s.List[1], "the rule's name")
	if !ok {
		return
	}
	if strings.ContainsAny(n, "/,") {
		p.errorf(s.List[1].P, "%s: a rule's name has no / or , (they separate the events of layers and lists)", n)
		return
	}
	k := p.kindArg(s.List[2])
	if k == nil {
		return
	}
	ps := newPatScope(patLHS, k)
	r := &Rule{Name: n, P: s.P, Kind: k, Capture: -1}
	redex := s.List[3]
	var delim *SExpr
	if redex.Kind == SList && len(redex.List) > 0 && redex.List[0].Kind == SSym && redex.List[0].Sym == "context" {
		r.Context = true
		// (context [DELIMITER] [C] REDEX): C, a symbol named after the rule's kind,
		// captures the context (capture.go).
		if n := len(redex.List); n >= 3 && redex.List[n-2].Kind == SSym {
			c := redex.List[n-2]
			if base, _, _ := strings.Cut(c.Sym, "_"); base != k.Name {
				p.errorf(c.P, "%s: a captured context is named after the rule's kind, %s (%s_k, ...)", c.Sym, k.Name, k.Name)
				return
			}
			r.Capture, r.CaptureName = len(ps.slots), c.Sym
			ps.slots[c.Sym] = r.Capture
			ps.captured = c.Sym
			redex = &SExpr{P: redex.P, Kind: SList, List: append(slices.Clone(redex.List[:n-2]), redex.List[n-1])}
		}
		switch len(redex.List) {
		case 2:
			redex = redex.List[1]
		case 3:
			delim = redex.List[1]
			redex = redex.List[2]
		default:
			p.errorf(redex.P, "expected (context [DELIMITER] [%s_k] REDEX), not %s", k.Name, token(redex))
			return
		}
	}
	lhs := p.pattern(redex, Arg{Kind: ArgTerm, Sort: k.Sort}, ps)
	if lhs == nil {
		return
	}
	if delim != nil {
		// The delimiter is read after the redex: a metavariable the redex binds is
		// one the delimiter's frame must equal (a prompt's label, PatSame).
		// Its root may be of another sort than the rule's kind (a configuration
		// around the term: (config σ (hole)), the store beside it): the sort of its
		// constructor; the right-hand side, which replaces its frame, is of that sort.
		dsort := k.Sort
		if delim.Kind == SList && len(delim.List) > 0 && delim.List[0].Kind == SSym {
			if c, ok := p.l.cons[delim.List[0].Sym]; ok {
				dsort = c.Sort
			}
		}
		ps.mode, ps.same = patFrame, true
		d := p.pattern(delim, Arg{Kind: ArgTerm, Sort: dsort}, ps)
		ps.mode, ps.same = patLHS, false
		if d == nil {
			return
		}
		if d.Kind != PatCon || ps.holes != 1 {
			p.errorf(delim.P, "expected a delimiter, a constructor around one (hole), not %s", token(delim))
			return
		}
		var hk *Kind
		r.DelimiterPath, hk = holePath(d)
		if hk != k {
			p.errorf(delim.P, "the delimiter's hole is of kind %s, the rule's kind is %s", hk.Name, k.Name)
			return
		}
		slot := len(ps.slots)
		ps.slots[" hole"] = slot // a name no metavariable has
		setHoleSlot(d, slot)
		r.Delimiter = d
	}
	if lhs.Kind == PatMeta && lhs.Sort.Kind != MetaInt && lhs.Sort.Kind != MetaVar {
		p.errorf(redex.P, "%s: a left-hand side is more than a metavariable", token(redex))
		return
	}
	r.LHS = lhs
	ps.mode = patCond
	for _, w := range s.List[5:] {
		if c := p.cond(w, ps); c != nil {
			if c.Kind == CondStep {
				if r.Layer != nil {
					p.errorf(c.P, "a rule steps at most one inner layer")
					return
				}
				r.Layer = c.Layer
				if !slices.Contains(p.l.Layers, c.Layer) {
					p.l.Layers = append(p.l.Layers, c.Layer)
				}
			}
			r.Where = append(r.Where, c)
		}
	}
	ps.mode = patRHS
	ps.captureSort = k.Sort
	if r.Capture >= 0 && r.Delimiter == nil {
		ps.captureSort = p.l.Kinds[0].Sort // the whole term's, the root kind's
	}
	rhsSort := k.Sort
	if r.Delimiter != nil {
		rhsSort = r.Delimiter.Con.Sort // the contractum replaces the delimiter's frame
	}
	r.RHS = p.pattern(s.List[4], Arg{Kind: ArgTerm, Sort: rhsSort}, ps)
	if r.RHS == nil {
		return
	}
	if r.Capture >= 0 && !ps.plugged {
		p.errorf(s.List[4].P, "rule %s captures the context %s and never reinstates it: write (in-hole %s t), or (context ...) without it for an abort", n, r.CaptureName, r.CaptureName)
		return
	}
	r.Metas = len(ps.slots)
	k.Rules = append(k.Rules, r)
	p.l.Rules = append(p.l.Rules, r)
}

// String names a metavariable sort (for messages).
func (ms MetaSort) String() string { return describeMeta(ms) }

// classHeader declares a class (class NAME SORT ALTERNATIVE ...): its metavariable.
func (p *langParser) classHeader(s *SExpr) *Class {
	if !p.form(s, 4, -1, "(class NAME SORT PATTERN ...)") {
		return nil
	}
	if s.List[2].Kind != SSym || p.sorts[s.List[2].Sym] == nil {
		p.errorf(s.List[2].P, "%s is not a sort: expected (class NAME SORT PATTERN ...), the class's sort after its name (%s)", token(s.List[2]), p.sortNames())
		return nil
	}
	c := &Class{P: s.P, Sort: p.sorts[s.List[2].Sym], Index: len(p.l.Classes)}
	if c.Name = p.meta(s.List[1], MetaSort{Kind: MetaClass, Sort: c.Sort, Class: c}); c.Name == "" {
		return nil
	}
	p.l.Classes = append(p.l.Classes, c)
	return c
}

// classBody reads a class's alternatives: patterns of its sort.
func (p *langParser) classBody(c *Class, s *SExpr) {
	for _, a := range s.List[3:] {
		ps := newPatScope(patValue, nil)
		pat := p.pattern(a, Arg{Kind: ArgTerm, Sort: c.Sort}, ps)
		if pat == nil {
			continue
		}
		if pat.Kind == PatMeta && pat.Sort.Kind == MetaClass && pat.Sort.Class == c {
			p.errorf(a.P, "an alternative of %s is more than %s itself", c.Name, c.Name)
			continue
		}
		c.Alts = append(c.Alts, pat)
		c.Metas = append(c.Metas, len(ps.slots))
	}
}

// functionHeader declares a function (function NAME (ARG-SORT ...) RESULT-SORT
// ((NAME PATTERN ...) RHS (where CONDITION) ...) ...).
func (p *langParser) functionHeader(s *SExpr) *Function {
	const usage = "(function NAME (ARG-SORT ...) RESULT-SORT ((NAME PATTERN ...) RESULT (where CONDITION) ...) ...)"
	if len(s.List) > 2 && s.List[2].Kind != SList {
		p.errorf(s.List[2].P, "expected the argument sorts, a list (ARG-SORT ...), not %s: expected %s", token(s.List[2]), usage)
		return nil
	}
	if len(s.List) == 4 {
		p.errorf(s.P, "function %s has no clause: expected %s", token(s.List[1]), usage)
		return nil
	}
	if !p.form(s, 5, -1, usage) {
		return nil
	}
	return p.signature(s)
}

// hookHeader reads (hook NAME (ARG-SORT ...) RESULT-SORT): a meta-function of the
// hooks the file was read with (Hooks), its sorts as the file uses it.
func (p *langParser) hookHeader(s *SExpr) {
	const usage = "(hook NAME (ARG-SORT ...) RESULT-SORT)"
	if len(s.List) > 2 && s.List[2].Kind != SList {
		p.errorf(s.List[2].P, "expected the argument sorts, a list (ARG-SORT ...), not %s: expected %s", token(s.List[2]), usage)
		return
	}
	if !p.form(s, 4, 4, usage) {
		return
	}
	if s.List[1].Kind == SSym {
		if _, ok := p.l.hooks.Func(s.List[1].Sym); !ok {
			names := "no hook is registered (sem.Hooks.Add)"
			if fs := p.l.hooks.FuncNames(); len(fs) > 0 {
				names = "the hooks registered: " + strings.Join(fs, ", ")
			}
			p.errorf(s.List[1].P, "unknown hook %s: %s", s.List[1].Sym, names)
			return
		}
	}
	f := p.signature(s)
	if f == nil {
		return
	}
	f.Hook, _ = p.l.hooks.Func(f.Name)
	if len(f.Params) != f.Hook.Arity {
		p.errorf(s.List[2].P, "hook %s takes %d arguments, not %d", f.Name, f.Hook.Arity, len(f.Params))
	}
}

// answer reads (answer KIND PATTERN): a non-value answer of a kind.
func (p *langParser) answer(s *SExpr) {
	k, pat, ps := p.kindPattern(s, "(answer KIND PATTERN)", patValue)
	if pat == nil {
		return
	}
	if pat.Kind != PatCon && pat.Kind != PatAtom {
		p.errorf(s.List[2].P, "expected a constructor or an atom, not %s: an answer pattern is a constructor or an atom literal (\"error\")", token(s.List[2]))
		return
	}
	k.Answers = append(k.Answers, &Value{P: s.P, Kind: k, Pat: pat, Metas: len(ps.slots)})
}
