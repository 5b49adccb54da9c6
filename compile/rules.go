package compile

import (
	"fmt"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/contexts"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/sem"
)

// The compiled interpreter of a rule-defined calculus (sem) is its derived interpreter
// (interp/rules.go) staged, as the gradual calculi's is interp/gradual.go: the names
// are interp's — interp, eval, resume, step — and the contractions, their order, their
// events, the answers and the errors are interp's, one for one. What interp decides at
// every visit of a term by looking at it, compile decides once, for the term's body,
// and keeps as code (rulesCode):
//
//   - whether the term is a value of the kind (interp: IsValue, a match of the
//     kind's value patterns for its root),
//   - which frame it enters first, and after plugging a frame's hole with a value,
//     which frame it enters next (interp: Enter, a match of the frames for its root
//     from an index on, a frame whose hole holds a value passed over),
//   - whether it is an answer (interp: IsAnswer),
//   - the code of the term in each frame's hole (interp: a call on whatever At finds).
//
// Each decision is taken before the run where the term's shape decides it: a body's
// constructors, integers and atoms are known, and so is the fact that a hole plugged
// by interp holds a value of the hole's kind, and classes are followed as far as the
// shape goes (maxStatic); only what the environment holds (a variable's closure) and
// what the shape does not say are left to the run, which asks the engine (IsValue,
// Match, IsAnswer), as interp does. A decision taken before the run
// is the engine's answer on every term of that shape (decide: yes or no only where
// every such term matches, or none). The search is then straight-line code: the
// frames the search can find for a root, in the search order, cut after the first one
// certain to match, each with its hole's code and the code of the plugged term (the
// next states of the search) linked to it.
//
// Under environments (the discipline the file qualifies for: sem.Language.Discipline),
// a closure t[ρ]'s body t is a subterm of the program: the right-hand sides build
// constructor nodes of closures (and literals), not closures of their own subterms. So
// code is kept per body and kind, and per shape of a plugged term, built lazily during
// the run on the first visit of the body (a map from the program's subterms to their
// codes; the program is walked once, before the run, to know them). A term that is
// not a program's subterm — a node a right-hand side built, a function's result, and,
// under substitution, a contractum (a new term, each time) — runs the code of its
// root: compiled once per run, per kind and root constructor, on the first term met
// with that root, and deciding before the run only what the root decides (a
// frame whose pattern is its root constructor over metavariables and the hole); its
// children's codes are found during the run. Under substitution the program's own
// subterms (those no substitution rebuilt: closed functions' bodies, the program's
// first term) keep their codes.
//
// The contraction is the engine's (Engine.Contract: the rules for the root, in order,
// their conditions, the instantiation of the right-hand side): sem exports no way to
// try one rule, so the choice of the rule is not staged. The inner layers' steps
// (step K a b) are interp's structural one-step function on the same codes. γ, the
// frames entered, and the aborts of context rules are interp's (contexts.Entered,
// contexts.Abort); so are fuel (one interderive.Counter contraction per contraction),
// timeouts, and the depth bound (interp.MaxDepth, counted as interp counts it: a call
// per frame's hole, each within interp.DepthFrame bytes of Go stack).
//
// The last plug of a search is made in a scratch (sem.Scratch) where the plugged
// term's code says that every rule for its root takes the redex apart (a constructor
// pattern): the redex is contracted at once and dropped, and kept (Keep) only where it
// is returned, a value or an answer, or entered, a frame of γ.

// Rules is the compiled interpreter derived from a rule file (sem.StageOf). It has no
// intermediate states to show: its observer sees nothing but its contractions.
func (Stage) Rules() sem.Stage { return rulesStage{} }

type rulesStage struct{}

// rulesInterpreter holds one run: the engine (over closures, or by substitution), the
// fuel, the depth of interp's recursion, γ (kept only for a rule file with a context
// rule or an answer: sem.Language.SeesContext), and the run's code.
type rulesInterpreter struct {
	*sem.Engine
	fuel  *interderive.Counter
	depth int
	gamma contexts.Entered
	// scratch is where resume plugs the last frame of a search when the plugged term
	// is, most of the time, contracted at once (sem.Scratch): eval keeps it (Keep)
	// where it holds on to it, a value or an answer returned. Nothing between the plug
	// and the contraction plugs in it (step, the inner layers', plugs with PlugAt).
	scratch sem.Scratch
	prog    *rulesProgram
	// verify, for the tests, asks the engine too at every decision taken before the
	// run, and keeps the disagreements in mismatches.
	verify     bool
	verified   int
	mismatches []string
}

