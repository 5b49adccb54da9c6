package gogen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/interderive/interderive/sem"
)

// matchFile is match.go: the file's values, classes, answers, frames, rules, stuck
// shapes and functions compiled to Go, each kind's dispatched by the root
// constructor.
func (g *gen) matchFile() string {
	e := &emitter{}
	l := g.l
	e.p("// The rule file %s compiled: each kind's values, answers, frames (in search", g.file)
	e.p("// order), rules (in order) and stuck shapes, its classes and its functions, as")
	e.p("// tests on constructors, dispatched by the root constructor (sem's Engine, specialised).")
	e.p("")
	g.kindConsts(e)
	g.framesTable(e)
	for _, k := range l.Kinds {
		g.values(e, k)
		g.answers(e, k)
		g.frames(e, k)
		g.rules(e, k)
	}
	for _, c := range l.Classes {
		g.classCode(e, c)
	}
	hooks := false
	for _, f := range l.Functions {
		if f.Hook != nil {
			g.hook(e, f)
			if defaultHook(f.Hook) {
				hooks = true // rt/number.go.txt, which the default hooks call
			}
			continue
		}
		g.function(e, f)
	}
	g.byKind(e)
	g.rootTables(e)
	g.layerEvents(e)
	if hooks {
		e.b.WriteString(g.text("number"))
	}
	ownHooks, ownPrims, ownTests := g.ownGo()
	if ownHooks {
		e.b.WriteString(g.text("hosthook"))
	}
	if ownPrims || ownTests {
		e.b.WriteString(g.text("hostprim"))
	}
	if ownTests {
		e.b.WriteString(g.text("hosttest"))
	}
	return e.b.String()
}

// ownGo reports what of its calculus's own Go the file calls (hosted: check refuses
// it otherwise): hooks, integer prims, comparison prims. The calls go back to the
// workbench (rt/hosthook.go.txt, rt/hostprim.go.txt, rt/hosttest.go.txt).
func (g *gen) ownGo() (hooks, prims, tests bool) {
	for _, f := range g.l.Functions {
		if f.Hook != nil && !defaultHook(f.Hook) {
			hooks = true
		}
	}
	walkPrims(g.l, func(p *sem.Prim) {
		if !DefaultPrim(p) {
			if p.Test {
				tests = true
			} else {
				prims = true
			}
		}
	})
	return hooks, prims, tests
}

// layerEvent is the function that names the event of the layer rule r, given its
// inner step's event (layerEvents).
func (g *gen) layerEvent(r *sem.Rule) string {
	return "layerEvent" + strconv.Itoa(slices.Index(g.l.Rules, r))
}

// layerEvents writes, for each rule whose step condition steps an inner layer, the
// function that names its event: RULE/INNER, a constant for each rule INNER may be
// (a string built at every contraction is an allocation), built only for an inner
// event of a layer of its own (RULE/OUTER/INNER).
func (g *gen) layerEvents(e *emitter) {
	for _, r := range g.l.Rules {
		if r.Layer == nil {
			continue
		}
		e.p("")
		e.p("// %s is the event of rule %s, which steps an inner layer whose step's event is inner.", g.layerEvent(r), r.Name)
		e.p("func %s(inner string) string {", g.layerEvent(r))
		e.p("switch inner {")
		seen := map[string]bool{}
		for _, q := range g.l.Rules {
			if !seen[q.Name] {
				seen[q.Name] = true
				e.p("case %q:", q.Name)
				e.p("return %q", r.Name+"/"+q.Name)
			}
		}
		e.p("}")
		e.p("return %q + inner", r.Name+"/")
		e.p("}")
	}
}

func (g *gen) kindConsts(e *emitter) {
	e.p("// The kinds of contexts; the first is the root kind.")
	e.p("const (")
	for i, k := range g.l.Kinds {
		e.p("%s = %d // %s, its values %s", g.kind[i], i, k.Name, k.Meta)
	}
	e.p(")")
	e.p("")
	e.p("// seesContext says whether a run needs the frames entered (the CPS evaluator's and the")
	e.p("// interpreter's γ): the file has a context rule or an answer.")
	e.p("const seesContext = %v", g.l.SeesContext())
	e.p("")
	e.p("// seesInnerFrames says whether a context rule reads frames of γ other than the")
	e.p("// outermost: it looks for a delimiter, or captures the frames it discards. Where")
	e.p("// none does, every context rule discards the whole context and reads only the")
	e.p("// position of its outermost frame (the compiled interpreter keeps only that one).")
	e.p("const seesInnerFrames = %v", seesInnerFrames(g.l))
	e.p("")
	e.p("// contextRules says, by kind, whether a rule of the kind looks at its context (a")
	e.p("// context rule): the others are contracted without one (the interpreter's step).")
	e.p("var contextRules = [...]bool{")
	for _, k := range g.l.Kinds {
		sees := slices.ContainsFunc(k.Rules, func(r *sem.Rule) bool { return r.Context })
		e.p("%v, // %s", sees, k.Name)
	}
	e.p("}")
	e.p("")
	e.p("// kindNames names the kinds.")
	e.p("var kindNames = [...]string{")
	for _, k := range g.l.Kinds {
		e.p("%q,", k.Name)
	}
	e.p("}")
	e.p("")
}

