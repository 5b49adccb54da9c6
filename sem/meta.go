package sem

import (
	"slices"
	"strings"

	"github.com/interderive/interderive"
)

// The generic meta-level pieces every derived stage shares: matching, instantiation,
// capture-avoiding substitution on the declared binders, α-equivalence.

// The Language's matching functions run on a substitution engine of their own: for
// the static checks and the tools, over the program's terms. It comes from the
// language's engines that ended (pooled: an engine is too large to allocate at each
// match) and goes back there, cleared (Release).

// IsValue reports whether t is a value of kind k (Engine.IsValue).
func (l *Language) IsValue(t *Term, k *Kind) bool {
	e := l.pooled(Substitution)
	defer e.Release()
	return e.IsValue(t, k)
}

// InClass reports whether t is a term of the class c (Engine.InClass).
func (l *Language) InClass(t *Term, c *Class) bool {
	e := l.pooled(Substitution)
	defer e.Release()
	return e.InClass(t, c)
}

// IsAnswer reports whether t is a non-value answer of kind k (Engine.IsAnswer).
func (l *Language) IsAnswer(t *Term, k *Kind) bool {
	e := l.pooled(Substitution)
	defer e.Release()
	return e.IsAnswer(t, k)
}

// Match matches t against the pattern p, filling the slots of b (Engine.Match).
func (l *Language) Match(p *Pattern, t *Term, b []*Term) bool {
	e := l.pooled(Substitution)
	defer e.Release()
	return e.match(p, t, b)
}

// Conditions evaluates a rule's side conditions on the bindings of its left-hand
// side, in order (a fresh binds its metavariable), for a rule that steps no inner
// layer; a step condition holds when its term is not a value of its layer (the static
// checks' reading, which takes no step).
func (l *Language) Conditions(r *Rule, b []*Term) bool {
	e := l.pooled(Substitution)
	defer e.Release()
	return e.staticConditions(r, b)
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
	e := Engine{l: l}
	return e.call(f, args, at, 0)
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
	if v.Op == TermInt || v.Op == TermAtom || v.closed.Load() { // known closed: no free variable to look for, none to capture
		return subst(t, x, v, nil, 0)
	}
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
	case TermInt, TermAtom:
		return t
	}
	if t.closed.Load() {
		return t
	}
	checkTermDepth(depth)
	c := t.Con
	// The arguments substituted: a node none of whose arguments changed is t itself
	// (terms are immutable and shared); n, t's copy, is made at the first argument
	// that changes (one allocation: newNode), and args are then its arguments.
	var n *Term
	args := t.Args
	own := func() {
		if n == nil {
			n = newNode(t.P, c, len(t.Args))
			copy(n.Args, t.Args)
			args = n.Args
		}
	}
	// Rename the binders that would capture a free variable of v (none when v is
	// closed).
	for _, bd := range c.Binds {
		if len(fv) == 0 {
			break
		}
		for y := range BinderNames(t.Args[bd.Binder]) {
			if y == x || !fv[y] || !binds(args[bd.Binder], y) {
				continue
			}
			avoid := append([]*Term{v}, t.Args...)
			y2 := FreshName(y, avoid...)
			own()
			args[bd.Binder] = renameBinder(args[bd.Binder], y, y2)
			for _, j := range bd.Scope {
				if !innermost(c, t, bd.Binder, j, y) {
					continue // a later binder of the same name binds y in argument j
				}
				args[j] = subst(args[j], y, Var(t.Args[bd.Binder].P, y2), map[string]bool{y2: true}, depth+1)
			}
		}
	}
	for j, a := range c.Args {
		if a.Kind != ArgTerm {
			continue
		}
		hidden := false
		for _, bi := range c.scope[j] {
			if binds(args[bi], x) {
				hidden = true
			}
		}
		if hidden {
			continue
		}
		if s := subst(args[j], x, v, fv, depth+1); s != args[j] {
			own()
			args[j] = s
		}
	}
	if n == nil {
		return t
	}
	return n
}

