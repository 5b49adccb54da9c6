package abductive_test

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
	abd "github.com/interderive/interderive/abductive"
	calculus "github.com/interderive/interderive/internal/calculi/abductive"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/interp"
)

// childEnv names, in the environment of a process a test starts to run itself under a
// small stack limit (inChild), that test.
const childEnv = "INTERDERIVE_ABDUCTIVE_STACK_CHILD"

// inChild runs the test t in a process of its own, where a stack overflow (which
// aborts a process) fails it rather than every test, and reports that process's
// failure with its last line "pass: ..." (what it was doing). It returns true in that
// process, where the test does its work, and false in the test's own.
func inChild(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", fmt.Sprintf("-test.short=%t", testing.Short()))
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		last, lines := "", strings.Split(string(out), "\n")
		for _, line := range lines {
			if strings.HasPrefix(line, "pass: ") {
				last = line
			}
		}
		t.Fatalf("%v; the last pass started: %s\n%s", err, last, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return false
}

// A nestedShape is a program nested n levels deep in one of the ways the parser counts
// nesting, and its answer.
type nestedShape struct {
	name string
	src  func(n int) string
	want func(n int) string
	cost int // the levels of nesting each of the n repetitions takes
}

func nestedShapes() []nestedShape {
	itoa := strconv.Itoa
	same := func(s string) func(int) string { return func(int) string { return s } }
	return []nestedShape{
		{"parentheses", func(n int) string { return strings.Repeat("(", n) + "1" + strings.Repeat(")", n) }, same("1"), 1},
		{"sum to the left", func(n int) string { return "1" + strings.Repeat(" + 1", n-1) }, itoa, 1},
		{"sum to the right", func(n int) string {
			return strings.Repeat("1 + (", n-1) + "1" + strings.Repeat(")", n-1)
		}, itoa, 1},
		{"lets", func(n int) string { return "let x = 1 in " + strings.Repeat("let x = x + 1 in ", n-1) + "x" }, itoa, 1},
		{"calls", func(n int) string {
			return "let f = \\x:F. x + 1 in " + strings.Repeat("f (", n) + "0" + strings.Repeat(")", n)
		}, itoa, 1},
		{"curried", func(n int) string {
			return "(" + strings.Repeat("\\x:F. ", n) + "x)" + strings.Repeat(" 1", n)
		}, same("1"), 2}, // a lambda in the function, an application around it
		{"types", func(n int) string {
			return "\\f:" + strings.Repeat("(", n) + "F" + strings.Repeat(" -> F)", n) + ". 1"
		}, same("function"), 1},
		{"decouplings", func(n int) string {
			return strings.Repeat("let f @ p = (", n) + "{1}" + strings.Repeat(") in f p", n)
		}, same("1"), 2}, // the model, and its parentheses
		{"provisional sums", func(n int) string { return "{1}" + strings.Repeat(" + {1}", n-1) }, itoa, 1},
	}
}

// stackLevels is the nesting at which TestAbductiveStackPerLevel runs every pass, with a
// Go stack limited to stackLevels × NestingFrame bytes (32 MiB; 8 MiB with -short).
func stackLevels() int {
	if testing.Short() {
		return 2048
	}
	return 8192
}

// TestAbductiveStackPerLevel: every pass over a program of the abductive calculus — loading it
// (parsing, type checking), the functions over its term, and a run on every stage —
// takes at most NestingFrame bytes of Go stack per level of nesting, for every way of
// nesting a program: a process of its own runs them all on programs nested
// stackLevels() deep, with its stack limited to stackLevels() × NestingFrame bytes.
// The bound is what lambda.MaxNesting is derived from.
func TestAbductiveStackPerLevel(t *testing.T) {
	if !inChild(t) {
		return
	}
	levels := stackLevels()
	debug.SetMaxStack(levels * abd.NestingFrame)
	one := &abd.Num{V: 1}
	start := time.Now()
	for _, sh := range nestedShapes() {
		fmt.Printf("pass: %s load\n", sh.name)
		p := load(t, sh.src(levels))
		e := p.(interface{ Term() abd.Expr }).Term()
		for _, ps := range []struct {
			name string
			run  func()
		}{
			{"Format", func() { abd.Format(e) }},
			{"FormatBounded", func() { _, _ = abd.FormatBounded(e, interderive.PrintBudget{Max: 1 << 10}) }},
			{"AlphaEqual", func() { abd.AlphaEqual(e, e) }},
			{"FreeVars", func() { abd.FreeVars(e) }},
			{"Subst", func() { abd.Subst(e, "x", one) }},
			{"TypeOf", func() { _, _ = abd.TypeOf(e) }},
		} {
			fmt.Printf("pass: %s %s (at %s)\n", sh.name, ps.name, time.Since(start).Round(time.Millisecond))
			ps.run()
		}
		for _, s := range stages(t) {
			fmt.Printf("pass: %s %s (at %s)\n", sh.name, s.Name(), time.Since(start).Round(time.Millisecond))
			opts := interderive.Options{Fuel: 1_000_000, Timeout: 5 * time.Second}
			if s.Name() == "reduction" || s.Name() == "closures" {
				// They decompose from the root at every step, so that they meet the
				// depth at their first steps (and substitute into the whole term at
				// their first contractions), and take time quadratic in it to finish
				// (the calculus of closures, even to its first contraction: its
				// environment steps expand the term one level a step).
				opts.Fuel, opts.Timeout = 64, time.Duration(levels/100)*time.Millisecond
			}
			r := runOn(p, s, opts)
			switch {
			case r.err != nil && !errors.Is(r.err, interderive.ErrResourceLimit):
				t.Errorf("%s on %s: %v", sh.name, s.Name(), r.err)
			case r.err == nil && r.out.Observation != sh.want(levels):
				t.Errorf("%s on %s: %s, want %s", sh.name, s.Name(), r.out.Observation, sh.want(levels))
			}
		}
	}
}

// TestAbductiveNestingLimit: a program nested just under the limit (but for the few
// levels of the program around the repetitions) loads, and runs on every stage to its
// answer or to a clean stop (fuel, time, depth), with the stack the workbench has: no
// crash; just over the limit it is a positioned error. In every way of nesting.
func TestAbductiveNestingLimit(t *testing.T) {
	testenv.Long(t, "programs 65,536 levels deep, on every stage")
	for _, sh := range nestedShapes() {
		n := abd.MaxNesting/max(sh.cost, 1) - 4
		p, err := calculus.Calculus.Load("abd", []byte(sh.src(n)))
		if err != nil {
			t.Errorf("%s repeated %d times: %v", sh.name, n, err)
			continue
		}
		for _, s := range stages(t) {
			opts := interderive.Options{Timeout: 2 * time.Second}
			if s.Name() == "reduction" || s.Name() == "closures" {
				opts.Fuel, opts.Timeout = 64, time.Second/4 // quadratic in the depth
			}
			r := runOn(p, s, opts)
			switch {
			case r.err != nil && !errors.Is(r.err, interderive.ErrResourceLimit):
				t.Errorf("%s on %s: %v", sh.name, s.Name(), r.err)
			case r.err == nil && r.out.Observation != sh.want(n):
				t.Errorf("%s on %s: %.40s, want %.40s", sh.name, s.Name(), r.out.Observation, sh.want(n))
			}
		}
		_, err = calculus.Calculus.Load("abd", []byte(sh.src(n+6)))
		var list interderive.ErrorList
		if !errors.As(err, &list) || !list[0].Pos.IsValid() || !strings.Contains(list[0].Msg, "nests too deeply") {
			t.Errorf("%s repeated %d times: %v, want a positioned error, too deep", sh.name, n+6, err)
		}
	}
}

// TestAbductiveInterpDepth: the interpreter's recursion, bounded by interp.MaxDepth,
// fits in half of the Go stack (interderive.StackLimit): a process of its own, its
// stack limited to StackLimit/2, runs non-tail recursions that reach the bound (the
// calculus has no recursion: a term nested deeper than the bound, built directly),
// which end with a depth error.
func TestAbductiveInterpDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("recursions 131,072 deep, in a process of their own with 256 MiB of stack")
	}
	if !inChild(t) {
		return
	}
	debug.SetMaxStack(interderive.StackLimit / 2)
	var e abd.Expr = &abd.Num{V: 1}
	for range interp.MaxDepth + 10 {
		e = &abd.Binary{Op: abd.OpAdd, X: &abd.Num{V: 1}, Y: e}
	}
	fmt.Printf("pass: a sum nested %d deep\n", interp.MaxDepth+10)
	st, _ := abd.StageOf(interp.Stage{})
	if _, err := st.Eval(e, interderive.Options{}); !errors.Is(err, interderive.ErrTooDeep) {
		t.Errorf("%v, want the depth bound", err)
	}
}
