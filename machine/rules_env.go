package machine

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// The environment machine of a rule-defined calculus: the refocused machine of
// rules.go over closures instead of terms, as the calculus of closures has them. A
// closure is a term under an environment, t[ρ], or a constructor applied to closures
// (built by plugging a value into a frame and by the rules' right-hand sides). An
// environment maps a name to a closure, or to nothing: a binder around the closure
// binds it and it is not substituted yet (a child under a binder is closed by its
// parent's environment with the binder's name shadowed). Substitution (subst t x v)
// is only an environment's extension: t[ρ][x := v] binds x in the first place ρ
// shadows it, and changes nothing where ρ already gives x a closure (x is not free
// there). A variable is looked up when a pattern meets it: the environment steps
// (look-up, the expansion of t[ρ] into its constructor and children) are not
// contractions, and the contractions are the substitution machine's, one for one.
//
// A rule file qualifies when no pattern (value, frame, rule, stuck shape) matches a
// variable occurrence in a term position: variables are looked up, never matched.
// cbv.sem, cbn.sem and cbn-strict.sem qualify; a file that does not runs on the
// substitution machine.

// clo is a closure: a leaf t[env], or a node con(args).
type clo struct {
	t    *sem.Term // a leaf's term (nil for a node)
	env  *cenv
	con  *sem.Con // a node's constructor
	args []*clo   // a node's children: names (leaves of variables) in binder positions
	p    sem.Pos  // a node's source position: its term's, the frame's it was plugged into, the redex's it was contracted from
}

// cenv is an environment: innermost binding first; c nil marks a name a binder
// around binds, not substituted yet.
type cenv struct {
	name string
	c    *clo
	next *cenv
}

// find is the innermost entry of x, or nil.
func (e *cenv) find(x string) *cenv {
	for ; e != nil; e = e.next {
		if e.name == x {
			return e
		}
	}
	return nil
}

func leaf(t *sem.Term, env *cenv) *clo { return &clo{t: t, env: env} }

// isName reports whether c is a name: a variable leaf with no environment (the
// binder positions of nodes, and variables a right-hand side makes).
func (c *clo) isName() bool { return c.t != nil && c.t.Op == sem.TermVar && c.env == nil }

// resolve looks a variable leaf up in its environment, until a closure that is not
// a bound variable; a variable bound by a binder around (or free) stays.
func resolve(c *clo) *clo {
	for c.t != nil && c.t.Op == sem.TermVar {
		e := c.env.find(c.t.Name)
		if e == nil || e.c == nil {
			return c
		}
		c = e.c
	}
	return c
}

// view is c resolved, a leaf whose term is a constructor expanded into a node: its
// children are its term's, under its environment (with the names of the binders
// around each shadowed).
func view(c *clo) *clo {
	c = resolve(c)
	if c.t == nil || c.t.Op != sem.TermCon {
		return c
	}
	t := c.t
	args := make([]*clo, len(t.Args))
	for i, a := range t.Con.Args {
		switch a.Kind {
		case sem.ArgVar, sem.ArgInt:
			args[i] = leaf(t.Args[i], nil)
		default:
			env := c.env
			for _, b := range t.Con.BindersOf(i) {
				env = &cenv{name: t.Args[b].Name, next: env}
			}
			args[i] = leaf(t.Args[i], env)
		}
	}
	return &clo{con: t.Con, args: args, p: t.P}
}

// envQualifies reports whether the environment machine runs l: no pattern matches a
// variable occurrence in a term position.
func envQualifies(l *sem.Language) bool {
	var ok func(p *sem.Pattern, term bool) bool
	ok = func(p *sem.Pattern, term bool) bool {
		if p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaVar && term {
			return false
		}
		for i, a := range p.Args {
			if !ok(a, p.Kind == sem.PatCon && p.Con.Args[i].Kind == sem.ArgTerm) {
				return false
			}
		}
		return true
	}
	for _, k := range l.Kinds {
		for _, v := range k.Values {
			if !ok(v.Pat, true) {
				return false
			}
		}
		for _, f := range k.Frames {
			if !ok(f.Pat, true) {
				return false
			}
		}
		for _, r := range k.Rules {
			if !ok(r.LHS, true) {
				return false
			}
		}
		for _, s := range k.Stucks {
			if !ok(s.Pat, true) {
				return false
			}
		}
	}
	return true
}