func intsLit(xs []int) string {
	s := "[]int{"
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += strconv.Itoa(x)
	}
	return s + "}"
}

func (g *gen) framesTable(e *emitter) {
	e.p("// frames are the frames of every kind, each kind's in search order.")
	e.p("var frames = [...]frameInfo{")
	for _, k := range g.l.Kinds {
		for _, f := range k.Frames {
			e.p("{kind: %s, hole: %s, path: %s, index: %d}, // %s", g.kind[k.Index], g.kind[f.Hole.Index], intsLit(f.Path), f.Index, sem.FormatFrame(f.Pat))
		}
	}
	e.p("}")
	e.p("")
}

// memoBit is the pair of memo bits of kind or class i (sem's memoBits), -1 if none.
func memoBit(i int, class bool) int {
	if i >= 16 {
		return -1
	}
	if class {
		return 32 + 2*i
	}
	return 2 * i
}

// memoized emits the memoized test name(t), computed by name0(t).
func memoized(e *emitter, name string, bit int, yes, no []string) {
	e.p("func (r *run) %s(n *node) bool {", name)
	if len(yes)+len(no) > 0 {
		// The roots whose answer the root alone gives (rootAnswers).
		e.p("switch n.t.Tag {")
		if len(yes) > 0 {
			e.p("case %s: return true", join(yes))
		}
		if len(no) > 0 {
			e.p("case %s: return false", join(no))
		}
		e.p("}")
	}
	// The test itself recurses where its patterns test values or classes in turn, as
	// deep as the term: bounded by maxTermDepth (nest).
	test := func() {
		e.p("r.nest++")
		e.p("deeper(r.nest)")
		e.p("is := r.%s0(n)", name)
		e.p("r.nest--")
	}
	if bit < 0 {
		test()
		e.p("return is")
		e.p("}")
		e.p("")
		return
	}
	// memo: whether what the test learns of n may be kept on its term, a node with
	// nothing replaced whose meaning its term alone fixes (closed). A node a
	// right-hand side built has its free variables computed here (closedTerm), from
	// its children's, which are known by then: else a value test of a term built a
	// level a step (a tower of boxes) would walk the whole term each step. Known
	// closedness is read in place (a call less a test).
	e.p("memo := n.kids == nil && n.env == nil && (!r.envs || n.t.fvDone && len(n.t.fv) == 0 || !n.t.fvDone && closedTerm(n.t))")
	e.p("t := n.t")
	e.p("if memo && t.memo&(1<<%d) != 0 { return t.memo&(2<<%d) != 0 }", bit, bit)
	test()
	e.p("if !memo { return is }")
	e.p("if is { t.memo |= 3 << %d } else { t.memo |= 1 << %d }", bit, bit)
	e.p("return is")
	e.p("}")
	e.p("")
}

// alternatives emits name0, the disjunction of the patterns (each its own test
// nameI), dispatched by root.
func (g *gen) alternatives(e *emitter, doc, name string, pats []*sem.Pattern) {
	e.p("// %s0 is %s", name, doc)
	e.p("func (r *run) %s0(n *node) bool {", name)
	g.dispatch(e, pats, func(i int) { g.inline(e, pats[i], "return true") })
	e.p("return false")
	e.p("}")
	e.p("")
}

// inline emits the test that n matches p, in place, and then the statement then:
// a block that jumps past itself where n does not match (no call, so that a test of
// a few patterns is one function's code).
func (g *gen) inline(e *emitter, p *sem.Pattern, then string) {
	e.labels++
	l := fmt.Sprintf("no%d", e.labels)
	sub := &emitter{tmps: e.tmps, labels: e.labels}
	g.match(sub, p, "n", true, "goto "+l, false)
	e.tmps, e.labels = sub.tmps, sub.labels
	e.p("// %s", sem.FormatPattern(p))
	e.p("{")
	e.b.WriteString(sub.b.String())
	e.p("%s", then)
	e.p("}")
	if jumpsTo(sub.b.String(), l) {
		e.p("%s:", l)
		e.p(";")
	}
}

