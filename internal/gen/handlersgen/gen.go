// Package handlersgen generates random well-typed programs of the language of reverse
// handlers for property tests and fuzzing (rapid): operations and heap locations,
// handlers with forward and backward clauses (and without, so that default clauses
// forward), nested and two-variable rev handles, get and put, command lets, and terms
// with rd, swish and lets, over a small pool of names so that binders shadow. Every
// operation a program performs is handled by an enclosing handler (CheckHandled), so
// that a program never gets stuck. It writes the program's source, which Program
// parses and checks.
package handlersgen

import (
	"fmt"
	"strings"

	"github.com/interderive/interderive/handlers"
	"pgregory.net/rapid"
)

// DefaultDepth is the depth of a program when Config.Depth is zero.
const DefaultDepth = 4

// Config selects what the generator may produce.
type Config struct {
	// Depth bounds the nesting of commands and terms (DefaultDepth when zero).
	Depth int
	// Undefined allows log, which is undefined at a ≤ 0.
	Undefined bool
}

// NodeBudget bounds the compound forms a program of the given depth draws: past it
// every form is a leaf, so that size is linear in depth.
func NodeBudget(depth int) int { return 10 * max(depth, 1) }

// Source draws the source of a well-typed program.
func Source(t *rapid.T, cfg Config) string {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	g := &generator{t: t, cfg: cfg, budget: NodeBudget(cfg.Depth)}
	var b strings.Builder
	nops := g.draw("ops", 0, 3)
	for i := range nops {
		g.ops = append(g.ops, fmt.Sprintf("f%d", i+1))
		fmt.Fprintf(&b, "op f%d : real -> real\n", i+1)
	}
	nheap := g.draw("heaps", 0, 2)
	for i := range nheap {
		g.heaps = append(g.heaps, fmt.Sprintf("h%d", i+1))
		fmt.Fprintf(&b, "heap h%d : real = %s\n", i+1, g.numeral())
	}
	b.WriteString(g.cmd(nil, nil, cfg.Depth))
	b.WriteString("\n")
	return b.String()
}

// Program draws a program, parsed and checked.
func Program(t *rapid.T, cfg Config) *handlers.Program {
	src := Source(t, cfg)
	p, err := handlers.Parse([]byte(src))
	if err != nil {
		t.Fatalf("generated program does not parse: %v\n%s", err, src)
	}
	if _, err := handlers.Check(p); err != nil {
		t.Fatalf("generated program is ill-typed: %v\n%s", err, src)
	}
	return p
}

type generator struct {
	t      *rapid.T
	cfg    Config
	budget int
	ops    []string
	heaps  []string
}

func (g *generator) draw(label string, lo, hi int) int {
	return rapid.IntRange(lo, hi).Draw(g.t, label)
}

func (g *generator) pick(label string, xs []string) string {
	return xs[g.draw(label, 0, len(xs)-1)]
}

// compound reports whether a compound form may be drawn at depth d (spending the
// budget).
func (g *generator) compound(d int) bool {
	if d <= 0 || g.budget <= 0 {
		return false
	}
	g.budget--
	return true
}

var pool = []string{"x", "y", "z", "w"}

func (g *generator) numeral() string {
	return []string{"0", "1", "2", "0.5", "-1", "3", "-0.25"}[g.draw("numeral", 0, 6)]
}

// term draws a term of type real whose free variables are among env.
func (g *generator) term(env []string, d int) string {
	if !g.compound(d) || g.draw("term-leaf", 0, 3) == 0 {
		if len(env) > 0 && g.draw("term-var", 0, 1) == 0 {
			return g.pick("var", env)
		}
		return g.numeral()
	}
	sub := func() string { return g.term(env, d-1) }
	switch g.draw("term", 0, 9) {
	case 0, 1:
		return "(" + sub() + " + " + sub() + ")"
	case 2, 3:
		return "(" + sub() + " * " + sub() + ")"
	case 4:
		return "sin(" + sub() + ")"
	case 5:
		v := g.pick("let-var", pool)
		return "(let " + v + " = " + sub() + " in " + g.term(append(env, v), d-1) + ")"
	case 6:
		v := g.pick("rd-var", pool)
		return "(" + g.atom(sub()) + ".rd[" + sub() + "](" + v + ":real. " + g.term(append(env, v), d-1) + "))"
	case 7:
		return "swish(" + sub() + ")"
	case 8:
		if g.cfg.Undefined {
			return "log(" + sub() + ")"
		}
		return "cos(" + sub() + ")"
	}
	return "fst(<" + sub() + ", " + sub() + ">)"
}

