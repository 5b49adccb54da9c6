package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
)

// TestDefaultBudgets: run, trace and compare stop a run after a minute by default
// (the library's default is none), within half the machine's memory, and print no
// item longer than a mebibyte.
func TestDefaultBudgets(t *testing.T) {
	root, err := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run", "trace", "compare", "check"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		for flag, want := range map[string]string{
			"timeout":     "1m0s",
			"memory":      interderive.FormatBytes(interderive.DefaultMemory()),
			"print-limit": "1 MiB",
		} {
			f := cmd.Flags().Lookup(flag)
			if f == nil || f.DefValue != want {
				t.Errorf("%s --%s: %v, want the default %s", name, flag, f, want)
			} else if !strings.Contains(cmd.Flags().FlagUsages(), "--"+flag) {
				t.Errorf("%s: the help does not document --%s", name, flag)
			}
		}
	}
}

// TestBudgetMessages: a run stopped at a budget exits with status 3 and names the
// flag that allows more.
func TestBudgetMessages(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	loop := write(t, "loop.gtlc", "letrec loop: Int -> Int = \\x:Int. loop x in loop 0")
	// sum n is not a tail call: the machine's continuation grows by a frame a call.
	deep := write(t, "deep.gtlc", "letrec sum: Int -> Int = \\n:Int. if n = 0 then 0 else n + sum (n - 1) in sum 100000000")
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--fuel", "10", loop}, []string{"out of fuel after 10 contractions (--fuel allows more)"}},
		{[]string{"run", "--timeout", "20ms", "--fuel", "1000000000000", loop}, []string{"timed out after 20ms", "(--timeout allows more; 0 for no limit)"}},
		{[]string{"run", "--stage", "reduction", "--timeout", "20ms", "--fuel", "1000000000000", loop}, []string{"timed out after 20ms", "--timeout allows more"}},
		{[]string{"run", "--stage", "machine", "--memory", "64MiB", deep}, []string{"out of memory: the live heap reached", "over the budget of 64 MiB", "(--memory allows more; 0 for no limit)"}},
		{[]string{"trace", "--stage", "machine", "--timeout", "50ms", "--fuel", "1000000000000", loop}, []string{"timed out after 50ms", "--timeout allows more"}},
	} {
		if testing.Short() && slices.Contains(tt.args, "--memory") {
			continue // filling 64 MiB takes a second: the full run checks --memory's message
		}
		stdout, stderr, code := runCmd(tt.args...)
		if code != exitFuel {
			t.Errorf("%v: exit %d, want 3 (stderr %q)", tt.args, code, stderr)
		}
		for _, want := range tt.want {
			if !strings.Contains(stderr, want) {
				t.Errorf("%v: stderr %q lacks %q (stdout %d bytes)", tt.args, stderr, want, len(stdout))
			}
		}
	}
	if _, stderr, code := runCmd("run", "--memory", "lots", loop); code != exitStatic || !strings.Contains(stderr, "not a size") {
		t.Errorf("--memory lots: exit %d, %q", code, stderr)
	}
}

// shared40 is a differentiable program whose value is a tuple of 2^40 leaves, built by
// sharing: eight terabytes of text.
func shared40() string {
	var b strings.Builder
	b.WriteString("let a0 = 1 in ")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "let a%d = <a%d, a%d> in ", i, i-1, i-1)
	}
	b.WriteString("a40")
	return b.String()
}

// TestPrintBudget: run stops at once, with status 3, on a value that prints in more
// than the output budget (a tuple of 2^40 leaves: eight terabytes), and prints a value
// that fits; without an output budget, the time budget holds while the value prints;
// trace --stage all cuts its items (here the program, whose types print exponentially
// too) and ends within its time budget.
func TestPrintBudget(t *testing.T) {
	big := write(t, "big.dpl", shared40())
	small := write(t, "small.dpl", "let a0 = 1 in let a1 = <a0, a0> in <a1, a1>")
	for _, tt := range []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"run", big}, exitFuel, "", "the value prints in more than 1 MiB (--print-limit allows more; 0 for no limit)"},
		{[]string{"run", "--show", "value", "--print-limit", "64KiB", big}, exitFuel, "", "the value prints in more than 64 KiB"},
		{[]string{"run", "--print-limit", "0", "--timeout", "100ms", big}, exitFuel, "", "timed out after 100ms"},
		{[]string{"run", "--print-limit", "16B", small}, exitOK, "<<1, 1>, <1, 1>>\n", ""},
		{[]string{"run", "--print-limit", "15B", small}, exitFuel, "", "the value prints in more than 15 B"},
	} {
		start := time.Now()
		stdout, stderr, code := runCmd(tt.args...)
		if code != tt.code || stdout != tt.stdout || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, %q, %q; want %d, %q, %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%v took %s", tt.args, d)
		}
	}
	// The cut comes before the timeout. The trace writes about 200 MB a second, and
	// what it wrote stays live in this process (in-process runs of later tests, whose
	// --memory budgets watch the process's live heap, saw it), so it is given 300ms.
	start := time.Now()
	stdout, stderr, code := runCmd("trace", "--stage", "all", "--timeout", "300ms", big)
	if code != exitFuel || !strings.Contains(stdout, "… [cut at 1 MiB]") || time.Since(start) > 20*time.Second {
		t.Errorf("trace --stage all: exit %d after %s, %d bytes, %q", code, time.Since(start), len(stdout), stderr)
	}
}

