package machine

import (
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
)

// substEval runs a closed term on the machine by substitution, whichever discipline
// Eval chooses.
func substEval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	return evalUnder(l, t, opts, sem.Substitution)
}

// substStage is the substitution machine as a stage, whichever machine Eval chooses.
type substStage struct{}

func (substStage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	return substEval(l, t, opts)
}

// TestEnvQualifies: the rule files of testdata/rules match no variable occurrence, so
// they run on the environment machine; a file whose rule does does not.
func TestEnvQualifies(t *testing.T) {
	for _, name := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem"} {
		if !rulescases.Load(t, name).Qualifies() {
			t.Errorf("%s does not qualify", name)
		}
	}
	if rulescases.LoadSource(t, "open.sem", rulescases.OpenSem).Qualifies() {
		t.Error("a rule that matches a variable occurrence qualifies")
	}
}

// TestSubstMachine: the substitution machine, which runs the files that do not
// qualify for environments, makes the same contractions as the environment machine
// and ends alike (rulescases.Agree), on the programs of testdata/rules and
// testdata/lambda (whose expectations the exported tests check).
func TestSubstMachine(t *testing.T) {
	for _, lang := range []string{"cbn", "cbn-strict"} {
		l := rulescases.Load(t, lang+".sem")
		for _, c := range rulescases.Corpus(t, lang) {
			substAgrees(t, lang+"/"+c.Name, l, rulescases.Read(t, l, c.Src))
		}
	}
	cbv := rulescases.LoadCBV(t)
	for _, p := range rulescases.WellTyped(t) {
		substAgrees(t, p.Name, cbv.Lang, cbv.Term(t, p.Expr))
	}
}

// substAgrees checks that the environment machine and the substitution machine run
// the term e of l alike, with a fuel of 5000.
func substAgrees(t *testing.T, what string, l *sem.Language, e *sem.Term) {
	t.Helper()
	rulescases.Agree(t, what, rulescases.RunDerived(Stage{}.Rules(), l, e, 5000), rulescases.RunDerived(substStage{}, l, e, 5000))
}

// TestSubstMachineContextAndLayers: the substitution machine, too, gives the answers
// and contraction sequences derived by hand for the rule files with answers, context
// rules and inner layers (rulescases.Suites), and agrees with the derived reduction
// semantics.
func TestSubstMachineContextAndLayers(t *testing.T) {
	rulescases.CheckSuites(t, substStage{}, reduction.Stage{}.Rules(), 20)
}
