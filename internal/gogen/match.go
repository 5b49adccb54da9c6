package gogen

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/interderive/interderive/sem"
)

// The compilation of the rule file's patterns into Go: a pattern becomes a chain of
// ifs on the constructors of the term and its children (a failure jumps out), its
// metavariables local variables s0, s1, ... (the slots of sem's bindings); a
// right-hand side becomes the expression that builds it, its calls and prims hoisted
// into statements before it, in the order the engine evaluates them.

// match emits the tests that x matches p, binding its metavariables when bind is
// set; fail is the statement a mismatch runs. At the root (root set) x is a *node,
// below it a Val; a child is taken (kid: looked up, under the environment less the
// names its binders hide) only where the pattern tests or binds it.
func (g *gen) match(e *emitter, p *sem.Pattern, x string, root bool, fail string, bind bool) {
	t := x + ".t"
	val := x
	if root {
		val = x + ".val()"
	}
	switch p.Kind {
	case sem.PatHole:
		if bind && !g.lazy[p.Slot] {
			e.p("s%d = %s", p.Slot, val)
		}
	case sem.PatInt:
		e.p("if %s.Tag != tagInt || %s.N != %d { %s }", t, t, p.N, fail)
	case sem.PatAtom:
		e.p("if !(%s) { %s }", g.atomTest(t, p.Atom, p.Val), fail)
	case sem.PatMeta:
		switch ms := p.Sort; ms.Kind {
		case sem.MetaVar:
			if g.passes { // a name where the constructor declares one
				g.passes = false
				break
			}
			e.p("if %s.Tag != tagVar { %s }", t, fail)
		case sem.MetaAtom:
			e.p("if %s.Tag != %s { %s }", t, g.atomTag(ms.Atom), fail)
		case sem.MetaInt:
			if g.passes { // an integer where the constructor declares one
				g.passes = false
				break
			}
			e.p("if %s.Tag != tagInt { %s }", t, fail)
		case sem.MetaValue, sem.MetaClass:
			if g.passes { // a value of its kind already: a frame's hole filled, or passed over with a value
				g.passes = false
				break
			}
			var fn string
			if ms.Kind == sem.MetaClass {
				fn = "inClass" + g.class[ms.Class.Index]
			} else {
				fn = "isValue" + g.kind[ms.ValuesOf.Index]
			}
			arg := x
			if !root {
				arg = e.tmp("n")
				e.p("%s := nodeOf(%s)", arg, x)
				arg = "&" + arg
			}
			e.p("if !r.%s(%s) { %s }", fn, arg, fail)
		}
		if bind && !g.lazy[p.Slot] {
			e.p("s%d = %s", p.Slot, val)
		}
	case sem.PatSeq:
		g.matchSeq(e, p, val, fail, bind)
	case sem.PatSame:
		// A delimiter's label: the term the redex bound to it (sem's sameAtom).
		e.p("if s%d.t == nil || !sameVal(s%d, %s) { %s }", p.Slot, p.Slot, val, fail)
	case sem.PatCon:
		// Of the node a fused transition tests (n), what it knows (machinegen.go).
		known := g.known
		if !root || x != "n" {
			known = nil
		}
		if known == nil || known.tag != g.con[p.Con.Index] {
			e.p("if %s.Tag != %s { %s }", t, g.con[p.Con.Index], fail)
		}
		order := p.Order // the arguments with an ellipsis last (sem's ellipsesLast), if any
		if order == nil {
			order = make([]int, len(p.Args))
			for i := range order {
				order[i] = i
			}
		}
		for _, i := range order {
			a := p.Args[i]
			passes := known.value(i, a) || declared(p.Con.Args[i], a)
			if !needsChild(a, bind) || untested(a) && g.lazy[a.Slot] || (!bind || g.lazy[a.Slot]) && passes {
				continue
			}
			c := e.tmp("k")
			switch {
			case p.Con.Args[i].Kind != sem.ArgTerm:
				e.p("%s := Val{t: %s.Args[%d]}", c, t, i)
			case root && a.Kind == sem.PatMeta && g.open[a.Slot]:
				g.kidOpenOut(e, c, a.Slot, x, i)
			case root && len(p.Con.BindersOf(i)) == 0:
				if expr := fmt.Sprintf("%s.kidFree(%d)", x, i); g.take(expr) != expr {
					e.p("%s := %s", c, g.take(expr))
				} else {
					g.kidFreeOut(e, c, x, i, false)
				}
			case root:
				e.p("%s := %s", c, g.take(fmt.Sprintf("%s.kid(%d)", x, i)))
			case len(p.Con.BindersOf(i)) == 0:
				e.p("%s := kidFree(%s, %d)", c, x, i)
			case a.Kind == sem.PatMeta && g.open[a.Slot]:
				// kidOpen written out: a child that is no variable nor closure node is open.
				e.p("%s, o%d := Val{t: %s.t.Args[%d]}, true", c, a.Slot, x, i)
				e.p("if a := %s.t; a.Tag == tagVar || a.Tag == tagClo {", c)
				e.p("%s, o%d = kid(%s, %d), false", c, a.Slot, x, i)
				e.p("} else if %s.env != nil { %s = resolve(a, %s.env) }", x, c, x)
			default:
				e.p("%s := kid(%s, %d)", c, x, i)
			}
			g.passes = passes
			g.match(e, a, c, false, fail, bind)
		}
	default:
		g.fail("a pattern of kind %v cannot be matched", p.Kind)
	}
}

