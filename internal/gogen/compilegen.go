package gogen

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/interderive/interderive/sem"
)

// compileCases is the compiled interpreter's (compile.go, {{COMPILE_CASES}}):
// interp's cases, written by the same code (caseBody) as methods of compiler, which
// compile the case for a node of the program into a closure; rootCase and
// compileCase are interp's dispatch on the kind and root, made once a node and kind
// (codeOf), where interp makes it at every visit.
func (g *gen) compileCases() string { return g.directCases(true) }

// compileDispatch emits the dispatch of the compiled interpreter on the kind and
// root, made once a node and kind: rootCase, for the nodes not the program's;
// compileCase, for a node of the program; rootAnswer, what a root alone answers of a
// value test (holeShape).
func (g *gen) compileDispatch(e *emitter) {
	e.p("")
	e.p("// rootCase is the case of a node of kind k with the root tag not the program's, one")
	e.p("// for every such node (rootCases): interp's dispatch, compiled for no node.")
	e.p("func rootCase(k int, tag int32) compiledCase {")
	e.p("switch k {")
	g.rootDispatch(e, func(f string) string { return fmt.Sprintf("return compiler{}.%s(nil)", f) }, "return compiledValue")
	e.p("}")
	e.p("return compiledNoKind")
	e.p("}")
	e.p("")
	e.p("// rootAnswer is what the root tag alone answers of the value test of kind k")
	e.p("// (valueByRootK: holeShape).")
	e.p("func rootAnswer(k int, tag int32) uint8 {")
	e.p("switch k {")
	for _, k := range g.l.Kinds {
		e.p("case %s:", g.kind[k.Index])
		e.p("return valueByRoot%s[tag-tagLeast]", g.kind[k.Index])
	}
	e.p("}")
	e.p("return rootDepends")
	e.p("}")
	e.p("")
	e.p("// compileCase is the case of the program's node t of kind k: interp's dispatch, made")
	e.p("// once a node and kind (codeOf).")
	e.p("func compileCase(k int, t *Term) compiledCase {")
	e.p("tag := t.Tag")
	e.p("switch k {")
	g.rootDispatch(e, func(f string) string { return fmt.Sprintf("return compiler{}.%s(t)", f) }, "return compiledValue")
	e.p("}")
	e.p("return compiledNoKind")
	e.p("}")
}

// compiledRoot emits the compiled interpreter's case of a node of kind k with the
// root tag (interpRoot's): a method of compiler that compiles it for a node of the
// program (t), or for none (t nil: rootCases), into a closure over its static part
// (statics). The case's children filled by its frames are made lazily where it can
// (lazyKids: in variables, an array of them only where a test reads them), else in
// the array of the call's depth.
func (g *gen) compiledRoot(outer *emitter, k *sem.Kind, tag string, value sem.RootAnswer, frames []int) {
	name, what := caseName(g.kind[k.Index], tag)
	// body writes the case's body, its children made lazily or not, and reports
	// whether it is as asked: a case written lazily that reads its node's children
	// (readsKids), or could not keep one in a variable (lazyBroken), is not.
	body := func(lazy bool) (*emitter, bool) {
		e := &emitter{tmps: outer.tmps, labels: outer.labels}
		g.statics, g.filled, g.fromChild, g.filledBy = nil, map[int]bool{}, map[string]int{}, map[int]string{}
		g.lazyKids, g.lazyBroken = lazy, false
		defer func() { g.lazyKids = false }()
		g.caseBody(e, k, tag, value, frames)
		return e, !lazy || !g.lazyBroken && !readsKids(e.b.String()[g.framesFrom:])
	}
	e, ok := body(!seesInnerFrames(g.l) && len(frames) > 0)
	if !ok {
		e, _ = body(false)
	}
	e.p("}")
	outer.tmps, outer.labels = e.tmps, e.labels
	outer.p("")
	outer.p("// %s compiles interp's case of a node of kind %s %s: t the node, a node of the", name, k.Name, what)
	outer.p("// program, or nil for the case of every node of the root not the program's.")
	outer.p("func (compiler) %s(t *Term) compiledCase {", name)
	outer.p("t0 := t // the node the case is compiled for, nil for every node of the root")
	outer.p("_ = t0")
	for _, st := range g.statics {
		outer.p("%s", st)
	}
	outer.p("return func(m *rulesCompiled, t *Term, env *Env, depth int) (Val, int, error) {")
	outer.p("nv := node{t: t, env: env}")
	outer.p("var ct contraction // the case's contraction, made where it ends (compiledEnds)")
	outer.b.WriteString(e.b.String()) // its last line closes the function returned
	outer.p("}")
}

