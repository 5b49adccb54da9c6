package handlers

import (
	"strconv"

	"github.com/interderive/interderive/dpl"
)

// The body of a rev handle or an RH has no free variable but the ones it binds (its
// handled variables: Fig. 3 drops the outer Δ), and a handler's clauses are closed
// (spec §2). Substitution therefore stops at them: only their argument, or their
// values, can mention an outer variable.

// Subst is the capture-avoiding substitution c[v/x] of the term v (a value, possibly
// with free variables) for the variable x in the command c. A let binder that would
// capture a free variable of v is renamed to a fresh name from names.
func Subst(c Cmd, x string, v dpl.Term, names *dpl.Names) Cmd {
	s := &substitution{x: x, v: v, names: names}
	return s.cmd(c)
}

type substitution struct {
	x     string
	v     dpl.Term
	fv    map[string]bool // FV(v), made on demand
	names *dpl.Names
}

func (s *substitution) term(t dpl.Term) dpl.Term { return dpl.Subst(t, s.x, s.v) }

func (s *substitution) captures(y string) bool {
	if s.fv == nil {
		s.fv = dpl.FreeVars(s.v)
	}
	return s.fv[y]
}

func (s *substitution) cmd(c Cmd) Cmd {
	switch c := c.(type) {
	case *Pure:
		return &Pure{P: c.P, M: s.term(c.M)}
	case *Perform:
		return &Perform{P: c.P, Kind: c.Kind, Name: c.Name, Arg: s.term(c.Arg)}
	case *Let:
		// Along the chain: the lets are rebuilt from the tail.
		var lets []*Let
		var body Cmd = c
		for {
			l, ok := body.(*Let)
			if !ok {
				break
			}
			nl := &Let{P: l.P, Name: l.Name, T: l.T, Bound: s.cmd(l.Bound), Body: l.Body}
			lets = append(lets, nl)
			if l.Name == s.x {
				body = nil
				break
			}
			if s.captures(l.Name) && OccursFree(s.x, l.Body) {
				fresh := s.names.Fresh(l.Name)
				nl.Body = Subst(l.Body, l.Name, &dpl.Var{P: l.P, Name: fresh}, s.names)
				nl.Name = fresh
				body = nl.Body
				continue
			}
			body = l.Body
		}
		if body != nil {
			lets[len(lets)-1].Body = s.cmd(body)
		}
		for i := len(lets) - 2; i >= 0; i-- {
			lets[i].Body = lets[i+1]
		}
		return lets[0]
	case *Handle:
		return &Handle{P: c.P, Arg: s.term(c.Arg), Vars: c.Vars, Types: c.Types, Body: c.Body, H: c.H}
	case *RH:
		vals := make([]dpl.Term, len(c.Vals))
		for i, v := range c.Vals {
			vals[i] = s.term(v)
		}
		return &RH{P: c.P, H: c.H, Vals: vals, Vars: c.Vars, Types: c.Types, Body: c.Body}
	}
	return c
}

// OccursFree reports whether the variable x occurs free in the command c.
func OccursFree(x string, c Cmd) bool {
	switch c := c.(type) {
	case *Pure:
		return dpl.OccursFree(x, c.M)
	case *Perform:
		return dpl.OccursFree(x, c.Arg)
	case *Let:
		for l := c; ; {
			if OccursFree(x, l.Bound) {
				return true
			}
			if l.Name == x {
				return false
			}
			next, ok := l.Body.(*Let)
			if !ok {
				return OccursFree(x, l.Body)
			}
			l = next
		}
	case *Handle:
		return dpl.OccursFree(x, c.Arg)
	case *RH:
		for _, v := range c.Vals {
			if dpl.OccursFree(x, v) {
				return true
			}
		}
	}
	return false
}

// FreeVarsCmd is FV(c), the free variables of the command c.
func FreeVarsCmd(c Cmd) map[string]bool {
	fv := map[string]bool{}
	freeVars(c, map[string]int{}, fv)
	return fv
}

// freeVars adds to fv the free variables of c not bound by bound (a count per name:
// the enclosing lets).
func freeVars(c Cmd, bound map[string]int, fv map[string]bool) {
	term := func(t dpl.Term) {
		for x := range dpl.FreeVars(t) {
			if bound[x] == 0 {
				fv[x] = true
			}
		}
	}
	switch c := c.(type) {
	case *Pure:
		term(c.M)
	case *Perform:
		term(c.Arg)
	case *Let:
		var names []string
		for l := c; ; {
			freeVars(l.Bound, bound, fv)
			bound[l.Name]++
			names = append(names, l.Name)
			next, ok := l.Body.(*Let)
			if !ok {
				freeVars(l.Body, bound, fv)
				break
			}
			l = next
		}
		for _, x := range names {
			bound[x]--
		}
	case *Handle:
		term(c.Arg)
	case *RH:
		for _, v := range c.Vals {
			term(v)
		}
	}
}

// ReserveNames makes names fresh for every name the program mentions.
func ReserveNames(names *dpl.Names, p *Program) {
	for _, h := range p.Heaps {
		reserveTerm(names, h.Init)
	}
	reserveCmd(names, p.Body)
}

func reserveTerm(names *dpl.Names, t dpl.Term) {
	// A supply fresh for t makes names past t's generated names: reserving one of
	// them makes names fresh for t too.
	names.Reserve(dpl.NewNames(t).Fresh("r"))
}