// Eval compiles the closed term's code (lazily, as the run meets it), runs it, and
// reads the answer back, under the discipline the file qualifies for
// (sem.Language.Discipline).
func (rulesStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	in := newRulesInterpreter(l, t, opts)
	defer in.Release()
	return in.run(l, t)
}

// newRulesInterpreter is a run of the program t.
func newRulesInterpreter(l *sem.Language, t *sem.Term, opts interderive.Options) *rulesInterpreter {
	e := sem.NewRun(l, l.Discipline(), opts)
	in := &rulesInterpreter{Engine: e, fuel: e.Fuel()}
	in.gamma.Track = l.SeesContext()
	in.prog = newRulesProgram(in.Discipline(), t)
	return in
}

// run runs the program t from the root kind, and reads its answer back.
func (in *rulesInterpreter) run(l *sem.Language, t *sem.Term) (sem.Answer, error) {
	v, err := in.interp(in.Start(t), in.prog.bodyCode(t, l.Root()), l.Root())
	if err != nil {
		return sem.Answer{}, err
	}
	return sem.Answer{Value: in.ReadBack(v)}, nil
}

// interp runs the closure c of kind k in the frames γ to a value (or, with γ empty,
// an answer), within the depth bound; cd is c's code when known before the run (nil:
// found from c).
func (in *rulesInterpreter) interp(c *sem.Term, cd *rulesCode, k *sem.Kind) (*sem.Term, error) {
	if in.depth >= interp.MaxDepth {
		return nil, interp.TooDeep()
	}
	in.depth++
	v, err := in.eval(c, cd, k)
	in.depth--
	return v, err
}

// lookUp is c looked up (an environment step) with its code: cd, known before the
// run, if the look-up leaves c as it is and cd is not a variable's (an expansion
// looks a variable among its children up at once: its code is then its closure's),
// else c's own.
func (in *rulesInterpreter) lookUp(c *sem.Term, cd *rulesCode, k *sem.Kind) (*sem.Term, *rulesCode, error) {
	l, err := in.LookUp(c)
	if err != nil {
		return nil, nil, err
	}
	if l != c || cd == nil || cd.shape.op == shBody && cd.shape.term.Op == sem.TermVar {
		cd = in.prog.codeOf(l, k)
	}
	return l, cd, nil
}

// eval is interp's body: one iteration per contractum (a tail call), and per abort
// it catches. Every test is its code's: decided before the run, or by the engine.
func (in *rulesInterpreter) eval(c *sem.Term, cd *rulesCode, k *sem.Kind) (*sem.Term, error) {
	d := in.gamma.Depth()
	for {
		var err error
		if c, cd, err = in.lookUp(c, cd, k); err != nil {
			return nil, err
		}
		if in.isValue(cd, c) {
			return c, nil
		}
		if fr, ok := in.findFrame(cd, c); ok {
			p, last, err := in.resume(fr, sem.View(c))
			if a, ok := contexts.Caught(err, d); ok { // resume left γ as it found it
				c, k, cd = a.Term, a.Kind, nil // an abort to a frame this call entered
				continue
			}
			if err != nil {
				return nil, err
			}
			if in.isValue(last, p) {
				return in.scratch.Keep(p), nil
			}
			c, cd = p, last
		}
		// c is a potential redex of k: an answer, or contract it, and run the
		// contractum in its place (or return early, for a context rule).
		if d == 0 && in.isAnswer(cd, c) {
			return in.scratch.Keep(c), nil
		}
		ct, err := in.Contract(c, k, in.gamma.Context(), in.stepLayer)
		if err != nil {
			return nil, err
		}
		if err := in.fuel.Contract(ct.Event); err != nil {
			return nil, err
		}
		if ct.Pop > 0 {
			return nil, &contexts.Abort{Term: ct.Term, Kind: ct.Kind, Event: ct.Event, Depth: d - ct.Pop}
		}
		c, cd = ct.Term, nil
	}
}

