package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive/internal/testenv"
)

// command runs the command on args; it returns the exit status, standard output
// and standard error.
func command(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestEngineFlag: --engine compiled runs a rule file's program on the compiled
// engine (the factorial of testdata/rules/cbv/fact.term is 6, its expectation
// comment says, and so is a gradual program under a rule file of the cast
// semantics: arith.gtlc's expectation, -2); an engine of another name is a usage
// error; a trace, which shows a run's states, is refused by the compiled engine with
// the engine that shows them.
func TestEngineFlag(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	fact := filepath.Join("..", "..", "testdata", "rules", "cbv", "fact.term")
	if code, out, errOut := command("run", "--engine", "compiled", "--stage", "machine", fact); code != 0 || strings.TrimSpace(out) != "6" {
		t.Errorf("run --engine compiled: exit %d, %q %q; want 6", code, out, errOut)
	}
	arith := filepath.Join("..", "..", "testdata", "gradual", "arith.gtlc")
	ed := filepath.Join("..", "..", "gradual", "rules", "ed.sem")
	if code, out, errOut := command("run", "--engine", "compiled", "--stage", "interp", "--semantics", ed, arith); code != 0 || strings.TrimSpace(out) != "-2" {
		t.Errorf("run --engine compiled --semantics ed.sem: exit %d, %q %q; want -2", code, out, errOut)
	}
	if code, _, errOut := command("run", "--engine", "jit", fact); code != 2 || !strings.Contains(errOut, `unknown engine "jit"`) {
		t.Errorf("run --engine jit: exit %d, %q; want a usage error", code, errOut)
	}
	if code, _, errOut := command("bench", "--engine", "jit", "--program", "fib-typed"); code != 2 || !strings.Contains(errOut, `unknown engine "jit"`) {
		t.Errorf("bench --engine jit: exit %d, %q; want a usage error", code, errOut)
	}
	if code, _, errOut := command("trace", "--engine", "compiled", "--stage", "machine", fact); code == 0 || !strings.Contains(errOut, "--engine tables") {
		t.Errorf("trace --engine compiled: exit %d, %q; want a refusal naming --engine tables", code, errOut)
	}
}

// TestCheckEngine: check --engine compiled runs cbv.sem's corpus on the compiled
// stages, each program's expectation holding (its comment's answer), the compile
// stage among them: no run skipped.
func TestCheckEngine(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	dir := filepath.Join("..", "..", "testdata", "rules", "cbv")
	code, out, errOut := command("check", "--engine", "compiled", "--stage", "machine,interp", dir)
	if code != 0 || !strings.Contains(out, " 0 failed") {
		t.Errorf("check --engine compiled: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = command("check", "--engine", "compiled", dir)
	if code != 0 || !strings.Contains(out, " 0 failed") || strings.Contains(out, "skipped") {
		t.Errorf("check --engine compiled, every stage: exit %d, want every run on the compiled engine, none skipped\n%s%s", code, out, errOut)
	}
}

// TestEngineStages: the stages a command runs on the compiled engine are the six it
// has: compare runs them all, and they agree (arith.gtlc under ed.sem: -2); run with
// no --stage runs the last stage (compile), as --stage compile does.
func TestEngineStages(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	arith := filepath.Join("..", "..", "testdata", "gradual", "arith.gtlc")
	ed := filepath.Join("..", "..", "gradual", "rules", "ed.sem")
	code, out, errOut := command("compare", "--engine", "compiled", "--semantics", ed, arith)
	if code != 0 || strings.Contains(out, "SKIP") ||
		!strings.Contains(out, "all stages agree") || strings.Count(out, " -2 ") != 6 {
		t.Errorf("compare --engine compiled: exit %d, want six stages agreeing on -2, none skipped\n%s%s", code, out, errOut)
	}
	code, out, errOut = command("run", "--json", "--engine", "compiled", "--semantics", ed, arith)
	if code != 0 || !strings.Contains(out, `"stage":"compile"`) || !strings.Contains(out, `"answer":"-2"`) {
		t.Errorf("run --engine compiled, no --stage: exit %d, want compile's -2\n%s%s", code, out, errOut)
	}
	code, out, errOut = command("run", "--json", "--engine", "compiled", "--stage", "compile", "--semantics", ed, arith)
	if code != 0 || !strings.Contains(out, `"stage":"compile"`) || !strings.Contains(out, `"answer":"-2"`) {
		t.Errorf("run --engine compiled --stage compile: exit %d, want compile's -2\n%s%s", code, out, errOut)
	}
}

// TestFuzzEngine: fuzz --engine compiled checks cbv.sem's compiled stages against its
// tables on random programs, and says so; an unknown engine is a usage error.
func TestFuzzEngine(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	cbv := filepath.Join("..", "..", "testdata", "rules", "cbv.sem")
	code, out, errOut := command("fuzz", "--calculus", "rules", "--rules", cbv, "--props", "lockstep", "--engine", "compiled", "--count", "40", "--seed", "3", "--jobs", "1")
	if code != 0 || !strings.Contains(out, "rules: 40 programs") || !strings.Contains(out, "lockstep 40 programs on the compiled engine against the tables' reference") {
		t.Errorf("fuzz --engine compiled: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := command("fuzz", "--calculus", "rules", "--rules", cbv, "--engine", "jit"); code != 2 || !strings.Contains(errOut, `unknown engine "jit"`) {
		t.Errorf("fuzz --engine jit: exit %d, %q; want a usage error", code, errOut)
	}
}

// TestEngineRefusedFile: a rule file no derived stage runs (amb.sem: its relation is
// non-deterministic, and derive --go refuses it too) runs on no stage of the compiled
// engine, and each command says so rather than pass with nothing checked: compare
// and fuzz are usage errors (exit 2) that give the reason, check runs nothing, which
// is an error too. (Since the eleventh session of 2026-12-07 the compiled engine runs
// every deterministic rule file, a calculus's own hooks and prims called back and
// its own atom types' values kept in the workbench: internal/compiled's TestOwnHooks
// and TestOwnAtoms. The command line reads rule files with the default hooks only.)
func TestEngineRefusedFile(t *testing.T) {
	testenv.NeedCompiledEngine(t)
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "rules", "amb.sem"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	amb := filepath.Join(dir, "amb")
	if err := os.MkdirAll(amb, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(amb+".sem", src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(amb, "one.term"), []byte("; expect: 3\n(add 1 (amb 2 3))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	why := "is non-deterministic"
	code, _, errOut := command("compare", "--engine", "compiled", filepath.Join(amb, "one.term"))
	if code != 2 || !strings.Contains(errOut, "no stage of rules runs the program") || !strings.Contains(errOut, why) {
		t.Errorf("compare --engine compiled of amb.sem: exit %d, %q; want a usage error with the reason", code, errOut)
	}
	code, _, errOut = command("fuzz", "--calculus", "rules", "--rules", amb+".sem", "--engine", "compiled", "--count", "5")
	if code != 2 || !strings.Contains(errOut, "no stage runs") || !strings.Contains(errOut, why) {
		t.Errorf("fuzz --engine compiled of amb.sem: exit %d, %q; want a usage error with the reason", code, errOut)
	}
	code, out, errOut := command("check", "--engine", "compiled", amb)
	if code == 0 || !strings.Contains(out+errOut, "check ran nothing") || !strings.Contains(out, why) {
		t.Errorf("check --engine compiled of amb.sem's program: exit %d, want nothing run, and why\n%s%s", code, out, errOut)
	}
}
