package sem

// Closures: the terms of the environment discipline (Engine). A closure is a term of
// its own kind, TermClo, t[ρ]: a term of the program or of a rule's right-hand side
// (its Body) under an environment (its Env). The other terms a run over environments
// holds are constructor nodes whose children are closures (built by plugging a value
// into a frame and by the right-hand sides), names (plain variables: the binders of
// nodes, and variables a right-hand side makes) and closed terms, which are their own
// closures: literals (integers, atoms) and terms of ground sorts. An environment maps
// a name to a closure, or to nothing: a binder around the closure binds it and it is
// not substituted yet (a child under a binder is closed by its parent's environment
// with the binder's name shadowed). Substitution (subst t x v) is only an
// environment's extension: t[ρ][x := v] binds x in the first place ρ shadows it, and
// changes nothing where ρ already gives x a closure (x is not free there). A variable
// is looked up when a pattern meets it, or, a child of a closure expanded, when the
// closure is expanded: the environment steps (look-up, the expansion of t[ρ] into its
// constructor and children) are not contractions, and the contractions are the
// substitution discipline's, one for one.
//
// Under the substitution discipline no term is a closure, and the functions here are
// the identity (Resolve, View) or are not called (ReadBack, substClosure).

// Env is an environment: innermost binding first; c nil marks a name a binder
// around binds, not substituted yet.
type Env struct {
	name string
	c    *Term
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
func (e *Env) Bind(x string, c *Term) *Env { return &Env{name: x, c: c, next: e} }

// Name is the name e's innermost entry binds.
func (e *Env) Name() string { return e.name }

// Value is the closure e's innermost entry binds its name to, nil for a name bound by
// a binder around, not substituted yet.
func (e *Env) Value() *Term { return e.c }

// Next is e without its innermost entry.
func (e *Env) Next() *Env { return e.next }

// Leaf is the closure t[env]; a variable with no environment is a name, itself, and a
// closed term, a literal or a term of a ground sort (no variable occurs in it), is its
// own closure.
func Leaf(t *Term, env *Env) *Term {
	if env == nil && t.Op == TermVar || literal(t) || ground(t) {
		return t
	}
	c := newWithParts(t.P, TermClo)
	c.Body, c.Env = t, env
	return c
}

// ground reports whether t is a node of a ground sort, in which no variable occurs:
// under environments it is its own closure (Leaf), never put under an environment, so
// that what is known of it (its memo) stays with it from one run to the next, and a
// look at its children expands nothing.
func ground(t *Term) bool { return t.Op == TermCon && t.Con.Sort.Ground }

// IsName reports whether t is a name: a plain variable (under environments, the
// binder positions of nodes, and the variables a right-hand side makes).
func IsName(t *Term) bool { return t.Op == TermVar }

// Resolve looks a variable closure up in its environment, until a term that is not a
// bound variable; a variable bound by a binder around (or free) stays.
func Resolve(t *Term) *Term {
	for t.Op == TermClo && t.Body.Op == TermVar {
		e := t.Env.find(t.Body.Name)
		if e == nil || e.c == nil {
			return t
		}
		t = e.c
	}
	return t
}

// View is t resolved, a closure whose term is a constructor expanded into a node: its
// children are its term's, under its environment (with the names of the binders
// around each shadowed). The expansion is memoized on the closure.
func View(t *Term) *Term {
	if t.Op != TermClo { // a term (under substitution, always), without the call
		return t
	}
	return view(t)
}

func view(t *Term) *Term {
	t = Resolve(t)
	if t.Op != TermClo || t.Body.Op != TermCon {
		return t
	}
	if v := t.view.Load(); v != nil {
		return v
	}
	v := expand(t)
	t.view.Store(v)
	return v
}

// expand is a closure of a constructor term expanded into a node: its children are
// the term's under the closure's environment, the names of its binders shadowed in
// the scopes they bind (a name stays a name). A child that needs no environment is
// itself: a ground term or a literal, closed; and a variable the environment gives a
// closure is that closure, looked up at once (a variable a binder around binds, or
// free, stays a closure of its own). The node, its arguments and the closures of the
// other children are one allocation.
func expand(c *Term) *Term {
	t := c.Body
	var room [4]*Term
	kids := room[:0] // each child that needs no closure of its own, else nil
	if len(t.Args) > len(room) {
		kids = make([]*Term, 0, len(t.Args))
	}
	need := 0
	for i, a := range t.Con.Args {
		kids = append(kids, ownChild(t, i, a, c.Env))
		if kids[i] == nil {
			need++
		}
	}
	n, leaves := newExpansion(t.P, t.Con, len(t.Args), need)
	for i, a := range t.Con.Args {
		if kids[i] != nil {
			n.Args[i] = kids[i]
			continue
		}
		env := c.Env
		if a.Kind == ArgInt {
			env = nil
		}
		for _, b := range t.Con.scope[i] {
			if x := t.Args[b]; x.Op == TermVar {
				env = &Env{name: x.Name, next: env}
				continue
			}
			for y := range BinderNames(t.Args[b]) { // a sequence of binders, the last innermost
				env = &Env{name: y, next: env}
			}
		}
		l := &leaves[0]
		leaves = leaves[1:]
		l.P, l.Op = t.Args[i].P, TermClo
		l.Body, l.Env = t.Args[i], env // its own parts (newExpansion)
		n.Args[i] = l
	}
	return n
}

// ownChild is the child i of the constructor term t under env where it needs no
// closure of its own (expand), else nil.
func ownChild(t *Term, i int, a Arg, env *Env) *Term {
	u := t.Args[i]
	switch {
	case a.Kind == ArgVar || binderArg(a):
		return u // a name, or a sequence of them
	case literal(u) || ground(u):
		return u // closed
	case u.Op != TermVar || len(t.Con.scope[i]) > 0:
		return nil // a term, or a variable a binder of t may shadow
	}
	if e := env.find(u.Name); e != nil && e.c != nil {
		return Resolve(e.c)
	}
	return nil
}

// newExpansion is a node of c with n arguments, its Args to fill, and room for k
// closures of its children, each with its parts: one allocation up to three
// arguments (the arities of nearly every constructor), three past that.
func newExpansion(p Pos, c *Con, n, k int) (*Term, []Term) {
	var t *Term
	var leaves []Term
	switch {
	case k == 0:
		t = newNode(p, c, n)
	case n < len(expansions) && k < len(expansions[n]):
		t, leaves = expansions[n][k]()
	default:
		t, leaves = newNode(p, c, n), make([]Term, k)
		ps := make([]parts, k)
		for i := range leaves {
			leaves[i].parts = &ps[i]
		}
	}
	t.P, t.Op, t.Con, t.parts = p, TermCon, c, &noParts
	return t, leaves
}

// expansions allocate, by arity n and number k of closures (0 < k <= n <= 3), a node,
// its arguments and k closures with their parts at once.
var expansions = [4][4]func() (*Term, []Term){
	1: {1: func() (*Term, []Term) {
		x := new(expansion1)
		x.t.Args, x.l[0].parts = x.a[:], &x.p[0]
		return &x.t, x.l[:]
	}},
	2: {
		1: func() (*Term, []Term) {
			x := new(expansion21)
			x.t.Args, x.l[0].parts = x.a[:], &x.p[0]
			return &x.t, x.l[:]
		},
		2: func() (*Term, []Term) {
			x := new(expansion2)
			x.t.Args, x.l[0].parts, x.l[1].parts = x.a[:], &x.p[0], &x.p[1]
			return &x.t, x.l[:]
		},
	},
	3: {
		1: func() (*Term, []Term) {
			x := new(expansion31)
			x.t.Args, x.l[0].parts = x.a[:], &x.p[0]
			return &x.t, x.l[:]
		},
		2: func() (*Term, []Term) {
			x := new(expansion32)
			x.t.Args, x.l[0].parts, x.l[1].parts = x.a[:], &x.p[0], &x.p[1]
			return &x.t, x.l[:]
		},
		3: func() (*Term, []Term) {
			x := new(expansion3)
			x.t.Args, x.l[0].parts, x.l[1].parts, x.l[2].parts = x.a[:], &x.p[0], &x.p[1], &x.p[2]
			return &x.t, x.l[:]
		},
	},
}

type (
	expansion1 struct {
		t Term
		a [1]*Term
		l [1]Term
		p [1]parts
	}
	expansion21 struct {
		t Term
		a [2]*Term
		l [1]Term
		p [1]parts
	}
	expansion2 struct {
		t Term
		a [2]*Term
		l [2]Term
		p [2]parts
	}
	expansion31 struct {
		t Term
		a [3]*Term
		l [1]Term
		p [1]parts
	}
	expansion32 struct {
		t Term
		a [3]*Term
		l [2]Term
		p [2]parts
	}
	expansion3 struct {
		t Term
		a [3]*Term
		l [3]Term
		p [3]parts
	}
)

// atomValue is the atom t stands for, if it is one (or a closure of one), else nil.
func atomValue(t *Term) *Term {
	switch t.Op {
	case TermAtom:
		return t
	case TermClo:
		if t.Body.Op == TermAtom {
			return t.Body
		}
	}
	return nil
}

// literal reports whether t is a literal, an integer or an atom: its own read-back,
// under any environment.
func literal(t *Term) bool { return t.Op == TermInt || t.Op == TermAtom }

// intValue is the integer t stands for, if it is one: a literal, or a closure of one.
func intValue(t *Term) (int64, bool) {
	switch t.Op {
	case TermInt:
		return t.N, true
	case TermClo:
		if t.Body.Op == TermInt {
			return t.Body.N, true
		}
	}
	return 0, false
}

// substClosure is t[x := v] under environments: at a closure, the environment
// extended where it shadows x (or where x is free), unchanged where it gives x a
// closure; at a node, pushed to its children but those a binder of x scopes. A name v
// (a variable a right-hand side made, (subst e x x_2)) renames x in the closure's
// term instead, the new name shadowed. A name t is the closure t[ε].
func substClosure(t *Term, x string, v *Term) *Term {
	switch t.Op {
	case TermInt, TermAtom:
		return t
	case TermCon:
		if t.Con.Sort.Ground {
			return t // no x occurs in it
		}
		n := newNode(t.P, t.Con, len(t.Args))
		copy(n.Args, t.Args)
		for j, a := range t.Con.Args {
			if a.Kind != ArgTerm || binderArg(a) {
				continue
			}
			hidden := false
			for _, bi := range t.Con.scope[j] {
				hidden = hidden || binds(t.Args[bi], x)
			}
			if !hidden {
				n.Args[j] = substClosure(t.Args[j], x, v)
			}
		}
		return n
	}
	body, env := t, (*Env)(nil)
	if t.Op == TermClo {
		body, env = t.Body, t.Env
	}
	if literal(body) {
		return t
	}
	e := env.find(x)
	if e != nil && e.c != nil {
		return t // x is not free here: the environment gives it already
	}
	if IsName(v) {
		c := newWithParts(body.P, TermClo)
		c.Body, c.Env = Subst(body, x, v), &Env{name: v.Name, next: env}
		return c
	}
	// The closure and its environment's new entries, one allocation: x bound in front
	// where ρ does not shadow it, else the shadowing entry replaced and the entries
	// before it copied.
	m := 1
	for p := env; e != nil && p != e; p = p.next {
		m++
	}
	c, es := newCloEnv(body.P, m)
	p := env
	for i := range es[:m-1] {
		es[i] = Env{name: p.name, c: p.c, next: &es[i+1]}
		p = p.next
	}
	last := &es[m-1]
	last.name, last.c, last.next = x, v, env
	if e != nil {
		last.next = e.next
	}
	c.Body, c.Env = body, &es[0]
	return c
}

// cloEnv1 ... cloEnv3 are a closure, its parts and the first entries of its
// environment, one allocation (newCloEnv).
type (
	cloEnv1 struct {
		t Term
		p parts
		e [1]Env
	}
	cloEnv2 struct {
		t Term
		p parts
		e [2]Env
	}
	cloEnv3 struct {
		t Term
		p parts
		e [3]Env
	}
)

// newCloEnv is a closure at p, its parts and n environment entries to fill: one
// allocation for up to three entries (a substitution copies the entries in front of
// the one it replaces, seldom more than two).
func newCloEnv(p Pos, n int) (*Term, []Env) {
	var t *Term
	var es []Env
	switch n {
	case 1:
		x := new(cloEnv1)
		t, es, x.t.parts = &x.t, x.e[:], &x.p
	case 2:
		x := new(cloEnv2)
		t, es, x.t.parts = &x.t, x.e[:], &x.p
	case 3:
		x := new(cloEnv3)
		t, es, x.t.parts = &x.t, x.e[:], &x.p
	default:
		t, es = newWithParts(p, TermClo), make([]Env, n)
	}
	t.P, t.Op = p, TermClo
	return t, es
}

// readBack is the term t stands for once read back (ReadBack), if known: a name or an
// integer stands for itself.
func readBack(t *Term) *Term {
	if t.Op == TermVar || literal(t) || ground(t) {
		return t
	}
	return t.back.Load()
}

// ReadBack is the term a closure stands for (σ): each closure's term with its
// environment's closures (those of its free variables) substituted, read back in
// turn. Closures nest as deep as the run made them (a closure over a closure over
// ...), so ReadBack keeps the closures still to read back in a stack of its own rather
// than Go's, and reads a closure that several others hold back once; it recurses only
// into a closure's term, a subterm of the program or of a rule's right-hand side.
//
// The read-back is memoized on the closure itself, and shares what it can: a closure
// with nothing to substitute is its own term, and a node's read-back keeps the node's
// position, as the substitution discipline's term would. The memory a run takes is
// then its live closures' (twice at most), however many closures it reads back: a run
// that reads back, at each step, a term that grows (a function's argument) keeps only
// the last one. It is for the terms of the environment discipline only: under
// substitution a term is its own read-back (Engine.ReadBack).
func ReadBack(c *Term) *Term {
	if b := readBack(c); b != nil {
		return b
	}
	fvs := map[*Term]map[string]bool{} // the free variables of closures' terms, for this read-back
	stack := []*Term{c}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if readBack(top) != nil {
			stack = stack[:len(stack)-1]
			continue
		}
		pending := false
		for _, d := range deps(top, fvs) {
			if readBack(d) == nil {
				stack, pending = append(stack, d), true
			}
		}
		if pending {
			continue
		}
		stack = stack[:len(stack)-1]
		switch {
		case top.Op == TermCon:
			args := make([]*Term, len(top.Args))
			for i, a := range top.Args {
				args[i] = readBack(a)
			}
			top.back.Store(App(top.P, top.Con, args...))
		case top.Env == nil || literal(top.Body):
			top.back.Store(top.Body)
		default:
			top.back.Store(readLeaf(top.Body, top.Env, map[string]int{}))
		}
	}
	return readBack(c)
}

