package gogen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/interderive/interderive/sem"
)

// machineCases is the machine's transition function, eval and continue, fused with
// the file's tables by the node's root constructor and by the frame resumed
// (machine.go, {{MACHINE_CASES}}): one loop, its state in s, making the transitions
// up to the next contraction, as the hand-written machines' loops do. The
// transitions are those of the generic machine (machine/rules.go), tried in the same
// order:
//
//	eval:     the value test; the frames of the kind in search order, each entered
//	          where its hole holds a non-value; the answer test; the rules;
//	continue: the frames after the resumed one; the value test; the answer test;
//	          the rules;
//
// but each case holds only what a node of its root may match: the value test is
// answered where the root alone answers it (sem.Kind.RootAnswer), the frames are
// those with that root (tested in place, as findFrame tests them, knowing what the
// frames before them tell: a hole passed over holds a value), continue resumes the
// search among the frames of the resumed frame's root, and the rules of the root are
// written in place, sharing the children the tests took. So a transition makes one
// dispatch on the root, or the frame, instead of one a test.
func (g *gen) machineCases() string { return g.loop(formMachine) }

// loop emits the fused transitions of the machine or of the CPS evaluator (f): one
// loop, a transition an iteration, eval and continue its cases, which differ only
// where the form says (formCode); the interpreter has a function by kind and root
// instead, written by the same code (interpCases).
func (g *gen) loop(f form) string {
	g.form = f
	defer func() { g.form = formMachine }()
	machine, state := "rulesMachine", "machineState"
	resume := `// continue(K, v): the top frame's hole filled with v in place, and the
			// transition taken by the frame: a frame g after it entered in the same entry of
			// the stack, or the frame popped and its node returned or contracted.
			if len(s.k) == 0 {
				s.mode = machineHalt
				return false, nil
			}
			top := &s.k[len(s.k)-1]
`
	contracted := `// The contraction s.c: the frames it discards popped, eval of the contractum, in
		// place (refocusing), in its kind.`
	discard := "s.k = s.k[:len(s.k)-s.c.pop]\n"
	if f == formCPS2 {
		machine, state = "rulesCPS2", "cps2State"
		resume = `// resume(f, v, κ, γ): the continuation of the frame f applied to v, the hole
			// filled with v in place, and the transition taken by the frame: a frame g
			// after it entered in its place, under a continuation of its own, or the
			// frame's node given to κ or contracted.
			kont := s.top
			top := &kont.f
`
		contracted = `// The contraction s.c: under the κ and γ of the last frame it discards (a
		// context rule's), eval of the contractum in place, in its kind.`
		discard = `if s.c.pop > 0 {
			to := s.entry(s.c.pop - 1)
			s.kappa, s.gamma = to.kappa, to.next
		}
`
	}
	e := &emitter{}
	e.b.WriteString(`// transitions makes the transitions from s, one an iteration, to the final state;
// each contraction spends one unit of fuel and is made in place (through), or the
// first one ends the run of transitions (contracted: s.c holds it, not made yet).
func (m ` + machine + `) transitions(s *` + state + `, through bool) (contracted bool, err error) {
	r := m.r
	for {
		switch s.mode {
`)
	g.evalMode(e)
	e.b.WriteString("case machineContinue:\n" + resume)
	g.continueMode(e)
	e.b.WriteString(`default:
			return false, nil
		}
	contracted:
		` + contracted + `
		if !through {
			return true, nil
		}
`)
	g.spent(e, g.code().fail+"err")
	e.b.WriteString(discard + `s.mode, s.term, s.kind = machineEval, s.c.term, s.c.kind
	}
}
`)
	return e.b.String()
}

// evalMode emits the case of eval(t, k, K) in the fused transitions: t looked up,
// and its node's transition taken by its kind and its root.
func (g *gen) evalMode(e *emitter) {
	e.b.WriteString(`case machineEval:
			// eval(t, k, K): t looked up, and its node's transition taken by its kind and root.
			if s.term.t.Tag == tagVar { // a variable left by resolve: lookUp's error, if any
				t, err := r.lookUp(s.term)
				if err != nil {
					` + g.code().fail + `err
				}
				s.term = t
			}
			nv := nodeOf(s.term)
			n := &nv
			_ = n // a file whose kinds have no frame, value or rule tests nothing
			switch s.kind {
`)
	for _, k := range g.l.Kinds {
		e.p("case %s:", g.kind[k.Index])
		g.evalCases(e, k)
	}
	e.b.WriteString(`}
			` + g.code().fail + `&stuckError{reason: "no kind"}
`)
}

