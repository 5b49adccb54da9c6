package rules

import (
	"fmt"
	"strings"
)

// GenerateFile makes a small well-formed rule file, and a closed program of it, from
// arbitrary bytes (a fuzzer's input; bytes past the end read as 0): the derived
// stages are fuzzed on random semantics, not only on random programs of the bundled
// files. The file has one sort t of integers, variables and constructors c0, c1, ...,
// one kind E and, each drawn from the bytes:
//
//   - a constructor is a value (its term arguments values, evaluated left to right or
//     right to left by its frames) or a redex: each term argument strict (a frame,
//     the rule's pattern a value) or lazy (no frame, any term), contracted by a rule
//     whose right-hand side is a random term of the left-hand side's metavariables,
//     integers and constructors; a redex may first have a rule for a first argument
//     0, and may abort to the root (a context rule, before its plain rule for the
//     empty context);
//   - optionally a meta-function f of two clauses (an integer, any term), which
//     right-hand sides may call;
//   - optionally the λ-calculus's lam, app (beta by substitution, a stuck shape for
//     the application of anything else) and add (delta, a stuck shape for
//     non-integers), so that the stages' environments and run-time errors are
//     exercised.
//
// Every term that is not a value enters a frame or is a redex of a rule or a stuck
// shape, so that the file passes the static checks by construction. The rules need
// not terminate: the stages are compared under fuel.
func GenerateFile(data []byte) (file, program string) {
	g := &fileGen{src: data}
	return g.file(), g.program()
}

// fileGen draws a rule file from bytes.
type fileGen struct {
	src     []byte
	at      int
	cons    []genCon
	lambda  bool
	arities map[string]int
	// function says that the file has a meta-function f, which right-hand sides
	// outside it (not inFunction: f does not recurse) may call.
	function, inFunction bool
}

// genCon is a drawn constructor: its name and, for each argument, whether it is an
// integer (else a term).
type genCon struct {
	name  string
	ints  []bool
	value bool
}

// next draws a number in [0, n).
func (g *fileGen) next(n int) int {
	if n <= 1 || g.at >= len(g.src) {
		return 0
	}
	b := g.src[g.at]
	g.at++
	return int(b) % n
}

func (g *fileGen) file() string {
	var b strings.Builder
	b.WriteString("(language fuzzed)\n(sort t (integer n) (variable x)")
	g.lambda = g.next(2) == 1
	g.arities = map[string]int{}
	if g.lambda {
		b.WriteString(" (con lam x t (bind 0 1)) (con app t t) (con add t t)")
		g.arities["app"], g.arities["add"] = 2, 2
	}
	for i := range 1 + g.next(4) {
		c := genCon{name: fmt.Sprintf("c%d", i), value: g.next(2) == 0}
		for range g.next(3) {
			c.ints = append(c.ints, g.next(4) == 0)
		}
		g.cons = append(g.cons, c)
		g.arities[c.name] = len(c.ints)
		b.WriteString(" (con " + c.name)
		for _, isInt := range c.ints {
			if isInt {
				b.WriteString(" n")
			} else {
				b.WriteString(" t")
			}
		}
		b.WriteString(")")
	}
	b.WriteString(")\n(kind E v)\n(value E n)\n")
	if g.function = g.next(2) == 1; g.function {
		// A meta-function, total by a last clause for any term, which right-hand
		// sides may call: computed within the contraction, on every stage.
		g.inFunction = true
		fmt.Fprintf(&b, "(function f (t) t\n  ((f n_1) %s)\n  ((f t_1) %s))\n", g.rhs([]string{"n_1"}, 2), g.rhs([]string{"t_1"}, 2))
		g.inFunction = false
	}
	if g.lambda {
		b.WriteString("(value E (lam x t))\n(frame E (app (hole) t))\n(frame E (app v (hole)))\n")
		b.WriteString("(frame E (add (hole) t))\n(frame E (add v (hole)))\n")
		b.WriteString("(rule beta E (app (lam x t) v) (subst t x v))\n")
		b.WriteString("(rule delta E (add n_1 n_2) (prim add n_1 n_2))\n")
	}
	for _, c := range g.cons {
		g.constructor(&b, c)
	}
	if g.lambda {
		b.WriteString("(stuck E (app v_1 v_2) \"application of a non-function\")\n")
		b.WriteString("(stuck E (add v_1 v_2) \"+ applied to a non-integer\")\n")
	}
	return b.String()
}

