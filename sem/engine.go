package sem

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/interderive/interderive"
)

// The engine: the one matcher, the one instantiation and the one contraction every
// derived stage shares. It runs under one of two disciplines. Under substitution its
// terms are the program's and the rules' terms, and a rule's (subst t x v) replaces x
// in t. Under environments its terms are closures t[ρ], nodes of closures and names
// (clo.go): (subst t x v) extends t's environment, and a variable is looked up when a
// pattern meets it. The same code matches both, since under substitution a term is
// its own look-up (Resolve), expansion (View) and read-back (ReadBack).

// Discipline says how the terms of a run stand for substitution.
type Discipline uint8

// The disciplines.
const (
	Substitution Discipline = iota // terms, substituted
	Environments                   // closures, their environments extended
)

// String names the discipline.
func (d Discipline) String() string {
	if d == Environments {
		return "environments"
	}
	return "substitution"
}

// Engine is the meta-level of one run of a derived stage under a discipline:
// matching, instantiation, contraction, read-back. It keeps the bindings of the
// matches under way on a stack of its own (a match allocates none) and counts the
// values and classes matched inside one another. An engine is for one goroutine.
type Engine struct {
	l     *Language
	env   bool
	buf   []*Term // the bindings of the matches under way (take, release)
	ints  []int64 // the arguments of the prims under way (takeInts, releaseInts)
	depth int     // values and classes matched inside one another, at most MaxTermDepth
	calls *Engine // the substitution engine the functions run on (fns)
	// events are the events of the rules that stepped a layer, Name/<inner event>,
	// built once a run (layerEvent).
	events map[layeredKey]string
	// memo holds the results of the calls of the file's functions on at most three
	// arguments (call), by the arguments' identity: terms are immutable and shared,
	// so a call on a subterm a step left alone is not computed again.
	memo map[callKey]*Term
	// room is where buf and ints start, so that a short run's matches allocate
	// nothing for them.
	room    [16]*Term
	intRoom [4]int64
	// fuel is a run's counter (NewRun): its contractions and its time and memory
	// budgets, part of the engine so that a run makes one allocation for the two.
	fuel interderive.Counter
	// watch are the budgets the calls of the file's functions look at, every
	// callsPerLook calls (tick): a function's evaluation takes no contraction, and so
	// no look of the counter's, yet may run long (2^n calls, never deeper than n) or
	// build a term past the memory budget. nil: none (an engine of no run).
	watch *interderive.Limits
	ticks int
	// constants are the last constants built (nullaryNode, intLeaf), kept from one run
	// to the next; built the last skeletons of right-hand sides built
	// (skeletonBuilder), cleared at the end of a run that built one (Release). Both
	// are made at their first use.
	constants *constants
	built     *builtSkeletons
	builtUsed bool
	// kept is a stage's own state for its runs (Keep), which stays with the engine
	// from one run of the language to the next.
	kept any
}

// layeredKey is a rule that stepped its inner layer and the inner contraction's event.
type layeredKey struct {
	r     *Rule
	inner string
}

// layerEvent is the event of the rule r that stepped its layer by the contraction
// inner: r's name, a slash, inner's event.
func (e *Engine) layerEvent(r *Rule, inner string) string {
	k := layeredKey{r, inner}
	if ev, ok := e.events[k]; ok {
		return ev
	}
	if e.events == nil {
		e.events = map[layeredKey]string{}
	}
	ev := r.Name + "/" + inner
	e.events[k] = ev
	return ev
}

// NewEngine is an engine of l under the discipline d, for matching and contracting
// outside a run (a step of the reduction semantics): it has no fuel, and its
// functions' calls watch no budget. A run's engine is NewRun's.
func NewEngine(l *Language, d Discipline) *Engine {
	e := &Engine{l: l, env: d == Environments}
	e.buf, e.ints = e.room[:0], e.intRoom[:0]
	return e
}