// declared reports whether the constructor's argument arg declares what the pattern
// a tests: a name (x) where it binds one, an integer (n) where it takes one. Every
// node has them (its builders, the reader and the workbench's terms, checked as they
// are decoded, put nothing else there), so the test is not written.
func declared(arg sem.Arg, a *sem.Pattern) bool {
	if a.Kind != sem.PatMeta {
		return false
	}
	return arg.Kind == sem.ArgVar && a.Sort.Kind == sem.MetaVar || arg.Kind == sem.ArgInt && a.Sort.Kind == sem.MetaInt
}

// take is the expression that takes a child, or the variable that holds it where
// a fused transition has taken it already (shared).
func (g *gen) take(expr string) string {
	if v, ok := g.shared[expr]; ok {
		return v
	}
	return expr
}

// untested reports whether matching p tests nothing (a hole, a metavariable of
// any term).
func untested(p *sem.Pattern) bool {
	return p.Kind == sem.PatHole || p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaTerm
}

// needsChild reports whether matching p tests its term or binds it.
func needsChild(p *sem.Pattern, bind bool) bool { return bind || !untested(p) }

// atomTag is the tag of an atom type's literals: a calculus's own atom type's is
// tagOwn0 less its number.
func (g *gen) atomTag(a *sem.AtomType) string {
	if i, ok := g.atoms.own(a); ok {
		return ownTagName(i)
	}
	switch a {
	case sem.BoolAtom:
		return "tagBool"
	case sem.StringAtom:
		return "tagString"
	case sem.NumberAtom:
		return "tagNumber"
	}
	return "tagFloat"
}

// ownTagName is the Go name of the tag of the atoms of the calculus's own atom type
// numbered i.
func ownTagName(i int) string { return fmt.Sprintf("tagOwn%d", i) }

