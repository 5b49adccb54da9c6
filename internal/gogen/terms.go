package gogen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/interderive/interderive/sem"
)

// ownAtomTags emits the tags of the calculus's own atom types (atoms.go), and the
// least tag of a root, from which the tables by root count (valueByRoot).
func (g *gen) ownAtomTags(e *emitter) {
	own := g.atoms.types
	if len(own) > 0 {
		e.p("// The calculus's own atom types: the atoms of %s have the tag tagOwn0.", own[0].Name)
	}
	if len(own) > 1 {
		e.p("const (")
		for i, a := range own[1:] {
			e.p("%s = tagOwn0 - %d // the atoms of %s", ownTagName(i+1), i+1, a.Name)
		}
		e.p(")")
	}
	if len(own) > 0 {
		e.p("")
	}
	e.p("// ownAtomTypes is the number of the calculus's own atom types; tagLeast is the least")
	e.p("// tag of a root, from which the tables by root count.")
	e.p("const ownAtomTypes = %d", len(own))
	if len(own) > 0 {
		e.p("const tagLeast = %s", ownTagName(len(own)-1))
	} else {
		e.p("const tagLeast = tagClo")
	}
	e.p("")
}

// termsFile is terms.go: the constructors as small integers with their tables (sorts,
// arguments, binders), the builders of nodes by arity, then the term representation,
// the printer, substitution (rt/terms.go.txt) and the reader (rt/read.go.txt).
func (g *gen) termsFile() (string, error) {
	e := &emitter{}
	l := g.l
	e.p("// ruleFile is the rule file the package was written from, for messages.")
	e.p("const ruleFile = %q", g.file)
	e.p("")
	e.p("// The constructors, numbered as the rule file declares them.")
	e.p("const (")
	for i, c := range l.Cons {
		e.p("%s int32 = %d // %s", g.con[i], i, conDecl(c))
	}
	e.p(")")
	e.p("")
	e.p("// conNames names the constructors.")
	e.p("var conNames = [...]string{")
	for _, c := range l.Cons {
		e.p("%q,", c.Name)
	}
	e.p("}")
	e.p("")
	g.ownAtomTags(e)
	sortIndex := map[*sem.Sort]int{}
	for i, so := range l.Sorts {
		sortIndex[so] = i
	}
	e.p("// conSort is each constructor's sort, conArgs its arguments' kinds, conArgSort their")
	e.p("// sorts (-1 for none), conScope the binder arguments whose scope each argument is in,")
	e.p("// conBinds its binders with their scopes.")
	e.p("var conSort = [...]int{")
	for _, c := range l.Cons {
		e.p("%d,", sortIndex[c.Sort])
	}
	e.p("}")
	e.p("")
	e.p("var conArgs = [...][]int{")
	for _, c := range l.Cons {
		var ks []string
		for _, a := range c.Args {
			ks = append(ks, [...]string{"argTerm", "argVar", "argInt"}[a.Kind])
		}
		e.p("{%s},", strings.Join(ks, ", "))
	}
	e.p("}")
	e.p("")
	e.p("var conArgSort = [...][]int{")
	for _, c := range l.Cons {
		var ks []int
		for _, a := range c.Args {
			if s, ok := sortIndex[a.Sort]; ok && a.Sort != nil {
				ks = append(ks, s)
			} else {
				ks = append(ks, -1)
			}
		}
		e.p("%s,", intsLit(ks))
	}
	e.p("}")
	e.p("")
	e.p("var conScope = [...][][]int{")
	for _, c := range l.Cons {
		var sc []string
		for j := range c.Args {
			sc = append(sc, intsLit(c.BindersOf(j)))
		}
		e.p("{%s},", strings.Join(sc, ", "))
	}
	e.p("}")
	e.p("")
	e.p("// bindInfo is a binder argument and the arguments it binds in.")
	e.p("type bindInfo struct {")
	e.p("binder int")
	e.p("scope  []int")
	e.p("}")
	e.p("")
	e.p("var conBinds = [...][]bindInfo{")
	for _, c := range l.Cons {
		var bs []string
		for _, b := range c.Binds {
			bs = append(bs, fmt.Sprintf("{%d, %s}", b.Binder, intsLit(b.Scope)))
		}
		e.p("{%s},", strings.Join(bs, ", "))
	}
	e.p("}")
	e.p("")
	e.p("// conItem is, for a constructor whose nodes are the items of a sequence that binds")
	e.p("// (sem.Con.ItemVar), its variable argument's index plus one: the name the item binds;")
	e.p("// 0 for any other constructor.")
	e.table("conItem", "int", len(l.Cons), func(i int) string { return strconv.Itoa(l.Cons[i].ItemVar() + 1) })
	e.p("")
	e.p("// The sorts: their names, whether variables and integers are terms of them, and")
	e.p("// their atom types in the order the reader tries them; the first is the programs'.")
	e.table("sortNames", "string", len(l.Sorts), func(i int) string { return strconv.Quote(l.Sorts[i].Name) })
	e.table("sortVars", "bool", len(l.Sorts), func(i int) string { return strconv.FormatBool(l.Sorts[i].Vars) })
	e.table("sortInts", "bool", len(l.Sorts), func(i int) string { return strconv.FormatBool(l.Sorts[i].Ints) })
	e.table("sortAtoms", "[]int32", len(l.Sorts), func(i int) string {
		var ts []string
		for _, a := range l.Sorts[i].Atoms {
			ts = append(ts, g.atomTag(a))
		}
		return "{" + strings.Join(ts, ", ") + "}"
	})
	// The sequence sorts (sem's seq.go): each one's constructors, -1 for a sort that is
	// not one, and its elements' sort (-1 for variables or integers) and name.
	seqCon := func(so *sem.Sort, i int) string {
		if !so.IsSeq() {
			return "-1"
		}
		return g.con[so.Cons[i].Index]
	}
	e.table("seqNil", "int32", len(l.Sorts), func(i int) string { return seqCon(l.Sorts[i], 0) })
	e.table("seqCons", "int32", len(l.Sorts), func(i int) string { return seqCon(l.Sorts[i], 1) })
	e.table("seqElemSort", "int", len(l.Sorts), func(i int) string {
		if so := l.Sorts[i]; so.IsSeq() && so.Elem.Kind == sem.ArgTerm {
			return strconv.Itoa(sortIndex[so.Elem.Sort])
		}
		return "-1"
	})
	e.table("seqElemName", "string", len(l.Sorts), func(i int) string {
		if so := l.Sorts[i]; so.IsSeq() && so.Elem.Sort != nil {
			return strconv.Quote(so.Elem.Sort.Name)
		}
		return `""`
	})
	if err := g.shapes(e); err != nil {
		return "", err
	}
	// The builders of the right-hand sides, one a arity.
	arities := map[int]bool{}
	for _, c := range l.Cons {
		arities[len(c.Args)] = true
	}
	for n := 0; n <= maxArity(l); n++ {
		if !arities[n] {
			continue
		}
		params := make([]string, n)
		for i := range params {
			params[i] = fmt.Sprintf("a%d", i)
		}
		e.p("// mk%d is a node of constructor c with %d arguments.", n, n)
		if n == 0 {
			e.p("func mk0(p Pos, c int32) *Term { return newNode(p, c, 0) }")
		} else {
			known, clo := make([]string, n), make([]string, n)
			for i := range params {
				known[i], clo[i] = fmt.Sprintf("knownClosed(a%d)", i), fmt.Sprintf("a%d.hasClo", i)
			}
			allKnown := strings.Join(known, " && ")
			marked := fmt.Sprintf("t.fvDone, t.hasClo = true, %s // closed, as its children are (freeVarsAt)", strings.Join(clo, " || "))
			// build emits the node t of c over the arguments, marked closed where closed
			// says ("": never, "true": always), then the statements then, and returns it.
			build := func(closed, then string) {
				e.p("t := newNode(p, c, %d)", n)
				for i := range params {
					e.p("t.Args[%d] = a%d", i, i)
				}
				switch closed {
				case "":
				case "true":
					e.p("%s", marked)
				default:
					e.p("if %s {", closed)
					e.p("%s", marked)
					e.p("}")
				}
				if then != "" {
					e.p("%s", then)
				}
				e.p("return t")
			}
			e.p("func mk%d(p Pos, c int32, %s *Term) *Term {", n, join(params))
			build(allKnown, "")
			e.p("}")
			e.p("")
			e.p("// mkShared%d is mk%d, or the node built last by that name where its children are", n, n)
			e.p("// closed (constants.closed: terms are immutable, and a closed one means the same")
			e.p("// wherever it stands). Its children are looked at once.")
			e.p("func (r *run) mkShared%d(p Pos, c int32, %s *Term) *Term {", n, join(params))
			e.p("if !(%s) {", allKnown)
			build("", "")
			e.p("}")
			keys := make([]string, n)
			same := []string{"t != nil", "t.Tag == c", "t.P == p"}
			for i := range params {
				keys[i] = fmt.Sprintf("kidKey(a%d)*%d", i, 2*i+1)
				same = append(same, fmt.Sprintf("t.Args[%d] == a%d", i, i))
			}
			e.p("slot := r.sharedSlot(p, c, %s)", strings.Join(keys, " ^ "))
			e.p("if t := *slot; %s { return t }", strings.Join(same, " && "))
			build("true", "r.keepShared(slot, t)")
			e.p("}")
			e.p("")
			e.p("// reuse%d is mk%d, or u where u is that node already (a raw node equal to its redex).", n, n)
			e.p("func reuse%d(u *Term, p Pos, c int32, %s *Term) *Term {", n, join(params))
			conds := []string{"u.Tag == c", "u.P == p"}
			for i := range params {
				conds = append(conds, fmt.Sprintf("u.Args[%d] == a%d", i, i))
			}
			e.p("if %s { return u }", strings.Join(conds, " && "))
			e.p("return mk%d(p, c, %s)", n, join(params))
			e.p("}")
		}
		e.p("")
	}
	return e.b.String() + g.text("terms") + g.text("read"), nil
}