// resume runs the hole of the frame fr of the expanded closure n, with the frame
// pushed onto γ, plugs its value back and resumes the search after the frame, as
// long as a next frame applies; then it returns the plugged closure, a value of the
// frame's kind or a potential redex of it, with its code: in the scratch where its
// code says that no rule can hold on to the redex itself (every rule for its root
// takes it apart: a constructor pattern).
func (in *rulesInterpreter) resume(fr *rulesFrame, n *sem.Term) (*sem.Term, *rulesCode, error) {
	d := in.gamma.Depth()
	for {
		f := fr.f
		in.gamma.Enter(f, n)
		v, err := in.interp(sem.At(n, f.Path), in.prog.holeCode(fr), f.Hole)
		in.gamma.Leave(d)
		if err != nil {
			return nil, nil, err
		}
		next := in.prog.plugged(fr)
		var c *sem.Term
		if next.scratch {
			c = in.scratch.Plug(n, f.Path, v)
		} else {
			c = sem.PlugAt(n, f.Path, v)
		}
		g, ok := in.findFrame(next, c)
		if !ok {
			return c, next, nil
		}
		fr, n = g, in.scratch.Keep(sem.View(c))
	}
}

// stepLayer is one step of an inner layer, for a rule's (step K a b): step from the
// empty context, γ the frames entered from there on.
func (in *rulesInterpreter) stepLayer(c *sem.Term, k *sem.Kind) (*sem.Term, string, bool, error) {
	defer in.gamma.End(in.gamma.Begin())
	return in.step(c, nil, k)
}

// step is interp's structural one-step function on the code: c, of kind k in the
// frames γ, of code cd (nil: found from c), steps its first child in the search order
// that is not a value, or, all of them values, is contracted at its root; ok is false
// when c is a value (returned, looked up) or, with γ empty, an answer of k. A child
// that does not step is a value of its hole's kind (an answer only with γ empty, which
// a child never has where γ is kept, and no file without γ has answers): the search
// after it is the plugged term's code. An abort to a frame this call entered is its
// step: the contractum takes the place of c.
func (in *rulesInterpreter) step(c *sem.Term, cd *rulesCode, k *sem.Kind) (*sem.Term, string, bool, error) {
	if in.depth >= interp.MaxDepth {
		return nil, "", false, interp.TooDeep()
	}
	in.depth++
	defer func() { in.depth-- }()
	c, cd, err := in.lookUp(c, cd, k)
	if err != nil {
		return nil, "", false, err
	}
	if in.isValue(cd, c) {
		return c, "", false, nil
	}
	d := in.gamma.Depth()
	if fr, ok := in.findFrame(cd, c); ok {
		n := sem.View(c)
		for {
			f := fr.f
			in.gamma.Enter(f, n)
			next, event, stepped, err := in.step(sem.At(n, f.Path), in.prog.holeCode(fr), f.Hole)
			in.gamma.Leave(d)
			if a, ok := contexts.Caught(err, d); ok {
				return a.Term, a.Event, true, nil
			}
			if err != nil {
				return nil, "", false, err
			}
			c = sem.PlugAt(n, f.Path, next)
			if stepped {
				return c, event, true, nil
			}
			cd = in.prog.plugged(fr)
			g, ok := in.findFrame(cd, c)
			if !ok {
				break
			}
			fr, n = g, sem.View(c)
		}
		if in.isValue(cd, c) {
			return c, "", false, nil
		}
	}
	if d == 0 && in.isAnswer(cd, c) {
		return c, "", false, nil
	}
	ct, err := in.Contract(c, k, in.gamma.Context(), in.stepLayer)
	if err != nil {
		return nil, "", false, err
	}
	if ct.Pop > 0 {
		return nil, "", false, &contexts.Abort{Term: ct.Term, Kind: ct.Kind, Event: ct.Event, Depth: d - ct.Pop}
	}
	return ct.Term, ct.Event, true, nil
}

// isValue is IsValue(c, k) for c of code cd.
func (in *rulesInterpreter) isValue(cd *rulesCode, c *sem.Term) bool {
	if cd.value == maybe {
		return in.IsValue(c, cd.k)
	}
	if in.verify {
		in.verified++
		if in.IsValue(c, cd.k) != (cd.value == yes) {
			in.mismatch("a value", c, cd)
		}
	}
	return cd.value == yes
}

// isAnswer is IsAnswer(c, k) for c of code cd.
func (in *rulesInterpreter) isAnswer(cd *rulesCode, c *sem.Term) bool {
	if cd.answer == maybe {
		return in.IsAnswer(c, cd.k)
	}
	if in.verify {
		in.verified++
		if in.IsAnswer(c, cd.k) != (cd.answer == yes) {
			in.mismatch("an answer", c, cd)
		}
	}
	return cd.answer == yes
}

