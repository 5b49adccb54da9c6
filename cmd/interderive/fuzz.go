package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/dpl"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/dplgen"
	"github.com/interderive/interderive/internal/driver"
	"github.com/interderive/interderive/internal/gradualgen"
	"github.com/spf13/cobra"
	"pgregory.net/rapid"
)

// fuzzProps are the properties fuzz can check, with their calculus ("" for both) and
// what a failure is called.
var fuzzProps = []struct{ name, calculus, failure string }{
	{"lockstep", "", "disagreement"},
	{"preservation", "gradual", "progress or preservation fails"},
	{"blame", "gradual", "the blame theorem fails"},
	{"seq", "gradual", "seq is not correct"},
	{"interpolation", "dpl", "Proposition 3.5 fails"},
	{"finite-differences", "dpl", "finite differences disagree with the derivative"},
}

// propSet is a selection of fuzzProps, by name.
type propSet map[string]bool

// parseProps reads --props: all, or a comma-separated list of fuzzProps' names.
func parseProps(list string) (propSet, error) {
	props := propSet{}
	for _, name := range splitList(list) {
		known := name == "all"
		for _, p := range fuzzProps {
			if name == "all" || p.name == name {
				props[p.name], known = true, true
			}
		}
		if !known {
			return nil, fmt.Errorf("unknown property %q (--props takes all or a list of lockstep, preservation, blame, seq, interpolation, finite-differences)", name)
		}
	}
	return props, nil
}

// of lists, in order, the selected properties that apply to a calculus.
func (props propSet) of(calculus string) []string {
	var names []string
	for _, p := range fuzzProps {
		if props[p.name] && (p.calculus == "" || p.calculus == calculus) {
			names = append(names, p.name)
		}
	}
	return names
}

// failure is what a failure of the named property is called.
func failure(prop string) string {
	for _, p := range fuzzProps {
		if p.name == prop {
			return p.failure
		}
	}
	return "failure"
}