// atomTest is the test that x is the atom v of type a: of a calculus's own atom
// type, the literal's class (atoms.go).
func (g *gen) atomTest(x string, a *sem.AtomType, v any) string {
	if i, ok := g.atoms.own(a); ok {
		_, class, err := g.atoms.literal(a, v)
		if err != nil {
			g.fail("%v", err)
		}
		return fmt.Sprintf("%s.Tag == %s && ownClass(%s) == %d", x, ownTagName(i), x, class)
	}
	switch a {
	case sem.BoolAtom:
		n := 0
		if v.(bool) {
			n = 1
		}
		return fmt.Sprintf("%s.Tag == tagBool && %s.N == %d", x, x, n)
	case sem.StringAtom:
		return fmt.Sprintf("%s.Tag == tagString && %s.Name == %s", x, x, strconv.Quote(v.(string)))
	case sem.NumberAtom:
		if r, ok := v.(*big.Rat); ok {
			return fmt.Sprintf("%s.Tag == tagNumber && %s.Name == %q", x, x, r.RatString())
		}
		return fmt.Sprintf("%s.Tag == tagNumber && %s.Name == \"\" && fl(%s) == %s", x, x, x, floatLit(v.(float64)))
	}
	return fmt.Sprintf("%s.Tag == tagFloat && fl(%s) == %s", x, x, floatLit(v.(float64)))
}

// floatLit is f as an exact Go expression.
func floatLit(f float64) string {
	return fmt.Sprintf("math.Float64frombits(%#x)", math.Float64bits(f))
}

// atomLit is the expression of a new atom v of type a at position at: of a
// calculus's own atom type, the literal's handle and class, and its text.
func (g *gen) atomLit(a *sem.AtomType, v any, at string) string {
	if i, ok := g.atoms.own(a); ok {
		h, class, err := g.atoms.literal(a, v)
		if err != nil {
			g.fail("%v", err)
			return "nil"
		}
		return fmt.Sprintf("&Term{Tag: %s, P: %s, N: %d<<32 | %d, Name: %s}", ownTagName(i), at, h, class, strconv.Quote(g.atoms.vals[h].text))
	}
	switch a {
	case sem.BoolAtom:
		n := 0
		if v.(bool) {
			n = 1
		}
		return fmt.Sprintf("&Term{Tag: tagBool, P: %s, N: %d}", at, n)
	case sem.StringAtom:
		return fmt.Sprintf("&Term{Tag: tagString, P: %s, Name: %s}", at, strconv.Quote(v.(string)))
	case sem.NumberAtom:
		if r, ok := v.(*big.Rat); ok {
			return fmt.Sprintf("exactNumber(%s, %q)", at, r.RatString())
		}
		return fmt.Sprintf("inexactNumber(%s, %s)", at, floatLit(v.(float64)))
	}
	return fmt.Sprintf("mkFloat(%s, %s)", at, floatLit(v.(float64)))
}

// body is how the code emitted for a right-hand side or a condition leaves its
// function: errRet the statement that returns the error in err, and the depth of
// function calls its instantiation starts at (an expression).
type body struct {
	errRet string
	depth  string
}

// intOf emits the computation of the integer pattern p (a literal, an integer
// metavariable, a prim, a call whose result is an integer) and returns the
// expression of its value; undef is the statement run where it is no integer (a
// prim undefined there).
func (g *gen) intOf(e *emitter, p *sem.Pattern, undef string, bd body, depth int) string {
	switch p.Kind {
	case sem.PatInt:
		return fmt.Sprintf("int64(%d)", p.N)
	case sem.PatMeta:
		if _, bound := g.bs[p.Slot]; bound && p.Sort.Kind == sem.MetaInt {
			return fmt.Sprintf("s%d.t.N", p.Slot) // the left-hand side tested its tag
		}
		n := e.tmp("n")
		ok := e.tmp("ok")
		e.p("%s, %s := intVal(s%d)", n, ok, p.Slot)
		e.p("if !%s { %s }", ok, undef)
		return n
	case sem.PatPrim:
		args := make([]string, len(p.Args))
		for i, a := range p.Args {
			args[i] = g.intOf(e, a, undef, bd, depth)
		}
		n := e.tmp("n")
		if !DefaultPrim(p.Prim) { // a calculus's own, called back in the workbench (hosted)
			ok := e.tmp("ok")
			e.p("%s, %s := r.hostPrim(%q, %s)", n, ok, p.Prim.Name, join(args))
			e.p("if !%s { %s }", ok, undef)
			return n
		}
		switch p.Prim.Name {
		case "add":
			e.p("%s := %s + %s", n, args[0], args[1])
		case "sub":
			e.p("%s := %s - %s", n, args[0], args[1])
		case "mul":
			e.p("%s := %s * %s", n, args[0], args[1])
		case "neg":
			e.p("%s := -%s", n, args[0])
		case "quot", "rem":
			e.p("if %s == 0 { %s }", args[1], undef)
			e.p("var %s int64", n)
			if p.Prim.Name == "quot" {
				e.p("if %s == -1 { %s = -%s } else { %s = %s / %s }", args[1], n, args[0], n, args[0], args[1])
			} else {
				e.p("if %s != -1 { %s = %s %% %s }", args[1], n, args[0], args[1])
			}
		}
		return n
	case sem.PatCall:
		// The engine builds a call in a prim from scratch: at depth 0.
		t := g.call(e, p, "Pos{}", body{errRet: bd.errRet, depth: "0"}, 0)
		n := e.tmp("n")
		ok := e.tmp("ok")
		e.p("%s, %s := intVal(%s)", n, ok, t)
		e.p("if !%s { %s }", ok, undef)
		return n
	}
	g.fail("a pattern of kind %v is not an integer", p.Kind)
	return "0"
}

