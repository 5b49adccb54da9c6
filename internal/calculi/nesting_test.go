package calculi_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
)

// The nesting limits (gradual.MaxNesting, dpl.MaxNesting) are derived from the Go
// stack: every recursion over a program the parser accepted takes at most
// NestingFrame bytes of stack per level of nesting. TestStackPerLevel checks that
// bound, pass by pass, on programs nested in every way the parsers count;
// TestNestingLimit runs the same programs at the limit through every pass, on every
// stage, with the stack the workbench runs with.

// nestedShape is a way of nesting a program n times.
type nestedShape struct {
	lang string // the language's name (its file extension)
	name string
	// levels is how many levels of nesting, as the parser counts them (the larger of
	// the nesting of the source and the depth of the syntax tree, types included),
	// one repetition takes.
	levels int
	src    func(n int) string
	// want is the answer of the program nested n times (hand-derived, in the
	// comments), or "" to check none.
	want func(n int) string
}

// alternate is a then b then a ..., n in all.
func alternate(n int, a, b string) string {
	var s strings.Builder
	for i := range n {
		if i%2 == 0 {
			s.WriteString(a)
		} else {
			s.WriteString(b)
		}
	}
	return s.String()
}

func nestedShapes() []nestedShape {
	r := strings.Repeat
	k := func(s string) func(int) string { return func(int) string { return s } }
	succ := func(n int) string { return strconv.Itoa(n + 1) }
	return []nestedShape{
		// inc applied n times to 1: n + 1.
		{"gtlc", "inc", 1, func(n int) string { return r("inc ", n) + "1" }, succ},
		// 1 + (1 + ... (1 + 1)): n + 1.
		{"gtlc", "sum-right", 1, func(n int) string { return r("1 + (", n) + "1" + r(")", n) }, succ},
		// 1 + 1 + ... + 1, a left-associative chain: n + 1.
		{"gtlc", "sum-left", 1, func(n int) string { return "1" + r(" + 1", n) }, succ},
		// n lambdas: a function.
		{"gtlc", "lambdas", 1, func(n int) string { return r(`\x:Int. `, n) + "x" }, k("function")},
		// the identity applied to the identity applied to ... 1: 1.
		{"gtlc", "arguments", 1, func(n int) string { return r(`(\x:Int. x) (`, n) + "1" + r(")", n) }, k("1")},
		// (\x:Dyn. x) 1 1 ...: the second application applies the injected 1, whose
		// projection to Dyn -> Dyn fails and blames the label of that application,
		// the position of its argument (column 15).
		{"gtlc", "applications", 1, func(n int) string { return `(\x:Dyn. x)` + r(" 1", n) }, k("blame 1:15")},
		// if (if ... true then true else false) then true else false: true.
		{"gtlc", "conditions", 1, func(n int) string { return r("if ", n) + "true" + r(" then true else false", n) }, k("true")},
		// if true then 1 else if true ...: 1.
		{"gtlc", "else", 1, func(n int) string { return r("if true then 1 else ", n) + "1" }, k("1")},
		// let x = (let x = ... 1 in x) in x: 1.
		{"gtlc", "let-bound", 1, func(n int) string { return r("let x = ", n) + "1" + r(" in x", n) }, k("1")},
		// ((1 : Dyn) : Int) ...: casts one way and back; for n even the outermost
		// ascription is Int: 1.
		{"gtlc", "ascriptions", 1, func(n int) string { return r("(", n) + "1" + alternate(n, " : Dyn)", " : Int)") }, k("1")},
		// The identity on a type n arrows deep, passed as Dyn: an injected value.
		{"gtlc", "type", 1, func(n int) string { return `(\f:Dyn. f) (\x:` + r("Int -> ", n) + "Int. x)" }, k("dynamic")},
		// <Int?^l> <Int!> ... 1, n even: 1.
		{"cast", "coercions", 1, func(n int) string { return alternate(n, "<Int?^l> ", "<Int!> ") + "1" }, k("1")},
		// <Int <= Dyn>^l <Dyn <= Int>^l ... 1, n even: 1.
		{"cast", "casts", 1, func(n int) string { return alternate(n, "<Int <= Dyn>^l ", "<Dyn <= Int>^l ") + "1" }, k("1")},

		// ((...(1)...)): 1.
		{"dpl", "parentheses", 1, func(n int) string { return r("(", n) + "1" + r(")", n) }, k("1")},
		// - - ... - x with x = 1, n even: 1.
		{"dpl", "negations", 1, func(n int) string { return "let x:real = 1 in " + r("- ", n) + "x" }, k("1")},
		// sin(sin(...(1))): sin iterated n times on 1, computed apart with math.Sin.
		{"dpl", "operators", 1, func(n int) string { return r("sin(", n) + "1" + r(")", n) }, func(n int) string {
			x := 1.0
			for range n {
				x = math.Sin(x)
			}
			return dpl.FormatReal(x)
		}},
		// 1 + (1 + ... (1 + 1)): n + 1.
		{"dpl", "sum-right", 1, func(n int) string { return r("1 + (", n) + "1" + r(")", n) }, succ},
		// 1 + 1 + ... + 1: n + 1.
		{"dpl", "sum-left", 1, func(n int) string { return "1" + r(" + 1", n) }, succ},
		// <1, <1, ... 1>>: itself.
		{"dpl", "pairs-right", 1, func(n int) string { return r("<1, ", n) + "1" + r(">", n) }, func(n int) string {
			return r("<1, ", n) + "1" + r(">", n)
		}},
		// <1, 1, ..., 1>, left-nested pairs: printed as such.
		{"dpl", "tuple", 1, func(n int) string { return "<" + r("1, ", n) + "1>" }, func(n int) string {
			return r("<", n) + "1" + r(", 1>", n)
		}},
		// if 1 <. 2 then 1 else if ...: 1.
		{"dpl", "else", 1, func(n int) string { return r("if 1 <. 2 then 1 else ", n) + "0" }, k("1")},
		// let x = (let x = ... 1 in x) in x: 1.
		{"dpl", "let-bound", 1, func(n int) string { return r("let x:real = ", n) + "1" + r(" in x", n) }, k("1")},
		// A pair n deep, with its type written: the pair.
		{"dpl", "type", 1, func(n int) string {
			return "let x:" + r("real * (", n) + "real" + r(")", n) + " = " + r("<1, ", n) + "1" + r(">", n) + " in x"
		}, func(n int) string { return r("<1, ", n) + "1" + r(">", n) }},
		// d/dx x^(n+1) at 1 = n + 1; x * (...) is mul(<x, ...>), two levels of the tree.
		{"dpl", "products", 2, func(n int) string { return "1.rd[1](x:real. " + r("x * (", n) + "x" + r(")", n) + ")" }, succ},
		// rd in rd: the innermost is 1 (the identity's derivative), every other 0 (its
		// body does not use its variable); nested deeper than dpl.MaxLayers, a depth
		// error.
		{"dpl", "derivatives", 1, func(n int) string { return r("1.rd[1](x:real. ", n) + "x" + r(")", n) }, k("0")},
	}
}