// NewRun is the engine of a run of l under the discipline d, configured by opts: its
// counter (Fuel) counts the run's contractions against its fuel and watches its time
// and memory budgets, which the calls of the file's functions watch too. It is the
// memory of an engine a run of l released (Release), if there is one.
func NewRun(l *Language, d Discipline, opts interderive.Options) *Engine {
	e := l.pooled(d)
	e.fuel.Start(opts)
	e.watch = e.fuel.Limits()
	return e
}

// pooled is an engine of l under the discipline d: one of its runs released, if there
// is one (Release gives it back).
func (l *Language) pooled(d Discipline) *Engine {
	var e *Engine
	if l.engines != nil {
		e, _ = l.engines.Get().(*Engine)
	}
	if e == nil {
		e = new(Engine)
	}
	e.l, e.env = l, d == Environments
	e.buf, e.ints = e.room[:0], e.intRoom[:0]
	return e
}

// posKey is a number that tells positions apart, for the engine's tables of the
// last terms it built at a position (constants, skeletons).
func posKey(p Pos) uint { return uint(p.Line)*31 + uint(p.Col) }

// Release ends the run of the engine (NewRun), whose memory the next runs of its
// language may then reuse: the run must not use the engine, nor its counter,
// afterwards. The terms of the run are the run's: the engine holds none of them but
// its constants, leaves that hold nothing else.
func (e *Engine) Release() {
	pool := e.l.engines
	// The run's terms and counter let go; its memo's map, its functions' engine, its
	// constants and its room for skeletons kept for the next run, cleared.
	*e = Engine{kept: e.kept, memo: forget(e.memo), calls: e.calls.cleared(), constants: e.constants, built: e.clearedBuilt()}
	if pool != nil {
		pool.Put(e)
	}
}

// cleared is the functions' engine e (fns) cleared for the next run, its memo's map
// kept, or nil.
func (e *Engine) cleared() *Engine {
	if e == nil {
		return nil
	}
	*e = Engine{memo: forget(e.memo), constants: e.constants, built: e.clearedBuilt()}
	return e
}

// constants are the constants an engine keeps from one run to the next (they are
// immutable, shared, and hold nothing else): the last nodes of nullary constructors
// built, by constructor and position (nullaryNode), and the last integers, by value
// and position (intLeaf).
type constants struct {
	nullary [64]*Term
	numbers [64]*Term
}

// consts are the engine's constants, made at their first use.
func (e *Engine) consts() *constants {
	if e.constants == nil {
		e.constants = new(constants)
	}
	return e.constants
}

// clearedBuilt is the engine's room for skeletons, cleared if the run built one.
func (e *Engine) clearedBuilt() *builtSkeletons {
	if e.builtUsed {
		*e.built = builtSkeletons{}
	}
	return e.built
}

// Keep keeps s, a stage's own state for a run (its machine), with the engine: a later
// run of the language that gets the engine from NewRun finds it (Kept), and need not
// allocate its own. The stage clears s before it releases the engine: s holds no term
// of a run between runs.
func (e *Engine) Keep(s any) { e.kept = s }

// Kept is the state a stage kept with the engine (Keep), nil if none: a stage checks
// that it is its own (the engines of a language are shared by its stages).
func (e *Engine) Kept() any { return e.kept }

// Fuel is the run's counter (NewRun): every contraction goes to its Contract.
func (e *Engine) Fuel() *interderive.Counter { return &e.fuel }

// Lang is the rule file's language.
func (e *Engine) Lang() *Language { return e.l }

// Discipline is the engine's discipline.
func (e *Engine) Discipline() Discipline {
	if e.env {
		return Environments
	}
	return Substitution
}

// Start is the term a run of the closed program t starts from: t, or the closure
// t[ε].
func (e *Engine) Start(t *Term) *Term {
	if e.env {
		return Leaf(t, nil)
	}
	return t
}

// ReadBack is the term t stands for (σ, under environments; t itself under
// substitution).
func (e *Engine) ReadBack(t *Term) *Term {
	if !e.env {
		return t
	}
	return ReadBack(t)
}