func reserveHandler(names *dpl.Names, h *Handler) {
	names.Reserve(h.RetVar)
	reserveCmd(names, h.Ret)
	for _, c := range h.Clauses {
		for _, x := range []string{c.X, c.Y, c.Z} {
			names.Reserve(x)
		}
		reserveCmd(names, c.Fwd)
		reserveCmd(names, c.Bwd)
	}
}

func reserveCmd(names *dpl.Names, c Cmd) {
	switch c := c.(type) {
	case *Pure:
		reserveTerm(names, c.M)
	case *Perform:
		reserveTerm(names, c.Arg)
	case *Let:
		for l := c; ; {
			names.Reserve(l.Name)
			reserveCmd(names, l.Bound)
			next, ok := l.Body.(*Let)
			if !ok {
				reserveCmd(names, l.Body)
				return
			}
			l = next
		}
	case *Handle:
		reserveTerm(names, c.Arg)
		for _, x := range c.Vars {
			names.Reserve(x)
		}
		reserveCmd(names, c.Body)
		reserveHandler(names, c.H)
	case *RH:
		for _, v := range c.Vals {
			reserveTerm(names, v)
		}
		for _, x := range c.Vars {
			names.Reserve(x)
		}
		reserveCmd(names, c.Body)
		reserveHandler(names, c.H)
	}
}

// AlphaEqual reports whether two commands are equal up to renaming of bound variables
// and up to positions (terms compared by dpl.AlphaEqual; types of lets compared when
// both have one).
func AlphaEqual(a, b Cmd) bool {
	e := &alpha{names: &dpl.Names{}}
	return e.cmd(a, b)
}

// AlphaEqualPrograms reports whether two programs have the same declarations and
// α-equivalent commands.
func AlphaEqualPrograms(a, b *Program) bool {
	if len(a.Ops) != len(b.Ops) || len(a.Heaps) != len(b.Heaps) {
		return false
	}
	for i, o := range a.Ops {
		q := b.Ops[i]
		if o.Name != q.Name || !dpl.Equal(o.Dom, q.Dom) || !dpl.Equal(o.Cod, q.Cod) {
			return false
		}
	}
	for i, h := range a.Heaps {
		q := b.Heaps[i]
		if h.Name != q.Name || !dpl.Equal(h.T, q.T) || !dpl.AlphaEqual(h.Init, q.Init) {
			return false
		}
	}
	return AlphaEqual(a.Body, b.Body)
}

type alpha struct {
	names *dpl.Names
	k     int
}

// canon renames x in a and y in b to one new name that neither mentions.
func (e *alpha) canon(a Cmd, x string, b Cmd, y string) (Cmd, Cmd) {
	e.k++
	v := &dpl.Var{Name: "\x00" + strconv.Itoa(e.k)}
	return Subst(a, x, v, e.names), Subst(b, y, v, e.names)
}

func (e *alpha) cmd(a, b Cmd) bool {
	switch a := a.(type) {
	case *Pure:
		b, ok := b.(*Pure)
		return ok && dpl.AlphaEqual(a.M, b.M)
	case *Perform:
		b, ok := b.(*Perform)
		return ok && a.Kind == b.Kind && a.Name == b.Name && dpl.AlphaEqual(a.Arg, b.Arg)
	case *Let:
		b, ok := b.(*Let)
		if !ok || !e.cmd(a.Bound, b.Bound) || a.T != nil && b.T != nil && !dpl.Equal(a.T, b.T) {
			return false
		}
		x, y := e.canon(a.Body, a.Name, b.Body, b.Name)
		return e.cmd(x, y)
	case *Handle:
		b, ok := b.(*Handle)
		return ok && dpl.AlphaEqual(a.Arg, b.Arg) && e.bodies(a.Vars, a.Body, b.Vars, b.Body) && e.handler(a.H, b.H)
	case *RH:
		b, ok := b.(*RH)
		if !ok || len(a.Vals) != len(b.Vals) {
			return false
		}
		for i := range a.Vals {
			if !dpl.AlphaEqual(a.Vals[i], b.Vals[i]) {
				return false
			}
		}
		return e.bodies(a.Vars, a.Body, b.Vars, b.Body) && e.handler(a.H, b.H)
	}
	return false
}

// bodies compares two commands under binders xs and ys.
func (e *alpha) bodies(xs []string, a Cmd, ys []string, b Cmd) bool {
	if len(xs) != len(ys) {
		return false
	}
	for i := range xs {
		a, b = e.canon(a, xs[i], b, ys[i])
	}
	return e.cmd(a, b)
}

func (e *alpha) handler(a, b *Handler) bool {
	if a == b {
		return true
	}
	if len(a.Clauses) != len(b.Clauses) || !e.bodies([]string{a.RetVar}, a.Ret, []string{b.RetVar}, b.Ret) {
		return false
	}
	for i, c := range a.Clauses {
		d := b.Clauses[i]
		if c.Op != d.Op || !e.bodies([]string{c.X}, c.Fwd, []string{d.X}, d.Fwd) ||
			!e.bodies([]string{c.Y, c.Z}, c.Bwd, []string{d.Y, d.Z}, d.Bwd) {
			return false
		}
	}
	return true
}
