package sem

import (
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/interderive/interderive"
)

// TermOp says what a term node is.
type TermOp uint8

// The term nodes.
const (
	TermVar  TermOp = iota // a variable (an occurrence, or a binder's name)
	TermInt                // an integer literal
	TermCon                // a constructor applied to its arguments
	TermClo                // a closure Body[Env]: the environment discipline's (clo.go)
	TermAtom               // an atom of a registered type (AtomType): a boolean, a string
	TermHole               // the hole of a context a rule captured (capture.go): only in its bindings
)

// Term is a term of a rule-defined calculus: a generic syntax tree. Terms are
// immutable once built (closed is a cache).
type Term struct {
	P      Pos
	Op     TermOp
	closed atomic.Bool // known to have no free variable (Subst was given it as a closed value); beside Op, in the word Op leaves
	Name   string      // TermVar
	N      int64       // TermInt
	Con    *Con        // TermCon
	Args   []*Term
	// parts are the fields of the closures, atoms and holes, which the other terms
	// share empty (noParts): a constructor's node, the term a run makes most, is 96
	// bytes, not 136.
	*parts

	// memo memoizes IsValue for the kinds numbered below 16 and InClass for the
	// classes numbered below 16 (see memoBits): bit 2i says that whether the term is a
	// value of kind i is known, bit 2i+1 that it is one; the classes' bits follow at
	// bit 32.
	memo atomic.Uint64
	back atomic.Pointer[Term] // TermClo and nodes under environments: the read-back (ReadBack)
}

// parts are the fields of a closure (Body, Env, and its expansion), an atom (Atom,
// Val) and a captured context (Body, Val).
type parts struct {
	Atom *AtomType            // TermAtom: its type
	Val  any                  // TermAtom: its value; TermHole: the path to the hole
	Body *Term                // TermClo: the term under the environment; TermHole: the context
	Env  *Env                 // TermClo: the environment
	view atomic.Pointer[Term] // TermClo of a constructor: its expansion (View)
}

// noParts are the parts of every term that is no closure, atom or hole: empty, and
// never written (terms are immutable; only a closure's own parts cache its view).
var noParts parts

// withParts is a term and its own parts, one allocation.
type withParts struct {
	t Term
	p parts
}

// newWithParts is a term of op at p with parts of its own, to fill.
func newWithParts(p Pos, op TermOp) *Term {
	x := new(withParts)
	x.t.P, x.t.Op, x.t.parts = p, op, &x.p
	return &x.t
}

// Var is the variable x.
func Var(p Pos, x string) *Term { return &Term{P: p, Op: TermVar, Name: x, parts: &noParts} }

// Int is the integer n.
func Int(p Pos, n int64) *Term { return &Term{P: p, Op: TermInt, N: n, parts: &noParts} }

// AtomOf is the atom v of type a.
func AtomOf(p Pos, a *AtomType, v any) *Term {
	t := newWithParts(p, TermAtom)
	t.Atom, t.Val = a, v
	return t
}

// App is c applied to args.
func App(p Pos, c *Con, args ...*Term) *Term {
	return &Term{P: p, Op: TermCon, Con: c, Args: args, parts: &noParts}
}

// newNode is a constructor node of c with n arguments, its Args to fill: up to four
// arguments, the node and its arguments' slice are one allocation, not two (the
// stages build a node at every plug and right-hand side).
func newNode(p Pos, c *Con, n int) *Term {
	var t *Term
	if n < len(nodes) {
		t = nodes[n]()
	} else {
		t = &Term{Args: make([]*Term, n)}
	}
	t.P, t.Op, t.Con, t.parts = p, TermCon, c, &noParts
	return t
}

// nodes allocate, by arity, a node with its arguments' slice, at once and no larger
// than the arity asks.
var nodes = [...]func() *Term{
	func() *Term { return &Term{} },
	func() *Term { x := new(node1); x.t.Args = x.a[:]; return &x.t },
	func() *Term { x := new(node2); x.t.Args = x.a[:]; return &x.t },
	func() *Term { x := new(node3); x.t.Args = x.a[:]; return &x.t },
	func() *Term { x := new(node4); x.t.Args = x.a[:]; return &x.t },
}

type (
	node1 struct {
		t Term
		a [1]*Term
	}
	node2 struct {
		t Term
		a [2]*Term
	}
	node3 struct {
		t Term
		a [3]*Term
	}
	node4 struct {
		t Term
		a [4]*Term
	}
)

// Format prints t as an s-expression: (app (lam x x) 1).
func Format(t *Term) string {
	s, _ := FormatBounded(t, interderive.PrintBudget{})
	return s
}

