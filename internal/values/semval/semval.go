// Package semval holds the closures of the environment-based stages of a
// rule-defined calculus (sem): the calculus of closures and the environment machine.
// A closure is a term under an environment, t[ρ], or a constructor applied to
// closures (built by plugging a value into a frame and by the rules' right-hand
// sides). An environment maps a name to a closure, or to nothing: a binder around the
// closure binds it and it is not substituted yet (a child under a binder is closed by
// its parent's environment with the binder's name shadowed). Substitution (subst t x
// v) is only an environment's extension: t[ρ][x := v] binds x in the first place ρ
// shadows it, and changes nothing where ρ already gives x a closure (x is not free
// there). A variable is looked up when a pattern meets it: the environment steps
// (look-up, the expansion of t[ρ] into its constructor and children) are not
// contractions, and the contractions are the substitution semantics', one for one.
//
// A rule file qualifies (Qualifies) when no pattern (value, frame, rule, stuck shape)
// matches a variable occurrence in a term position: variables are looked up, never
// matched. cbv.sem, cbn.sem and cbn-strict.sem qualify.
//
// These are meta-level pieces: matching, instantiation, substitution, read-back (σ);
// no evaluator lives here.
package semval

import (
	"fmt"
	"slices"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Clo is a closure: a Leaf t[env], or a node con(args).
type Clo struct {
	T    *sem.Term // a Leaf's term (nil for a node)
	Env  *Env      // a Leaf's environment
	Con  *sem.Con  // a node's constructor
	Args []*Clo    // a node's children: names (leaves of variables) in binder positions
	P    sem.Pos   // a node's source position: its term's, the frame's it was plugged into, the redex's it was contracted from

	// values memoizes IsValue for the kinds numbered below 32: bit 2i says that
	// whether c is a value of kind i is known, bit 2i+1 that it is one. A closure is
	// immutable, so the answer never changes; a run's closures are its own.
	values uint64
	// classes memoizes InClass likewise, for the classes numbered below 32.
	classes uint64
	// view memoizes View of a Leaf of a constructor term: its expansion.
	view *Clo
	// back memoizes ReadBack: the term c stands for. It lives as long as c does, so
	// that a run keeps the read-back of its live closures only (a memo of the run's
	// would keep every closure ever read back, and every term it stood for).
	back *sem.Term
}

// Env is an environment: innermost binding first; c nil marks a name a binder
// around binds, not substituted yet.
type Env struct {
	name string
	c    *Clo
	next *Env
}

// find is the innermost entry of x, or nil.
func (e *Env) find(x string) *Env {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e
		}
	}
	return nil
}

// Bind is the environment e with x bound to c (nil c: x bound by a binder around,
// not substituted yet).
func (e *Env) Bind(x string, c *Clo) *Env { return &Env{name: x, c: c, next: e} }

// Leaf is the closure t[env].
func Leaf(t *sem.Term, env *Env) *Clo { return &Clo{T: t, Env: env} }

// IsName reports whether c is a name: a variable Leaf with no environment (the
// binder positions of nodes, and variables a right-hand side makes).
func (c *Clo) IsName() bool { return c.T != nil && c.T.Op == sem.TermVar && c.Env == nil }

// Resolve looks a variable Leaf up in its environment, until a closure that is not
// a bound variable; a variable bound by a binder around (or free) stays.
func Resolve(c *Clo) *Clo {
	for c.T != nil && c.T.Op == sem.TermVar {
		e := c.Env.find(c.T.Name)
		if e == nil || e.c == nil {
			return c
		}
		c = e.c
	}
	return c
}

// View is c resolved, a Leaf whose term is a constructor expanded into a node: its
// children are its term's, under its environment (with the names of the binders
// around each shadowed).
func View(c *Clo) *Clo {
	c = Resolve(c)
	if c.T == nil || c.T.Op != sem.TermCon {
		return c
	}
	if c.view != nil {
		return c.view
	}
	c.view = expand(c)
	return c.view
}

// expand is a Leaf of a constructor term expanded into a node.
func expand(c *Clo) *Clo {
	t := c.T
	args := make([]*Clo, len(t.Args))
	for i, a := range t.Con.Args {
		switch a.Kind {
		case sem.ArgVar, sem.ArgInt:
			args[i] = Leaf(t.Args[i], nil)
		default:
			env := c.Env
			for _, b := range t.Con.BindersOf(i) {
				env = &Env{name: t.Args[b].Name, next: env}
			}
			args[i] = Leaf(t.Args[i], env)
		}
	}
	return &Clo{Con: t.Con, Args: args, P: t.P}
}