func newFuzzCmd(stdout, stderr io.Writer) *cobra.Command {
	var calculus, stageList, semantics, ad, out, propList string
	var count, size, jobs int
	var seed uint64
	var budget time.Duration
	cmd := &cobra.Command{
		Use:   "fuzz [flags]",
		Short: "Check random well-typed programs: every stage in lockstep, and the metatheory",
		Long: `Fuzz generates random well-typed programs (the generators of the property tests) and
checks each under a random requested semantics (gradual, in both merging modes) or under
every requested differentiation strategy (dpl). --props selects the properties (all, the
default, or a comma-separated list):

  lockstep            every stage gives the reference semantics' answer and contraction
                      sequence, and (dpl) every rd's trace and derivative (both calculi)
  preservation        the reference semantics makes progress and preserves the
                      program's type at every step (gradual)
  blame               the blame theorem: blame never falls on a label carried only by
                      casts that respect the subtyping of the semantics' strategy
                      (gradual; LD, ED: <:D; LUD, EUD: <:UD; custom semantics: the label
                      must be the program's)
  seq                 seq correctness: for a random pair of well-typed normal forms,
                      seq(c1, c2) is the normal form that reduction reaches from c1 ; c2
                      (gradual)
  interpolation       Proposition 3.5: M => V iff M ~> C and C => V, to the bit (dpl)
  finite-differences  Theorems 6.1 and 6.2: for a random body and point, 1.rd[a](x. N)
                      agrees with central differences of x -> N (dpl)

--stage limits lockstep to some stages (the reduction semantics, the reference, always
runs).

Fuzz runs in rounds of up to 100 programs, on every core (--jobs). With --seed S, round
i draws from a seed derived from S and i, so that the same --seed and --count check the
same programs on any number of cores; without it a random seed is drawn, and printed.
The summary says how many programs were checked and how many of them were distinct.

A failure is shrunk to a small program, printed, and written to a new file in --out
(an existing file is never overwritten; a write that fails loses nothing, the program
is printed above); the exit status is then 1. For lockstep, the file has the reference answer as its expectation
comment, ready for testdata. For the other properties, the file states the violation in
comments and has no expectation (which answer is right is not known), so that it reproduces
the failure with run or trace rather than check: the cast-calculus form of the program
for blame (its labels are those of the message), the derivative 1.rd[a](x:T. N) for
finite-differences, and for seq, which no stage calls, the composition applied to a
value, <c1 ; c2> v, whose trace shows reduction normalising c1 ; c2.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			semNames, err := nameList("semantics", semantics)
			if err != nil {
				return err
			}
			sems := driver.CastSemantics()
			if semNames != nil {
				sems = nil
				for _, name := range semNames {
					s, _ := g.Lookup(name, driver.CastSemantics()...)
					sems = append(sems, s)
				}
			}
			adNames, err := nameList("ad", ad)
			if err != nil {
				return err
			}
			ads := dpl.Differentiators()
			if adNames != nil {
				ads = nil
				for _, name := range adNames {
					d, _ := dpl.LookupDifferentiator(name)
					ads = append(ads, d)
				}
			}
			stageNames, err := nameList("stage", stageList)
			if err != nil {
				return err
			}
			props, err := parseProps(propList)
			if err != nil {
				return err
			}
			if size < 1 || size > maxFuzzSize {
				return fmt.Errorf("--size must be between 1 and %d, not %d", maxFuzzSize, size)
			}
			castStages, dplStages := fuzzStages(stageNames)
			checks := map[string]func(*rapid.T, *counterexample){
				"gradual": func(t *rapid.T, c *counterexample) { fuzzGradual(t, c, castStages, sems, size, props) },
				"dpl":     func(t *rapid.T, c *counterexample) { fuzzDPL(t, c, dplStages, ads, size, props) },
			}
			var names []string
			switch calculus {
			case "all":
				names = []string{"gradual", "dpl"}
			case "gradual", "dpl":
				names = []string{calculus}
			default:
				return fmt.Errorf("--calculus must be gradual, dpl or all, not %q", calculus)
			}
			names = slices.DeleteFunc(names, func(name string) bool { return len(props.of(name)) == 0 })
			if len(names) == 0 {
				return fmt.Errorf("--props %s selects no property of --calculus %s", propList, calculus)
			}
			// rapid reads its settings from the standard flag set, as in a test.
			testing.Init()
			if err := flag.CommandLine.Parse(nil); err != nil {
				return err
			}
			if jobs <= 0 {
				jobs = runtime.NumCPU()
			}
			failed := false
			for _, name := range names {
				res := fuzz(checks[name], fuzzConfig{count: count, jobs: jobs, budget: budget, seed: seed}, progress(stderr, name))
				if res.found == nil {
					fmt.Fprintf(stdout, "%s: %d programs (%d distinct), every property holds (%s); seed %d\n",
						name, res.checked, res.distinct, strings.Join(props.of(name), ", "), res.seed)
					continue
				}
				failed = true
				reportCounterexample(stdout, stderr, name, res, out)
			}
			if failed {
				return &exitError{code: exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&calculus, "calculus", "all", "gradual, dpl or all")
	cmd.Flags().StringVar(&stageList, "stage", "all", "stages checked against the reduction semantics (the reference, always run): all or a comma-separated list")
	cmd.Flags().IntVar(&count, "count", 1000, "programs per calculus")
	cmd.Flags().DurationVar(&budget, "time", 0, "stop each calculus after this long (0: run --count programs)")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "the seed each round's is derived from, for a reproducible run with the same --count (0: a random one, printed)")
	cmd.Flags().IntVar(&size, "size", 5, fmt.Sprintf("depth of the generated programs, 1 to %d (their size grows linearly with it: gradualgen.NodeBudget)", maxFuzzSize))
	cmd.Flags().StringVar(&propList, "props", "all", "properties to check: all or a comma-separated list of lockstep, preservation, blame, seq, interpolation, finite-differences")
	cmd.Flags().StringVar(&semantics, "semantics", "all", "gradual: cast semantics to check, all or a comma-separated list")
	cmd.Flags().StringVar(&ad, "ad", "all", "dpl: differentiation strategies to check, all or a comma-separated list")
	cmd.Flags().StringVar(&out, "out", ".", "directory for the shrunk counterexample")
	cmd.Flags().IntVar(&jobs, "jobs", 0, "parallel checkers (0: one per core)")
	return cmd
}

// fuzzGradual checks the selected gradual properties on one draw: a semantics, a pair
// of its normal forms (seq), and a random program, GTLC or cast calculus, under that
// maxFuzzSize bounds --size. The generators' node budget keeps a program's size
// linear in its depth (100 compound terms a level), so the bound is where a program
// takes the reference semantics, quadratic in the term, seconds rather than
// milliseconds: --size 1000 checks about a program a second.
const maxFuzzSize = 1000

// semantics, unmerged and merged (lockstep on every stage, preservation, blame).
func fuzzGradual(t *rapid.T, c *counterexample, stages []driver.CastStage, sems []g.Semantics, size int, props propSet) {
	sem := rapid.SampledFrom(sems).Draw(t, "semantics")
	drawn := sem.Name() // what identifies the case: the semantics, the composition, the program
	if props["seq"] {
		comp := driver.DrawComposition(t, sem)
		shown := g.Format(&g.Coerce{C: g.Then(comp.C1, comp.C2), X: valueOf(comp.S)})
		drawn += "\n" + shown
		if _, err := driver.SeqCorrect(sem, comp.C1, comp.C2); err != nil {
			c.drawn(drawn)
			c.record("seq", shown, "cast", err.Error(),
				fmt.Sprintf("c1 : %s => %s, c2 : %s => %s. No stage calls seq: the program applies c1 ; c2 to a value,",
					g.FormatType(comp.S), g.FormatType(comp.T), g.FormatType(comp.T), g.FormatType(comp.U)),
				fmt.Sprintf("and interderive trace --semantics %s on it shows reduction normalising c1 ; c2.", sem.Name()))
			t.Fatalf("%v", err)
		}
	}
	if !props["lockstep"] && !props["preservation"] && !props["blame"] {
		c.drawn(drawn)
		return
	}
	var src, cast g.Expr // the program as written, and its cast-calculus form
	ext := "cast"
	if rapid.Bool().Draw(t, "gtlc") {
		src, ext = gradualgen.Program(t, gradualgen.Config{Depth: size}), "gtlc"
		var err error
		if cast, _, err = g.InsertCasts(src); err != nil {
			t.Fatalf("generated program rejected: %v", err)
		}
	} else {
		src = gradualgen.Program(t, gradualgen.Config{Cast: true, Inj: gradualgen.For(sem), Depth: size})
		cast = src
	}
	c.drawn(drawn + "\n" + ext + ": " + g.Format(src))
	ty, err := g.TypeOf(cast)
	if err != nil {
		t.Fatalf("generated program is ill-typed: %v", err)
	}
	const fuel = 3000
	for _, mode := range []interderive.Merging{interderive.Unmerged, interderive.Merged} {
		if props["preservation"] {
			if err := driver.CastPreservation(sem, g.Translate(sem, cast), ty, 300, mode); err != nil {
				c.record("preservation", g.Format(src), ext, err.Error())
				t.Fatalf("%v", err)
			}
		}
		var ref driver.CastReference
		if props["lockstep"] {
			var d *driver.Disparity
			ref, d = driver.CastLockstep(stages, sem, g.Translate(sem, cast), fuel, mode)
			if d != nil {
				want := ref.Answer.Observe()
				if ref.Err != nil {
					want = fmt.Sprintf("out of fuel\n-- fuel: %d", fuel)
				}
				c.record("lockstep", g.Format(src), ext, d.Error(), fmt.Sprintf("expect[%s]: %s", sem.Name(), want))
				t.Fatalf("%v", d)
			}
		} else if props["blame"] {
			ref.Answer, ref.Err = stages[0].Eval(sem, g.Translate(sem, cast), interderive.Options{Fuel: fuel, Merging: mode})
		}
		// The reference's answer stands for every stage's: lockstep, when selected,
		// checks that they agree with it.
		if props["blame"] && ref.Err == nil {
			if err := driver.BlameSafe(sem, cast, ref.Answer); err != nil {
				c.record("blame", g.Format(cast), "cast", fmt.Sprintf("%v (%s)", err, mode))
				t.Fatalf("%v", err)
			}
		}
	}
}

// valueOf is a value of type ty, for the program that shows a composition.
func valueOf(ty g.Type) g.Expr {
	switch ty := ty.(type) {
	case *g.Arrow:
		return &g.Lam{Param: "x", T: ty.From, Body: valueOf(ty.To)}
	case g.DynType:
		return &g.Coerce{C: &g.Inj{T: g.Int}, X: &g.IntLit{N: 1}}
	}
	if ty == g.Bool {
		return &g.BoolLit{B: true}
	}
	return &g.IntLit{N: 1}
}

// fuzzDPL checks the selected dpl properties on one draw, under every strategy: a
// random program (lockstep on every stage, interpolation) and a random body and point
// (finite differences, with bodies two levels shallower than the programs, as in the
// tests).
func fuzzDPL(t *rapid.T, c *counterexample, stages []driver.DPLStage, ads []dpl.Differentiator, size int, props propSet) {
	const fuel = 20_000
	var prog dpl.Term
	if props["lockstep"] || props["interpolation"] {
		prog = dplgen.Program(t, dplgen.Full(size))
	}
	var grad driver.GradientCase
	drawn := ""
	if prog != nil {
		drawn = dpl.Format(prog)
	}
	if props["finite-differences"] {
		grad = driver.DrawGradientCase(t, max(1, size-2))
		drawn += "\n" + dpl.Format(grad.Program())
	}
	c.drawn(drawn)
	for _, ad := range ads {
		if props["lockstep"] {
			ref, d := driver.DPLLockstep(stages, ad, prog, fuel)
			if d != nil {
				want := ref.Answer.Observe()
				if ref.Err != nil {
					want = fmt.Sprintf("out of fuel\n-- fuel: %d", fuel)
				}
				c.record("lockstep", dplSource(prog), "dpl", d.Error(), fmt.Sprintf("expect[%s]: %s", ad.Name(), want))
				t.Fatalf("%v", d)
			}
		}
		if props["interpolation"] {
			if err := driver.Interpolation(ad, prog, fuel); err != nil {
				c.record("interpolation", dplSource(prog), "dpl", err.Error())
				t.Fatalf("%v", err)
			}
		}
		if props["finite-differences"] {
			if err := driver.FiniteDifferences(ad, grad.Body, grad.T, grad.Point, fuel); err != nil {
				c.record("finite-differences", dplSource(grad.Program()), "dpl", err.Error())
				t.Fatalf("%v", err)
			}
		}
	}
}

// generatedName matches a name made by a dpl.Names supply (x#3), which programs may
// not write.
var generatedName = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_]*)#([0-9]+)`)

// dplSource prints a generated program so that the command reads it back: generated
// names x#3 become x_g3 (a name the generators never use), if the result parses.
func dplSource(t dpl.Term) string {
	text := dpl.Format(t)
	renamed := generatedName.ReplaceAllString(text, "${1}_g$2")
	if _, err := dpl.Parse([]byte(renamed)); err != nil {
		return text
	}
	return renamed
}

// fuzzStages selects the stages lockstep compares with the reduction semantics, which
// is always the first (the reference): every stage for nil.
func fuzzStages(names []string) ([]driver.CastStage, []driver.DPLStage) {
	want := func(name string) bool { return names == nil || name == "reduction" || slices.Contains(names, name) }
	var cast []driver.CastStage
	for _, st := range driver.CastStages() {
		if want(st.Name) {
			cast = append(cast, st)
		}
	}
	var dstages []driver.DPLStage
	for _, st := range driver.DPLStages() {
		if want(st.Name) {
			dstages = append(dstages, st)
		}
	}
	return cast, dstages
}

// reportCounterexample prints a shrunk counterexample, then writes it to a new file in
// dir: printed first, so that a write that fails (a directory that is not there, a
// file of that name already there, which is never overwritten) loses nothing.
func reportCounterexample(stdout, stderr io.Writer, name string, res fuzzResult, dir string) {
	c := res.found
	text := "-- found by interderive fuzz\n"
	for _, line := range c.comment {
		text += "-- " + line + "\n"
	}
	text += c.program + "\n"
	fmt.Fprintf(stdout, "%s: %s (%d runs, shrinking included; seed %d, round %d):\n%s", name, failure(c.prop), res.checked, res.seed, c.round, text)
	path := filepath.Join(dir, fmt.Sprintf("fuzz-%s-%s-%d.%s", name, c.prop, time.Now().Unix(), c.ext))
	f, err := createOutput(path, nil, false)
	if err == nil {
		_, err = io.WriteString(f, text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: the counterexample above is not saved: %s\n", name, interderive.EscapeLines(err.Error()))
		return
	}
	fmt.Fprintf(stdout, "%s: saved to %s\n", name, interderive.Escape(path))
}
