package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// hostileFile is a rule file of testdata/hostile that loops or explodes, with its
// program (NAME.sem, NAME.term), and what each kind of command does with it.
type hostileFile struct {
	name string
	// run is the exit status of run, trace, compare and bench: 3 (a resource limit, with
	// hint) where the program cannot end within the limits, 2 where the static
	// checks rightly refuse the file, 0 where it is hostile but harmless.
	run int
	// hint is in run's standard error (or, with status 0, its standard output); with
	// status 3, the clock's hint (--timeout allows more) will do too, for a limit
	// that the short test's timeout comes before.
	hint string
	// check is check's exit status: the programs state an expectation; one that
	// cannot be met within the limits is a failed run (1) whose line names the
	// limit (check's statuses are pass, fail and error, as for every file); a
	// program that loops for ever states "out of fuel", and passes (0).
	check int
	// fuzz is fuzz's exit status: 0, every stage agreeing with the reference up to
	// where the limits stopped them; 2 for a file refused.
	fuzz int
	// static is the exit status of derive and render (which run nothing): 0, or 2
	// for a file refused.
	static int
}

// hostileFiles are the rule files a researcher may write by mistake (issue: "a
// rule file is a program the user wrote, and it can loop or explode"), each in
// testdata/hostile with its derivation in its comment.
var hostileFiles = []hostileFile{
	// (function spin (t) t ((spin t) (spin t))): calls nested past sem.MaxCallDepth,
	// a resource limit on every stage.
	{name: "meta-loop", run: 3, hint: "calls nest deeper than the limit", check: 1, fuzz: 0},
	// (down 1000000) recurses a million calls deep: the same limit.
	{name: "meta-deep", run: 3, hint: "calls nest deeper than the limit", check: 1, fuzz: 0},
	// (fan 100) calls itself twice a call, 2^100 calls in one contraction: the
	// clock stops it (it ran for ever: a function's evaluation watched no budget).
	{name: "meta-wide", run: 3, hint: "--timeout allows more", check: 1, fuzz: 0},
	// (grow v) -> (grow (pair v v)): runs out of fuel (the term is shared), or of
	// time where a trace prints its 2^k leaves.
	{name: "doubling", run: 3, hint: "allows more", check: 0, fuzz: 0},
	// (dup 100 1) is a value of 2^100 leaves: it cannot be printed.
	{name: "doubling-value", run: 3, hint: "--print-limit allows more", check: 1, fuzz: 0},
	// An inner layer whose only rule gives back its redex: out of fuel.
	{name: "inner-loop", run: 3, hint: "--fuel allows more", check: 0, fuzz: 0},
	// raise with no handler aborts to the root with a term that raises again.
	{name: "escape", run: 3, hint: "--fuel allows more", check: 0, fuzz: 0},
	// Classes defined by one another (a by b, b by a) match nothing; a class by
	// itself around something else is a tower, however deep: the program's answer.
	{name: "self-class", run: 0, hint: "1\n", check: 0, fuzz: 0},
	// (tower n v) wraps v in n boxes, a box a step, then matches the class of towers:
	// out of fuel here; a million boxes deep, past sem.MaxTermDepth, its match
	// crashed the stages over closures (sem's TestTermDepth).
	{name: "tower", run: 3, hint: "--fuel allows more", check: 1, fuzz: 0},
	// (wrap n (lam x t)) boxes a function's body n times, then applies it: out of
	// fuel here; a million boxes deep, its substitution crashed the reduction
	// semantics (sem's TestSubstDepth).
	{name: "binder", run: 3, hint: "--fuel allows more", check: 1, fuzz: 0},
	// A class defined by itself alone is refused by the static checks (exit 2).
	{name: "self-class-alone", run: 2, hint: "an alternative of a is more than a itself", check: 2, fuzz: 2, static: 2},
}

// hostileStages are the derived stages.
var hostileStages = []string{"reduction", "closures", "machine", "cps2", "interp", "compile"}