// continueMode emits the case of continue(f[t] : K, v) in the fused transitions,
// after the line that takes the top frame f: its entries given back, its hole
// filled, and the transition taken by the frame.
func (g *gen) continueMode(e *emitter) {
	e.b.WriteString(released + `
			var nv node // the frame's node, its hole filled (fill, by frame)
			n := &nv
			_ = n
			switch top.frame {
`)
	for _, k := range g.l.Kinds {
		g.contCases(e, k)
	}
	e.b.WriteString(`}
			` + g.code().fail + `&stuckError{reason: "no frame"}
`)
}

// spent emits the contraction's count: spend, where the fuel or a limit has something
// to do, else the count and the observer's call in place; fail returns spend's error.
// The contraction is s.c, or the compiled case's ct.
func (g *gen) spent(e *emitter, fail string) {
	c := strings.TrimPrefix(g.out(), "&")
	due := "r.due()"
	if g.form == formCompile { // due written out: Go inlines little in a closure as large as a case
		due = "r.steps >= r.fuel || r.ticks&1023 == 1023"
	}
	e.b.WriteString(`if ` + due + ` {
			if err := r.spend(` + c + `.event); err != nil {
				` + fail + `
			}
		} else { // spend, where it has nothing to do but count and tell
			r.steps++
			r.ticks++
			if r.onContract != nil {
				r.onContract(` + c + `.event)
			}
		}
`)
}

// rootTables emits what a root alone answers of each kind's value test (match.go),
// for the fused transitions to test a hole by its root first.
func (g *gen) rootTables(e *emitter) {
	e.b.WriteString(`// What a root alone answers of a value test (sem.RootAnswer), by the root's tag.
const (
	rootDepends = iota // the test decides
	rootYes            // a value
	rootNo             // not a value
)

`)
	for _, k := range g.l.Kinds {
		g.valueByRoot(e, k)
	}
}

// form is whose fused transitions the generator writes: the three stages after the
// calculus of closures share them, each written from the machine's by the changes
// below (formCode: where a value goes, a frame is entered and popped, and the context).
type form uint8

const (
	formMachine form = iota // the stack K a slice of frames, s.k
	formCPS2                // K refunctionalized: each frame a continuation κ, s.kappa (cps2gen.go)
	formInterp              // K's control the Go stack: a hole evaluated by a call, in a function by kind and root (interpgen.go)
	formCompile             // interp staged: its cases compiled for a node of the program, γ a record by depth (compile.go)
)

// formCode is what the fused transitions write where the three forms differ: the
// rest of their code is one for the three.
type formCode struct {
	// returned gives the value in s.term to the frame below: the machine's
	// continue(K, v), the CPS evaluator's κ(v), or the interpreter's return from its
	// call (transition's interpValue: the call's value).
	returned string
	// popped gives s.term, the node of the frame just popped (pop), to the frame
	// below: continue(K, v), κ(v), or the return from the call that entered the frame.
	popped string
	// pop pops the frame resumed, its transitions to other frames tried: the CPS
	// evaluator has nothing to pop, the application of the frame's continuation
	// having restored the κ and γ around it.
	pop string
	// entered evaluates the hole of the frame just entered (s.term, of kind s.kind):
	// eval in the next iteration (the interpreter's call is enterCalled's).
	entered string
	// empty tests that the stack around the term is empty (κ0, for the CPS
	// evaluator), where a non-value answer halts.
	empty string
	// context is the stack as the context a rule is contracted in: the machine's
	// frames, or the CPS evaluator's γ.
	context string
	// layered precedes a contraction that may step an inner layer (m.stepLayer):
	// the interpreter's call gives its depth to the structural one-step function,
	// which counts on from it (interp's depth is its argument).
	layered string
	// fail starts a return of an error (or of the halt, with nil) from the function
	// that holds the transitions: the machine's and the CPS evaluator's (contracted
	// bool, err error), the interpreter's (interpAction, error).
	fail string
}