func maxArity(l *sem.Language) int {
	m := 0
	for _, c := range l.Cons {
		m = max(m, len(c.Args))
	}
	return m
}

// conDecl prints a constructor's declaration: (con NAME ARG ...).
func conDecl(c *sem.Con) string {
	s := "(" + c.Name
	for _, a := range c.Args {
		name := "?"
		if a.Sort != nil {
			name = a.Sort.Name
		}
		switch a.Kind {
		case sem.ArgVar:
			name = "var " + name
		case sem.ArgInt:
			name = "int " + name
		}
		s += " " + name
	}
	return s + ")"
}

// shapes emits conShape, the shape each constructor is written by in programs and
// answers (nil: (NAME ARG ...)), and shapeLiterals, the literal symbols of the
// shapes, never variables. A shape is read back from sem's printer: the node of the
// constructor on the arguments #0, #1, ... printed, then read as an s-expression.
func (g *gen) shapes(e *emitter) error {
	literals := map[string]bool{}
	var lits []string
	e.p("// conShape is the shape each constructor is written by, nil for (NAME ARG ...).")
	e.p("var conShape = [...]*shapeNode{")
	for _, c := range g.l.Cons {
		if !c.Shaped() {
			e.p("nil, // %s", c.Name)
			continue
		}
		args := make([]*sem.Term, len(c.Args))
		for i := range args {
			args[i] = sem.Var(sem.Pos{}, fmt.Sprintf("#%d", i))
		}
		text := sem.Format(sem.App(sem.Pos{}, c, args...))
		ss, err := sem.ReadSExprs([]byte(text))
		if err != nil || len(ss) != 1 {
			return fmt.Errorf("the shape of %s, %s, does not read back: %v", c.Name, text, err)
		}
		var lit func(s *sem.SExpr) string
		lit = func(s *sem.SExpr) string {
			switch s.Kind {
			case sem.SSym:
				var i int
				if _, err := fmt.Sscanf(s.Sym, "#%d", &i); err == nil && fmt.Sprintf("#%d", i) == s.Sym {
					return fmt.Sprintf("{arg: %d}", i)
				}
				if !literals[s.Sym] {
					literals[s.Sym] = true
					lits = append(lits, s.Sym)
				}
				return fmt.Sprintf("{arg: -1, lit: %q}", s.Sym)
			case sem.SList:
				var parts []string
				for i := 0; i < len(s.List); i++ {
					x := s.List[i]
					if i+1 < len(s.List) && s.List[i+1].Kind == sem.SSym && s.List[i+1].Sym == "..." && x.Kind == sem.SSym && strings.HasPrefix(x.Sym, "#") {
						// #k ...: the sequence argument k, its elements written in
						// the list in its place (sem's shape: seq).
						parts = append(parts, strings.TrimSuffix(lit(x), "}")+", seq: true}")
						i++
						continue
					}
					parts = append(parts, lit(x))
				}
				return fmt.Sprintf("{arg: -1, isList: true, list: []*shapeNode{%s}}", strings.Join(parts, ", "))
			}
			return "{arg: -1}"
		}
		e.p("&shapeNode%s, // %s: %s", lit(ss[0]), c.Name, text)
	}
	e.p("}")
	e.p("")
	e.p("// shapeLiterals are the literal symbols of the shapes: never variables.")
	e.p("var shapeLiterals = map[string]bool{")
	for _, s := range lits {
		e.p("%q: true,", s)
	}
	e.p("}")
	e.p("")
	return nil
}