// seesInnerFrames reports whether a context rule of l reads frames of γ other than
// the outermost: a delimited one, or one that captures its context. The frames'
// nodes it reads need their children filled, in the arrays by depth.
func seesInnerFrames(l *sem.Language) bool {
	for _, k := range l.Kinds {
		for _, r := range k.Rules {
			if r.Context && (r.Delimiter != nil || r.Capture >= 0) {
				return true
			}
		}
	}
	return false
}

// nodeRead finds where a compiled case's code reads its node n other than by its term
// and environment (n.t, n.env): a child taken through the node (n.kid(i) ...), or the
// node given to a test or a contraction.
var nodeRead = regexp.MustCompile(`\bn\b(?:\.(?:[^te]|t[^.),}]|e[^n])|[^.\w])`)

// readsKids reports whether the code of a compiled case, from its first frame on,
// reads its node's children through the node where they may have been filled
// (nodeRead), but on the lines marked safe (readSafely): the case
// then keeps them in the array of its depth as interp's frames do.
func readsKids(code string) bool {
	for _, line := range strings.Split(code, "\n") {
		if strings.Contains(line, readSafely) {
			continue
		}
		if i := strings.Index(line, "//"); i >= 0 { // a comment: a rule's patterns name their own n
			line = line[:i]
		}
		if nodeRead.MatchString(line) {
			return true
		}
	}
	return false
}

// readSafely marks the lines of a compiled case that read its node where that is
// safe: after materialize made its children, or for a child no frame fills.
const readSafely = "/* node read safely */"

// materialize emits, in a compiled case whose children are made lazily, the array of
// the children its frames filled (filled, their values in their variables), given to
// its node: where a test or a contraction reads the node whole.
func (g *gen) materialize(e *emitter) { e.p("%s", g.materialized()) }

// materialized is materialize's code.
func (g *gen) materialized() string {
	var b strings.Builder
	b.WriteString("if nv.kids == nil { // the children filled, in the array of the call's depth\n")
	b.WriteString("kids := m.kids[depth]\n")
	b.WriteString("*kids = [maxKids]Val{}\n")
	for _, i := range slices.Sorted(maps.Keys(g.filledBy)) {
		fmt.Fprintf(&b, "if filled&(1<<%d) != 0 {\nkids[%d] = %s\n}\n", i, i, g.filledBy[i])
	}
	b.WriteString("nv.kids = kids\n")
	b.WriteString("}")
	return b.String()
}

// compiledEnds emits the ends of a compiled case that contracts (compile.go): the
// contraction ct counted in place, then its contractum returned, to be evaluated in
// place by the loop (eval), or, where it is a value of the case's kind, returned as
// the call's value; or, where it discards frames the calls around entered, an abort
// to the call that entered the outermost.
func (g *gen) compiledEnds(e *emitter, contracts bool) {
	if contracts {
		e.p("contracted:")
		g.spent(e, "return Val{}, valued, err")
		e.p("if ct.pop > 0 {")
		e.p("return Val{}, valued, &interpAbort{c: ct.term, kind: ct.kind, event: ct.event, depth: depth - ct.pop}")
		e.p("}")
		e.p("return ct.term, ct.kind, nil")
	}
	if g.returnsValue {
		e.p("contractedValue:")
		g.spent(e, "return Val{}, valued, err")
		e.p("return ct.term, valued, nil")
	}
}