// forms are the forms' code, by form.
var forms = [...]formCode{
	formMachine: {
		returned: "s.mode = machineContinue\n" + next,
		popped:   next,
		pop:      "s.k = s.k[:len(s.k)-1]",
		entered:  next,
		empty:    "len(s.k) == 0",
		context:  "&s.k",
		fail:     "return false, ",
	},
	formCPS2: {
		returned: "s.apply(s.term)\n" + next,
		popped:   "s.apply(s.term)\n" + next,
		pop:      "// κ and γ are those around the frame already",
		entered:  next,
		empty:    "s.kappa == nil",
		context:  "s.context()",
		fail:     "return false, ",
	},
	formInterp: { // its entries and pops are enterCalled's and interpRoot's
		returned: "return interpValue, nil",
		popped:   "return interpValue, nil",
		empty:    "len(s.k) == 0",
		context:  "&s.k",
		fail:     "return interpValue, ",
		layered:  "m.depth = depth + 1 // step counts on from this call's depth\n",
	},
	formCompile: { // as interp's, its value and contraction returned; γ the records by depth of the calls around (compiledContext)
		returned: "return Val{t: t, env: env}, valued, nil",
		empty:    "depth == 0",
		context:  "m.context(depth)",
		fail:     "return Val{}, valued, ",
		layered:  "m.depth = depth + 1 // step counts on from this call's depth\n",
	},
}

// out is where a fused transition writes its contraction: the state's s.c, or the
// compiled case's own ct, which it returns.
func (g *gen) out() string {
	if g.form == formCompile {
		return "&ct"
	}
	return "&s.c"
}

// code is the code of the form being written.
func (g *gen) code() formCode { return forms[g.form] }

// next is the statement that goes on to the next transition.
const next = "continue"

// rootCase is what a root tag of a kind's nodes leads to in eval: the root's answer
// to the value test, and the frames a node of that root may match (in search order).
type rootCase struct {
	tag    string
	value  sem.RootAnswer
	frames []int
}

// rootCases are the root tags that a kind's eval tells apart: those the value test's
// root answer decides and those its frames and rules test, each with its frames; any are the
// frames of any root (tested in every case, and alone in the default one).
func (g *gen) rootCases(k *sem.Kind) (cases []rootCase, any []int) {
	yes, no := g.rootAnswers(k, nil)
	answer := func(tag string) sem.RootAnswer { return answerOf(yes, no, tag) }
	at := map[string]int{}
	add := func(tag string) *rootCase {
		i, ok := at[tag]
		if !ok {
			i = len(cases)
			at[tag] = i
			cases = append(cases, rootCase{tag: tag, value: answer(tag)})
		}
		return &cases[i]
	}
	for _, tag := range yes {
		add(tag)
	}
	for i, f := range k.Frames {
		if tag := g.rootTag(f.Pat); tag != "" {
			add(tag)
		} else {
			any = append(any, i)
		}
	}
	for _, r := range k.Rules {
		if tag := g.rootTag(r.LHS); tag != "" {
			add(tag)
		}
	}
	for i := range cases {
		c := &cases[i]
		if c.value == sem.Yes {
			continue // a value: its frames are never tried
		}
		for j, f := range k.Frames {
			if tag := g.rootTag(f.Pat); tag == c.tag || tag == "" {
				c.frames = append(c.frames, j)
			}
		}
	}
	return cases, any
}

// valueTags are the tags of the cases whose root alone makes a node a value.
func valueTags(cases []rootCase) []string {
	var values []string
	for _, c := range cases {
		if c.value == sem.Yes {
			values = append(values, c.tag)
		}
	}
	return values
}

// evalCases emits eval(t, k, K) for t's node n of kind k, by n's root: a value
// continues, a frame whose hole holds a non-value is entered, and anything else is
// contracted.
func (g *gen) evalCases(e *emitter, k *sem.Kind) {
	K := g.kind[k.Index]
	cases, any := g.rootCases(k)
	if len(cases) > 0 {
		e.p("switch n.t.Tag {")
		if values := valueTags(cases); len(values) > 0 {
			e.p("case %s:", join(values))
			e.p("%s", g.code().returned)
		}
		for _, c := range cases {
			if c.value == sem.Yes {
				continue
			}
			e.p("case %s:", c.tag)
			if c.value == sem.Depends {
				g.valueContinues(e, K)
			}
			g.known = &known{tag: c.tag, values: map[int]int{}}
			g.shared = map[string]string{}
			for _, f := range c.frames {
				g.frameTried(e, k.Frames[f], "push")
			}
			g.contractRoot(e, k, c.tag)
			g.known, g.shared = nil, nil
		}
		e.p("}")
	}
	g.valueContinues(e, K)
	for _, f := range any {
		g.enterFrame(e, k.Frames[f], "push")
	}
	g.contractRoot(e, k, "")
}

