package driver

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/gen/gradualgen"
	"github.com/interderive/interderive/internal/testenv"
	"pgregory.net/rapid"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// lockstepFuel bounds every run of a random program: the reduction semantics is
// quadratic on purpose, and the generator makes a few loops that never end.
const lockstepFuel = 3000

// run is one stage's run: its answer (or error) and its contraction sequence.
type run struct {
	answer g.Answer
	err    error
	rules  []string
}

// runStage runs a translated term on one stage, in the unmerged mode of spec §4 (the
// space-efficient merging mode, whose contractions differ, has its own tests in
// merge_test.go), recording its contractions.
func runStage(st CastStage, sem g.Semantics, e g.Expr, fuel int) run {
	var r run
	r.answer, r.err = st.Eval(sem, e, interderive.Options{Fuel: fuel, Merging: interderive.Unmerged, OnContract: func(rule string) { r.rules = append(r.rules, rule) }})
	return r
}

// outOfFuel reports whether the run stopped for want of fuel.
func (r run) outOfFuel() bool { return errors.Is(r.err, interderive.ErrOutOfFuel) }

// String is the outcome of the run: its answer, or its error.
func (r run) String() string {
	if r.err != nil {
		return "error: " + r.err.Error()
	}
	return r.answer.String()
}

// agree compares a stage's run with the reference run: the same contraction sequence,
// the same error kind (out of fuel, or not), and the same answer (values up to
// α-renaming, after read-back).
func agree(ref, got run) error {
	if i := firstDifference(ref.rules, got.rules); i >= 0 {
		return fmt.Errorf("the contraction sequences part at contraction %d: %s vs %s (lengths %d and %d)\ncommon prefix: %s\nreference from there: %s\nstage from there:     %s",
			i+1, at(ref.rules, i), at(got.rules, i), len(ref.rules), len(got.rules),
			before(ref.rules, i, 12), after(ref.rules, i, 12), after(got.rules, i, 12))
	}
	if (ref.err == nil) != (got.err == nil) || (ref.err != nil && !sameKind(ref.err, got.err)) {
		return fmt.Errorf("errors differ: %v vs %v", ref.err, got.err)
	}
	if ref.err != nil {
		return nil
	}
	if ref.answer.Blamed != got.answer.Blamed || ref.answer.Blame != got.answer.Blame {
		return fmt.Errorf("answers differ: %s vs %s", ref.answer, got.answer)
	}
	if !ref.answer.Blamed && !g.AlphaEqual(ref.answer.Value, got.answer.Value) {
		return fmt.Errorf("values differ: %s vs %s", ref.answer, got.answer)
	}
	return nil
}

func sameKind(a, b error) bool {
	return errors.Is(a, interderive.ErrOutOfFuel) == errors.Is(b, interderive.ErrOutOfFuel)
}

func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

func at(rules []string, i int) string {
	if i < len(rules) {
		return rules[i]
	}
	return "(end)"
}

// before prints the n rules before rules[i] (the common prefix's end).
func before(rules []string, i, n int) string {
	if i == 0 {
		return "(none)"
	}
	s := strings.Join(rules[max(i-n, 0):i], ", ")
	if i > n {
		s = "..., " + s
	}
	return s
}

// after prints rules[i:] up to n rules.
func after(rules []string, i, n int) string {
	if i >= len(rules) {
		return "(end)"
	}
	s := strings.Join(rules[i:min(i+n, len(rules))], ", ")
	if i+n < len(rules) {
		s += ", ..."
	}
	return s
}

// program is a generated program: the GTLC source (nil for a cast-calculus program)
// and the cast-calculus term that the stages run (casts not yet translated).
type program struct {
	src  g.Expr
	term g.Expr
}

// String prints the program in its input syntax (and, for GTLC, the casts that cast
// insertion made, with their positional labels).
func (p program) String() string {
	if p.src == nil {
		return "cast:  " + g.Format(p.term)
	}
	return "gtlc:  " + g.Format(p.src) + "\ncasts: " + g.Format(p.term)
}