// LookUp is the environment step of look-up, x[ρ] ~> ρ(x), as often as it applies (t
// itself under substitution); a variable that no environment gives a closure is a
// stuck run: the program is closed, so a variable under evaluation is always given
// one.
func (e *Engine) LookUp(t *Term) (*Term, error) {
	if !e.env {
		return t, nil
	}
	t = Resolve(t)
	switch {
	case t.Op == TermVar:
		return nil, interderive.Stuck(t.Name, "free variable %s", t.Name)
	case t.Op == TermClo && t.Body.Op == TermVar:
		return nil, interderive.Stuck(t.Body.Name, "free variable %s", t.Body.Name)
	}
	return t, nil
}

// Short prints t for a message: read back, at most interderive.MaxStuckShown bytes.
func (e *Engine) Short(t *Term) string {
	return FormatShort(e.ReadBack(t), interderive.MaxStuckShown)
}

// leaf is a term a right-hand side builds from nothing (an integer, a function's
// result): itself, or its closure under the empty environment.
func (e *Engine) leaf(t *Term) *Term {
	if e.env {
		return Leaf(t, nil)
	}
	return t
}

// intLeaf is the integer n a right-hand side builds at the position at: under either
// discipline itself (a literal is its own closure, Leaf). The last integers built are
// kept by value and position (terms are immutable and shared: constants), so that a
// loop that computes the same numbers at one place again and again (fib's k - 1)
// builds each once.
func (e *Engine) intLeaf(at Pos, n int64) *Term {
	c := e.consts()
	last := &c.numbers[(uint(uint64(n)*0x9E3779B97F4A7C15>>58)^posKey(at))%uint(len(c.numbers))]
	if t := *last; t != nil && t.N == n && t.P == at {
		return t
	}
	*last = Int(at, n)
	return *last
}

// take is a slice of n bindings from the engine's stack of bindings; release gives it
// back, last taken first. In a file where a pattern reads a slot before it writes it
// (Language.readsUnbound: a named ellipsis's slot, which the first sequence that names
// it sets to the length the others must have; a PatSame's), the slice is cleared;
// elsewhere every slot is written before it is read (a match binds its slots, a
// condition its own), and what a slot held before does not matter.
func (e *Engine) take(n int) []*Term {
	l := len(e.buf)
	e.buf = slices.Grow(e.buf, n)[:l+n]
	b := e.buf[l : l+n : l+n]
	if e.l.readsUnbound {
		clear(b)
	}
	return b
}

func (e *Engine) release(b []*Term) { e.buf = e.buf[:len(e.buf)-len(b)] }

// matches reports whether t matches p, whose bindings are n.
func (e *Engine) matches(p *Pattern, t *Term, n int) bool {
	b := e.take(n)
	ok := e.match(p, t, b)
	e.release(b)
	return ok
}

// memo is f's answer for the pair of bits i of *bits if known (bit 2i says it is, bit
// 2i+1 what it is), else computed and kept there; pairs from 32 on are not kept. A
// term is immutable, so the answer never changes.
func memo(bits *atomic.Uint64, i int, f func() bool) bool {
	if i >= 32 {
		return f()
	}
	if is, ok := memoKnown(bits, i); ok {
		return is
	}
	is := f()
	b := uint64(1)
	if is {
		b = 3
	}
	bits.Or(b << (2 * i))
	return is
}

// memoKnown is the answer the pair of bits i of *bits keeps, and whether it keeps one.
func memoKnown(bits *atomic.Uint64, i int) (is, known bool) {
	if i >= 32 {
		return false, false
	}
	k := bits.Load() >> (2 * i)
	return k&2 != 0, k&1 != 0
}

// memoBits is the pair of memo bits of the kind or class numbered i: the kinds' from
// 0, the classes' from 16; none (32) past 16 of either.
func memoBits(i int, class bool) int {
	if i >= 16 {
		return 32
	}
	if class {
		return 16 + i
	}
	return i
}

// nested is f, a match of a value or a class inside the matches under way: past
// MaxTermDepth of them (a term a run built deeper than any program), the run stops
// with TooDeep (Guard) instead of exhausting the stack.
func (e *Engine) nested(f func() bool) bool {
	e.depth++
	checkTermDepth(e.depth)
	is := f()
	e.depth--
	return is
}

