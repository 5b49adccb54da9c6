package gradual

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// ruleFileOf is the rule file of a standard semantics: gradual/rules/NAME.sem.
func ruleFileOf(t testing.TB, name string) *RuleSemantics {
	t.Helper()
	rs, err := StandardRuleSemantics(name)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// derivedStages are the stages that derive an artefact from a rule file.
func derivedStages() []interderive.Stage {
	var out []interderive.Stage
	for _, st := range stages() {
		if _, ok := sem.StageOf(st); ok {
			out = append(out, st)
		}
	}
	return out
}

// fataler is what the helpers need of a test: testing.TB or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

// ruleFileFuel bounds each run: the corpus has programs that loop.
const ruleFileFuel = 5000

// checkRuleFile runs p under the standard semantics s on the hand-written reduction
// semantics and on every stage derived from s's rule file, and reports where a
// derived stage parts from the hand-written one.
func checkRuleFile(t fataler, s g.Semantics, rs *RuleSemantics, p program, fuel int) string {
	t.Helper()
	ran, err := CompareRuleFile(s, rs, p.term, reduction.Stage{}, derivedStages(), fuel)
	if err != nil {
		return err.Error()
	}
	if ran != 6 {
		t.Fatal("the rule file ran on ", ran, " derived stages, not 6")
	}
	return ""
}

// TestRuleFilesAgreeOnCorpus: the four cast semantics as rule files
// (gradual/rules/*.sem), on every stage derived from them, perform the hand-written
// reduction semantics' contractions in the same order, StepCst/<coercion rule> for
// StepCst/<coercion rule>, and reach the same observation, on every program of the
// gradual corpus (or both run out of fuel at the same contraction).
func TestRuleFilesAgreeOnCorpus(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{"../../../testdata/gradual", "../../../testdata/gradual/examples"} {
		for _, ext := range []string{"*.gtlc", "*.cast"} {
			fs, err := filepath.Glob(filepath.Join(dir, ext))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, fs...)
		}
	}
	rules := map[string]bool{}
	ran, least := 0, 200
	if testing.Short() {
		least = 50
	}
	for k, s := range g.Standard() {
		rs := ruleFileOf(t, s.Name())
		for i, f := range files {
			// Under -short each file runs under one semantics in turn, so every file
			// and every semantics still run; the full run takes every pair.
			if !testenv.InTurn(i, k, len(g.Standard())) {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Calculus.Load(strings.TrimPrefix(filepath.Ext(f), "."), src)
			if err != nil {
				continue // a type error, on purpose
			}
			if msg := checkRuleFile(t, s, rs, p.(program), ruleFileFuel); msg != "" {
				t.Errorf("%s under %s: %s", f, s.Name(), msg)
			}
			hand, err := runHand(reduction.Stage{}, s, p.(program).term, ruleFileFuel)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range hand.events {
				rules[e] = true
			}
			ran++
		}
	}
	if ran < least {
		t.Fatalf("only %d runs", ran)
	}
	// The corpus makes every rule of the outer layer, and every coercion rule, fire.
	for _, r := range []string{"beta", "delta", "If", "IdCst", "CmpCst", "AppCst", "FailCst", "FailFC", "Blame", "Let", "Letrec",
		"StepCst/IdL", "StepCst/IdR", "StepCst/InOut", "StepCst/Arr", "StepCst/FailCo", "StepCst/InFail", "StepCst/ArrFail", "StepCst/FailL", "StepCst/FailR"} {
		if !rules[r] {
			t.Errorf("no corpus program contracts by %s", r)
		}
	}
}

// TestRuleFilesAgree: the same on random well-typed programs (GTLC through cast
// insertion, and the cast calculus with explicit coercions and blame), rapid's checks
// for each semantics and language; fuzz --props rulefiles runs it at scale.
func TestRuleFilesAgree(t *testing.T) {
	t.Parallel()
	for _, s := range g.Standard() {
		rs := ruleFileOf(t, s.Name())
		for _, lang := range languages(s) {
			t.Run(s.Name()+"/"+lang.name, func(t *testing.T) {
				rapid.Check(t, func(t *rapid.T) {
					p := drawProgram(t, lang.cfg)
					if msg := checkRuleFile(t, s, rs, p, lockstepFuel); msg != "" {
						t.Fatalf("%s\n%s", msg, describe(p))
					}
				})
			})
		}
	}
}

// TestRuleFileEDN: EDN written as a rule file (testdata/gradual/rules/edn.sem, ED's
// file with mkArrN and without FailR) agrees, on every derived stage and every corpus
// program, with EDN written in Go (gradual/custom/edn.go): a new semantics needs no Go.
func TestRuleFileEDN(t *testing.T) {
	t.Parallel()
	rs, err := LoadRuleSemantics("../../../testdata/gradual/rules/edn.sem")
	if err != nil {
		t.Fatal(err)
	}
	s, ok := g.Lookup("edn", Semantics()...)
	if !ok {
		t.Fatal("no semantics edn")
	}
	files, err := filepath.Glob("../../../testdata/gradual/*.*")
	if err != nil {
		t.Fatal(err)
	}
	var progs []string
	for _, f := range files {
		if ext := strings.TrimPrefix(filepath.Ext(f), "."); ext == cast || ext == gtlc {
			progs = append(progs, f)
		}
	}
	ran, least := 0, 60
	if testing.Short() {
		least = 15 // every 4th program (testenv.Sample); the full run takes them all
	}
	for _, f := range testenv.Sample(progs) {
		ext := strings.TrimPrefix(filepath.Ext(f), ".")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Calculus.Load(ext, src)
		if err != nil {
			continue
		}
		if msg := checkRuleFile(t, s, rs, p.(program), ruleFileFuel); msg != "" {
			t.Errorf("%s: %s", f, msg)
		}
		ran++
	}
	if ran < least {
		t.Fatalf("only %d programs ran", ran)
	}
}
