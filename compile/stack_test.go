package compile_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/compile"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/lambda"
)

// childEnv names, in the environment of a process a test starts to run itself under a
// small stack limit (inChild), that test.
const childEnv = "INTERDERIVE_COMPILE_STACK_CHILD"

// inChild runs the test t in a process of its own, where a stack overflow (which
// aborts a process) fails it rather than every test, and reports that process's
// failure. It returns true in that process, where the test does its work, and false
// in the test's own.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", fmt.Sprintf("-test.short=%t", testing.Short()))
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Fatalf("%v\n%s", err, strings.Join(lines[max(0, len(lines)-20):], "\n"))
	}
	return false
}

// nested is a program nested n times in one way, and its answer.
type nested struct {
	name, lang string
	src        func(n int) string
	want       func(n int) string
}

// nestedShapes are the ways of nesting a gradual program that the parsers count, with
// their answers, derived by hand (n even).
func nestedShapes() []nested {
	r := strings.Repeat
	k := func(s string) func(int) string { return func(int) string { return s } }
	succ := func(n int) string { return strconv.Itoa(n + 1) }
	alternate := func(n int, a, b string) string {
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
	return []nested{
		// inc applied n times to 1: n + 1.
		{"inc", "gtlc", func(n int) string { return r("inc ", n) + "1" }, succ},
		// 1 + (1 + ... (1 + 1)): n + 1.
		{"sum-right", "gtlc", func(n int) string { return r("1 + (", n) + "1" + r(")", n) }, succ},
		// 1 + 1 + ... + 1: n + 1.
		{"sum-left", "gtlc", func(n int) string { return "1" + r(" + 1", n) }, succ},
		// n lambdas: a function.
		{"lambdas", "gtlc", func(n int) string { return r(`\x:Int. `, n) + "x" }, k("function")},
		// the identity applied to the identity applied to ... 1: 1.
		{"arguments", "gtlc", func(n int) string { return r(`(\x:Int. x) (`, n) + "1" + r(")", n) }, k("1")},
		// (\x:Dyn. x) 1 1 ...: the second application projects the injected 1 to
		// Dyn -> Dyn, which fails, blaming that application's argument (column 15).
		{"applications", "gtlc", func(n int) string { return `(\x:Dyn. x)` + r(" 1", n) }, k("blame 1:15")},
		// if (if ... true then true else false) then true else false: true.
		{"conditions", "gtlc", func(n int) string { return r("if ", n) + "true" + r(" then true else false", n) }, k("true")},
		// if true then 1 else if true ...: 1.
		{"else", "gtlc", func(n int) string { return r("if true then 1 else ", n) + "1" }, k("1")},
		// let x = (let x = ... 1 in x) in x: 1.
		{"let-bound", "gtlc", func(n int) string { return r("let x = ", n) + "1" + r(" in x", n) }, k("1")},
		// ((1 : Dyn) : Int) ...: n even, the outermost ascription is Int: 1.
		{"ascriptions", "gtlc", func(n int) string { return r("(", n) + "1" + alternate(n, " : Dyn)", " : Int)") }, k("1")},
		// The identity on a type n arrows deep, passed as Dyn: an injected value.
		{"type", "gtlc", func(n int) string { return `(\f:Dyn. f) (\x:` + r("Int -> ", n) + "Int. x)" }, k("dynamic")},
		// <Int?^l> <Int!> ... 1, n even: 1.
		{"coercions", "cast", func(n int) string { return alternate(n, "<Int?^l> ", "<Int!> ") + "1" }, k("1")},
		// <Int <= Dyn>^l <Dyn <= Int>^l ... 1, n even: 1.
		{"casts", "cast", func(n int) string { return alternate(n, "<Int <= Dyn>^l ", "<Dyn <= Int>^l ") + "1" }, k("1")},
	}
}

// runNested runs every nested shape at n levels (a few below levels, n even) on the
// compiled stage, under every semantics, merged and not: each gives its answer or
// stops at a budget (fuel, time, depth), without crashing the process.
func runNested(t *testing.T, levels int) {
	n := levels - 8
	for _, sh := range nestedShapes() {
		fmt.Printf("pass: %s\n", sh.name)
		p, err := gradual.Calculus.Load(sh.lang, []byte(sh.src(n)))
		if err != nil {
			t.Fatalf("%s nested %d times: %v", sh.name, n, err)
		}
		term := p.(interface{ Term() g.Expr }).Term()
		for _, sem := range g.Standard() {
			for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
				opts := interderive.Options{Fuel: 10_000_000, Timeout: 10 * time.Second, Merging: mode}
				a, err := compile.EvalCast(sem, g.Translate(sem, term), opts)
				switch {
				case errors.Is(err, interderive.ErrResourceLimit):
				case err != nil:
					t.Errorf("%s under %s %s: %v", sh.name, sem.Name(), mode, err)
				case a.Observe() != sh.want(n) && !(sh.name == "applications" && strings.HasPrefix(a.Observe(), "blame")):
					t.Errorf("%s under %s %s: %s, want %s", sh.name, sem.Name(), mode, a.Observe(), sh.want(n))
				}
			}
		}
	}
}