// IsValue reports whether t is a value of kind k: it matches one of k's value
// patterns, or, for a kind whose values are its normal forms, its search finds no
// redex in t.
func (e *Engine) IsValue(t *Term, k *Kind) bool {
	if is, ok := memoKnown(&t.memo, memoBits(k.Index, false)); ok { // without the call
		return is
	}
	return e.isValue(t, k)
}

func (e *Engine) isValue(t *Term, k *Kind) bool {
	return memo(&t.memo, memoBits(k.Index, false), func() bool {
		return e.nested(func() bool {
			if k.NormalForms {
				return !e.reducible(t, k)
			}
			return e.matchesAny(t, &k.values, func(i int) (*Pattern, int) { return k.Values[i].Pat, k.Values[i].Metas })
		})
	})
}

// reducible reports whether the search of kind k finds a redex in t, the search of
// a kind whose values are its normal forms: t enters a frame of k whose hole holds a
// term that is not a value of the hole's kind, or is the redex of a rule of k (its
// left-hand side matches and its conditions hold, a step condition's term taken to
// step when it is not a value, a context rule's context taken to fit). A condition
// that fails with an error counts as a redex: contracting it gives the error.
func (e *Engine) reducible(t *Term, k *Kind) bool {
	t = View(t)
	if _, in := e.Enter(t, k, 0); in {
		return true
	}
	for _, i := range k.rules.candidates(t) {
		r := k.Rules[i]
		b := e.take(r.Metas)
		ok := e.match(r.LHS, t, b)
		if ok && !r.Context {
			var err error
			ok, _, err = e.conditions(r.Where, b, e.stepsIfNotValue)
			ok = ok || err != nil
		}
		e.release(b)
		if ok {
			return true
		}
	}
	return false
}

// stepsIfNotValue is the reading of a step condition that takes no step (the static
// checks', and the search of a kind whose values are its normal forms): its term
// steps when it is not a value of its kind.
func (e *Engine) stepsIfNotValue(t *Term, k *Kind) (*Term, string, bool, error) {
	return t, "", !e.IsValue(t, k), nil
}

// InClass reports whether t is a term of the class c: one of its alternatives
// matches it.
func (e *Engine) InClass(t *Term, c *Class) bool {
	return memo(&t.memo, memoBits(c.Index, true), func() bool {
		return e.nested(func() bool {
			return e.matchesAny(t, &c.alts, func(i int) (*Pattern, int) { return c.Alts[i], c.Metas[i] })
		})
	})
}

// IsAnswer reports whether t is a non-value answer of kind k: it matches one of k's
// answer patterns.
func (e *Engine) IsAnswer(t *Term, k *Kind) bool {
	return e.matchesAny(t, &k.answers, func(i int) (*Pattern, int) { return k.Answers[i].Pat, k.Answers[i].Metas })
}

// matchesAny reports whether t, expanded, matches one of the patterns that the index
// x lists for its root (pat gives the i-th, with its number of bindings).
func (e *Engine) matchesAny(t *Term, x *index, pat func(int) (*Pattern, int)) bool {
	t = View(t)
	for _, i := range x.candidates(t) {
		if p, n := pat(i); e.matches(p, t, n) {
			return true
		}
	}
	return false
}

// FindFrame is the first frame of kind k, from index from on in the search order,
// that t matches (its hole holding anything): the elementary decomposition of t.
func (e *Engine) FindFrame(t *Term, k *Kind, from int) (*Frame, bool) {
	return e.frameFrom(t, k, from, false)
}

// Enter is the frame that the search enters in t of kind k, from index from on in the
// search order: the first frame that t matches whose hole holds a term that is not a
// value of the hole's kind. (A frame whose hole holds a value is passed over: entered,
// it would get the value back at once and resume the search after it. The refocused
// machine's corridor compressed, as its transitions print it: "frame i, t_hole not a
// value".) It is also the search of a kind whose values are its normal forms
// (reducible).
func (e *Engine) Enter(t *Term, k *Kind, from int) (*Frame, bool) {
	return e.frameFrom(t, k, from, true)
}

