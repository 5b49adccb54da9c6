package machine

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/values/semval"
	"github.com/interderive/interderive/lambda"
	"github.com/interderive/interderive/reduction"
	"github.com/interderive/interderive/sem"
	"github.com/interderive/interderive/sem/semlambda"
)

func loadRuleFile(t *testing.T, name string) *sem.Language {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "rules", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sem.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestEnvQualifies: the rule files of testdata/rules match no variable occurrence, so
// they run on the environment machine; a file whose rule does does not.
func TestEnvQualifies(t *testing.T) {
	for _, name := range []string{"cbv.sem", "cbn.sem", "cbn-strict.sem"} {
		if !semval.Qualifies(loadRuleFile(t, name)) {
			t.Errorf("%s does not qualify", name)
		}
	}
	l, err := sem.Load([]byte(`(language open)
(sort t (variable x) (integer n) (con lam x t (bind 0 1)) (con app t t))
(kind E v)
(value E n)
(value E (lam x t))
(frame E (app (hole) t))
(frame E (app v (hole)))
(rule beta E (app (lam x t) v) (subst t x v))
(rule eta E (app (lam x_1 (app v x_2)) n) v (where (= x_1 x_2)))
(stuck E (app n v) "application of a non-function")`))
	if err != nil {
		t.Fatal(err)
	}
	if semval.Qualifies(l) {
		t.Error("a rule that matches a variable occurrence qualifies")
	}
}

// TestSubstMachine: the substitution machine, which runs the files that do not
// qualify for environments, makes the same contractions as the environment machine
// and gives the same answers, on the programs of testdata/rules and testdata/lambda
// (whose expectations the exported tests check).
func TestSubstMachine(t *testing.T) {
	for _, lang := range []string{"cbn", "cbn-strict", "cbv"} {
		l := loadRuleFile(t, lang+".sem")
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "rules", lang, "*.term"))
		if lang == "cbv" {
			files, _ = filepath.Glob(filepath.Join("..", "testdata", "lambda", "*.lam"))
		}
		if len(files) == 0 {
			t.Fatal("no programs")
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var e *sem.Term
			if lang == "cbv" {
				p, err := lambda.Parse(src)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := lambda.TypeOf(p); err != nil {
					continue
				}
				tr, err := semlambda.New(l)
				if err != nil {
					t.Fatal(err)
				}
				if e, err = tr.Term(p); err != nil {
					t.Fatal(err)
				}
			} else if e, err = l.ReadTerm(src); err != nil {
				t.Fatal(err)
			}
			var ev, sv []string
			ea, eerr := Stage{}.Rules().Eval(l, e, interderive.Options{Fuel: 5000, OnContract: func(r string) { ev = append(ev, r) }})
			sa, serr := substEval(l, e, interderive.Options{Fuel: 5000, OnContract: func(r string) { sv = append(sv, r) }})
			if !slices.Equal(ev, sv) {
				t.Errorf("%s: environments %v, substitution %v", file, ev, sv)
			}
			var es, ss *interderive.RuntimeError
			switch {
			case eerr == nil && serr == nil:
				if !sem.AlphaEqual(ea.Value, sa.Value) {
					t.Errorf("%s: environments %s, substitution %s", file, ea, sa)
				}
			case errors.As(eerr, &es) && errors.As(serr, &ss) && es.Reason == ss.Reason:
			case errors.Is(eerr, interderive.ErrOutOfFuel) && errors.Is(serr, interderive.ErrOutOfFuel):
			default:
				t.Errorf("%s: environments %v, substitution %v", file, eerr, serr)
			}
		}
	}
}

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

// TestSubstMachineContextAndLayers: the substitution machine, too, gives the answers
// and contraction sequences derived by hand for the rule files with answers, context
// rules and inner layers (rulescases.Suites), and agrees with the derived reduction
// semantics.
func TestSubstMachineContextAndLayers(t *testing.T) {
	if n := rulescases.CheckSuites(t, substStage{}, reduction.Stage{}.Rules()); n < 20 {
		t.Errorf("%d programs", n)
	}
}