// drawProgram draws a GTLC program and inserts its casts, or draws a cast-calculus
// program, and checks that it is well typed.
func drawProgram(t *rapid.T, cfg gradualgen.Config) program {
	e := gradualgen.Program(t, cfg)
	if !cfg.Cast {
		term, _, err := g.InsertCasts(e)
		if err != nil {
			t.Fatalf("generated GTLC program rejected: %v\n%s", err, g.Format(e))
		}
		return program{src: e, term: term}
	}
	if _, err := g.TypeOf(e); err != nil {
		t.Fatalf("generated cast-calculus program ill-typed: %v\n%s", err, g.Format(e))
	}
	return program{term: e}
}

// lockstep runs p on every stage under sem and compares every stage's run with the
// reference run (the reduction semantics), which it returns. A well-typed program
// never gets stuck, so any error but running out of fuel is a failure too.
func lockstep(stages []CastStage, sem g.Semantics, p program, fuel int) (run, error) {
	te := g.Translate(sem, p.term)
	ref := runStage(stages[0], sem, te, fuel)
	if ref.err != nil && !ref.outOfFuel() {
		return ref, fmt.Errorf("%s: %v", stages[0].Name, ref.err)
	}
	for _, st := range stages[1:] {
		if err := agree(ref, runStage(st, sem, te, fuel)); err != nil {
			return ref, fmt.Errorf("%s disagrees with %s under %s: %v", st.Name, stages[0].Name, sem.Name(), err)
		}
	}
	return ref, nil
}

// TestStagesAgreeOnCorpus runs every corpus program on every stage under every
// semantics, in lockstep with the reduction semantics.
func TestStagesAgreeOnCorpus(t *testing.T) {
	t.Parallel()
	files, err := SourceFiles([]string{"../../testdata/gradual"})
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		l, _ := LanguageFor(file, "")
		src, _ := os.ReadFile(file)
		prog, err := l.Load(src)
		if err != nil {
			continue
		}
		e := prog.(gradualProgram).term
		for _, sem := range g.Standard() {
			te := g.Translate(sem, e)
			ref := runStage(CastStages()[0], sem, te, 20000)
			for _, st := range CastStages()[1:] {
				if err := agree(ref, runStage(st, sem, te, 20000)); err != nil {
					t.Errorf("%s, %s, %s: %v", file, sem.Name(), st.Name, err)
				}
			}
		}
	}
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
		{"gtlc", gradualgen.Config{}},
		{"cast", gradualgen.Config{Cast: true, Inj: gradualgen.For(sem)}},
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
	for _, sem := range g.Standard() {
		for _, lang := range languages(sem) {
			t.Run(sem.Name()+"/"+lang.name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					p := drawProgram(t, lang.cfg)
					if _, err := lockstep(CastStages(), sem, p, lockstepFuel); err != nil {
						t.Fatalf("%v\n%s", err, p)
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
	case r.outOfFuel():
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
	if lang == "gtlc" && rule == "StepCst/InFail" {
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
	ref := CastStages()[0]
	for _, sem := range g.Standard() {
		for _, lang := range languages(sem) {
			t.Run(sem.Name()+"/"+lang.name, func(t *testing.T) {
				gen := gradualgen.ProgramGen(lang.cfg)
				stats := newRuleStats()
				for i := range coverageSample {
					p := program{term: gen.Example(i)}
					if !lang.cfg.Cast {
						var err error
						p.src = p.term
						if p.term, _, err = g.InsertCasts(p.src); err != nil {
							t.Fatalf("generated GTLC program rejected: %v\n%s", err, g.Format(p.src))
						}
					} else if _, err := g.TypeOf(p.term); err != nil {
						t.Fatalf("generated cast-calculus program ill-typed: %v\n%s", err, g.Format(p.term))
					}
					r := runStage(ref, sem, g.Translate(sem, p.term), lockstepFuel)
					if r.err != nil && !r.outOfFuel() {
						t.Fatalf("%v\n%s", r.err, p)
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
