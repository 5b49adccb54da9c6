package sem

import (
	"fmt"

	"github.com/interderive/interderive"
)

// The generic meta-level pieces every derived stage shares: matching, instantiation,
// capture-avoiding substitution on the declared binders, α-equivalence.

// IsValue reports whether t is a value of kind k: it matches one of k's value
// patterns.
func (l *Language) IsValue(t *Term, k *Kind) bool { return l.isValueAt(t, k, 0) }

// isValueAt is IsValue at depth nested matches of values and classes: past
// MaxTermDepth, a checked limit rather than an exhausted stack (see tooDeep).
func (l *Language) isValueAt(t *Term, k *Kind, depth int) bool {
	if k.Index < 32 {
		if known := t.values.Load() >> (2 * k.Index); known&1 != 0 {
			return known&2 != 0
		}
	}
	checkTermDepth(depth)
	is := l.isValue(t, k, depth)
	if k.Index < 32 {
		bits := uint64(1)
		if is {
			bits = 3
		}
		t.values.Or(bits << (2 * k.Index))
	}
	return is
}

// isValue is IsValue, not memoized: a term is immutable, so its answer never
// changes.
func (l *Language) isValue(t *Term, k *Kind, depth int) bool {
	for _, i := range k.values.candidates(t) {
		v := k.Values[i]
		if l.match(v.Pat, t, make([]*Term, v.Metas), depth) {
			return true
		}
	}
	return false
}

// InClass reports whether t is a term of the class c: one of its alternatives
// matches it.
func (l *Language) InClass(t *Term, c *Class) bool { return l.inClass(t, c, 0) }

// inClass is InClass at depth nested matches (see isValueAt).
func (l *Language) inClass(t *Term, c *Class, depth int) bool {
	checkTermDepth(depth)
	for _, i := range c.alts.candidates(t) {
		if l.match(c.Alts[i], t, make([]*Term, c.Metas[i]), depth) {
			return true
		}
	}
	return false
}

// IsAnswer reports whether t is a non-value answer of kind k: it matches one of k's
// answer patterns.
func (l *Language) IsAnswer(t *Term, k *Kind) bool {
	for _, i := range k.answers.candidates(t) {
		a := k.Answers[i]
		if l.Match(a.Pat, t, make([]*Term, a.Metas)) {
			return true
		}
	}
	return false
}

// Match matches t against the pattern p, filling the slots of b with the terms the
// metavariables (and a frame's hole) stand for. A value metavariable matches only a
// value of its kind. It recurses as deep as the pattern nests, and as deep as the
// values that value metavariables meet (at most MaxTermDepth values and classes
// deep: see tooDeep).
func (l *Language) Match(p *Pattern, t *Term, b []*Term) bool { return l.match(p, t, b, 0) }

// match is Match at depth nested matches of values and classes.
func (l *Language) match(p *Pattern, t *Term, b []*Term, depth int) bool {
	switch p.Kind {
	case PatHole:
		b[p.Slot] = t
		return true
	case PatInt:
		return t.Op == TermInt && t.N == p.N
	case PatMeta:
		switch p.Sort.Kind {
		case MetaVar:
			if t.Op != TermVar {
				return false
			}
		case MetaInt:
			if t.Op != TermInt {
				return false
			}
		case MetaValue:
			if !l.isValueAt(t, p.Sort.ValuesOf, depth+1) {
				return false
			}
		case MetaClass:
			if !l.inClass(t, p.Sort.Class, depth+1) {
				return false
			}
		}
		b[p.Slot] = t
		return true
	case PatCon:
		if t.Op != TermCon || t.Con != p.Con {
			return false
		}
		for i, a := range p.Args {
			if !l.match(a, t.Args[i], b, depth) {
				return false
			}
		}
		return true
	}
	return false
}

// Conditions evaluates a rule's side conditions on the bindings of its left-hand
// side, in order (a fresh binds its metavariable), for a rule that steps no inner
// layer; a step condition holds when its term is not a value of its layer (the static
// checks' reading, which takes no step).
func (l *Language) Conditions(r *Rule, b []*Term) bool {
	ok, _, _ := l.conditions(r.Where, b, func(t *Term, k *Kind) (*Term, string, bool, error) {
		return t, "", !l.IsValue(t, k), nil
	})
	return ok
}

