package gradual

import (
	"errors"
	"fmt"
	"github.com/interderive/interderive/machine"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/internal/workbench"
	"pgregory.net/rapid"
)

// lockstepFuel bounds every run of a random program: the reduction semantics is
// quadratic on purpose, and the generator makes a few loops that never end.
const lockstepFuel = 3000

// lockstep runs p on every stage under the semantics named variant, in the unmerged
// mode of spec §4 (the merging mode, whose contractions differ, has its own tests in
// merge_test.go), each stage in lockstep with the reduction semantics
// (workbench.Lockstep: the same contractions in the same order, the same answer up to
// α-renaming after read-back, or out of fuel at the same point; a well-typed program
// never gets stuck, so any other error is a disparity). It returns the reference's
// run.
func lockstep(w *workbench.Workbench, p workbench.Program, variant string, fuel int) (workbench.Reference, error) {
	ref, d := w.Lockstep(Calculus, p, stages(), variant, unmerged, fuel)
	if d != nil {
		return ref, d
	}
	return ref, nil
}

// referenceAnswer is the reference's answer, if it reached one.
func referenceAnswer(ref workbench.Reference) (g.Answer, bool) {
	a, ok := ref.Outcome.Answer.(g.Answer)
	return a, ok && ref.Err == nil
}

// TestStagesAgreeOnCorpus runs every corpus program on every stage under every
// standard semantics, in lockstep with the reduction semantics.
func TestStagesAgreeOnCorpus(t *testing.T) {
	t.Parallel()
	w := newBench(t)
	files, err := w.SourceFiles([]string{"../../../testdata/gradual"})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, file := range testenv.Sample(files) {
		c, l, err := w.LanguageFor(file, "")
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := c.Load(l.Ext, src)
		if err != nil {
			continue // a type error, on purpose
		}
		for _, sem := range g.Standard() {
			if _, err := lockstep(w, prog, sem.Name(), 20000); err != nil {
				t.Errorf("%s: %v", file, err)
			}
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("no corpus program ran")
	}
}

// TestStagesAgree: on random well-typed programs (GTLC through cast insertion, and the
// cast calculus with explicit coercions and blame), every stage performs the reduction
// semantics' contractions in the same order and reaches the same answer (or runs out
// of fuel at the same point), under every semantics: rapid's checks (1000 by default)
// for each language and semantics. A failure shrinks to a small program, printed in
// the input syntax with the first contraction where the sequences part.
func TestStagesAgree(t *testing.T) {
	t.Parallel()
	w := newBench(t)
	for _, sem := range g.Standard() {
		for _, lang := range languages(sem) {
			t.Run(sem.Name()+"/"+lang.name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					p := drawProgram(t, lang.cfg)
					if _, err := lockstep(w, p, sem.Name(), lockstepFuel); err != nil {
						t.Fatalf("%v\n%s", err, describe(p))
					}
				})
			})
		}
	}
}

// ruleStats counts, over a sample of programs, the programs in which each contraction
// fires and how often it fires in all, with the programs' outcomes.
type ruleStats struct {
	programs, values, blamed, outOfFuel int
	programsWith, total                 map[string]int
}

func newRuleStats() *ruleStats {
	return &ruleStats{programsWith: map[string]int{}, total: map[string]int{}}
}

func (s *ruleStats) add(r run) {
	s.programs++
	switch {
	case errors.Is(r.err, interderive.ErrOutOfFuel):
		s.outOfFuel++
	case r.answer.Blamed:
		s.blamed++
	default:
		s.values++
	}
	seen := map[string]bool{}
	for _, rule := range r.rules {
		s.total[rule]++
		if !seen[rule] {
			seen[rule] = true
			s.programsWith[rule]++
		}
	}
}

func (s *ruleStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs: %d values, %d blame, %d out of fuel\n", s.programs, s.values, s.blamed, s.outOfFuel)
	rules := make([]string, 0, len(s.total))
	for r := range s.total {
		rules = append(rules, r)
	}
	sort.Strings(rules)
	for _, r := range rules {
		fmt.Fprintf(&b, "  %-16s in %4d programs, %6d times\n", r, s.programsWith[r], s.total[r])
	}
	return b.String()
}