// FormatBounded prints t within a print budget: at most b.Max bytes (0: no bound),
// the prefix that fits and an *interderive.OutputError when longer, and b.Check's
// error (the run's time or memory) if it stops the printing. It uses no recursion.
func FormatBounded(t *Term, b interderive.PrintBudget) (string, error) {
	var w strings.Builder
	type item struct {
		t   *Term
		lit string
	}
	next := interderive.CheckEvery
	stack := []item{{t: t}}
	for len(stack) > 0 {
		if b.Max > 0 && w.Len() > b.Max {
			return interderive.Cut(w.String(), b.Max), &interderive.OutputError{What: "the term", Limit: b.Max}
		}
		if b.Check != nil && w.Len() >= next {
			next += interderive.CheckEvery
			if err := b.Check(); err != nil {
				return w.String(), err
			}
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.t == nil {
			w.WriteString(it.lit)
			continue
		}
		switch it.t.Op {
		case TermVar:
			w.WriteString(it.t.Name)
		case TermInt:
			w.WriteString(strconv.FormatInt(it.t.N, 10))
		case TermAtom:
			w.WriteString(it.t.Atom.Format(it.t.Val))
		case TermHole:
			w.WriteString("(hole)")
		case TermClo: // a closure, where only a term read back was expected
			stack = append(stack, item{lit: "[ρ]"}, item{t: it.t.Body})
		case TermCon:
			if it.t.Con.Sort.IsSeq() {
				// A sequence: its elements in a list, and the rest, if not a sequence's
				// node (a closure), after a dot.
				elems, _, ok := SeqElems(it.t, it.t.Con.Sort)
				var rest *Term
				if !ok {
					elems, rest = nil, it.t
					for rest.Op == TermCon && len(rest.Args) == 2 && rest.Con.Sort == it.t.Con.Sort {
						elems, rest = append(elems, rest.Args[0]), rest.Args[1]
					}
				}
				w.WriteString("(")
				stack = append(stack, item{lit: ")"})
				if rest != nil {
					stack = append(stack, item{t: rest}, item{lit: " . "})
				}
				for i := len(elems) - 1; i >= 0; i-- {
					stack = append(stack, item{t: elems[i]})
					if i > 0 {
						stack = append(stack, item{lit: " "})
					}
				}
				continue
			}
			if it.t.Con.shape != nil {
				var items []item // the shape's, in order, pushed last first
				it.t.Con.Write(it.t.Args, func(s string) { items = append(items, item{lit: s}) }, func(t *Term) { items = append(items, item{t: t}) })
				for i := len(items) - 1; i >= 0; i-- {
					stack = append(stack, items[i])
				}
				continue
			}
			w.WriteString("(" + it.t.Con.Name)
			stack = append(stack, item{lit: ")"})
			for i := len(it.t.Args) - 1; i >= 0; i-- {
				stack = append(stack, item{t: it.t.Args[i]}, item{lit: " "})
			}
		}
	}
	if b.Max > 0 && w.Len() > b.Max {
		return interderive.Cut(w.String(), b.Max), &interderive.OutputError{What: "the term", Limit: b.Max}
	}
	return w.String(), nil
}

// FormatShort prints t in at most max bytes, ended with … when cut: for messages.
func FormatShort(t *Term, max int) string {
	s, err := FormatBounded(t, interderive.PrintBudget{Max: max})
	if err != nil {
		return s + "…"
	}
	return s
}

// String prints the term (Format).
func (t *Term) String() string { return Format(t) }

// ReadTerm reads a program of the language: one s-expression of its program sort (the
// first sort), closed. An integer is an integer literal, a symbol a variable, a list a
// constructor applied to its arguments, (lam x (add x 1)). Every node keeps its
// position. It never panics; on failure the error is an interderive.ErrorList.
func (l *Language) ReadTerm(src []byte) (*Term, error) {
	return l.ReadTermOf(src, l.Sorts[0], false)
}

// ReadTermOf reads a term of the sort so: closed, or, open, with free variables (a
// judgment's argument: the variables a typing environment names).
func (l *Language) ReadTermOf(src []byte, so *Sort, open bool) (*Term, error) {
	ss, err := ReadSExprs(src)
	if err != nil {
		return nil, err
	}
	var errs interderive.ErrorList
	switch len(ss) {
	case 0:
		errs.Add(Pos{Line: 1, Col: 1}, "no term")
		return nil, errs
	case 1:
	default:
		errs.Add(ss[1].P, "a second term after the program")
		return nil, errs
	}
	scope := map[string]int{}
	if open {
		scope = nil // every variable is in scope
	}
	t := l.readTerm(ss[0], so, scope, &errs)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	return t, nil
}

// readTerm converts s to a term of sort so; scope counts the binders of each name
// around s.
func (l *Language) readTerm(s *SExpr, so *Sort, scope map[string]int, errs *interderive.ErrorList) *Term {
	if so.IsSeq() {
		return l.readSeq(s, so, scope, errs)
	}
	switch s.Kind {
	case SInt:
		if a, v, ok := so.readAtom(s); ok {
			return AtomOf(s.P, a, v)
		}
		if !so.Ints {
			errs.Add(s.P, "sort "+so.Name+" has no integers")
		}
		return Int(s.P, s.N)
	case SSym:
		if a, v, ok := so.readAtom(s); ok {
			return AtomOf(s.P, a, v)
		}
		if c, _, ok := l.shaped(s, so); ok { // a nullary constructor's literal
			return App(s.P, c)
		}
		if !so.Vars {
			errs.Add(s.P, "sort "+so.Name+" has no variables"+so.atomsHint())
		} else if scope != nil && scope[s.Sym] == 0 {
			errs.Add(s.P, "unbound variable "+s.Sym)
		}
		return Var(s.P, s.Sym)
	case SStr:
		if a, v, ok := so.readAtom(s); ok {
			return AtomOf(s.P, a, v)
		}
		errs.Add(s.P, "a string is not a term of sort "+so.Name+so.atomsHint())
		return nil
	}
	if c, xs, ok := l.shaped(s, so); ok {
		return l.readCon(s, c, xs, scope, errs)
	}
	if len(s.List) == 0 || s.List[0].Kind != SSym {
		errs.Add(s.P, "a term is an integer, a variable or (constructor argument ...)"+so.shapesHint())
		return nil
	}
	c, ok := l.cons[s.List[0].Sym]
	if !ok || c.Sort != so || c.shape != nil {
		errs.Add(s.List[0].P, "unknown constructor "+s.List[0].Sym+" of sort "+so.Name+so.shapesHint())
		return nil
	}
	if len(s.List)-1 != len(c.Args) {
		errs.Add(s.P, c.Name+" takes "+strconv.Itoa(len(c.Args))+" arguments, not "+strconv.Itoa(len(s.List)-1))
		return nil
	}
	return l.readCon(s, c, s.List[1:], scope, errs)
}

// binderNamesOf are the names the binder argument a binds: its term's, read (t), or,
// for a sequence of items not read yet (in its own scope, or in a later argument's),
// the names its s-expression x gives its items' variables.
func (l *Language) binderNamesOf(t *Term, x *SExpr, a Arg) []string {
	if t != nil {
		return slices.Collect(BinderNames(t))
	}
	var out []string
	if x.Kind != SList || !isSeqArg(a) {
		return nil
	}
	el := a.Sort.Elem.Sort
	for _, e := range x.List {
		c, exs, ok := l.shaped(e, el)
		if !ok && e.Kind == SList && len(e.List) > 0 && e.List[0].Kind == SSym {
			if c, ok = l.cons[e.List[0].Sym]; ok && c.Sort == el && c.shape == nil {
				exs = e.List[1:]
			}
		}
		if ok && c.item > 0 && len(exs) == len(c.Args) && exs[c.item-1].Kind == SSym {
			out = append(out, exs[c.item-1].Sym)
		}
	}
	return out
}

// readCon reads the node of c at s from its arguments' s-expressions xs.
func (l *Language) readCon(s *SExpr, c *Con, xs []*SExpr, scope map[string]int, errs *interderive.ErrorList) *Term {
	args := make([]*Term, len(c.Args))
	for i, a := range c.Args {
		if binderArg(a) && a.Kind != ArgVar { // a sequence of binders
			if args[i] = l.readSeq(xs[i], a.Sort, scope, errs); args[i] == nil {
				return nil
			}
			continue
		}
		if a.Kind != ArgVar {
			continue
		}
		x := xs[i]
		if x.Kind != SSym {
			errs.Add(x.P, "argument "+strconv.Itoa(i)+" of "+c.Name+" is a variable")
			return nil
		}
		if l.literals[x.Sym] {
			errs.Add(x.P, x.Sym+" is a literal of the language's shapes, not a variable")
			return nil
		}
		args[i] = Var(x.P, x.Sym)
	}
	for i, a := range c.Args {
		x := xs[i]
		switch a.Kind {
		case ArgInt:
			if x.Kind != SInt {
				errs.Add(x.P, "argument "+strconv.Itoa(i)+" of "+c.Name+" is an integer")
				return nil
			}
			args[i] = Int(x.P, x.N)
		case ArgTerm:
			if args[i] != nil {
				continue // a sequence of binders, read
			}
			for _, b := range c.scope[i] {
				for _, y := range l.binderNamesOf(args[b], xs[b], c.Args[b]) {
					if scope != nil {
						scope[y]++
					}
				}
			}
			args[i] = l.readTerm(x, a.Sort, scope, errs)
			for _, b := range c.scope[i] {
				for _, y := range l.binderNamesOf(args[b], xs[b], c.Args[b]) {
					if scope != nil {
						scope[y]--
					}
				}
			}
			if args[i] == nil {
				return nil
			}
		}
	}
	return App(s.P, c, args...)
}