// atom parenthesizes a cotangent that is not an atom (M.rd binds tighter).
func (g *generator) atom(s string) string {
	if strings.HasPrefix(s, "-") {
		return "(" + s + ")"
	}
	return s
}

// cmd draws a command of type real whose free variables are among env and whose
// operations are among allowed (handled by an enclosing handler) or the heap's.
func (g *generator) cmd(env, allowed []string, d int) string {
	if !g.compound(d) || g.draw("cmd-leaf", 0, 4) == 0 {
		return g.leafCmd(env, allowed, d)
	}
	switch g.draw("cmd", 0, 6) {
	case 0, 1:
		v := g.pick("clet-var", pool)
		return "let " + v + " <= (" + g.cmd(env, allowed, d-1) + ") in " + g.cmd(append(env, v), allowed, d-1)
	case 2:
		if len(g.heaps) > 0 {
			return "let u <= put[" + g.pick("heap", g.heaps) + "](" + g.term(env, d-1) + ") in " + g.cmd(env, allowed, d-1)
		}
		return g.leafCmd(env, allowed, d)
	case 3, 4:
		return g.handle(env, allowed, d, false)
	case 5:
		return g.handle(env, allowed, d, true)
	}
	return "(" + g.cmd(env, allowed, d-1) + ")"
}

func (g *generator) leafCmd(env, allowed []string, d int) string {
	switch g.draw("leaf-cmd", 0, 3) {
	case 0:
		if len(allowed) > 0 {
			return g.pick("op", allowed) + "(" + g.term(env, d-1) + ")"
		}
	case 1:
		if len(g.heaps) > 0 {
			return "get[" + g.pick("heap", g.heaps) + "]()"
		}
	}
	return "[" + g.term(env, d-1) + "]"
}

// handle draws rev handle(M) <v>. R with H, or with two variables, of type real.
func (g *generator) handle(env, allowed []string, d int, two bool) string {
	var handled []string
	for _, op := range g.ops {
		if g.draw("handles-"+op, 0, 2) > 0 {
			handled = append(handled, op)
		}
	}
	inner := append(append([]string(nil), allowed...), handled...)
	var h strings.Builder
	o := g.pick("ret-var", pool)
	h.WriteString("{ return " + o + " -> (" + g.cmd([]string{o}, allowed, d-1) + ")")
	for _, op := range handled {
		x := g.pick("clause-x", pool)
		b := g.pick("clause-b", pool)
		fwd := "let " + b + " <= (" + g.cmd([]string{x}, allowed, d-1) + ") in [<" + g.term([]string{x, b}, d-1) + ", " + g.term([]string{x, b}, d-1) + ">]"
		bwd := g.cmd([]string{"y", "z"}, allowed, d-1)
		h.WriteString("; " + op + "(" + x + ") -> (" + fwd + ") | y, z -> (" + bwd + ")")
	}
	h.WriteString(" }")
	if !two {
		v := g.pick("handle-var", pool)
		return "rev handle(" + g.term(env, d-1) + ") <" + v + ">. (" + g.cmd([]string{v}, inner, d-1) + ") with " + h.String()
	}
	return "let g <= (rev handle(<" + g.term(env, d-1) + ", " + g.term(env, d-1) + ">) <a, b>. (" +
		g.cmd([]string{"a", "b"}, inner, d-1) + ") with " + h.String() + ") in [fst(g) + snd(g)]"
}