// conditions evaluates side conditions in order; a step condition takes its step with
// step, and its event is returned.
func (l *Language) conditions(where []*Cond, b []*Term, step LayerStep) (bool, string, error) {
	event := ""
	for _, c := range where {
		switch c.Kind {
		case CondEq, CondNe:
			var eq bool
			if c.Args[0].Kind == PatInt || c.Args[1].Kind == PatInt {
				// A constant: an integer equals it, any other term does not.
				x, okx := l.intOf(c.Args[0], b)
				y, oky := l.intOf(c.Args[1], b)
				eq = okx && oky && x == y
			} else {
				eq = sameAtom(b[c.Args[0].Slot], b[c.Args[1].Slot])
			}
			if eq != (c.Kind == CondEq) {
				return false, "", nil
			}
		case CondPrim:
			args := make([]int64, len(c.Args))
			for i, a := range c.Args {
				n, ok := l.intOf(a, b)
				if !ok {
					return false, "", nil
				}
				args[i] = n
			}
			if !c.Prim.Cmp(args) {
				return false, "", nil
			}
		case CondFresh:
			base := b[c.Args[1].Slot]
			avoid := make([]*Term, 0, len(c.Args)-2)
			for _, a := range c.Args[2:] {
				avoid = append(avoid, b[a.Slot])
			}
			b[c.Args[0].Slot] = Var(base.P, FreshName(base.Name, avoid...))
		case CondStep:
			if step == nil {
				return false, "", fmt.Errorf("no stepper for the inner layer %s", c.Layer.Name)
			}
			next, ev, ok, err := step(b[c.Args[0].Slot], c.Layer)
			if err != nil || !ok {
				return false, "", err
			}
			b[c.Args[1].Slot], event = next, ev
		}
	}
	return true, event, nil
}

// sameAtom is the equality of = and !=: the same name, the same integer, or
// α-equivalent terms.
func sameAtom(a, b *Term) bool {
	if a.Op == TermVar && b.Op == TermVar {
		return a.Name == b.Name
	}
	return AlphaEqual(a, b)
}

// intOf evaluates an integer pattern of a prim: a literal, an integer metavariable,
// or a prim (on right-hand sides).
func (l *Language) intOf(p *Pattern, b []*Term) (int64, bool) {
	switch p.Kind {
	case PatInt:
		return p.N, true
	case PatMeta:
		if t := b[p.Slot]; t != nil && t.Op == TermInt {
			return t.N, true
		}
	case PatPrim:
		args := make([]int64, len(p.Args))
		for i, a := range p.Args {
			n, ok := l.intOf(a, b)
			if !ok {
				return 0, false
			}
			args[i] = n
		}
		return p.Prim.Int(args)
	}
	return 0, false
}

// Instantiate builds a rule's right-hand side from the bindings of its left-hand side
// and conditions. at is the position the new nodes take (the redex's). It fails only
// where a prim is undefined (a division by zero).
func (l *Language) Instantiate(p *Pattern, b []*Term, at Pos) (*Term, error) {
	return l.instantiateIn(p, b, at, 0)
}

// instantiateIn is Instantiate within depth nested function calls.
func (l *Language) instantiateIn(p *Pattern, b []*Term, at Pos, depth int) (*Term, error) {
	switch p.Kind {
	case PatMeta:
		return b[p.Slot], nil
	case PatInt:
		return Int(at, p.N), nil
	case PatPrim:
		n, ok := l.intOf(p, b)
		if !ok {
			return nil, fmt.Errorf("prim %s is undefined here", p.Prim.Name)
		}
		return Int(at, n), nil
	case PatSubst:
		t, err := l.instantiateIn(p.Args[0], b, at, depth)
		if err != nil {
			return nil, err
		}
		x := b[p.Args[1].Slot]
		v, err := l.instantiateIn(p.Args[2], b, at, depth)
		if err != nil {
			return nil, err
		}
		return Subst(t, x.Name, v), nil
	case PatCall:
		args := make([]*Term, len(p.Args))
		for i, a := range p.Args {
			var err error
			if args[i], err = l.instantiateIn(a, b, at, depth+1); err != nil {
				return nil, err
			}
		}
		return l.call(p.Fn, args, at, depth)
	case PatCon:
		args := make([]*Term, len(p.Args))
		for i, a := range p.Args {
			var err error
			if args[i], err = l.instantiateIn(a, b, at, depth+1); err != nil {
				return nil, err
			}
		}
		return App(at, p.Con, args...), nil
	}
	return nil, fmt.Errorf("cannot instantiate a %v", p.Kind)
}