// TestTraceAllBudgets: trace --stage all exits with status 3 when a stage stopped at a
// budget, after writing the whole trace, and its stages share one time budget.
func TestTraceAllBudgets(t *testing.T) {
	loop := write(t, "loop.gtlc", "letrec loop: Int -> Int = \\x:Int. loop x in loop 0")
	stdout, stderr, code := runCmd("trace", "--stage", "all", "--fuel", "50", loop)
	if code != exitFuel || strings.Count(stdout, "out of fuel after 50 contractions") != 6 ||
		!strings.Contains(stdout, "contraction 50: beta") || !strings.Contains(stderr, "--fuel allows more") {
		t.Errorf("--fuel 50: exit %d, %q, stdout ends %q", code, stderr, stdout[max(0, len(stdout)-400):])
	}
	start := time.Now()
	stdout, stderr, code = runCmd("trace", "--stage", "all", "--fuel", "1000000000000", "--timeout", "300ms", loop)
	if code != exitFuel || strings.Count(stdout, "timed out after 300ms") != 6 || !strings.Contains(stderr, "--timeout allows more") {
		t.Errorf("--timeout 300ms: exit %d, %q", code, stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("--timeout 300ms took %s", d)
	}
	for _, format := range []string{"--json", "--html"} {
		args := []string{"trace", "--stage", "all", "--fuel", "50", format}
		if format == "--html" {
			args = append(args, t.TempDir()+"/trace.html")
		}
		if _, stderr, code := runCmd(append(args, loop)...); code != exitFuel || !strings.Contains(stderr, "out of fuel after 50") {
			t.Errorf("%s: exit %d, %q", format, code, stderr)
		}
	}
}

// TestCompareCut: compare under a time budget of a few milliseconds, in which the
// stages stop at different points: not a disagreement, but a comparison in part (exit
// status 3) that says how far the stages agree and which budget cut them; under a
// budget of fuel every stage stops at the same point.
func TestCompareCut(t *testing.T) {
	loop := write(t, "loop.gtlc", "letrec loop: Int -> Int = \\x:Int. loop x in loop 0")
	stdout, _, code := runCmd("compare", "--semantics", "ed", "--timeout", "5ms", "--fuel", "1000000000000", loop)
	if code != exitFuel || strings.Contains(stdout, "DISAGREE") || !strings.Contains(stdout, "PARTIAL ed: the stages agree on the first ") ||
		!strings.Contains(stdout, "reduction, closures, machine, cps2, interp, compile cut by --timeout") || strings.Contains(stdout, "all stages agree") {
		t.Errorf("--timeout 5ms: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd("compare", "--semantics", "ld,ed", "--fuel", "1000", loop)
	if code != exitFuel || !strings.Contains(stdout, "PARTIAL ld: the stages agree on the first 1000 contractions; reduction, closures, machine, cps2, interp, compile cut by --fuel") ||
		!strings.Contains(stdout, "ed         interp     out of fuel  1000") {
		t.Errorf("--fuel 1000: exit %d\n%s", code, stdout)
	}
	stdout, _, code = runCmd("compare", "--json", "--semantics", "ed", "--fuel", "1000", loop)
	if code != exitFuel || !strings.Contains(stdout, `"partial":[{"variant":"ed","agreed":1000,"cut":[{"stage":"reduction","by":"--fuel"}`) {
		t.Errorf("--json: exit %d\n%s", code, stdout)
	}
}