// Qualifies reports whether the environment machine runs l: no pattern matches a
// variable occurrence in a term position (NotQualified says which does).
func Qualifies(l *sem.Language) bool { return NotQualified(l) == nil }

// Meta is the meta-level over closures: matching, instantiation, substitution and
// read-back, the closure counterparts of sem's.
type Meta struct {
	buf   []*Clo // the bindings of the matches under way (take, release)
	l     *sem.Language
	depth int // values and classes matched inside one another, at most sem.MaxTermDepth
}

// Lang is the rule file's language.
func (m *Meta) Lang() *sem.Language { return m.l }

// NewMeta is the meta-level of a language over closures.
func NewMeta(l *sem.Language) Meta {
	return Meta{l: l}
}

// match matches c against p, filling b.
func (m *Meta) match(p *sem.Pattern, c *Clo, b []*Clo) bool {
	switch p.Kind {
	case sem.PatHole:
		b[p.Slot] = c
		return true
	case sem.PatInt:
		v := View(c)
		return v.T != nil && v.T.Op == sem.TermInt && v.T.N == p.N
	case sem.PatMeta:
		switch p.Sort.Kind {
		case sem.MetaVar:
			if !c.IsName() {
				return false
			}
		case sem.MetaInt:
			if c = View(c); c.T == nil || c.T.Op != sem.TermInt {
				return false
			}
		case sem.MetaValue:
			if c = Resolve(c); !m.IsValue(c, p.Sort.ValuesOf) {
				return false
			}
		case sem.MetaClass:
			if c = Resolve(c); !m.InClass(c, p.Sort.Class) {
				return false
			}
		default:
			c = Resolve(c) // a variable stands for its closure: no chains of look-ups
		}
		b[p.Slot] = c
		return true
	case sem.PatCon:
		v := View(c)
		if v.Con != p.Con {
			return false
		}
		for i, a := range p.Args {
			if !m.match(a, v.Args[i], b) {
				return false
			}
		}
		return true
	}
	return false
}

// lookup lists the declarations of one of k's tables that may match the expanded
// closure v (sem.Kind.Lookup).
func lookup(k *sem.Kind, table sem.Table, v *Clo) []int {
	if v.T == nil {
		return k.Lookup(table, sem.TermCon, v.Con)
	}
	return k.Lookup(table, v.T.Op, v.T.Con)
}

func (m *Meta) IsValue(c *Clo, k *sem.Kind) bool {
	return memo(&c.values, k.Index, func() bool { return m.nested(func() bool { return m.isValue(c, k) }) })
}

// memo is f's answer for the kind or class numbered i, from the bits of *bits if known
// (bit 2i says it is, bit 2i+1 what it is), else computed and kept there; numbers from
// 32 on are not kept.
func memo(bits *uint64, i int, f func() bool) bool {
	if i >= 32 {
		return f()
	}
	if known := *bits >> (2 * i); known&1 != 0 {
		return known&2 != 0
	}
	is := f()
	b := uint64(1)
	if is {
		b = 3
	}
	*bits |= b << (2 * i)
	return is
}

// isValue is IsValue, not memoized.
func (m *Meta) isValue(c *Clo, k *sem.Kind) bool {
	c = View(c)
	for _, i := range lookup(k, sem.ValueTable, c) {
		v := k.Values[i]
		if m.matches(v.Pat, c, v.Metas) {
			return true
		}
	}
	return false
}

// InClass reports whether c is a term of the class cl (sem.Language.InClass).
func (m *Meta) InClass(c *Clo, cl *sem.Class) bool {
	return memo(&c.classes, cl.Index, func() bool { return m.nested(func() bool { return m.inClass(c, cl) }) })
}

// nested is f, a match of a value or a class inside the matches under way: past
// sem.MaxTermDepth of them (a term a run built deeper than any program), the run
// stops with sem.TooDeep (sem.Guard) instead of exhausting the stack.
func (m *Meta) nested(f func() bool) bool {
	m.depth++
	sem.CheckTermDepth(m.depth)
	is := f()
	m.depth--
	return is
}