// nestedProgram is a shape nested to (nearly) levels levels, its calculus, and the n
// it took.
func nestedProgram(t *testing.T, w *workbench.Workbench, sh nestedShape, levels int) (workbench.Calculus, workbench.Program, int) {
	t.Helper()
	n := (levels - 4) / sh.levels
	n -= n % 2 // the alternating shapes want n even
	c, _, err := w.LanguageNamed(sh.lang)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Load(sh.lang, []byte(sh.src(n)))
	if err != nil {
		t.Fatalf("%s/%s nested %d times: %v", sh.lang, sh.name, n, err)
	}
	return c, p, n
}

// nestedPass is a function over a loaded program's term.
type nestedPass struct {
	name string
	run  func() error
}

// nestedPasses are the functions over p's term other than loading and running it:
// the cast-calculus form of a gradual program, or an elaborated differentiable one.
func nestedPasses(p workbench.Program) []nestedPass {
	switch p := p.(type) {
	case interface{ Term() g.Expr }:
		e := p.Term()
		return []nestedPass{
			{"TypeOf", func() error { _, err := g.TypeOf(g.Translate(g.ED, e)); return err }},
			{"Translate", func() error { g.Translate(g.LD, e); return nil }},
			{"Format", func() error { g.Format(g.Translate(g.ED, e)); return nil }},
			{"AlphaEqual", func() error {
				if !g.AlphaEqual(g.Translate(g.ED, e), g.Translate(g.ED, e)) {
					return errors.New("not α-equal to itself")
				}
				return nil
			}},
			{"Subst", func() error { g.Subst(e, "x", &g.IntLit{N: 1}); return nil }},
			{"SubstAll", func() error { g.SubstAll(e, map[string]g.Expr{"x": &g.IntLit{N: 1}}); return nil }},
			{"FreeVars", func() error { g.FreeVars(e); return nil }},
			{"Depth", func() error { g.Depth(e); return nil }},
		}
	case interface{ Term() dpl.Term }:
		t := p.Term()
		return []nestedPass{
			{"Format", func() error { dpl.Format(t); return nil }},
			{"AlphaEqual", func() error {
				if !dpl.AlphaEqual(t, t) {
					return errors.New("not α-equal to itself")
				}
				return nil
			}},
			{"Subst", func() error { dpl.Subst(t, "x", &dpl.RealLit{R: 1}); return nil }},
			{"RenameBinders", func() error { dpl.RenameBinders(t, dpl.NewNames(t)); return nil }},
			{"FreeVars", func() error { dpl.FreeVars(t); return nil }},
			{"NestingDepth", func() error { dpl.NestingDepth(t); return nil }},
		}
	}
	panic(fmt.Sprintf("a program of no known form: %T", p))
}

