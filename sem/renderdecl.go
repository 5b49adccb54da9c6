package sem

import "slices"

// Which declarations render has a notation for: each found in the language by its
// position and printed back to exactly what the file says.

// declarations are the language's declarations by their positions (those of their
// s-expressions): the language, its sorts and constructors, its kinds, values,
// frames, rules and stuck shapes.
func (l *Language) declarations() map[Pos]any {
	at := map[Pos]any{l.P: l}
	for _, so := range l.Sorts {
		if so.IsSeq() {
			continue // made by the reader (seq.go)
		}
		at[so.P] = so
		for _, c := range so.Cons {
			at[c.P] = c
		}
	}
	for _, k := range l.Kinds {
		if k.Seq != nil {
			continue // made by the reader from a frame (seq.go)
		}
		at[k.P] = k
		for _, v := range k.Values {
			at[v.P] = v
		}
		for _, f := range k.Frames {
			at[f.P] = f
		}
	}
	for _, r := range l.Rules {
		at[r.P] = r
	}
	for _, s := range l.Stucks {
		at[s.P] = s
	}
	for _, k := range l.Kinds {
		for _, a := range k.Answers {
			at[a.P] = answer{a}
		}
	}
	for _, c := range l.Classes {
		at[c.P] = c
	}
	for _, f := range l.Functions {
		at[f.P] = f
	}
	for _, j := range l.Judgments {
		at[j.P] = j
	}
	if l.Typing != nil {
		at[l.Typing.P] = l.Typing
	}
	return at
}

// answer is an answer declaration (a Value of Kind.Answers).
type answer struct{ *Value }

// classify checks that decl, the language's declaration at d's position (nil if
// none), has a notation: that d's keyword is known and decl prints back to exactly
// what d says; then it marks decl shown. It reports false for a declaration to print
// as written. The parts of a sort that have no notation are added to r.Verbatim.
func (l *Language) classify(d *SExpr, decl any, shown map[any]bool, r *Rendering) bool {
	if d.Kind != SList || len(d.List) < 2 || d.List[0].Kind != SSym {
		return false
	}
	if isSym(d.List[0], "notation") {
		// A notation is shown in the constructor's every use (notation.go).
		if len(d.List) != 3 {
			return false
		}
		_, err := l.parseNotation(d)
		return err == nil
	}
	args := d.List[1:]
	ok := false
	switch x := decl.(type) {
	case *Language:
		ok = d.List[0].Sym == "language" && len(args) == 1 && isSym(args[0], x.Name)
	case *Sort:
		ok = d.List[0].Sym == "sort" && isSym(args[0], x.Name)
		if ok {
			r.Verbatim = append(r.Verbatim, l.sortExtras(args[1:])...)
		}
	case *Kind:
		ok = d.List[0].Sym == "kind" && (len(args) == 2 || len(args) == 3 && isSym(args[2], x.Sort.Name)) &&
			isSym(args[0], x.Name) && isSym(args[1], x.Meta)
	case *Value:
		ok = d.List[0].Sym == "value" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1])
	case *Frame:
		ok = d.List[0].Sym == "frame" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Written(), args[1])
	case *Rule:
		ok = d.List[0].Sym == "rule" && sameRule(x, args)
	case answer:
		ok = d.List[0].Sym == "answer" && len(args) == 2 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1])
	case *Class:
		ok = d.List[0].Sym == "class" && len(args) == 2+len(x.Alts) && isSym(args[0], x.Name) && isSym(args[1], x.Sort.Name)
		for i, a := range x.Alts {
			ok = ok && samePattern(a, args[2+i])
		}
	case *Function:
		if x.Hook != nil {
			ok = d.List[0].Sym == "hook" && len(args) == 3 && isSym(args[0], x.Name)
			break
		}
		ok = d.List[0].Sym == "function" && len(args) == 3+len(x.Clauses) && isSym(args[0], x.Name)
		for i, c := range x.Clauses {
			ok = ok && sameClause(x, c, args[3+i])
		}
	case *Judgment:
		ok = d.List[0].Sym == "judgment" && sameJudgment(x, args) ||
			d.List[0].Sym == "property" && l.propertyOf(x) != nil // typeset as its judgment's one rule
	case *Typing:
		ok = d.List[0].Sym == "typing" && sameTyping(x, args)
	case *Stuck:
		ok = d.List[0].Sym == "stuck" && len(args) == 3 && isSym(args[0], x.Kind.Name) && samePattern(x.Pat, args[1]) &&
			args[2].Kind == SStr && args[2].Sym == x.Reason
	}
	if ok {
		shown[decl] = true
	}
	return ok
}