// jumpsTo reports whether the code emitted jumps to the label l (goto l, inside a
// block's braces or on a line of its own): where none does, the label is not
// written, since Go refuses a label never used.
func jumpsTo(code, l string) bool {
	return strings.Contains(code, "goto "+l+" ") || strings.Contains(code, "goto "+l+"\n")
}

func (g *gen) values(e *emitter, k *sem.Kind) {
	name := "isValue" + g.kind[k.Index]
	e.p("// holdsNonValue%s reports whether the hole h, whose root alone does not answer the", g.kind[k.Index])
	e.p("// test (rootDepends), holds a term that is not a value of kind %s (the fused", k.Name)
	e.p("// transitions' hole test: holeTest).")
	e.p("func (r *run) holdsNonValue%s(h Val) bool {", g.kind[k.Index])
	e.p("n := nodeOf(h)")
	e.p("return !r.%s(&n)", name)
	e.p("}")
	e.p("")
	e.p("// %s reports whether n is a value of kind %s (memoized on its term where it may be).", name, k.Name)
	yes, no := g.rootAnswers(k, nil)
	memoized(e, name, memoBit(k.Index, false), yes, no)
	if k.NormalForms {
		g.normalForms(e, k, name)
		return
	}
	pats := make([]*sem.Pattern, len(k.Values))
	for i, v := range k.Values {
		pats[i] = v.Pat
	}
	g.alternatives(e, "whether n matches one of the value patterns of "+k.Name+".", name, pats)
}

// normalForms emits the value test of a kind whose values are its normal forms,
// (normal-forms K): sem's reducible, negated. n is a normal form where no frame of
// k that it matches holds in its hole a term that is not a value of the hole's kind
// (enter), and no rule of k has n for its redex: its left-hand side matches and its
// conditions hold, a step condition's term taken to step where it is not a value of
// its kind (stepsIfNotValue), a condition that fails with an error taken to hold
// (contracting n gives the error), a context rule's context taken to fit.
func (g *gen) normalForms(e *emitter, k *sem.Kind, name string) {
	e.p("// %s0 is whether n is a normal form of %s: the search finds no redex in it.", name, k.Name)
	e.p("func (r *run) %s0(n *node) bool {", name)
	e.p("if f, _ := r.enter(n, %s, 0); f >= 0 {", g.kind[k.Index])
	e.p("return false")
	e.p("}")
	if slices.ContainsFunc(k.Rules, func(r *sem.Rule) bool { return r.Layer != nil && !r.Context }) {
		e.p("step := layerStep(r.stepsIfNotValue)")
	}
	for _, r := range k.Rules {
		e.labels++
		l := fmt.Sprintf("no%d", e.labels)
		sub := &emitter{tmps: e.tmps, labels: e.labels}
		// Only the metavariables the conditions use are bound (and those the left-hand
		// side meets again): no right-hand side is built.
		g.open, g.bs, g.root = map[int]bool{}, bindings(r.LHS), rootCon(r.LHS)
		used := usedBy([]*sem.Pattern{r.LHS}, nil, r.Where)
		g.lazy = map[int]bool{}
		for i := range r.Metas {
			g.lazy[i] = used[i] == 0
		}
		slots(sub, r.Metas)
		if r.Layer != nil && !r.Context {
			sub.p("inner := \"\"")
			sub.p("_ = inner")
		}
		g.match(sub, r.LHS, "n", true, "goto "+l, true)
		if !r.Context {
			g.conditions(sub, r.Where, "goto "+l, body{errRet: "return false", depth: "0"}, false)
			for _, c := range r.Where {
				if c.Kind == sem.CondStep { // the step's result: not used, no contractum built
					sub.p("_, _ = s%d, inner", c.Args[1].Slot)
				}
			}
		}
		g.open, g.lazy, g.bs, g.root = nil, nil, nil, nil
		e.tmps, e.labels = sub.tmps, sub.labels
		e.p("// rule %s: %s", r.Name, sem.FormatPattern(r.LHS))
		e.p("{")
		e.b.WriteString(sub.b.String())
		e.p("return false // a redex")
		e.p("}")
		if jumpsTo(sub.b.String(), l) {
			e.p("%s:", l)
			e.p(";")
		}
	}
	e.p("return true")
	e.p("}")
	e.p("")
}