// readArg is a function's argument read back: at once where no variable can occur
// (a closure of a ground sort's term is that term), else by ReadBack.
func readArg(c *Term) *Term {
	switch c.Op {
	case TermVar, TermInt, TermAtom:
		return c
	case TermClo:
		if c.Env == nil || literal(c.Body) {
			return c.Body
		}
		return ReadBack(c)
	}
	return ReadBack(c) // a ground node its own (readBack)
}

// deps are the terms c's read-back needs first: a node's children, a closure's
// closures of its free variables (fvs memoizes the free variables of terms).
func deps(c *Term, fvs map[*Term]map[string]bool) []*Term {
	if c.Op == TermCon {
		return c.Args
	}
	if c.Env == nil || literal(c.Body) {
		return nil
	}
	fv, ok := fvs[c.Body]
	if !ok {
		fv = FreeVars(c.Body)
		fvs[c.Body] = fv
	}
	var out []*Term
	for x := range fv {
		if e := c.Env.find(x); e != nil && e.c != nil {
			out = append(out, e.c)
		}
	}
	return out
}

// readLeaf substitutes env's read-back closures into t, but for the names a binder of
// t hides; a subterm in which nothing is substituted is t's own.
func readLeaf(t *Term, env *Env, hidden map[string]int) *Term {
	switch t.Op {
	case TermInt, TermAtom:
		return t
	case TermVar:
		if hidden[t.Name] > 0 {
			return t
		}
		if e := env.find(t.Name); e != nil && e.c != nil {
			return readBack(e.c)
		}
		return t
	}
	var args []*Term // nil while every argument is t's own
	for i, a := range t.Con.Args {
		if a.Kind != ArgTerm || binderArg(a) {
			continue
		}
		for _, b := range t.Con.scope[i] {
			for y := range BinderNames(t.Args[b]) {
				hidden[y]++
			}
		}
		u := readLeaf(t.Args[i], env, hidden)
		for _, b := range t.Con.scope[i] {
			for y := range BinderNames(t.Args[b]) {
				hidden[y]--
			}
		}
		if u != t.Args[i] && args == nil {
			args = make([]*Term, len(t.Args))
			copy(args, t.Args)
		}
		if args != nil {
			args[i] = u
		}
	}
	if args == nil {
		return t
	}
	return &Term{P: t.P, Op: TermCon, Con: t.Con, Args: args, parts: &noParts}
}

