package gradual

import (
	"fmt"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/closures"
	"github.com/interderive/interderive/compile"
	"github.com/interderive/interderive/cps2"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/interp"
	"github.com/interderive/interderive/machine"
	"github.com/interderive/interderive/reduction"
	"pgregory.net/rapid"
)

// TestMain runs rapid properties with the project's number of checks.
func TestMain(m *testing.M) { testenv.Main(m) }

// The tests of this package run the calculus on its stages through Program.Run and
// the workbench's engines, as the command does. The registry (internal/calculi)
// imports this package, so that its tests cannot import it: they list its stages
// (stages), and an external test (registry_test.go) checks that the list is the
// registry's.

// stages are the stages of the derivation, in order, the reduction semantics first:
// internal/calculi.Stages.
func stages() []interderive.Stage {
	return []interderive.Stage{reduction.Stage{}, closures.Stage{}, machine.Stage{}, cps2.Stage{}, interp.Stage{}, compile.Stage{}}
}

// newBench is a workbench of the gradual calculi alone, on stages().
func newBench(t testing.TB) *workbench.Workbench {
	t.Helper()
	w, err := workbench.New([]workbench.Calculus{Calculus}, stages())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// The merging modes: unmerged, the reference (spec §4), and merged (spec §6), which
// every semantics can run in, though merging preserves answers only under LD and LUD
// (g.MergesSafely).
var (
	unmerged = Calculus.Modes(g.LD.Name())[0]
	merged   = Calculus.Modes(g.LD.Name())[1]
)

// modes are the merging modes, the reference first.
func modes() []workbench.Mode { return []workbench.Mode{unmerged, merged} }

// run is one run of a program on a stage: its answer (or error) and its contractions.
type run struct {
	answer g.Answer
	err    error
	rules  []string
}

// runOn runs p on stage s under the semantics named variant, in the merging mode of
// opts (Unmerged or Merged: a test says which, rather than take each stage's
// default), recording its contractions.
func runOn(p workbench.Program, s interderive.Stage, variant string, opts interderive.Options) run {
	var r run
	opts.OnContract = func(rule string) { r.rules = append(r.rules, rule) }
	out, err := p.Run(s, variant, opts)
	r.err = err
	if err == nil {
		r.answer = out.Answer.(g.Answer)
	}
	return r
}

// String is the outcome of the run: its answer, or its error.
func (r run) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	return r.answer.String()
}

// describe prints a program in its input syntax, and for GTLC the casts that cast
// insertion made, with their positional labels.
func describe(p program) string {
	if p.lang == cast {
		return "cast:  " + g.Format(p.term)
	}
	return "gtlc:  " + g.Format(p.source) + "\ncasts: " + g.Format(p.term)
}

// castProgram is a cast-calculus term as a program (which the type checker may not
// have seen: a stuck term).
func castProgram(e g.Expr) program { return program{lang: cast, source: e, term: e} }

// parseCast parses a cast-calculus program.
func parseCast(t testing.TB, src string) program {
	t.Helper()
	e, err := g.Parse([]byte(src), g.CastCalculus)
	if err != nil {
		t.Fatal(err)
	}
	return castProgram(e)
}

// language is one of the two program generators of the differential tests.
type language struct {
	name string
	cfg  gradualgen.Config
}

// languages are GTLC through cast insertion, and the cast calculus with explicit
// coercions and blame (with the injections of the semantics' strategy).
func languages(sem g.Semantics) []language {
	return []language{
		{gtlc, gradualgen.Config{}},
		{cast, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem)}},
	}
}

// fromTerm makes a generated term a program: a GTLC program has its casts inserted, a
// cast-calculus one is type-checked. t fails on a program the checkers reject.
func fromTerm(t interface{ Fatalf(string, ...any) }, cfg gradualgen.Config, e g.Expr) program {
	if !cfg.Cast {
		term, _, err := g.InsertCasts(e)
		if err != nil {
			t.Fatalf("generated GTLC program rejected: %v\n%s", err, g.Format(e))
		}
		return program{lang: gtlc, source: e, term: term}
	}
	if _, err := g.TypeOf(e); err != nil {
		t.Fatalf("generated cast-calculus program ill-typed: %v\n%s", err, g.Format(e))
	}
	return castProgram(e)
}

// drawProgram draws a program of the configuration's language and checks that it is
// well typed.
func drawProgram(t *rapid.T, cfg gradualgen.Config) program {
	return fromTerm(t, cfg, gradualgen.Program(t, cfg))
}

// withSemantics is a program run under a semantics of its own, whatever the variant
// named (the fifth semantics of fifth_test.go, which no registry lists).
type withSemantics struct {
	program
	sem g.Semantics
}

// Run is program.Run under p.sem.
func (p withSemantics) Run(stage interderive.Stage, _ string, opts interderive.Options) (workbench.Outcome, error) {
	st, ok := g.StageOf(stage)
	if !ok {
		return workbench.Outcome{}, fmt.Errorf("the %s stage does not run the gradual calculi", stage.Name())
	}
	steps := 0
	on := opts.OnContract
	opts.OnContract = func(rule string) {
		steps++
		if on != nil {
			on(rule)
		}
	}
	a, err := st.Eval(p.sem, g.Translate(p.sem, p.term), opts)
	if err != nil {
		return workbench.Outcome{Steps: steps}, interderive.InStage(err, stage.Name())
	}
	return outcome(a, steps, opts)
}