func (g *gen) answers(e *emitter, k *sem.Kind) {
	name := "isAnswer" + g.kind[k.Index]
	pats := make([]*sem.Pattern, len(k.Answers))
	for i, v := range k.Answers {
		pats[i] = v.Pat
	}
	e.p("// %s reports whether n is a non-value answer of kind %s.", name, k.Name)
	e.p("func (r *run) %s(n *node) bool { return r.%s0(n) }", name, name)
	e.p("")
	g.alternatives(e, "whether n matches one of the answer patterns of "+k.Name+".", name, pats)
}

func (g *gen) classCode(e *emitter, c *sem.Class) {
	name := "inClass" + g.class[c.Index]
	e.p("// %s reports whether n is a term of class %s (memoized on its term where it may be).", name, c.Name)
	yes, no := g.rootAnswers(nil, c)
	memoized(e, name, memoBit(c.Index, true), yes, no)
	g.alternatives(e, "whether n matches one of the alternatives of class "+c.Name+".", name, c.Alts)
}

func (g *gen) frames(e *emitter, k *sem.Kind) {
	name := "findFrame" + g.kind[k.Index]
	pats := make([]*sem.Pattern, len(k.Frames))
	for i, f := range k.Frames {
		pats[i] = f.Pat
	}
	e.p("// %s is the first frame of kind %s, from index from on in the search order,", name, k.Name)
	e.p("// that n matches (its number in frames), -1 if none: the elementary decomposition.")
	e.p("func (r *run) %s(n *node, from int) int {", name)
	g.dispatch(e, pats, func(i int) {
		e.p("if from <= %d {", i)
		g.inline(e, pats[i], fmt.Sprintf("return %d // frame %s", g.frame[k.Frames[i]], sem.FormatFrame(k.Frames[i].Pat)))
		e.p("}")
	})
	e.p("return -1")
	e.p("}")
	e.p("")
}

// ruleName is the Go name of the rule numbered i in the file.
func (g *gen) ruleName(r *sem.Rule) string {
	for i, x := range g.l.Rules {
		if x == r {
			return fmt.Sprintf("rule%d%s", i+1, camel(r.Name))
		}
	}
	return "rule?"
}

func (g *gen) rules(e *emitter, k *sem.Kind) {
	name := "contract" + g.kind[k.Index]
	pats := make([]*sem.Pattern, len(k.Rules))
	for i, r := range k.Rules {
		pats[i] = r.LHS
	}
	e.p("// %s contracts the potential redex n of kind %s in the context E: the first rule", name, k.Name)
	e.p("// whose left-hand side matches, whose context fits and whose conditions hold. If none")
	e.p("// does, a declared stuck shape is the program's run-time error, anything else a stuck run.")
	e.p("func (r *run) %s(n *node, E context, step layerStep, out *contraction) error {", name)
	g.dispatch(e, pats, func(i int) {
		e.p("if ok, err := r.%s(n, E, step, out); ok || err != nil { return err }", g.ruleName(k.Rules[i]))
	})
	spats := make([]*sem.Pattern, len(k.Stucks))
	for i, s := range k.Stucks {
		spats[i] = s.Pat
	}
	g.dispatch(e, spats, func(i int) {
		g.inline(e, spats[i], fmt.Sprintf("return &runtimeError{p: n.t.P, reason: %q, term: shortVal(n.val())}", k.Stucks[i].Reason))
	})
	e.p("return &stuckError{reason: \"no rule applies\", term: shortVal(n.val())}")
	e.p("}")
	e.p("")
	for _, r := range k.Rules {
		g.rule(e, r)
	}
}

// rule emits the contraction of t by one rule: ok is false where it does not apply.
func (g *gen) rule(e *emitter, r *sem.Rule) {
	e.tmps = 0
	e.p("// %s is rule %s: %s -> %s.", g.ruleName(r), r.Name, sem.FormatPattern(r.LHS), sem.FormatPattern(r.RHS))
	e.p("func (r *run) %s(n *node, E context, step layerStep, out *contraction) (bool, error) {", g.ruleName(r))
	g.ruleBody(e, r, "return false, nil")
	e.p("}")
	e.p("")
}

