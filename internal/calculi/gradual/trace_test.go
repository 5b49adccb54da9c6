package gradual

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
)

// load loads a program of one of the languages.
func load(t testing.TB, lang, src string) workbench.Program {
	t.Helper()
	p, err := Calculus.Load(lang, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p
}

// TestTraceClosuresNamesEnvironments: the calculus of closures' trace of PEPM 2014's
// example, by hand: two expansions reach the application of closures; beta binds x to
// the value <Int!> 1[ε] in front of the lambda's environment ε, an environment the
// trace names ρ1 where it first appears and uses by name after; the lookup of x in ρ1
// finds the value. The trace is the stage's lane (workbench.Trace): under
// "contraction 1: beta", the steps that reach it, the environment's definition before
// the first line that names it; under "after the last contraction", the lookup; then
// the answer. The header shows the program as written, its cast untranslated.
func TestTraceClosuresNamesEnvironments(t *testing.T) {
	p := load(t, cast, `(\x:Dyn. x) (<Dyn <= Int>^l1 1)`)
	var b bytes.Buffer
	if _, err := newBench(t).Trace(&b, Calculus, p, "closures", "ed", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	want := `semantics ed, stage closures
program    (\x:Dyn. x) (<Dyn <= Int>^l1 1)

contraction 1: beta
  expand: ((\x:Dyn. x) (<Int!> 1))[ε]  ~>  ((\x:Dyn. x)[ε]) · ((<Int!> 1)[ε])
  expand: (<Int!> 1)[ε]  ~>  <Int!> 1[ε]
  ρ1 = (x ↦ <Int!> 1[ε]) : ε
  decompose: []  with redex  ((\x:Dyn. x)[ε]) · (<Int!> 1[ε])
  contract:  x[ρ1]

after the last contraction
  lookup: x[ρ1]  ~>  <Int!> 1[ε]

answer     <Int!> 1
`
	if b.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", b.String(), want)
	}
}

// nestedLets is n nested lets of functions, each calling the one before, applied to 0:
// every function's closure holds the environment of all the ones before it.
func nestedLets(n int) string {
	var b strings.Builder
	b.WriteString(`let f1 = \y:Int. y in `)
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, `let f%d = \y:Int. f%d y in `, i, i-1)
	}
	fmt.Fprintf(&b, "f%d 0", n)
	return b.String()
}

// TestTraceClosuresGrowsWithTheRun: with its environments printed whole, the closures'
// trace of 16 nested lets of functions was 8.3 MB, doubling with every let; named, it
// grows with the run: the steps and the terms they show are linear in the number of
// lets, so the trace is at most quadratic, about 4 times longer for twice as many.
func TestTraceClosuresGrowsWithTheRun(t *testing.T) {
	w := newBench(t)
	size := func(n int) int {
		var b bytes.Buffer
		if _, err := w.Trace(&b, Calculus, load(t, gtlc, nestedLets(n)), "closures", "ed", "", interderive.Options{}); err != nil {
			t.Fatal(err)
		}
		return b.Len()
	}
	if s8, s16 := size(8), size(16); s16 > 6*s8 {
		t.Errorf("the trace of 8 lets is %d bytes, of 16 lets %d: more than quadratic", s8, s16)
	}
}