// constructor writes c's value declaration or rules, and its frames.
func (g *fileGen) constructor(b *strings.Builder, c genCon) {
	n := len(c.ints)
	strict := make([]bool, n) // a term argument evaluated first
	for i, isInt := range c.ints {
		strict[i] = !isInt && (c.value || g.next(3) != 0)
	}
	// The frames, in the order drawn: left to right, or right to left.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if g.next(2) == 1 {
		for i := range n / 2 {
			order[i], order[n-1-i] = order[n-1-i], order[i]
		}
	}
	meta := func(i int, value bool) string {
		switch {
		case c.ints[i]:
			return fmt.Sprintf("n_%d", i+1)
		case value:
			return fmt.Sprintf("v_%d", i+1)
		}
		return fmt.Sprintf("t_%d", i+1)
	}
	done := make([]bool, n) // the arguments already evaluated
	for _, i := range order {
		if !strict[i] {
			continue
		}
		args := make([]string, n)
		for j := range n {
			switch {
			case j == i:
				args[j] = "(hole)"
			default:
				args[j] = meta(j, done[j])
			}
		}
		fmt.Fprintf(b, "(frame E (%s))\n", strings.Join(append([]string{c.name}, args...), " "))
		done[i] = true
	}
	lhs := make([]string, n)
	var metas []string
	for i := range n {
		lhs[i] = meta(i, strict[i])
		metas = append(metas, lhs[i])
	}
	pattern := strings.Join(append([]string{c.name}, lhs...), " ")
	if c.value {
		fmt.Fprintf(b, "(value E (%s))\n", pattern)
		return
	}
	rule := "r" + c.name[1:]
	if n > 0 && (c.ints[0] || strict[0]) && g.next(3) == 0 {
		// A rule for a first argument 0, before the general one.
		zero := append([]string{c.name, "0"}, lhs[1:]...)
		fmt.Fprintf(b, "(rule %s E (%s) %s)\n", rule, strings.Join(zero, " "), g.rhs(metas[1:], 2))
	}
	if n == 1 && strict[0] && g.next(3) == 0 {
		// An abort to the root, then the rule of the empty context.
		fmt.Fprintf(b, "(rule %s E (context (%s)) %s)\n", rule, pattern, g.rhs(metas, 2))
	}
	fmt.Fprintf(b, "(rule %s E (%s) %s)\n", rule, pattern, g.rhs(metas, 3))
}

// rhs draws a right-hand side of depth at most depth: a metavariable of metas, an
// integer, or a constructor applied to right-hand sides.
func (g *fileGen) rhs(metas []string, depth int) string {
	var terms []string
	for _, m := range metas {
		if !strings.HasPrefix(m, "n_") {
			terms = append(terms, m)
		}
	}
	switch k := g.next(4); {
	case k == 0 || depth <= 0:
		return fmt.Sprint(g.next(4))
	case k == 1 && len(metas) > 0:
		// A metavariable: an integer one only where an integer goes.
		if len(terms) == 0 {
			return fmt.Sprint(g.next(4))
		}
		return terms[g.next(len(terms))]
	case k == 2 && g.function && !g.inFunction && g.next(2) == 0:
		return "(f " + g.rhs(metas, depth-1) + ")"
	}
	return g.app(func(isInt bool) string {
		if !isInt {
			return g.rhs(metas, depth-1)
		}
		var ints []string
		for _, m := range metas {
			if strings.HasPrefix(m, "n_") {
				ints = append(ints, m)
			}
		}
		if len(ints) > 0 && g.next(2) == 0 {
			return ints[g.next(len(ints))]
		}
		return fmt.Sprint(g.next(4))
	})
}

// app draws a constructor and applies it to arguments that arg draws, one by one,
// each told whether an integer goes there.
func (g *fileGen) app(arg func(isInt bool) string) string {
	cons := g.conNames()
	name := cons[g.next(len(cons))]
	c := g.con(name)
	parts := []string{name}
	for i := range g.arities[name] {
		parts = append(parts, arg(c != nil && c.ints[i]))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// conNames are the constructors a right-hand side or a program may use (not lam,
// whose binder a right-hand side has no metavariable for).
func (g *fileGen) conNames() []string {
	var out []string
	if g.lambda {
		out = append(out, "app", "add")
	}
	for _, c := range g.cons {
		out = append(out, c.name)
	}
	return out
}

// con is the drawn constructor named name, nil for app and add.
func (g *fileGen) con(name string) *genCon {
	for i := range g.cons {
		if g.cons[i].name == name {
			return &g.cons[i]
		}
	}
	return nil
}

// program draws a closed term of the file's grammar, of depth at most 5.
func (g *fileGen) program() string {
	return g.term(5, nil)
}

// term draws a term of the file's grammar, of depth at most depth, whose free
// variables are in scope.
func (g *fileGen) term(depth int, scope []string) string {
	k := g.next(5)
	switch {
	case depth <= 0 || k == 0:
		if len(scope) > 0 && g.next(2) == 0 {
			return scope[g.next(len(scope))]
		}
		return fmt.Sprint(g.next(5) - 1)
	case g.lambda && k == 1:
		x := []string{"x", "y"}[g.next(2)]
		return fmt.Sprintf("(lam %s %s)", x, g.term(depth-1, append(scope[:len(scope):len(scope)], x)))
	}
	return g.app(func(isInt bool) string {
		if isInt {
			return fmt.Sprint(g.next(4))
		}
		return g.term(depth-1, scope)
	})
}
