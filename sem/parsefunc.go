package sem

import "slices"

// The reading of functions' signatures and clauses (Parse).

// signature reads the name and the sorts of a function's or a hook's declaration,
// and declares it.
func (p *langParser) signature(s *SExpr) *Function {
	n, ok := p.name(s.List[1], "the function's name")
	if !ok {
		return nil
	}
	if _, dup := p.l.cons[n]; dup {
		p.errorf(s.List[1].P, "%s is a constructor", n)
		return nil
	}
	if _, dup := p.l.funcs[n]; dup {
		p.errorf(s.List[1].P, "function %s declared twice", n)
		return nil
	}
	if _, meta := p.l.metas[n]; meta {
		p.errorf(s.List[1].P, "%s is a metavariable name", n)
		return nil
	}
	f := &Function{Name: n, P: s.P}
	params := s.List[2].List
	for i := 0; i < len(params); i++ {
		if x := params[i]; x.Kind == SList && len(x.List) == 2 && isSym(x.List[1], "...") { // (E ...), as a result is written
			params = slices.Concat(params[:i], x.List, params[i+1:])
		}
		arg, ok := p.argSort(params[i])
		if !ok {
			return nil
		}
		if arg.Kind == ArgVar {
			arg.Kind = ArgTerm // a function takes and gives terms: a variable is a term
		}
		if i+1 < len(params) && isSym(params[i+1], "...") { // E ...: a sequence (seq.go)
			arg = Arg{Kind: ArgTerm, Sort: p.seqSort(arg, params[i].Sym)}
			i++
		}
		f.Params = append(f.Params, arg)
	}
	var res Arg
	if r := s.List[3]; r.Kind == SList && len(r.List) == 2 && isSym(r.List[1], "...") { // (E ...)
		if res, ok = p.argSort(r.List[0]); !ok {
			return nil
		}
		if res.Kind == ArgVar {
			res.Kind = ArgTerm
		}
		res = Arg{Kind: ArgTerm, Sort: p.seqSort(res, r.List[0].Sym)}
	} else if res, ok = p.argSort(r); !ok {
		return nil
	}
	if res.Kind == ArgVar {
		res.Kind = ArgTerm
	}
	f.Result = res
	p.l.funcs[n] = f
	p.l.Functions = append(p.l.Functions, f)
	return f
}

// functionBody reads a function's clauses.
func (p *langParser) functionBody(f *Function, s *SExpr) {
	for _, c := range s.List[4:] {
		if c.Kind != SList || len(c.List) < 2 || c.List[0].Kind != SList || len(c.List[0].List) == 0 ||
			c.List[0].List[0].Kind != SSym || c.List[0].List[0].Sym != f.Name {
			p.errorf(c.P, "expected a clause of %s, ((%s PATTERN ...) RESULT (where CONDITION) ...), not %s", f.Name, f.Name, token(c))
			continue
		}
		head := c.List[0].List[1:]
		if len(head) != len(f.Params) {
			p.errorf(c.List[0].P, "%s takes %d arguments, not %d", f.Name, len(f.Params), len(head))
			continue
		}
		ps := newPatScope(patLHS, nil)
		cl := &Clause{P: c.P, Args: make([]*Pattern, len(head)), order: ellipsesLast(head)}
		if cl.order == nil {
			cl.order = make([]int, len(head))
			for i := range cl.order {
				cl.order[i] = i
			}
		}
		ok := true
		for _, i := range cl.order {
			pat := p.pattern(head[i], f.Params[i], ps)
			if pat == nil {
				ok = false
				break
			}
			cl.Args[i] = pat
		}
		if !ok {
			continue
		}
		ps.mode = patCond
		for _, w := range c.List[2:] {
			if cd := p.cond(w, ps); cd != nil {
				if cd.Kind == CondStep {
					p.errorf(cd.P, "a function's clause takes no step: it is computed at once")
					ok = false
				}
				cl.Where = append(cl.Where, cd)
			} else {
				ok = false
			}
		}
		ps.mode = patRHS
		if cl.RHS = p.pattern(c.List[1], f.Result, ps); cl.RHS == nil || !ok {
			continue
		}
		cl.Metas = len(ps.slots)
		f.Clauses = append(f.Clauses, cl)
	}
	if len(f.Clauses) == 0 && len(p.errs) == 0 {
		p.errorf(s.P, "function %s has no clause", f.Name)
	}
}