// findFrame is Enter for c of code cd: the first of its frames that matches with a
// non-value in its hole, in the search order, those decided before the run not tried.
func (in *rulesInterpreter) findFrame(cd *rulesCode, c *sem.Term) (*rulesFrame, bool) {
	fr, ok := in.search(cd, c)
	if in.verify {
		in.verified++
		if f, found := in.Enter(c, cd.k, cd.from); found != ok || ok && f != fr.f {
			in.mismatch("the frame", c, cd)
		}
	}
	return fr, ok
}

func (in *rulesInterpreter) search(cd *rulesCode, c *sem.Term) (*rulesFrame, bool) {
	for _, fr := range cd.frames {
		if fr.test == yes {
			return fr, true
		}
		if in.Enters(c, fr.f) {
			return fr, true
		}
	}
	return nil, false
}

// mismatch notes a decision taken before the run that the engine does not take (for
// the tests: verify).
func (in *rulesInterpreter) mismatch(what string, c *sem.Term, cd *rulesCode) {
	in.mismatches = append(in.mismatches, fmt.Sprintf("%s of %s in %s (from frame %d)", what, in.Short(c), cd.k.Name, cd.from+1))
}

// decision is what compile knows, before the run, of a test interp makes at a visit:
// its answer, or that the run decides (maybe: the engine's test, on the term).
type decision uint8

const (
	maybe decision = iota
	yes
	no
)

// shapeOp says what compile knows of a term before the run.
type shapeOp uint8

const (
	shAny   shapeOp = iota // nothing
	shBody                 // a program's subterm (under environments, a closure's body)
	shName                 // a name: a binder's variable
	shValue                // a value of a kind: a hole plugged with interp's value
	shNode                 // a root, and perhaps the shapes of its children
)

// shape is what compile knows of a term before the run: its body, or its root (and
// its children's shapes: nil args, nothing known of them), or that it is a value of a
// kind.
type shape struct {
	op   shapeOp
	term *sem.Term  // shBody
	root sem.TermOp // shNode
	con  *sem.Con   // shNode with a constructor root
	args []*shape   // shNode: the children's shapes, nil if unknown
	kind *sem.Kind  // shValue
}

var anyShape = &shape{op: shAny}

// rootOf is the root of a term of shape s, if known.
func (s *shape) rootOf() (sem.TermOp, *sem.Con, bool) {
	switch s.op {
	case shBody:
		return s.term.Op, s.term.Con, true
	case shNode:
		return s.root, s.con, true
	case shName:
		return sem.TermVar, nil, true
	}
	return 0, nil, false
}

// child is the shape of the i-th child of a term of shape s (its expansion's, under
// environments: the closure of the body's child, a name for a binder, an integer).
func (s *shape) child(i int) *shape {
	switch {
	case s.op == shBody && s.term.Op == sem.TermCon:
		if s.term.Con.Args[i].Kind == sem.ArgVar {
			return &shape{op: shName}
		}
		return &shape{op: shBody, term: s.term.Args[i]}
	case s.op == shNode && s.args != nil:
		return s.args[i]
	case s.op == shNode && s.root == sem.TermCon:
		switch s.con.Args[i].Kind { // a root's children: their sorts say what they are
		case sem.ArgVar:
			return &shape{op: shName}
		case sem.ArgInt:
			return &shape{op: shNode, root: sem.TermInt}
		}
	}
	return anyShape
}

// at is the shape of the child at path.
func (s *shape) at(path []int) *shape {
	for _, i := range path {
		s = s.child(i)
	}
	return s
}

// plug is the shape of a term of shape s with its child at path replaced by one of
// shape v (PlugAt).
func (s *shape) plug(path []int, v *shape) *shape {
	if len(path) == 0 {
		return v
	}
	op, con, ok := s.rootOf()
	if !ok || op != sem.TermCon {
		return anyShape
	}
	n := &shape{op: shNode, root: op, con: con, args: make([]*shape, len(con.Args))}
	for i := range n.args {
		n.args[i] = s.child(i)
	}
	n.args[path[0]] = n.args[path[0]].plug(path[1:], v)
	return n
}

// maxStatic bounds the nesting of value metavariables compile follows into a body
// before the run; past it the run decides.
const maxStatic = 16