// MaxCallDepth bounds the nesting of function calls, so that a function that
// recurses without end is a resource limit (a *FunctionError with its Limit), not an
// exhausted stack. The depth counts the calls and the right-hand sides' constructors
// and calls around them (the recursion of instantiation), each a level of Go stack,
// so that a clause's right-hand side nested deep does not multiply the stack a call
// takes. It is derived from the Go stack, as MaxTermDepth is: a level takes at most
// CallFrame bytes, and MaxCallDepth levels at most half of interderive.StackLimit:
// 2^29 / 2 / 1024 = 262,144 levels on 64-bit platforms (TestCallDepth runs a
// function to the bound with a stack of StackLimit/2).
const MaxCallDepth = interderive.StackLimit / 2 / CallFrame

// CallFrame bounds the bytes of Go stack a level of a function's evaluation takes: a
// call, or a constructor or call of a right-hand side around one (see MaxCallDepth).
const CallFrame = 1024

// Call applies the function f to args: the first clause whose patterns match and
// whose conditions hold gives the result. It is a *FunctionError when no clause
// applies, or when the calls nest deeper than MaxCallDepth.
func (l *Language) Call(f *Function, args []*Term, at Pos) (*Term, error) {
	return l.call(f, args, at, 0)
}

func (l *Language) call(f *Function, args []*Term, at Pos, depth int) (*Term, error) {
	if err := l.run.tick(); err != nil {
		return nil, err
	}
	if depth > MaxCallDepth {
		return nil, l.functionError(f, args, MaxCallDepth)
	}
	for _, c := range f.Clauses {
		b := make([]*Term, c.Metas)
		matched := true
		for i, a := range c.Args {
			if !l.Match(a, args[i], b) {
				matched = false
				break
			}
		}
		if !matched {
			continue
		}
		if ok, _, _ := l.conditions(c.Where, b, nil); !ok {
			continue
		}
		return l.instantiateIn(c.RHS, b, at, depth+1)
	}
	return nil, l.functionError(f, args, 0)
}

// Subst is the capture-avoiding substitution t[x := v] on the declared binders: it
// stops at a binder of x, and renames a binder that would capture a free variable of
// v (to the binder's name primed until it occurs nowhere in v or the node, as the
// hand-written calculi's FreshName). When v is closed — always, in a run of a closed
// program whose rules substitute values — no binder is renamed, v is marked closed,
// and substitution goes into no term so marked (which has no free variable): a value
// a run substitutes is never walked again when later substitutions meet it. It
// recurses as deep as t nests outside its closed terms.
func Subst(t *Term, x string, v *Term) *Term {
	fv := FreeVars(v)
	if len(fv) == 0 {
		v.closed.Store(true)
	}
	return subst(t, x, v, fv, 0)
}

// subst is Subst at depth below the root: past MaxTermDepth, a checked limit (a
// term a run built deeper than any program) rather than an exhausted stack.
func subst(t *Term, x string, v *Term, fv map[string]bool, depth int) *Term {
	switch t.Op {
	case TermVar:
		if t.Name == x {
			return v
		}
		return t
	case TermInt:
		return t
	}
	if t.closed.Load() {
		return t
	}
	checkTermDepth(depth)
	c := t.Con
	args := make([]*Term, len(t.Args))
	copy(args, t.Args)
	// Rename the binders that would capture a free variable of v.
	for _, bd := range c.Binds {
		y := args[bd.Binder].Name
		if y == x || !fv[y] {
			continue
		}
		avoid := append([]*Term{v}, t.Args...)
		y2 := FreshName(y, avoid...)
		args[bd.Binder] = Var(args[bd.Binder].P, y2)
		for _, j := range bd.Scope {
			if !innermost(c, t, bd.Binder, j) {
				continue // a later binder of the same name binds y in argument j
			}
			args[j] = subst(args[j], y, Var(args[bd.Binder].P, y2), map[string]bool{y2: true}, depth+1)
		}
	}
	for j, a := range c.Args {
		if a.Kind != ArgTerm {
			continue
		}
		hidden := false
		for _, bi := range c.scope[j] {
			if args[bi].Name == x {
				hidden = true
			}
		}
		if !hidden {
			args[j] = subst(args[j], x, v, fv, depth+1)
		}
	}
	return &Term{P: t.P, Op: TermCon, Con: c, Args: args}
}