// At is t's child at path, t expanded at each level (a plain term's subterm there).
func At(t *Term, path []int) *Term {
	for _, i := range path {
		t = View(t).Args[i]
	}
	return t
}

// PlugAt is t with its child at path (t expanded at each level) replaced by u: a
// frame plugged. A frame plugged with the very term it was entered with is the term
// it was entered from (expanded), shared, not built again: so decomposition, which
// climbs out of a frame with the value it found in its hole, builds nothing. It
// loops, as deep as the path: a frame's pattern's depth, or a captured context's.
func PlugAt(t *Term, path []int, u *Term) *Term {
	// The nodes along the path, each expanded, then rebuilt innermost first: a loop,
	// so that a path as long as a run's stack (a captured context) takes no Go stack.
	var room [8]*Term
	nodes := room[:0]
	for _, j := range path {
		n := View(t)
		nodes = append(nodes, n)
		t = n.Args[j]
	}
	for i := len(path) - 1; i >= 0; i-- {
		n := nodes[i]
		if n.Args[path[i]] == u {
			u = n // nothing changed below: the node itself
			continue
		}
		m := newNode(n.P, n.Con, len(n.Args))
		copy(m.Args, n.Args)
		m.Args[path[i]] = u
		u = m
	}
	return u
}

// Scratch is room for a frame plugged whose result a stage may drop at once:
// refocusing plugs a value into the frame it returns to and, most of the time,
// contracts the result there and then, keeping only its children. A stage plugs into
// its scratch (Plug) and keeps the result (Keep) only where it holds on to it (a frame
// entered, a value returned, an answer), so that a plug costs an allocation only
// then. A stage takes one scratch per run of its transitions (an inner layer's run its
// own), and a term that its scratch holds is the stage's for one transition.
type Scratch struct {
	t    Term
	args [4]*Term
}

// Plug is t with its child at path replaced by u (PlugAt), in the scratch where the
// path is one step long and the node has at most four children (every frame of the
// repository's files).
func (s *Scratch) Plug(t *Term, path []int, u *Term) *Term {
	if len(path) != 1 {
		return PlugAt(t, path, u)
	}
	n := View(t)
	if len(n.Args) > len(s.args) || n.Args[path[0]] == u {
		return PlugAt(t, path, u)
	}
	m := &s.t
	m.P, m.Op, m.Con, m.Args, m.parts = n.P, TermCon, n.Con, s.args[:len(n.Args)], &noParts
	copy(m.Args, n.Args)
	m.Args[path[0]] = u
	m.memo.Store(0)
	m.back.Store(nil)
	m.closed.Store(false)
	return m
}

// Keep is t where the stage holds on to it: t itself, or a copy of it if the scratch
// holds it (what the engine knows of it, its memo, carried over).
func (s *Scratch) Keep(t *Term) *Term {
	if t != &s.t {
		return t
	}
	n := newNode(t.P, t.Con, len(t.Args))
	copy(n.Args, t.Args)
	n.memo.Store(t.memo.Load())
	return n
}