// decide is Match(p, t) for every term t of shape s, if they all agree: yes if all
// match, no if none does, else maybe. It follows Engine.Match case by case.
func decide(p *sem.Pattern, s *shape, depth int) decision {
	switch {
	case p.Kind == sem.PatHole, p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaTerm:
		return yes
	case p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaValue:
		return valueStatus(p.Sort.ValuesOf, s, depth+1)
	case p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaClass:
		return classStatus(p.Sort.Class, s, depth+1)
	}
	op, con, ok := s.rootOf()
	if !ok || s.op == shBody && op == sem.TermVar {
		return maybe // a closure of a variable: its look-up's shape is the run's
	}
	switch p.Kind {
	case sem.PatCon:
		if op != sem.TermCon || con != p.Con {
			return no
		}
		d := yes
		for i, a := range p.Args {
			switch decide(a, s.child(i), depth) {
			case no:
				return no
			case maybe:
				d = maybe
			}
		}
		return d
	case sem.PatInt:
		switch {
		case op != sem.TermInt:
			return no
		case s.op != shBody:
			return maybe
		case s.term.N == p.N:
			return yes
		}
		return no
	case sem.PatAtom:
		switch {
		case op != sem.TermAtom:
			return no
		case s.op != shBody:
			return maybe
		case s.term.Atom == p.Atom && p.Atom.Equal(s.term.Val, p.Val):
			return yes
		}
		return no
	case sem.PatMeta:
		switch p.Sort.Kind {
		case sem.MetaVar:
			if op == sem.TermVar {
				return yes // a name
			}
			return no
		case sem.MetaInt:
			if op == sem.TermInt {
				return yes
			}
			return no
		case sem.MetaAtom:
			switch {
			case op != sem.TermAtom:
				return no
			case s.op != shBody:
				return maybe
			case s.term.Atom == p.Sort.Atom:
				return yes
			}
			return no
		}
	}
	return maybe
}

// enters is whether the search enters the frame f in every term of shape s, if they
// all agree (Engine.Enter): the term matches f's pattern and the hole holds a term
// that is not a value of the hole's kind.
func enters(f *sem.Frame, s *shape) decision {
	d := decide(f.Pat, s, 0)
	if d == no {
		return no
	}
	switch valueStatus(f.Hole, s.at(f.Path), 0) {
	case yes:
		return no
	case maybe:
		return maybe
	}
	return d
}

// valueStatus is IsValue(t, k) for every term t of shape s, if they all agree.
func valueStatus(k *sem.Kind, s *shape, depth int) decision {
	if s.op == shValue && s.kind == k {
		return yes
	}
	op, con, ok := s.rootOf()
	if !ok || depth > maxStatic || s.op == shBody && op == sem.TermVar || k.NormalForms {
		// A kind whose values are its normal forms: its search, at the run, decides.
		return maybe
	}
	return anyOf(k.Lookup(sem.ValueTable, op, con), func(i int) *sem.Pattern { return k.Values[i].Pat }, s, depth)
}

// classStatus is InClass(t, c) for every term t of shape s, if they all agree: one of
// the class's alternatives matches.
func classStatus(c *sem.Class, s *shape, depth int) decision {
	if _, _, ok := s.rootOf(); !ok || depth > maxStatic || s.op == shBody && s.term.Op == sem.TermVar {
		return maybe
	}
	return anyOf(c.Alts, func(p *sem.Pattern) *sem.Pattern { return p }, s, depth)
}

// anyOf decides whether a term of shape s matches one of the patterns listed (pat
// gives the i-th).
func anyOf[T any](list []T, pat func(T) *sem.Pattern, s *shape, depth int) decision {
	d := no
	for _, i := range list {
		switch decide(pat(i), s, depth) {
		case yes:
			return yes
		case maybe:
			d = maybe
		}
	}
	return d
}

// rulesCode is the code of a term of a shape in a kind k: what interp decides at its
// visit, decided before the run where its shape decides it.
type rulesCode struct {
	k      *sem.Kind
	shape  *shape
	value  decision      // IsValue
	answer decision      // IsAnswer
	frames []*rulesFrame // the frames FindFrame may find, in the search order
	from   int           // the index the search starts at
	// scratch is whether a plugged term of this code may be plugged in the scratch:
	// every rule for its root has a constructor pattern, so that no contractum holds
	// the redex itself.
	scratch bool
}

// rulesFrame is a frame a term of a code may enter: the frame, its test (yes: the
// search stops here before the run), the code of the hole's contents (when the shape
// says it), and the code of the term once its hole is plugged with a value.
type rulesFrame struct {
	f        *sem.Frame
	test     decision
	parent   *rulesCode
	holeDone bool
	hole     *rulesCode
	next     *rulesCode
}