// frameFrom is the first frame of kind k from index from on that t matches, its hole
// holding a non-value if nonValue says so (FindFrame, Enter).
func (e *Engine) frameFrom(t *Term, k *Kind, from int, nonValue bool) (*Frame, bool) {
	t = View(t)
	for _, i := range k.frames.candidates(t) {
		if i < from {
			continue
		}
		f := k.Frames[i]
		if matched, holds := e.inFrame(f, t, nonValue); matched && (!nonValue || holds) {
			return f, true
		}
	}
	return nil, false
}

// inFrame matches t, expanded, against the pattern of the frame f: matched, and, if
// it did and hole asks, holds, whether its hole holds a term that is not a value of
// the hole's kind.
func (e *Engine) inFrame(f *Frame, t *Term, hole bool) (matched, holds bool) {
	b := e.take(f.Metas)
	matched = e.match(f.Pat, t, b)
	holds = matched && hole && !e.IsValue(b[f.HoleSlot], f.Hole)
	e.release(b)
	return matched, holds
}

// Enters reports whether the search enters the frame f in t (Enter's test of one
// frame): t matches f's pattern and its hole holds a term that is not a value of the
// hole's kind.
func (e *Engine) Enters(t *Term, f *Frame) bool {
	_, holds := e.inFrame(f, View(t), true)
	return holds
}

// redexOf matches t, expanded, against the left-hand side of the rule r (matched)
// and, if it did, reads r's side conditions as the static checks do (holds; a
// context rule's hold whatever they say: what its context binds is no context's
// here).
func (e *Engine) redexOf(r *Rule, t *Term) (matched, holds bool) {
	b := e.take(r.Metas)
	matched = e.match(r.LHS, t, b)
	holds = matched && (r.Context || e.staticConditions(r, b))
	e.release(b)
	return matched, holds
}

// staticConditions are r's side conditions on the bindings b, read as the static
// checks read them: a step condition holds when its term is not a value of its
// layer, taking no step (stepsIfNotValue).
func (e *Engine) staticConditions(r *Rule, b []*Term) bool {
	ok, _, _ := e.conditions(r.Where, b, e.stepsIfNotValue)
	return ok
}

// Match matches t against the pattern p, filling the slots of b with the terms the
// metavariables (and a frame's hole) stand for. A value metavariable matches only a
// value of its kind, a variable metavariable only a name. It recurses as deep as the
// pattern nests, and as deep as the values that value metavariables meet (at most
// MaxTermDepth values and classes deep: see tooDeep). It runs the pattern's code,
// compiled when the file was read (staged.go).
func (e *Engine) Match(p *Pattern, t *Term, b []*Term) bool { return e.match(p, t, b) }

func (e *Engine) match(p *Pattern, t *Term, b []*Term) bool { return p.matcher(e, t, b) }

// isIntTerm reports whether t is an integer (or a closure of one).
func isIntTerm(t *Term) bool {
	_, ok := intValue(t)
	return ok
}

// intOf evaluates an integer pattern of a prim: a literal, an integer metavariable, a
// prim, or a call of a function whose result is an integer. ok is false where it is
// no integer (a prim undefined there); err is a function's failure.
func (e *Engine) intOf(p *Pattern, b []*Term) (n int64, ok bool, err error) { return p.integer(e, b) }