// TestStackPerLevel: compiling and running a program takes at most NestingFrame bytes
// of Go stack a level of its nesting, for every way of nesting it: a process of its
// own runs every shape 2,048 levels deep (8,192 without -short) with its stack limited
// to that many NestingFrames.
func TestStackPerLevel(t *testing.T) {
	if !inChild(t) {
		return
	}
	levels := 8192
	if testing.Short() {
		levels = 2048
	}
	debug.SetMaxStack(levels * g.NestingFrame)
	runNested(t, levels)
}

// TestNestingLimit: every shape nested as deep as the parser accepts
// (gradual.MaxNesting) compiles and runs, with the stack the workbench has.
func TestNestingLimit(t *testing.T) {
	testenv.Long(t, "every shape 65,536 levels deep")
	runNested(t, g.MaxNesting)
}

// TestDepthFrame: a unit of the compiled code's depth takes at most DepthFrame bytes
// of Go stack, as MaxDepth's derivation says: a process of its own, its stack limited
// to 2 × bound × DepthFrame, runs recursions that are not tail calls into a depth
// bound of bound units (the derivation's: half of the stack for them), which stop
// with a depth error, not a crash — through every kind of frame a recursion passes:
// operators, lets, casts through Dyn and wrapped functions, merged or not; and the
// λ-calculus's.
func TestDepthFrame(t *testing.T) {
	if !inChild(t) {
		return
	}
	bound := 1 << 16
	if testing.Short() {
		bound = 1 << 13
	}
	debug.SetMaxStack(2 * bound * compile.DepthFrame)
	for _, src := range []string{
		`letrec sum:Int -> Int = \n:Int. if n = 0 then 0 else n + sum (n - 1) in sum 100000000`,
		`letrec sum:Int -> Int = \n:Int. if n = 0 then 0 else (sum (n - 1) : Dyn) + n in sum 100000000`,
		`letrec f:Int -> Int = \n:Int. if n = 0 then 0 else let y = f (n - 1) in inc y in f 100000000`,
		`letrec f:Dyn -> Int = \n:Dyn. if n = 0 then 0 else 1 + f (n - 1) in f 100000000`,
		`letrec f:Int -> Dyn = \n:Int. if n = 0 then 0 else 1 + (\g:Dyn. g) f (n - 1) in f 100000000`,
		`let g:Dyn = (\x:Int. x) in letrec f:Int -> Int = \n:Int. if n = 0 then 0 else inc (f (g n - 1)) in f 100000000`,
	} {
		fmt.Printf("pass: %s\n", src)
		p, err := gradual.Calculus.Load("gtlc", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		term := p.(interface{ Term() g.Expr }).Term()
		for _, sem := range g.Standard() {
			for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
				opts := interderive.Options{Fuel: 1 << 40, Merging: mode}
				if _, err := compile.EvalCastDepth(sem, g.Translate(sem, term), opts, bound); !errors.Is(err, interderive.ErrTooDeep) {
					t.Errorf("%s under %s %s: %v, want the depth bound", src, sem.Name(), mode, err)
				}
			}
		}
	}
	for _, src := range []string{
		`letrec sum:Int -> Int = \n:Int. if0 n then 0 else n + sum (n - 1) in sum 100000000`,
		`letrec f:Int -> Int = \n:Int. if0 n then 0 else let y = f (n - 1) in y + 1 in f 100000000`,
	} {
		fmt.Printf("pass: %s\n", src)
		e, err := lambda.Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := compile.LambdaEvalDepth(e, interderive.Options{Fuel: 1 << 40}, bound); !errors.Is(err, interderive.ErrTooDeep) {
			t.Errorf("%s: %v, want the depth bound", src, err)
		}
	}
}
