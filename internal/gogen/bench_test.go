package gogen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/sem"
)

// BenchmarkGeneratedMachine compares, in one run, the generated machine of
// gradual/rules/ed.sem with the hand-written machine of ed (the target of
// docs/derive-go.md: at most 1.5×), on typed fib 14, and the in-process derived
// machine beside them:
//
//	go test -run XXX -bench GeneratedMachine ./internal/gogen
func BenchmarkGeneratedMachine(b *testing.B) {
	const src = `letrec fib: Int -> Int = \k:Int. if k < 2 then k else fib (k - 1) + fib (k - 2) in fib 14`
	file := "gradual/rules/ed.sem"
	rs, err := gradual.LoadRuleSemantics(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	e, err := g.Parse([]byte(src), g.GTLC)
	if err != nil {
		b.Fatal(err)
	}
	if e, _, err = g.InsertCasts(e); err != nil {
		b.Fatal(err)
	}
	var labels gradual.Labels
	term, err := rs.Term(e, &labels)
	if err != nil {
		b.Fatal(err)
	}
	// The generated machine: its own timing of many runs (-repeat).
	bin := build(b, file)
	prog := filepath.Join(b.TempDir(), "fib.term")
	if err := os.WriteFile(prog, []byte(sem.Format(term)), 0o644); err != nil {
		b.Fatal(err)
	}
	generated := func(n int) time.Duration {
		cmd := exec.Command(bin, "-stage", "machine", "-repeat", strconv.Itoa(n), prog)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("%v: %s", err, stderr.String())
		}
		if string(out) != "377\n" {
			b.Fatalf("generated machine: fib 14 is %q", out)
		}
		m := regexp.MustCompile(`\((\d+) ns\)`).FindStringSubmatch(stderr.String())
		if m == nil {
			b.Fatalf("no time in %q", stderr.String())
		}
		ns, _ := strconv.Atoi(m[1])
		return time.Duration(ns)
	}
	// The hand-written machine of ed, on the program as the workbench runs it.
	w, err := workbench.New([]workbench.Calculus{gradual.Calculus}, []interderive.Stage{machine.Stage{}})
	if err != nil {
		b.Fatal(err)
	}
	c, err := w.CalculusNamed("gradual")
	if err != nil {
		b.Fatal(err)
	}
	p, err := c.Load("gtlc", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	hand := func(n int) time.Duration {
		start := time.Now()
		for range n {
			if _, err := p.Run(machine.Stage{}, "ed", interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start) / time.Duration(n)
	}
	ds, _ := sem.StageOf(machine.Stage{})
	derived := func(n int) time.Duration {
		start := time.Now()
		for range n {
			if _, err := ds.Eval(rs.Lang, term, interderive.Options{}); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start) / time.Duration(n)
	}
	for b.Loop() {
		gen, h, d := generated(200), hand(200), derived(20)
		b.ReportMetric(float64(gen.Microseconds()), "generated-µs")
		b.ReportMetric(float64(h.Microseconds()), "hand-µs")
		b.ReportMetric(float64(d.Microseconds()), "derived-µs")
		b.ReportMetric(float64(gen)/float64(h), "generated/hand")
		fmt.Fprintf(os.Stderr, "typed fib 14 on the machine: generated %v, hand-written (ed) %v, in-process derived %v: generated/hand %.2f×\n", gen, h, d, float64(gen)/float64(h))
	}
}