// TestHostileRuleFiles runs every command (run, trace, check, fuzz, bench, compare,
// derive, render) on every hostile rule file and its program, on the derived stages
// in turn (two a file, one with -short; trace --stage all on a third of the files
// with -short), with small limits, in-process: each ends with its status (exit 3 and a hint at a limit,
// 2 for a file the checks refuse), nothing crashes, and each command ends in bounded
// time (the limits', and a few seconds for the rest). Output files are written only
// where none exists (render -o, trace --html: TestNoOverwrite checks the refusal).
func TestHostileRuleFiles(t *testing.T) {
	keepRapidFlags(t)
	// budgets.apply sets the process's soft memory limit to --memory: give it back.
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	limits := []string{"--fuel", "10000", "--timeout", "200ms", "--memory", "200MB"}
	bound := 15 * time.Second // a command's wall clock: the timeout, a few runs of it, and slack
	if testing.Short() {
		limits = []string{"--fuel", "300", "--timeout", "50ms", "--memory", "200MB"}
	}
	dir := filepath.Join("testdata", "hostile")
	for i, f := range hostileFiles {
		sem, prog := filepath.Join(dir, f.name+".sem"), filepath.Join(dir, f.name+".term")
		// Two stages a file, in turn (one with -short): each stage meets four of
		// the files, in a fraction of the time of every stage on every file.
		n := len(hostileStages)
		stages := []string{hostileStages[i%n], hostileStages[(i+2)%n]}
		if testing.Short() {
			stages = stages[:1]
		}
		out := t.TempDir()
		type command struct {
			args []string
			code int
		}
		var commands []command
		for _, s := range stages {
			commands = append(commands,
				command{append([]string{"run", "--stage", s}, append(limits, prog)...), f.run},
				command{append([]string{"trace", "--stage", s}, append(limits, prog)...), f.run},
				command{append([]string{"check", "--stage", s}, append(limits, prog)...), f.check},
				command{append([]string{"fuzz", "--calculus", "rules", "--rules", sem, "--stage", s, "--count", "5", "--size", "2", "--jobs", "1", "--seed", "1", "--out", out}, limits...), f.fuzz},
			)
		}
		// bench runs a suite: the program, at one size, with its rule file named.
		suite := t.TempDir()
		if src, err := os.ReadFile(prog); err != nil {
			t.Fatal(err)
		} else {
			abs, _ := filepath.Abs(sem)
			var body []string
			for _, line := range strings.Split(string(src), "\n") {
				if !strings.HasPrefix(line, ";") {
					body = append(body, line)
				}
			}
			in := "; semantics: " + abs + "\n; sizes: 1\n" + strings.Join(body, "\n")
			if err := os.WriteFile(filepath.Join(suite, f.name+".term.in"), []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		commands = append(commands, command{append([]string{"bench", "--dir", suite, "--stage", strings.Join(stages, ",")}, limits...), f.run})
		if !testing.Short() || i%3 == 0 { // every stage's trace, the slowest command
			commands = append(commands, command{append([]string{"trace", "--stage", "all", "--html", filepath.Join(out, "trace.html")}, append(limits, prog)...), f.run})
		}
		commands = append(commands,
			command{append([]string{"compare"}, append(limits, prog)...), f.run},
			command{[]string{"derive", sem}, f.static},
			command{[]string{"render", "-o", filepath.Join(out, "rules.tex"), sem}, f.static},
		)
		for _, c := range commands {
			// --memory bounds the live heap of the process, which here is the
			// test's: start each command with the heap a process of its own has.
			runtime.GC()
			start := time.Now()
			var head headWriter
			var errb bytes.Buffer
			code := run(c.args, strings.NewReader(""), &head, &errb)
			stdout, stderr := head.String(), errb.String()
			took := time.Since(start)
			what := fmt.Sprintf("%s: %s", f.name, strings.Join(c.args, " "))
			switch {
			case code != c.code:
				t.Errorf("%s: exit %d, want %d\n%.600s%.600s", what, code, c.code, stdout, stderr)
			case took > bound:
				t.Errorf("%s: took %v, over %v", what, took, bound)
			case strings.Contains(stderr, "panic") || strings.Contains(stderr, "internal error"):
				t.Errorf("%s: %s", what, stderr)
			case c.args[0] == "run" && code != 0 && !strings.Contains(stderr, f.hint) && (code != 3 || !strings.Contains(stderr, "--timeout allows more")):
				t.Errorf("%s: %q, want the hint %q", what, stderr, f.hint)
			case c.args[0] == "run" && code == 0 && stdout != f.hint:
				t.Errorf("%s: %q, want %q", what, stdout, f.hint)
			case c.args[0] == "check" && code == 1 && !strings.Contains(stdout, "resource limit") && !strings.Contains(stdout, "got out of fuel") && !strings.Contains(stdout, "timed out"):
				t.Errorf("%s: a failure that does not name the limit: %s", what, stdout)
			}
		}
		if f.static == 0 {
			if _, err := os.Stat(filepath.Join(out, "rules.tex")); err != nil {
				t.Errorf("%s: render -o wrote nothing: %v", f.name, err)
			}
		}
	}
}

// headWriter keeps the first 64 KiB written to it, and counts the rest: a command's
// output kept whole (a trace of a term that doubles each step) would be the test's
// heap, which --memory bounds in-process.
type headWriter struct {
	head []byte
	n    int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := 64<<10 - len(w.head); room > 0 {
		w.head = append(w.head, p[:min(room, len(p))]...)
	}
	w.n += len(p)
	return len(p), nil
}

func (w *headWriter) String() string { return string(w.head) }