// inClass is InClass, not memoized.
func (m *Meta) inClass(c *Clo, cl *sem.Class) bool {
	v := View(c)
	op, con := sem.TermCon, v.Con
	if v.T != nil {
		op, con = v.T.Op, v.T.Con
	}
	for _, i := range cl.Lookup(op, con) {
		if m.matches(cl.Alts[i], v, cl.Metas[i]) {
			return true
		}
	}
	return false
}

// IsAnswer reports whether c is a non-value answer of kind k (sem.Language.IsAnswer).
func (m *Meta) IsAnswer(c *Clo, k *sem.Kind) bool {
	c = View(c)
	for _, i := range lookup(k, sem.AnswerTable, c) {
		a := k.Answers[i]
		if m.matches(a.Pat, c, a.Metas) {
			return true
		}
	}
	return false
}

// FindFrame is the first frame of k from index from on that c matches.
func (m *Meta) FindFrame(c *Clo, k *sem.Kind, from int) (*sem.Frame, bool) {
	c = View(c)
	for _, i := range lookup(k, sem.FrameTable, c) {
		if f := k.Frames[i]; i >= from && m.matches(f.Pat, c, f.Metas) {
			return f, true
		}
	}
	return nil, false
}

// at is c's child at path, c expanded at each level.
func At(c *Clo, path []int) *Clo {
	for _, i := range path {
		c = View(c).Args[i]
	}
	return c
}

// PlugAt is c with its child at path replaced by v.
func PlugAt(c *Clo, path []int, v *Clo) *Clo {
	if len(path) == 0 {
		return v
	}
	n := View(c)
	args := make([]*Clo, len(n.Args))
	copy(args, n.Args)
	args[path[0]] = PlugAt(n.Args[path[0]], path[1:], v)
	return &Clo{Con: n.Con, Args: args, P: n.P}
}

// intOf is an integer argument of a prim.
func (m *Meta) intOf(p *sem.Pattern, b []*Clo) (int64, bool) {
	switch p.Kind {
	case sem.PatInt:
		return p.N, true
	case sem.PatMeta:
		if v := View(b[p.Slot]); v.T != nil && v.T.Op == sem.TermInt {
			return v.T.N, true
		}
	case sem.PatPrim:
		args := make([]int64, len(p.Args))
		for i, a := range p.Args {
			n, ok := m.intOf(a, b)
			if !ok {
				return 0, false
			}
			args[i] = n
		}
		return p.Prim.Int(args)
	}
	return 0, false
}