// ruleBody emits the contraction of the node n by the rule r, into out, in the
// context E (a context rule) with the inner layer's step (a rule that steps one):
// the statement not where it does not apply; return true, nil where it does (in a
// fused transition, goto contracted: inlineRule); return
// false and the error where its right-hand side fails.
func (g *gen) ruleBody(e *emitter, r *sem.Rule, not string) {
	g.open, g.bs = openSlots(r), bindings(r.LHS)
	g.lazy, g.root, g.context = lazySlots(r, g.bs), rootCon(r.LHS), r.Context
	defer func() { g.open, g.lazy, g.bs, g.root, g.context = nil, nil, nil, nil, false }()
	slots(e, r.Metas)
	g.match(e, r.LHS, "n", true, not, true)
	if g.inlined {
		// A fused transition's contraction (s.c, or the compiled case's ct): its term
		// and event are written below before it is made, its kind and pop here, where
		// a rule tried before this one may have written them.
		e.p("out.kind, out.pop = %s, 0", g.kind[r.Kind.Index])
	} else {
		e.p("*out = contraction{kind: %s}", g.kind[r.Kind.Index])
	}
	e.p("at := n.t.P")
	e.p("_ = at")
	if r.Context {
		if g.inlined {
			e.p("depth := E.depth()") // the machine's stack, never nil
		} else {
			e.p("depth := 0")
			e.p("if E != nil { depth = E.depth() }")
		}
		if r.Delimiter == nil {
			e.p("out.pop = depth")
		} else {
			// A label of its own: a fused transition writes several rules in one function.
			e.labels++
			loop := fmt.Sprintf("delimiters%d", e.labels)
			e.p("%s:", loop)
			e.p("for i := 0; i < depth; i++ {")
			e.p("f, ftv := E.frame(i)")
			e.p("ft := &ftv")
			e.p("if !pathEqual(frames[f].path, %s) { continue }", intsLit(r.DelimiterPath))
			g.match(e, r.Delimiter, "ft", true, "continue "+loop, true)
			e.p("out.pop = i + 1")
			e.p("break")
			e.p("}")
		}
		e.p("if out.pop == 0 { %s }", not)
		e.p("f, ft := E.frame(out.pop - 1)")
		if r.Delimiter == nil {
			e.p("_ = f")
			e.p("out.kind = 0")
		} else {
			e.p("out.kind = frames[f].kind")
		}
		e.p("at = ft.t.P")
		e.p("_ = at")
		if r.Capture >= 0 {
			// The frames discarded, the delimiter's apart, as a context (capture).
			frames := "out.pop"
			if r.Delimiter != nil {
				frames = "out.pop - 1"
			}
			e.p("ct, path%d := capture(E, %s, n.t.P)", r.Capture, frames)
			e.p("s%d = Val{t: ct}", r.Capture)
			e.p("_ = path%d", r.Capture)
		}
	}
	// A rule written in a fused transition returns as the form's function does; one
	// written apart as match.go's rule functions do, (bool, error).
	ret := "return false, "
	if g.inlined {
		ret = g.code().fail
	}
	bd := body{errRet: ret + "ruleError(" + strconv.Quote(r.Name) + ", n.val(), err)", depth: "0"}
	if g.lazyKids { // the node whole, in the error: its children made first
		bd.errRet = g.materialized() + "\n" + readSafely + " " + bd.errRet
	}
	if r.Layer != nil {
		e.p("inner := \"\"")
	}
	// A condition's failing function is told the rule, as the right-hand side's is.
	g.conditions(e, r.Where, not, body{errRet: ret + "namingRule(" + strconv.Quote(r.Name) + ", err)", depth: "0"}, false)
	if r.Layer != nil {
		e.p("out.event = %s(inner)", g.layerEvent(r))
	} else {
		e.p("out.event = %q", r.Name)
	}
	x := g.inst(e, r.RHS, "at", bd, 0)
	e.p("out.term = %s", x)
	if g.inlined {
		if !g.valueContractum(e, r, x) {
			e.p("goto contracted")
		}
	} else {
		e.p("return true, nil")
	}
}