// enterCompiled is enterCalled for the compiled interpreter (compile.go): the frame
// recorded for γ at the case's depth, where a context rule may read it (recorded);
// the hole evaluated by a call of its node's own code (the node's codes, compiled at
// its first evaluation in the hole's kind), in place of eval's first iteration, or by
// eval where the hole holds no node of the program; the value returned filled in the
// array of children of the case's depth, kids, taken and emptied at the first frame
// entered; or, where the case's children are made lazily (lazyKids), only in the
// variable the tests after share, its index in filled.
func (g *gen) enterCompiled(e *emitter, f *sem.Frame, shared string) {
	F := g.frame[f]
	H := g.kind[f.Hole.Index]
	// A node of the program in the hole (or a node built once for one): its code in
	// the hole's kind, compiled at its first evaluation there (codeOf), called in place
	// of eval's first iteration, where the call's depth is known to be within bounds
	// (a depth eval has reached before).
	call := strings.Join([]string{
		"var v Val",
		"var err error",
		"if c := hole.t.code; c != nil && depth+1 < len(m.kids) {",
		fmt.Sprintf("run := c[%s]", H),
		"if run == nil {",
		fmt.Sprintf("run = codeOf(hole.t, %s)", H),
		"}",
		"var k int",
		"if v, k, err = run(m, hole.t, hole.env, depth+1); err == nil && k != valued {",
		"v, err = m.eval(v, k, depth+1)",
		"}",
		"} else {",
		fmt.Sprintf("v, err = m.eval(hole, %s, depth+1)", H),
		"}",
	}, "\n")
	lazy := g.lazyKids && shared != "" && len(f.Path) == 1 && f.Path[0] < 64
	if g.lazyKids && !lazy {
		g.lazyBroken = true // a hole no variable holds, or deeper than a child
	}
	take := []string{ // the call's array, emptied, at the first frame entered
		"if kids == nil {",
		"kids = m.kids[depth]",
		"*kids = [maxKids]Val{}",
		"}",
	}
	if lazy {
		take = nil
	}
	entry := append(append(g.holeTest(f), take...),
		"if depth < m.recorded {",
		"g := &m.gamma[depth]",
		fmt.Sprintf("g.frame, g.t, g.env = %d, t, env", F),
		"}",
		"mark := r.stack.top",
		call,
		"if err != nil {",
		"if ab, ok := caught(err, depth); ok { // an abort to this call: its contractum evaluated in place",
		"return ab.c, ab.kind, nil",
		"}",
		"return Val{}, valued, err",
		"}",
		releasedTo("v", "mark"),
	)
	if lazy {
		g.filledBy[f.Path[0]] = shared
		g.holeFilled(e, f, entry, "v", shared, "filled |= 1 << %d", "", "// its value in "+shared+", and in kids only where a test reads them (materialize)")
	} else {
		g.holeFilled(e, f, entry, "v", shared, "kids[%d] = v", "fillKids(kids, t, frames[%d].path, v)", "nv.kids = kids")
	}
	g.filled[f.Path[0]] = true
}

// kidOpenOut emits c, oSLOT := x.kidOpen(i): in a compiled case, for a child no frame
// of the case fills, taken by its shape (kidShape: a node under the environment, a
// closed term as it is; the call for a variable, whose binders around it are hidden).
func (g *gen) kidOpenOut(e *emitter, c string, slot int, x string, i int) {
	if g.form != formCompile || x != "n" || g.filled[i] {
		e.p("%s, o%d := %s.kidOpen(%d)", c, slot, x, i)
		return
	}
	ks := g.static(fmt.Sprintf("ks%d", i), fmt.Sprintf("kidShape(t, %d)", i), fmt.Sprintf("how the case takes its child %d", i))
	e.p("%s, o%d := Val{t: t.Args[%d]}, true", c, slot, i)
	e.p("switch %s {", ks)
	e.p("case shapeOpen:")
	e.p("%s.env = env", c)
	e.p("case shapeClosed:")
	e.p("default:")
	e.p("%s %s, o%d = n.kidOpen(%d)", readSafely, c, slot, i)
	e.p("}")
}