// innermost reports whether binder b of t is the innermost binder of its name around
// argument j: no later bind of the constructor (inside it) binds the same name there.
func innermost(c *Con, t *Term, b, j int) bool {
	after := false
	for _, bi := range c.scope[j] {
		if bi == b {
			after = true
		} else if after && t.Args[bi].Name == t.Args[b].Name {
			return false
		}
	}
	return true
}

// FreeVars is the set of the variables free in t. It uses no recursion, and skips
// the terms known to be closed.
func FreeVars(t *Term) map[string]bool {
	fv := map[string]bool{}
	type item struct {
		t     *Term
		bound *names
	}
	stack := []item{{t: t}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := it.t; t.Op {
		case TermVar:
			if !it.bound.has(t.Name) {
				fv[t.Name] = true
			}
		case TermCon:
			if t.closed.Load() {
				continue
			}
			for j, a := range t.Con.Args {
				if a.Kind != ArgTerm {
					continue
				}
				bound := it.bound
				for _, bi := range t.Con.scope[j] {
					bound = &names{t.Args[bi].Name, bound}
				}
				stack = append(stack, item{t.Args[j], bound})
			}
		}
	}
	return fv
}

// names is a list of bound names, innermost first.
type names struct {
	x    string
	next *names
}

func (n *names) has(x string) bool {
	for ; n != nil; n = n.next {
		if n.x == x {
			return true
		}
	}
	return false
}

// FreshName is x followed by as many primes as it takes for a name that occurs
// nowhere in the terms, free or bound (lambda.FreshName's rule).
func FreshName(x string, in ...*Term) string {
	used := map[string]bool{}
	stack := append([]*Term(nil), in...)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t.Op == TermVar {
			used[t.Name] = true
		}
		stack = append(stack, t.Args...)
	}
	for x += "'"; used[x]; x += "'" {
	}
	return x
}

// AlphaEqual reports whether two terms are equal up to renaming of bound variables
// (and up to positions). It uses no recursion.
func AlphaEqual(a, b *Term) bool {
	type item struct {
		p    *pairs
		a, b *Term
	}
	stack := []item{{nil, a, b}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := it.a, it.b
		if a.Op != b.Op {
			return false
		}
		switch a.Op {
		case TermInt:
			if a.N != b.N {
				return false
			}
		case TermVar:
			if !it.p.related(a.Name, b.Name) {
				return false
			}
		case TermCon:
			if a.Con != b.Con {
				return false
			}
			for j, arg := range a.Con.Args {
				if arg.Kind == ArgVar {
					continue
				}
				if arg.Kind == ArgInt {
					if a.Args[j].N != b.Args[j].N {
						return false
					}
					continue
				}
				p := it.p
				for _, bi := range a.Con.scope[j] {
					p = &pairs{a.Args[bi].Name, b.Args[bi].Name, p}
				}
				stack = append(stack, item{p, a.Args[j], b.Args[j]})
			}
		}
	}
	return true
}

// pairs records, innermost first, which bound names of a and b correspond.
type pairs struct {
	x, y string
	next *pairs
}

// related reports whether x in a corresponds to y in b: bound together by the
// innermost binder of either, or both free and the same name.
func (p *pairs) related(x, y string) bool {
	for ; p != nil; p = p.next {
		if p.x == x || p.y == y {
			return p.x == x && p.y == y
		}
	}
	return x == y
}