// function emits a function of the file: its clauses in order, each its own method.
func (g *gen) function(e *emitter, f *sem.Function) {
	name, params, decl := g.functionHead(e, f, "the first clause that applies gives the result")
	args := join(append(append([]string{}, params...), "at", "depth"))
	for i := range f.Clauses {
		e.p("if t, ok, err := r.%s%d(%s); ok || err != nil { return t, err }", name, i+1, args)
	}
	e.p("return Val{}, newFunctionError(%q, Pos{%d, %d}, []Val{%s}, 0)", f.Name, f.P.Line, f.P.Col, join(params))
	e.p("}")
	e.p("")
	for i, c := range f.Clauses {
		e.tmps = 0
		e.p("// %s%d is a clause of %s.", name, i+1, f.Name)
		e.p("func (r *run) %s%d(%sat Pos, depth int) (Val, bool, error) {", name, i+1, decl)
		g.lazy = unusedSlots(c)
		slots(e, c.Metas)
		not := "return Val{}, false, nil"
		for _, j := range c.Order() {
			g.match(e, c.Args[j], params[j], false, not, true)
		}
		g.conditions(e, c.Where, not, body{errRet: not, depth: "(depth+1)"}, true)
		x := g.inst(e, c.RHS, "at", body{errRet: "return Val{}, false, err", depth: "(depth+1)"}, 0)
		e.p("return %s, true, nil", x)
		e.p("}")
		e.p("")
		g.lazy = nil
	}
}

// functionHead emits the head of the function f's method, fnNAME, its comment
// saying what it does, and its first statements, which a hook's shares: the bound on
// nested calls, and the tick that watches the run's budgets. It returns the method's
// name, its parameters (a0 ...) and their declaration (empty, or ending with ", ").
func (g *gen) functionHead(e *emitter, f *sem.Function, what string) (name string, params []string, decl string) {
	name = "fn" + g.fn[f.Name]
	params = make([]string, len(f.Params))
	for i := range params {
		params[i] = fmt.Sprintf("a%d", i)
	}
	if decl = join(params); decl != "" {
		decl += " Val, "
	}
	e.p("// %s is function %s: %s.", name, f.Name, what)
	e.p("func (r *run) %s(%sat Pos, depth int) (Val, error) {", name, decl)
	e.p("if depth > maxCallDepth { return Val{}, newFunctionError(%q, Pos{%d, %d}, []Val{%s}, maxCallDepth) }", f.Name, f.P.Line, f.P.Col, join(params))
	e.p("if err := r.tick(); err != nil { return Val{}, err }")
	return name, params, decl
}

// hook emits the function f, a default hook on numbers (check): its arguments read
// back, as sem gives a hook closed terms, and its result, or its failure (sem's
// callHook): the program's run-time error, or the reason the hook fails on them, the
// function's error (rt/number.go.txt).
func (g *gen) hook(e *emitter, f *sem.Function) {
	call, what := "numberHook(", " (sem's default hooks, written in Go)"
	if !defaultHook(f.Hook) {
		call, what = "r.hostHook(", " (the calculus's own, called back in the workbench: hostHook)"
	}
	_, params, _ := g.functionHead(e, f, "the hook "+f.Hook.Name+", "+f.Hook.Doc+what)
	var args []string
	for _, p := range params {
		args = append(args, "readBack("+p+")")
	}
	e.p("t, reason, err := %s%q, []*Term{%s})", call, f.Hook.Name, join(args))
	e.p("if err != nil { return Val{}, err }")
	e.p("if reason != \"\" {")
	e.p("fe := newFunctionError(%q, Pos{%d, %d}, []Val{%s}, 0)", f.Name, f.P.Line, f.P.Col, join(params))
	e.p("fe.reason = reason")
	e.p("return Val{}, fe")
	e.p("}")
	e.p("return Val{t: t}, nil")
	e.p("}")
	e.p("")
}

// byKind emits the dispatch of the tests and the contraction by kind: for each, a
// function that switches on the kind to the kind's own.
func (g *gen) byKind(e *emitter) {
	for i, d := range []struct{ doc, sig, call, none string }{
		{"isValue reports whether n is a value of kind k.", "isValue(n *node, k int) bool", "isValue%s(n)", "false"},
		{"isAnswer reports whether n is a non-value answer of kind k.", "isAnswer(n *node, k int) bool", "isAnswer%s(n)", "false"},
		{"findFrame is the first frame of kind k from index from on that n matches, -1 if none.", "findFrame(n *node, k int, from int) int", "findFrame%s(n, from)", "-1"},
		{"contract contracts the potential redex n of kind k in the context E, into out.", "contract(n *node, k int, E context, step layerStep, out *contraction) error", "contract%s(n, E, step, out)", `&stuckError{reason: "no kind"}`},
	} {
		if i > 0 {
			e.p("")
		}
		e.p("// %s", d.doc)
		e.p("func (r *run) %s {", d.sig)
		e.p("switch k {")
		for i := range g.l.Kinds {
			e.p("case %s: return r."+d.call, g.kind[i], g.kind[i])
		}
		e.p("}")
		e.p("return %s", d.none)
		e.p("}")
	}
}