// valueContinues emits eval's value test: a value of K continues.
func (g *gen) valueContinues(e *emitter, K string) {
	e.p("if r.isValue%s(n) {", K)
	e.p("%s", g.code().returned)
	e.p("}")
}

// frameTried emits the test of the frame f in a fused transition and its entry
// (enterFrame). Where the test reaches the hole whatever the node (reachesHole), the
// hole's child is taken before it, into a variable that the tests and the rules after
// it share; and once the frame is passed over, its hole is known to hold a value.
func (g *gen) frameTried(e *emitter, f *sem.Frame, how string) {
	reaches := g.shareHole(e, f, how == "push") != ""
	g.enterFrame(e, f, how)
	if reaches {
		g.known.values[f.Path[0]] = f.Hole.Index
	}
}

// shareHole emits, where the test of the frame f reaches its hole whatever the node
// (reachesHole), the hole's child taken into a variable the tests and rules after it
// share (kidFreeOut: fresh says no hole of the node is filled yet), and returns the
// variable; "" where the test may not reach the hole.
func (g *gen) shareHole(e *emitter, f *sem.Frame, fresh bool) string {
	if !g.reachesHole(f) {
		return ""
	}
	x := g.holeExpr(f)
	if v := g.shared[x]; v != "" {
		return v
	}
	return g.shareKid(e, x, f.Path[0], fresh)
}

// shareKid emits the child i of n, taken by the expression x, into the variable kidI
// that the tests and rules after it share (kidFreeOut where x is kidFree's: fresh
// says no hole of the node is filled yet), and returns the variable. kidI holds no
// other expression: a child in the scope of no binder is taken by kidFree alone
// (holeExpr).
func (g *gen) shareKid(e *emitter, x string, i int, fresh bool) string {
	v := fmt.Sprintf("kid%d", i)
	if x == fmt.Sprintf("n.kidFree(%d)", i) {
		g.kidFreeOut(e, v, "n", i, fresh)
	} else {
		e.p("%s := %s", v, x)
	}
	g.shared[x] = v
	return v
}

// holeTest is the start of a frame's entry: the hole taken, and the test that it
// holds a non-value of the hole's kind (two blocks left open).
func (g *gen) holeTest(f *sem.Frame) []string {
	H := g.kind[f.Hole.Index]
	if lines := g.holeTestCompiled(f); lines != nil {
		return lines
	}
	return []string{
		"hole := " + g.take(g.holeExpr(f)),
		fmt.Sprintf("if a := valueByRoot%s[hole.t.Tag-tagLeast]; a != rootYes {", H),
		fmt.Sprintf("if a == rootNo || r.holdsNonValue%s(hole) {", H),
	}
}

// enterFrame emits the test that n matches the frame f with a non-value in its
// hole, and its entry: pushed (eval) or put in place of the top frame (continue).
func (g *gen) enterFrame(e *emitter, f *sem.Frame, how string) {
	F := g.frame[f]
	H := g.kind[f.Hole.Index]
	entry := g.holeTest(f)
	switch {
	case how == "push" && g.form == formCPS2:
		entry = append(entry, fmt.Sprintf("s.push(%d, n.t, n.env)", F))
	case how == "push":
		entry = append(entry, "s.k = s.k.pushed()", fmt.Sprintf("s.k[len(s.k)-1].set(%d, n.t, n.env, r.stack.top)", F))
	case g.form == formCPS2:
		entry = append(entry, fmt.Sprintf("top.frame = %d", F), "s.enter(kont)", "s.mode = machineEval")
	default:
		entry = append(entry, fmt.Sprintf("top.frame = %d", F), "s.mode = machineEval")
	}
	entry = append(entry, fmt.Sprintf("s.term, s.kind = hole, %s", H), g.code().entered, "}", "}")
	g.inline(e, f.Pat, strings.Join(entry, "\n"))
}