// envMeta is the meta-level over closures: matching, instantiation, substitution and
// read-back, the closure counterparts of sem's.
type envMeta struct {
	l    *sem.Language
	back map[*clo]*sem.Term            // read-back, memoized
	fvs  map[*sem.Term]map[string]bool // the free variables of leaves' terms, memoized
}

func newEnvMeta(l *sem.Language) envMeta {
	return envMeta{l: l, back: map[*clo]*sem.Term{}, fvs: map[*sem.Term]map[string]bool{}}
}

// match matches c against p, filling b.
func (m *envMeta) match(p *sem.Pattern, c *clo, b []*clo) bool {
	switch p.Kind {
	case sem.PatHole:
		b[p.Slot] = c
		return true
	case sem.PatInt:
		v := view(c)
		return v.t != nil && v.t.Op == sem.TermInt && v.t.N == p.N
	case sem.PatMeta:
		switch p.Sort.Kind {
		case sem.MetaVar:
			if !c.isName() {
				return false
			}
		case sem.MetaInt:
			if c = view(c); c.t == nil || c.t.Op != sem.TermInt {
				return false
			}
		case sem.MetaValue:
			if c = resolve(c); !m.isValue(c, p.Sort.ValuesOf) {
				return false
			}
		default:
			c = resolve(c) // a variable stands for its closure: no chains of look-ups
		}
		b[p.Slot] = c
		return true
	case sem.PatCon:
		v := view(c)
		if v.con != p.Con {
			return false
		}
		for i, a := range p.Args {
			if !m.match(a, v.args[i], b) {
				return false
			}
		}
		return true
	}
	return false
}

// lookup lists the declarations of one of k's tables that may match the expanded
// closure v (sem.Kind.Lookup).
func lookup(k *sem.Kind, table sem.Table, v *clo) []int {
	if v.t == nil {
		return k.Lookup(table, sem.TermCon, v.con)
	}
	return k.Lookup(table, v.t.Op, v.t.Con)
}

func (m *envMeta) isValue(c *clo, k *sem.Kind) bool {
	c = view(c)
	for _, i := range lookup(k, sem.ValueTable, c) {
		v := k.Values[i]
		if m.match(v.Pat, c, make([]*clo, v.Metas)) {
			return true
		}
	}
	return false
}

// findFrame is the first frame of k from index from on that c matches.
func (m *envMeta) findFrame(c *clo, k *sem.Kind, from int) (*sem.Frame, bool) {
	c = view(c)
	for _, i := range lookup(k, sem.FrameTable, c) {
		if f := k.Frames[i]; i >= from && m.match(f.Pat, c, make([]*clo, f.Metas)) {
			return f, true
		}
	}
	return nil, false
}

// at is c's child at path, c expanded at each level.
func at(c *clo, path []int) *clo {
	for _, i := range path {
		c = view(c).args[i]
	}
	return c
}

// plugAt is c with its child at path replaced by v.
func plugAt(c *clo, path []int, v *clo) *clo {
	if len(path) == 0 {
		return v
	}
	n := view(c)
	args := make([]*clo, len(n.args))
	copy(args, n.args)
	args[path[0]] = plugAt(n.args[path[0]], path[1:], v)
	return &clo{con: n.con, args: args, p: n.p}
}