// rulesProgram is the code of one run, built lazily as the run meets it: the
// program's subterms, the codes of their bodies per kind, and the codes of the roots
// of the other terms per kind.
type rulesProgram struct {
	env    bool
	terms  map[*sem.Term]bool
	bodies map[bodyKey]*rulesCode
	roots  map[rootKey]*rulesCode
}

type bodyKey struct {
	t *sem.Term
	k *sem.Kind
}

type rootKey struct {
	k   *sem.Kind
	op  sem.TermOp
	con *sem.Con
}

// newRulesProgram walks the program t (with a stack of its own: programs nest as deep
// as their parser allows) to know its subterms.
func newRulesProgram(d sem.Discipline, t *sem.Term) *rulesProgram {
	p := &rulesProgram{env: d == sem.Environments, terms: map[*sem.Term]bool{},
		bodies: map[bodyKey]*rulesCode{}, roots: map[rootKey]*rulesCode{}}
	for stack := []*sem.Term{t}; len(stack) > 0; {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.terms[u] {
			continue
		}
		p.terms[u] = true
		stack = append(stack, u.Args...)
	}
	return p
}

// codeOf is the code of the term c in kind k, found during the run: its body's, for a
// program's subterm (a closure of one, under environments), else its root's.
func (p *rulesProgram) codeOf(c *sem.Term, k *sem.Kind) *rulesCode {
	t := c
	if p.env && c.Op == sem.TermClo {
		t = c.Body
	}
	if p.terms[t] { // under environments, a closure's body or a closed term (its own closure)
		return p.bodyCode(t, k)
	}
	key := rootKey{k, t.Op, t.Con}
	cd := p.roots[key]
	if cd == nil {
		cd = build(&shape{op: shNode, root: t.Op, con: t.Con}, k, 0)
		p.roots[key] = cd
	}
	return cd
}

// bodyCode is the code of the program's subterm t in kind k.
func (p *rulesProgram) bodyCode(t *sem.Term, k *sem.Kind) *rulesCode {
	key := bodyKey{t, k}
	cd := p.bodies[key]
	if cd == nil {
		cd = build(&shape{op: shBody, term: t}, k, 0)
		p.bodies[key] = cd
	}
	return cd
}

// holeCode is the code of the hole's contents of fr, if its shape says it: the
// program's subterm there.
func (p *rulesProgram) holeCode(fr *rulesFrame) *rulesCode {
	if !fr.holeDone {
		fr.holeDone = true
		if s := fr.parent.shape.at(fr.f.Path); s.op == shBody {
			fr.hole = p.bodyCode(s.term, fr.f.Hole)
		}
	}
	return fr.hole
}

// plugged is the code of the term of fr's code once fr's hole is plugged with a value
// of its kind: its search goes on after fr.
func (p *rulesProgram) plugged(fr *rulesFrame) *rulesCode {
	if fr.next == nil {
		s := fr.parent.shape.plug(fr.f.Path, &shape{op: shValue, kind: fr.f.Hole})
		fr.next = build(s, fr.f.Kind, fr.f.Index+1)
	}
	return fr.next
}

// build compiles the code of a term of shape s in kind k whose search for a frame
// starts at the index from: the decisions of its root's value, answer and frame
// patterns (sem's index, Kind.Lookup), before the run.
func build(s *shape, k *sem.Kind, from int) *rulesCode {
	cd := &rulesCode{k: k, shape: s, value: maybe, answer: maybe, from: from}
	op, con, ok := s.rootOf()
	if !ok {
		for _, f := range k.Frames[from:] {
			cd.frames = append(cd.frames, &rulesFrame{f: f, test: maybe, parent: cd})
		}
		return cd
	}
	cd.value = valueStatus(k, s, 0)
	cd.scratch = op == sem.TermCon
	for _, i := range k.Lookup(sem.RuleTable, op, con) {
		cd.scratch = cd.scratch && k.Rules[i].LHS.Kind == sem.PatCon
	}
	cd.answer = anyOf(k.Lookup(sem.AnswerTable, op, con), func(i int) *sem.Pattern { return k.Answers[i].Pat }, s, 0)
	for _, i := range k.Lookup(sem.FrameTable, op, con) {
		f := k.Frames[i]
		if i < from {
			continue
		}
		d := enters(f, s)
		if d == no {
			continue
		}
		cd.frames = append(cd.frames, &rulesFrame{f: f, test: d, parent: cd})
		if d == yes {
			break
		}
	}
	return cd
}