// contCases emits continue(f[n] : K, v) for each frame f of kind k, its hole filled
// (n): the frames after f that a node of f's root may match, each entered in f's
// place where its hole holds a non-value; else f is popped, and n continues as a
// value or is contracted.
func (g *gen) contCases(e *emitter, k *sem.Kind) {
	K := g.kind[k.Index]
	yes, no := g.rootAnswers(k, nil)
	defer func() { g.known, g.shared = nil, nil }()
	for i, f := range k.Frames {
		e.p("case %d: // %s", g.frame[f], sem.FormatFrame(f.Pat))
		tag := g.rootTag(f.Pat)
		g.known, g.shared = g.resumed(f), map[string]string{}
		if len(f.Path) == 1 {
			// fill, the hole a child of the root: that child is the value it was
			// filled with, shared with the tests and rules after.
			h := f.Path[0]
			v := fmt.Sprintf("kid%d", h)
			e.p("top.kids[%d], top.filled = s.term, true", h)
			e.p("%s := s.term", v)
			e.p("_ = %s", v)
			g.shared[fmt.Sprintf("n.kidFree(%d)", h)] = v
			g.shared[fmt.Sprintf("n.kid(%d)", h)] = v
		} else {
			e.p("top.fill(frames[%d].path, s.term)", g.frame[f])
		}
		e.p("nv = node{t: top.term, env: top.env, kids: &top.kids}")
		for _, h := range k.Frames[i+1:] {
			if t := g.rootTag(h.Pat); tag == "" || t == "" || t == tag {
				g.frameTried(e, h, "resume")
			}
		}
		e.p("%s", g.code().pop)
		switch {
		case tag != "" && slices.Contains(yes, tag):
			e.p("s.term = r.value(n)")
			e.p("%s", g.code().popped)
			continue
		case tag != "" && slices.Contains(no, tag):
		default:
			g.valueReturns(e, K)
		}
		g.contractRoot(e, k, tag)
	}
}

// contractRoot emits the contraction of n, a node of kind k with the root tag (""
// for any), where no value test and no frame took it: halted on in the empty context
// where it is an answer, else contracted by the kind's rules of that root, in order,
// written in place; where none applies, the kind's contract (contractAll).
func (g *gen) contractRoot(e *emitter, k *sem.Kind, tag string) {
	K := g.kind[k.Index]
	if g.mayAnswer(k, tag) {
		e.p("if %s && r.isAnswer%s(n) {", g.code().empty, K)
		if g.form == formCompile {
			e.p("return n.val(), valued, nil")
		} else {
			e.p("s.mode, s.term = machineHalt, n.val()")
			e.p("%snil", g.code().fail)
		}
		e.p("}")
	}
	if tag != "" {
		if g.known == nil {
			g.known = &known{tag: tag}
		}
		g.shareRuleKids(e, k, tag)
		for _, rule := range k.Rules {
			if t := g.rootTag(rule.LHS); t == tag || t == "" {
				if !g.inlineRule(e, rule) {
					return // it applies to every node of the root: nothing after it is tried
				}
			}
		}
	}
	g.contractAll(e, K)
}

// shareRuleKids emits, for each child of a node with the root tag that two rules of
// kind k or more test (a child in the scope of no binder), the child taken once into
// a variable the rules share (kidFreeOut), where no frame's test has taken it
// already: each rule would take it again.
func (g *gen) shareRuleKids(e *emitter, k *sem.Kind, tag string) {
	var tests []int // by child, how many rules of the root test it
	for _, r := range k.Rules {
		p := r.LHS
		if p.Kind != sem.PatCon || g.con[p.Con.Index] != tag {
			continue
		}
		if tests == nil {
			tests = make([]int, len(p.Args))
		}
		for i, a := range p.Args {
			if p.Con.Args[i].Kind == sem.ArgTerm && len(p.Con.BindersOf(i)) == 0 && !untested(a) {
				tests[i]++
			}
		}
	}
	for i, n := range tests {
		if x := fmt.Sprintf("n.kidFree(%d)", i); n >= 2 && g.shared[x] == "" {
			g.shareKid(e, x, i, false)
		}
	}
}

// inlineRule emits the contraction of n by the rule r in place (ruleBody, its
// context the stack, its contraction written in s.c), the children it shares with
// the transition's tests taken once; where it does not apply, it jumps past itself.
// It reports whether it may not apply.
func (g *gen) inlineRule(e *emitter, r *sem.Rule) bool {
	e.labels++
	l := fmt.Sprintf("no%d", e.labels)
	sub := &emitter{tmps: e.tmps, labels: e.labels}
	g.inlined = true
	g.ruleBody(sub, r, "goto "+l)
	g.inlined = false
	e.tmps, e.labels = sub.tmps, sub.labels
	e.p("// rule %s: %s -> %s", r.Name, sem.FormatPattern(r.LHS), sem.FormatPattern(r.RHS))
	e.p("{")
	if r.Context {
		e.p("E := context(%s)", g.code().context)
	}
	if r.Layer != nil {
		e.p("%sstep := layerStep(m.stepLayer)", g.code().layered)
	}
	e.p("out := %s", g.out())
	e.b.WriteString(sub.b.String())
	e.p("}")
	if !jumpsTo(sub.b.String(), l) {
		return false
	}
	e.p("%s:", l)
	e.p(";")
	return true
}