// conditions evaluates side conditions on the bindings b, in order (a fresh binds its
// metavariable); a step condition takes its step with step, and its event is
// returned.
func (e *Engine) conditions(where []*Cond, b []*Term, step LayerStep) (bool, string, error) {
	event := ""
	for _, c := range where {
		switch c.Kind {
		case CondEq, CondNe:
			var eq bool
			if c.Args[0].Kind == PatInt || c.Args[1].Kind == PatInt {
				// A constant: an integer equals it, any other term does not.
				x, okx, _ := e.intOf(c.Args[0], b)
				y, oky, _ := e.intOf(c.Args[1], b)
				eq = okx && oky && x == y
			} else {
				eq = e.sameAtom(b[c.Args[0].Slot], b[c.Args[1].Slot])
			}
			if eq != (c.Kind == CondEq) {
				return false, "", nil
			}
		case CondPrim:
			if ok, err := e.compare(c, b); !ok || err != nil {
				return false, "", err
			}
		case CondFresh:
			name, at := c.Args[1].Meta, c.P // (fresh x_k T ...): named like x
			if c.Args[1].Slot >= 0 {
				base := b[c.Args[1].Slot]
				name, at = base.Name, base.P
			}
			avoid := make([]*Term, 0, len(c.Args)-2)
			for _, a := range c.Args[2:] {
				avoid = append(avoid, b[a.Slot])
			}
			b[c.Args[0].Slot] = Var(at, FreshName(name, avoid...))
		case CondStep:
			if step == nil {
				return false, "", fmt.Errorf("no stepper for the inner layer %s", c.Layer.Name)
			}
			next, ev, ok, err := step(b[c.Args[0].Slot], c.Layer)
			if err != nil || !ok {
				return false, "", err
			}
			b[c.Args[1].Slot], event = next, ev
		case CondMatch:
			t, err := e.instantiate(c.Args[1], b, c.P, 0)
			if err != nil {
				return false, "", err
			}
			if !e.match(c.Args[0], t, b) {
				return false, "", nil
			}
		case CondCall:
			t, err := e.instantiate(c.Args[0], b, c.P, 0)
			if err != nil {
				return false, "", err
			}
			if a := atomValue(View(t)); a == nil || a.Atom != BoolAtom || a.Val != true {
				return false, "", nil
			}
		}
	}
	return true, event, nil
}

// compare evaluates a comparison condition (prim OP N ...).
func (e *Engine) compare(c *Cond, b []*Term) (bool, error) {
	args := e.takeInts(len(c.Args))
	defer e.releaseInts(args)
	for i, a := range c.Args {
		n, ok, err := e.intOf(a, b)
		if !ok || err != nil {
			return false, err
		}
		args[i] = n
	}
	return c.Prim.Cmp(args), nil
}

// takeInts is a slice of n integers from the engine's stack of a prim's arguments;
// releaseInts gives it back, last taken first (a prim does not keep its arguments).
func (e *Engine) takeInts(n int) []int64 {
	l := len(e.ints)
	e.ints = slices.Grow(e.ints, n)[:l+n]
	return e.ints[l : l+n : l+n]
}

func (e *Engine) releaseInts(a []int64) { e.ints = e.ints[:len(e.ints)-len(a)] }

// sameAtom is the equality of = and !=: the same name, the same integer, or terms
// α-equivalent once read back.
func (e *Engine) sameAtom(x, y *Term) bool {
	if IsName(x) && IsName(y) {
		return x.Name == y.Name
	}
	return AlphaEqual(e.ReadBack(x), e.ReadBack(y))
}

// Instantiate builds a right-hand side from the bindings of its left-hand side and
// conditions. at is the position the new nodes take (the redex's). It fails only
// where a prim is undefined (a division by zero) or a function's evaluation fails.
func (e *Engine) Instantiate(p *Pattern, b []*Term, at Pos) (*Term, error) {
	return e.instantiate(p, b, at, 0)
}

// instantiate is Instantiate within depth nested function calls: the template's
// code, compiled when the file was read (staged.go).
func (e *Engine) instantiate(p *Pattern, b []*Term, at Pos, depth int) (*Term, error) {
	return p.builder(e, b, at, depth)
}

// Context is the context of a potential redex as a stage holds it: its frames,
// innermost first, each with the term it was entered from (its hole's contents may
// be stale; a delimiter's hole matches anything).
type Context interface {
	Depth() int
	Frame(i int) (*Frame, *Term)
}

// A LayerStep takes one step of an inner layer for a rule's (step K a b): the
// stage's own decomposition of t in kind k, contraction and plugging. ok is false
// when t is a value of k (it does not step); event is the inner contraction's event.
type LayerStep func(t *Term, k *Kind) (next *Term, event string, ok bool, err error)