// kidCompiled is kidFreeOut in a compiled case (compile.go): the child i of its node,
// taken by the child's shape, found when the case is compiled (kidShape: a variable
// looked up, a node under the case's environment, a closed term as it is; the tests
// at each visit for a node not the program's), where no frame of the case may have
// filled it; where one may, the child filled first.
func (g *gen) kidCompiled(e *emitter, c string, i int) {
	ks := g.static(fmt.Sprintf("ks%d", i), fmt.Sprintf("kidShape(t, %d)", i), fmt.Sprintf("how the case takes its child %d", i))
	e.p("%s := Val{t: t.Args[%d]}", c, i)
	if g.filled[i] {
		e.p("if n.kids != nil && n.kids[%d].t != nil {", i)
		e.p("%s = n.kids[%d]", c, i)
		e.p("} else {")
	} else {
		e.p("{")
	}
	e.p("switch %s {", ks)
	e.p("case shapeVar:")
	e.p("for en := env; en != nil; en = en.next {")
	e.p("if en.name == %s.t.Name { if en.v.t != nil { %s = en.v }; break }", c, c)
	e.p("}")
	e.p("case shapeOpen:")
	e.p("%s.env = env", c)
	e.p("case shapeClosed:")
	e.p("default: // a node not the program's: kidFreeOut's tests")
	e.p("if %s.t.Tag == tagVar && env != nil {", c)
	e.p("for en := env; en != nil; en = en.next {")
	e.p("if en.name == %s.t.Name { if en.v.t != nil { %s = en.v }; break }", c, c)
	e.p("}")
	e.p("} else if a := %s.t; a.Tag >= 0 && a.fvDone {", c)
	e.p("if env != nil && len(a.fv) > 0 { %s.env = env }", c)
	e.p("} else if a.Tag == tagClo || env != nil && a.Tag >= 0 { %s = resolveAny(a, env) }", c)
	e.p("}")
	e.p("}")
	g.fromChild[c] = i
}

// holeTestCompiled is holeTest in a compiled case (compile.go), where the frame's hole
// is a child of the case's node taken by its shape (kidCompiled) and filled by no frame
// before: the test made when the case is compiled, by the child's root (holeShape: a
// value of the hole's kind, never entered; no value, always entered), and at each visit
// only where the root does not decide (a variable's value, a root whose value test
// depends). Nil elsewhere: holeTest's test.
func (g *gen) holeTestCompiled(f *sem.Frame) []string {
	if g.form != formCompile || len(f.Path) != 1 {
		return nil
	}
	i := f.Path[0]
	c := g.take(g.holeExpr(f))
	if k, ok := g.fromChild[c]; !ok || k != i || g.filled[i] {
		return nil
	}
	H := g.kind[f.Hole.Index]
	hs := g.static(fmt.Sprintf("hs%d", i), fmt.Sprintf("holeShape(t, %d, %s)", i, H), fmt.Sprintf("whether the case enters its child %d, in a hole of %s", i, f.Hole.Name))
	return []string{
		"hole := " + c,
		fmt.Sprintf("if %s != holeValue {", hs),
		fmt.Sprintf("if %s == holeEntered || valueByRoot%s[hole.t.Tag-tagLeast] == rootNo || valueByRoot%s[hole.t.Tag-tagLeast] == rootDepends && r.holdsNonValue%s(hole) {", hs, H, H, H),
	}
}

// static declares, once a compiled case, the static name made by expr (a part of the
// case computed when it is compiled, for its node t, or for none), and returns name.
func (g *gen) static(name, expr, what string) string {
	decl := fmt.Sprintf("%s := %s // %s", name, expr, what)
	if !slices.Contains(g.statics, decl) {
		g.statics = append(g.statics, decl)
	}
	return name
}