func isSym(s *SExpr, name string) bool { return s.Kind == SSym && s.Sym == name }

// sortExtras are the items of a sort's declaration that its notation does not show:
// any but its metavariable names, (variable ...), (integer ...), and the (con ...) of
// its constructors that print back to what they say.
func (l *Language) sortExtras(items []*SExpr) []*SExpr {
	var out []*SExpr
	for _, it := range items {
		switch {
		case it.Kind == SSym:
			continue
		case it.Kind == SList && len(it.List) > 0 && it.List[0].Kind == SSym:
			switch it.List[0].Sym {
			case "variable", "integer", "atom": // typeset in the sort's BNF (writeSort)
				continue
			case "con":
				if c, ok := l.cons[conName(it)]; ok && c.P == it.P && sameCon(c, it) {
					continue
				}
			}
		}
		out = append(out, it)
	}
	return out
}

// conName is the name a (con NAME ...) declares, or "".
func conName(s *SExpr) string {
	if len(s.List) < 2 || s.List[1].Kind != SSym {
		return ""
	}
	return s.List[1].Sym
}

// sameCon reports whether (con NAME ARG ... (bind I J ...) ...) says exactly what c is.
func sameCon(c *Con, s *SExpr) bool {
	if c.shape != nil {
		// Its shape, checked when it was read, is how programs write it: not typeset.
		s = &SExpr{P: s.P, Kind: SList, List: slices.DeleteFunc(slices.Clone(s.List), func(x *SExpr) bool {
			return x.Kind == SList && len(x.List) > 0 && isSym(x.List[0], "shape")
		})}
	}
	// E ... is one argument, a sequence's (seq.go).
	s = &SExpr{P: s.P, Kind: SList, List: slices.DeleteFunc(slices.Clone(s.List), func(x *SExpr) bool { return isSym(x, "...") })}
	if len(s.List) != 2+len(c.Args)+len(c.Binds) || !isSym(s.List[1], c.Name) {
		return false
	}
	for i, a := range c.Args {
		x := s.List[2+i]
		if isSeqArg(a) {
			a = *a.Sort.Elem
		}
		if x.Kind != SSym || !argNamed(a, x.Sym) {
			return false
		}
	}
	for i, bd := range c.Binds {
		x := s.List[2+len(c.Args)+i]
		if x.Kind != SList || len(x.List) != 2+len(bd.Scope) || !isSym(x.List[0], "bind") || !isInt(x.List[1], bd.Binder) {
			return false
		}
		for j, sc := range bd.Scope {
			if !isInt(x.List[2+j], sc) {
				return false
			}
		}
	}
	return true
}

