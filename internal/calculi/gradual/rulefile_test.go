package gradual

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/interderive/interderive"
	g "github.com/interderive/interderive/gradual"
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
	hand := runHand(reduction.Stage{}, s, p.term, fuel)
	for _, st := range derivedStages() {
		if msg := agree(hand, runDerived(t, st, rs, p.term, fuel)); msg != "" {
			return st.Name() + " derived from " + rs.Path + ": " + msg
		}
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
	ran := 0
	for _, s := range g.Standard() {
		rs := ruleFileOf(t, s.Name())
		for _, f := range files {
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
			for _, e := range runHand(reduction.Stage{}, s, p.(program).term, ruleFileFuel).events {
				rules[e] = true
			}
			ran++
		}
	}
	if ran < 200 {
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

// recorded is a run's contractions and its observation or error.
type recorded struct {
	events []string
	obs    string
	err    error
}

// runHand runs e on the hand-written stage st under sem, unmerged.
func runHand(st interderive.Stage, s g.Semantics, e g.Expr, fuel int) recorded {
	var r recorded
	gs, _ := g.StageOf(st)
	a, err := gs.Eval(s, g.Translate(s, e), interderive.Options{Fuel: fuel, Merging: interderive.Unmerged,
		OnContract: func(rule string) { r.events = append(r.events, rule) }})
	r.err = err
	if err == nil {
		r.obs = a.Observe()
	}
	return r
}

// runDerived runs e on the stage st's artefact derived from the rule file rs.
func runDerived(t fataler, st interderive.Stage, rs *RuleSemantics, e g.Expr, fuel int) recorded {
	t.Helper()
	var r recorded
	var labels Labels
	term, err := rs.Term(e, &labels)
	if err != nil {
		t.Fatal(err)
	}
	ds, ok := sem.StageOf(st)
	if !ok {
		t.Fatal(st.Name() + " derives no stage from a rule file")
	}
	a, err := ds.Eval(rs.Lang, term, interderive.Options{Fuel: fuel,
		OnContract: func(rule string) { r.events = append(r.events, rule) }})
	r.err = err
	if err == nil {
		r.obs = rs.Observe(a.Value, &labels)
	}
	return r
}

// agree compares a derived run with the hand-written one: the same contractions, and
// the same observation, or both out of fuel.
func agree(hand, derived recorded) string {
	if !slices.Equal(hand.events, derived.events) {
		for i := range min(len(hand.events), len(derived.events)) {
			if hand.events[i] != derived.events[i] {
				return "contraction " + itoa(i+1) + ": hand " + hand.events[i] + ", derived " + derived.events[i]
			}
		}
		return "hand " + itoa(len(hand.events)) + " contractions, derived " + itoa(len(derived.events))
	}
	if errors.Is(hand.err, interderive.ErrOutOfFuel) && errors.Is(derived.err, interderive.ErrOutOfFuel) {
		return ""
	}
	if hand.err != nil || derived.err != nil {
		return "hand error " + errString(hand.err) + ", derived error " + errString(derived.err)
	}
	if hand.obs != derived.obs {
		return "hand answer " + hand.obs + ", derived " + derived.obs
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "none"
	}
	return err.Error()
}

func itoa(n int) string { return strconv.Itoa(n) }
