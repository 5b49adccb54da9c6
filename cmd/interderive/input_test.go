package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/interderive/interderive/internal/workbench"
)

// TestStandardInput: - reads the program from standard input in run, trace, check
// and compare, with --lang; without it, the error names --lang.
func TestStandardInput(t *testing.T) {
	tests := []struct {
		stdin  string
		args   []string
		stdout string
		code   int
	}{
		{"inc 3", []string{"run", "--lang", "gtlc", "-"}, "4\n", 0},
		{"1.rd[3](x:real. x * x)", []string{"run", "--lang", "dpl", "-"}, "6\n", 0},
		{"-- expect: 4\ninc 3", []string{"check", "--lang", "gtlc", "--stage", "interp", "-"}, "1 file, 6 runs: 6 passed, 0 failed\n", 0},
		{"-- expect: 5\ninc 3", []string{"check", "--lang", "gtlc", "--stage", "interp", "--semantics", "ed", "-"},
			"FAIL <stdin>\n    expected 5, got 4 on interp under ed\n1 file, 1 run: 0 passed, 1 failed\n", 1},
	}
	for _, tt := range tests {
		stdout, stderr, code := runCmdIn(tt.stdin, tt.args...)
		if stdout != tt.stdout || code != tt.code {
			t.Errorf("%s: %q, exit %d, want %q, %d (stderr %q)", strings.Join(tt.args, " "), stdout, code, tt.stdout, tt.code, stderr)
		}
	}
	if stdout, _, code := runCmdIn("inc 3", "trace", "--lang", "gtlc", "-"); code != 0 || !strings.Contains(stdout, "answer     4") {
		t.Errorf("trace -: exit %d\n%s", code, stdout)
	}
	// A syntax error is positioned in <stdin>.
	if _, stderr, code := runCmdIn("1 +", "run", "--lang", "gtlc", "-"); code != 2 || !strings.HasPrefix(stderr, "<stdin>:1:4: ") {
		t.Errorf("syntax error: exit %d, %q", code, stderr)
	}
	for _, cmd := range []string{"run", "trace", "check", "compare"} {
		if stdout, stderr, code := runCmdIn("inc 3", cmd, "-"); code != 2 || !strings.Contains(stdout+stderr, "standard input (-) needs --lang") {
			t.Errorf("%s - without --lang: exit %d, %q %q", cmd, code, stdout, stderr)
		}
	}
	// compare reads the command's standard input too.
	if stdout, stderr, code := runCmdIn("inc 3", "compare", "--lang", "gtlc", "--semantics", "ed", "-"); code != 0 || !strings.Contains(stdout, "all stages agree under ed") {
		t.Errorf("compare -: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestInputLimits: an input longer than workbench.MaxSource is refused after reading one
// byte past the limit, not read whole (/dev/zero never ends; a sparse file of 2 GB
// would take 2 GB); a named pipe with no writer gives up at --timeout (status 3).
func TestInputLimits(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		start := time.Now()
		_, stderr, code := runCmd("run", "--lang", "gtlc", "/dev/zero")
		if code != 2 || !strings.Contains(stderr, fmt.Sprintf("/dev/zero: longer than %d bytes, the limit (workbench.MaxSource): not read", workbench.MaxSource())) {
			t.Errorf("/dev/zero: exit %d, %q", code, stderr)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("/dev/zero took %s", d)
		}
	}
	sparse := filepath.Join(t.TempDir(), "big.gtlc")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("no sparse file: %v", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	commands := [][]string{{"run", sparse}, {"check", sparse}, {"trace", sparse}}
	if testing.Short() {
		commands = commands[:1] // run alone under -short; the full run: run, check and trace
	}
	for _, args := range commands {
		stdout, stderr, code := runCmd(args...)
		if code != 2 || !strings.Contains(stdout+stderr, fmt.Sprintf("longer than %d bytes", workbench.MaxSource())) {
			t.Errorf("%s: exit %d, %q %q", args[0], code, stdout, stderr)
		}
	}
	runtime.ReadMemStats(&after)
	// Three reads of workbench.MaxSource() bytes each, in buffers that grow by doubling.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(12*workbench.MaxSource()) {
		t.Errorf("reading a 2 GB file allocated %d MB", grew>>20)
	}

	fifo := filepath.Join(t.TempDir(), "pipe.gtlc")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	start := time.Now()
	stdout, stderr, code := runCmd("run", "--timeout", "200ms", fifo)
	if code != 3 || stdout != "" || !strings.Contains(stderr, "pipe.gtlc: reading the input timed out after 200ms") {
		t.Errorf("a pipe with no writer: exit %d, %q, %q", code, stdout, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a pipe with no writer: gave up after %s", d)
	}
}

// TestEscapedEcho: a file name or a source line with terminal control codes is
// echoed with them escaped.
func TestEscapedEcho(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x\x1b[2J.gtlc")
	if err := os.WriteFile(name, []byte("1 + \x1b[2J true"), 0o644); err != nil {
		t.Skipf("no such file name here: %v", err)
	}
	for _, args := range [][]string{{"run", name}, {"check", name}, {"run", filepath.Join(dir, "y\x1b]0;t\a.gtlc")}, {"run", "--stage", "\x1b[2J", name}, {"bench", "--dir", "\x1b[2J"}} {
		stdout, stderr, code := runCmd(args...)
		if code != 2 || strings.ContainsAny(stdout+stderr, "\x1b\a") {
			t.Errorf("%q: exit %d, output %q %q", args, code, stdout, stderr)
		}
	}
	_, stderr, _ := runCmd("run", name)
	if !strings.Contains(stderr, `x\x1b[2J.gtlc:1:5: `) || !strings.Contains(stderr, "\t1 + \\x1b[2J true\n") {
		t.Errorf("stderr %q", stderr)
	}
}
