package calculi_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
)

// TestBenchSuite loads the benchmark suite (testdata/bench) and runs every program
// (every typing configuration) at its smallest size on every stage of its calculus,
// under the default variant: every stage agrees, and with the answer the program states
// at that size, if it states one.
func TestBenchSuite(t *testing.T) {
	w := newBench(t)
	progs, err := w.LoadBench("../../testdata/bench")
	if err != nil || len(progs) == 0 {
		t.Fatalf("%d programs, %v", len(progs), err)
	}
	for _, p := range progs {
		variant, err := w.VariantFor(p.Calculus, "")
		if err != nil {
			t.Fatal(err)
		}
		// Under -short every 4th configuration, the fully dynamic one first (testenv.Sample);
		// the full run takes them all.
		for _, cf := range testenv.Sample(p.Configurations()) {
			size := cf.Program.Sizes[0]
			var answers []string
			for _, s := range w.StagesOf(p.Calculus) {
				r := workbench.RunOnce(cf.Program, size, s, variant, interderive.Options{})
				if r.Err != nil || r.Mismatch != "" {
					t.Errorf("%s [%s] at %s on %s: %q (want %q), %v", p.Name, cf.Label(), size, s.Name(), r.Answer, r.Mismatch, r.Err)
				}
				answers = append(answers, r.Answer)
			}
			for _, a := range answers[1:] {
				if a != answers[0] {
					t.Errorf("%s [%s]: the stages answer %v", p.Name, cf.Label(), answers)
				}
			}
		}
	}
}

// TestConfigurations expands two optional annotations of a GTLC program, one written
// twice, into the four configurations, fully dynamic first: an annotation dropped is
// Dyn, the gradual calculi's dynamic type.
func TestConfigurations(t *testing.T) {
	w := newBench(t)
	p, err := w.ParseBench("c.gtlc", []byte("-- sizes: 1\nletrec f: {a:Int} -> Int = \\x:{a:Int}. x in f ({b:Int} 1)"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Configurations() {
		got = append(got, c.Label()+" | "+c.Program.Source("1")[len("-- sizes: 1\n"):])
	}
	want := []string{
		`dynamic | letrec f: Dyn -> Int = \x:Dyn. x in f (Dyn 1)`,
		`a | letrec f: Int -> Int = \x:Int. x in f (Dyn 1)`,
		`b | letrec f: Dyn -> Int = \x:Dyn. x in f (Int 1)`,
		`a,b | letrec f: Int -> Int = \x:Int. x in f (Int 1)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