// intOf is an integer argument of a prim.
func (m *envMeta) intOf(p *sem.Pattern, b []*clo) (int64, bool) {
	switch p.Kind {
	case sem.PatInt:
		return p.N, true
	case sem.PatMeta:
		if v := view(b[p.Slot]); v.t != nil && v.t.Op == sem.TermInt {
			return v.t.N, true
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
func (m *envMeta) conditions(r *sem.Rule, b []*clo) bool {
	for _, c := range r.Where {
		switch c.Kind {
		case sem.CondEq, sem.CondNe:
			x, y := b[c.Args[0].Slot], b[c.Args[1].Slot]
			var eq bool
			if x.isName() && y.isName() {
				eq = x.t.Name == y.t.Name
			} else {
				eq = sem.AlphaEqual(m.readBack(x), m.readBack(y))
			}
			if eq != (c.Kind == sem.CondEq) {
				return false
			}
		case sem.CondPrim:
			args := make([]int64, len(c.Args))
			for i, a := range c.Args {
				n, ok := m.intOf(a, b)
				if !ok {
					return false
				}
				args[i] = n
			}
			if !c.Prim.Cmp(args) {
				return false
			}
		case sem.CondFresh:
			var avoid []*sem.Term
			for _, a := range c.Args[2:] {
				avoid = append(avoid, rawTerms(b[a.Slot])...)
			}
			base := b[c.Args[1].Slot].t
			b[c.Args[0].Slot] = leaf(sem.Var(base.P, sem.FreshName(base.Name, avoid...)), nil)
		}
	}
	return true
}

// rawTerms are the terms of c's leaves and the names of its nodes' binders: the names
// that occur in c as written (a fresh name avoids them, as lambda.FreshName avoids
// the names of the term it renames in).
func rawTerms(c *clo) []*sem.Term {
	if c.t != nil {
		return []*sem.Term{c.t}
	}
	var out []*sem.Term
	for _, a := range c.args {
		out = append(out, rawTerms(a)...)
	}
	return out
}

// instantiate builds a right-hand side over closures.
func (m *envMeta) instantiate(p *sem.Pattern, b []*clo, at sem.Pos) (*clo, error) {
	switch p.Kind {
	case sem.PatMeta:
		return b[p.Slot], nil
	case sem.PatInt:
		return leaf(sem.Int(at, p.N), nil), nil
	case sem.PatPrim:
		n, ok := m.intOf(p, b)
		if !ok {
			return nil, fmt.Errorf("prim %s is undefined here", p.Prim.Name)
		}
		return leaf(sem.Int(at, n), nil), nil
	case sem.PatSubst:
		t, err := m.instantiate(p.Args[0], b, at)
		if err != nil {
			return nil, err
		}
		v, err := m.instantiate(p.Args[2], b, at)
		if err != nil {
			return nil, err
		}
		return subst(t, b[p.Args[1].Slot].t.Name, v), nil
	case sem.PatCon:
		args := make([]*clo, len(p.Args))
		for i, a := range p.Args {
			var err error
			if args[i], err = m.instantiate(a, b, at); err != nil {
				return nil, err
			}
		}
		return &clo{con: p.Con, args: args, p: at}, nil
	}
	return nil, fmt.Errorf("cannot instantiate a pattern of kind %d", p.Kind)
}

// subst is c[x := v]: at a leaf, the environment extended where it shadows x (or
// where x is free), unchanged where it gives x a closure; at a node, pushed to its
// children but those a binder of x scopes. A name v (a variable a right-hand side
// made, (subst e x x_2)) renames x in the leaf's term instead, the new name shadowed.
func subst(c *clo, x string, v *clo) *clo {
	if c.t == nil {
		args := make([]*clo, len(c.args))
		copy(args, c.args)
		for j, a := range c.con.Args {
			if a.Kind != sem.ArgTerm {
				continue
			}
			hidden := false
			for _, bi := range c.con.BindersOf(j) {
				hidden = hidden || c.args[bi].t.Name == x
			}
			if !hidden {
				args[j] = subst(c.args[j], x, v)
			}
		}
		return &clo{con: c.con, args: args, p: c.p}
	}
	if c.t.Op == sem.TermInt {
		return c
	}
	e := c.env.find(x)
	if e != nil && e.c != nil {
		return c // x is not free here: the environment gives it already
	}
	if v.isName() {
		return leaf(sem.Subst(c.t, x, v.t), &cenv{name: v.t.Name, next: c.env})
	}
	if e == nil {
		return leaf(c.t, &cenv{name: x, c: v, next: c.env})
	}
	// Replace the shadowing entry: copy the environment up to it.
	var head, tail *cenv
	for p := c.env; p != e; p = p.next {
		n := &cenv{name: p.name, c: p.c}
		if head == nil {
			head = n
		} else {
			tail.next = n
		}
		tail = n
	}
	n := &cenv{name: x, c: v, next: e.next}
	if head == nil {
		return leaf(c.t, n)
	}
	tail.next = n
	return leaf(c.t, head)
}

// readBack is the term a closure stands for (σ): each leaf's term with its
// environment's closures (those of its free variables) substituted, read back in
// turn. Closures nest as deep as the run made them (a closure over a closure over
// ...), so readBack keeps the closures still to read back in a stack of its own rather
// than Go's, and reads a closure that several others hold back once; it recurses only
// into a leaf's term, a subterm of the program or of a rule's right-hand side.
func (m *envMeta) readBack(c *clo) *sem.Term {
	if t, ok := m.back[c]; ok {
		return t
	}
	stack := []*clo{c}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if _, done := m.back[top]; done {
			stack = stack[:len(stack)-1]
			continue
		}
		pending := false
		for _, d := range m.deps(top) {
			if _, done := m.back[d]; !done {
				stack, pending = append(stack, d), true
			}
		}
		if pending {
			continue
		}
		stack = stack[:len(stack)-1]
		if top.t == nil {
			args := make([]*sem.Term, len(top.args))
			for i, a := range top.args {
				args[i] = m.back[a]
			}
			m.back[top] = sem.App(sem.Pos{}, top.con, args...)
		} else {
			m.back[top] = m.readLeaf(top.t, top.env, map[string]int{})
		}
	}
	return m.back[c]
}

// deps are the closures c's read-back needs first: a node's children, a leaf's
// closures of its free variables.
func (m *envMeta) deps(c *clo) []*clo {
	if c.t == nil {
		return c.args
	}
	if c.env == nil || c.t.Op == sem.TermInt {
		return nil
	}
	fv, ok := m.fvs[c.t]
	if !ok {
		fv = sem.FreeVars(c.t)
		m.fvs[c.t] = fv
	}
	var out []*clo
	for x := range fv {
		if e := c.env.find(x); e != nil && e.c != nil {
			out = append(out, e.c)
		}
	}
	return out
}

// readLeaf substitutes env's read-back closures into t, but for the names a binder of
// t hides.
func (m *envMeta) readLeaf(t *sem.Term, env *cenv, hidden map[string]int) *sem.Term {
	switch t.Op {
	case sem.TermInt:
		return t
	case sem.TermVar:
		if hidden[t.Name] > 0 {
			return t
		}
		if e := env.find(t.Name); e != nil && e.c != nil {
			return m.back[e.c]
		}
		return t
	}
	args := make([]*sem.Term, len(t.Args))
	for i, a := range t.Con.Args {
		if a.Kind != sem.ArgTerm {
			args[i] = t.Args[i]
			continue
		}
		for _, b := range t.Con.BindersOf(i) {
			hidden[t.Args[b].Name]++
		}
		args[i] = m.readLeaf(t.Args[i], env, hidden)
		for _, b := range t.Con.BindersOf(i) {
			hidden[t.Args[b].Name]--
		}
	}
	return &sem.Term{P: t.P, Op: sem.TermCon, Con: t.Con, Args: args}
}

// contract contracts the potential redex c of kind k by the first rule that matches.
func (m *envMeta) contract(c *clo, k *sem.Kind) (*clo, *sem.Rule, error) {
	c = view(c)
	for _, i := range lookup(k, sem.RuleTable, c) {
		r := k.Rules[i]
		b := make([]*clo, r.Metas)
		if !m.match(r.LHS, c, b) || !m.conditions(r, b) {
			continue
		}
		out, err := m.instantiate(r.RHS, b, cloPos(c))
		if err != nil {
			return nil, r, interderive.Stuck(m.short(c), "rule %s: %v", r.Name, err)
		}
		return out, r, nil
	}
	for _, i := range lookup(k, sem.StuckTable, c) {
		if s := k.Stucks[i]; m.match(s.Pat, c, make([]*clo, s.Metas)) {
			return nil, nil, interderive.Runtime(cloPos(c), m.short(c), s.Reason)
		}
	}
	return nil, nil, interderive.Stuck(m.short(c), "no rule applies")
}

// cloPos is the source position of a closure: its leaf's term's, or the node's.
func cloPos(c *clo) sem.Pos {
	if c.t != nil {
		return c.t.P
	}
	return c.p
}

func (m *envMeta) short(c *clo) string {
	return sem.FormatShort(m.readBack(c), interderive.MaxStuckShown)
}

// envFrame is a frame of K: a frame of the rule file, and the closure (expanded)
// around its hole.
type envFrame struct {
	frame *sem.Frame
	node  *clo
}

// envMachine runs the environment machine for one program: the transitions of
// rules.go, over closures.
type envMachine struct {
	envMeta
	fuel *interderive.Counter
	obs  interderive.Observer
	pr   *interderive.ItemPrinter
}

// run iterates the transitions from eval(t[ε], root kind, []) to halt, and reads the
// answer back.
func (m *envMachine) run(t *sem.Term) (*sem.Term, error) {
	mode, c, k := rulesEval, leaf(t, nil), m.l.Root()
	var K []envFrame
	contract := func(c *clo, kind *sem.Kind) (*clo, error) {
		out, r, err := m.contract(c, kind)
		if err != nil {
			return nil, err
		}
		if err := m.fuel.Contract(r.Name); err != nil {
			return nil, err
		}
		return out, nil
	}
	for {
		if m.obs != nil {
			m.obs.Step(m.show(mode, c, k, K))
			if err := m.pr.Err(); err != nil {
				return nil, err
			}
		}
		if mode == rulesEval {
			c = resolve(c) // look-up: an environment step
			if c.t != nil && c.t.Op == sem.TermVar {
				return nil, interderive.Stuck(c.t.Name, "free variable %s", c.t.Name)
			}
			if m.isValue(c, k) {
				mode = rulesContinue
				continue
			}
			if f, ok := m.findFrame(c, k, 0); ok {
				n := view(c)
				K = append(K, envFrame{frame: f, node: n})
				c, k = at(n, f.Path), f.Hole
				continue
			}
			out, err := contract(c, k)
			if err != nil {
				return nil, err
			}
			c = out
			continue
		}
		if len(K) == 0 {
			return m.readBack(c), nil
		}
		top := K[len(K)-1]
		K = K[:len(K)-1]
		n := plugAt(top.node, top.frame.Path, c)
		k = top.frame.Kind
		if g, ok := m.findFrame(n, k, top.frame.Index+1); ok {
			n = view(n)
			K = append(K, envFrame{frame: g, node: n})
			mode, c, k = rulesEval, at(n, g.Path), g.Hole
			continue
		}
		if m.isValue(n, k) {
			c = n
			continue
		}
		out, err := contract(n, k)
		if err != nil {
			return nil, err
		}
		mode, c = rulesEval, out
	}
}

// show prints a state, its closures read back, within the run's print budget.
func (m *envMachine) show(mode rulesMode, c *clo, k *sem.Kind, K []envFrame) string {
	return m.pr.Item(func(b interderive.PrintBudget) (string, error) {
		w := interderive.Bounded(b)
		if mode == rulesEval {
			fmt.Fprintf(&w, "%-10s ", "eval")
		} else {
			fmt.Fprintf(&w, "%-10s ", "continue")
		}
		t, err := sem.FormatBounded(m.readBack(c), w.Left())
		w.WriteString(t)
		w.Fail(err)
		if mode == rulesEval {
			w.WriteString("  in " + k.Name)
		}
		w.WriteString("\n           K=[")
		for i, f := range K {
			if w.Stopped() {
				break
			}
			if i > 0 {
				w.WriteString(", ")
			}
			hole := m.readBack(plugAt(f.node, f.frame.Path, leaf(sem.Var(sem.Pos{}, "[]"), nil)))
			w.WriteString(sem.FormatShort(hole, 40))
		}
		w.WriteString("]")
		return w.Result()
	})
}