// variantsOf are the variants a nesting test runs: one cast semantics, and for the
// differentiable language both strategies that R runs with at depth.
func variantsOf(lang string) []string {
	if lang == "dpl" {
		return []string{"tape", "pruned"}
	}
	return []string{"ed"}
}

// childEnv names, in the environment of a process a test starts to run itself under a
// small stack limit (inChild), that test.
const childEnv = "INTERDERIVE_STACK_CHILD"

// inChild runs the test t in a process of its own, where a stack overflow (which
// aborts a process) fails it rather than every test, and reports that process's
// failure: the test, up to its last line "pass: ..." (what it was doing), and the
// runtime's message. It returns true in that process, where the test does its work,
// and false in the test's own.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", fmt.Sprintf("-test.short=%t", testing.Short()))
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	last := ""
	for _, line := range lines {
		if strings.HasPrefix(line, "pass: ") {
			last = line
		}
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		i := 0
		for i < len(lines) && !strings.Contains(lines[i], "stack overflow") && !strings.Contains(lines[i], "exceeds") {
			i++
		}
		if i == len(lines) {
			i = max(0, len(lines)-10)
		}
		t.Fatalf("%v; the last pass started: %s\n%s", err, last, strings.Join(lines[i:min(len(lines), i+10)], "\n"))
	}
	return false
}

// stackLevels is the nesting at which TestStackPerLevel runs every pass, with a Go
// stack limited to stackLevels × NestingFrame bytes (32 MiB, a power of two, so that
// all of it can be used; 4 MiB with -short).
func stackLevels() int {
	if testing.Short() {
		return 1024
	}
	return 8192
}

// TestStackPerLevel: every pass over a program — loading it (parsing, type checking,
// cast insertion or elaboration), the functions over its term, and a run on every stage
// — takes at most NestingFrame bytes of Go stack per level of nesting, for every way of
// nesting a program: a process of its own runs them all on programs nested
// stackLevels() deep, with its stack limited to stackLevels() × NestingFrame bytes.
// The bound is what gradual.MaxNesting and dpl.MaxNesting are derived from.
func TestStackPerLevel(t *testing.T) {
	if g.NestingFrame != dpl.NestingFrame {
		t.Fatalf("the calculi's NestingFrame differ: %d, %d", g.NestingFrame, dpl.NestingFrame)
	}
	if !inChild(t) {
		return
	}
	w := newBench(t)
	levels := stackLevels()
	debug.SetMaxStack(levels * g.NestingFrame)
	opts := func(stage string) interderive.Options {
		o := interderive.Options{Fuel: 1_000_000, Timeout: 2 * time.Second}
		if stage == "reduction" || stage == "closures" {
			// They decompose from the root at every step, so that they meet the depth at
			// once, and take time quadratic in it to finish.
			o.Timeout = time.Duration(levels/100) * time.Millisecond
		}
		return o
	}
	for _, sh := range nestedShapes() {
		name := sh.lang + "/" + sh.name
		fmt.Printf("pass: %s load\n", name)
		c, p, _ := nestedProgram(t, w, sh, levels)
		for _, ps := range nestedPasses(p) {
			fmt.Printf("pass: %s %s\n", name, ps.name)
			if err := ps.run(); err != nil {
				t.Errorf("%s: %s: %v", name, ps.name, err)
			}
		}
		for _, v := range variantsOf(sh.lang) {
			for _, s := range w.StagesOf(c) {
				fmt.Printf("pass: %s %s %s\n", name, s.Name(), v)
				if _, err := p.Run(s, v, opts(s.Name())); err != nil && !cleanStop(err) {
					t.Errorf("%s on %s under %s: %v", name, s.Name(), v, err)
				}
			}
		}
	}
}