// Contraction is a redex contracted.
type Contraction struct {
	Term  *Term
	Rule  *Rule
	Event string // the rule's name; Name/<inner event> for a rule that stepped a layer
	// Pop is the number of frames of the context that the contraction discards (a
	// context rule's): the contractum replaces the term of the last one popped, and
	// is of its kind (Kind).
	Pop  int
	Kind *Kind
}

// Contract contracts the potential redex t of kind k in the context E (nil: the empty
// context): the first rule (in order) whose left-hand side matches, whose context
// fits (a context rule's: a non-empty context, or a delimiter in it) and whose side
// conditions hold gives the contractum, a step condition stepping its inner layer
// with step. If none does, t is stuck: a declared stuck shape it matches is the
// program's run-time error (*interderive.RuntimeError, with the shape's reason),
// anything else a stuck run (*interderive.StuckError: the rule file's checks missed
// it).
func (e *Engine) Contract(t *Term, k *Kind, E Context, step LayerStep) (out Contraction, err error) {
	t = View(t)
	depth := 0
	if E != nil {
		depth = E.Depth()
	}
	for _, i := range k.rules.candidates(t) {
		r := k.Rules[i]
		b := e.take(r.Metas)
		ok, err := e.contractBy(&out, r, t, k, E, depth, step, b)
		e.release(b)
		if err != nil || ok {
			return out, err
		}
	}
	for _, i := range k.stucks.candidates(t) {
		if s := k.Stucks[i]; e.matches(s.Pat, t, s.Metas) {
			return Contraction{}, interderive.Runtime(t.P, e.Short(t), s.Reason)
		}
	}
	return Contraction{}, interderive.Stuck(e.Short(t), "no rule applies")
}

// contractBy contracts t by the rule r into out if it applies, with b its bindings.
// (out is filled in place: a contraction returned by value through the calls costs
// the copies.)
func (e *Engine) contractBy(out *Contraction, r *Rule, t *Term, k *Kind, E Context, depth int, step LayerStep, b []*Term) (bool, error) {
	if !e.match(r.LHS, t, b) {
		return false, nil
	}
	*out = Contraction{Rule: r, Kind: k}
	at := t.P
	if r.Context {
		if out.Pop = e.contextFits(r, E, depth, b); out.Pop == 0 {
			return false, nil
		}
		f, ft := E.Frame(out.Pop - 1)
		out.Kind, at = f.Kind, ft.P
		if r.Delimiter == nil {
			out.Kind = e.l.Root()
		}
		if r.Capture >= 0 {
			// The frames discarded, the delimiter's apart, as a context (capture.go).
			n := out.Pop
			if r.Delimiter != nil {
				n--
			}
			b[r.Capture] = capture(E, n, t.P)
		}
	}
	ok, inner, err := e.conditions(r.Where, b, step)
	if err != nil {
		calledBy(r, err) // a condition's call
		return false, err
	}
	if !ok {
		return false, nil
	}
	out.Event = r.Name
	if r.Layer != nil {
		out.Event = e.layerEvent(r, inner)
	}
	if out.Term, err = e.instantiate(r.RHS, b, at, 0); err != nil {
		return false, RuleError(r, e.Short(t), err)
	}
	return true, nil
}

// contextFits is the number of frames of E a context rule r discards, 0 if its
// context does not fit: all of a non-empty context for an abort to the root; for a
// delimited rule, the frames up to the innermost that matches the delimiter (whose
// metavariables it binds in b).
func (e *Engine) contextFits(r *Rule, E Context, depth int, b []*Term) int {
	if r.Delimiter == nil {
		return depth
	}
	for i := range depth {
		f, ft := E.Frame(i)
		if slices.Equal(f.Path, r.DelimiterPath) && e.match(r.Delimiter, ft, b) {
			return i + 1
		}
	}
	return 0
}

// Subst is t[x := v] under the engine's discipline: capture-avoiding substitution
// (Subst), or an environment's extension (clo.go).
func (e *Engine) Subst(t *Term, x string, v *Term) *Term {
	if e.env {
		return substClosure(t, x, v)
	}
	return Subst(t, x, v)
}