// conditions evaluates a rule's side conditions (sem.Language.Conditions over
// closures).
func (m *Meta) conditions(r *sem.Rule, b []*Clo, step Step) (bool, string, error) {
	event := ""
	for _, c := range r.Where {
		switch c.Kind {
		case sem.CondEq, sem.CondNe:
			var eq bool
			if c.Args[0].Kind == sem.PatInt || c.Args[1].Kind == sem.PatInt {
				// A constant: an integer equals it, any other term does not.
				nx, okx := m.intOf(c.Args[0], b)
				ny, oky := m.intOf(c.Args[1], b)
				eq = okx && oky && nx == ny
			} else if x, y := b[c.Args[0].Slot], b[c.Args[1].Slot]; x.IsName() && y.IsName() {
				eq = x.T.Name == y.T.Name
			} else {
				eq = sem.AlphaEqual(m.ReadBack(x), m.ReadBack(y))
			}
			if eq != (c.Kind == sem.CondEq) {
				return false, "", nil
			}
		case sem.CondPrim:
			args := make([]int64, len(c.Args))
			for i, a := range c.Args {
				n, ok := m.intOf(a, b)
				if !ok {
					return false, "", nil
				}
				args[i] = n
			}
			if !c.Prim.Cmp(args) {
				return false, "", nil
			}
		case sem.CondFresh:
			var avoid []*sem.Term
			for _, a := range c.Args[2:] {
				avoid = append(avoid, rawTerms(b[a.Slot])...)
			}
			base := b[c.Args[1].Slot].T
			b[c.Args[0].Slot] = Leaf(sem.Var(base.P, sem.FreshName(base.Name, avoid...)), nil)
		case sem.CondStep:
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

// rawTerms are the terms of c's leaves and the names of its nodes' binders: the names
// that occur in c as written (a fresh name avoids them, as lambda.FreshName avoids
// the names of the term it renames in).
func rawTerms(c *Clo) []*sem.Term {
	if c.T != nil {
		return []*sem.Term{c.T}
	}
	var out []*sem.Term
	for _, a := range c.Args {
		out = append(out, rawTerms(a)...)
	}
	return out
}

// instantiate builds a right-hand side over closures.
func (m *Meta) instantiate(p *sem.Pattern, b []*Clo, at sem.Pos) (*Clo, error) {
	switch p.Kind {
	case sem.PatMeta:
		return b[p.Slot], nil
	case sem.PatInt:
		return Leaf(sem.Int(at, p.N), nil), nil
	case sem.PatPrim:
		n, ok := m.intOf(p, b)
		if !ok {
			return nil, fmt.Errorf("prim %s is undefined here", p.Prim.Name)
		}
		return Leaf(sem.Int(at, n), nil), nil
	case sem.PatSubst:
		t, err := m.instantiate(p.Args[0], b, at)
		if err != nil {
			return nil, err
		}
		v, err := m.instantiate(p.Args[2], b, at)
		if err != nil {
			return nil, err
		}
		return Subst(t, b[p.Args[1].Slot].T.Name, v), nil
	case sem.PatCall:
		// A function is meta-level: it is computed on the terms the closures stand
		// for (σ), and its result is a closed term.
		args := make([]*sem.Term, len(p.Args))
		for i, a := range p.Args {
			c, err := m.instantiate(a, b, at)
			if err != nil {
				return nil, err
			}
			args[i] = m.readArg(c)
		}
		t, err := m.l.Call(p.Fn, args, at)
		if err != nil {
			return nil, err
		}
		return Leaf(t, nil), nil
	case sem.PatCon:
		args := make([]*Clo, len(p.Args))
		for i, a := range p.Args {
			var err error
			if args[i], err = m.instantiate(a, b, at); err != nil {
				return nil, err
			}
		}
		return &Clo{Con: p.Con, Args: args, P: at}, nil
	}
	return nil, fmt.Errorf("cannot instantiate a pattern of kind %d", p.Kind)
}

// Subst is c[x := v]: at a Leaf, the environment extended where it shadows x (or
// where x is free), unchanged where it gives x a closure; at a node, pushed to its
// children but those a binder of x scopes. A name v (a variable a right-hand side
// made, (Subst e x x_2)) renames x in the Leaf's term instead, the new name shadowed.
func Subst(c *Clo, x string, v *Clo) *Clo {
	if c.T == nil {
		args := make([]*Clo, len(c.Args))
		copy(args, c.Args)
		for j, a := range c.Con.Args {
			if a.Kind != sem.ArgTerm {
				continue
			}
			hidden := false
			for _, bi := range c.Con.BindersOf(j) {
				hidden = hidden || c.Args[bi].T.Name == x
			}
			if !hidden {
				args[j] = Subst(c.Args[j], x, v)
			}
		}
		return &Clo{Con: c.Con, Args: args, P: c.P}
	}
	if c.T.Op == sem.TermInt {
		return c
	}
	e := c.Env.find(x)
	if e != nil && e.c != nil {
		return c // x is not free here: the environment gives it already
	}
	if v.IsName() {
		return Leaf(sem.Subst(c.T, x, v.T), &Env{name: v.T.Name, next: c.Env})
	}
	if e == nil {
		return Leaf(c.T, &Env{name: x, c: v, next: c.Env})
	}
	// Replace the shadowing entry: copy the environment up to it.
	var head, tail *Env
	for p := c.Env; p != e; p = p.next {
		n := &Env{name: p.name, c: p.c}
		if head == nil {
			head = n
		} else {
			tail.next = n
		}
		tail = n
	}
	n := &Env{name: x, c: v, next: e.next}
	if head == nil {
		return Leaf(c.T, n)
	}
	tail.next = n
	return Leaf(c.T, head)
}

// ReadBack is the term a closure stands for (σ): each Leaf's term with its
// environment's closures (those of its free variables) substituted, read back in
// turn. Closures nest as deep as the run made them (a closure over a closure over
// ...), so ReadBack keeps the closures still to read back in a stack of its own rather
// than Go's, and reads a closure that several others hold back once; it recurses only
// into a Leaf's term, a subterm of the program or of a rule's right-hand side.
//
// The read-back is memoized on the closure itself (Clo.back), and shares what it can:
// a Leaf with nothing to substitute is its own term, and a node's read-back keeps the
// node's position, as the reduction semantics' term would. The memory a run takes is
// then its live closures' (twice at most), however many closures it reads back: a run
// that reads back, at each step, a term that grows (a function's argument) keeps only
// the last one.
func (m *Meta) ReadBack(c *Clo) *sem.Term {
	if c.back != nil {
		return c.back
	}
	fvs := map[*sem.Term]map[string]bool{} // the free variables of leaves' terms, for this read-back
	stack := []*Clo{c}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if top.back != nil {
			stack = stack[:len(stack)-1]
			continue
		}
		pending := false
		for _, d := range deps(top, fvs) {
			if d.back == nil {
				stack, pending = append(stack, d), true
			}
		}
		if pending {
			continue
		}
		stack = stack[:len(stack)-1]
		switch {
		case top.T == nil:
			args := make([]*sem.Term, len(top.Args))
			for i, a := range top.Args {
				args[i] = a.back
			}
			top.back = sem.App(top.P, top.Con, args...)
		case top.Env == nil || top.T.Op == sem.TermInt:
			top.back = top.T
		default:
			top.back = readLeaf(top.T, top.Env, map[string]int{})
		}
	}
	return c.back
}

// readArg is a function's argument read back: at once where no variable can occur
// (a Leaf of a ground sort's term is that term), else by ReadBack.
func (m *Meta) readArg(c *Clo) *sem.Term {
	if c.T != nil {
		if c.Env == nil || c.T.Op == sem.TermInt || c.T.Op == sem.TermCon && c.T.Con.Sort.Ground {
			return c.T
		}
		return m.ReadBack(c)
	}
	if !c.Con.Sort.Ground {
		return m.ReadBack(c)
	}
	args := make([]*sem.Term, len(c.Args))
	for i, a := range c.Args {
		args[i] = m.readArg(a)
	}
	return sem.App(c.P, c.Con, args...)
}

// deps are the closures c's read-back needs first: a node's children, a Leaf's
// closures of its free variables (fvs memoizes the free variables of terms).
func deps(c *Clo, fvs map[*sem.Term]map[string]bool) []*Clo {
	if c.T == nil {
		return c.Args
	}
	if c.Env == nil || c.T.Op == sem.TermInt {
		return nil
	}
	fv, ok := fvs[c.T]
	if !ok {
		fv = sem.FreeVars(c.T)
		fvs[c.T] = fv
	}
	var out []*Clo
	for x := range fv {
		if e := c.Env.find(x); e != nil && e.c != nil {
			out = append(out, e.c)
		}
	}
	return out
}

// readLeaf substitutes env's read-back closures into t, but for the names a binder of
// t hides; a subterm in which nothing is substituted is t's own.
func readLeaf(t *sem.Term, env *Env, hidden map[string]int) *sem.Term {
	switch t.Op {
	case sem.TermInt:
		return t
	case sem.TermVar:
		if hidden[t.Name] > 0 {
			return t
		}
		if e := env.find(t.Name); e != nil && e.c != nil {
			return e.c.back
		}
		return t
	}
	var args []*sem.Term // nil while every argument is t's own
	for i, a := range t.Con.Args {
		if a.Kind != sem.ArgTerm {
			continue
		}
		for _, b := range t.Con.BindersOf(i) {
			hidden[t.Args[b].Name]++
		}
		u := readLeaf(t.Args[i], env, hidden)
		for _, b := range t.Con.BindersOf(i) {
			hidden[t.Args[b].Name]--
		}
		if u != t.Args[i] && args == nil {
			args = make([]*sem.Term, len(t.Args))
			copy(args, t.Args)
		}
		if args != nil {
			args[i] = u
		}
	}
	if args == nil {
		return t
	}
	return &sem.Term{P: t.P, Op: sem.TermCon, Con: t.Con, Args: args}
}

// A Step takes one step of an inner layer for a rule's (step K a b), over closures
// (sem.LayerStep): the stage's own decomposition of c in kind k.
type Step func(c *Clo, k *sem.Kind) (next *Clo, event string, ok bool, err error)

// Context is a redex's context as a closure stage holds it (sem.Context): its
// frames, innermost first, each with the closure it was entered from.
type Context interface {
	Depth() int
	Frame(i int) (*sem.Frame, *Clo)
}

// Contraction is a redex contracted (sem.Contraction over closures).
type Contraction struct {
	Clo   *Clo
	Rule  *sem.Rule
	Event string
	Pop   int
	Kind  *sem.Kind
}

// Contract contracts the potential redex c of kind k in the context E (nil: empty),
// stepping inner layers with step (sem.Language.Contract over closures).
func (m *Meta) Contract(c *Clo, k *sem.Kind, E Context, step Step) (Contraction, error) {
	c = View(c)
	depth := 0
	if E != nil {
		depth = E.Depth()
	}
	for _, i := range lookup(k, sem.RuleTable, c) {
		r := k.Rules[i]
		b := m.take(r.Metas)
		out, ok, err := m.contractBy(r, c, k, E, depth, step, b)
		m.release(b)
		if err != nil || ok {
			return out, err
		}
	}
	for _, i := range lookup(k, sem.StuckTable, c) {
		if s := k.Stucks[i]; m.matches(s.Pat, c, s.Metas) {
			return Contraction{}, interderive.Runtime(PosOf(c), m.Short(c), s.Reason)
		}
	}
	return Contraction{}, interderive.Stuck(m.Short(c), "no rule applies")
}

// contractBy contracts c by the rule r if it applies, with b its bindings.
func (m *Meta) contractBy(r *sem.Rule, c *Clo, k *sem.Kind, E Context, depth int, step Step, b []*Clo) (Contraction, bool, error) {
	if !m.match(r.LHS, c, b) {
		return Contraction{}, false, nil
	}
	out := Contraction{Rule: r, Kind: k}
	at := PosOf(c)
	if r.Context {
		if out.Pop = m.contextFits(r, E, depth, b); out.Pop == 0 {
			return Contraction{}, false, nil
		}
		f, fc := E.Frame(out.Pop - 1)
		out.Kind, at = f.Kind, PosOf(fc)
		if r.Delimiter == nil {
			out.Kind = m.l.Root()
		}
	}
	ok, inner, err := m.conditions(r, b, step)
	if err != nil || !ok {
		return Contraction{}, false, err
	}
	out.Event = r.Name
	if r.Layer != nil {
		out.Event = r.Name + "/" + inner
	}
	if out.Clo, err = m.instantiate(r.RHS, b, at); err != nil {
		return Contraction{}, false, sem.RuleError(r, m.Short(c), err)
	}
	return out, true, nil
}

// take is a slice of n bindings, cleared, from the run's stack of bindings (a match
// allocates none); release gives it back, last taken first.
// A match writes every slot before anything reads it (a metavariable is bound where
// it occurs, a fresh or a step binds its own), so a slice taken is not cleared.
func (m *Meta) take(n int) []*Clo {
	l := len(m.buf)
	m.buf = slices.Grow(m.buf, n)[:l+n]
	return m.buf[l : l+n : l+n]
}

func (m *Meta) release(b []*Clo) { m.buf = m.buf[:len(m.buf)-len(b)] }

// matches reports whether c matches p, whose bindings are n.
func (m *Meta) matches(p *sem.Pattern, c *Clo, n int) bool {
	b := m.take(n)
	ok := m.match(p, c, b)
	m.release(b)
	return ok
}

// contextFits is the number of frames of E a context rule discards, 0 if its context
// does not fit (sem.Language's contextFits over closures).
func (m *Meta) contextFits(r *sem.Rule, E Context, depth int, b []*Clo) int {
	if r.Delimiter == nil {
		return depth
	}
	for i := range depth {
		f, fc := E.Frame(i)
		if slices.Equal(f.Path, r.DelimiterPath) && m.match(r.Delimiter, fc, b) {
			return i + 1
		}
	}
	return 0
}

// PosOf is the source position of a closure: its Leaf's term's, or the node's.
func PosOf(c *Clo) sem.Pos {
	if c.T != nil {
		return c.T.P
	}
	return c.P
}

func (m *Meta) Short(c *Clo) string {
	return sem.FormatShort(m.ReadBack(c), interderive.MaxStuckShown)
}