// castRules lists the contractions that can fire under sem (spec §3.2, §3.3, §4):
// ArrFail only in the lazy semantics; FailL, FailR and FailFC (which needs the eager
// normal form (c -> d) ; fail^l) only in the eager ones.
func castRules(sem g.Semantics) []string {
	rules := []string{"beta", "delta", "If", "IdCst", "CmpCst", "AppCst", "FailCst", "Blame", "Let", "Letrec",
		"StepCst/IdL", "StepCst/IdR", "StepCst/InOut", "StepCst/Arr", "StepCst/FailCo", "StepCst/InFail"}
	if g.Eager(sem) {
		return append(rules, "StepCst/FailL", "StepCst/FailR", "FailFC")
	}
	return append(rules, "StepCst/ArrFail")
}

// coverageSample is the number of programs the coverage test draws per semantics and
// language, and coverageFloor the number of them (3%) in which every rule of the
// semantics must fire.
const (
	coverageSample = 1000
	coverageFloor  = 30
)

// floorFor is coverageFloor, except for InFail in GTLC, which no GTLC program can
// reach. InFail contracts I! ; fail^l, where fail^l : Dyn => T stands alone. GTLC
// programs have no explicit coercions, so every fail^l comes from an InOut step
// I1! ; I2?^l (or from mkArr in its translation), whose source is I1, not Dyn; and
// composing a Dyn-sourced normal form (id, a projection I?^l ..., or fail) with
// anything yields a bare fail only if that form was already a bare Dyn-sourced fail.
// By induction no Dyn-sourced bare fail^l ever exists, in the lazy semantics (where
// wrappers may hold fail) as in the eager ones (where they may not).
func floorFor(lang, rule string) int {
	if lang == gtlc && rule == "StepCst/InFail" {
		return 0
	}
	return coverageFloor
}

// TestGeneratorCoverage measures which contractions the random programs exercise:
// the differential properties are only as strong as the behaviour their programs
// reach. For each semantics and language it draws coverageSample programs from fixed
// seeds (so the measurement is reproducible), runs them on the reference stage, logs
// the rule distribution (go test -v), and requires every rule of the semantics to fire
// in at least floorFor programs, at least a tenth of the programs to end in a value
// and a tenth in blame, and a few, at most 5%, to run out of fuel (the generator's
// diverging loops).
func TestGeneratorCoverage(t *testing.T) {
	t.Parallel()
	// The machine counts what the reduction semantics counts, contraction for
	// contraction (the lockstep tests check it), and takes a fraction of its time.
	ref := machine.Stage{}
	for _, sem := range g.Standard() {
		for _, lang := range languages(sem) {
			t.Run(sem.Name()+"/"+lang.name, func(t *testing.T) {
				gen := gradualgen.ProgramGen(lang.cfg)
				stats := newRuleStats()
				for i := range coverageSample {
					p := fromTerm(t, lang.cfg, gen.Example(i))
					r := runOn(p, ref, sem.Name(), interderive.Options{Fuel: lockstepFuel, Merging: interderive.Unmerged})
					if r.err != nil && !errors.Is(r.err, interderive.ErrOutOfFuel) {
						t.Fatalf("%v\n%s", r.err, describe(p))
					}
					stats.add(r)
				}
				t.Logf("%s %s: %s", sem.Name(), lang.name, stats)
				for _, rule := range castRules(sem) {
					if n, floor := stats.programsWith[rule], floorFor(lang.name, rule); n < floor {
						t.Errorf("%s fires in only %d of %d programs (want at least %d): the generator is too weak", rule, n, stats.programs, floor)
					}
				}
				if min(stats.values, stats.blamed) < stats.programs/10 {
					t.Errorf("outcomes too lopsided: %d values, %d blame of %d programs", stats.values, stats.blamed, stats.programs)
				}
				if stats.outOfFuel == 0 || stats.outOfFuel > stats.programs/20 {
					t.Errorf("%d of %d programs run out of fuel: want a few, and at most 5%%", stats.outOfFuel, stats.programs)
				}
			})
		}
	}
}