// argNamed reports whether name is one of the metavariable names of a's sort.
func argNamed(a Arg, name string) bool {
	names := a.Sort.Metas
	switch a.Kind {
	case ArgVar:
		names = a.Sort.VarMetas
	case ArgInt:
		names = a.Sort.IntMetas
	}
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

func isInt(s *SExpr, n int) bool { return s.Kind == SInt && s.N == int64(n) }

// samePattern reports whether the pattern p prints back to the s-expression s: the
// same nodes, the same names. A node it does not know is not the same.
func samePattern(p *Pattern, s *SExpr) bool {
	switch p.Kind {
	case PatMeta, PatSame:
		return isSym(s, p.Meta)
	case PatInt:
		return s.Kind == SInt && s.N == p.N
	case PatAtom:
		return (s.Kind == SSym || s.Kind == SStr) && p.Atom.Format(p.Val) == s.String()
	case PatHole:
		return p.Hole != nil && s.Kind == SList && (len(s.List) == 1 || len(s.List) == 2 && isSym(s.List[1], p.Hole.Name)) && isSym(s.List[0], "hole")
	}
	if p.Kind == PatSeq && s.Kind == SList {
		return sameSeq(p, s)
	}
	if s.Kind != SList || len(s.List) == 0 {
		return false
	}
	var head []string
	switch p.Kind {
	case PatCon:
		head = []string{p.Con.Name}
	case PatSubst:
		head = []string{"subst"}
	case PatPlug:
		head = []string{"in-hole", p.Meta}
	case PatPrim:
		head = []string{"prim", p.Prim.Name}
	case PatCall:
		head = []string{p.Fn.Name}
	default:
		return false
	}
	return sameList(head, p.Args, s)
}

// sameSeq reports whether the list s is the sequence pattern p: its elements, each
// followed by an ellipsis where repeated.
func sameSeq(p *Pattern, s *SExpr) bool {
	i := 0
	for k, a := range p.Args {
		if i >= len(s.List) || !samePattern(a, s.List[i]) {
			return false
		}
		i++
		if r := p.Reps[k]; r.Repeated() {
			if i >= len(s.List) || !isSym(s.List[i], r.Ellipsis) {
				return false
			}
			i++
		}
	}
	return i == len(s.List)
}

// sameList reports whether s is the list of the symbols head followed by args.
func sameList(head []string, args []*Pattern, s *SExpr) bool {
	if len(s.List) != len(head)+len(args) {
		return false
	}
	for i, h := range head {
		if !isSym(s.List[i], h) {
			return false
		}
	}
	for i, a := range args {
		if !samePattern(a, s.List[len(head)+i]) {
			return false
		}
	}
	return true
}

// sameRule reports whether (rule NAME K LHS RHS (where C) ...), given by its
// arguments, says exactly what r is.
func sameRule(r *Rule, args []*SExpr) bool {
	if len(args) != 4+len(r.Where) || !isSym(args[0], r.Name) || !isSym(args[1], r.Kind.Name) ||
		!sameRedex(r, args[2]) || !samePattern(r.RHS, args[3]) {
		return false
	}
	return sameConds(r.Where, args[4:])
}

// sameClause reports whether s is the clause c of f: ((f PATTERN ...) RHS (where C) ...).
func sameClause(f *Function, c *Clause, s *SExpr) bool {
	return s.Kind == SList && len(s.List) == 2+len(c.Where) && s.List[0].Kind == SList &&
		sameList([]string{f.Name}, c.Args, s.List[0]) && samePattern(c.RHS, s.List[1]) && sameConds(c.Where, s.List[2:])
}

// sameRedex reports whether s is r's left-hand side: its pattern, or a context
// rule's (context [DELIMITER] PATTERN).
func sameRedex(r *Rule, s *SExpr) bool {
	if !r.Context {
		return samePattern(r.LHS, s)
	}
	if s.Kind != SList || len(s.List) < 2 || !isSym(s.List[0], "context") {
		return false
	}
	if r.CaptureName != "" { // (context [DELIMITER] C PATTERN): C read apart
		n := len(s.List)
		if n < 3 || !isSym(s.List[n-2], r.CaptureName) {
			return false
		}
		s = &SExpr{P: s.P, Kind: SList, List: append(slices.Clone(s.List[:n-2]), s.List[n-1])}
	}
	if r.Delimiter == nil {
		return len(s.List) == 2 && samePattern(r.LHS, s.List[1])
	}
	return len(s.List) == 3 && samePattern(r.Delimiter, s.List[1]) && samePattern(r.LHS, s.List[2])
}

// sameConds reports whether the (where C) s-expressions say exactly the conditions.
func sameConds(where []*Cond, ws []*SExpr) bool {
	if len(where) != len(ws) {
		return false
	}
	for i, c := range where {
		w := ws[i]
		if w.Kind != SList || len(w.List) != 2 || !isSym(w.List[0], "where") || w.List[1].Kind != SList {
			return false
		}
		var head []string
		switch c.Kind {
		case CondEq:
			head = []string{"="}
		case CondNe:
			head = []string{"!="}
		case CondPrim:
			head = []string{"prim", c.Prim.Name}
		case CondFresh:
			head = []string{"fresh"}
		case CondStep:
			head = []string{"step", c.Layer.Name}
		case CondMatch:
			head = []string{"match"}
		case CondCall:
			if !samePattern(c.Args[0], w.List[1]) {
				return false
			}
			continue
		default:
			return false
		}
		args := c.Args
		if c.Kind == CondFresh && len(args) > 1 && args[1].Slot < 0 {
			args = append([]*Pattern{args[0]}, args[2:]...) // (fresh x_k T ...)
		}
		if !sameList(head, args, w.List[1]) {
			return false
		}
	}
	return true
}