// valueReturns emits continue's value test: a value of K is returned to the frame
// below.
func (g *gen) valueReturns(e *emitter, K string) {
	safe := "" // a compiled case's children made lazily are made before (materialize)
	if g.lazyKids {
		safe = readSafely + " "
	}
	e.p("if %sr.isValue%s(n) {", safe, K)
	if g.form == formCompile {
		e.p("%sreturn r.value(n), valued, nil", safe)
	} else {
		e.p("s.term = r.value(n)")
		e.p("%s", g.code().popped)
	}
	e.p("}")
}

// contractAll emits the generic contraction of n of kind K, its answer test done
// (match.go's contract: the kind's rules, then its stuck shapes, which say why none
// applies where a fused case tried its rules already).
func (g *gen) contractAll(e *emitter, K string) {
	safe := ""
	if g.lazyKids { // a compiled case's children made lazily: made first
		e.p("if filled != 0 {")
		g.materialize(e)
		e.p("}")
		safe = readSafely + " "
	}
	e.p("%s%sif err := r.contract%s(n, %s, m.stepLayer, %s); err != nil {", g.code().layered, safe, K, g.code().context, g.out())
	e.p("%serr", g.code().fail)
	e.p("}")
	e.p("goto contracted")
}

// kidFreeOut emits c := x.kidFree(i) written out, since Go inlines little in a
// function as large as the fused transitions, and a call costs more than the test it
// makes (a fresh node, whose holes none is filled, has no kids to look at): the
// child filled, or the child under x's environment, a variable looked up in place
// (the child the look-up is most often of), a literal as it is, anything else by
// resolve.
func (g *gen) kidFreeOut(e *emitter, c, x string, i int, fresh bool) {
	if g.form == formCompile && x == "n" {
		g.kidCompiled(e, c, i)
		return
	}
	e.p("%s := Val{t: %s.t.Args[%d]}", c, x, i)
	if !fresh {
		e.p("if %s.kids != nil && %s.kids[%d].t != nil {", x, x, i)
		e.p("%s = %s.kids[%d]", c, x, i)
		e.p("} else if %s.t.Tag == tagVar && %s.env != nil {", c, x)
	} else {
		e.p("if %s.t.Tag == tagVar && %s.env != nil {", c, x)
	}
	e.p("for en := %s.env; en != nil; en = en.next {", x)
	e.p("if en.name == %s.t.Name { if en.v.t != nil { %s = en.v }; break }", c, c)
	e.p("}")
	e.p("} else if a := %s.t; a.Tag >= 0 && a.fvDone { // resolve's common case", c)
	e.p("if %s.env != nil && len(a.fv) > 0 { %s.env = %s.env }", x, c, x)
	e.p("} else if a.Tag == tagClo || %s.env != nil && a.Tag >= 0 { %s = resolveAny(a, %s.env) }", x, c, x)
}

// released is the code that gives back the entries of the frame top, which its
// hole's value (s.term) returns to: release, its common case written out (the value
// reaches none of them).
var released = releasedTo("s.term", "top.mark")

// releasedTo is the code that gives back the entries above mark, which the value v
// returns past: release, its common case written out.
func releasedTo(v, mark string) string {
	return strings.NewReplacer("V", v, "MARK", mark).Replace(`if r.stack.top > MARK { // entries to give back (envStack)
	if st := &r.stack; !st.check && (V.env == nil || V.env.slot <= MARK) {
		st.top = MARK
	} else {
		V = st.release(V, MARK)
	}
}`)
}

// holeExpr is the closure in the hole of the frame f, which the node n matches: a
// child of n taken as the frame's test takes it, or the child at the hole's path.
func (g *gen) holeExpr(f *sem.Frame) string {
	if len(f.Path) == 1 && f.Pat.Kind == sem.PatCon {
		if i := f.Path[0]; len(f.Pat.Con.BindersOf(i)) == 0 {
			return fmt.Sprintf("n.kidFree(%d)", i)
		}
		return fmt.Sprintf("n.kid(%d)", f.Path[0])
	}
	return fmt.Sprintf("n.at(frames[%d].path)", g.frame[f])
}