// innermost reports whether binder b of t is the innermost binder of the name y
// around argument j: no later bind of the constructor (inside it) binds y there.
func innermost(c *Con, t *Term, b, j int, y string) bool {
	after := false
	for _, bi := range c.scope[j] {
		if bi == b {
			after = true
		} else if after && binds(t.Args[bi], y) {
			return false
		}
	}
	return true
}

// FreeVars is the set of the variables free in t (nil when there are none). It uses
// no recursion, and skips the terms known to be closed.
func FreeVars(t *Term) map[string]bool {
	var fv map[string]bool // made at the first free variable: a closed term's is nil
	// The names bound around a term are a chain of links in one array, each naming
	// the link of the names bound outside it (-1: none), so that a walk of a small
	// term allocates nothing for them.
	type item struct {
		t     *Term
		bound int
	}
	var room [16]item
	var linkRoom [16]nameLink
	stack, links := append(room[:0], item{t: t, bound: -1}), linkRoom[:0]
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := it.t; t.Op {
		case TermVar:
			if !boundIn(links, it.bound, t.Name) {
				if fv == nil {
					fv = map[string]bool{}
				}
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
					if b := t.Args[bi]; b.Op == TermVar {
						links, bound = append(links, nameLink{b.Name, bound}), len(links)
					} else {
						for y := range BinderNames(b) {
							links, bound = append(links, nameLink{y, bound}), len(links)
						}
					}
				}
				stack = append(stack, item{t.Args[j], bound})
			}
		}
	}
	return fv
}

// nameLink is a name bound around a term, and the link of the names bound outside it
// (-1: none): FreeVars's chains.
type nameLink struct {
	x    string
	next int
}

// boundIn reports whether x is on the chain of links from i.
func boundIn(links []nameLink, i int, x string) bool {
	for ; i >= 0; i = links[i].next {
		if links[i].x == x {
			return true
		}
	}
	return false
}

// FreshName is x followed by as many primes as it takes for a name that occurs
// nowhere in the terms, free or bound (lambda.FreshName's rule). Only the names x
// followed by primes can be in the way: their counts of primes are all it keeps
// (a rule's (fresh x ...) runs at every contraction of its rule).
func FreshName(x string, in ...*Term) string {
	var room [16]*Term
	stack := append(room[:0], in...)
	var taken uint64      // bit k: x followed by k primes occurs, k < 64
	var more map[int]bool // the counts from 64 on
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t == nil {
			continue // a context not captured yet (the static checks' reading of a rule)
		}
		switch t.Op {
		case TermVar:
			if k, ok := primes(t.Name, x); ok && k < 64 {
				taken |= 1 << k
			} else if ok {
				if more == nil {
					more = map[int]bool{}
				}
				more[k] = true
			}
		case TermClo, TermHole:
			if t.Body != nil { // the names of a closure's term, as written; a context's
				stack = append(stack, t.Body)
			}
		}
		stack = append(stack, t.Args...)
	}
	k := 1
	for k < 64 && taken&(1<<k) != 0 {
		k++
	}
	for k >= 64 && more[k] {
		k++
	}
	return x + strings.Repeat("'", k)
}

// primes is how many primes follow x in name, if name is x followed by primes only.
func primes(name, x string) (int, bool) {
	rest, ok := strings.CutPrefix(name, x)
	if !ok || strings.Trim(rest, "'") != "" {
		return 0, false
	}
	return len(rest), true
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
		case TermAtom:
			if a.Atom != b.Atom || !a.Atom.Equal(a.Val, b.Val) {
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
					if a.Args[bi].Op == TermVar {
						p = &pairs{a.Args[bi].Name, b.Args[bi].Name, p}
						continue
					}
					xs, ys := slices.Collect(BinderNames(a.Args[bi])), slices.Collect(BinderNames(b.Args[bi]))
					if len(xs) != len(ys) {
						return false
					}
					for k := range xs {
						p = &pairs{xs[k], ys[k], p}
					}
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