// TestInterpRecursion: the interpreter's recursion, bounded by interp.MaxDepth, fits
// in half of the Go stack (interderive.StackLimit), as interp.MaxDepth's derivation
// says: a process of its own, its stack limited to StackLimit/2, runs non-tail
// recursions (in and out of rd) that reach the bound, which end with a depth error.
func TestInterpRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("recursions 131,072 deep, in a process of their own with 256 MiB of stack")
	}
	if !inChild(t) {
		return
	}
	w := newBench(t)
	debug.SetMaxStack(interderive.StackLimit / 2)
	for _, tt := range []struct{ lang, src string }{
		{"gtlc", "letrec sum:Int -> Int = \\n:Int. if n = 0 then 0 else n + sum (n - 1) in sum 1000000"},
		{"gtlc", "letrec sum:Int -> Int = \\n:Int. if n = 0 then 0 else (sum (n - 1) : Dyn) + n in sum 1000000"},
		{"gtlc", "letrec f:Int -> Int = \\n:Int. if n = 0 then 0 else let y = f (n - 1) in inc y in f 1000000"},
		{"dpl", "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in sum(1000000)"},
		{"dpl", "letrec d(n:real):real = if n <. 0.5 then 0 else let y:real = d(n + -1) in y + 1 in d(1000000)"},
		{"dpl", "letrec sum(n:real):real = if n <. 0.5 then 0 else n + sum(n + -1) in 1.rd[1](x:real. x * sum(1000000))"},
	} {
		fmt.Printf("pass: %s\n", tt.src)
		c, p := load(t, w, tt.lang, tt.src)
		for _, v := range variantsOf(tt.lang) {
			if _, err := p.Run(stage(t, w, c, "interp"), v, interderive.Options{}); !errors.Is(err, interderive.ErrTooDeep) {
				t.Errorf("%s under %s: %v, want the depth bound", tt.src, v, err)
			}
		}
	}
}

// cleanStop reports whether err is a run's clean stop at a resource limit: fuel, time,
// memory, depth, or the size of a derivative.
func cleanStop(err error) bool { return errors.Is(err, interderive.ErrResourceLimit) }

// TestNestingLimit: a program nested as deep as the parser accepts — in every way the
// parsers count nesting — goes through every pass, and runs on every stage to its
// answer or to a clean stop (fuel, time, depth), with the stack the workbench has: no
// crash. One level more is refused, with a positioned error.
func TestNestingLimit(t *testing.T) {
	testenv.Long(t, "every stage on programs 65,536 levels deep: a minute or two")
	w := newBench(t)
	for _, sh := range nestedShapes() {
		name := sh.lang + "/" + sh.name
		limit := g.MaxNesting
		if sh.lang == "dpl" {
			limit = dpl.MaxNesting
		}
		c, p, n := nestedProgram(t, w, sh, limit)
		over := (limit+sh.levels)/sh.levels + 2
		over += over % 2
		_, err := c.Load(sh.lang, []byte(sh.src(over)))
		var list interderive.ErrorList
		if !errors.As(err, &list) || !list[0].Pos.IsValid() || !strings.Contains(list[0].Msg, "nests too deeply") {
			t.Errorf("%s nested %d times: %v, want a positioned error, too deep", name, over, err)
		}
		for _, ps := range nestedPasses(p) {
			if err := ps.run(); err != nil {
				t.Errorf("%s: %s: %v", name, ps.name, err)
			}
		}
		for _, v := range variantsOf(sh.lang) {
			for _, s := range w.StagesOf(c) {
				stage := s.Name()
				opts := interderive.Options{Timeout: 2 * time.Second}
				if stage == "reduction" || stage == "closures" {
					// Quadratic in the depth: they would take hours. (The timeout is
					// checked every 256 contractions, each of which decomposes a term
					// 65,536 deep: the fuel stops them sooner.)
					opts.Fuel, opts.Timeout = 64, time.Second/4
				}
				o, err := p.Run(s, v, opts)
				switch {
				case err != nil && !cleanStop(err):
					t.Errorf("%s on %s under %s: %v", name, stage, v, err)
				case err == nil && sh.want != nil && o.Observation != sh.want(n):
					t.Errorf("%s on %s under %s: %.40s, want %.40s", name, stage, v, o.Observation, sh.want(n))
				}
			}
		}
	}
}