// answerOf is the answer of a root tag, given the tags answered yes and no.
func answerOf(yes, no []string, tag string) sem.RootAnswer {
	switch {
	case slices.Contains(yes, tag):
		return sem.Yes
	case slices.Contains(no, tag):
		return sem.No
	}
	return sem.Depends
}

// known is what a fused transition knows of the node it tests, where the tests of
// frames are written (match): its root tag, and the children known to be values of
// a kind (by index: a frame passed over because its hole held a value, or the hole
// just filled).
type known struct {
	tag    string
	values map[int]int // child -> the index of the kind it is a value of
}

// value reports whether the root's child i, which the pattern a tests, is known to
// pass the test: a is the value metavariable of the kind the child is a value of.
func (k *known) value(i int, a *sem.Pattern) bool {
	if k == nil || a.Kind != sem.PatMeta || a.Sort.Kind != sem.MetaValue {
		return false
	}
	kind, ok := k.values[i]
	return ok && kind == a.Sort.ValuesOf.Index
}

// reachesHole reports whether the test of the frame f, as written where g.known
// holds, tests its hole whatever the node: its root is the known one, its hole a
// child of the root, and each other child untested or known to pass its test.
func (g *gen) reachesHole(f *sem.Frame) bool {
	p := f.Pat
	if g.known == nil || p.Kind != sem.PatCon || g.con[p.Con.Index] != g.known.tag || len(f.Path) != 1 {
		return false
	}
	for i, a := range p.Args {
		if i != f.Path[0] && needsChild(a, false) && !g.known.value(i, a) {
			return false
		}
	}
	return true
}

// resumed is what continue knows of the node of the frame f it resumes, its hole
// just filled: its root, the hole a value of the hole's kind, and the root's children
// that f's pattern tests for values of a kind (tested when f was entered, and not
// changed since). Nil for a frame whose root is not a constructor.
func (g *gen) resumed(f *sem.Frame) *known {
	p := f.Pat
	if p.Kind != sem.PatCon {
		return nil
	}
	k := &known{tag: g.con[p.Con.Index], values: map[int]int{}}
	for i, a := range p.Args {
		if a.Kind == sem.PatMeta && a.Sort.Kind == sem.MetaValue {
			k.values[i] = a.Sort.ValuesOf.Index
		}
	}
	if len(f.Path) == 1 {
		k.values[f.Path[0]] = f.Hole.Index
	}
	return k
}

// mayAnswer reports whether a node of kind k with the root tag may be one of its
// non-value answers: an answer pattern has that root, or any (or the root is not
// known: tag "").
func (g *gen) mayAnswer(k *sem.Kind, tag string) bool {
	for _, a := range k.Answers {
		if t := g.rootTag(a.Pat); tag == "" || t == "" || t == tag {
			return true
		}
	}
	return false
}

// valueByRoot emits the table of what a root alone answers of the value test of
// kind k, by tag (from tagLeast: tagClo, or the last of the calculus's own atom
// types' tags).
func (g *gen) valueByRoot(e *emitter, k *sem.Kind) {
	yes, no := g.rootAnswers(k, nil)
	answer := func(tag string) string {
		return [...]string{sem.Depends: "rootDepends", sem.Yes: "rootYes", sem.No: "rootNo"}[answerOf(yes, no, tag)]
	}
	e.p("// valueByRoot%s is what a root alone answers of the value test of %s, by tag-tagLeast.", g.kind[k.Index], k.Name)
	e.p("var valueByRoot%s = [...]uint8{", g.kind[k.Index])
	for i := len(g.atoms.types) - 1; i >= 0; i-- {
		e.p("%s - tagLeast: %s,", ownTagName(i), answer(ownTagName(i)))
	}
	for _, tag := range []string{"tagClo", "tagNumber", "tagFloat", "tagString", "tagBool", "tagInt", "tagVar"} {
		e.p("%s - tagLeast: %s,", tag, answer(tag))
	}
	for _, c := range g.l.Cons {
		e.p("%s - tagLeast: %s,", g.con[c.Index], answer(g.con[c.Index]))
	}
	e.p("}")
	e.p("")
}