// compare is the Go expression of the comparison prim pr on the arguments: a
// calculus's own called back in the workbench (hosted).
func compare(pr *sem.Prim, args []string) string {
	if !DefaultPrim(pr) {
		return fmt.Sprintf("r.hostTest(%q, %s)", pr.Name, join(args))
	}
	op := map[string]string{"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}[pr.Name]
	return fmt.Sprintf("%s %s %s", args[0], op, args[1])
}

// inst emits what the right-hand side p needs computed first (its calls and prims)
// and returns the expression of the Val that builds it, at position at, depth the
// nesting of function calls and constructors around it (sem's instantiation depth).
// A node's child that has an environment is a closure node (term); (subst e x v)
// extends e's environment (extend), or substitutes under the substitution discipline.
func (g *gen) inst(e *emitter, p *sem.Pattern, at string, bd body, depth int) string {
	switch p.Kind {
	case sem.PatMeta:
		return fmt.Sprintf("s%d", p.Slot)
	case sem.PatInt:
		return g.intLeafOut(e, at, strconv.FormatInt(p.N, 10))
	case sem.PatAtom:
		return "Val{t: " + g.atomLit(p.Atom, p.Val, at) + "}"
	case sem.PatPrim:
		n := g.intOf(e, p, fmt.Sprintf("err := error(undefinedPrim(%q)); %s", p.Prim.Name, bd.errRet), bd, depth)
		return g.intLeafOut(e, at, n)
	case sem.PatSeq:
		return g.instSeq(e, p, at, bd, depth)
	case sem.PatPlug:
		// (in-hole C t): t plugged into the context the rule captured, along its path.
		t := g.inst(e, p.Args[0], at, bd, depth)
		x := e.tmp("x")
		e.p("%s := plugVal(s%d.t, path%d, %s)", x, p.Slot, p.Slot, t)
		return x
	case sem.PatSubst:
		t := g.inst(e, p.Args[0], at, bd, depth)
		v := g.inst(e, p.Args[2], at, bd, depth)
		x := e.tmp("x")
		if p.Args[0].Kind == sem.PatMeta && g.open[p.Args[0].Slot] {
			// rebind, its common case written out (a call costs more than its tests).
			o := fmt.Sprintf("o%d", p.Args[0].Slot)
			if !isLocal(v) {
				w := e.tmp("v")
				e.p("%s := %s", w, v)
				v = w
			}
			e.p("var %s Val", x)
			e.p("if b := %s; %s && r.envs && b.t.Tag >= 0 && len(b.t.fv) > 0 && %s.t.Tag != tagVar && (b.env != nil || !b.t.hasClo) {", t, o, v)
			if g.inlined {
				// bind, its common case written out: a fused transition is too large a
				// function for Go to inline a call into it.
				e.p("if st := &r.stack; st.on && int(uint32(st.top)>>st.shift) < len(st.chunks) {")
				e.p("i := uint32(st.top)")
				e.p("en := &st.chunks[i>>st.shift][i&(1<<st.shift-1)]")
				e.p("en.name, en.v, en.next, en.back, en.fwd, en.slot = s%d.t.Name, %s, b.env, nil, nil, int32(i)+1", p.Args[1].Slot, v)
				e.p("st.top++")
				e.p("%s = Val{t: b.t, env: en}", x)
				e.p("} else {")
				e.p("%s = Val{t: b.t, env: r.stack.bind(s%d.t.Name, %s, b.env)}", x, p.Args[1].Slot, v)
				e.p("}")
			} else {
				e.p("%s = Val{t: b.t, env: r.stack.bind(s%d.t.Name, %s, b.env)}", x, p.Args[1].Slot, v)
			}
			e.p("} else {")
			e.p("%s = r.rebind(%s, s%d.t.Name, %s, %s)", x, t, p.Args[1].Slot, v, o)
			e.p("}")
		} else {
			e.p("%s := r.extend(%s, s%d.t.Name, %s)", x, t, p.Args[1].Slot, v)
		}
		return x
	case sem.PatCall:
		return g.call(e, p, at, bd, depth)
	case sem.PatCon:
		if g.bs != nil && rawNode(p, g.bs) {
			// Built from the redex's own children under its environment where the
			// redex is a node as it stands (no hole of the machine's filled).
			v := e.tmp("v")
			g.raws++
			e.p("var %s Val", v)
			e.p("if n.kids == nil {")
			if g.form == formCompile && g.inlined && !g.context {
				g.builtOnce(e, p, at)
			} else {
				e.p("b := r.builtFor(n.t, %d)", g.raws)
				e.p("if b == nil { b = r.keep(n.t, %d, %s) }", g.raws, g.rawExpr(p, g.bs, at, g.root))
			}
			e.p("%s = Val{t: b, env: n.env}", v)
			e.p("} else {")
			for _, m := range slotsIn(p) {
				if g.lazy[m] {
					e.p("s%d = n.kid(%d)", m, g.bs[m].path[0])
				}
			}
			bs := g.bs
			g.bs = nil
			x := g.inst(e, p, at, bd, depth)
			g.bs = bs
			e.p("%s = %s", v, x)
			e.p("}")
			return v
		}
		args := make([]string, len(p.Args))
		for i, a := range p.Args {
			args[i] = g.inst(e, a, at, bd, depth+1)
		}
		if len(args) == 0 {
			// nullary, its look in the constants written out
			c, v, at := g.con[p.Con.Index], e.tmp("c"), at
			if !isLocal(at) {
				at = "(" + at + ")" // Pos{} in a condition
			}
			e.p("var %s *Term", v)
			e.p("if k := r.consts; k != nil { if t := k.nullary[nullarySlot(%s, %s)]; t != nil && t.Tag == %s && t.P == %s { %s = t } }", c, at, c, at, v)
			e.p("if %s == nil { %s = r.nullary(%s, %s) }", v, v, at, c)
			return "Val{t: " + v + "}"
		}
		// The arguments into locals first: the engine builds them in order.
		for i, a := range args {
			if !isLocal(a) {
				v := e.tmp("v")
				e.p("%s := %s", v, a)
				args[i] = v
			}
			if p.Con.Args[i].Kind == sem.ArgTerm {
				args[i] = "term(" + args[i] + ")"
			} else {
				args[i] += ".t"
			}
		}
		return fmt.Sprintf("Val{t: r.mkShared%d(%s, %s, %s)}", len(args), at, g.con[p.Con.Index], join(args))
	}
	g.fail("a template of kind %v cannot be built", p.Kind)
	return "nil"
}

// isLocal reports whether the expression is a local's name (nothing to evaluate).
func isLocal(x string) bool {
	for _, r := range x {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// call emits a call of a function of the file and returns the local of its result.
func (g *gen) call(e *emitter, p *sem.Pattern, at string, bd body, depth int) string {
	args := make([]string, len(p.Args))
	for i, a := range p.Args {
		args[i] = g.inst(e, a, at, bd, depth+1)
		if !isLocal(args[i]) {
			v := e.tmp("v")
			e.p("%s := %s", v, args[i])
			args[i] = v
		}
	}
	res := e.tmp("f")
	call := append(args, at, fmt.Sprintf("%s+%d", bd.depth, depth))
	e.p("%s, err := r.fn%s(%s)", res, g.fn[p.Fn.Name], join(call))
	e.p("if err != nil { %s }", bd.errRet)
	return res
}

// isVarMeta reports whether p is a metavariable of the variables (x, f).
func isVarMeta(p *sem.Pattern) bool { return p.Kind == sem.PatMeta && p.Sort.Kind == sem.MetaVar }

// join is a list of Go expressions, comma-separated.
func join(xs []string) string { return strings.Join(xs, ", ") }

// conditions emits the side conditions in order: not is the statement that runs
// where one does not hold, bd.errRet where one fails; a step condition steps by the
// local step and sets inner to its event.
func (g *gen) conditions(e *emitter, where []*sem.Cond, not string, bd body, inFunction bool) {
	for _, c := range where {
		switch c.Kind {
		case sem.CondEq, sem.CondNe:
			a, b := c.Args[0], c.Args[1]
			var eq string
			switch {
			case a.Kind == sem.PatInt || b.Kind == sem.PatInt:
				eq = fmt.Sprintf("intEq(%s, %s)", g.intArg(a), g.intArg(b))
			case isVarMeta(a) && isVarMeta(b):
				// Two variables (the match took each only where it is one): sameVal's first
				// case, written out.
				eq = fmt.Sprintf("(s%d.t.Name == s%d.t.Name)", a.Slot, b.Slot)
			default:
				eq = fmt.Sprintf("sameVal(s%d, s%d)", a.Slot, b.Slot)
			}
			if c.Kind == sem.CondEq {
				e.p("if !%s { %s }", eq, not)
			} else {
				e.p("if %s { %s }", eq, not)
			}
		case sem.CondPrim:
			errRet := bd.errRet
			if inFunction {
				errRet = not // a function's clause whose condition fails does not apply
			}
			args := make([]string, len(c.Args))
			for i, a := range c.Args {
				args[i] = g.intOf(e, a, not, body{errRet: errRet, depth: bd.depth}, 0)
			}
			e.p("if !(%s) { %s }", compare(c.Prim, args), not)
		case sem.CondFresh:
			avoid := make([]string, 0, len(c.Args)-2)
			for _, a := range c.Args[2:] {
				avoid = append(avoid, fmt.Sprintf("s%d.t", a.Slot))
			}
			if c.Args[1].Slot < 0 { // (fresh x_k T ...): named like its metavariable
				e.p("s%d = Val{t: mkVar(%s, freshName(%s))}", c.Args[0].Slot, posLit(c.P), join(append([]string{strconv.Quote(c.Args[1].Meta)}, avoid...)))
				break
			}
			base := fmt.Sprintf("s%d.t", c.Args[1].Slot)
			e.p("s%d = Val{t: mkVar(%s.P, freshName(%s))}", c.Args[0].Slot, base, join(append([]string{base + ".Name"}, avoid...)))
		case sem.CondMatch:
			// The term is built at the condition's place in the rule file, from
			// scratch (depth 0), then matched, binding the pattern's metavariables.
			errRet := bd.errRet
			if inFunction {
				errRet = not
			}
			x := g.inst(e, c.Args[1], posLit(c.P), body{errRet: errRet, depth: "0"}, 0)
			m := e.tmp("m")
			e.p("%s := %s", m, x)
			g.match(e, c.Args[0], m, false, not, true)
		case sem.CondCall:
			errRet := bd.errRet
			if inFunction {
				errRet = not
			}
			x := g.inst(e, c.Args[0], posLit(c.P), body{errRet: errRet, depth: "0"}, 0)
			e.p("if !(%s.t.Tag == tagBool && %s.t.N == 1) { %s }", x, x, not)
		case sem.CondStep:
			nx, ev, ok := e.tmp("next"), e.tmp("ev"), e.tmp("ok")
			e.p("%s, %s, %s, err := step(s%d, %s)", nx, ev, ok, c.Args[0].Slot, g.kind[c.Layer.Index])
			e.p("if err != nil { %s }", bd.errRet)
			e.p("if !%s { %s }", ok, not)
			e.p("s%d, inner = %s, %s", c.Args[1].Slot, nx, ev)
		default:
			g.fail("%s: a side condition of kind %v", c.P, c.Kind)
		}
	}
}

// intArg is the (value, ok) pair of an argument of = or != compared with a
// constant: intValue of a metavariable, or the constant.
func (g *gen) intArg(p *sem.Pattern) string {
	if p.Kind == sem.PatInt {
		return fmt.Sprintf("mkInt(Pos{}, %d)", p.N)
	}
	return fmt.Sprintf("s%d.t", p.Slot)
}

// slots declares n slots, used or not.
func slots(e *emitter, n int) {
	if n == 0 {
		return
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("s%d", i)
	}
	e.p("var %s Val", join(names))
	blanks := make([]string, n)
	for i := range blanks {
		blanks[i] = "_"
	}
	e.p("%s = %s", join(blanks), join(names))
}

// posLit is the Go expression of the position p.
func posLit(p sem.Pos) string { return fmt.Sprintf("Pos{%d, %d}", p.Line, p.Col) }

// fail records that the file has something the generator does not know (a newer
// rule language): Generate returns it as an error rather than wrong code.
func (g *gen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf("derive --go cannot write this rule file: "+format, args...)
	}
}

// intLeafOut emits intLeaf(at, n) written out (its look in the constants; the call
// where the integer is not there) and returns the Val of the leaf.
func (g *gen) intLeafOut(e *emitter, at, n string) string {
	if !isLocal(n) {
		m := e.tmp("n")
		e.p("%s := int64(%s)", m, n)
		n = m
	}
	if !isLocal(at) {
		at = "(" + at + ")" // Pos{} in a condition
	}
	v := e.tmp("i")
	e.p("var %s *Term", v)
	e.p("if k := r.consts; k != nil { if t := k.numbers[numberSlot(%s, %s)]; t != nil && t.N == %s && t.P == %s { %s = t } }", n, at, n, at, v)
	e.p("if %s == nil { %s = r.intLeaf(%s, %s) }", v, v, at, n)
	return "Val{t: " + v + "}"
}

// builtOnce emits, in a compiled case (compile.go), the raw node p built from the
// redex's own children: for a node of the program, built once and kept by its case
// (a static of the case, rawN), its new nodes compiled as the program's are
// (compileBuilt); for any other node, kept as every stage keeps it (builtFor).
func (g *gen) builtOnce(e *emitter, p *sem.Pattern, at string) {
	raw := fmt.Sprintf("raw%d", g.raws)
	g.statics = append(g.statics, fmt.Sprintf("var %s *Term // the raw node %d, built once for t", raw, g.raws))
	e.p("b := %s", raw)
	e.p("if b == nil {")
	e.p("if b = r.builtFor(n.t, %d); b == nil { b = r.keep(n.t, %d, %s) }", g.raws, g.raws, g.rawExpr(p, g.bs, at, g.root))
	e.p("if t0 != nil { // a node of the program: its case keeps it, compiled")
	e.p("%s = b", raw)
	e.p("compileBuilt(b)")
	e.p("}")
	e.p("}")
}
